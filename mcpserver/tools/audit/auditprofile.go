package audit

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/continuity"
	"github.com/m1nd-go/m1nd/mcpserver/extref"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type auditParams struct {
	Path    string `json:"path" jsonschema:"Repository root or a directory in one." help:"The repository root or a directory inside an ingested root (absolute, or relative to a root)." tool:"required"`
	Profile string `json:"profile" jsonschema:"coordination adds agents; production: all; auto: by state." help:"auto, quick, coordination or production. quick: state, topology, hotspots; coordination: + the agents' state; production: everything, with content hashes; auto: quick, plus verification when files changed and coordination when agents hold state." tool:"default=auto,enum=auto|quick|coordination|production"`
	Depth   string `json:"depth" jsonschema:"Hotspots listed: shallow 5, standard 10, deep 25." help:"How many hotspots and findings to list: shallow 5, standard 10, deep 25." tool:"default=standard,enum=shallow|standard|deep"`
	// CrossVerify and ExternalRefs override the profile when given.
	CrossVerify  *bool `json:"cross_verify" jsonschema:"Default: by profile." help:"Run the graph-vs-disk verification (default: by profile)."`
	ExternalRefs *bool `json:"external_refs" jsonschema:"Default: by profile." help:"Scan for references outside the repository (default: by profile)."`
}

// auditDepthLimits is how many hotspots (and half as many findings) each
// depth lists.
var auditDepthLimits = map[string]int{"shallow": 5, "standard": 10, "deep": 25}

func registerAuditProfile(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "audit",
		Title:       "Repository audit",
		Description: "A repository's state, hotspots, drift, outside references and locks, with a verdict.",
		Details: "One-call audit of an ingested repository (or a directory inside one): ingest state (roots, git HEAD then and now, files changed on disk since the ingest), topology (node types, files without dependency edges), hotspots (central, often changed files, and whether tests cover them), graph-vs-disk verification (cross_verify), references outside the repository (external_references) and the agents' coordination state (locks, overlapping locked regions, perspectives, trails), ending in findings, a verdict and the next step. " +
			"Profiles: quick (state, topology, hotspots), coordination (+ agents' state), production (everything, with content hashes), auto (quick, plus verification when files changed and coordination when agents hold state). cross_verify and external_refs override the profile.",
		Class:     tools.Read,
		WhenToUse: "First pass on an unfamiliar repository, orientation in a long session, or a structural review before a hand-off or merge.",
		AvoidWhen: "You need one specific answer (impact, cross_verify, external_references directly).",
		Next:      []string{"ingest", "cross_verify", "impact", "view"},
		Example:   map[string]any{"agent_id": "claude", "path": "backend", "profile": "quick"},
	}, runAudit)
}

type auditRoot struct {
	Path          string `json:"path"`
	Adapter       string `json:"adapter"`
	Files         int    `json:"files"`
	IngestedAt    string `json:"ingested_at"`
	GitBranch     string `json:"git_branch,omitempty"`
	GitHead       string `json:"git_head,omitempty"`
	GitHeadNow    string `json:"git_head_now,omitempty"`
	HeadMoved     bool   `json:"head_moved"`
	ExistsOnDisk  bool   `json:"exists_on_disk"`
	FilesModified int    `json:"files_modified"`
	FilesDeleted  int    `json:"files_deleted"`
	FilesAdded    int    `json:"files_added"`
}

type auditIngest struct {
	Roots           []auditRoot `json:"roots"`
	Nodes           int         `json:"nodes"`
	Edges           int         `json:"edges"`
	GraphGeneration uint64      `json:"graph_generation"`
	Persistent      bool        `json:"persistent"`
	LastPersist     string      `json:"last_persist,omitempty"`
	StaleKnown      bool        `json:"stale_known" jsonschema:"Whether file stamps allow telling changed files (false for memory or json adapters)."`
}

type auditTopology struct {
	FilesInScope      int            `json:"files_in_scope"`
	NodeTypes         map[string]int `json:"node_types"`
	DependencyEdges   int            `json:"dependency_edges" jsonschema:"Edges of the scope's files and entities that are imports, calls, references, inherits or implements."`
	IsolatedFiles     int            `json:"isolated_files" jsonschema:"Files in scope with no dependency edge in or out."`
	IsolatedExamples  []string       `json:"isolated_examples"`
	TestedFiles       int            `json:"tested_files"`
	UntestedCodeFiles int            `json:"untested_code_files"`
}

type auditHotspot struct {
	NodeID          string  `json:"node_id"`
	Path            string  `json:"path"`
	Score           float64 `json:"score"`
	PageRank        float64 `json:"pagerank"`
	ChangeFrequency float64 `json:"change_frequency"`
	Dependents      int     `json:"dependents"`
	Tested          bool    `json:"tested"`
	Reason          string  `json:"reason"`
}

type auditLockOverlap struct {
	LockA   string   `json:"lock_a"`
	LockB   string   `json:"lock_b"`
	AgentA  string   `json:"agent_a"`
	AgentB  string   `json:"agent_b"`
	Shared  int      `json:"shared_nodes"`
	Example []string `json:"examples"`
}

type auditCoordination struct {
	Locks         int                `json:"locks"`
	LocksByAgent  map[string]int     `json:"locks_by_agent"`
	Overlaps      []auditLockOverlap `json:"overlapping_locks" jsonschema:"Pairs of different agents' locks whose regions share nodes: they may step on each other."`
	Perspectives  int                `json:"perspectives"`
	Trails        int                `json:"trails"`
	TrailsStatus  map[string]int     `json:"trails_by_status"`
	LoadWarnings  []string           `json:"load_warnings"`
	ActiveAgents  int                `json:"active_agents"`
	Durable       bool               `json:"durable"`
	BootMemoryFor string             `json:"boot_memory_of_caller,omitempty"`
}

type auditFinding struct {
	Severity string `json:"severity" jsonschema:"error, warning or info."`
	Kind     string `json:"kind"`
	Message  string `json:"message"`
	Target   string `json:"target,omitempty"`
	Tool     string `json:"tool,omitempty" jsonschema:"The tool that acts on it."`
}

type auditOutput struct {
	Path               string             `json:"path"`
	Scope              string             `json:"scope" jsonschema:"The path as a prefix inside the root (\"\" for the whole root)."`
	Profile            string             `json:"profile"`
	ProfileEffective   string             `json:"profile_effective"`
	Depth              string             `json:"depth"`
	Sections           []string           `json:"sections" jsonschema:"The parts this audit ran."`
	IngestState        auditIngest        `json:"ingest_state"`
	Topology           auditTopology      `json:"topology"`
	Hotspots           []auditHotspot     `json:"hotspots"`
	CrossVerify        map[string]any     `json:"cross_verify,omitempty" jsonschema:"Summary of cross_verify on the scope (verdict, counts, suggested action)."`
	ExternalReferences map[string]any     `json:"external_references,omitempty" jsonschema:"Summary of external_references on the scope."`
	Coordination       *auditCoordination `json:"coordination,omitempty"`
	Findings           []auditFinding     `json:"findings"`
	Verdict            string             `json:"verdict" jsonschema:"healthy, attention (warnings) or stale (the graph no longer matches the disk)."`
	ElapsedMs          float64            `json:"elapsed_ms"`
	tools.Guidance
}

// audit is one audit call.
type audit struct {
	c     *tools.Call
	in    auditParams
	scope string
	limit int
	out   auditOutput
}

func runAudit(c *tools.Call, in auditParams) (auditOutput, error) {
	a := &audit{c: c, in: in, limit: auditDepthLimits[in.Depth]}
	start := time.Now()
	a.out = auditOutput{Path: in.Path, Profile: in.Profile, Depth: in.Depth, Findings: []auditFinding{}, Hotspots: []auditHotspot{}}
	var stale session.Staleness
	err := tools.ReadGraph(c, func(b *session.Bundle) error {
		if err := a.resolvePath(b); err != nil {
			return err
		}
		stale = c.Session.Staleness(b)
		a.ingestState(b, stale)
		a.topology(b)
		a.hotspots(b)
		return nil
	})
	if err != nil {
		return auditOutput{}, err
	}
	verify, ext, coord := a.plan(stale)
	a.out.Sections = []string{"ingest_state", "topology", "hotspots"}
	// The sibling tools take the read lock themselves: never called
	// while holding it.
	if verify {
		a.crossVerify()
	}
	if ext {
		a.externalRefs()
	}
	if coord {
		a.coordination()
	}
	a.verdict()
	a.out.ElapsedMs = tools.Ms(time.Since(start))
	return a.out, nil
}

// resolvePath turns the audited path into a scope inside a root.
func (a *audit) resolvePath(b *session.Bundle) error {
	raw := strings.TrimSpace(a.in.Path)
	for _, r := range b.Roots {
		if filepath.Clean(raw) == filepath.Clean(r.Path) {
			return nil
		}
	}
	sf, err := tools.ParseScope(b, raw)
	if err != nil {
		e := tools.Errorf("audit profiles an ingested repository: pass its root (health lists ingest_roots) or a directory inside it; ingest a repository first to audit it.", "path %q is not inside an ingested root", raw)
		return e.WithExample(map[string]any{"agent_id": a.c.AgentID, "path": firstRoot(b)})
	}
	a.scope = sf.String()
	if gf := tools.BundleGraphFiles(b); !slices.ContainsFunc(gf.Files, func(f tools.GraphFile) bool { return sf.Match(f.Path) }) {
		return tools.Errorf("The path names no indexed file; glob lists the files the graph has.", "no file of the graph is under %q", raw).
			WithExample(map[string]any{"agent_id": a.c.AgentID, "path": firstRoot(b)})
	}
	a.out.Scope = a.scope
	return nil
}

func firstRoot(b *session.Bundle) string {
	if len(b.Roots) > 0 {
		return b.Roots[0].Path
	}
	return "/path/to/repo"
}

func (a *audit) inScope(p string) bool { return strings.HasPrefix(p, a.scope) }

// plan decides the optional sections from the profile and the flags.
func (a *audit) plan(stale session.Staleness) (verify, ext, coord bool) {
	st := a.c.Session.Continuity()
	busy := st.Locks.Len()+st.Perspectives.Len()+st.Trails.Len() > 0
	prof := a.in.Profile
	switch prof {
	case "quick":
	case "coordination":
		coord = true
	case "production":
		verify, ext, coord = true, true, true
	default:
		verify, coord = stale.Stale(), busy
		prof = "quick"
		if coord {
			prof = "coordination"
		}
	}
	if a.in.CrossVerify != nil {
		verify = *a.in.CrossVerify
	}
	if a.in.ExternalRefs != nil {
		ext = *a.in.ExternalRefs
	}
	a.out.ProfileEffective = prof
	return verify, ext, coord
}

func (a *audit) find(sev, kind, target, tool, format string, args ...any) {
	a.out.Findings = append(a.out.Findings, auditFinding{Severity: sev, Kind: kind, Target: target, Tool: tools.FirstTool(a.c.Registry, tool), Message: fmt.Sprintf(format, args...)})
}

// ingestState reports the roots, their git state and the files changed.
func (a *audit) ingestState(b *session.Bundle, stale session.Staleness) {
	g := b.Graph
	last, _ := a.c.Session.LastPersist()
	is := auditIngest{Roots: []auditRoot{}, Nodes: g.NumNodes(), Edges: g.NumEdges(), GraphGeneration: b.Gen, Persistent: persistent(a.c.Session), StaleKnown: stale.Known}
	if !last.IsZero() {
		is.LastPersist = last.UTC().Format(time.RFC3339)
	}
	count := func(ids []string, r session.RootFiles) int {
		n := 0
		for _, id := range ids {
			if strings.HasPrefix(id, r.Prefix) && a.inScope(strings.TrimPrefix(id, r.Prefix)) {
				n++
			}
		}
		return n
	}
	for _, r := range b.Roots {
		ar := auditRoot{Path: r.Path, Adapter: r.Adapter, Files: r.Files, IngestedAt: r.IngestedAt.UTC().Format(time.RFC3339), GitBranch: r.GitBranch, GitHead: r.GitHead}
		if _, err := os.Stat(r.Path); err == nil {
			ar.ExistsOnDisk = true
			_, ar.GitHeadNow = session.GitState(r.Path)
			ar.HeadMoved = r.GitHead != "" && ar.GitHeadNow != "" && ar.GitHeadNow != r.GitHead
		}
		for _, rf := range b.Files {
			if rf.Root == r.Path && r.Adapter == "code" { // only code roots keep stamps; docs may share the path
				ar.FilesModified, ar.FilesDeleted, ar.FilesAdded = count(stale.Modified, rf), count(stale.Deleted, rf), count(stale.Added, rf)
			}
		}
		switch {
		case !ar.ExistsOnDisk:
			a.find("error", "root_missing", r.Path, "ingest", "The ingested root %s no longer exists on disk: answers describe code that is gone.", r.Path)
		case ar.HeadMoved:
			a.find("warning", "head_moved", r.Path, "ingest", "%s moved from %s to %s since it was ingested: re-ingest with incremental: true.", r.Path, tools.Short(r.GitHead), tools.Short(ar.GitHeadNow))
		}
		if n := ar.FilesModified + ar.FilesDeleted + ar.FilesAdded; n > 0 {
			a.find("warning", "files_changed", r.Path, "ingest", "%d file(s) changed on disk since the ingest (%d modified, %d deleted, %d added): re-ingest with incremental: true.", n, ar.FilesModified, ar.FilesDeleted, ar.FilesAdded)
		}
		is.Roots = append(is.Roots, ar)
	}
	a.out.IngestState = is
}

var dependencyRelations = map[string]bool{"imports": true, "calls": true, "references": true, "inherits": true, "implements": true}

// topology counts the scope's nodes by type, dependency edges, isolated
// and tested files.
func (a *audit) topology(b *session.Bundle) {
	g := b.Graph
	tp := auditTopology{NodeTypes: map[string]int{}, IsolatedExamples: []string{}}
	for _, f := range tools.BundleGraphFiles(b).Files {
		if !a.inScope(f.Path) || f.Node == graph.NoNode {
			continue
		}
		tp.FilesInScope++
		deps, tested := 0, false
		for _, n := range append([]graph.NodeID{f.Node}, f.Nodes...) {
			tp.NodeTypes[tools.TypeName(g.Type(n))]++
			d, t := edgeKinds(g, n)
			deps += d
			tested = tested || t
		}
		if deps == 0 {
			tp.IsolatedFiles++
			if len(tp.IsolatedExamples) < a.limit {
				tp.IsolatedExamples = append(tp.IsolatedExamples, f.Path)
			}
		}
		tp.DependencyEdges += deps
		switch {
		case tested:
			tp.TestedFiles++
		case len(f.Nodes) > 0 && !tools.IsTestPath(f.Path) && !tools.Untestable(f.Path):
			tp.UntestedCodeFiles++
		}
	}
	a.out.Topology = tp
}

// edgeKinds counts a node's dependency edges (each once) and says
// whether a tests edge touches it.
func edgeKinds(g *graph.Graph, n graph.NodeID) (deps int, tested bool) {
	lo, hi := g.OutRange(n)
	for e := lo; e < hi; e++ {
		if !g.IsMirror(e) && dependencyRelations[g.RelationName(e)] {
			deps++
		}
	}
	ilo, ihi := g.InRange(n)
	for p := ilo; p < ihi; p++ {
		e := g.InEdge(p)
		tested = tested || testEdge(g, e)
		if !g.IsMirror(e) && dependencyRelations[g.RelationName(e)] {
			deps++
		}
	}
	return deps, tested
}

// testEdge reports whether an incoming edge shows a test exercising its
// target: a tests link, or a real dependency (import, call, reference)
// from a node that lives in a test file. Name matching alone misses
// modules such as flask's globals.py that tests import but no test file
// is named after.
func testEdge(g *graph.Graph, e graph.EdgeIdx) bool {
	rel := g.RelationName(e)
	if rel == "tests" {
		return true
	}
	if g.IsMirror(e) || !dependencyRelations[rel] {
		return false
	}
	src := g.Source(e)
	return src != g.Target(e) && tools.IsTestPath(g.SourcePath(src))
}

// hotspots ranks the scope's code files by centrality, change frequency and
// dependent files. Files holding no code (a changelog, a licence) are never
// hotspots: they change often but nothing breaks with them.
func (a *audit) hotspots(b *session.Bundle) {
	g := b.Graph
	type hs struct {
		auditHotspot
		pr float64
	}
	var all []hs
	maxPR, maxDeps := 0.0, 0
	for _, f := range tools.BundleGraphFiles(b).Files {
		if !a.inScope(f.Path) || f.Node == graph.NoNode || tools.IsTestPath(f.Path) || tools.Untestable(f.Path) || !tools.HoldsCode(g, f.Node) {
			continue // a stub, a .d.ts or a Makefile holds no behaviour a test runs: no hotspot, never untested
		}
		h := hs{auditHotspot: auditHotspot{NodeID: g.ExternalID(f.Node), Path: f.Path, ChangeFrequency: tools.R3(g.ChangeFrequency(f.Node))}, pr: float64(graph.Finite(g.PageRank(f.Node)))}
		h.Dependents, h.Tested = fileDependents(g, f.Node, f.Nodes)
		maxPR, maxDeps = max(maxPR, h.pr), max(maxDeps, h.Dependents)
		all = append(all, h)
	}
	for i := range all {
		h := &all[i]
		score := 0.3 * h.ChangeFrequency
		if maxPR > 0 {
			score += 0.4 * h.pr / maxPR
		}
		if maxDeps > 0 {
			score += 0.3 * float64(h.Dependents) / float64(maxDeps)
		}
		h.Score, h.PageRank = tools.R3(float32(score)), tools.R3(float32(h.pr))
		h.Reason = fmt.Sprintf("%d dependents, change frequency %.2f", h.Dependents, h.ChangeFrequency)
		if !h.Tested {
			h.Reason += ", no test touches it"
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Score != all[j].Score {
			return all[i].Score > all[j].Score
		}
		return all[i].NodeID < all[j].NodeID
	})
	for i, h := range all {
		if i == a.limit {
			break
		}
		a.out.Hotspots = append(a.out.Hotspots, h.auditHotspot)
		if !h.Tested && h.Dependents > 0 && i < 3 {
			a.find("info", "untested_hotspot", h.NodeID, "impact", "%s is among the most central files (%d dependents) and no test touches it.", h.Path, h.Dependents)
		}
	}
}

// fileDependents counts the other files with a dependency edge into file or
// the nodes it holds (each file once, as a reader would count them), and
// says whether a test reaches any of them.
func fileDependents(g *graph.Graph, file graph.NodeID, held []graph.NodeID) (int, bool) {
	from := map[graph.NodeID]bool{}
	tested := false
	for _, n := range append([]graph.NodeID{file}, held...) {
		ilo, ihi := g.InRange(n)
		for p := ilo; p < ihi; p++ {
			e := g.InEdge(p)
			if !g.IsMirror(e) && dependencyRelations[g.RelationName(e)] {
				if src := tools.FileOf(g, g.Source(e)); src != file && src != graph.NoNode {
					from[src] = true
				}
			}
			tested = tested || testEdge(g, e)
		}
	}
	return len(from), tested
}

// serves reports whether the registry serves a sibling tool: audit's
// optional sections run only the tools this build has.
func (a *audit) serves(name string) bool {
	_, ok := a.c.Registry.Lookup(name)
	return ok
}

// jsonFields is an answer as the JSON object a client receives.
func jsonFields(v any) map[string]any {
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	return m
}

// pick keeps the given fields of an answer; a counted list is its count.
func pick(m map[string]any, keys ...string) map[string]any {
	out := map[string]any{}
	for _, k := range keys {
		if v, ok := m[k]; ok {
			if l, ok := v.(map[string]any); ok && l["count"] != nil {
				v = l["count"] // a counted list: its count
			}
			out[k] = v
		}
	}
	return out
}

// crossVerify runs cross_verify on the scope (with the caller's agent)
// and keeps its summary: the verdict and the counts. The sibling takes
// the read lock itself.
func (a *audit) crossVerify() {
	if !a.serves("cross_verify") {
		return
	}
	checks := []string{"existence", "loc"}
	if a.in.Profile == "production" {
		checks = append(checks, "hash")
	}
	r, err := runCrossVerify(a.c, crossVerifyParams{Scope: a.scope, Check: checks, Limit: a.limit})
	if err != nil {
		a.find("warning", "cross_verify_failed", "", "cross_verify", "cross_verify did not run: %v", err)
		return
	}
	a.out.Sections = append(a.out.Sections, "cross_verify")
	a.out.CrossVerify = pick(jsonFields(r), "verdict", "drift_ratio", "graph_files", "in_sync", "missing_on_disk", "not_in_graph", "modified", "loc_drift", "unverified", "suggested_action")
	if r.Verdict == "drifted" {
		a.find("warning", "graph_drifted", a.scope, "ingest", "The graph and the disk disagree (drift ratio %v): cross_verify lists the files.", r.DriftRatio)
	}
}

// externalRefs runs external_references on the scope (every kind) and
// keeps its answer without the references themselves and the guidance.
func (a *audit) externalRefs() {
	if !a.serves("external_references") {
		return
	}
	r, err := runExternalReferences(a.c, externalReferencesParams{Scope: a.scope, Kinds: slices.Clone(extref.Kinds), Limit: a.limit})
	if err != nil {
		a.find("warning", "external_references_failed", "", "external_references", "external_references did not run: %v", err)
		return
	}
	a.out.Sections = append(a.out.Sections, "external_references")
	m := jsonFields(r)
	delete(m, "references")
	for k := range m {
		if strings.HasPrefix(k, "next_") || k == "proof_state" {
			delete(m, k)
		}
	}
	a.out.ExternalReferences = m
	for _, k := range []string{extref.AbsolutePath, extref.ParentEscape, extref.HomePath} {
		if n := r.ByKind[k]; n > 0 {
			a.find("warning", "external_"+k, a.scope, "external_references", "%v reference(s) of kind %s point outside the repository: the code depends on this machine's layout.", n, k)
		}
	}
}

// coordination reports the agents' continuity state and the locks of
// different agents whose regions overlap.
func (a *audit) coordination() {
	st := a.c.Session.Continuity()
	co := &auditCoordination{LocksByAgent: map[string]int{}, Overlaps: []auditLockOverlap{}, TrailsStatus: map[string]int{}, LoadWarnings: st.Warnings(),
		Perspectives: st.Perspectives.Len(), Trails: st.Trails.Len(), ActiveAgents: len(a.c.Session.Agents()), Durable: st.Persistent()}
	co.LoadWarnings = tools.OrEmpty(co.LoadWarnings)
	for _, t := range st.Trails.List(continuity.TrailFilter{}) {
		co.TrailsStatus[t.Status]++
	}
	locks := st.Locks.Snapshot()
	co.Locks = len(locks)
	for _, l := range locks {
		co.LocksByAgent[l.AgentID]++
	}
	for i := range locks {
		for j := i + 1; j < len(locks); j++ {
			la, lb := locks[i], locks[j]
			if la.AgentID == lb.AgentID {
				continue
			}
			var shared []string
			for x := range la.Base.Nodes {
				if _, ok := lb.Base.Nodes[x]; ok {
					shared = append(shared, x)
				}
			}
			if len(shared) > 0 {
				sort.Strings(shared)
				co.Overlaps = append(co.Overlaps, auditLockOverlap{LockA: la.ID, LockB: lb.ID, AgentA: la.AgentID, AgentB: lb.AgentID, Shared: len(shared), Example: tools.FirstN(shared, 3)})
				a.find("warning", "overlapping_locks", shared[0], "lock_diff", "Agents %s and %s hold locks on overlapping regions (%d shared nodes, e.g. %s): diff before editing there.", la.AgentID, lb.AgentID, len(shared), shared[0])
			}
		}
	}
	for _, w := range co.LoadWarnings {
		a.find("warning", "continuity_file_set_aside", "", "trail_list", "%s", w)
	}
	if n := co.TrailsStatus[continuity.StatusStale]; n > 0 {
		a.find("info", "stale_trails", "", "trail_list", "%d trail(s) are stale (most of their nodes are gone).", n)
	}
	a.out.Coordination = co
	a.out.Sections = append(a.out.Sections, "coordination")
}

func (a *audit) verdict() {
	a.out.Verdict = "healthy"
	for _, f := range a.out.Findings {
		switch {
		case f.Kind == "files_changed" || f.Kind == "head_moved" || f.Kind == "graph_drifted" || f.Kind == "root_missing":
			a.out.Verdict = "stale"
		case f.Severity == "warning" && a.out.Verdict == "healthy":
			a.out.Verdict = "attention"
		}
	}
	sort.SliceStable(a.out.Findings, func(i, j int) bool { return sevRank(a.out.Findings[i].Severity) < sevRank(a.out.Findings[j].Severity) })
	if len(a.out.Findings) > a.limit*2 {
		a.out.Findings = a.out.Findings[:a.limit*2]
	}
	gd := tools.Guidance{ProofState: "triaging"}
	switch {
	case a.out.Verdict == "stale":
		gd.NextSuggestedTool, gd.NextSuggestedTarget = tools.FirstTool(a.c.Registry, "ingest"), firstRootOf(a.out.IngestState)
		gd.NextStepHint = "Bring the graph back in line with the disk first (ingest with incremental: true), then audit again."
	case len(a.out.Hotspots) > 0:
		gd.NextSuggestedTool, gd.NextSuggestedTarget = tools.FirstTool(a.c.Registry, "impact", "view"), a.out.Hotspots[0].NodeID
		gd.NextStepHint = "Start with the top hotspot: what depends on it (impact), then read it."
	}
	a.out.Guidance = gd
}

func firstRootOf(is auditIngest) string {
	if len(is.Roots) > 0 {
		return is.Roots[0].Path
	}
	return ""
}

func sevRank(s string) int {
	return map[string]int{"error": 0, "warning": 1, "info": 2}[s]
}

func persistent(s *session.State) bool {
	cfg := s.Config()
	return cfg.Persistent()
}
