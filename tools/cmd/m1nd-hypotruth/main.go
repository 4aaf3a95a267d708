// Command m1nd-hypotruth measures hypothesize against ground truth: for
// each repository of benchmarks/deptruth/repos.tsv checked out under
// -repos, claims "A depends on B" sampled from the language tools' truth
// (direct and 2–3-hop dependencies: true; the dependency the other way
// round and unrelated files: false) are put to the real server, and the
// verdicts are tallied per kind of claim.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/m1nd-go/m1nd/tools/deptruth"
	"github.com/m1nd-go/m1nd/tools/hypotruth"
	"github.com/m1nd-go/m1nd/tools/localize"
)

func main() {
	server := flag.String("server", "bin/m1nd-mcp", "the m1nd-mcp binary")
	repos := flag.String("repos", "/tmp/repos", "checkouts, <dir>/<name>")
	tsv := flag.String("tsv", "benchmarks/deptruth/repos.tsv", "repositories")
	scripts := flag.String("scripts", "benchmarks/deptruth", "pydeps.py, jsdeps.cjs and npm/")
	per := flag.Int("per", 50, "claims of each kind per repository")
	jsonOut := flag.String("json", "", "write every answer here")
	flag.Parse()
	if err := run(*server, *repos, *tsv, *scripts, *per, *jsonOut); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

type repoResult struct {
	deptruth.Repo
	Answers []hypotruth.Answer `json:"answers"`
	Error   string             `json:"error,omitempty"`
}

func run(server, reposDir, tsv, scripts string, per int, jsonOut string) error {
	f, err := os.Open(tsv)
	if err != nil {
		return err
	}
	rs, err := deptruth.ReadRepos(f)
	f.Close()
	if err != nil {
		return err
	}
	ctx := context.Background()
	var results []repoResult
	for _, r := range rs {
		root := filepath.Join(reposDir, r.Name)
		if _, err := os.Stat(root); err != nil {
			fmt.Fprintf(os.Stderr, "%s: no checkout at %s, skipped\n", r.Name, root)
			continue
		}
		rr := repoResult{Repo: r}
		if err := one(ctx, server, root, scripts, per, &rr); err != nil {
			rr.Error = err.Error()
			fmt.Fprintf(os.Stderr, "%s: %v\n", r.Name, err)
		}
		results = append(results, rr)
	}
	fmt.Print(markdown(results))
	if jsonOut != "" {
		b, _ := json.MarshalIndent(results, "", "  ")
		return os.WriteFile(jsonOut, b, 0o644)
	}
	return nil
}

func one(ctx context.Context, server, root, scripts string, per int, rr *repoResult) error {
	t, err := deptruth.Compute(ctx, root, rr.Lang, deptruth.Options{ScriptsDir: scripts})
	if err != nil {
		return fmt.Errorf("truth: %w", err)
	}
	rt, err := os.MkdirTemp("", "m1nd-hypotruth-rt-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(rt)
	c, err := localize.StartFor(server, root, "--runtime-dir", rt)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Initialize(ctx); err != nil {
		return err
	}
	if err := c.CallTool(ctx, "ingest", map[string]any{"agent_id": "hypotruth", "path": root}, nil); err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	claims := hypotruth.Claims(t, per)
	runTruth := t
	if rr.Lang == deptruth.Python { // the only truth with type-only imports left out
		if runTruth, err = deptruth.Compute(ctx, root, rr.Lang, deptruth.Options{ScriptsDir: scripts, Runtime: true}); err != nil {
			return fmt.Errorf("run-time truth: %w", err)
		}
	}
	hypotruth.MarkRuntime(claims, runTruth)
	rr.Answers, err = hypotruth.Ask(ctx, c, claims)
	fmt.Fprintf(os.Stderr, "%s: %d claims\n", rr.Name, len(rr.Answers))
	return err
}

var kinds = []string{hypotruth.Direct, hypotruth.Transitive, hypotruth.Reverse, hypotruth.Unrelated}

func markdown(results []repoResult) string {
	var b strings.Builder
	b.WriteString("| repository | lang | split | kind | claims | likely_true | inconclusive | likely_false | refused | right | wrong | right (run-time) | wrong (run-time) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	groups := map[string]map[string]*hypotruth.Tally{}
	add := func(g, k string, a hypotruth.Answer) {
		if groups[g] == nil {
			groups[g] = map[string]*hypotruth.Tally{}
		}
		if groups[g][k] == nil {
			groups[g][k] = &hypotruth.Tally{}
		}
		groups[g][k].Add(a)
	}
	for _, r := range results {
		per := map[string]*hypotruth.Tally{}
		for _, a := range r.Answers {
			if per[a.Kind] == nil {
				per[a.Kind] = &hypotruth.Tally{}
			}
			per[a.Kind].Add(a)
			add("all", a.Kind, a)
			add(r.Split, a.Kind, a)
			add(r.Lang, a.Kind, a)
		}
		for _, k := range kinds {
			if t := per[k]; t != nil {
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.Name, r.Lang, r.Split, k, row(*t))
			}
		}
	}
	b.WriteString("\n| group | kind | claims | likely_true | inconclusive | likely_false | refused | right | wrong | right (run-time) | wrong (run-time) |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	names := make([]string, 0, len(groups))
	for g := range groups {
		names = append(names, g)
	}
	sort.Strings(names)
	for _, g := range names {
		for _, k := range kinds {
			if t := groups[g][k]; t != nil {
				fmt.Fprintf(&b, "| %s | %s | %s |\n", g, k, row(*t))
			}
		}
	}
	return b.String()
}

func row(t hypotruth.Tally) string {
	pct := func(n int) string { return fmt.Sprintf("%d (%.0f %%)", n, 100*float64(n)/float64(max(t.Claims, 1))) }
	return fmt.Sprintf("%d | %s | %s | %s | %d | %s | %s | %s | %s", t.Claims, pct(t.LikelyTrue), pct(t.Inconclusive), pct(t.LikelyFalse), t.Refused,
		pct(t.Right), pct(t.Wrong), pct(t.RightRuntime), pct(t.WrongRuntime))
}
