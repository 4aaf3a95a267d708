// Package analysis holds the graph analyses that explain an activation or
// a node: structural holes (the missing tool), ghost edges, impact (blast
// radius) and why (paths between two nodes).
//
// Inputs are plain graph.Scored activations (and, for ghost edges,
// per-dimension scores), so this package does not depend on the activation
// engine. Every analysis is deterministic (ties by NodeID) and budgeted.
package analysis

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// HoleParams configures StructuralHoles.
type HoleParams struct {
	// MinSiblingActivation: neighbours count as activated above it (the
	// missing tool's min_sibling_activation, default 0.3). [0, 1).
	MinSiblingActivation float32
	// InactiveBelow: a node is inactive at or below it (0.01). [0, 1).
	InactiveBelow float32
	// MinNeighbors is the number of activated neighbours that make a hole
	// (2). ≥ 1.
	MinNeighbors int
	// TopK bounds the holes returned (10); Total still counts them all.
	TopK int
	// EdgeBudget caps the adjacency entries scanned.
	EdgeBudget int
	// MaxListedNeighbors bounds Hole.Neighbors (8).
	MaxListedNeighbors int
	// Topic is the query's text relevance per node (a lexical search's
	// scores; an entity's counts for its file); nil when unknown. With it
	// a bridge must be about the topic by its words too: a module of the
	// topic shares the topic's vocabulary, a neighbour of its modules
	// does not.
	Topic map[graph.NodeID]float32
	// MinTopic is the text relevance a bridge needs, relative to the most
	// relevant production unit (0.5). [0, 1].
	MinTopic float32
	// MaxTopicRank: a bridge must be among this many production files by
	// text relevance (5) — what a search for the topic shows first. ≥ 1.
	MaxTopicRank int
}

// DefaultHoleParams returns the defaults of docs/design.md#analyses.
func DefaultHoleParams() HoleParams {
	return HoleParams{MinSiblingActivation: 0.3, InactiveBelow: 0.01, MinNeighbors: 2, TopK: 10, EdgeBudget: 4_000_000, MaxListedNeighbors: 8, MinTopic: 0.5, MaxTopicRank: 5}
}

func (p HoleParams) validate() error {
	if !graph.IsFinite(p.MinSiblingActivation) || p.MinSiblingActivation < 0 || p.MinSiblingActivation >= 1 {
		return fmt.Errorf("min_sibling_activation must be in [0, 1), got %v", p.MinSiblingActivation)
	}
	if !graph.IsFinite(p.InactiveBelow) || p.InactiveBelow < 0 || p.InactiveBelow >= 1 {
		return fmt.Errorf("inactive_below must be in [0, 1), got %v", p.InactiveBelow)
	}
	if !graph.IsFinite(p.MinTopic) || p.MinTopic < 0 || p.MinTopic > 1 {
		return fmt.Errorf("min_topic must be in [0, 1], got %v", p.MinTopic)
	}
	if p.MinNeighbors < 1 || p.TopK < 1 || p.EdgeBudget < 1 || p.MaxListedNeighbors < 0 || p.MaxTopicRank < 1 {
		return errors.New("min_neighbors, top_k, edge_budget and max_topic_rank must be ≥ 1, max_listed_neighbors ≥ 0")
	}
	return nil
}

// HoleKind says what a structural hole lacks.
type HoleKind string

const (
	// HoleBridge: a module every activated module around it depends on,
	// or that depends on them, yet the query did not reach — it sits in
	// the middle of the topic (most of its dependency neighbours are
	// activated) and is missing from the answer. A neighbourhood rule,
	// applied to files and restricted to dependency edges so a hub with a
	// few activated neighbours among many is not one.
	HoleBridge HoleKind = "inactive_bridge"
	// HoleUntested: an activated module without tests while most of its
	// activated siblings (same directory) have them.
	HoleUntested HoleKind = "untested"
	// HoleMissingDependency: an activated module that does not use what
	// most of its activated siblings use (the route without the
	// validation its peers call).
	HoleMissingDependency HoleKind = "missing_dependency"
)

// Hole is a gap in the activated part of the graph.
type Hole struct {
	Node graph.NodeID `json:"node"`
	Kind HoleKind     `json:"kind"`
	// ActivatedNeighbors counts the evidence: the activated dependency
	// neighbours (bridge), the tested siblings (untested), the siblings
	// using Missing (missing dependency).
	ActivatedNeighbors int `json:"activated_neighbors"`
	// SiblingAvgActivation is the mean activation of that evidence.
	SiblingAvgActivation float32 `json:"sibling_avg_activation"`
	// Score ranks holes: SiblingAvgActivation × how much of the
	// neighbourhood agrees (the activated share of a bridge's neighbours,
	// the tested share of the siblings, the share using Missing).
	Score float32 `json:"score"`
	// Neighbors are the evidence nodes, strongest first (at most
	// MaxListedNeighbors).
	Neighbors []graph.NodeID `json:"neighbors"`
	// Missing is, for a missing dependency, the node the siblings use.
	Missing graph.NodeID `json:"missing,omitempty"`
	Reason  string       `json:"reason"`
}

// HolesResult is the ranked holes.
type HolesResult struct {
	Holes []Hole `json:"holes"`
	// Total is the number of holes found before TopK.
	Total int `json:"total_holes"`
	// Truncated is true when EdgeBudget stopped the scan.
	Truncated bool `json:"truncated,omitempty"`
}

func checkGraph(g *graph.Graph) error {
	if g == nil {
		return errors.New("analysis: nil graph")
	}
	if !g.Finalized() {
		return graph.ErrNotFinalized
	}
	return nil
}

// activationMap turns a result list into node → activation (largest
// finite score wins, clamped to [0, 1]).
func activationMap(g *graph.Graph, act []graph.Scored) (map[graph.NodeID]float32, error) {
	m := make(map[graph.NodeID]float32, len(act))
	for _, s := range act {
		if !g.Valid(s.Node) {
			return nil, fmt.Errorf("analysis: node %d out of range (graph has %d nodes)", s.Node, g.NumNodes())
		}
		v := finite.Clamp(s.Score, 0, 1)
		if v > m[s.Node] {
			m[s.Node] = v
		}
	}
	return m, nil
}

// StructuralHoles finds the gaps in an activation (the missing tool), on
// files — an entity's activation counts for its file — or on nodes no file
// holds. Its phases:
//
//  1. units: fold the activation onto units and scale it so the
//     strongest unit is 1; units above MinSiblingActivation are the
//     context;
//  2. neighbourhoods: per unit, the units it depends on and those that
//     depend on it, through dependency edges only (containment, packages
//     and co-change are not neighbourhood);
//  3. bridges: an inactive, non-test unit with at least MinNeighbors
//     activated dependency neighbours that make up at least half of its
//     non-test neighbours;
//  4. siblings: context units grouped by directory; an untested one among
//     mostly tested siblings, and one that does not use a unit most of
//     its siblings use;
//  5. rank by Score (then kind, then NodeID), cut to TopK.
//
// A hub that a few activated modules import is not a hole: most of its
// neighbours are dark. Neither is a class whose methods were activated.
func StructuralHoles(g *graph.Graph, activation []graph.Scored, p HoleParams) (HolesResult, error) {
	var res HolesResult
	if err := checkGraph(g); err != nil {
		return res, err
	}
	if err := p.validate(); err != nil {
		return res, err
	}
	h := &holeRun{g: g, p: p, rels: newRelTable(g), res: &res, act: map[graph.NodeID]float32{}, nbr: map[graph.NodeID]*neighbourhood{}, tests: map[graph.NodeID]bool{}, behaves: map[graph.NodeID]bool{}, hubs: map[graph.NodeID]bool{}, production: -1}
	h.u = newUnits(g, h.rels)
	if err := h.units(activation); err != nil {
		return res, err
	}
	if err := h.topicUnits(p.Topic); err != nil {
		return res, err
	}
	var holes []Hole
	holes = append(holes, h.bridges()...)
	holes = append(holes, h.siblings()...)
	slices.SortFunc(holes, func(a, b Hole) int {
		switch {
		case a.Score != b.Score:
			if a.Score > b.Score {
				return -1
			}
			return 1
		case a.Kind != b.Kind:
			return strings.Compare(string(a.Kind), string(b.Kind))
		}
		return int(a.Node) - int(b.Node)
	})
	res.Total = len(holes)
	res.Holes = holes[:min(len(holes), p.TopK)]
	return res, nil
}

// holeRun is one StructuralHoles call.
type holeRun struct {
	g     *graph.Graph
	p     HoleParams
	rels  *relTable
	u     *units
	res   *HolesResult
	act   map[graph.NodeID]float32 // unit → activation (max of its nodes)
	topic map[graph.NodeID]float32 // unit → text relevance / the top unit's; nil: unknown
	// topicRank is a production file's place by text relevance (1: best).
	topicRank map[graph.NodeID]int
	context   []graph.NodeID // units above MinSiblingActivation, by NodeID
	nbr       map[graph.NodeID]*neighbourhood
	tests     map[graph.NodeID]bool
	behaves   map[graph.NodeID]bool // unit → has a function (see candidate)
	hubs      map[graph.NodeID]bool // unit → hub (see hub)
	// production counts the production files (-1 until counted).
	production int
	scanned    int
}

// neighbourhood is a unit's dependency neighbours: the units it uses,
// those that use it, and both together (each sorted, without repeats).
type neighbourhood struct {
	uses, usedBy, all []graph.NodeID
}

// units folds the activation onto units and collects the context.
func (h *holeRun) units(activation []graph.Scored) error {
	for _, a := range activation {
		if !h.g.Valid(a.Node) {
			return fmt.Errorf("analysis: node %d out of range (graph has %d nodes)", a.Node, h.g.NumNodes())
		}
		if isContainer(h.g, a.Node) {
			continue
		}
		u := h.u.of(a.Node)
		h.act[u] = max(h.act[u], finite.Clamp(a.Score, 0, 1))
	}
	// Relative to the strongest unit: how high activations run depends on
	// the query and the engine's normalisation, the shape does not.
	top := float32(0)
	for _, a := range h.act {
		top = max(top, a)
	}
	for u, a := range h.act {
		if top > 0 {
			a /= top
			h.act[u] = a
		}
		if a > h.p.MinSiblingActivation {
			h.context = append(h.context, u)
		}
	}
	slices.Sort(h.context)
	return nil
}

// neighbours returns u's dependency neighbourhood (memoised); nil once the
// edge budget is spent.
func (h *holeRun) neighbours(u graph.NodeID) *neighbourhood {
	if n, ok := h.nbr[u]; ok {
		return n
	}
	g := h.g
	n := &neighbourhood{}
	scope := []graph.NodeID{u}
	add := func(v graph.NodeID, uses bool) {
		if v = h.u.of(v); v == u || isContainer(g, v) {
			return
		}
		if uses {
			n.uses = append(n.uses, v)
		} else {
			n.usedBy = append(n.usedBy, v)
		}
	}
	for i := 0; i < len(scope); i++ {
		x := scope[i]
		lo, hi := g.OutRange(x)
		ilo, ihi := g.InRange(x)
		if h.scanned += int(hi-lo) + int(ihi-ilo); h.scanned > h.p.EdgeBudget {
			h.res.Truncated = true
			return nil
		}
		for e := lo; e < hi; e++ {
			if g.IsMirror(e) {
				continue
			}
			switch h.rels.of(e).kind {
			case Contains:
				if v := g.Target(e); i < 4096 && h.u.of(v) == u {
					scope = append(scope, v)
				}
			case DependsOn:
				add(g.Target(e), true)
			case DependedOnBy:
				add(g.Target(e), false)
			}
		}
		for pos := ilo; pos < ihi; pos++ {
			e := g.InEdge(pos)
			if g.IsMirror(e) {
				continue
			}
			switch h.rels.of(e).kind {
			case DependsOn:
				add(g.InSource(pos), false)
			case DependedOnBy:
				add(g.InSource(pos), true)
			}
		}
	}
	slices.Sort(n.uses)
	n.uses = slices.Compact(n.uses)
	slices.Sort(n.usedBy)
	n.usedBy = slices.Compact(n.usedBy)
	n.all = slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(n.uses), n.usedBy...))))
	h.nbr[u] = n
	return n
}

// bridges: inactive units whose dependency neighbourhood is mostly lit.
// Neighbourhoods are symmetric, so the lit neighbours of every candidate
// come from the context's neighbourhoods alone; only candidates with
// enough of them need their own (for the share).
func (h *holeRun) bridges() []Hole {
	lit := map[graph.NodeID][]graph.NodeID{}
	for _, u := range h.context {
		if h.isTest(u) || h.consumer(u) {
			continue // an example lit by the query says nothing of the product
		}
		n := h.neighbours(u)
		if n == nil {
			break
		}
		for _, v := range n.all {
			lit[v] = append(lit[v], u)
		}
	}
	var out []Hole
	for _, v := range sortedKeys(lit) {
		us := lit[v]
		if len(us) < h.p.MinNeighbors || h.act[v] > h.p.InactiveBelow || !h.candidate(v) {
			continue
		}
		if !h.aboutTopic(v) || reexportFiles[path.Base(h.g.SourcePath(v))] {
			continue // a package's re-export file imports all of it
		}
		if !h.spans(v, h.topical(us)) {
			continue
		}
		n := h.neighbours(v)
		if n == nil {
			break
		}
		total := 0
		for _, w := range n.all {
			if !h.isTest(w) {
				total++
			}
		}
		if 2*len(us) < total {
			continue
		}
		ev := make([]graph.Scored, len(us))
		for i, u := range us {
			ev[i] = graph.Scored{Node: u, Score: h.act[u]}
		}
		graph.SortScored(ev)
		avg := meanScore(ev)
		reason := fmt.Sprintf("%d activated neighbors (avg=%.2f) but node inactive", len(us), avg)
		if len(us) < total {
			reason = fmt.Sprintf("%d of its %d dependency neighbors activated (avg=%.2f) but node inactive", len(us), total, avg)
		}
		if !h.covered(v) {
			reason += "; it has no tests"
		}
		out = append(out, h.hole(v, HoleBridge, ev, avg*float32(len(us))/float32(max(total, 1)), reason))
	}
	return out
}

// siblings groups the context by directory and finds the untested module
// and the module that skips what its siblings use.
func (h *holeRun) siblings() []Hole {
	groups := map[string][]graph.NodeID{}
	for _, u := range h.context {
		if !h.isTest(u) && !h.consumer(u) {
			d := path.Dir(h.g.SourcePath(u))
			groups[d] = append(groups[d], u)
		}
	}
	var out []Hole
	for _, d := range sortedKeys(groups) {
		members := groups[d]
		if len(members) < 3 {
			continue
		}
		out = append(out, h.untested(members)...)
		out = append(out, h.missingDependencies(members)...)
	}
	return out
}

func (h *holeRun) untested(members []graph.NodeID) []Hole {
	var tested []graph.Scored
	var bare []graph.NodeID
	for _, u := range members {
		if h.tested(u) {
			tested = append(tested, graph.Scored{Node: u, Score: h.act[u]})
		} else if h.candidate(u) && !h.covered(u) {
			bare = append(bare, u)
		}
	}
	if len(tested) < 2 || 2*len(tested) < len(members) {
		return nil
	}
	graph.SortScored(tested)
	var out []Hole
	avg := meanScore(tested)
	for _, u := range bare {
		reason := fmt.Sprintf("no tests, while %d of its %d activated sibling modules have them", len(tested), len(members)-1)
		out = append(out, h.hole(u, HoleUntested, tested, h.relevance(u, avg)*float32(len(tested))/float32(len(members)-1), reason))
	}
	return out
}

// missingDependencies: a unit every sibling but one uses (at least
// three), which that one does not, though it has code and the unit does
// not already depend on it.
func (h *holeRun) missingDependencies(members []graph.NodeID) []Hole {
	users := map[graph.NodeID][]graph.NodeID{}
	for _, u := range members {
		n := h.neighbours(u)
		if n == nil {
			return nil
		}
		for _, t := range n.uses {
			users[t] = append(users[t], u)
		}
	}
	var out []Hole
	for _, t := range sortedKeys(users) {
		us := users[t]
		if len(us) < 3 || len(us) != len(members)-1 || !h.relevantText(t) {
			continue // what is skipped must be of the topic: the validator for "input validation"
		}
		var ev []graph.Scored
		for _, u := range us {
			ev = append(ev, graph.Scored{Node: u, Score: h.act[u]})
		}
		graph.SortScored(ev)
		avg := meanScore(ev)
		for _, m := range members {
			if m == t || slices.Contains(us, m) || !h.candidate(m) || h.layered(m, t) || h.below(m, us) || !h.alike(m, t, users, len(members)) {
				continue
			}
			reason := fmt.Sprintf("does not use %s, which %d of its %d activated sibling modules use", h.g.Label(t), len(us), len(members)-1)
			hole := h.hole(m, HoleMissingDependency, ev, h.relevance(m, avg)*float32(len(us))/float32(len(members)-1), reason)
			hole.Missing = t
			out = append(out, hole)
		}
	}
	return out
}

// relevance of a sibling hole: the geometric mean of the module's own
// activation and its evidence's — a gap in a module the query barely
// reached matters less than one at its centre.
func (h *holeRun) relevance(u graph.NodeID, evidence float32) float32 {
	return float32(math.Sqrt(float64(h.act[u]) * float64(evidence)))
}

// hole assembles a Hole; evidence must be sorted strongest first
// (graph.SortScored), and is shared, not kept.
func (h *holeRun) hole(v graph.NodeID, kind HoleKind, evidence []graph.Scored, score float32, reason string) Hole {
	out := Hole{Node: v, Kind: kind, ActivatedNeighbors: len(evidence), SiblingAvgActivation: meanScore(evidence), Score: graph.Finite(score), Reason: reason}
	for _, s := range evidence[:min(len(evidence), h.p.MaxListedNeighbors)] {
		out.Neighbors = append(out.Neighbors, s.Node)
	}
	return out
}

// tested reports whether a test unit depends on u.
func (h *holeRun) tested(u graph.NodeID) bool {
	n := h.neighbours(u)
	if n == nil {
		return false
	}
	for _, v := range n.usedBy {
		if h.isTest(v) {
			return true
		}
	}
	return false
}

// isTest reports whether a unit is test code: it has a tests edge, a test
// tag, or a test file's name or directory.
func (h *holeRun) isTest(u graph.NodeID) bool {
	if t, ok := h.tests[u]; ok {
		return t
	}
	t := h.testUnit(u)
	h.tests[u] = t
	return t
}

func (h *holeRun) testUnit(u graph.NodeID) bool {
	g := h.g
	if g.HasTag(u, "test") {
		return true
	}
	lo, hi := g.OutRange(u)
	for e := lo; e < hi; e++ {
		if !g.IsMirror(e) && strings.EqualFold(g.RelationName(e), "tests") {
			return true
		}
	}
	p := g.SourcePath(u)
	if p == "" {
		p = g.Label(u)
	}
	return IsTestPath(p)
}

// IsTestPath reports whether a path names test code by the usual
// conventions: test_x.py, x_test.py, x_test.go, XTest.java, x.test.ts,
// x.spec.js, or a tests/, test/, __tests__/, spec/, x_tests/ directory.
func IsTestPath(p string) bool {
	base := path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	switch path.Ext(base) {
	case ".java", ".kt", ".scala", ".cs":
		if strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests") || strings.HasSuffix(stem, "IT") {
			return true
		}
	}
	for seg := range strings.SplitSeq(strings.ToLower(path.Dir(p)), "/") {
		switch seg {
		case "test", "tests", "__tests__", "spec", "specs", "testing", "testdata":
			return true
		}
		// typing_tests/ (attrs), _tests/ (trio), integration-tests/
		if strings.HasSuffix(seg, "_tests") || strings.HasSuffix(seg, "-tests") {
			return true
		}
	}
	low := strings.ToLower(base)
	return strings.HasPrefix(low, "test_") || strings.HasSuffix(strings.ToLower(stem), "_test") ||
		strings.Contains(low, ".test.") || strings.Contains(low, ".spec.") || low == "conftest.py"
}

func meanScore(list []graph.Scored) float32 {
	if len(list) == 0 {
		return 0
	}
	sum := 0.0
	for _, s := range list {
		sum += float64(s.Score)
	}
	return graph.Finite(float32(sum / float64(len(list))))
}

func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
