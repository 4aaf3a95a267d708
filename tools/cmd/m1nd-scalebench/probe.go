package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/tools/localize"
)

// parseDelays reads -seek-at: non-negative durations in increasing
// order, because each seek is asked at its delay after the same answer.
func parseDelays(v string) ([]time.Duration, error) {
	var ds []time.Duration
	for _, f := range strings.Split(v, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("-seek-at takes durations after the ingest's answer, e.g. 0s,3s: %w", err)
		}
		if d < 0 || (len(ds) > 0 && d <= ds[len(ds)-1]) {
			return nil, fmt.Errorf("-seek-at %q: the delays must be ≥ 0 and increasing, e.g. 0s,3s", v)
		}
		ds = append(ds, d)
	}
	return ds, nil
}

// seeksAt asks one seek at each delay after answered, as a client that
// got the ingest's answer would, and returns each one's time in ms.
// Each asks a different query, so no seek is served by its
// predecessor's cached answer; a seek that runs past the next delay
// makes the next one late, which is what a client would see too.
func seeksAt(answered time.Time, delays []time.Duration, seek func(q string) error, sleep func(time.Duration)) ([]float64, error) {
	out := make([]float64, 0, len(delays))
	for i, d := range delays {
		if wait := d - time.Since(answered); wait > 0 {
			sleep(wait)
		}
		start := time.Now()
		if err := seek(queries[i%len(queries)]); err != nil {
			return out, fmt.Errorf("seek at %s after the answer: %w", d, err)
		}
		out = append(out, ms(time.Since(start)))
	}
	return out, nil
}

// readSwapOut is the machine's count of pages swapped out since boot:
// the bench compares it before and after a tree, so a peak that only
// fits by swapping shows up instead of passing as a slow ingest.
func readSwapOut() (int64, error) {
	data, err := os.ReadFile("/proc/vmstat")
	if err != nil {
		return 0, fmt.Errorf("the swap check needs Linux /proc/vmstat: %w", err)
	}
	return vmstatField(string(data), "pswpout")
}

func vmstatField(text, name string) (int64, error) {
	for _, line := range strings.Split(text, "\n") {
		if k, v, ok := strings.Cut(line, " "); ok && k == name {
			return strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	return 0, fmt.Errorf("/proc/vmstat has no %s line", name)
}

// readVmSwapMB is how much of the server is swapped out now.
func readVmSwapMB(pid int) (float64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	return statusKB(string(data), "VmSwap") / 1024, nil
}

func statusKB(text, name string) float64 {
	for _, line := range strings.Split(text, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && k == name {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb
		}
	}
	return 0
}

func loadAvg3() string {
	data, _ := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "?"
}

func loadAvg1() string {
	f, _, _ := strings.Cut(loadAvg3(), " ")
	return f
}

func msCell(xs []float64, i int) string {
	if i >= len(xs) {
		return "—"
	}
	return strconv.FormatFloat(xs[i], 'f', 1, 64)
}

func swapCell(pages int64) string {
	if pages < 0 {
		return "not read"
	}
	return strconv.FormatInt(pages, 10)
}

// printCounts sizes the trees without a server.
func printCounts(ts trees, stdout, stderr io.Writer) int {
	total := 0
	for _, t := range ts {
		files, lines, err := countLines(t.dir)
		if err != nil {
			fmt.Fprintf(stderr, "m1nd-scalebench: %s: %v\n", t.name, err)
			return 1
		}
		total += lines
		fmt.Fprintf(stdout, "%s\t%d source files\t%d lines\n", t.name, files, lines)
	}
	fmt.Fprintf(stdout, "total\t%d lines\n", total)
	return 0
}

// budgets are the ingest budgets each ingest call sets (-max-nodes,
// -timeout-s); 0 leaves the server's.
type budgets struct{ maxNodes, timeoutS int }

// ingestArgs are the arguments of the i-th root's ingest call: the first
// replaces the graph, the others merge into it.
func ingestArgs(root string, i int, b budgets) map[string]any {
	args := map[string]any{"agent_id": "bench", "path": root, "mode": "replace"}
	if i > 0 {
		args["mode"] = "merge"
	}
	if b.maxNodes > 0 {
		args["max_nodes"] = b.maxNodes
	}
	if b.timeoutS > 0 {
		args["timeout_s"] = b.timeoutS
	}
	return args
}

// ingestTree ingests t (each subdirectory in name order when split, the
// first replacing the graph, the others merged) and records the graph,
// the files read, each call's time and any budget that cut an ingest
// short.
func ingestTree(ctx context.Context, c *localize.Client, t tree, b budgets, r *Row) error {
	roots := []string{t.dir}
	if t.split {
		var err error
		if roots, err = subdirs(t.dir); err != nil {
			return err
		}
	}
	start := time.Now()
	var cut []string
	for i, root := range roots {
		var ing ingestAnswer
		began := time.Now()
		if err := c.CallTool(ctx, "ingest", ingestArgs(root, i, b), &ing); err != nil {
			return fmt.Errorf("ingest of %s: %w", root, err)
		}
		r.RootMs = append(r.RootMs, ms(time.Since(began)))
		r.Nodes, r.Edges = ing.Graph.Nodes, ing.Graph.Edges
		r.FilesIngested += ing.FilesProcessed
		if ing.Stats.Partial {
			cut = append(cut, filepath.Base(root)+": "+cmp.Or(ing.Stats.BudgetExhausted, "budget"))
		}
	}
	r.IngestMs = ms(time.Since(start))
	r.Roots, r.Partial = len(roots), strings.Join(cut, ", ")
	return nil
}

type ingestAnswer struct {
	FilesProcessed int `json:"files_processed"`
	Graph          struct {
		Nodes int `json:"node_count"`
		Edges int `json:"edge_count"`
	} `json:"graph"`
	Stats struct {
		Partial         bool   `json:"partial"`
		BudgetExhausted string `json:"budget_exhausted"`
	} `json:"stats"`
}

func subdirs(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents { // ReadDir sorts by name: a stable order
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s/* has no subdirectory to ingest as a root; give name=%s for one root", dir, dir)
	}
	return out, nil
}

func partialNote(p string) string {
	if p == "" {
		return ""
	}
	return " — PARTIAL, cut by " + p
}
