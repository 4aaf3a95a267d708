package dynamics

import (
	"cmp"
	"context"
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
)

// Risk weights and bounds (docs/design.md#dynamics-and-reports): audit's
// hotspot score with the blast radius in place of the direct dependents.
const (
	RiskPageRank = 0.4
	RiskBlast    = 0.3
	RiskChurn    = 0.3
	// CriticalRisk: a file at or above it raises a critical alert.
	CriticalRisk = 0.7
	// BlastHops: the blast radius counts dependents this many hops away.
	BlastHops = 3
	// maxBlastVisits bounds one file's blast radius walk.
	maxBlastVisits = 5_000
)

// FileRisk is one file's combined risk and its parts.
type FileRisk struct {
	File graph.NodeID
	Path string
	// PageRank is the file's centrality; Blast the files that depend on it
	// within BlastHops (tests excluded); Dependents the direct ones;
	// Churn its change frequency in [0, 1].
	PageRank   float64
	Blast      int
	Dependents int
	Churn      float64
	// Risk = 0.4 × PageRank/max + 0.3 × Blast/max + 0.3 × Churn.
	Risk float64
}

// RankFiles scores every file of d's graph inside scope (a path prefix)
// except tests, riskiest first (ties by path). d must be file level.
func RankFiles(ctx context.Context, d *analysis.DepGraph, scope string) ([]FileRisk, error) {
	parts, err := FileRiskParts(ctx, d)
	if err != nil {
		return nil, err
	}
	return Rank(parts, scope), nil
}

// FileRiskParts measures every non-test file of d's graph (d at file
// level) but documents and data files that take part in no dependency: centrality, blast radius, dependents and churn, unscored, in
// node order. Reuse it for many Rank calls while the graph is served.
func FileRiskParts(ctx context.Context, d *analysis.DepGraph) ([]FileRisk, error) {
	g := d.Graph()
	var out []FileRisk
	seen := make([]uint32, g.NumNodes()) // visit stamps, one walk per file
	for i := 0; i < g.NumNodes(); i++ {
		n := graph.NodeID(i)
		p := g.SourcePath(n)
		if g.Type(n) != graph.File || d.Unit(n) != n || testPath(p) {
			continue
		}
		if analysis.IsDataFile(g, n) && len(d.Dependencies(n)) == 0 && len(d.Dependents(n)) == 0 {
			continue // a README, a licence, composer.json: churn without code is no risk to rank
		}
		if len(out)%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		r := FileRisk{File: n, Path: p, PageRank: graph.Finite64(float64(g.PageRank(n))),
			Churn: min(max(graph.Finite64(float64(g.ChangeFrequency(n))), 0), 1)}
		r.Blast, r.Dependents = blast(g, d, n, seen, uint32(len(out)+1))
		out = append(out, r)
	}
	return out, nil
}

// Rank scores the parts inside scope (maxima taken inside it), riskiest
// first, ties by path. parts is not changed.
func Rank(parts []FileRisk, scope string) []FileRisk {
	var out []FileRisk
	maxPR, maxBlast := 0.0, 0
	for _, r := range parts {
		if inScopePath(r.Path, scope) {
			out = append(out, r)
			maxPR, maxBlast = max(maxPR, r.PageRank), max(maxBlast, r.Blast)
		}
	}
	for i := range out {
		r := &out[i]
		r.Risk = RiskChurn * r.Churn
		if maxPR > 0 {
			r.Risk += RiskPageRank * r.PageRank / maxPR
		}
		if maxBlast > 0 {
			r.Risk += RiskBlast * float64(r.Blast) / float64(maxBlast)
		}
		r.Risk = graph.Finite64(r.Risk)
	}
	slices.SortFunc(out, func(a, b FileRisk) int {
		if c := cmp.Compare(b.Risk, a.Risk); c != 0 {
			return c
		}
		return cmp.Compare(a.Path, b.Path)
	})
	return out
}

// blast counts the non-test files that depend on f within BlastHops, and
// the direct ones; seen[x] == stamp marks this walk's visits.
func blast(g *graph.Graph, d *analysis.DepGraph, f graph.NodeID, seen []uint32, stamp uint32) (total, direct int) {
	seen[f] = stamp
	frontier := []graph.NodeID{f}
	visits := 0
	for hop := 1; hop <= BlastHops && len(frontier) > 0 && visits < maxBlastVisits; hop++ {
		var next []graph.NodeID
		for _, u := range frontier {
			for _, v := range d.Dependents(u) {
				if seen[v] == stamp || visits >= maxBlastVisits {
					continue
				}
				seen[v], visits = stamp, visits+1
				next = append(next, v)
				if !testPath(g.SourcePath(v)) {
					total++
					if hop == 1 {
						direct++
					}
				}
			}
		}
		frontier = next
	}
	return total, direct
}

func inScopePath(p, scope string) bool { return strings.HasPrefix(p, scope) }

// testPath: a file of tests, by the usual names and directories.
func testPath(p string) bool {
	base := path.Base(p)
	for _, x := range []string{"_test.go", "_test.py", ".test.", ".spec."} {
		if strings.Contains(base, x) {
			return true
		}
	}
	for _, x := range []string{"/tests/", "/test/", "/testdata/", "/__tests__/"} {
		if strings.Contains("/"+p, x) {
			return true
		}
	}
	return strings.HasPrefix(base, "test_")
}
