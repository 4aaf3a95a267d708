// Command m1nd-cochange runs the co-change benchmark (benchmarks/cochange):
// predict through a real m1nd-mcp against the association-rule baseline on
// pinned repositories cut at 80 % of their history.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/m1nd-go/m1nd/tools/cochange"
	"github.com/m1nd-go/m1nd/tools/localize"
)

func main() {
	var (
		mirrors  = flag.String("mirrors", "/work/.mirror", "directory of git snapshots named owner+name/repo (the fetch tool's layout), or of clones named owner+name")
		reposTSV = flag.String("repos", "benchmarks/cochange/repos.tsv", "repos.tsv: name, repo, commit, language, split")
		server   = flag.String("server", "", "m1nd-mcp binary (default: next to this binary, then PATH)")
		work     = flag.String("work", "", "directory for the cut checkouts (default: a temporary one)")
		only     = flag.String("only", "", "comma-separated repository names")
		split    = flag.String("split", "", "run only this split (tune or held-out)")
		frac     = flag.Float64("fraction", 0.8, "share of the commits (by time) before the cut")
		maxGroup = flag.Int("baseline-max-group", 30, "the baseline leaves training commits of more files out of its rules")
		jsonOut  = flag.String("json", "", "write the report as JSON here")
		mdOut    = flag.String("md", "", "write the markdown report here")
		known    = flag.Bool("known", false, "also score predict and validate_plan given the changed files and the commit's message as the task")
	)
	flag.Parse()
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "m1nd-cochange:", err)
		os.Exit(1)
	}
	repos, err := cochange.SelectRepos(*reposTSV, *only, *split)
	if err != nil {
		fail(err)
	}
	bin, err := localize.FindServer(*server)
	if err != nil {
		fail(err)
	}
	if *work == "" {
		if *work, err = os.MkdirTemp("", "m1nd-cochange-*"); err != nil {
			fail(err)
		}
		defer os.RemoveAll(*work)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg := cochange.Config{
		Mirror:   func(slug string) string { return localize.MirrorOf(*mirrors, slug) },
		Server:   bin,
		Work:     *work,
		Fraction: *frac,
		MaxGroup: *maxGroup,
		Known:    *known,
		Logf:     func(f string, a ...any) { fmt.Fprintf(os.Stderr, f+"\n", a...) },
	}
	var rep cochange.Report
	for _, r := range repos {
		rep.Repos = append(rep.Repos, cochange.RunRepo(ctx, cfg, r))
	}
	rep.Summarize()
	md := rep.Markdown()
	fmt.Print(md)
	if err := localize.WriteReports(md, rep, *mdOut, *jsonOut); err != nil {
		fail(err)
	}
}
