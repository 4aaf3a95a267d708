package continuity

import (
	"fmt"
	"hash/fnv"
	"math"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Route families: what kind of move a route is.
const (
	FamilyStructural = "structural_neighbor" // contains / contained in
	FamilyDownstream = "causal_downstream"   // the focus depends on the target
	FamilyUpstream   = "causal_upstream"     // the target depends on the focus
	FamilyTest       = "test_coverage"       // tests edge either way
	FamilyCoChange   = "co_change"           // changes together in history
	FamilySemantic   = "semantic_match"      // the query activates it; no direct edge
	FamilyAnchor     = "anchor_return"       // back to the anchor
)

// Families lists the route families.
var Families = []string{FamilyStructural, FamilyDownstream, FamilyUpstream, FamilyTest, FamilyCoChange, FamilySemantic, FamilyAnchor}

// Breakdown explains a route's score; every part is in [0, 1].
type Breakdown struct {
	LocalActivation float64 `json:"local_activation"`
	PathCoherence   float64 `json:"path_coherence"`
	Novelty         float64 `json:"novelty"`
	AnchorRelevance float64 `json:"anchor_relevance"`
	Continuity      float64 `json:"continuity"`
}

// Score weights of the breakdown's parts (they sum to 1).
var scoreWeights = Breakdown{LocalActivation: 0.35, PathCoherence: 0.25, Novelty: 0.15, AnchorRelevance: 0.15, Continuity: 0.10}

// Route is one move a perspective offers.
type Route struct {
	ID          string `json:"route_id"`
	Index       int    `json:"index"`
	Target      string `json:"target_node"`
	TargetLabel string `json:"target_label"`
	TargetType  string `json:"target_type"`
	Family      string `json:"family"`
	// Relation is the edge taken ("" for semantic and anchor routes).
	Relation  string    `json:"relation,omitempty"`
	Score     float64   `json:"score"`
	Path      []string  `json:"path"`
	Reason    string    `json:"reason"`
	Breakdown Breakdown `json:"score_breakdown"`
}

// RouteSetHash identifies a route set by its routes' ids in order.
func RouteSetHash(routes []Route) string {
	h := fnv.New64a()
	for _, r := range routes {
		h.Write([]byte(r.ID))
		h.Write([]byte{0})
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

func routeID(focus, target, family string) string {
	h := fnv.New32a()
	h.Write([]byte(focus + "\x00" + target + "\x00" + family))
	return fmt.Sprintf("R_%06x", h.Sum32()&0xffffff)
}

// SynthInput is what route synthesis works from.
type SynthInput struct {
	G      *graph.Graph
	Focus  graph.NodeID
	Anchor graph.NodeID // graph.NoNode when there is none
	// Act is the query's activation by external id.
	Act     map[string]Act
	Visited []string
	Lens    Lens
	Limit   int
}

// Bounds of the neighbourhood synthesis reads, so a hub focus costs a
// bounded amount.
const (
	maxNeighbors  = 4000
	maxTwoHopMids = 40
	maxTwoHopEach = 40
	anchorHops    = 3
	anchorBFSCap  = 20000
	// semanticFloor: a query match becomes a route from this share of the
	// strongest activation up.
	semanticFloor = 0.25
)

type cand struct {
	id       graph.NodeID
	family   string
	relation string
	path     []graph.NodeID
	coh      float64
	why      string
}

// Synthesize computes the routes from a focus: its direct neighbours (by
// relation and direction), dependencies two hops away along causal edges,
// nodes the query activates that are not adjacent, and the way back to the
// anchor. Each is scored from local activation, path coherence, novelty,
// anchor relevance and continuity (same file or directory); the best
// Limit are kept, ties broken by target id. It also returns the focus's
// distance from the anchor in hops (-1: no anchor, or farther than the
// anchor's reach of 3 hops).
func Synthesize(in SynthInput) ([]Route, int) {
	g := in.G
	if in.Limit <= 0 {
		in.Limit = MaxRoutes
	}
	cands := map[graph.NodeID]*cand{}
	offer := func(c *cand) {
		if c.id == in.Focus {
			return
		}
		if old, ok := cands[c.id]; !ok || c.coh > old.coh {
			cands[c.id] = c
		}
	}
	direct := neighbors(g, in.Focus, offer)
	twoHop(g, in.Focus, direct, offer)
	maxAct := 0.0
	for _, a := range in.Act {
		maxAct = max(maxAct, a.Score)
	}
	for x, a := range in.Act {
		id, ok := g.Lookup(x)
		// Weak matches would come and go with every small move of the
		// learned weights (and change the route set with them).
		if !ok || a.Score < semanticFloor*maxAct {
			continue
		}
		if _, ok := cands[id]; !ok {
			offer(&cand{id: id, family: FamilySemantic, path: []graph.NodeID{in.Focus, id}, coh: 0.15, why: fmt.Sprintf("matches the query (activation %.2f) without a direct edge", a.Score)})
		}
	}
	var dist map[graph.NodeID]int
	if in.Anchor != graph.NoNode {
		dist = bfs(g, in.Anchor, anchorHops)
		if in.Anchor != in.Focus {
			offer(&cand{id: in.Anchor, family: FamilyAnchor, path: []graph.NodeID{in.Focus, in.Anchor}, coh: 0.3, why: "back to the perspective's anchor"})
		}
	}
	visited := map[string]bool{}
	for _, v := range in.Visited {
		visited[v] = true
	}
	focusFile, focusDir := fileAndDir(g, in.Focus)
	var out []Route
	for _, c := range cands {
		if !lensAdmits(in.Lens, g, c) {
			continue
		}
		x := g.ExternalID(c.id)
		var b Breakdown
		if maxAct > 0 {
			b.LocalActivation = in.Act[x].Score / maxAct
		}
		b.PathCoherence = clamp01(c.coh)
		b.Novelty = 1
		if visited[x] {
			b.Novelty = 0.2
		}
		b.AnchorRelevance = 0.5
		if dist != nil {
			b.AnchorRelevance = 0.1
			if d, ok := dist[c.id]; ok {
				b.AnchorRelevance = 1 / float64(1+d)
			}
		}
		f, d := fileAndDir(g, c.id)
		switch {
		case f != "" && f == focusFile:
			b.Continuity = 1
		case d == focusDir:
			b.Continuity = 0.6
		default:
			b.Continuity = 0.2
		}
		b = round(b)
		score := b.LocalActivation*scoreWeights.LocalActivation + b.PathCoherence*scoreWeights.PathCoherence + b.Novelty*scoreWeights.Novelty +
			b.AnchorRelevance*scoreWeights.AnchorRelevance + b.Continuity*scoreWeights.Continuity
		r := Route{ID: routeID(g.ExternalID(in.Focus), x, c.family), Target: x, TargetLabel: g.Label(c.id), TargetType: strings.ToLower(g.Type(c.id).String()),
			Family: c.family, Relation: c.relation, Score: r3(score), Reason: c.why, Breakdown: b}
		for _, n := range c.path {
			r.Path = append(r.Path, g.ExternalID(n))
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Target < out[j].Target
	})
	out = out[:min(len(out), in.Limit)]
	for i := range out {
		out[i].Index = i + 1
	}
	focusDist := -1
	if d, ok := dist[in.Focus]; ok {
		focusDist = d
	}
	return nonNil(out), focusDist
}

var causal = map[string]bool{"imports": true, "calls": true, "references": true, "inherits": true, "implements": true}

// neighbors offers the focus's direct neighbours and returns those reached
// along causal edges (for two-hop routes).
func neighbors(g *graph.Graph, focus graph.NodeID, offer func(*cand)) []graph.NodeID {
	var causalNext []graph.NodeID
	seen := 0
	add := func(e graph.EdgeIdx, other graph.NodeID, incoming bool) {
		rel := g.RelationName(e)
		fam, why := family(g, rel, incoming, focus, other)
		if fam == FamilyDownstream {
			causalNext = append(causalNext, other)
		}
		offer(&cand{id: other, family: fam, relation: rel, path: []graph.NodeID{focus, other}, coh: clamp01(float64(graph.Finite(g.Weight(e)))), why: why})
	}
	lo, hi := g.OutRange(focus)
	for e := lo; e < hi && seen < maxNeighbors; e++ {
		seen++
		// A mirror entry runs child → parent for a bidirectional edge the
		// parent declared: from the child, the parent is "incoming".
		add(e, g.Target(e), g.IsMirror(e))
	}
	ilo, ihi := g.InRange(focus)
	for p := ilo; p < ihi && seen < maxNeighbors; p++ {
		seen++
		e := g.InEdge(p)
		if g.IsMirror(e) {
			continue // the forward copy was seen from the out range
		}
		add(e, g.InSource(p), true)
	}
	return causalNext
}

func family(g *graph.Graph, rel string, incoming bool, focus, other graph.NodeID) (string, string) {
	fl, ol := g.Label(focus), g.Label(other)
	switch {
	case rel == "contains" && !incoming:
		return FamilyStructural, fmt.Sprintf("%s contains %s", fl, ol)
	case rel == "contains":
		return FamilyStructural, fmt.Sprintf("%s is contained in %s", fl, ol)
	case rel == "tests" && incoming:
		return FamilyTest, fmt.Sprintf("%s tests %s", ol, fl)
	case rel == "tests":
		return FamilyTest, fmt.Sprintf("%s tests %s", fl, ol)
	case rel == "co_changes":
		return FamilyCoChange, fmt.Sprintf("%s and %s change together in the history", fl, ol)
	case causal[rel] && !incoming:
		return FamilyDownstream, fmt.Sprintf("%s %s %s: the focus depends on it", fl, rel, ol)
	case causal[rel]:
		return FamilyUpstream, fmt.Sprintf("%s %s %s: it depends on the focus", ol, rel, fl)
	case incoming:
		return FamilyStructural, fmt.Sprintf("%s %s %s", ol, rel, fl)
	}
	return FamilyStructural, fmt.Sprintf("%s %s %s", fl, rel, ol)
}

// twoHop offers what the focus's dependencies depend on.
func twoHop(g *graph.Graph, focus graph.NodeID, mids []graph.NodeID, offer func(*cand)) {
	slices.Sort(mids)
	mids = slices.Compact(mids)
	for i, mid := range mids {
		if i == maxTwoHopMids {
			break
		}
		lo, hi := g.OutRange(mid)
		n := 0
		for e := lo; e < hi && n < maxTwoHopEach; e++ {
			t := g.Target(e)
			if g.IsMirror(e) || !causal[g.RelationName(e)] || t == focus {
				continue
			}
			n++
			w := float64(graph.Finite(g.Weight(e)))
			offer(&cand{id: t, family: FamilyDownstream, relation: g.RelationName(e), path: []graph.NodeID{focus, mid, t}, coh: 0.6 * clamp01(w),
				why: fmt.Sprintf("%s depends on it through %s (%s)", g.Label(focus), g.Label(mid), g.RelationName(e))})
		}
	}
}

// bfs returns hop distances from src, undirected, up to hops.
func bfs(g *graph.Graph, src graph.NodeID, hops int) map[graph.NodeID]int {
	dist := map[graph.NodeID]int{src: 0}
	frontier := []graph.NodeID{src}
	for d := 1; d <= hops && len(frontier) > 0 && len(dist) < anchorBFSCap; d++ {
		var next []graph.NodeID
		visit := func(n graph.NodeID) {
			if _, ok := dist[n]; !ok && len(dist) < anchorBFSCap {
				dist[n] = d
				next = append(next, n)
			}
		}
		for _, n := range frontier {
			lo, hi := g.OutRange(n)
			for e := lo; e < hi; e++ {
				visit(g.Target(e))
			}
			ilo, ihi := g.InRange(n)
			for p := ilo; p < ihi; p++ {
				visit(g.InSource(p))
			}
		}
		frontier = next
	}
	return dist
}

// fileAndDir are a node's source file and directory ("" when unknown).
func fileAndDir(g *graph.Graph, id graph.NodeID) (string, string) {
	p := g.SourcePath(id)
	if p == "" {
		p = strings.TrimPrefix(g.ExternalID(id), "file::")
		if i := strings.Index(p, "::"); i >= 0 {
			p = p[:i]
		}
	}
	return p, path.Dir(p)
}

func lensAdmits(l Lens, g *graph.Graph, c *cand) bool {
	if len(l.Families) > 0 && !slices.Contains(l.Families, c.family) {
		return false
	}
	return len(l.NodeTypes) == 0 || slices.Contains(l.NodeTypes, strings.ToLower(g.Type(c.id).String()))
}

func clamp01(f float64) float64 {
	if math.IsNaN(f) || f < 0 {
		return 0
	}
	return min(f, 1)
}

func r3(f float64) float64 { return math.Round(clamp01(f)*1000) / 1000 }

func round(b Breakdown) Breakdown {
	return Breakdown{r3(b.LocalActivation), r3(b.PathCoherence), r3(b.Novelty), r3(b.AnchorRelevance), r3(b.Continuity)}
}

// Affinity is a node a route target probably relates to without an edge.
type Affinity struct {
	NodeID   string  `json:"node_id"`
	Label    string  `json:"label"`
	Strength float64 `json:"strength"`
	Reason   string  `json:"reason"`
}

// Affinities finds nodes not adjacent to target that share many of its
// neighbours (cosine overlap of neighbourhoods, containment left out), at
// most k, strongest first. They are probable connections, not edges.
func Affinities(g *graph.Graph, target graph.NodeID, k int) []Affinity {
	nb := neighborList(g, target)
	if len(nb) == 0 {
		return []Affinity{}
	}
	adj := map[graph.NodeID]bool{target: true}
	for _, n := range nb {
		adj[n] = true
	}
	shared := map[graph.NodeID]int{}
	for _, n := range nb[:min(len(nb), 200)] {
		ms := neighborList(g, n)
		for _, m := range ms[:min(len(ms), 200)] {
			if !adj[m] {
				shared[m]++
			}
		}
	}
	var out []Affinity
	for m, s := range shared {
		if s < 2 {
			continue
		}
		deg := len(neighborList(g, m))
		st := float64(s) / math.Sqrt(float64(len(nb))*float64(max(deg, 1)))
		out = append(out, Affinity{NodeID: g.ExternalID(m), Label: g.Label(m), Strength: r3(st),
			Reason: fmt.Sprintf("shares %d of its %d neighbours with %s, without an edge between them", s, deg, g.Label(target))})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Strength != out[j].Strength {
			return out[i].Strength > out[j].Strength
		}
		return out[i].NodeID < out[j].NodeID
	})
	return nonNil(out[:min(len(out), k)])
}

// neighborList is a node's neighbours over every relation but
// containment, sorted, once each.
func neighborList(g *graph.Graph, n graph.NodeID) []graph.NodeID {
	var out []graph.NodeID
	lo, hi := g.OutRange(n)
	for e := lo; e < hi && len(out) < maxNeighbors; e++ {
		if t := g.Target(e); t != n && g.RelationName(e) != "contains" {
			out = append(out, t)
		}
	}
	ilo, ihi := g.InRange(n)
	for p := ilo; p < ihi && len(out) < maxNeighbors; p++ {
		if s := g.InSource(p); s != n && g.RelationName(g.InEdge(p)) != "contains" {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
