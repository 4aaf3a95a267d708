// Command m1nd-learnbench measures whether learn changes what activate
// returns: for each repository given, it picks queries from the commit
// history, activates each in a fresh m1nd-mcp server over stdio, marks the
// first result wrong and the eighth correct three times, and activates the
// same, a similar and an unrelated query again. See
// benchmarks/results/learning.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/tools/learnbench"
	"github.com/m1nd-go/m1nd/tools/localize"
)

func main() {
	var (
		server   = flag.String("server", "", "m1nd-mcp binary (default: m1nd-mcp next to this binary, then in PATH)")
		queries  = flag.Int("queries", 20, "queries per repository")
		topK     = flag.Int("top-k", 20, "activate's top_k")
		rounds   = flag.Int("rounds", 3, "learn rounds (one wrong and one correct call each)")
		strength = flag.Float64("strength", 1, "learn strength")
		timeout  = flag.Duration("task-timeout", 5*time.Minute, "time limit per query")
		jsonOut  = flag.String("json", "", "write every report as JSON to this file")
		mdOut    = flag.String("md", "", "write the markdown summary to this file")
		quiet    = flag.Bool("q", false, "no progress on stderr")
	)
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: m1nd-learnbench [flags] REPO...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	bin, err := localize.FindServer(*server)
	if err != nil {
		fmt.Fprintln(os.Stderr, "m1nd-learnbench:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var reps []*learnbench.Report
	for _, repo := range flag.Args() {
		cfg := learnbench.Config{Repo: repo, Server: bin, Queries: *queries, TopK: *topK, Rounds: *rounds, Strength: *strength, TaskTimeout: *timeout}
		if !*quiet {
			cfg.Log = os.Stderr
			fmt.Fprintf(os.Stderr, "== %s\n", repo)
		}
		rep, err := learnbench.Run(ctx, cfg)
		if err != nil {
			fmt.Fprintf(os.Stderr, "m1nd-learnbench: %s: %v\n", repo, err)
			os.Exit(1)
		}
		reps = append(reps, rep)
	}
	var md strings.Builder
	md.WriteString(learnbench.SummaryTable(reps))
	for _, r := range reps {
		md.WriteString("\n" + r.Markdown())
	}
	fmt.Print(md.String())
	if err := localize.WriteReports(md.String(), reps, *mdOut, *jsonOut); err != nil {
		fmt.Fprintln(os.Stderr, "m1nd-learnbench:", err)
		os.Exit(1)
	}
}
