package edit

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// verify runs layers A–E on the written batch (the graph already
// refreshed), decides the verdict and, when BROKEN, restores every file
// and refreshes the graph again.
//
// Layer B checks the written files and what depends on them: the build
// (go build ./... of the module), the import of the written Python modules
// and of their importers within 2 hops, go vet (and go build in other
// modules) of the dependent Go packages, the project's type check. Names
// the edit removed are looked up in the files that depend on the written
// ones (the graph's reverse edges, confirmed in their text). A check that
// fails, and the failing tests, run again on the previous contents (the
// baseline, read through an overlay: the tree keeps the edit); what fails
// there too is pre-existing, listed and not blamed on the edit.
func (b *batchRun) verify() {
	b.prog.begin("verify")
	start := time.Now()
	v := &verificationReport{LayerA: []edit.Finding{}, LayerE: []edit.Finding{}, GraphDiff: []graphDiff{}, RemovedNamesUsed: []edit.Finding{}, PreExistingFailures: []edit.PreExisting{}}
	runner := &edit.Runner{Timeout: time.Duration(b.opt.TimeoutS) * time.Second}
	ctx := b.c.Ctx
	var files []edit.File
	var olds []edit.Old
	for i, t := range b.targets {
		if t.Unchanged() {
			continue
		}
		v.LayerA = append(v.LayerA, edit.Stubs(b.paths[i], t.Old, t.New, t.Existed)...)
		v.LayerE = append(v.LayerE, edit.AntiPatterns(b.paths[i], t.Old, t.New)...)
		files = append(files, edit.File{Abs: t.Res.Real, Root: t.RootReal})
		olds = append(olds, edit.Old{Abs: t.Res.Real, Data: t.Old, Existed: t.Existed})
	}
	base, err := edit.NewBaseline(olds)
	if err != nil {
		b.c.Session.Logf("verify: no baseline for the pre-existing failures: %v", err)
	}
	defer base.Close()
	v.LayerB = runner.Compile(ctx, files)
	tests, deps := b.layerC(v)
	imports, pre := runner.PyImports(ctx, append(slices.Clone(files), deps...), deps, base)
	v.LayerB = append(v.LayerB, imports...)
	v.LayerB = append(v.LayerB, runner.GoDependents(ctx, files, deps)...)
	v.LayerB = append(v.LayerB, runner.TSDependents(ctx, files, deps)...)
	pre = append(pre, runner.Rebase(ctx, v.LayerB, base)...)
	uses, abs := b.removedNames()
	v.RemovedNamesUsed = compiledClean(uses, abs, v.LayerB)
	if i := slices.IndexFunc(v.LayerB, func(c edit.Check) bool { return c.Blocking && c.Status == "failed" }); i >= 0 {
		v.LayerD = []edit.Check{{Layer: "D", Command: "tests", Status: "skipped", Reason: "the build failed (layer B): tests cannot run"}}
	} else {
		d, p := runner.TestsAgainst(ctx, files, tests, base)
		v.LayerD = d
		pre = append(pre, p...)
	}
	v.PreExistingFailures = append(v.PreExistingFailures, pre...)
	if v.LayerB == nil {
		v.LayerB = []edit.Check{}
	}
	if v.LayerD == nil {
		v.LayerD = []edit.Check{}
	}
	shrank := b.graphDiff(v)
	v.Verdict, v.Reasons = edit.Verdict(edit.Evidence{Stubs: v.LayerA, Compile: v.LayerB, Removed: v.RemovedNamesUsed, Tests: v.LayerD, Anti: v.LayerE, GraphShrank: shrank})
	if v.Reasons == nil {
		v.Reasons = []string{}
	}
	b.flatten(v)
	if v.Verdict == edit.Broken {
		b.restore(v)
	}
	v.ElapsedMs = tools.Ms(time.Since(start))
	b.out.Verification = v
	b.prog.end("verify", "verdict "+v.Verdict)
}

// maxDependents bounds the files depending on the written ones that layer
// B checks (imports, vet), nearest first; maxUsersRead the users of a
// written file read for the names it lost.
const (
	maxDependents = 40
	maxUsersRead  = 200
)

// layerC is the 2-hop blast radius of the written files (both ways, file
// level, over dependency edges). It returns the test files in it, with
// the tests linked to the written files, for layer D, and the source
// files that depend on the written ones (nearest first), for layer B.
func (b *batchRun) layerC(v *verificationReport) (tests, deps []edit.File) {
	v.LayerC = layerC{Files: []blastEntry{}, TestFiles: []string{}}
	_ = b.c.Session.Read(b.c.Ctx, func(bd *session.Bundle) error {
		g, rs := bd.Graph, tools.BundleSpace(bd)
		written := map[string]bool{}
		var ids []graph.NodeID
		for _, p := range b.paths {
			written[p] = true
			if id, ok := g.Lookup(rs.FileID(p)); ok {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			v.LayerC.Unavailable = "the written files are not in the graph (reingest: false, or not source files)"
			return nil
		}
		best := map[string]blastEntry{}
		dependent := map[string]int{} // file → nearest distance as a dependent
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
				} else if d, ok := dependent[e.File]; e.Direction == "dependents" && (!ok || e.Distance < d) {
					dependent[e.File] = e.Distance
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
		guard := tools.BundleGuard(bd)
		onDisk := func(p string) (edit.File, bool) {
			res, err := guard.Resolve(rs.DiskPath(p))
			if err != nil || !res.Exists {
				return edit.File{}, false
			}
			root := strings.TrimSuffix(res.Real, string(filepath.Separator)+filepath.FromSlash(res.RealRel))
			return edit.File{Abs: res.Real, Root: root}, true
		}
		for _, p := range slices.Sorted(tools.MapsKeys(testSet)) {
			if written[p] {
				continue
			}
			v.LayerC.TestFiles = append(v.LayerC.TestFiles, p)
			if f, ok := onDisk(p); ok {
				tests = append(tests, f)
			}
		}
		near := slices.SortedFunc(tools.MapsKeys(dependent), func(a, b string) int {
			if dependent[a] != dependent[b] {
				return dependent[a] - dependent[b]
			}
			return strings.Compare(a, b)
		})
		for _, p := range near {
			if len(deps) >= maxDependents {
				break
			}
			if f, ok := onDisk(p); ok {
				deps = append(deps, f)
			}
		}
		return nil
	})
	b.out.BlastRadius = v.LayerC.Files
	return tests, deps
}

// removedNames looks for the names the edit removed from the written
// files in the files that still depend on them: the graph's reverse edges
// (imports, calls, references, inheritance; a Go package's other files
// and importers) give the candidates, their text confirms the use. A
// sure use (an import of the name from the written module, a qualified
// use, a Go use in the same package) in a file that is not a test is
// broken; a use by name only, of a method, or in a test is a warning.
func (b *batchRun) removedNames() (out []edit.Finding, abs map[string]string) {
	out, abs = []edit.Finding{}, map[string]string{}
	type written struct {
		path, dir, pkg string
		removed        []edit.Symbol
	}
	var ws []written
	declaredAfter := map[string]map[string]bool{} // Go directory → names its written files declare now
	inBatch := map[string]bool{}
	for i, t := range b.targets {
		inBatch[b.paths[i]] = true
		if t.Unchanged() {
			continue
		}
		syms, pkg, _ := edit.Declared(b.paths[i], t.New)
		if strings.HasSuffix(b.paths[i], ".go") {
			d := path.Dir(b.paths[i])
			if declaredAfter[d] == nil {
				declaredAfter[d] = map[string]bool{}
			}
			for _, s := range syms {
				declaredAfter[d][s.Qualified] = true
			}
		}
		if !t.Existed {
			continue
		}
		out = append(out, b.anonContractBreaks(b.paths[i], t.Old, t.New)...)
		out = append(out, b.kotlinPropertyBreaks(b.paths[i], t.Old, t.New)...)
		if rm := edit.RemovedSymbols(b.paths[i], t.Old, t.New); len(rm) > 0 {
			ws = append(ws, written{path: b.paths[i], dir: path.Dir(b.paths[i]), pkg: pkg, removed: rm})
		}
	}
	if len(ws) == 0 {
		return out, abs
	}
	for _, w := range ws {
		out = append(out, b.selfUses(w.path, w.removed)...)
		out = append(out, b.contractBreaks(w.path, w.removed)...)
	}
	_ = b.c.Session.Read(b.c.Ctx, func(bd *session.Bundle) error {
		rs, guard := tools.BundleSpace(bd), tools.BundleGuard(bd)
		for _, w := range ws {
			var syms []edit.Symbol
			for _, s := range w.removed {
				// A Go name moved to another written file of the package
				// is not gone.
				if !declaredAfter[w.dir][s.Qualified] || !strings.HasSuffix(w.path, ".go") {
					syms = append(syms, s)
				}
			}
			if len(syms) == 0 {
				continue
			}
			users := tools.UsersOf(bd, w.path)
			for _, user := range users[:min(len(users), maxUsersRead)] {
				if inBatch[user] {
					continue
				}
				res, err := guard.Resolve(rs.DiskPath(user))
				if err != nil || !res.Exists {
					continue
				}
				abs[user] = res.Real
				src, err := tools.ReadBounded(res.Real, 4<<20)
				if err != nil {
					continue
				}
				for _, s := range syms {
					line, sure, text := edit.NameUse(user, src, w.path, w.pkg, s)
					if line == 0 {
						continue
					}
					sev := "warning"
					if sure && !s.Member && !edit.IsTestFile(user) {
						sev = "broken"
					}
					what := s.Qualified + " was removed from " + w.path
					if s.RenamedTo != "" {
						what = s.Qualified + " was renamed to " + s.RenamedTo + " in " + w.path
					}
					how := "still uses it"
					if !sure || s.Member {
						how = "uses that name (maybe another symbol of the same name)"
					}
					out = append(out, edit.Finding{File: user, Line: line, Symbol: s.Qualified, Kind: "removed_name_used", Severity: sev,
						Detail: fmt.Sprintf("%s; %s %s: %s", what, user, how, tools.ClipText(text, 120))})
				}
			}
		}
		return nil
	})
	slices.SortFunc(out, func(a, b edit.Finding) int {
		if (a.Severity == "broken") != (b.Severity == "broken") {
			if a.Severity == "broken" {
				return -1
			}
			return 1
		}
		return strings.Compare(a.File+fmt.Sprint(a.Line), b.File+fmt.Sprint(b.Line))
	})
	return out, abs
}

// selfUses finds the names a written Python or JavaScript file lost and
// still uses itself (edit.SelfUse): a call is broken, a bare mention a
// warning.
func (b *batchRun) selfUses(rel string, removed []edit.Symbol) []edit.Finding {
	i := slices.Index(b.paths, rel)
	if i < 0 {
		return nil
	}
	var out []edit.Finding
	next := b.targets[i].New
	var names map[string]bool
	var known, read bool
	declared := func() (map[string]bool, bool) {
		if !read {
			names, known = edit.DeclaredNames(rel, next)
			read = true
		}
		return names, known
	}
	for _, s := range removed {
		line, call, text := edit.SelfUseWith(rel, next, s, declared)
		if line == 0 {
			continue
		}
		what := s.Qualified + " was removed"
		if s.RenamedTo != "" {
			what = s.Qualified + " was renamed to " + s.RenamedTo
		}
		sev, how := "warning", "still names it"
		if call && s.Member {
			if found, unknown := b.baseAnswers(rel, i, s); found {
				continue // an override removed: the base's method answers
			} else if len(unknown) > 0 {
				call, how = false, "still calls it; "+strings.Join(unknown, ", ")+", a base the graph does not hold, may answer it"
			}
		}
		if call {
			sev, how = "broken", "still calls it"
		}
		out = append(out, edit.Finding{File: rel, Line: line, Symbol: s.Qualified, Kind: "removed_name_used", Severity: sev,
			Detail: fmt.Sprintf("%s in %s, which %s: %s", what, rel, how, tools.ClipText(text, 120))})
	}
	return out
}

// compiledClean: where a compiler checked the user and passed (go build
// of its module or go vet of its package — vet compiles the tests too —,
// tsc of its project, cargo check of its crate), a use found by the name
// check is another symbol of the same name — the compiler would have
// refused the file otherwise — and weighs nothing (severity info).
func compiledClean(uses []edit.Finding, abs map[string]string, compile []edit.Check) []edit.Finding {
	for i, u := range uses {
		a := abs[u.File]
		if u.Severity == "info" || a == "" {
			continue
		}
		for _, c := range compile {
			if c.Status != "passed" || c.Dir == "" || !strings.HasPrefix(a, c.Dir+string(filepath.Separator)) {
				continue
			}
			ext := path.Ext(a)
			checked := false
			switch {
			case c.Language == "go" && ext == ".go" && strings.HasPrefix(c.Command, "go build ./..."):
				checked = !strings.HasSuffix(a, "_test.go")
			case c.Language == "go" && ext == ".go" && strings.HasPrefix(c.Command, "go vet "):
				rel, err := filepath.Rel(c.Dir, filepath.Dir(a))
				pkg := "./" + filepath.ToSlash(rel)
				if rel == "." {
					pkg = "."
				}
				checked = err == nil && slices.Contains(strings.Fields(c.Command)[2:], pkg)
			case c.Language == "typescript" && c.Blocking:
				checked = slices.Contains([]string{".ts", ".tsx", ".mts", ".cts"}, ext)
			case c.Language == "rust" && c.Blocking:
				checked = ext == ".rs"
			}
			if checked {
				uses[i].Severity = "info"
				uses[i].Detail += " (" + c.Command + " passed: it is another symbol of that name)"
				break
			}
		}
	}
	return uses
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
		f := tools.FileOf(g, n.Node)
		fp := g.SourcePath(f)
		if fp == "" || g.Type(f) != graph.File {
			continue
		}
		e := blastEntry{File: fp, Distance: n.HopDistance, Direction: n.Direction.String(), IsTest: edit.IsTestFile(fp) || hasTestsEdge(g, f)}
		if len(n.Via) > 0 {
			u := n.Via[0]
			e.Via = tools.ShortID(g, u.Dependent) + " " + u.Relation + " " + tools.ShortID(g, u.Dependency)
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

// flatten copies the report into the answer's flat fields
// (compile_check, tests_run, tests_passed, tests_failed, test_output), so
// that a client reads the outcome without walking the layers.
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
		for _, root := range slices.Sorted(tools.MapsKeys(roots)) {
			if isCodeRoot(b.c.Session.Current().Roots, root) {
				if _, err := tools.ReingestRoot(b.c, root); err != nil {
					b.out.Reingest.Error = fmt.Sprintf("after the restore: %s: %v", root, err)
				}
			}
		}
		b.out.Reingest.Generation = b.c.Session.Current().Gen
	}
}

// baseAnswers reads baseAnswers against the session's graph.
func (b *batchRun) baseAnswers(rel string, i int, s edit.Symbol) (found bool, unknown []string) {
	_ = b.c.Session.Read(b.c.Ctx, func(bd *session.Bundle) error {
		found, unknown = baseAnswers(bd.Graph, rel, b.targets[i].New, s)
		return nil
	})
	return found, unknown
}
