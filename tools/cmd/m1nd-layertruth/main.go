// Command m1nd-layertruth checks the layers tool against the import graph
// each language's own tools give (the dependency truth of
// benchmarks/deptruth): the share of true dependency edges between two
// layered units that point to the same or a lower layer, except inside a
// cycle layers reports. It drives the real server over stdio: ingest,
// layers, then layer_inspect for every level. See
// benchmarks/results/structure.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/m1nd-go/m1nd/tools/deptruth"
	"github.com/m1nd-go/m1nd/tools/localize"
)

type layersOut struct {
	Layers []struct {
		Level int `json:"level"`
	} `json:"layers"`
	Units     int     `json:"units"`
	Layered   int     `json:"layered"`
	Cycles    int     `json:"cycles"`
	Sep       float64 `json:"layer_separation_score"`
	ElapsedMs float64 `json:"elapsed_ms"`
}

type inspectOut struct {
	Units []struct {
		Unit  string `json:"unit"`
		Cycle int    `json:"cycle"`
	} `json:"units"`
	UnitsTotal int `json:"units_total"`
}

// result is one repository's agreement figures.
type result struct {
	name, lang                                    string
	truthEdges, sameUnit, unjudged, judged        int
	down, same, upInCycle, up, intoOrphan, layers int
	units, layered, cycles                        int
	layersMs                                      float64
	ups                                           *[]string
	orphans                                       *map[string]int
}

func main() {
	var (
		reposDir = flag.String("repos-dir", "", "directory of the checkouts (benchmarks/deptruth/README.md)")
		reposTSV = flag.String("repos", "benchmarks/deptruth/repos.tsv", "repos.tsv")
		server   = flag.String("server", "", "m1nd-mcp binary")
		only     = flag.String("only", "", "comma-separated repository names")
		gran     = flag.String("granularity", "module", "layers granularity")
		tests    = flag.Bool("exclude-tests", true, "layers' exclude_tests")
		std      = flag.String("go-tree", "", "instead: a copy of the Go tree's src (the go-std corpus), judged against go list std cmd")
	)
	flag.Parse()
	fail := func(err error) { fmt.Fprintln(os.Stderr, "m1nd-layertruth:", err); os.Exit(1) }
	f, err := os.Open(*reposTSV)
	if err != nil {
		fail(err)
	}
	repos, err := deptruth.ReadRepos(f)
	f.Close()
	if err != nil {
		fail(err)
	}
	bin, err := localize.FindServer(*server)
	if err != nil {
		fail(err)
	}
	if *std != "" {
		res, ups, err := runStd(bin, *std)
		if err != nil {
			fail(err)
		}
		printHeader()
		printRow(res)
		for i, u := range ups {
			if i == 30 {
				fmt.Printf("\n… %d more\n", len(ups)-30)
				break
			}
			fmt.Printf("\n- %s", u)
		}
		fmt.Println()
		return
	}
	scripts, _ := filepath.Abs(filepath.Dir(*reposTSV))
	keep := map[string]bool{}
	for _, n := range strings.Split(*only, ",") {
		if n != "" {
			keep[n] = true
		}
	}
	printHeader()
	for _, r := range repos {
		if r.Lang == deptruth.JS || (len(keep) > 0 && !keep[r.Name]) {
			continue
		}
		root := filepath.Join(*reposDir, r.Name)
		res, err := run(bin, root, scripts, r, *gran, *tests)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", r.Name, err)
			continue
		}
		printRow(res)
	}
}

func printHeader() {
	fmt.Printf("| repository | lang | truth edges between units | both units layered | down | same layer | up, inside a reported cycle | up | agreement | agreement without the cycle exemption | coverage | layers | units (layered) | cycles | layers ms |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
}

// printRow: agreement is over the true edges whose two units layers
// placed; coverage is their share of the judged edges (the rest touch a
// unit with no dependency in the graph, or one the ingest skipped).
func printRow(res *result) {
	placed := res.judged - res.intoOrphan
	ok := res.down + res.same + res.upInCycle
	fmt.Printf("| %s | %s | %d | %d | %d | %d | %d | %d | %.3f | %.3f | %.3f | %d | %d (%d) | %d | %.1f |\n", res.name, res.lang, res.judged, placed,
		res.down, res.same, res.upInCycle, res.up, ratio(ok, placed), ratio(res.down+res.same, placed), ratio(placed, res.judged),
		res.layers, res.units, res.layered, res.cycles, res.layersMs)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// unitOf is the layers unit of a file (core/structure.UnitName).
func unitOf(p, gran string) string {
	switch {
	case gran == "file":
		return p
	case gran == "directory" || strings.HasSuffix(p, ".go"):
		return filepath.ToSlash(filepath.Dir(p))
	}
	return p
}

func run(bin, root, scripts string, r deptruth.Repo, gran string, excludeTests bool) (*result, error) {
	ctx := context.Background()
	truth, err := deptruth.Compute(ctx, root, r.Lang, deptruth.Options{ScriptsDir: scripts})
	if err != nil {
		return nil, fmt.Errorf("truth: %w", err)
	}
	rt, err := os.MkdirTemp("", "m1nd-layertruth-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(rt)
	c, err := localize.StartFor(bin, root, "--runtime-dir", rt)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if err := c.Initialize(ctx); err != nil {
		return nil, err
	}
	if err := c.CallTool(ctx, "ingest", map[string]any{"agent_id": "layertruth", "path": root}, nil); err != nil {
		return nil, err
	}
	args := map[string]any{"agent_id": "layertruth", "granularity": gran, "exclude_tests": excludeTests}
	level, cycle, lo, ms, err := layering(ctx, c, args)
	if err != nil {
		return nil, err
	}
	res := &result{name: r.Name, lang: r.Lang, truthEdges: truth.Edges(), layers: len(lo.Layers), units: lo.Units,
		layered: lo.Layered, cycles: lo.Cycles, layersMs: ms}
	for a, bs := range truth.Deps {
		for _, b := range bs {
			ua, ub := unitOf(a, gran), unitOf(b, gran)
			if ua == ub {
				res.sameUnit++
				continue
			}
			if excludeTests && (isTest(a) || isTest(b)) {
				res.unjudged++
				continue
			}
			res.judge(level, cycle, ua, ub)
		}
	}
	return res, nil
}

// judge counts one true dependency ua → ub between two units.
func (res *result) judge(level, cycle map[string]int, ua, ub string) {
	res.judged++
	la, okA := level[ua]
	lb, okB := level[ub]
	switch {
	case !okA || !okB:
		res.intoOrphan++ // layers saw no dependency of that unit at all
		if res.orphans != nil {
			for _, x := range []struct {
				u  string
				ok bool
			}{{ua, okA}, {ub, okB}} {
				if !x.ok {
					(*res.orphans)[x.u]++
				}
			}
		}
	case lb < la:
		res.down++
	case lb == la:
		res.same++
	case cycle[ua] != 0 && cycle[ua] == cycle[ub]:
		res.upInCycle++
	default:
		res.up++
		if res.ups != nil {
			*res.ups = append(*res.ups, "up: "+ua+" -> "+ub)
		}
	}
}

// isTest matches mcpserver/tools.IsTestPath, which exclude_tests applies.
func isTest(p string) bool {
	b := filepath.Base(p)
	return strings.HasSuffix(b, "_test.go") || strings.HasPrefix(b, "test_") || strings.HasSuffix(b, "_test.py") ||
		strings.Contains(b, ".test.") || strings.Contains(b, ".spec.") || strings.HasSuffix(b, "Test.java") ||
		strings.HasPrefix(p, "tests/") || strings.HasPrefix(p, "test/") || strings.Contains(p, "/tests/") || strings.Contains(p, "/test/")
}
