package dynamics

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/m1nd-go/m1nd/core/graph"
)

// ErrNoEntryPoints: the graph (or the scope) has no function execution
// could start from.
var ErrNoEntryPoints = errors.New("no entry points")

// Flow bounds and defaults (docs/design.md#dynamics-and-reports).
const (
	MaxParticles     = 100
	MaxFlowSteps     = 10_000
	DefaultParticles = 20
	DefaultMaxDepth  = 10
	MaxFlowDepth     = 50
)

// FlowParams configure Flow.
type FlowParams struct {
	Particles int // entry points simulated, one particle each, ≤ MaxParticles
	MaxDepth  int // hops a particle travels from its entry point
	// TurbulenceThreshold: the least score a collision needs to be reported.
	TurbulenceThreshold float64
	Scope               string // path prefix; "" for the whole graph
	// Source, when set, reads the methods particles reach, so that the
	// attributes they write count as state too; nil: module-level
	// variables only.
	Source SourceFunc
}

// DefaultFlowParams: 20 particles, depth 10, threshold 0.5.
func DefaultFlowParams() FlowParams {
	return FlowParams{Particles: DefaultParticles, MaxDepth: DefaultMaxDepth, TurbulenceThreshold: 0.5}
}

// Turbulence is shared mutable state that paths from several entry points
// reach: a module-level variable (Node), or an attribute (Attr) of the
// class or struct Node that the methods they reach use.
type Turbulence struct {
	Node    graph.NodeID
	Attr    string           // "" for a module-level variable
	Shared  string           // SharedModule, SharedClass, SharedInstance or PerInstance
	Writes  []Site           // an attribute's writes in the methods reached (outside constructors)
	Entries []graph.NodeID   // the entry points whose particles reach it, ascending
	Paths   [][]graph.NodeID // per entry (same order), entry … Node
	// Guarded: every path passes a node with a valve next to it (a lock
	// it references or calls).
	Guarded  bool
	Score    float64 // (1 − 1/entries), halved when guarded
	Severity string  // critical, high, medium or low
}

// Valve is a lock or bottleneck some particles pass or touch.
type Valve struct {
	Node      graph.NodeID
	Particles int
}

// FlowResult is a simulation's outcome.
type FlowResult struct {
	Entries      []EntryPoint // the entry points simulated
	EntriesFound int          // all the entry points discovered
	Turbulence   []Turbulence // score ≥ threshold, highest first
	Below        int          // collisions under the threshold
	Valves       []Valve      // most particles first
	Steps        int          // nodes the particles visited in all
	Truncated    bool         // MaxFlowSteps ended the walk
}

// valveWords are the words of a label that name a lock or a bottleneck.
var valveWords = map[string]bool{"lock": true, "locks": true, "locked": true, "unlock": true, "rlock": true,
	"rwlock": true, "mutex": true, "mu": true, "mtx": true, "sem": true, "semaphore": true, "latch": true,
	"barrier": true, "guard": true, "synchronized": true, "throttle": true, "limiter": true, "ratelimiter": true,
	"queue": true, "pool": true, "lk": true}

// IsValve reports whether a label names a lock or a bottleneck: one of
// its words (split at case changes, underscores, dots and digits) is a
// valve word ("mu", "cacheLock", "RATE_LIMITER", "sync.Mutex"; not
// "block" or "clock").
func IsValve(label string) bool {
	for _, w := range words(label) {
		if valveWords[w] {
			return true
		}
	}
	return false
}

// words splits an identifier into lower-case words.
func words(s string) []string {
	var out []string
	start := 0
	rs := []rune(s)
	flush := func(i int) {
		if i > start {
			out = append(out, strings.ToLower(string(rs[start:i])))
		}
		start = i
	}
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r):
			flush(i)
			start = i + 1
		case i > start && unicode.IsUpper(r) && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])):
			flush(i)
		}
	}
	flush(len(rs))
	return out
}

// mutableState: a module-level variable (not a constant, not a lock).
// Python's are left to the source reading (attrs.go): the only edges to
// them come from annotations and imports, never from a use.
func mutableState(g *graph.Graph, n graph.NodeID) bool {
	return g.HasTag(n, "variable") && !IsValve(g.Label(n)) && !g.HasTag(n, "python") && !sentinelError(g, n)
}

// sentinelError: a Go error variable (ErrNotFound, errClosed) is set once
// when its package initialises and compared by identity (errors.Is), so
// two entry points that return it share no state (gorilla/mux's
// ErrMethodMismatch was called turbulence, "check the locking").
func sentinelError(g *graph.Graph, n graph.NodeID) bool {
	if !g.HasTag(n, "go") {
		return false
	}
	l := g.Label(n)
	rest, ok := strings.CutPrefix(l, "Err")
	if !ok {
		rest, ok = strings.CutPrefix(l, "err")
	}
	if !ok || rest == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return unicode.IsUpper(r) || unicode.IsDigit(r) || r == '_'
}

// particle is one walker: a breadth-first walk from its entry point.
type particle struct {
	entry  graph.NodeID
	queue  []hop
	parent map[graph.NodeID]graph.NodeID
}

type hop struct {
	node  graph.NodeID
	depth int
}

// flowRelations are the edges execution follows.
var flowRelations = map[string]bool{"calls": true, "references": true, "instantiates": true, "uses": true}

// Flow launches one particle per entry point (at most p.Particles, in
// DiscoverEntryPoints' order). The particles advance in turn, one node
// each, so the walk is parallel in effect and deterministic; together
// they visit at most MaxFlowSteps nodes. Where particles of different
// entry points meet on mutable state, there is turbulence.
func Flow(ctx context.Context, g *graph.Graph, p FlowParams) (FlowResult, error) {
	if !g.Finalized() {
		return FlowResult{}, graph.ErrNotFinalized
	}
	all := DiscoverEntryPoints(g, p.Scope)
	if len(all) == 0 {
		return FlowResult{}, ErrNoEntryPoints
	}
	p.Particles = min(max(p.Particles, 1), MaxParticles)
	p.MaxDepth = min(max(p.MaxDepth, 1), MaxFlowDepth)
	res := FlowResult{Entries: all[:min(len(all), p.Particles)], EntriesFound: len(all)}
	ps := make([]*particle, len(res.Entries))
	reached := map[graph.NodeID][]int{} // node → particles, in arrival order
	for i, e := range res.Entries {
		ps[i] = &particle{entry: e.Node, queue: []hop{{e.Node, 0}}, parent: map[graph.NodeID]graph.NodeID{e.Node: graph.NoNode}}
		reached[e.Node] = append(reached[e.Node], i)
	}
	rels := relCache{}
	for active := true; active; {
		if err := ctx.Err(); err != nil {
			return FlowResult{}, err
		}
		active = false
		for i, pt := range ps {
			if len(pt.queue) == 0 {
				continue
			}
			if res.Steps == MaxFlowSteps {
				res.Truncated = true
				break
			}
			active = true
			res.Steps++
			h := pt.queue[0]
			pt.queue = pt.queue[1:]
			if h.depth == p.MaxDepth {
				continue
			}
			lo, hi := g.OutRange(h.node)
			for e := lo; e < hi; e++ {
				v := g.Target(e)
				r := rels.of(g, e)
				if g.IsMirror(e) || r.reversed || !flowRelations[r.name] || !inScope(g, v, p.Scope) {
					continue
				}
				if _, seen := pt.parent[v]; seen {
					continue
				}
				pt.parent[v] = h.node
				reached[v] = append(reached[v], i)
				pt.queue = append(pt.queue, hop{v, h.depth + 1})
			}
		}
		if res.Truncated {
			break
		}
	}
	res.Turbulence, res.Below = turbulence(g, rels, ps, reached, p)
	res.Valves = valves(g, reached)
	return res, nil
}

// turbulence scores every mutable state node reached from two entry
// points or more.
func turbulence(g *graph.Graph, rels relCache, ps []*particle, reached map[graph.NodeID][]int, p FlowParams) ([]Turbulence, int) {
	var cands []Turbulence
	for v, who := range reached {
		if len(who) < 2 || !mutableState(g, v) {
			continue
		}
		t := Turbulence{Node: v, Shared: SharedModule, Guarded: true}
		slices.SortFunc(who, func(a, b int) int { return cmp.Compare(ps[a].entry, ps[b].entry) })
		for _, i := range who {
			path := ps[i].path(v)
			t.Entries = append(t.Entries, ps[i].entry)
			t.Paths = append(t.Paths, path)
			t.Guarded = t.Guarded && guarded(g, rels, path)
		}
		n := float64(len(who))
		t.Score = 1 - 1/n
		if t.Guarded {
			t.Score /= 2
		}
		t.Severity = severity(len(who), t.Guarded)
		cands = append(cands, t)
	}
	if p.Source != nil {
		cands = append(cands, attrTurbulence(g, rels, ps, reached, p.Source)...)
	}
	var out []Turbulence
	for _, t := range cands {
		if t.Score >= p.TurbulenceThreshold {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b Turbulence) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Node, b.Node), cmp.Compare(a.Attr, b.Attr))
	})
	return out, len(cands) - len(out)
}

func severity(entries int, guarded bool) string {
	switch {
	case !guarded && entries >= 4:
		return "critical"
	case !guarded:
		return "high"
	case entries >= 3:
		return "medium"
	}
	return "low"
}

// path is the particle's way from its entry point to v.
func (pt *particle) path(v graph.NodeID) []graph.NodeID {
	var rev []graph.NodeID
	for n := v; n != graph.NoNode; n = pt.parent[n] {
		rev = append(rev, n)
	}
	slices.Reverse(rev)
	return rev
}

// guarded: some node on the path (before the state) calls or references
// a valve.
func guarded(g *graph.Graph, rels relCache, path []graph.NodeID) bool {
	for _, n := range path[:len(path)-1] {
		if IsValve(g.Label(n)) {
			return true
		}
		lo, hi := g.OutRange(n)
		for e := lo; e < hi; e++ {
			if r := rels.of(g, e); !g.IsMirror(e) && flowRelations[r.name] && IsValve(g.Label(g.Target(e))) {
				return true
			}
		}
	}
	return false
}

// valves lists the valve nodes particles reached, most particles first.
func valves(g *graph.Graph, reached map[graph.NodeID][]int) []Valve {
	var out []Valve
	for v, who := range reached {
		if IsValve(g.Label(v)) {
			out = append(out, Valve{v, len(who)})
		}
	}
	slices.SortFunc(out, func(a, b Valve) int {
		if c := cmp.Compare(b.Particles, a.Particles); c != 0 {
			return c
		}
		return cmp.Compare(a.Node, b.Node)
	})
	return out
}
