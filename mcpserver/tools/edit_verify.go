package tools

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// verify runs layers A–E on the written batch (the graph already
// refreshed), decides the verdict and, when BROKEN, restores every file
// and refreshes the graph again.
func (b *batchRun) verify() {
	b.prog.begin("verify")
	start := time.Now()
	v := &verificationReport{LayerA: []edit.Finding{}, LayerE: []edit.Finding{}, GraphDiff: []graphDiff{}}
	runner := &edit.Runner{Timeout: time.Duration(b.opt.TimeoutS) * time.Second}
	var files []edit.File
	for i, t := range b.targets {
		if t.Unchanged() {
			continue
		}
		v.LayerA = append(v.LayerA, edit.Stubs(b.paths[i], t.Old, t.New, t.Existed)...)
		v.LayerE = append(v.LayerE, edit.AntiPatterns(b.paths[i], t.Old, t.New)...)
		files = append(files, edit.File{Abs: t.Res.Real, Root: t.RootReal})
	}
	v.LayerB = runner.Compile(b.c.Ctx, files)
	tests := b.layerC(v)
	if i := slices.IndexFunc(v.LayerB, func(c edit.Check) bool { return c.Blocking && c.Status == "failed" }); i >= 0 {
		v.LayerD = []edit.Check{{Layer: "D", Command: "tests", Status: "skipped", Reason: "the build failed (layer B): tests cannot run"}}
	} else {
		v.LayerD = runner.Tests(b.c.Ctx, files, tests)
	}
	shrank := b.graphDiff(v)
	v.Verdict, v.Reasons = edit.Decide(v.LayerA, v.LayerB, v.LayerD, v.LayerE, shrank)
	if v.Reasons == nil {
		v.Reasons = []string{}
	}
	b.flatten(v)
	if v.Verdict == edit.Broken {
		b.restore(v)
	}
	v.ElapsedMs = ms(time.Since(start))
	b.out.Verification = v
	b.prog.end("verify", "verdict "+v.Verdict)
}

// layerC is the 2-hop blast radius of the written files (both ways, file
// level, over dependency edges) and returns the test files in it, with
// the tests linked to the written files, for layer D.
func (b *batchRun) layerC(v *verificationReport) []edit.File {
	v.LayerC = layerC{Files: []blastEntry{}, TestFiles: []string{}}
	var tests []edit.File
	_ = b.c.Session.Read(b.c.Ctx, func(bd *session.Bundle) error {
		g, rs := bd.Graph, bundleSpace(bd)
		written := map[string]bool{}
		var ids []graph.NodeID
		for _, p := range b.paths {
			written[p] = true
			if id, ok := g.Lookup(rs.fileID(p)); ok {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			v.LayerC.Unavailable = "the written files are not in the graph (reingest: false, or not source files)"
			return nil
		}
		best := map[string]blastEntry{}
		testSet := map[string]bool{}
		for _, id := range ids {
			for _, t := range testsOf(g, id) {
				testSet[g.SourcePath(t)] = true
			}
			for _, e := range blastOf(g, id) {
				if written[e.File] {
					continue
				}
				if old, ok := best[e.File]; !ok || e.Distance < old.Distance {
					best[e.File] = e
				}
				if e.IsTest {
					testSet[e.File] = true
				}
			}
		}
		for _, e := range best {
			v.LayerC.Files = append(v.LayerC.Files, e)
		}
		slices.SortFunc(v.LayerC.Files, func(a, b blastEntry) int {
			if a.Distance != b.Distance {
				return a.Distance - b.Distance
			}
			return strings.Compare(a.File, b.File)
		})
		v.LayerC.Total = len(v.LayerC.Files)
		v.LayerC.Files = v.LayerC.Files[:min(len(v.LayerC.Files), 50)]
		guard := bundleGuard(bd)
		for _, p := range slices.Sorted(mapsKeys(testSet)) {
			if written[p] {
				continue
			}
			v.LayerC.TestFiles = append(v.LayerC.TestFiles, p)
			if res, err := guard.Resolve(rs.diskPath(p)); err == nil && res.Exists {
				root := strings.TrimSuffix(res.Real, string(filepath.Separator)+filepath.FromSlash(res.RealRel))
				tests = append(tests, edit.File{Abs: res.Real, Root: root})
			}
		}
		return nil
	})
	b.out.BlastRadius = v.LayerC.Files
	return tests
}

// blastOf is one file's 2-hop neighbourhood over dependency edges.
func blastOf(g *graph.Graph, file graph.NodeID) []blastEntry {
	p := analysis.DefaultImpactParams()
	p.Direction, p.Level, p.MaxHops, p.IncludeCausalChains, p.TopK, p.MaxVia = analysis.BothWays, analysis.LevelFile, 2, false, 0, 1
	res, err := analysis.Impact(g, file, p)
	if err != nil {
		return nil
	}
	var out []blastEntry
	for _, n := range res.BlastRadius {
		f := fileOf(g, n.Node)
		fp := g.SourcePath(f)
		if fp == "" || g.Type(f) != graph.File {
			continue
		}
		e := blastEntry{File: fp, Distance: n.HopDistance, Direction: n.Direction.String(), IsTest: edit.IsTestFile(fp) || hasTestsEdge(g, f)}
		if len(n.Via) > 0 {
			u := n.Via[0]
			e.Via = shortID(g, u.Dependent) + " " + u.Relation + " " + shortID(g, u.Dependency)
		}
		out = append(out, e)
	}
	return out
}

func hasTestsEdge(g *graph.Graph, f graph.NodeID) bool {
	lo, hi := g.OutRange(f)
	for e := lo; e < hi; e++ {
		if g.RelationName(e) == "tests" {
			return true
		}
	}
	return false
}

// graphDiff compares what the graph held of each written file before and
// after; it returns why the graph shrank ("" when it did not).
func (b *batchRun) graphDiff(v *verificationReport) string {
	if !b.out.Reingest.Ran || b.out.Reingest.Error != "" {
		return ""
	}
	var why []string
	_ = b.c.Session.Read(b.c.Ctx, func(bd *session.Bundle) error {
		for i, p := range b.paths {
			if b.targets[i].Unchanged() {
				continue
			}
			before, after := b.before[p], fileGraphOf(bd, p)
			d := graphDiff{File: p, NodesBefore: len(before.nodes), NodesAfter: len(after.nodes), EdgesBefore: before.edges, EdgesAfter: after.edges}
			for _, id := range before.nodes {
				if _, ok := slices.BinarySearch(after.nodes, id); !ok {
					d.RemovedNodes = append(d.RemovedNodes, id)
				}
			}
			v.GraphDiff = append(v.GraphDiff, d)
			switch {
			case b.targets[i].Existed && d.NodesAfter < d.NodesBefore:
				why = append(why, fmt.Sprintf("%s lost %d symbols (%s)", p, d.NodesBefore-d.NodesAfter, strings.Join(d.RemovedNodes[:min(3, len(d.RemovedNodes))], ", ")))
			case b.targets[i].Existed && d.EdgesBefore-d.EdgesAfter >= 5 && d.EdgesAfter*10 < d.EdgesBefore*7:
				why = append(why, fmt.Sprintf("%s's edges dropped from %d to %d", p, d.EdgesBefore, d.EdgesAfter))
			}
		}
		return nil
	})
	return strings.Join(why, "; ")
}

// flatten copies the report into the answer's flat fields (the spec's
// ApplyBatchOutput).
func (b *batchRun) flatten(v *verificationReport) {
	o := &b.out
	for i := range v.LayerB {
		if o.CompileCheck == nil || (v.LayerB[i].Status == "failed" && o.CompileCheck.Status != "failed") {
			o.CompileCheck = &v.LayerB[i]
		}
	}
	var out strings.Builder
	for _, c := range v.LayerD {
		o.TestsRun += c.TestsRun
		o.TestsPassed += c.TestsPassed
		o.TestsFailed += c.TestsFailed
		if c.Status == "failed" || c.Status == "timeout" {
			out.WriteString(c.Output + "\n")
		}
	}
	if s := strings.TrimSpace(out.String()); len(s) > 2048 {
		o.TestOutput = s[:2048] + "…"
	} else {
		o.TestOutput = s
	}
}

// restore puts every file back (BROKEN) and refreshes the graph again.
func (b *batchRun) restore(v *verificationReport) {
	v.Error = "BROKEN: " + strings.Join(v.Reasons, "; ")
	if b.txn == nil {
		return
	}
	conflicts, err := b.txn.Rollback()
	b.txn = nil
	switch {
	case err != nil:
		v.Error += fmt.Sprintf("; restoring failed: %v (the journal is kept and the next start finishes the restore)", err)
	case len(conflicts) > 0:
		v.Error += fmt.Sprintf("; %d files changed by someone else meanwhile were left as they are", len(conflicts))
	}
	for i := range b.out.Results {
		if b.out.Results[i].Action != "unchanged" {
			b.out.Results[i].Restored = true
		}
	}
	if b.out.Reingest.Ran {
		roots := map[string]bool{}
		for _, t := range b.targets {
			roots[t.Res.Root] = true
		}
		for _, root := range slices.Sorted(mapsKeys(roots)) {
			if isCodeRoot(b.c.Session.Current().Roots, root) {
				if _, err := reingestRoot(b.c, root); err != nil {
					b.out.Reingest.Error = fmt.Sprintf("after the restore: %s: %v", root, err)
				}
			}
		}
		b.out.Reingest.Generation = b.c.Session.Current().Gen
	}
}
