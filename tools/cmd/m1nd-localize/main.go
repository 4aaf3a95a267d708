// Command m1nd-localize measures whether m1nd finds the files a bug fix
// changed, from the commit message alone: it mines bug-fix commits of a
// git repository, ingests each parent tree into a fresh m1nd-mcp server
// over stdio, asks seek and activate, and compares them with a plain BM25
// baseline. See benchmarks/localize/README.md.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/tools/localize"
)

func main() {
	var (
		repo       = flag.String("repo", "", "git repository to mine (required)")
		server     = flag.String("server", "", "m1nd-mcp binary (default: m1nd-mcp next to this binary, then in PATH)")
		maxTasks   = flag.Int("max-tasks", 0, "stop after this many tasks, newest first (0: all)")
		maxFiles   = flag.Int("max-files", 5, "skip commits touching more files")
		maxCommits = flag.Int("max-commits", 0, "walk at most this many commits (0: all)")
		all        = flag.Bool("all-commits", false, "every non-merge commit is a task, not only bug fixes")
		history    = flag.Bool("history", false, "check parents out with git history (co-change available to seek)")
		topK       = flag.Int("top-k", 100, "results requested from seek and activate")
		timeout    = flag.Duration("task-timeout", 10*time.Minute, "time limit per task")
		jsonOut    = flag.String("json", "", "write the full report as JSON to this file")
		mdOut      = flag.String("md", "", "write the markdown summary to this file")
		quiet      = flag.Bool("q", false, "no progress on stderr")
		reposTSV   = flag.String("repos", "", "run the suite: repos.tsv (name, repo, commit, language, split) instead of -repo")
		mirrors    = flag.String("mirrors", "/work/.mirror", "with -repos: directory of git snapshots named owner+name/repo or owner+name")
		split      = flag.String("split", "", "with -repos: only this split (tune or held-out)")
		only       = flag.String("only", "", "with -repos: comma-separated repository names")
		methods    = flag.String("methods", "", "comma-separated methods to run besides bm25 (default: all)")
		maxSource  = flag.Int("max-source", 0, "skip commits touching more source files, tests included (0: no limit)")
		spread     = flag.Bool("spread", false, "take -max-tasks tasks evenly over the whole history, not the newest")
		clean      = flag.Bool("clean", false, "skip reverts, bumps and releases; strip trailers and URLs from messages")
		actArgs    = flag.String("activate-args", "", `JSON object added to every activate call, e.g. {"trust_weight":0.5}`)
		merge      = flag.String("merge", "", "comma-separated -json outputs of suite runs over disjoint repositories: re-group them as one suite (runs nothing)")
	)
	flag.Parse()
	if *merge != "" {
		mergeSuites(splitList(*merge), *mdOut, *jsonOut)
		return
	}
	if *repo == "" && *reposTSV == "" {
		fmt.Fprintln(os.Stderr, "usage: m1nd-localize -repo PATH | -repos repos.tsv | -merge a.json,b.json [-server m1nd-mcp] [-max-tasks N] [-json out.json] [-md out.md]")
		os.Exit(2)
	}
	bin, err := localize.FindServer(*server)
	if err != nil {
		fmt.Fprintln(os.Stderr, "m1nd-localize:", err)
		os.Exit(2)
	}
	cfg := localize.Config{
		Repo: *repo, Server: bin,
		Mine: localize.MineOptions{MaxFiles: *maxFiles, MaxTasks: *maxTasks, AllCommits: *all, MaxCommits: *maxCommits,
			MaxSource: *maxSource, Spread: *spread, Clean: *clean},
		History: *history, TopK: *topK, TaskTimeout: *timeout, Only: splitList(*methods),
	}
	if *actArgs != "" {
		if err := json.Unmarshal([]byte(*actArgs), &cfg.ActivateArgs); err != nil {
			fmt.Fprintf(os.Stderr, "m1nd-localize: -activate-args wants a JSON object such as '{\"trust_weight\":0.5}': %v\n", err)
			os.Exit(2)
		}
	}
	if !*quiet {
		cfg.Log = os.Stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *reposTSV != "" {
		runSuite(ctx, cfg, *reposTSV, *mirrors, *split, *only, *mdOut, *jsonOut)
		return
	}
	rep, err := localize.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "m1nd-localize:", err)
		os.Exit(1)
	}
	md := rep.Markdown()
	fmt.Print(md)
	if err := localize.WriteReports(md, rep, *mdOut, *jsonOut); err != nil {
		fmt.Fprintln(os.Stderr, "m1nd-localize:", err)
		os.Exit(1)
	}
}

// runSuite runs the repositories of reposTSV (filtered by split and
// names) and writes the suite's summary.
func runSuite(ctx context.Context, base localize.Config, reposTSV, mirrors, split, only, mdOut, jsonOut string) {
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "m1nd-localize:", err)
		os.Exit(1)
	}
	f, err := os.Open(reposTSV)
	if err != nil {
		fail(err)
	}
	repos, err := localize.ReadRepos(f, nil)
	f.Close()
	if err != nil {
		fail(err)
	}
	keep := map[string]bool{}
	for _, n := range splitList(only) {
		keep[n] = true
	}
	var sel []localize.Repo
	for _, r := range repos {
		if (len(keep) == 0 || keep[r.Name]) && (split == "" || r.Split == split) {
			sel = append(sel, r)
		}
	}
	rep := localize.RunSuite(ctx, localize.SuiteConfig{
		Repos: sel, Base: base,
		Mirror: func(slug string) string { return localize.MirrorOf(mirrors, slug) },
	})
	md := rep.Markdown()
	fmt.Print(md)
	if err := localize.WriteReports(md, rep, mdOut, jsonOut); err != nil {
		fail(err)
	}
}

// mergeSuites re-groups the suite reports at paths as one suite.
func mergeSuites(paths []string, mdOut, jsonOut string) {
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "m1nd-localize:", err)
		os.Exit(1)
	}
	var reps []*localize.SuiteReport
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			fail(err)
		}
		r, err := localize.ReadSuiteReport(f)
		f.Close()
		if err != nil {
			fail(fmt.Errorf("%s: %w", p, err))
		}
		reps = append(reps, r)
	}
	rep, err := localize.MergeSuites(reps...)
	if err != nil {
		fail(err)
	}
	md := rep.Markdown()
	fmt.Print(md)
	if err := localize.WriteReports(md, rep, mdOut, jsonOut); err != nil {
		fail(err)
	}
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
