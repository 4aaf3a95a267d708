package audit

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"hash/maphash"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/scan"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/textsearch"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"golang.org/x/sync/errgroup"
)

// Finding statuses (docs/design.md#tool-families).
const (
	scanConfirmed     = "confirmed"
	scanMitigated     = "mitigated"
	scanFalsePositive = "false_positive"
	scanUnvalidated   = "unvalidated"
)

// scanRun is one pass over the files in scope: every finding of the
// patterns asked for, validated.
type scanRun struct {
	scope    string
	sevMin   float64
	scanned  int
	skipped  map[string]int
	findings []scanFinding
}

// scanScope is a scope: a path prefix or glob, or a node's file and lines.
type scanScope struct {
	files  *tools.ScopeFilter
	path   string // a node scope's file ("" for none)
	prefix string // a directory or package node's path
	lo, hi int    // a node scope's lines (0: the whole file)
	shown  string
}

func (s *scanScope) matchFile(p string) bool {
	switch {
	case s == nil:
		return true
	case s.path != "":
		return p == s.path
	case s.prefix != "":
		return p == s.prefix || strings.HasPrefix(p, s.prefix+"/")
	}
	return s.files.Match(p)
}

func (s *scanScope) matchLine(line int) bool {
	return s == nil || s.hi == 0 || line >= s.lo && line <= s.hi
}

// resolveScanScope reads scope as a node when it names one by id
// ("file::…"), else as a path prefix or glob; a prefix that matches no
// file is tried as a node reference before it is refused.
func resolveScanScope(b *session.Bundle, raw string) (*scanScope, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return nil, nil
	}
	if !strings.Contains(s, "::") {
		sf, err := tools.ParseScope(b, s)
		if err != nil {
			return nil, err
		}
		for _, f := range tools.BundleGraphFiles(b).Files {
			if sf.Match(f.Path) {
				return &scanScope{files: sf, shown: sf.String()}, nil
			}
		}
		if strings.ContainsAny(s, "*?[{/") {
			return nil, scanScopeError(b, raw)
		}
	}
	id, err := tools.ResolveNode(b, s, "scope")
	if err != nil {
		if strings.Contains(s, "::") {
			return nil, err
		}
		return nil, scanScopeError(b, raw)
	}
	g := b.Graph
	sc := &scanScope{shown: g.ExternalID(id)}
	p := g.Provenance(id)
	switch g.Type(id) {
	case graph.File:
		sc.path = p.SourcePath
	case graph.Directory:
		sc.prefix = strings.TrimSuffix(p.SourcePath, "/")
	default:
		if p.LineStart == 0 {
			if _, isFile := tools.BundleGraphFiles(b).ByPath[p.SourcePath]; isFile {
				sc.path = p.SourcePath
			} else {
				sc.prefix = strings.TrimSuffix(p.SourcePath, "/")
			}
			break
		}
		sc.path, sc.lo, sc.hi = p.SourcePath, int(p.LineStart), int(max(p.LineEnd, p.LineStart))
	}
	if sc.path == "" && (sc.prefix == "" || sc.prefix == ".") {
		sc.prefix = ""
		sc.files = nil
	}
	return sc, nil
}

func scanScopeError(b *session.Bundle, raw string) error {
	gf := tools.BundleGraphFiles(b)
	want := strings.ToLower(strings.Trim(strings.TrimSpace(raw), "./*"))
	type cand struct {
		dir string
		d   int
	}
	var cs []cand
	seen := map[string]bool{}
	for _, f := range gf.Files {
		for dir := path.Dir(f.Path); dir != "." && dir != "/" && !seen[dir]; dir = path.Dir(dir) {
			seen[dir] = true
			low := strings.ToLower(dir)
			switch d := tools.EditDistance(low, want); {
			case want != "" && strings.Contains(low, want):
				cs = append(cs, cand{dir, 0})
			case d <= max(2, len(want)/3):
				cs = append(cs, cand{dir, d})
			}
		}
	}
	slices.SortFunc(cs, func(a, b cand) int { return cmp.Or(cmp.Compare(a.d, b.d), strings.Compare(a.dir, b.dir)) })
	var near []string
	for _, c := range cs[:min(5, len(cs))] {
		near = append(near, c.dir+"/")
	}
	e := tools.Errorf("scope is a path prefix of indexed files (\"backend/\"), a glob (\"src/**/*.py\") or a node id (\"file::src/auth.py\"); glob lists what is indexed.", "scope %q matches no indexed file and no node", raw)
	if len(near) > 0 {
		e.Extra = map[string]any{"did_you_mean": near}
		e.Hint = fmt.Sprintf("Close matches: %s. ", strings.Join(near, ", ")) + e.Hint
	}
	return e.WithNext("Call glob to list the indexed files, then retry with a prefix that matches some of them.")
}

// scanBundle scans the files of b in scope (read through the path guard,
// in parallel) and validates the findings against b's graph.
func scanBundle(c *tools.Call, b *session.Bundle, req scanRequest) (*scanRun, error) {
	if err := tools.NeedRoots(b); err != nil {
		return nil, err
	}
	sc, err := resolveScanScope(b, req.scope)
	if err != nil {
		return nil, err
	}
	g, gf, disk := b.Graph, tools.BundleGraphFiles(b), tools.BundleDiskFiles(b)
	stale := map[string]bool{}
	for _, id := range c.Session.Staleness(b).StaleIDs() {
		stale[id] = true
	}
	run := &scanRun{sevMin: req.sevMin, skipped: map[string]int{}}
	if sc != nil {
		run.scope = sc.shown
	}
	var todo []int
	for i, f := range gf.Files {
		if !sc.matchFile(f.Path) || scan.Language(f.Path) == "" {
			continue
		}
		switch {
		case disk.Abs[i] == "":
			run.skipped["missing_or_refused"]++
		case f.Node != graph.NoNode && stale[g.ExternalID(f.Node)]:
			run.skipped["changed_since_ingest"]++
		default:
			todo = append(todo, i)
		}
	}
	found, err := scanFiles(c, b, req, todo, sc, run)
	if err != nil {
		return nil, err
	}
	for k, i := range todo {
		for _, f := range found[k] {
			run.findings = append(run.findings, validateFinding(g, &gf.Files[i], f, req.validate))
		}
	}
	if len(run.skipped) == 0 {
		run.skipped = nil
	}
	return run, nil
}

// scanFiles scans the files todo (indexes into the graph's files) with a
// bounded errgroup; the result is aligned with todo, so it does not
// depend on which goroutine finished first.
func scanFiles(c *tools.Call, b *session.Bundle, req scanRequest, todo []int, sc *scanScope, run *scanRun) ([][]scan.Finding, error) {
	gf, disk, cache, open := tools.BundleGraphFiles(b), tools.BundleDiskFiles(b), tools.BundleCache(b), tools.BundleGuard(b).OpenReal
	goVersion := goVersions(b, gf, todo)
	memo := bundleScanCache(b)
	found := make([][]scan.Finding, len(todo))
	skips := make([]string, len(todo))
	var mu sync.Mutex
	done := 0
	eg, ctx := errgroup.WithContext(c.Ctx)
	eg.SetLimit(runtime.GOMAXPROCS(0))
	for k, i := range todo {
		eg.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			f := &gf.Files[i]
			data, err := cache.Load(disk.Abs[i], open)
			switch {
			case err != nil || textsearch.IsBinary(data):
				skips[k] = "unreadable"
			default:
				fs, err := memo.file(f.Path, data, goVersion[i], req.query)
				if err != nil {
					skips[k] = scanError(err)
				}
				for _, x := range fs {
					if sc.matchLine(x.Line) && (x.Pattern == scan.Custom || slices.Contains(req.patterns, x.Pattern)) {
						found[k] = append(found[k], x)
					}
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if done++; c.Progress != nil && done%64 == 0 {
				c.Progress(float64(done), float64(len(todo)), "scanning files")
			}
			return nil
		})
	}
	if err := eg.Wait(); err != nil {
		return nil, tools.Errorf("The scan was cancelled before it finished; narrow the scope to scan fewer files.", "scan cancelled: %v", err)
	}
	for _, s := range skips {
		if s == "" {
			run.scanned++
		} else {
			run.skipped[s]++
		}
	}
	return found, nil
}

// scanCache keeps each file's findings (every built-in pattern) for the
// bundle's lifetime, keyed by path and checked against the content's
// hash: a second scan, or scan_all after scan, does not parse again.
type scanCache struct {
	mu sync.Mutex
	m  map[string]scanCached
}

type scanCached struct {
	sum       uint64
	goVersion string
	findings  []scan.Finding
	err       error
}

// scanCacheFiles bounds the files a bundle's scan cache holds.
const scanCacheFiles = 50_000

var scanSeed = maphash.MakeSeed()

var scanCacheKey = session.NewKey[*scanCache]("scan.cache")

func bundleScanCache(b *session.Bundle) *scanCache {
	v, _ := session.Derive(b, scanCacheKey, func(*graph.Graph) (*scanCache, error) { return &scanCache{m: map[string]scanCached{}}, nil })
	return v
}

// file returns the findings of every built-in pattern in a file (from
// the cache when its content is unchanged), plus a custom query's, which
// are never cached.
func (c *scanCache) file(p string, data []byte, goVersion string, q *scan.Query) ([]scan.Finding, error) {
	sum := maphash.Bytes(scanSeed, data)
	c.mu.Lock()
	e, ok := c.m[p]
	c.mu.Unlock()
	if !ok || e.sum != sum || e.goVersion != goVersion {
		fs, err := scan.File(p, data, scan.Options{GoVersion: goVersion})
		e = scanCached{sum: sum, goVersion: goVersion, findings: fs, err: err}
		c.mu.Lock()
		if len(c.m) < scanCacheFiles {
			c.m[p] = e
		}
		c.mu.Unlock()
	}
	if q == nil || e.err != nil {
		return e.findings, e.err
	}
	custom, err := scan.File(p, data, scan.Options{Patterns: []string{}, Query: q})
	return append(slices.Clone(e.findings), custom...), err
}

// goVersions maps each Go file of todo to the go directive of the go.mod
// nearest above it inside the roots ("" when there is none to read).
func goVersions(b *session.Bundle, gf *tools.GraphFiles, todo []int) map[int]string {
	out := map[int]string{}
	byDir := map[string]string{}
	batch, rs, cache, open := tools.BundleGuard(b).NewBatch(), tools.BundleSpace(b), tools.BundleCache(b), tools.BundleGuard(b).OpenReal
	var lookup func(dir string) string
	lookup = func(dir string) string {
		if v, ok := byDir[dir]; ok {
			return v
		}
		v := ""
		if r, err := batch.Resolve(rs.DiskPath(path.Join(dir, "go.mod"))); err == nil && r.Exists {
			if data, err := cache.Load(r.Real, open); err == nil {
				v = goDirective(data)
			}
		}
		if v == "" && dir != "." && dir != "/" && dir != "" {
			v = lookup(path.Dir(dir))
		}
		byDir[dir] = v
		return v
	}
	for _, i := range todo {
		if p := gf.Files[i].Path; scan.Language(p) == "go" {
			out[i] = lookup(path.Dir(p))
		}
	}
	return out
}

// goDirective reads the go line of a go.mod.
func goDirective(data []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "go" {
			return f[1]
		}
	}
	return ""
}

// scanDepRelations are the relations by which one node depends on another.
var scanDepRelations = map[string]bool{"calls": true, "imports": true, "references": true, "inherits": true, "implements": true, "tests": true}

// scanDep is a node that depends on the finding's node.
type scanDep struct {
	node graph.NodeID
	rel  string
}

// scanDependents lists the nodes with a dependency edge into n, once
// each, most central first.
func scanDependents(g *graph.Graph, n graph.NodeID) []scanDep {
	seen := map[graph.NodeID]bool{}
	var out []scanDep
	lo, hi := g.InRange(n)
	for pos := lo; pos < hi; pos++ {
		src, rel := g.InSource(pos), g.RelationName(g.InEdge(pos))
		if !scanDepRelations[rel] || src == n || seen[src] {
			continue
		}
		seen[src] = true
		out = append(out, scanDep{src, rel})
	}
	slices.SortFunc(out, func(a, b scanDep) int {
		return cmp.Or(cmp.Compare(g.PageRank(b.node), g.PageRank(a.node)), strings.Compare(g.ExternalID(a.node), g.ExternalID(b.node)))
	})
	return out
}

func scanIsTest(g *graph.Graph, n graph.NodeID) bool {
	return g.HasTag(n, "test") || scan.IsTestFile(g.SourcePath(n))
}

func scanRefs(g *graph.Graph, deps []scanDep, n int) []scanContextRef {
	out := []scanContextRef{}
	for _, d := range deps[:min(n, len(deps))] {
		out = append(out, scanContextRef{NodeID: g.ExternalID(d.node), Label: g.Label(d.node), Relation: d.rel})
	}
	return out
}

// validateFinding places a finding on its graph node and asks the graph
// whether it holds (see validatePattern).
func validateFinding(g *graph.Graph, file *tools.GraphFile, f scan.Finding, validate bool) scanFinding {
	out := scanFinding{Pattern: f.Pattern, Rule: f.Rule, Status: scanUnvalidated, Severity: f.Severity, FilePath: f.File,
		Line: f.Line, Column: f.Column, EndLine: f.EndLine, EndColumn: f.EndColumn, Message: f.Message, Snippet: f.Snippet,
		Subject: f.Subject, Handler: f.Handler, InTest: f.InTest, GraphContext: []scanContextRef{}}
	node, ok := tools.Enclosing(g, file, f.Line)
	if !ok {
		node = file.Node
	}
	if node != graph.NoNode {
		out.NodeID, out.Label = g.ExternalID(node), g.Label(node)
	}
	if validate {
		if node == graph.NoNode {
			out.Validation = "the file has no node in the graph"
		} else {
			validatePattern(g, file, node, &out)
		}
	}
	out.Severity = float64(int(min(max(out.Severity, 0), 1)*100+0.5)) / 100
	out.Level = scan.Level(out.Severity)
	return out
}

// validatePattern sets a finding's status, severity and graph context
// from what the graph says about its node.
func validatePattern(g *graph.Graph, file *tools.GraphFile, node graph.NodeID, f *scanFinding) {
	deps := scanDependents(g, node)
	entity := g.Type(node) != graph.File
	f.Status = scanConfirmed
	switch f.Pattern {
	case scan.TestCoverage:
		validateTested(g, file, node, entity, deps, f)
	case scan.APISurface:
		var outside []scanDep
		for _, d := range deps {
			if g.SourcePath(d.node) != f.FilePath {
				outside = append(outside, d)
			}
		}
		f.GraphContext = scanRefs(g, outside, 3)
		if len(outside) == 0 {
			f.Status, f.Severity = scanMitigated, f.Severity-0.1
			f.Validation = "nothing else in the repository uses it yet"
			return
		}
		f.Severity += 0.05 * float64(min(len(outside), 4))
		f.Validation = fmt.Sprintf("used from %d place(s) in other files", len(outside))
	case scan.AuthBoundary:
		if h := scanHandler(g, file, f.Handler); h != graph.NoNode {
			node = h
			f.GraphContext = []scanContextRef{{NodeID: g.ExternalID(h), Label: g.Label(h), Relation: "handles"}}
		}
		if via, ok := scanReaches(g, node, 2); ok {
			f.Status, f.Severity = scanMitigated, f.Severity-0.3
			f.Validation = fmt.Sprintf("the handler calls %s, which looks like an auth check", via)
			return
		}
		f.Validation = "no auth check reachable from the handler in the graph (2 call hops)"
	case scan.StateMutation:
		validateState(g, file, f)
	default:
		f.GraphContext = scanRefs(g, deps, 3)
		if !entity || len(deps) == 0 {
			f.Validation = "the code is in the graph; nothing in it depends on the enclosing node"
			return
		}
		// Dependents raise a warning's weight; an informational finding
		// stays below the default threshold.
		if f.Severity >= scanDefaultSeverity {
			f.Severity += 0.05
			if len(deps) >= 5 {
				f.Severity += 0.05
			}
		}
		f.Validation = fmt.Sprintf("%s has %d dependent(s) that reach this code", g.Label(node), len(deps))
	}
}

// validateTested: a test that calls the function refutes the finding; a
// test of its file mitigates it; nothing confirms it.
func validateTested(g *graph.Graph, file *tools.GraphFile, node graph.NodeID, entity bool, deps []scanDep, f *scanFinding) {
	if !entity {
		f.Status, f.Validation = scanUnvalidated, "the function is not a node of the graph"
		return
	}
	for _, d := range deps {
		if scanIsTest(g, d.node) {
			f.Status, f.Validation = scanFalsePositive, "reached by test "+g.ExternalID(d.node)
			f.GraphContext = scanRefs(g, []scanDep{d}, 1)
			return
		}
	}
	if file.Node != graph.NoNode {
		for _, d := range scanDependents(g, file.Node) {
			if d.rel == "tests" {
				f.Status, f.Severity = scanMitigated, f.Severity-0.15
				f.Validation = "no test calls it directly, but " + g.ExternalID(d.node) + " tests its file"
				f.GraphContext = scanRefs(g, []scanDep{d}, 1)
				return
			}
		}
	}
	f.Severity += 0.15
	f.GraphContext = scanRefs(g, deps, 3)
	f.Validation = "no test calls it and no test file covers its file"
}

// validateState counts who else uses the global a state_mutation finding
// writes (by its node in the file, when the graph has one).
func validateState(g *graph.Graph, file *tools.GraphFile, f *scanFinding) {
	for _, id := range file.Nodes {
		if f.Subject == "" || g.Label(id) != f.Subject {
			continue
		}
		deps := scanDependents(g, id)
		f.GraphContext = scanRefs(g, deps, 3)
		if len(deps) > 1 && f.Severity >= scanDefaultSeverity {
			f.Severity += 0.1
		}
		f.Validation = fmt.Sprintf("%s is used by %d node(s)", f.Subject, len(deps))
		return
	}
	f.Validation = "the variable has no node of its own in the graph"
}

// scanHandler finds a route's named handler: in the same file first,
// else the one node of that name in the graph.
func scanHandler(g *graph.Graph, file *tools.GraphFile, name string) graph.NodeID {
	if name == "" {
		return graph.NoNode
	}
	for _, id := range file.Nodes {
		if g.Label(id) == name && g.Type(id) == graph.Function {
			return id
		}
	}
	if ids := g.NodesByLabel(name); len(ids) == 1 {
		return ids[0]
	}
	return graph.NoNode
}

// scanReaches looks for an auth-like node within hops call edges of n.
func scanReaches(g *graph.Graph, n graph.NodeID, hops int) (string, bool) {
	frontier, seen := []graph.NodeID{n}, map[graph.NodeID]bool{n: true}
	for range hops {
		var next []graph.NodeID
		for _, x := range frontier {
			lo, hi := g.OutRange(x)
			for e := lo; e < hi; e++ {
				t := g.Target(e)
				if seen[t] || g.RelationName(e) != "calls" {
					continue
				}
				seen[t] = true
				if scanAuthLabel(g.Label(t)) {
					return g.ExternalID(t), true
				}
				next = append(next, t)
			}
		}
		frontier = next
	}
	return "", false
}

func scanAuthLabel(l string) bool {
	l = strings.ToLower(l)
	for _, w := range []string{"auth", "login_required", "permission", "authorize", "verify_token", "current_user", "require_user", "jwt"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}
