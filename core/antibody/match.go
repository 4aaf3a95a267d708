package antibody

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Match is one place a pattern fits: the graph node bound to each pattern
// node (in the pattern's order; graph.NoNode for an absent node) and how
// closely the labels fit.
type Match struct {
	Nodes []graph.NodeID
	// Confidence is the mean label fit over the bound nodes: 1 for an
	// exact label, 0.5 plus half the matched share of the label for a
	// substring or a regular expression, 0.5 for a node without a label.
	Confidence float64
}

// Options bound a search.
type Options struct {
	// Mode is the match mode of pattern nodes without their own.
	Mode MatchMode
	// MaxMatches stops the search after this many matches (≤ 0: 20).
	MaxMatches int
	// Deadline stops the search (zero: none).
	Deadline time.Time
}

// Result is a search's matches and whether it stopped early.
type Result struct {
	Matches []Match
	// TimedOut: the deadline passed; Truncated: MaxMatches was reached.
	TimedOut, Truncated bool
}

type nodeTest struct {
	mode  MatchMode
	label string
	re    *regexp.Regexp
	typ   string
}

// fit is how well a node's label fits (0: not at all).
func (t *nodeTest) fit(g *graph.Graph, id graph.NodeID) float64 {
	if t.typ != "" && strings.ToLower(g.Type(id).String()) != t.typ {
		return 0
	}
	if t.label == "" {
		return 0.5
	}
	l := g.Label(id)
	switch t.mode {
	case Exact:
		if l == t.label {
			return 1
		}
	case Substring:
		if strings.Contains(l, t.label) {
			return 0.5 + 0.5*float64(len(t.label))/float64(len(l))
		}
	case Regex:
		if loc := t.re.FindStringIndex(l); loc != nil {
			return 0.5 + 0.5*float64(loc[1]-loc[0])/float64(max(len(l), 1))
		}
	}
	return 0
}

// step grows a partial match by one pattern node: from the node bound at
// anchor, along out (or in) edges of relation.
type step struct {
	node, anchor int
	out          bool
	relation     string
}

type search struct {
	g        *graph.Graph
	p        Pattern
	tests    []nodeTest
	order    []step
	idx      map[string]int
	opt      Options
	bound    []graph.NodeID
	fits     []float64
	seen     map[string]bool
	res      Result
	ticks    int
	stopping bool
	absent   []bool
	// checks[k] are the required edges closed when order[k] is bound.
	checks [][]PatternEdge
}

// Find matches p against g: every injective binding of the pattern's
// nodes to graph nodes that fit their tests, with every required edge
// present and every negative edge absent. The search starts from the most
// selective node and grows along required edges; it stops at the
// deadline or after MaxMatches. Matches that bind the same set of nodes
// (a symmetric pattern) are reported once. p must be valid.
func Find(g *graph.Graph, p Pattern, opt Options) Result {
	if opt.MaxMatches <= 0 {
		opt.MaxMatches = 20
	}
	if opt.Mode == "" {
		opt.Mode = Substring
	}
	s := &search{g: g, p: p, opt: opt, idx: map[string]int{}, seen: map[string]bool{}}
	for i, n := range p.Nodes {
		s.idx[n.ID] = i
		t := nodeTest{mode: cmpMode(n.Mode, opt.Mode), label: n.Label, typ: strings.ToLower(n.Type)}
		if t.mode == Regex && t.label != "" {
			t.re = regexp.MustCompile(t.label)
		}
		s.tests = append(s.tests, t)
	}
	s.plan()
	s.bound = make([]graph.NodeID, len(p.Nodes))
	s.fits = make([]float64, len(p.Nodes))
	root := s.order[0].node
	for _, id := range s.rootCandidates(root) {
		if s.stop() {
			break
		}
		s.bound[root], s.fits[root] = id, s.tests[root].fit(g, id)
		s.extend(1)
	}
	return s.res
}

// plan picks the root among the matched nodes (an exact label, else the
// longest label, else a type) and orders the others so each hangs on an
// earlier one; the rest are absent nodes.
func (s *search) plan() {
	in := s.p.matched(s.idx)
	best, bestScore := 0, -1.0
	for i, t := range s.tests {
		if !in[i] {
			continue // an absent node
		}
		sc := float64(len(t.label))
		if t.mode == Exact && t.label != "" {
			sc += 1000
		}
		if t.typ != "" {
			sc += 0.5
		}
		if sc > bestScore {
			best, bestScore = i, sc
		}
	}
	s.order = []step{{node: best, anchor: -1}}
	placed := map[int]bool{best: true}
	for len(s.order) < len(s.p.Nodes) {
		grown := false
		for _, e := range s.p.Edges {
			a, b := s.idx[e.From], s.idx[e.To]
			switch {
			case placed[a] && !placed[b]:
				s.order = append(s.order, step{node: b, anchor: a, out: true, relation: e.Relation})
				placed[b], grown = true, true
			case placed[b] && !placed[a]:
				s.order = append(s.order, step{node: a, anchor: b, out: false, relation: e.Relation})
				placed[a], grown = true, true
			}
		}
		if !grown {
			break // the rest are absent nodes
		}
	}
	s.absent = make([]bool, len(s.p.Nodes))
	for i := range s.absent {
		s.absent[i] = !placed[i]
	}
	pos := map[int]int{}
	for k, st := range s.order {
		pos[st.node] = k
	}
	s.checks = make([][]PatternEdge, len(s.order))
	for _, e := range s.p.Edges {
		k := max(pos[s.idx[e.From]], pos[s.idx[e.To]])
		s.checks[k] = append(s.checks[k], e)
	}
}

func (s *search) rootCandidates(root int) []graph.NodeID {
	t := &s.tests[root]
	if t.mode == Exact && t.label != "" {
		return s.g.NodesByLabel(t.label)
	}
	var out []graph.NodeID
	for id := graph.NodeID(0); int(id) < s.g.NumNodes(); id++ {
		if id%256 == 0 && s.stop() {
			break
		}
		if t.fit(s.g, id) > 0 {
			out = append(out, id)
		}
	}
	return out
}

// stop checks the deadline now and then (a clock read is not free).
func (s *search) stop() bool {
	if s.stopping {
		return true
	}
	s.ticks++
	if !s.opt.Deadline.IsZero() && (s.ticks == 1 || s.ticks%16 == 0) && time.Now().After(s.opt.Deadline) {
		s.res.TimedOut, s.stopping = true, true
	}
	return s.stopping
}

func (s *search) extend(k int) {
	if k == len(s.order) {
		s.accept()
		return
	}
	st := s.order[k]
	try := func(id graph.NodeID) {
		if s.stopping || s.used(id, k) {
			return
		}
		f := s.tests[st.node].fit(s.g, id)
		if f == 0 {
			return
		}
		s.bound[st.node], s.fits[st.node] = id, f
		if s.edgesHold(k) {
			s.extend(k + 1)
		}
	}
	from := s.bound[st.anchor]
	if st.out {
		lo, hi := s.g.OutRange(from)
		for e := lo; e < hi && !s.stop(); e++ {
			if st.relation == "" || s.g.RelationName(e) == st.relation {
				try(s.g.Target(e))
			}
		}
		return
	}
	lo, hi := s.g.InRange(from)
	for pos := lo; pos < hi && !s.stop(); pos++ {
		if st.relation == "" || s.g.RelationName(s.g.InEdge(pos)) == st.relation {
			try(s.g.InSource(pos))
		}
	}
}

// used reports whether id is already bound among the first k steps.
func (s *search) used(id graph.NodeID, k int) bool {
	for _, st := range s.order[:k] {
		if s.bound[st.node] == id {
			return true
		}
	}
	return false
}

// edgesHold checks the required edges that binding order[k] closes (the
// anchor edge holds by construction; others may close cycles).
func (s *search) edgesHold(k int) bool {
	for _, e := range s.checks[k] {
		if !s.hasEdge(s.bound[s.idx[e.From]], s.bound[s.idx[e.To]], e.Relation) {
			return false
		}
	}
	return true
}

func (s *search) hasEdge(from, to graph.NodeID, relation string) bool {
	if relation != "" {
		_, ok := s.g.FindEdgeByName(from, to, relation)
		return ok
	}
	return len(s.g.EdgesBetween(from, to)) > 0
}

// anyOut reports whether from has an out edge of relation to a node that
// passes t (an absent node's test: the edge must reach none of them).
func (s *search) anyOut(from graph.NodeID, relation string, t *nodeTest) bool {
	lo, hi := s.g.OutRange(from)
	for e := lo; e < hi; e++ {
		if (relation == "" || s.g.RelationName(e) == relation) && t.fit(s.g, s.g.Target(e)) > 0 {
			return true
		}
	}
	return false
}

// anyIn is anyOut for in edges.
func (s *search) anyIn(to graph.NodeID, relation string, t *nodeTest) bool {
	lo, hi := s.g.InRange(to)
	for pos := lo; pos < hi; pos++ {
		if (relation == "" || s.g.RelationName(s.g.InEdge(pos)) == relation) && t.fit(s.g, s.g.InSource(pos)) > 0 {
			return true
		}
	}
	return false
}

func (s *search) accept() {
	for _, e := range s.p.NegativeEdges {
		a, b := s.idx[e.From], s.idx[e.To]
		var present bool
		switch {
		case s.absent[b]:
			present = s.anyOut(s.bound[a], e.Relation, &s.tests[b])
		case s.absent[a]:
			present = s.anyIn(s.bound[b], e.Relation, &s.tests[a])
		default:
			present = s.hasEdge(s.bound[a], s.bound[b], e.Relation)
		}
		if present {
			return
		}
	}
	nodes := slices.Clone(s.bound)
	for i, ab := range s.absent {
		if ab {
			nodes[i] = graph.NoNode
		}
	}
	key := slices.Clone(nodes)
	slices.Sort(key)
	var kb []byte
	for _, id := range key {
		kb = strconv.AppendUint(append(kb, ' '), uint64(id), 10)
	}
	k := string(kb)
	if s.seen[k] {
		return
	}
	s.seen[k] = true
	var sum float64
	n := 0
	for i, f := range s.fits {
		if !s.absent[i] {
			sum, n = sum+f, n+1
		}
	}
	s.res.Matches = append(s.res.Matches, Match{Nodes: nodes, Confidence: sum / float64(n)})
	if len(s.res.Matches) >= s.opt.MaxMatches {
		s.res.Truncated, s.stopping = true, true
	}
}
