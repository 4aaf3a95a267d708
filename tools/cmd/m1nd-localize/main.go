// Command m1nd-localize measures whether m1nd finds the files a bug fix
// changed, from the commit message alone: it mines bug-fix commits of a
// git repository, ingests each parent tree into a fresh m1nd-mcp server
// over stdio, asks seek and activate, and compares them with a plain BM25
// baseline. See benchmarks/localize/README.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
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
	)
	flag.Parse()
	if *repo == "" {
		fmt.Fprintln(os.Stderr, "usage: m1nd-localize -repo PATH [-server m1nd-mcp] [-max-tasks N] [-json out.json] [-md out.md]")
		os.Exit(2)
	}
	bin, err := localize.FindServer(*server)
	if err != nil {
		fmt.Fprintln(os.Stderr, "m1nd-localize:", err)
		os.Exit(2)
	}
	cfg := localize.Config{
		Repo: *repo, Server: bin,
		Mine:    localize.MineOptions{MaxFiles: *maxFiles, MaxTasks: *maxTasks, AllCommits: *all, MaxCommits: *maxCommits},
		History: *history, TopK: *topK, TaskTimeout: *timeout,
	}
	if !*quiet {
		cfg.Log = os.Stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
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
