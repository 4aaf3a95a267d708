package query

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/textsearch"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The search benchmarks run on the shared benchmark corpora
// (../shared/corpora/corpora.sh builds them under /tmp/m1nd-corpora, or
// $M1ND_CORPORA) and compare with ripgrep when rg is installed:
//
//	go test ./tools -run '^$' -bench 'SearchLiteral' -benchtime 20x
//	M1ND_BENCH_SEARCH=1 go test ./tools -run TestSearchVsRipgrep -v -timeout 30m
//
// The second form interleaves every variant round by round (fairer on a
// shared, noisy machine) and prints the markdown table recorded in
// benchmarks/results/search.md. Variants:
//
//	tool-exact     the search tool, case-sensitive, exact_counts (scans every file), warm content cache, JSON rendered
//	tool-exact-nc  the same with the content cache disabled (reads every file each time, as rg does)
//	tool-exact-i   tool-exact, case-insensitive (compare with rg-i)
//	tool-default   the search tool's defaults (case-insensitive, stops once top_k lines are found)
//	engine-nc      textsearch.Search alone over every file of the corpus, no cache
//	rg             rg -c -F -s (one process per search, like an agent's grep)
//	rg-i           rg -c -F -i
//	rg-graph-files rg -c -F -s over exactly the files the graph indexes (the tool's file set)
var benchQueries = map[string][]string{
	"py-335": {"import", "deque", "zzqqxx_nomatch"},
	"go-std": {"return", "ParseDuration", "zzqqxx_nomatch"},
}

type benchCorpusState struct {
	warm, nocache *tools.Dispatcher
	dir           string
	files         []textsearch.File
	graphFiles    []string // absolute paths of the files the graph indexes
	ingest        map[string]any
}

var benchCorpora sync.Map

func benchCorpus(tb testing.TB, name string) *benchCorpusState {
	tb.Helper()
	dir := tooltest.CorpusPath(name)
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("corpus %s missing (bash ../shared/corpora/corpora.sh %s)", dir, name)
	}
	if s, ok := benchCorpora.Load(name); ok {
		return s.(*benchCorpusState)
	}
	open := func() *tools.Dispatcher {
		st, err := session.Open(tooltest.TestConfig(), nil)
		if err != nil {
			tb.Fatal(err)
		}
		return &tools.Dispatcher{Registry: tooltest.Builtin(), Session: st}
	}
	s := &benchCorpusState{warm: open(), nocache: open(), dir: dir}
	raw, _ := json.Marshal(map[string]any{"agent_id": "bench", "path": dir})
	res := s.warm.Call(context.Background(), "ingest", raw, nil)
	if res.IsError {
		tb.Fatalf("ingest %s: %s", dir, res.Text())
	}
	json.Unmarshal([]byte(res.Text()), &s.ingest)
	// ingest builds the query engine in the background: wait for it so it
	// does not compete with the measurements.
	s.warm.Session.Engine(s.warm.Session.Current())
	// The no-cache session serves the same graph; its content cache is
	// disabled when its bundle first builds one.
	cur := s.warm.Session.Current()
	s.nocache.Session.Build("graph_replaced", func(*session.Bundle) (*graph.Graph, []session.Root, error) {
		return cur.Graph, cur.Roots, nil
	})
	os.Setenv("M1ND_SEARCH_CACHE_MB", "0")
	tools.BundleCache(s.nocache.Session.Current())
	os.Unsetenv("M1ND_SEARCH_CACHE_MB")
	cur = s.warm.Session.Current()
	for _, a := range tools.BundleDiskFiles(cur).Abs {
		if a != "" {
			s.graphFiles = append(s.graphFiles, a)
		}
	}
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			s.files = append(s.files, textsearch.File{Path: p, Abs: p})
		}
		return nil
	})
	benchCorpora.Store(name, s)
	return s
}

// benchVariants returns the variants of one query: each runs one search
// and reports the matching lines (-1 when unknown) and files searched.
func benchVariants(tb testing.TB, s *benchCorpusState, q string) []struct {
	name string
	run  func() (lines, files int)
} {
	tool := func(d *tools.Dispatcher, args map[string]any) func() (int, int) {
		args["agent_id"], args["query"] = "bench", q
		raw, _ := json.Marshal(args)
		return func() (int, int) {
			res := d.Call(context.Background(), "search", raw, nil)
			text := res.Text()
			var out struct {
				ContentMatches int `json:"content_matches"`
				FilesScanned   int `json:"files_scanned"`
			}
			json.Unmarshal([]byte(text), &out)
			return out.ContentMatches, out.FilesScanned
		}
	}
	m, _ := textsearch.Compile(textsearch.Query{Pattern: q, CaseSensitive: true})
	rg := func(flag string, paths ...string) func() (int, int) {
		path, err := exec.LookPath("rg")
		if err != nil {
			return nil
		}
		args := append([]string{"-c", "-F", flag, "--no-messages", q}, paths...)
		return func() (int, int) {
			out, _ := exec.Command(path, args...).Output()
			lines, files := 0, 0
			for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				var n int
				if i := strings.LastIndexByte(l, ':'); i >= 0 {
					fmt.Sscan(l[i+1:], &n)
					lines += n
					files++
				}
			}
			return lines, files // files here: files with a match
		}
	}
	vs := []struct {
		name string
		run  func() (int, int)
	}{
		{"tool-exact", tool(s.warm, map[string]any{"case_sensitive": true, "exact_counts": true})},
		{"tool-exact-nc", tool(s.nocache, map[string]any{"case_sensitive": true, "exact_counts": true})},
		{"tool-exact-i", tool(s.warm, map[string]any{"exact_counts": true})},
		{"tool-default", tool(s.warm, map[string]any{})},
		{"engine-nc", func() (int, int) {
			r := textsearch.Search(context.Background(), s.files, m, textsearch.Options{Keep: 50})
			return r.Total, r.FilesScanned
		}},
		{"rg", rg("-s", s.dir)},
		{"rg-i", rg("-i", s.dir)},
		{"rg-graph-files", rg("-s", s.graphFiles...)},
	}
	return slices.DeleteFunc(vs, func(v struct {
		name string
		run  func() (int, int)
	}) bool {
		return v.run == nil
	})
}

func BenchmarkSearchLiteral(b *testing.B) {
	for _, corpus := range []string{"py-335", "go-std"} {
		for _, q := range benchQueries[corpus] {
			b.Run(corpus+"/"+q, func(b *testing.B) {
				s := benchCorpus(b, corpus)
				for _, v := range benchVariants(b, s, q) {
					b.Run(v.name, func(b *testing.B) {
						var lines, files int
						for b.Loop() {
							lines, files = v.run()
						}
						b.ReportMetric(float64(lines), "lines")
						b.ReportMetric(float64(files), "files")
					})
				}
			})
		}
	}
}

// TestSearchVsRipgrep prints the comparison table (see the top of the
// file). It is a measurement, not a check, so it runs only when asked.
func TestSearchVsRipgrep(t *testing.T) {
	if os.Getenv("M1ND_BENCH_SEARCH") == "" {
		t.Skip("set M1ND_BENCH_SEARCH=1 to measure search against ripgrep")
	}
	rounds := 15
	var sb strings.Builder
	for _, corpus := range []string{"py-335", "go-std"} {
		s := benchCorpus(t, corpus)
		st, _ := s.ingest["stats"].(map[string]any)
		fmt.Fprintf(&sb, "\n### %s (%d files on disk; ingest: %v files processed, stats %v)\n\n", corpus, len(s.files), s.ingest["files_processed"], st)
		sb.WriteString("| query | variant | median ms | p90 ms | min ms | lines | files | / rg | / rg-graph-files |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, q := range benchQueries[corpus] {
			vs := benchVariants(t, s, q)
			times := make([][]time.Duration, len(vs))
			lines := make([]int, len(vs))
			files := make([]int, len(vs))
			for _, v := range vs { // warm-up: page cache, content cache, indexes
				v.run()
			}
			for r := 0; r < rounds; r++ {
				for i, v := range vs {
					start := time.Now()
					lines[i], files[i] = v.run()
					times[i] = append(times[i], time.Since(start))
				}
			}
			meds := map[string]time.Duration{}
			for i, v := range vs {
				slices.Sort(times[i])
				meds[v.name] = times[i][len(times[i])/2]
			}
			ratio := func(med time.Duration, base string) string {
				if b := meds[base]; b > 0 {
					return fmt.Sprintf("%.2f×", float64(med)/float64(b))
				}
				return "–"
			}
			for i, v := range vs {
				med, p90 := times[i][len(times[i])/2], times[i][len(times[i])*9/10]
				fmt.Fprintf(&sb, "| `%s` | %s | %.1f | %.1f | %.1f | %d | %d | %s | %s |\n", q, v.name, msf(med), msf(p90), msf(times[i][0]), lines[i], files[i], ratio(med, "rg"), ratio(med, "rg-graph-files"))
			}
		}
	}
	t.Log(sb.String())
}

func msf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
