package analysis

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// HypothesisParams configures Hypothesize.
type HypothesisParams struct {
	// MaxHops bounds the dependency and call chains searched (5; 1 … 20).
	MaxHops int
	// IncludeGhostEdges adds co-change history (CoChange) as weak
	// evidence: files that change together are coupled in fact, though
	// not in structure.
	IncludeGhostEdges bool
	// IncludePartialFlow reports how far a search went when it found no
	// path.
	IncludePartialFlow bool
	// PathBudget caps the distinct shortest paths counted per search
	// (1000).
	PathBudget int
	// CoChange, when set, is the co-change strength of two files in
	// [0, 1] (history's, not the graph's).
	CoChange func(a, b graph.NodeID) float32
	// Deps provides dependency views to reuse (a server keeps one per
	// level for the served graph); nil builds them per call.
	Deps func(fileLevel bool) (*DepGraph, error)
}

// DefaultHypothesisParams: the defaults of docs/design.md#analyses (5 hops,
// ghost edges and partial flow on, 1000 paths).
func DefaultHypothesisParams() HypothesisParams {
	return HypothesisParams{MaxHops: 5, IncludeGhostEdges: true, IncludePartialFlow: true, PathBudget: 1000}
}

func (p HypothesisParams) validate() error {
	if p.MaxHops < 1 || p.MaxHops > 20 {
		return fmt.Errorf("max_hops must be in [1, 20], got %d", p.MaxHops)
	}
	if p.PathBudget < 1 {
		return fmt.Errorf("path_budget must be ≥ 1, got %d", p.PathBudget)
	}
	return nil
}

// Verdicts, by confidence: above 0.8, below 0.2, in between.
const (
	VerdictLikelyTrue   = "likely_true"
	VerdictLikelyFalse  = "likely_false"
	VerdictInconclusive = "inconclusive"
)

// Evidence is one observation for or against a claim. LikelihoodFactor
// multiplies the claim's odds: above 1 it supports the claim, below 1 it
// contradicts it, 1 is a note that changes nothing.
type Evidence struct {
	Type             string         `json:"type"`
	Description      string         `json:"description"`
	LikelihoodFactor float32        `json:"likelihood_factor"`
	Nodes            []graph.NodeID `json:"nodes,omitempty"`
	Relations        []string       `json:"relations,omitempty"`
	// PathWeight is the product of the path's edge strengths (relation
	// strength × structural weight), for path evidence.
	PathWeight float32 `json:"path_weight,omitempty"`
}

// PartialFlow says how far a search that found nothing went.
type PartialFlow struct {
	From         graph.NodeID `json:"from"`
	To           graph.NodeID `json:"to"`
	Reached      int          `json:"reached"`
	HopsExplored int          `json:"hops_explored"`
	// Exhausted: everything reachable was searched, so no longer path
	// exists either.
	Exhausted bool `json:"exhausted"`
}

// HypothesisResult is the verdict on a claim.
type HypothesisResult struct {
	Claim   Claim        `json:"claim"`
	Subject graph.NodeID `json:"subject"`
	// Object is graph.NoNode for a claim about one node.
	Object                graph.NodeID  `json:"object"`
	Level                 string        `json:"level"`
	Verdict               string        `json:"verdict"`
	Confidence            float32       `json:"confidence"`
	SupportingEvidence    []Evidence    `json:"supporting_evidence"`
	ContradictingEvidence []Evidence    `json:"contradicting_evidence"`
	PathsExplored         int           `json:"paths_explored"`
	PartialFlow           []PartialFlow `json:"partial_flow,omitempty"`
}

// Hypothesize tests a parsed claim about subject (and object, for a claim
// relating two nodes; graph.NoNode otherwise) against the graph. Each
// observation — a dependency or call chain and its length, the absence of
// any chain within MaxHops (or at all), a dependency the other way, a
// test edge, a shared directory (which is containment, never dependency),
// co-change history — carries a likelihood factor; the confidence is the
// posterior of even prior odds times those factors, clamped to
// [0.01, 0.99]. Negated claims ("never calls", "does not depend on") are
// the positive claim's evidence read the other way. Files (and
// directories) are compared at file level, where a file stands for its
// functions; anything else at entity level.
func Hypothesize(g *graph.Graph, c Claim, subject, object graph.NodeID, p HypothesisParams) (HypothesisResult, error) {
	res := HypothesisResult{Claim: c, Subject: subject, Object: object}
	if err := checkGraph(g); err != nil {
		return res, err
	}
	if err := p.validate(); err != nil {
		return res, err
	}
	if !g.Valid(subject) {
		return res, fmt.Errorf("analysis: subject %d out of range", subject)
	}
	if c.Binary() != (object != graph.NoNode) {
		return res, errors.New("analysis: a claim about two nodes needs an object, one about a single node none")
	}
	if object != graph.NoNode && !g.Valid(object) {
		return res, fmt.Errorf("analysis: object %d out of range", object)
	}
	fileLevel := isFileish(g, subject) && (object == graph.NoNode || isFileish(g, object))
	res.Level = LevelEntity.String()
	if fileLevel {
		res.Level = LevelFile.String()
	}
	h := &hypo{g: g, p: p, res: &res}
	var err error
	if h.d, err = h.deps(fileLevel); err != nil {
		return res, err
	}
	odds, err := h.evaluate(c.Type, subject, object)
	if err != nil {
		return res, err
	}
	res.SetOdds(odds)
	if res.SupportingEvidence == nil {
		res.SupportingEvidence = []Evidence{}
	}
	if res.ContradictingEvidence == nil {
		res.ContradictingEvidence = []Evidence{}
	}
	return res, nil
}

// SetOdds sets the confidence and verdict the evidence's odds give: the
// odds as a probability clamped to [0.01, 0.99], likely true above 0.8,
// likely false below 0.2.
func (r *HypothesisResult) SetOdds(odds float64) {
	r.Confidence = graph.Finite(float32(min(max(odds/(1+odds), 0.01), 0.99)))
	switch {
	case r.Confidence > 0.8:
		r.Verdict = VerdictLikelyTrue
	case r.Confidence < 0.2:
		r.Verdict = VerdictLikelyFalse
	default:
		r.Verdict = VerdictInconclusive
	}
}

func isFileish(g *graph.Graph, v graph.NodeID) bool {
	return g.Type(v) == graph.File || isContainer(g, v)
}

// hypo is one Hypothesize call.
type hypo struct {
	g   *graph.Graph
	p   HypothesisParams
	d   *DepGraph
	res *HypothesisResult
	// runtime: searches skip type-only links (circular claims).
	runtime bool
}

func (h *hypo) deps(fileLevel bool) (*DepGraph, error) {
	if h.p.Deps != nil {
		d, err := h.p.Deps(fileLevel)
		if err == nil && d != nil && d.g == h.g && d.fileLevel == fileLevel {
			return d, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return NewDepGraph(h.g, fileLevel)
}

// verdictPart is the evidence of one sub-question, with the odds it gives.
type verdictPart struct {
	ev   []Evidence
	odds float64
}

func (v *verdictPart) add(e Evidence) {
	e.LikelihoodFactor = graph.Finite(e.LikelihoodFactor)
	v.ev = append(v.ev, e)
	v.odds *= float64(e.LikelihoodFactor)
}

// inverted reads a part for the opposite claim.
func (v verdictPart) inverted() verdictPart {
	out := verdictPart{odds: 1 / v.odds}
	for _, e := range v.ev {
		if e.LikelihoodFactor > 0 {
			e.LikelihoodFactor = 1 / e.LikelihoodFactor
		}
		out.ev = append(out.ev, e)
	}
	return out
}

func prob(odds float64) float64 { return odds / (1 + odds) }
func odds(p float64) float64 {
	p = min(max(p, 1e-6), 1-1e-6)
	return p / (1 - p)
}

// evaluate answers the claim and files the evidence on the result.
func (h *hypo) evaluate(t ClaimType, a, b graph.NodeID) (float64, error) {
	var v verdictPart
	switch t {
	case ClaimDependsOn:
		v = h.dependsOn(a, b, true)
	case ClaimNoDependency:
		v = h.dependsOn(a, b, true).inverted()
	case ClaimAffects:
		v = h.dependsOn(b, a, true)
	case ClaimImports:
		v = h.direct(a, b, "imports", relSet{"imports": true})
	case ClaimCalls:
		v = h.chain(a, b, "calls", relSet{"calls": true})
	case ClaimNeverCalls:
		v = h.chain(a, b, "calls", relSet{"calls": true}).inverted()
	case ClaimInherits:
		v = h.chain(a, b, "inherits", relSet{"inherits": true, "implements": true, "extends": true})
	case ClaimIndependent, ClaimCoupled, ClaimCircular:
		v = h.pair(t, a, b)
	case ClaimIsolated:
		v = h.isolated(a)
	case ClaimUnused:
		v = h.unused(a)
	case ClaimTestedBy:
		v = h.testedBy(a, b)
	case ClaimTested:
		v = h.tested(a)
	case ClaimUntested:
		v = h.tested(a).inverted()
	default:
		return 0, fmt.Errorf("analysis: unknown claim type %q", t)
	}
	for _, e := range v.ev {
		if e.LikelihoodFactor > 1 {
			h.res.SupportingEvidence = append(h.res.SupportingEvidence, e)
		} else {
			h.res.ContradictingEvidence = append(h.res.ContradictingEvidence, e)
		}
	}
	return v.odds, nil
}

// name is how descriptions name a node: its external id without "file::".
func (h *hypo) name(v graph.NodeID) string { return strings.TrimPrefix(h.g.ExternalID(v), "file::") }

// PathFactor is what a dependency chain of this many hops and this
// strength says: a direct edge nearly settles a claim (19), a chain of
// five hops or more little (2).
func PathFactor(hops int, strength float32) float32 {
	base := float32(2)
	switch hops {
	case 1:
		base = 19
	case 2:
		base = 9
	case 3:
		base = 5
	case 4:
		base = 3
	}
	return 1 + (base-1)*max(strength, 0.1)
}

// Factors of a search that found nothing: everything reachable was
// searched, or only MaxHops of it.
const (
	noPathExhausted = 0.05
	noPathWithin    = 0.25
)

// typeDependencyFactor is a direct type-only import's support: a names
// b's symbols, so b's change can break a's type check, but a never loads
// b — less than a run-time edge (PathFactor 19), enough alone for
// likely_true (0.86), said as the type dependency it is.
const typeDependencyFactor = 6

// dependsOn: is there a dependency chain from a to b that runs? A
// type-only import (TypeImports: `if TYPE_CHECKING:`, `import type`)
// never runs, so it is no step of a run-time chain (typeOnlyEvidence says
// what it links): a package __init__ that imports every module, imported
// for one class named in an annotation, must not make its importer
// depend on all of them.
func (h *hypo) dependsOn(a, b graph.NodeID, reverse bool) verdictPart {
	types := !h.runtime // a circular claim asks about run time alone
	h.runtime = true
	defer func() { h.runtime = !types }()
	v := verdictPart{odds: 1}
	s := h.unitSearch(a, b)
	switch {
	case s.overlap:
		v.add(Evidence{Type: "containment", Description: fmt.Sprintf("%s and %s are the same code or one contains the other: containment, not a dependency between two things", h.name(a), h.name(b)), LikelihoodFactor: 1, Nodes: []graph.NodeID{a, b}})
		return v
	case s.found:
		if e, ok := h.testOnlyChain(a, b, s); ok {
			v.add(e)
		} else {
			v.add(h.chainEvidence(s))
		}
	default:
		if !types || !h.typeOnlyEvidence(&v, s, a, b) {
			if e, ok := h.fileFallback(a, b, "dependency"); ok {
				v.add(e)
			} else {
				v.add(h.noPath(s, a, b, "dependency"))
			}
		}
		if reverse { // a pair claim asks the other way itself
			if back := h.unitSearch(b, a); back.found {
				e := h.pathEvidence(back, "depends on")
				e.Type, e.LikelihoodFactor = "reverse_dependency", 0.7
				e.Description = "the dependency runs the other way: " + e.Description
				v.add(e)
			}
		}
		h.containmentOnly(&v, a, b)
	}
	h.coChange(&v, a, b, true)
	return v
}

// viaRels begins direct and chain: the path of rels edges from a to b
// within hops when there is one, else the search for any dependency, with
// containment evidence when a and b overlap. done: v is the verdict.
func (h *hypo) viaRels(a, b graph.NodeID, verb string, rels relSet, hops int) (v verdictPart, s, dep search, done bool) {
	v = verdictPart{odds: 1}
	s = h.relSearch(a, b, rels, hops)
	h.res.PathsExplored += s.expanded
	if s.found {
		v.add(h.pathEvidence(s, verb))
		return v, s, dep, true
	}
	dep = h.unitSearch(a, b)
	if dep.overlap {
		v.add(Evidence{Type: "containment", Description: fmt.Sprintf("%s and %s are the same code or one contains the other", h.name(a), h.name(b)), LikelihoodFactor: 1})
	}
	return v, s, dep, dep.overlap
}

// direct: is there an edge of one of rels from a (or what it contains)
// to b (or what it contains)?
func (h *hypo) direct(a, b graph.NodeID, verb string, rels relSet) verdictPart {
	v, _, dep, done := h.viaRels(a, b, verb, rels, 1)
	if done {
		return v
	}
	switch {
	case dep.found:
		e := h.pathEvidence(dep, "depends on")
		e.Type, e.LikelihoodFactor = "other_dependency", 0.2
		e.Description = fmt.Sprintf("no direct %s edge; %s", verb, e.Description)
		v.add(e)
	default:
		v.add(h.noPath(dep, a, b, "dependency"))
		h.containmentOnly(&v, a, b)
	}
	return v
}

// chain: is there a chain of rels edges from a to b within MaxHops?
func (h *hypo) chain(a, b graph.NodeID, verb string, rels relSet) verdictPart {
	v, s, dep, done := h.viaRels(a, b, verb, rels, h.p.MaxHops)
	if done {
		return v
	}
	switch {
	case dep.found:
		e := h.pathEvidence(dep, "depends on")
		e.Type, e.LikelihoodFactor = "other_dependency", 0.4
		e.Description = fmt.Sprintf("no %s chain within %d hops, though %s", verb, h.p.MaxHops, e.Description)
		v.add(e)
	default:
		if e, ok := h.fileFallback(a, b, verb); ok {
			v.add(e)
			return v
		}
		e := h.noPath(s, a, b, verb)
		if dep.exhausted {
			e.LikelihoodFactor = noPathExhausted
		}
		v.add(e)
		h.containmentOnly(&v, a, b)
	}
	return v
}

// fileFallback: at entity level, when the two entities are not linked,
// their files may be (a imports the module that holds f): weaker
// evidence, which keeps the verdict open rather than false.
func (h *hypo) fileFallback(a, b graph.NodeID, what string) (Evidence, bool) {
	if h.d.fileLevel {
		return Evidence{}, false
	}
	fa, fb := fileUnit(h.g, a), fileUnit(h.g, b)
	if fa == fb || h.g.Type(fa) != graph.File || h.g.Type(fb) != graph.File {
		return Evidence{}, false
	}
	fd, err := h.deps(true)
	if err != nil {
		return Evidence{}, false
	}
	s := h.unitSearchIn(fd, fa, fb)
	if !s.found {
		return Evidence{}, false
	}
	e := h.pathEvidence(s, "depends on")
	e.Type, e.LikelihoodFactor = "file_dependency", 0.4
	e.Description = fmt.Sprintf("no %s chain from %s to %s within %d hops, but their files are linked: %s", what, h.name(a), h.name(b), h.p.MaxHops, e.Description)
	return e, true
}

// pair answers independent, coupled and circular from the two directions.
func (h *hypo) pair(t ClaimType, a, b graph.NodeID) verdictPart {
	if t == ClaimCircular {
		return h.circular(a, b)
	}
	ab, ba := h.dependsOn(a, b, false), h.dependsOn(b, a, false)
	pab, pba := prob(ab.odds), prob(ba.odds)
	out := verdictPart{}
	switch t {
	case ClaimCoupled:
		out.odds = odds(1 - (1-pab)*(1-pba))
		out.ev = append(ab.ev, ba.ev...)
		return out
	}
	out.odds = odds((1 - pab) * (1 - pba))
	out.ev = append(ab.inverted().ev, ba.inverted().ev...)
	return out
}

// circular: do a and b depend on each other (or a on itself, through
// something else) when the code runs? A cycle is an import order
// problem at run time, so type-only imports (DepGraph.TypeOnly: `if
// TYPE_CHECKING:`, `import type`), which never run, close none — as in
// layers. A cycle that only they close is said in a note.
func (h *hypo) circular(a, b graph.NodeID) verdictPart {
	h.runtime = true
	var out verdictPart
	if b == graph.NoNode {
		out = verdictPart{odds: 1}
		if s := h.cycleSearch(a); s.found {
			out.add(h.pathEvidence(s, "depends on"))
		} else {
			out.add(h.noPath(s, a, a, "run-time dependency"))
		}
	} else {
		ab, ba := h.dependsOn(a, b, false), h.dependsOn(b, a, false)
		out.odds = odds(prob(ab.odds) * prob(ba.odds))
		out.ev = append(ab.ev, ba.ev...)
	}
	h.runtime = false
	if out.odds < 1 {
		if e, ok := h.typeOnlyCycle(a, b); ok {
			out.ev = append(out.ev, e)
		}
	}
	return out
}

// typeOnlyCycle is the note for a cycle that exists only when type-only
// imports count: the chain(s) the run-time search did not take.
func (h *hypo) typeOnlyCycle(a, b graph.NodeID) (Evidence, bool) {
	var paths []search
	if b == graph.NoNode {
		paths = []search{h.cycleSearch(a)}
	} else {
		paths = []search{h.unitSearch(a, b), h.unitSearch(b, a)}
	}
	var desc []string
	var nodes []graph.NodeID
	for _, s := range paths {
		if !s.found {
			return Evidence{}, false
		}
		desc = append(desc, h.chainText(s))
		nodes = append(nodes, s.nodes...)
	}
	return Evidence{Type: "type_only_cycle", LikelihoodFactor: 1, Nodes: nodes, Relations: []string{TypeImports},
		Description: "a cycle only through type-only imports (" + TypeImports + ": `if TYPE_CHECKING:`, `import type`), which never run, so none at run time: " + strings.Join(desc, "; ")}, true
}

// chainText writes a found chain with its relations, "a -imports-> b",
// so the type-only hop shows: a link DepGraph.TypeOnly marks is written
// as the type-only import it is, whatever edge stands for it (an
// annotation's call or reference is the type checker's too).
func (h *hypo) chainText(s search) string {
	var b strings.Builder
	b.WriteString(h.name(s.nodes[0]))
	for i, v := range s.nodes[1:] {
		rel := s.rels[i]
		if h.d.TypeOnly(s.nodes[i], v) {
			rel = TypeImports
		}
		fmt.Fprintf(&b, " -%s-> %s", rel, h.name(v))
	}
	return b.String()
}

// isolated: no dependency in or out of a's scope.
func (h *hypo) isolated(a graph.NodeID) verdictPart {
	v := verdictPart{odds: 1}
	units, _, _ := h.d.scopeUnits([]graph.NodeID{a})
	in := setOf(units)
	var links []Evidence
	for _, u := range units {
		for _, t := range h.d.Dependencies(u) {
			if !in[t] {
				links = append(links, h.linkEvidence(u, t, "dependency"))
			}
		}
		for _, s := range h.d.Dependents(u) {
			if !in[s] {
				links = append(links, h.linkEvidence(s, u, "dependent"))
			}
		}
	}
	if len(links) == 0 {
		v.add(Evidence{Type: "no_dependencies", Description: fmt.Sprintf("%s neither depends on anything nor is depended on (dynamic uses — reflection, string dispatch, configuration — are invisible to the graph)", h.name(a)), LikelihoodFactor: 19, Nodes: []graph.NodeID{a}})
		return v
	}
	h.listLinks(&v, links)
	return v
}

// unused: nothing outside a depends on it; tests alone leave it open.
func (h *hypo) unused(a graph.NodeID) verdictPart {
	v := verdictPart{odds: 1}
	units, _, _ := h.d.scopeUnits([]graph.NodeID{a})
	in := setOf(units)
	var prod, tests []Evidence
	for _, u := range units {
		for _, s := range h.d.Dependents(u) {
			if in[s] {
				continue
			}
			if h.isTest(s) {
				tests = append(tests, h.linkEvidence(s, u, "dependent"))
			} else {
				prod = append(prod, h.linkEvidence(s, u, "dependent"))
			}
		}
	}
	switch {
	case len(prod) > 0:
		h.listLinks(&v, prod)
	case len(tests) > 0:
		e := tests[0]
		e.Type, e.LikelihoodFactor = "only_tests", 1
		e.Description = fmt.Sprintf("only tests use it (%d link(s), e.g. %s)", len(tests), e.Description)
		v.add(e)
	default:
		v.add(Evidence{Type: "no_dependents", Description: fmt.Sprintf("nothing depends on %s (dynamic uses — reflection, string dispatch, entry points named in configuration — are invisible to the graph)", h.name(a)), LikelihoodFactor: 9, Nodes: []graph.NodeID{a}})
	}
	return v
}

// listLinks files dependency links as evidence against "no links": the
// first three listed, the first two counted.
func (h *hypo) listLinks(v *verdictPart, links []Evidence) {
	for i, e := range links[:min(len(links), 3)] {
		e.LikelihoodFactor = 1
		if i < 2 {
			e.LikelihoodFactor = []float32{0.1, 0.3}[i]
		}
		if i == 0 && len(links) > 3 {
			e.Description += fmt.Sprintf(" (and %d more links)", len(links)-3)
		}
		v.add(e)
	}
}

// testedBy: does test b exercise a?
func (h *hypo) testedBy(a, b graph.NodeID) verdictPart {
	v := verdictPart{odds: 1}
	if !h.isTest(b) {
		v.add(Evidence{Type: "not_a_test", Description: fmt.Sprintf("%s is not a test (no test tag or test-like path)", h.name(b)), LikelihoodFactor: 0.5, Nodes: []graph.NodeID{b}})
	}
	if s := h.relSearch(b, a, relSet{"tests": true}, 1); s.found {
		v.add(h.pathEvidence(s, "tests"))
		return v
	}
	s := h.unitSearch(b, a)
	switch {
	case s.found:
		e := h.pathEvidence(s, "depends on")
		e.Type = "test_reaches"
		if hops := len(e.Nodes) - 1; hops == 1 {
			e.LikelihoodFactor = 9
		} else {
			e.LikelihoodFactor = min(e.LikelihoodFactor, 3)
		}
		v.add(e)
	case !s.overlap:
		v.add(h.noPath(s, b, a, "dependency"))
	}
	return v
}

// tested: does some test depend on a, within two hops?
func (h *hypo) tested(a graph.NodeID) verdictPart {
	v := verdictPart{odds: 1}
	units, _, _ := h.d.scopeUnits([]graph.NodeID{a})
	in := setOf(units)
	frontier := units
	for depth := 1; depth <= 2 && len(frontier) > 0; depth++ {
		var next []graph.NodeID
		for _, u := range frontier {
			for _, s := range h.d.Dependents(u) {
				if in[s] {
					continue
				}
				in[s] = true
				if h.isTest(s) {
					e := h.linkEvidence(s, u, "test")
					e.LikelihoodFactor = map[int]float32{1: 19, 2: 3}[depth]
					if depth == 2 {
						e.Description += " (through another dependent)"
					}
					v.add(e)
					return v
				}
				next = append(next, s)
			}
		}
		frontier = next
	}
	v.add(Evidence{Type: "no_test", Description: fmt.Sprintf("no test depends on %s, directly or through one other dependent", h.name(a)), LikelihoodFactor: 0.1, Nodes: []graph.NodeID{a}})
	return v
}

// isTest: tagged test, or a test-like file path.
func (h *hypo) isTest(v graph.NodeID) bool {
	if h.g.HasTag(v, "test") {
		return true
	}
	p := strings.ToLower(strings.TrimPrefix(h.g.ExternalID(v), "file::"))
	if i := strings.Index(p, "::"); i >= 0 {
		p = p[:i]
	}
	base := path.Base(p)
	return strings.HasPrefix(base, "test_") || strings.Contains(base, "_test.") || strings.Contains(base, ".test.") ||
		strings.Contains(base, ".spec.") || strings.HasPrefix(p, "tests/") || strings.HasPrefix(p, "test/") ||
		strings.Contains(p, "/tests/") || strings.Contains(p, "/test/")
}

// linkEvidence describes one dependency link u → t.
func (h *hypo) linkEvidence(u, t graph.NodeID, kind string) Evidence {
	e, st, _ := h.d.link(u, t)
	us := usageOf(h.g, e)
	return Evidence{Type: kind, Description: fmt.Sprintf("%s %s %s", h.name(us.Dependent), us.Relation, h.name(us.Dependency)),
		LikelihoodFactor: 1, Nodes: []graph.NodeID{u, t}, Relations: []string{us.Relation}, PathWeight: st}
}

// containmentOnly notes, for two nodes with no dependency, that sharing a
// directory is no dependency.
func (h *hypo) containmentOnly(v *verdictPart, a, b graph.NodeID) {
	da, db := h.dirOf(a), h.dirOf(b)
	if da == "" || da != db {
		return
	}
	v.add(Evidence{Type: "containment_only", Description: fmt.Sprintf("%s and %s only share the directory %s/ — containment, not a dependency", h.name(a), h.name(b), da), LikelihoodFactor: 1, Nodes: []graph.NodeID{a, b}, Relations: []string{"contained_in", "contains"}})
}

func (h *hypo) dirOf(v graph.NodeID) string {
	p := strings.TrimPrefix(h.g.ExternalID(fileUnit(h.g, v)), "file::")
	if i := strings.Index(p, "::"); i >= 0 {
		p = p[:i]
	}
	if d := path.Dir(p); d != "." && d != "/" {
		return d
	}
	return ""
}

// coChange adds history's co-change of the two files as weak evidence.
func (h *hypo) coChange(v *verdictPart, a, b graph.NodeID, supports bool) {
	if !h.p.IncludeGhostEdges || h.p.CoChange == nil {
		return
	}
	fa, fb := fileUnit(h.g, a), fileUnit(h.g, b)
	if fa == fb {
		return
	}
	s := graph.Finite(h.p.CoChange(fa, fb))
	if s < 0.05 {
		return
	}
	s = min(s, 1)
	f := 1 + s
	if !supports {
		f = 1 / f
	}
	v.add(Evidence{Type: "co_change", Description: fmt.Sprintf("%s and %s change together in the history (co-change %.2f): coupled in fact, weak evidence of a dependency", h.name(fa), h.name(fb), s), LikelihoodFactor: f, Nodes: []graph.NodeID{fa, fb}, Relations: []string{"co_changes"}, PathWeight: s})
}

// fileUnit is the file holding v (v itself when none does).
func fileUnit(g *graph.Graph, v graph.NodeID) graph.NodeID {
	u := v
	for depth := 0; depth < 32 && g.Type(u) != graph.File; depth++ {
		parent := graph.NoNode
		lo, hi := g.InRange(u)
		for pos := lo; pos < hi; pos++ {
			if e := g.InEdge(pos); !g.IsMirror(e) && ClassifyRelation(g.RelationName(e)) == Contains {
				parent = g.InSource(pos)
				break
			}
		}
		if parent == graph.NoNode || isContainer(g, parent) {
			return v
		}
		u = parent
	}
	if g.Type(u) == graph.File {
		return u
	}
	return v
}

func setOf(l []graph.NodeID) map[graph.NodeID]bool {
	m := make(map[graph.NodeID]bool, len(l))
	for _, v := range l {
		m[v] = true
	}
	return m
}

// pathEvidence turns a found search into supporting evidence.
func (h *hypo) pathEvidence(s search, verb string) Evidence {
	hops := len(s.nodes) - 1
	e := Evidence{Type: "path_found", Nodes: s.nodes, Relations: s.rels, PathWeight: graph.Finite(s.weight)}
	e.LikelihoodFactor = PathFactor(hops, s.weight)
	var via []string
	for _, v := range s.nodes[1 : len(s.nodes)-1] {
		via = append(via, h.name(v))
	}
	first, last := h.name(s.nodes[0]), h.name(s.nodes[len(s.nodes)-1])
	if hops == 1 {
		e.Type = "direct_edge"
		e.Description = fmt.Sprintf("%s %s %s directly (%s)", first, verb, last, strings.Join(s.rels, ", "))
	} else {
		e.Description = fmt.Sprintf("%s %s %s through %d hops, via %s", first, verb, last, hops, strings.Join(via, " → "))
	}
	if s.count > 1 {
		more := fmt.Sprintf("%d", s.count-1)
		if s.count >= h.p.PathBudget {
			more = fmt.Sprintf("at least %d", s.count-1)
		}
		e.Description += fmt.Sprintf(" (%s other path(s) of that length)", more)
	}
	return e
}

// noPath is the evidence of a search that found nothing.
func (h *hypo) noPath(s search, a, b graph.NodeID, what string) Evidence {
	e := Evidence{Type: "no_path", Nodes: []graph.NodeID{a, b}}
	if s.exhausted {
		e.LikelihoodFactor = noPathExhausted
		e.Description = fmt.Sprintf("no %s chain from %s to %s at all (%d nodes reachable from it, none is the target)", what, h.name(a), h.name(b), s.reached)
	} else {
		e.LikelihoodFactor = noPathWithin
		e.Description = fmt.Sprintf("no %s chain from %s to %s within %d hops (%d nodes reached; a longer chain may exist)", what, h.name(a), h.name(b), h.p.MaxHops, s.reached)
	}
	if h.p.IncludePartialFlow {
		h.res.PartialFlow = append(h.res.PartialFlow, PartialFlow{From: a, To: b, Reached: s.reached, HopsExplored: s.hops, Exhausted: s.exhausted})
	}
	return e
}

// typeOnlyEvidence files what links a to b for the type checker alone,
// when no run-time chain does. A claim about run time ("at runtime") is
// answered by run time: no chain, the type-only link a note. Otherwise a
// direct type-only import is a type dependency; a chain through one
// leaves the verdict open — the type checker follows it, the program
// does not, and only the claim's author knows which is asked (naming a
// type takes in no more than its own module, so the run-time answer is no).
func (h *hypo) typeOnlyEvidence(v *verdictPart, s search, a, b graph.NodeID) bool {
	e, ok := h.typeDependency(a, b)
	if !ok {
		e, ok = h.typeOnlyChain(a, b)
	}
	switch {
	case !ok:
		return false
	case atRunTime(h.res.Claim.Text):
		e.LikelihoodFactor = 1
		v.add(h.noPath(s, a, b, "run-time dependency"))
	}
	v.add(e)
	return true
}

// atRunTime: the claim asks about run time ("at runtime", "at run time").
func atRunTime(text string) bool {
	t := strings.ToLower(text)
	return strings.Contains(t, "at runtime") || strings.Contains(t, "at run time") || strings.Contains(t, "at run-time")
}

// typeDependency: a (or what it holds) imports b (or what it holds) for
// the type checker only — the first such link, with the symbols it names.
func (h *hypo) typeDependency(a, b graph.NodeID) (Evidence, bool) {
	if h.d.typeOnly == nil {
		return Evidence{}, false
	}
	from, _, _ := h.d.scopeUnits([]graph.NodeID{a})
	to, _, _ := h.d.scopeUnits([]graph.NodeID{b})
	goal := setOf(to)
	for _, u := range from {
		for _, t := range h.d.Dependencies(u) {
			if !goal[t] || !h.d.TypeOnly(u, t) {
				continue
			}
			e := h.linkEvidence(u, t, "type_dependency")
			e.LikelihoodFactor, e.Relations = typeDependencyFactor, []string{TypeImports}
			e.Description = fmt.Sprintf("%s -%s-> %s%s: a type dependency only — the import is type-only (`if TYPE_CHECKING:`, `import type`) and never runs, so %s does not load %s at run time",
				h.name(u), TypeImports, h.name(t), h.namesText(u, t), h.name(u), h.name(t))
			return e, true
		}
	}
	return Evidence{}, false
}

// typeOnlyChain is the note for a chain that exists only through a
// type-only import: it names the symbols that import names, which is all
// the importer takes from that module.
func (h *hypo) typeOnlyChain(a, b graph.NodeID) (Evidence, bool) {
	if h.d.typeOnly == nil {
		return Evidence{}, false // no type-only link, so the run-time search was all
	}
	h.runtime = false
	s := h.unitSearch(a, b)
	h.runtime = true
	if !s.found {
		return Evidence{}, false
	}
	var names string
	for i, v := range s.nodes[1:] {
		if u := s.nodes[i]; h.d.TypeOnly(u, v) {
			names = fmt.Sprintf("; %s imports %s for types only%s", h.name(u), h.name(v), h.namesText(u, v))
			break
		}
	}
	return Evidence{Type: "type_only_chain", LikelihoodFactor: 1, Nodes: s.nodes, Relations: s.rels, PathWeight: graph.Finite(s.weight),
		Description: "no run-time chain; one only through a type-only import, which never runs: " + h.chainText(s) + names +
			" — naming a type does not take in what its module imports itself, so at run time it is no dependency"}, true
}

// namesText lists, " (names X, Y)", the symbols of unit t that unit u's
// type-only imports name; "" when they name the module itself.
func (h *hypo) namesText(u, t graph.NodeID) string {
	const listed = 5
	var names []string
	for v, uv := range h.d.unit {
		if uv != u {
			continue
		}
		lo, hi := h.g.OutRange(graph.NodeID(v))
		for e := lo; e < hi; e++ {
			x := h.g.Target(e)
			if h.g.IsMirror(e) || x == t || h.d.unit[x] != t || !IsTypeOnly(h.g.RelationName(e)) {
				continue
			}
			names = append(names, h.g.Label(x))
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	if len(names) == 0 {
		return ""
	}
	more := ""
	if len(names) > listed {
		more = fmt.Sprintf(" and %d more", len(names)-listed)
		names = names[:listed]
	}
	return " (names " + strings.Join(names, ", ") + more + ")"
}
