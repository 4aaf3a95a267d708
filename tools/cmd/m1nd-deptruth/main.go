// Command m1nd-deptruth scores m1nd's impact tool against dependency truth
// computed by each language's own tools (Python's ast, go/packages, the
// TypeScript compiler API, javac) on pinned repositories. See
// benchmarks/deptruth/README.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/tools/deptruth"
	"github.com/m1nd-go/m1nd/tools/localize"
)

func main() {
	var (
		reposDir  = flag.String("repos-dir", "", "directory holding the checkouts, one per repos.tsv name (required)")
		reposTSV  = flag.String("repos", "benchmarks/deptruth/repos.tsv", "repos.tsv: name, repo, commit, language, split")
		scripts   = flag.String("scripts", "", "directory of pydeps.py, jsdeps.cjs and npm/ (default: the directory of -repos)")
		server    = flag.String("server", "", "m1nd-mcp binary (default: m1nd-mcp next to this binary, then in PATH)")
		only      = flag.String("only", "", "comma-separated repository names to run (default: all)")
		split     = flag.String("split", "", "run only this split (tune or held-out)")
		topK      = flag.Int("top-k", 100, "impact's top_k")
		goos      = flag.String("goos", strings.Join(deptruth.DefaultGOOS, ","), "GOOS values the Go truth is the union over")
		anyCommit = flag.Bool("any-commit", false, "score checkouts whose HEAD is not the pinned commit")
		timeout   = flag.Duration("call-timeout", 5*time.Minute, "time limit per tool call")
		jsonOut   = flag.String("json", "", "write the full report (truth edges and per-file verdicts) as JSON to this file")
		mdOut     = flag.String("md", "", "write the markdown summary to this file")
		quiet     = flag.Bool("q", false, "no progress on stderr")
		calls     = flag.Bool("calls", false, "score the Go and Java repositories' function-level call edges (in-process ingest) instead of impact")
	)
	flag.Parse()
	if *reposDir == "" {
		fmt.Fprintln(os.Stderr, "usage: m1nd-deptruth -repos-dir DIR [-repos benchmarks/deptruth/repos.tsv] [-server bin/m1nd-mcp] [-only a,b] [-json out.json] [-md out.md]")
		os.Exit(2)
	}
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "m1nd-deptruth:", err)
		os.Exit(1)
	}
	f, err := os.Open(*reposTSV)
	if err != nil {
		fail(err)
	}
	repos, err := deptruth.ReadRepos(f)
	f.Close()
	if err != nil {
		fail(err)
	}
	keep := map[string]bool{}
	for _, n := range strings.Split(*only, ",") {
		if n = strings.TrimSpace(n); n != "" {
			keep[n] = true
		}
	}
	var sel []deptruth.Repo
	for _, r := range repos {
		if (len(keep) == 0 || keep[r.Name]) && (*split == "" || r.Split == *split) {
			sel = append(sel, r)
		}
	}
	if len(sel) == 0 {
		fail(fmt.Errorf("no repository selected from %s", *reposTSV))
	}
	if *scripts == "" {
		*scripts = filepath.Dir(*reposTSV)
	}
	sd, err := filepath.Abs(*scripts)
	if err != nil {
		fail(err)
	}
	if *calls {
		if err := runCalls(sel, *reposDir, sd, strings.Split(*goos, ","), *jsonOut, *quiet); err != nil {
			fail(err)
		}
		return
	}
	bin, err := localize.FindServer(*server)
	if err != nil {
		fmt.Fprintln(os.Stderr, "m1nd-deptruth:", err)
		os.Exit(2)
	}
	cfg := deptruth.Config{
		ReposDir: *reposDir, Repos: sel, Server: bin, TopK: *topK, AnyCommit: *anyCommit, CallTimeout: *timeout,
		Truth: deptruth.Options{ScriptsDir: sd, GOOS: strings.Split(*goos, ",")},
	}
	if !*quiet {
		cfg.Log = os.Stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := deptruth.Run(ctx, cfg)
	if err != nil {
		fail(err)
	}
	md := rep.Markdown()
	fmt.Print(md)
	if err := localize.WriteReports(md, rep, *mdOut, *jsonOut); err != nil {
		fail(err)
	}
}
