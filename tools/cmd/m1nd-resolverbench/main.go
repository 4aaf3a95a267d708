// Command m1nd-resolverbench measures how names written the way people
// write them ("app depends on sessions", impact of "Flask") resolve: for
// each line of benchmarks/resolver/claims.tsv it calls hypothesize, why or
// impact on the real server over a checkout of the repository and
// compares the nodes the answer names with the intended ones, which were
// chosen by reading the code before any run.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/m1nd-go/m1nd/tools/localize"
)

func main() {
	server := flag.String("server", "bin/m1nd-mcp", "the m1nd-mcp binary")
	repos := flag.String("repos", "/tmp/repos", "checkouts, <dir>/<repo>")
	tsv := flag.String("claims", "benchmarks/resolver/claims.tsv", "the calls and their intended nodes")
	verbose := flag.Bool("v", false, "print every call's outcome")
	flag.Parse()
	if err := run(*server, *repos, *tsv, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// item is one call of claims.tsv: want holds, per name, the external ids
// that count as the intended node.
type item struct {
	repo, tool, input string
	want              [][]string
}

func readItems(path string) ([]item, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []item
	for n, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("%s:%d: want 4 tab-separated fields, got %d", path, n+1, len(f))
		}
		it := item{repo: f[0], tool: f[1], input: f[2]}
		for _, w := range strings.Split(f[3], "|") {
			var ids []string
			for _, x := range strings.Split(w, ",") {
				if d, ok := strings.CutPrefix(x, "dir:"); ok {
					ids = append(ids, "dir::"+d)
				} else {
					ids = append(ids, "file::"+x)
				}
			}
			it.want = append(it.want, ids)
		}
		out = append(out, it)
	}
	return out, nil
}

// tally counts names and calls resolved to the intended node.
type tally struct{ names, namesRight, calls, callsRight, refused, alts int }

func (t *tally) add(o tally) {
	t.names += o.names
	t.namesRight += o.namesRight
	t.calls += o.calls
	t.callsRight += o.callsRight
	t.refused += o.refused
	t.alts += o.alts
}

func run(server, reposDir, tsv string, verbose bool) error {
	items, err := readItems(tsv)
	if err != nil {
		return err
	}
	byRepo := map[string][]item{}
	var order []string
	for _, it := range items {
		if byRepo[it.repo] == nil {
			order = append(order, it.repo)
		}
		byRepo[it.repo] = append(byRepo[it.repo], it)
	}
	ctx := context.Background()
	total, by := tally{}, map[string]*tally{}
	fmt.Println("| repository | calls | intended (calls) | names | intended (names) | refused | answers listing alternatives |\n|---|---|---|---|---|---|---|")
	for _, repo := range order {
		t, err := oneRepo(ctx, server, filepath.Join(reposDir, repo), byRepo[repo], by, verbose)
		if err != nil {
			return fmt.Errorf("%s: %w", repo, err)
		}
		row(repo, t)
		total.add(t)
	}
	row("all", total)
	kindTables(by)
	return nil
}

// kindTables prints the share by tool (calls) and by the kind of node a
// name was meant as (names): a directory, a file, a top-level
// declaration or a member.
func kindTables(by map[string]*tally) {
	fmt.Println("\n| tool | calls | intended (calls) | refused |\n|---|---|---|---|")
	for _, k := range []string{"hypothesize", "why", "impact"} {
		if t := by["tool/"+k]; t != nil {
			fmt.Printf("| %s | %d | %d (%.0f%%) | %d |\n", k, t.calls, t.callsRight, pct(t.callsRight, t.calls), t.refused)
		}
	}
	fmt.Println("\n| name meant as | names | intended |\n|---|---|---|")
	for _, k := range []string{"directory", "file", "declaration", "member"} {
		if t := by["name/"+k]; t != nil {
			fmt.Printf("| %s | %d | %d (%.0f%%) |\n", k, t.names, t.namesRight, pct(t.namesRight, t.names))
		}
	}
}

// nameKind classifies an intended node by its first spelling.
func nameKind(ids []string) string {
	id := ids[0]
	switch {
	case strings.HasPrefix(id, "dir::"):
		return "directory"
	case strings.Count(id, "::") == 1:
		return "file"
	case strings.Count(id, "::") == 2:
		return "declaration"
	}
	return "member"
}

// count adds one call's outcome to the by-tool and by-kind tallies.
func count(by map[string]*tally, it item, right []bool, refused bool) {
	get := func(k string) *tally {
		if by[k] == nil {
			by[k] = &tally{}
		}
		return by[k]
	}
	tt, all := get("tool/"+it.tool), true
	for i, w := range it.want {
		nt := get("name/" + nameKind(w))
		nt.names++
		if right[i] {
			nt.namesRight++
		}
		all = all && right[i]
	}
	tt.calls++
	if all {
		tt.callsRight++
	}
	if refused {
		tt.refused++
	}
}

func row(name string, t tally) {
	fmt.Printf("| %s | %d | %d (%.0f%%) | %d | %d (%.0f%%) | %d | %d |\n", name, t.calls, t.callsRight, pct(t.callsRight, t.calls),
		t.names, t.namesRight, pct(t.namesRight, t.names), t.refused, t.alts)
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func oneRepo(ctx context.Context, server, root string, items []item, by map[string]*tally, verbose bool) (tally, error) {
	var t tally
	rt, err := os.MkdirTemp("", "m1nd-resolverbench-")
	if err != nil {
		return t, err
	}
	defer os.RemoveAll(rt)
	c, err := localize.StartFor(server, root, "--runtime-dir", rt)
	if err != nil {
		return t, err
	}
	defer c.Close()
	if err := c.Initialize(ctx); err != nil {
		return t, err
	}
	if err := c.CallTool(ctx, "ingest", map[string]any{"agent_id": "resolverbench", "path": root}, nil); err != nil {
		return t, fmt.Errorf("ingest: %w", err)
	}
	for _, it := range items {
		got, alts, err := ask(ctx, c, it)
		var te *localize.ToolError
		refused := errors.As(err, &te)
		switch {
		case refused:
			got = make([]string, len(it.want))
			if verbose {
				fmt.Fprintf(os.Stderr, "REFUSED %s %s %q: %.700s\n", it.repo, it.tool, it.input, te.Text)
			}
		case err != nil:
			return t, err
		}
		right := score(it, got, verbose && !refused)
		t.add(callTally(right, refused, alts))
		count(by, it, right, refused)
	}
	return t, nil
}

// score tells, per name of the call, whether it resolved to the intended
// node (printing the wrong ones when verbose).
func score(it item, got []string, verbose bool) []bool {
	right := make([]bool, len(it.want))
	for i, w := range it.want {
		right[i] = i < len(got) && contains(w, got[i])
		if !right[i] && verbose {
			g := "(none)"
			if i < len(got) {
				g = got[i]
			}
			fmt.Fprintf(os.Stderr, "WRONG %s %s %q: got %s, want %s\n", it.repo, it.tool, it.input, g, strings.Join(w, " or "))
		}
	}
	return right
}

// callTally is one call's contribution to a repository's tally.
func callTally(right []bool, refused, alts bool) tally {
	t := tally{calls: 1, names: len(right), callsRight: 1}
	for _, ok := range right {
		if ok {
			t.namesRight++
		} else {
			t.callsRight = 0
		}
	}
	if refused {
		t.refused = 1
	}
	if alts {
		t.alts = 1
	}
	return t
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// resolvedJSON is the part of the answers this harness reads.
type resolvedJSON struct {
	Source       string   `json:"source"`
	Target       string   `json:"target"`
	SubjectNodes []string `json:"subject_nodes"`
	ObjectNodes  []string `json:"object_nodes"`
	Resolved     []struct {
		Alternatives []string `json:"alternatives"`
	} `json:"resolved_as"`
}

// ask makes one call and returns the nodes it resolved, in the order of
// the item's names, and whether the answer listed alternatives.
func ask(ctx context.Context, c *localize.Client, it item) ([]string, bool, error) {
	var r resolvedJSON
	args := map[string]any{"agent_id": "resolverbench"}
	switch it.tool {
	case "hypothesize":
		args["claim"] = it.input
	case "why":
		src, dst, _ := strings.Cut(it.input, "|")
		args["source"], args["target"] = src, dst
	case "impact":
		args["node_id"] = it.input
	default:
		return nil, false, fmt.Errorf("unknown tool %q", it.tool)
	}
	if err := c.CallTool(ctx, it.tool, args, &r); err != nil {
		return nil, false, err
	}
	alts := false
	for _, x := range r.Resolved {
		alts = alts || len(x.Alternatives) > 0
	}
	switch it.tool {
	case "hypothesize":
		return append(r.SubjectNodes, r.ObjectNodes...), alts, nil
	case "why":
		return []string{r.Source, r.Target}, alts, nil
	}
	return []string{r.Source}, alts, nil
}
