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
	"os/exec"
	"os/signal"
	"path/filepath"
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
	bin, err := findServer(*server)
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
	if *mdOut != "" {
		if err := os.WriteFile(*mdOut, []byte(md), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "m1nd-localize:", err)
			os.Exit(1)
		}
	}
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "m1nd-localize:", err)
			os.Exit(1)
		}
	}
}

// findServer resolves the m1nd-mcp binary.
func findServer(flagVal string) (string, error) {
	if flagVal != "" {
		return exec.LookPath(flagVal)
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), "m1nd-mcp")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath("m1nd-mcp")
	if err != nil {
		return "", fmt.Errorf("m1nd-mcp not found: build it (go build -o bin/m1nd-mcp ./mcpserver/cmd/m1nd-mcp) and pass -server bin/m1nd-mcp")
	}
	return p, nil
}
