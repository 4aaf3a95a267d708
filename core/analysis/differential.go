package analysis

import (
	"cmp"
	"errors"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// DiffSections selects what Diff reports: parts (nodes, edges, weights,
// coupling, isolation) and directions (added, removed).
type DiffSections uint8

// The parts and directions of a diff. DiffAll is every part both ways.
const (
	DiffNodes     DiffSections = 1 << iota // nodes added or removed
	DiffEdges                              // edges added or removed
	DiffWeights                            // edge weights that moved (learned or re-ingested)
	DiffCoupling                           // dependency coupling between directories
	DiffIsolation                          // files that lost (or found) every dependency link
	DiffAdded                              // what appeared: new nodes and edges, coupling that rose, files that became connected
	DiffRemoved                            // what went: removed nodes and edges, coupling that fell, files that became isolated
	DiffAll       = DiffNodes | DiffEdges | DiffWeights | DiffCoupling | DiffIsolation | DiffAdded | DiffRemoved
)

// DiffParams configures Diff.
type DiffParams struct {
	// Sections: zero means DiffAll.
	Sections DiffSections
	// Focus restricts the diff to the neighbourhood of these nodes
	// (external IDs, in either graph): the nodes, what they contain, and
	// what those link to directly.
	Focus []string
	// MinWeightDelta: smaller weight moves are not changes (0.01).
	MinWeightDelta float32
	// MaxListed bounds each list (counts stay exact); 0 lists everything.
	MaxListed int
}

// DefaultDiffParams: everything, weight moves of 0.01 and more, 100 per
// list.
func DefaultDiffParams() DiffParams {
	return DiffParams{Sections: DiffAll, MinWeightDelta: 0.01, MaxListed: 100}
}

// DiffEdge is an edge by its ends' external IDs.
type DiffEdge struct {
	Source   string  `json:"source"`
	Target   string  `json:"target"`
	Relation string  `json:"relation"`
	Weight   float32 `json:"weight"`
}

// WeightChange is an edge present in both graphs whose weight moved.
type WeightChange struct {
	Source    string  `json:"source"`
	Target    string  `json:"target"`
	Relation  string  `json:"relation"`
	OldWeight float32 `json:"old_weight"`
	NewWeight float32 `json:"new_weight"`
	Delta     float32 `json:"delta"`
}

// CouplingDelta is how the dependency coupling of two directories moved:
// links between them over the links touching either (in [0, 1]). A pair
// is reported when the links between them changed, or the coupling moved
// by 0.1 or more.
type CouplingDelta struct {
	CommunityA  string  `json:"community_a"`
	CommunityB  string  `json:"community_b"`
	OldCoupling float32 `json:"old_coupling"`
	NewCoupling float32 `json:"new_coupling"`
	Delta       float32 `json:"delta"`
	OldLinks    int     `json:"old_links"`
	NewLinks    int     `json:"new_links"`
}

// DiffCounts are the sizes of the lists before MaxListed.
type DiffCounts struct {
	NewNodes        int `json:"new_nodes"`
	RemovedNodes    int `json:"removed_nodes"`
	NewEdges        int `json:"new_edges"`
	RemovedEdges    int `json:"removed_edges"`
	WeightChanges   int `json:"weight_changes"`
	CouplingDeltas  int `json:"coupling_deltas"`
	BecameIsolated  int `json:"became_isolated"`
	BecameConnected int `json:"became_connected"`
}

// DiffResult is what changed from graph A to graph B. Every list is
// sorted (the largest moves first, then by ID), so the same two graphs
// always give the same answer.
type DiffResult struct {
	NewNodes       []string        `json:"new_nodes"`
	RemovedNodes   []string        `json:"removed_nodes"`
	NewEdges       []DiffEdge      `json:"new_edges"`
	RemovedEdges   []DiffEdge      `json:"removed_edges"`
	WeightChanges  []WeightChange  `json:"weight_changes"`
	CouplingDeltas []CouplingDelta `json:"coupling_deltas"`
	// BecameIsolated are files of both graphs that had dependency links in
	// A and none in B; BecameConnected the opposite.
	BecameIsolated  []string   `json:"became_isolated"`
	BecameConnected []string   `json:"became_connected"`
	Counts          DiffCounts `json:"counts"`
}

// Diff compares two graphs by external ID: nodes and edges (source,
// target, relation) added and removed, weights that moved (the current
// weights, learned ones included), dependency coupling between
// directories, and files that became isolated. Neither graph is changed.
func Diff(a, b *graph.Graph, p DiffParams) (DiffResult, error) {
	var res DiffResult
	for _, g := range []*graph.Graph{a, b} {
		if err := checkGraph(g); err != nil {
			return res, err
		}
	}
	if p.MaxListed < 0 || !graph.IsFinite(p.MinWeightDelta) || p.MinWeightDelta < 0 {
		return res, errors.New("analysis: max_listed and min_weight_delta must be ≥ 0")
	}
	if p.Sections&^(DiffAdded|DiffRemoved) == 0 {
		p.Sections |= DiffAll &^ (DiffAdded | DiffRemoved)
	}
	if p.Sections&(DiffAdded|DiffRemoved) == 0 {
		p.Sections |= DiffAdded | DiffRemoved
	}
	df := &differ{a: a, b: b, p: p, res: &res}
	df.aToB, df.bToA = mapNodes(a, b), mapNodes(b, a)
	df.hoodA, df.hoodB = focusHood(a, p.Focus), focusHood(b, p.Focus)
	df.nodes()
	df.edges()
	if df.want(DiffCoupling) || df.want(DiffIsolation) {
		if err := df.structure(); err != nil {
			return res, err
		}
	}
	df.finish()
	return res, nil
}

type differ struct {
	a, b         *graph.Graph
	p            DiffParams
	res          *DiffResult
	aToB, bToA   []graph.NodeID
	hoodA, hoodB []bool // nil: no focus
}

// want reports whether every bit of s is selected.
func (df *differ) want(s DiffSections) bool { return df.p.Sections&s == s }

// mapNodes maps each node of x to the node of y with its external ID.
func mapNodes(x, y *graph.Graph) []graph.NodeID {
	m := make([]graph.NodeID, x.NumNodes())
	for v := range m {
		if id, ok := y.Lookup(x.ExternalID(graph.NodeID(v))); ok {
			m[v] = id
		} else {
			m[v] = graph.NoNode
		}
	}
	return m
}

// focusHood marks the focus nodes of g, what they contain, and their
// direct neighbours; nil when there is no focus.
func focusHood(g *graph.Graph, focus []string) []bool {
	if len(focus) == 0 {
		return nil
	}
	in := make([]bool, g.NumNodes())
	var scope []graph.NodeID
	for _, f := range focus {
		if v, ok := g.Lookup(f); ok && !in[v] {
			in[v] = true
			scope = append(scope, v)
		}
	}
	for i := 0; i < len(scope); i++ {
		lo, hi := g.OutRange(scope[i])
		for e := lo; e < hi; e++ {
			if v := g.Target(e); !in[v] && ClassifyRelation(g.RelationName(e)) == Contains && !g.IsMirror(e) {
				in[v] = true
				scope = append(scope, v)
			}
		}
	}
	for _, u := range scope {
		olo, ohi := g.OutRange(u)
		for e := olo; e < ohi; e++ {
			if t := g.Target(e); !isContainer(g, t) {
				in[t] = true
			}
		}
		lo, hi := g.InRange(u)
		for pos := lo; pos < hi; pos++ {
			if s := g.InSource(pos); !isContainer(g, s) {
				in[s] = true
			}
		}
	}
	return in
}

func inHood(h []bool, v graph.NodeID) bool { return h == nil || (v != graph.NoNode && h[v]) }

func (df *differ) nodes() {
	for v, w := range df.aToB {
		if w == graph.NoNode && df.want(DiffNodes|DiffRemoved) && inHood(df.hoodA, graph.NodeID(v)) {
			df.res.RemovedNodes = append(df.res.RemovedNodes, df.a.ExternalID(graph.NodeID(v)))
		}
	}
	for v, w := range df.bToA {
		if w == graph.NoNode && df.want(DiffNodes|DiffAdded) && inHood(df.hoodB, graph.NodeID(v)) {
			df.res.NewNodes = append(df.res.NewNodes, df.b.ExternalID(graph.NodeID(v)))
		}
	}
}

// edges walks A's edges looking each up in B (removed, or weight moved),
// then B's edges looking each up in A (new).
func (df *differ) edges() {
	a, b := df.a, df.b
	relAB, relBA := map[graph.Str]graph.Str{}, map[graph.Str]graph.Str{}
	mapRel := func(x, y *graph.Graph, memo map[graph.Str]graph.Str, s graph.Str) (graph.Str, bool) {
		if r, ok := memo[s]; ok {
			return r, r != 0 || s == 0
		}
		r, _ := y.Strings().Lookup(x.Strings().String(s))
		memo[s] = r
		return r, r != 0 || s == 0
	}
	find := func(x, y *graph.Graph, xToY []graph.NodeID, memo map[graph.Str]graph.Str, e graph.EdgeIdx) (graph.EdgeIdx, bool) {
		s, t := xToY[x.Source(e)], xToY[x.Target(e)]
		r, ok := mapRel(x, y, memo, x.Relation(e))
		if s == graph.NoNode || t == graph.NoNode || !ok {
			return 0, false
		}
		f, ok := y.FindEdge(s, t, r)
		return f, ok && !y.IsMirror(f)
	}
	for e := graph.EdgeIdx(0); int(e) < a.NumEdges(); e++ {
		if a.IsMirror(e) || !(inHood(df.hoodA, a.Source(e)) || inHood(df.hoodA, a.Target(e))) {
			continue
		}
		f, ok := find(a, b, df.aToB, relAB, e)
		switch {
		case !ok && df.want(DiffEdges|DiffRemoved):
			df.res.RemovedEdges = append(df.res.RemovedEdges, diffEdge(a, e))
		case ok && df.want(DiffWeights):
			ow, nw := graph.Finite(a.Weight(e)), graph.Finite(b.Weight(f))
			if d := nw - ow; d >= df.p.MinWeightDelta || -d >= df.p.MinWeightDelta {
				x := diffEdge(b, f)
				df.res.WeightChanges = append(df.res.WeightChanges, WeightChange{Source: x.Source, Target: x.Target, Relation: x.Relation, OldWeight: ow, NewWeight: nw, Delta: d})
			}
		}
	}
	if !df.want(DiffEdges | DiffAdded) {
		return
	}
	for e := graph.EdgeIdx(0); int(e) < b.NumEdges(); e++ {
		if b.IsMirror(e) || !(inHood(df.hoodB, b.Source(e)) || inHood(df.hoodB, b.Target(e))) {
			continue
		}
		if _, ok := find(b, a, df.bToA, relBA, e); !ok {
			df.res.NewEdges = append(df.res.NewEdges, diffEdge(b, e))
		}
	}
}

func diffEdge(g *graph.Graph, e graph.EdgeIdx) DiffEdge {
	return DiffEdge{Source: g.ExternalID(g.Source(e)), Target: g.ExternalID(g.Target(e)), Relation: g.RelationName(e), Weight: graph.Finite(g.Weight(e))}
}

// structure compares the file-level dependency structure: coupling
// between directories and files that became isolated or connected.
func (df *differ) structure() error {
	da, err := NewDepGraph(df.a, true)
	if err != nil {
		return err
	}
	db, err := NewDepGraph(df.b, true)
	if err != nil {
		return err
	}
	if df.want(DiffIsolation) {
		for v, w := range df.aToB {
			u := graph.NodeID(v)
			if w == graph.NoNode || df.a.Type(u) != graph.File || da.Unit(u) != u || db.Unit(w) != w || !inHood(df.hoodA, u) {
				continue
			}
			before := len(da.Dependencies(u))+len(da.Dependents(u)) > 0
			after := len(db.Dependencies(w))+len(db.Dependents(w)) > 0
			switch {
			case before && !after && df.want(DiffRemoved):
				df.res.BecameIsolated = append(df.res.BecameIsolated, df.b.ExternalID(w))
			case !before && after && df.want(DiffAdded):
				df.res.BecameConnected = append(df.res.BecameConnected, df.b.ExternalID(w))
			}
		}
	}
	if df.want(DiffCoupling) {
		df.coupling(communityLinks(da), communityLinks(db))
	}
	return nil
}

type commPair struct{ a, b string }

// commLinks counts file-level dependency links between directories
// (pair, a < b) and the links touching each directory.
type commLinks struct {
	cross   map[commPair]int
	touches map[string]int
}

// community is the directory of a file node ("." at the root); "" for a
// node that is not a file.
func community(g *graph.Graph, v graph.NodeID) string {
	if g.Type(v) != graph.File {
		return ""
	}
	p := strings.TrimPrefix(g.ExternalID(v), "file::")
	if i := strings.Index(p, "::"); i >= 0 {
		p = p[:i]
	}
	return path.Dir(p)
}

func communityLinks(d *DepGraph) commLinks {
	g := d.g
	cl := commLinks{cross: map[commPair]int{}, touches: map[string]int{}}
	comm := map[graph.NodeID]string{}
	of := func(v graph.NodeID) string {
		c, ok := comm[v]
		if !ok {
			c = community(g, v)
			comm[v] = c
		}
		return c
	}
	for u := 0; u < g.NumNodes(); u++ {
		cu := of(graph.NodeID(u))
		if cu == "" {
			continue
		}
		for _, t := range d.Dependencies(graph.NodeID(u)) {
			ct := of(t)
			if ct == "" {
				continue
			}
			cl.touches[cu]++
			if ct == cu {
				continue
			}
			cl.touches[ct]++
			k := commPair{min(cu, ct), max(cu, ct)}
			cl.cross[k]++
		}
	}
	return cl
}

func (cl commLinks) coupling(k commPair) float32 {
	x := cl.cross[k]
	if x == 0 {
		return 0
	}
	return graph.Finite(float32(x) / float32(cl.touches[k.a]+cl.touches[k.b]-x))
}

// coupling reports the directory pairs whose coupling moved.
func (df *differ) coupling(ca, cb commLinks) {
	keys := map[commPair]bool{}
	for k := range ca.cross {
		keys[k] = true
	}
	for k := range cb.cross {
		keys[k] = true
	}
	focus := df.focusCommunities()
	for k := range keys {
		if focus != nil && !focus[k.a] && !focus[k.b] {
			continue
		}
		d := CouplingDelta{CommunityA: k.a, CommunityB: k.b, OldCoupling: ca.coupling(k), NewCoupling: cb.coupling(k), OldLinks: ca.cross[k], NewLinks: cb.cross[k]}
		d.Delta = d.NewCoupling - d.OldCoupling
		// Links between the two unchanged: the ratio moved only because
		// of links elsewhere, which says little about this pair.
		if d.OldLinks == d.NewLinks && d.Delta < 0.1 && d.Delta > -0.1 {
			continue
		}
		if (d.Delta > 0 || d.NewLinks > d.OldLinks) && !df.want(DiffAdded) {
			continue
		}
		if (d.Delta < 0 || d.NewLinks < d.OldLinks) && !df.want(DiffRemoved) {
			continue
		}
		df.res.CouplingDeltas = append(df.res.CouplingDeltas, d)
	}
}

// focusCommunities are the directories of the focus files; nil without
// a focus.
func (df *differ) focusCommunities() map[string]bool {
	if len(df.p.Focus) == 0 {
		return nil
	}
	out := map[string]bool{}
	for _, g := range []*graph.Graph{df.a, df.b} {
		for _, f := range df.p.Focus {
			if v, ok := g.Lookup(f); ok {
				if c := community(g, fileUnit(g, v)); c != "" {
					out[c] = true
				}
			}
		}
	}
	return out
}

// finish sorts every list, counts it and cuts it to MaxListed.
func (df *differ) finish() {
	r, k := df.res, df.p.MaxListed
	cut := func(n int) int {
		if k > 0 {
			return min(n, k)
		}
		return n
	}
	for _, l := range []*[]string{&r.NewNodes, &r.RemovedNodes, &r.BecameIsolated, &r.BecameConnected} {
		slices.Sort(*l)
	}
	edgeOrder := func(x, y DiffEdge) int {
		return cmp.Or(cmp.Compare(x.Source, y.Source), cmp.Compare(x.Target, y.Target), cmp.Compare(x.Relation, y.Relation))
	}
	slices.SortFunc(r.NewEdges, edgeOrder)
	slices.SortFunc(r.RemovedEdges, edgeOrder)
	slices.SortFunc(r.WeightChanges, func(x, y WeightChange) int {
		return cmp.Or(cmp.Compare(abs(y.Delta), abs(x.Delta)), cmp.Compare(x.Source, y.Source), cmp.Compare(x.Target, y.Target), cmp.Compare(x.Relation, y.Relation))
	})
	slices.SortFunc(r.CouplingDeltas, func(x, y CouplingDelta) int {
		return cmp.Or(cmp.Compare(abs(y.Delta), abs(x.Delta)), cmp.Compare(x.CommunityA, y.CommunityA), cmp.Compare(x.CommunityB, y.CommunityB))
	})
	r.Counts = DiffCounts{len(r.NewNodes), len(r.RemovedNodes), len(r.NewEdges), len(r.RemovedEdges), len(r.WeightChanges), len(r.CouplingDeltas), len(r.BecameIsolated), len(r.BecameConnected)}
	r.NewNodes, r.RemovedNodes = r.NewNodes[:cut(len(r.NewNodes))], r.RemovedNodes[:cut(len(r.RemovedNodes))]
	r.NewEdges, r.RemovedEdges = r.NewEdges[:cut(len(r.NewEdges))], r.RemovedEdges[:cut(len(r.RemovedEdges))]
	r.WeightChanges, r.CouplingDeltas = r.WeightChanges[:cut(len(r.WeightChanges))], r.CouplingDeltas[:cut(len(r.CouplingDeltas))]
	r.BecameIsolated, r.BecameConnected = r.BecameIsolated[:cut(len(r.BecameIsolated))], r.BecameConnected[:cut(len(r.BecameConnected))]
	for _, l := range []*[]string{&r.NewNodes, &r.RemovedNodes, &r.BecameIsolated, &r.BecameConnected} {
		if *l == nil {
			*l = []string{}
		}
	}
	if r.NewEdges == nil {
		r.NewEdges = []DiffEdge{}
	}
	if r.RemovedEdges == nil {
		r.RemovedEdges = []DiffEdge{}
	}
	if r.WeightChanges == nil {
		r.WeightChanges = []WeightChange{}
	}
	if r.CouplingDeltas == nil {
		r.CouplingDeltas = []CouplingDelta{}
	}
}

func abs(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// DiffQuestion is what a plain-English focus question asks of a diff.
type DiffQuestion struct {
	Sections DiffSections
	// Subject is a node named in the question ("what changed around
	// auth.py" → "auth.py"), still to be resolved; "" when none.
	Subject string
}

var (
	qSubject = regexp.MustCompile(`(?i)\b(?:around|near|involving|touching|about|for|in|of|to|from)\s+([A-Za-z0-9_./:\\-]*[A-Za-z0-9_])`)
	qParts   = []struct {
		words []string
		s     DiffSections
	}{
		{[]string{"coupl", "depend"}, DiffCoupling | DiffEdges},
		{[]string{"isolat", "orphan", "disconnect", "cut off", "unreachable"}, DiffIsolation},
		{[]string{"weight", "learn", "plastic", "reinforc"}, DiffWeights},
		{[]string{"edge", "link", "relation", "call", "import"}, DiffEdges},
		{[]string{"node", "file"}, DiffNodes},
	}
	qDirs = []struct {
		words []string
		s     DiffSections
	}{
		{[]string{"new", "added", "add ", "introduc", "appear", "grew", "gain", "increas", "rose", "stronger"}, DiffAdded},
		{[]string{"remov", "delet", "lost", "dropp", "disappear", "gone", "decreas", "fell", "weaker", "shrank"}, DiffRemoved},
	}
	// qIgnore are words after "of", "in", "for" that name no node.
	qIgnore = map[string]bool{"the": true, "this": true, "a": true, "an": true, "it": true, "them": true, "each": true, "code": true,
		"graph": true, "snapshot": true, "modules": true, "files": true, "change": true, "changes": true, "coupling": true, "edges": true,
		"nodes": true, "weights": true, "weight": true, "dependencies": true, "other": true, "any": true, "all": true}
)

// ParseDiffQuestion reads what a focus question asks: the parts it names
// ("what new coupling was introduced?" → coupling and edges, added only;
// "what modules became isolated?" → isolation; "what was removed?" →
// every part, removed only) and a node it is about ("around auth.py").
// A question naming no part asks for every part, one naming no direction
// for both.
func ParseDiffQuestion(q string) DiffQuestion {
	low := strings.ToLower(q)
	var out DiffQuestion
	for _, group := range [][]struct {
		words []string
		s     DiffSections
	}{qParts, qDirs} {
		for _, w := range group {
			for _, word := range w.words {
				if strings.Contains(low, word) {
					out.Sections |= w.s
					break
				}
			}
		}
	}
	if out.Sections&^(DiffAdded|DiffRemoved) == 0 {
		out.Sections |= DiffAll &^ (DiffAdded | DiffRemoved)
	}
	if out.Sections&(DiffAdded|DiffRemoved) == 0 {
		out.Sections |= DiffAdded | DiffRemoved
	}
	for _, m := range qSubject.FindAllStringSubmatch(q, -1) {
		if w := strings.Trim(m[1], "./:-"); w != "" && !qIgnore[strings.ToLower(w)] {
			out.Subject = w
			break
		}
	}
	return out
}
