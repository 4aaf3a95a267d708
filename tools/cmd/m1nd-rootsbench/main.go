// Command m1nd-rootsbench measures whether a long-lived m1nd-mcp server's
// memory stays flat while it ingests tree after tree: it replace-ingests N
// distinct directories of a corpus (by default N package directories of
// the Go source tree) into one server with a runtime directory, as an
// agent moving between repositories would, and reads the server's
// resident set size (VmRSS) after each ingest. The target: RSS after the
// last ingest within 1.3× of RSS after the first. It exits 1 when the
// target is missed and 2 when the run itself fails.
package main

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/tools/localize"
)

// Reading is the server's memory after one ingest.
type Reading struct {
	Ingest   int     `json:"ingest"`
	Tree     string  `json:"tree"`
	Nodes    int     `json:"nodes"`
	RSSMB    float64 `json:"rss_mb"`
	HeapMB   float64 `json:"heap_alloc_mb"`
	GoSysMB  float64 `json:"go_sys_mb"`
	IngestMs float64 `json:"ingest_ms"`
	Threads  int     `json:"threads"`
	// AnonMB is the RSS the process allocated (RssAnon); the rest is
	// pages of its binary and mapped files (RssFile), which grow as more
	// grammars' parse tables are touched and which the kernel can drop.
	AnonMB float64 `json:"rss_anon_mb"`
}

// Report is the whole run.
type Report struct {
	Corpus   string    `json:"corpus"`
	Trees    int       `json:"trees"`
	Machine  string    `json:"machine"`
	Readings []Reading `json:"readings"`
	Ratio    float64   `json:"rss_last_over_first"`
	Target   float64   `json:"target"`
	Met      bool      `json:"met"`
}

func main() {
	var (
		server = flag.String("server", "", "m1nd-mcp binary (default: m1nd-mcp next to this binary, then in PATH)")
		corpus = flag.String("corpus", filepath.Join(runtime.GOROOT(), "src"), "directory whose subdirectories are ingested one after another")
		trees  = flag.Int("trees", 100, "how many distinct trees to ingest")
		target = flag.Float64("target", 1.3, "allowed RSS growth, last over first")
		mdOut  = flag.String("md", "", "write the markdown summary to this file")
		jsOut  = flag.String("json", "", "write the readings as JSON to this file")
	)
	flag.Parse()
	bin, err := localize.FindServer(*server)
	if err != nil {
		fail(err)
	}
	dirs, err := pickTrees(*corpus, *trees)
	if err != nil {
		fail(err)
	}
	rep, err := run(bin, *corpus, dirs, *target)
	if err != nil {
		fail(err)
	}
	md := summary(rep)
	fmt.Print(md)
	if err := localize.WriteReports(md, rep, *mdOut, *jsOut); err != nil {
		fail(err)
	}
	if !rep.Met {
		fmt.Fprintf(os.Stderr, "m1nd-rootsbench: RSS grew %.2f× (target ≤ %.2f×)\n", rep.Ratio, rep.Target)
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "m1nd-rootsbench:", err)
	os.Exit(2)
}

// pickTrees returns n directories of corpus that hold at least three
// source files of their own, in path order (the same trees every run).
func pickTrees(corpus string, n int) ([]string, error) {
	var out []string
	err := filepath.WalkDir(corpus, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if name := d.Name(); p != corpus && (name == "testdata" || strings.HasPrefix(name, ".") || name == "vendor") {
			return filepath.SkipDir
		}
		entries, _ := os.ReadDir(p)
		src := 0
		for _, e := range entries {
			if e.Type().IsRegular() && (strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), ".py")) {
				src++
			}
		}
		if src >= 3 && src <= 60 && p != corpus {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(out)
	if len(out) < n {
		return nil, fmt.Errorf("%s has %d directories with 3–60 source files, need %d", corpus, len(out), n)
	}
	// Spread the picks over the corpus rather than taking one corner.
	picked := make([]string, n)
	for i := range picked {
		picked[i] = out[i*len(out)/n]
	}
	return picked, nil
}

func run(bin, corpus string, dirs []string, target float64) (*Report, error) {
	rt, err := os.MkdirTemp("", "m1nd-rootsbench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(rt)
	c, err := localize.StartFor(bin, corpus, "--runtime-dir", rt)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.Initialize(ctx); err != nil {
		return nil, err
	}
	rep := &Report{Corpus: corpus, Trees: len(dirs), Target: target, Machine: fmt.Sprintf("%d cores, %s/%s", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)}
	for i, dir := range dirs {
		start := time.Now()
		var out struct {
			Graph struct {
				Nodes int `json:"node_count"`
			} `json:"graph"`
		}
		if err := c.CallTool(ctx, "ingest", map[string]any{"agent_id": "bench", "path": dir, "mode": "replace"}, &out); err != nil {
			return nil, fmt.Errorf("ingest %s: %w", dir, err)
		}
		took := time.Since(start)
		var h struct {
			Memory struct {
				Heap uint64 `json:"heap_alloc"`
				Sys  uint64 `json:"sys"`
			} `json:"memory"`
		}
		if err := c.CallTool(ctx, "health", map[string]any{"agent_id": "bench"}, &h); err != nil {
			return nil, err
		}
		st, err := localize.ReadProcStatus(c.Pid())
		if err != nil {
			return nil, err
		}
		rss, anon, threads := st.RSSMB, st.AnonMB, st.Threads
		rel, _ := filepath.Rel(corpus, dir)
		rep.Readings = append(rep.Readings, Reading{Ingest: i + 1, Tree: rel, Nodes: out.Graph.Nodes, RSSMB: rss, HeapMB: float64(h.Memory.Heap) / (1 << 20), GoSysMB: float64(h.Memory.Sys) / (1 << 20), IngestMs: float64(took.Microseconds()) / 1000, Threads: threads, AnonMB: anon})
	}
	first, last := rep.Readings[0].RSSMB, rep.Readings[len(rep.Readings)-1].RSSMB
	rep.Ratio = last / first
	rep.Met = rep.Ratio <= target
	return rep, nil
}

func summary(r *Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "replace-ingests of %d distinct trees of %s into one server (%s)\n\n", r.Trees, r.Corpus, r.Machine)
	b.WriteString("| ingest | tree | nodes | RSS MB | anon MB | Go heap MB | Go sys MB | threads | ingest ms |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, x := range r.Readings {
		if x.Ingest == 1 || x.Ingest%10 == 0 || x.Ingest == len(r.Readings) {
			fmt.Fprintf(&b, "| %d | %s | %d | %.1f | %.1f | %.1f | %.1f | %d | %.0f |\n", x.Ingest, x.Tree, x.Nodes, x.RSSMB, x.AnonMB, x.HeapMB, x.GoSysMB, x.Threads, x.IngestMs)
		}
	}
	fmt.Fprintf(&b, "\nRSS last / first = %.2f× (target ≤ %.2f×): %s\n", r.Ratio, r.Target, map[bool]string{true: "met", false: "MISSED"}[r.Met])
	return b.String()
}
