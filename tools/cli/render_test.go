package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTable(t *testing.T) {
	var b bytes.Buffer
	table(&b, style{}, []string{"A", "LONGER", "C"}, [][]string{{"1", "x", "end"}, {"22", "yyyyyyyy", ""}})
	want := "A   LONGER    C\n" +
		"1   x         end\n" +
		"22  yyyyyyyy\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("table (-want +got):\n%s", diff)
	}
	b.Reset()
	table(&b, style{on: true}, []string{"A", "B"}, [][]string{{"1", "2"}})
	if want := "\x1b[1mA  B\x1b[0m\n1  2\n"; b.String() != want {
		t.Errorf("coloured header %q, want %q (bold after alignment)", b.String(), want)
	}
}

func TestRenderers(t *testing.T) {
	tests := []struct {
		tool string
		raw  string
		want string
	}{
		{"seek", `{"results":[{"node_id":"file::a.go::F","label":"F","type":"function","score":0.5,"file_path":"a.go","line_start":3,"line_end":9,"intent_summary":"F does things."},
			{"node_id":"file::b.go","label":"b.go","type":"file","score":0.25,"file_path":"b.go","line_start":1,"line_end":1}],
			"next_step_hint":"read a.go","stale_files":{"files":["file::a.go"]}}`,
			"SCORE  TYPE      NAME  LOCATION  SUMMARY\n" +
				"0.500  function  F     a.go:3-9  F does things.\n" +
				"0.250  file      b.go  b.go:1\n" +
				"stale: a.go changed on disk since the graph was built (m1nd ingest --incremental)\n" +
				"next: read a.go\n"},
		{"seek", `{"results":[]}`, "no results\n"},
		{"impact", `{"source":"file::a.go","direction":"dependents","total_affected":2,"not_listed":1,
			"blast_radius":[{"node_id":"file::b.go","type":"file","signal_strength":0.85,"hop_distance":1,"via":["b.go::g calls a.go::F"]}]}`,
			"impact of a.go (dependents): 2 nodes affected\n" +
				"HOP  SIGNAL  TYPE  NODE  VIA\n" +
				"1    0.850   file  b.go  b.go::g calls a.go::F\n" +
				"… and 1 more (--top_k)\n"},
		{"why", `{"source":"file::a.go","target":"file::b.go","total_paths_found":1,
			"paths":[{"path":["file::a.go","file::a.go::F","file::b.go"],"relations":["contains","calls"],"cumulative_strength":0.5,"hops":2}]}`,
			"why a.go → b.go: 1 path\n" +
				"#  HOPS  STRENGTH  PATH\n" +
				"1  2     0.500     a.go -contains-> a.go::F -calls-> b.go\n"},
		{"search", `{"results":[{"file_path":"a.go","line_number":8,"matched_line":"\tfunc lookup() {}","label":"lookup"}],
			"total_matches":3,"total_matches_exact":false,"files_matched":1,"files_scanned":4}`,
			"LOCATION  IN      LINE\n" +
				"a.go:8    lookup  func lookup() {}\n" +
				"at least 3 matches in 1 file (4 scanned)\n"},
		{"ingest", `{"path":"/r","files_processed":4,"nodes_created":11,"edges_created":13,"elapsed_ms":1500,
			"languages":{"python":1,"go":2,"gomod":1},"graph":{"node_count":11,"edge_count":22},"persisted":{"durable":true}}`,
			"ingested /r\n" +
				"  4 files → 11 nodes, 22 edges in 1.5 s\n" +
				"  languages: go 2, gomod 1, python 1\n" +
				"  saved to the runtime directory\n"},
		{"health", `{"status":"ok"}`, "{\n  \"status\": \"ok\"\n}\n"},
		{"seek", `not json`, "not json\n"},
	}
	for _, tc := range tests {
		var b bytes.Buffer
		render(&b, style{}, tc.tool, []byte(tc.raw))
		if diff := cmp.Diff(tc.want, b.String()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.tool, diff)
		}
	}
}

func TestPrintToolError(t *testing.T) {
	var b bytes.Buffer
	printToolError(&b, style{}, "impact", `{"error":"node_id \"x\" is not a node of the graph","hint":"use seek","suggested_next_step":"call seek",
		"example":{"name":"impact","arguments":{"agent_id":"claude","node_id":"file::a.go"}}}`)
	want := "m1nd impact: node_id \"x\" is not a node of the graph\n" +
		"  hint: use seek\n" +
		"  next: call seek\n" +
		"  example: m1nd call impact '{\"node_id\":\"file::a.go\"}'\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestProgressBar(t *testing.T) {
	var b bytes.Buffer
	u := &ui{w: &b, width: 80}
	u.progress(0, 0, "walk")
	u.progress(10, 10, "walk")
	u.progress(5, 10, "extract")
	u.progress(10, 10, "extract")
	u.progress(1, 10, "resolve")
	u.progress(10, 10, "done")
	u.finish(true)
	u.progress(3, 10, "late") // after the answer: dropped
	out := b.String()
	draws := strings.Split(out, "\r")[1:]
	if len(draws) < 5 { // each new phase draws, and the finish
		t.Fatalf("%d draws, want one per phase at least: %q", len(draws), out)
	}
	if !strings.HasSuffix(out, "[########################] 100% done 10/10\x1b[K\n") {
		t.Errorf("bar does not finish at 100%% with a newline: %q", out)
	}
	if !strings.Contains(out, " 37% extract 5/10") {
		t.Errorf("extract halfway not drawn at 37%% overall (walk 5 + half of extract 65): %q", out)
	}
	last := -1
	for _, d := range draws {
		var pct int
		i := strings.Index(d, "]")
		if _, err := fmt.Sscan(d[i+1:], &pct); err != nil {
			t.Fatalf("draw %q: %v", d, err)
		}
		if pct < last {
			t.Errorf("bar went back from %d%% to %d%%: %q", last, pct, out)
		}
		last = pct
	}
}

func TestProgressPlain(t *testing.T) {
	var b bytes.Buffer
	u := &ui{w: &b}
	u.progress(0, 0, "walk")
	u.progress(4, 4, "walk")
	u.progress(0, 4, "build") // never reports its end: the next phase does
	u.progress(0, 0, "finalize")
	u.finish(true)
	want := "m1nd: walk 4/4\nm1nd: build 4/4\nm1nd: finalize\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("plain lines (-want +got):\n%s", diff)
	}
	b.Reset()
	q := &ui{w: &b, quiet: true}
	q.progress(1, 1, "walk")
	q.progress(1, 1, "extract")
	q.finish(true)
	if b.Len() != 0 {
		t.Errorf("--json without a terminal printed progress: %q", b.String())
	}
}

func TestNoBarWithoutProgress(t *testing.T) {
	var b bytes.Buffer
	u := &ui{w: &b, width: 80}
	u.finish(true)
	if b.Len() != 0 {
		t.Errorf("a call without progress drew %q", b.String())
	}
}

func TestLogLinesKeepTheBarIntact(t *testing.T) {
	var b bytes.Buffer
	u := &ui{w: &b, width: 80}
	u.progress(1, 2, "extract")
	u.logf("loaded graph %s", "x") // routine: hidden
	u.logf("warm-up %s: %v", "activate's workspaces", "0s")
	u.logf("seek index documents of %d files saved in %v", 4, "23ms")
	u.logf("WARNING: persist failed: %s", "disk full")
	if !strings.Contains(b.String(), "\r\x1b[Km1nd: WARNING: persist failed: disk full\n") {
		t.Errorf("log line does not clear the bar first: %q", b.String())
	}
	if strings.Contains(b.String(), "loaded graph") || strings.Contains(b.String(), "warm-up") || strings.Contains(b.String(), "seek index") {
		t.Errorf("routine log line shown without --verbose: %q", b.String())
	}
}
