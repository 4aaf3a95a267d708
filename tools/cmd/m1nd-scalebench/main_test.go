package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseDelays(t *testing.T) {
	ds, err := parseDelays("0s, 3s,10s")
	if err != nil || len(ds) != 3 || ds[1] != 3*time.Second {
		t.Fatalf("parseDelays = %v, %v", ds, err)
	}
	for _, bad := range []string{"", "3s,1s", "-1s", "0s,0s", "soon"} {
		if _, err := parseDelays(bad); err == nil {
			t.Errorf("parseDelays(%q) took a bad list", bad)
		}
	}
}

// TestSeeksAtWaitFromTheAnswer: a seek at 3 s is asked 3 s after the
// answer, not 3 s after the previous seek, and each asks a new query.
func TestSeeksAtWaitFromTheAnswer(t *testing.T) {
	answered := time.Now().Add(-time.Second) // the answer came 1 s ago
	var slept []time.Duration
	var asked []string
	got, err := seeksAt(answered, []time.Duration{0, 3 * time.Second},
		func(q string) error { asked = append(asked, q); return nil },
		func(d time.Duration) { slept = append(slept, d) })
	if err != nil || len(got) != 2 {
		t.Fatalf("seeksAt = %v, %v", got, err)
	}
	if len(slept) != 1 || slept[0] > 2*time.Second || slept[0] < 1900*time.Millisecond {
		t.Errorf("slept %v, want one sleep of ≈ 2 s (3 s after an answer 1 s old)", slept)
	}
	if len(asked) != 2 || asked[0] == asked[1] {
		t.Errorf("asked %q, want two different queries", asked)
	}
}

func TestSwapReadings(t *testing.T) {
	n, err := vmstatField("pswpin 4\npswpout 17\npgfault 9\n", "pswpout")
	if err != nil || n != 17 {
		t.Errorf("vmstatField = %d, %v; want 17", n, err)
	}
	if _, err := vmstatField("pswpin 4\n", "pswpout"); err == nil {
		t.Error("a vmstat without pswpout read as a count")
	}
	if kb := statusKB("VmRSS:\t 2048 kB\nVmSwap:\t    512 kB\n", "VmSwap"); kb != 512 {
		t.Errorf("statusKB = %v, want 512", kb)
	}
	if swapCell(-1) != "not read" || swapCell(0) != "0" {
		t.Error("an unread swap count must not print as 0")
	}
}

// TestRenderHasEveryColumn: each row has as many cells as the header,
// with one seek column per delay and the swap figures.
func TestRenderHasEveryColumn(t *testing.T) {
	delays := []time.Duration{0, 3 * time.Second}
	rows := []Row{
		{Name: "a", Lines: 1000, Nodes: 10, Edges: 30, IngestMs: 100, PeakRSSMB: 50, SeekAtMs: []float64{40, 5}, Activate: 2, Seek: 1, Impct: 1, LoadStart: "1.0"},
		{Name: "b", Lines: 100000, Nodes: 1000, Edges: 3000, IngestMs: 5000, PeakRSSMB: 500, SeekAtMs: []float64{400}, Activate: 4, Seek: 2, Impct: 1, SwapOutPages: -1},
	}
	out := render(rows, delays)
	for _, want := range []string{"seek @0s ms", "seek @3s ms", "pages swapped out", "server VmSwap MB", "1st activate ms", "1st impact ms", "| not read |", "| — |"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	var cells []int
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "|") {
			cells = append(cells, strings.Count(line, "|"))
		}
	}
	if len(cells) != 4 {
		t.Fatalf("want header, rule and two rows, got %d table lines", len(cells))
	}
	for i, c := range cells {
		if c != cells[0] {
			t.Errorf("table line %d has %d bars, the header %d", i, c, cells[0])
		}
	}
}

func TestExponent(t *testing.T) {
	xs := []float64{10, 100, 1000}
	if k := exponent(xs, []float64{3, 30, 300}); math.Abs(k-1) > 1e-9 {
		t.Errorf("linear growth gave exponent %v", k)
	}
	if k := exponent(xs, []float64{1, 1, 1}); math.Abs(k) > 1e-9 {
		t.Errorf("flat figures gave exponent %v", k)
	}
	if !math.IsNaN(exponent([]float64{10}, []float64{1})) {
		t.Error("one point must give no exponent")
	}
}

func TestCountOnly(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nfunc A() {}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not\nsource\n"), 0o644)
	var out, errb bytes.Buffer
	if code := run([]string{"-count", "-tree", "t=" + dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "t\t1 source files\t3 lines") {
		t.Errorf("count = %q, want one source file of 3 lines", out.String())
	}
}

// TestFitLeavesOutPartialTrees: a tree cut by an ingest budget is in
// the table, marked, but not in the exponents (its graph is smaller
// than its lines say).
func TestFitLeavesOutPartialTrees(t *testing.T) {
	rows := []Row{
		{Name: "a", Lines: 1000, Nodes: 100, Edges: 100, IngestMs: 10, PeakRSSMB: 10, Activate: 1, Seek: 1, Impct: 1, FirstSeekMs: 1},
		{Name: "b", Lines: 10000, Nodes: 1000, Edges: 1000, IngestMs: 100, PeakRSSMB: 100, Activate: 1, Seek: 1, Impct: 1, FirstSeekMs: 1},
		{Name: "huge", Lines: 1000000, Nodes: 10, Edges: 10, IngestMs: 100, PeakRSSMB: 100, Activate: 1, Seek: 1, Impct: 1, FirstSeekMs: 1, Partial: "huge: timeout"},
	}
	out := render(rows, []time.Duration{0})
	if !strings.Contains(out, "ingest 1.00, peak RSS 1.00, nodes+edges 1.00") {
		t.Errorf("the cut tree bent the fit:\n%s", out)
	}
	if !strings.Contains(out, "| huge: timeout |") || !strings.Contains(out, "Left out of the fit, cut short by an ingest budget: huge.") {
		t.Errorf("the cut tree is not marked:\n%s", out)
	}
}

func TestSplitTree(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"b", "a", ".git"} {
		os.Mkdir(filepath.Join(dir, d), 0o755)
	}
	os.WriteFile(filepath.Join(dir, "top.go"), []byte("package top\n"), 0o644)
	var ts trees
	if err := ts.Set("big=" + dir + "/*"); err != nil || !ts[0].split || ts[0].dir != dir {
		t.Fatalf("Set = %+v, %v; want a split tree at %s", ts, err, dir)
	}
	got, err := subdirs(dir)
	if err != nil || len(got) != 2 || filepath.Base(got[0]) != "a" || filepath.Base(got[1]) != "b" {
		t.Errorf("subdirs = %v, %v; want a, b (no dot directories, name order)", got, err)
	}
	if _, err := subdirs(filepath.Join(dir, "a")); err == nil {
		t.Error("a directory without subdirectories gave roots")
	}
}

// TestIngestArgsCarryTheBudgets: -max-nodes and -timeout-s reach every
// ingest call; unset, the call leaves the server's budgets.
func TestIngestArgsCarryTheBudgets(t *testing.T) {
	for _, c := range []struct {
		name   string
		i      int
		b      budgets
		want   map[string]any
		absent []string
	}{
		{"unset", 0, budgets{}, map[string]any{"mode": "replace"}, []string{"max_nodes", "timeout_s"}},
		{"both, a merged root", 2, budgets{2_000_000, 3600}, map[string]any{"mode": "merge", "max_nodes": 2_000_000, "timeout_s": 3600}, nil},
	} {
		args := ingestArgs("/t", c.i, c.b)
		for k, v := range c.want {
			if args[k] != v {
				t.Errorf("%s: %s = %v, want %v", c.name, k, args[k], v)
			}
		}
		for _, k := range c.absent {
			if _, ok := args[k]; ok {
				t.Errorf("%s: %s sent", c.name, k)
			}
		}
	}
}
