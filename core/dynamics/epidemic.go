package dynamics

import (
	"cmp"
	"context"
	"errors"
	"math"
	"slices"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Epidemic errors.
var (
	// ErrNoValidInfectedNodes: no seed is a node the model can use.
	ErrNoValidInfectedNodes = errors.New("no valid infected nodes")
	// ErrEpidemicBurnout: even at the lowest calibrated rate more than
	// BurnoutFraction of the graph ends up infected — the graph is too
	// densely connected for a meaningful prediction.
	ErrEpidemicBurnout = errors.New("epidemic burnout")
)

// Epidemic bounds and defaults (docs/design.md#dynamics-and-reports).
const (
	DefaultIterations = 50
	MaxIterations     = 500
	// BurnoutFraction: more infected non-seed nodes than this share of
	// the graph's non-seed nodes triggers calibration.
	BurnoutFraction = 0.8
	// burnoutMinNodes: graphs smaller than this are never calibrated (a
	// chain of three nodes is "mostly infected" by any rate).
	burnoutMinNodes = 10
	// MaxContacts bounds one run's work (contacts tried); a spread cut
	// there is reported Truncated.
	MaxContacts = 1_000_000
	// maxCalibrations halvings of the rate are tried before burnout.
	maxCalibrations = 8
	// epsilon: infection mass below this no longer spreads (nor is a
	// prediction).
	epsilon = 1e-3
)

// EpidemicParams configure Epidemic.
type EpidemicParams struct {
	Iterations int       // steps of the model, 1..MaxIterations
	Direction  Direction // which way defects travel
	// PromotionThreshold: the probability at which a node counts as
	// infected rather than at risk.
	PromotionThreshold float64
	// Rate scales every transmission factor (1 = the factors as they are);
	// calibration lowers it on burnout.
	Rate float64
	// Immune are recovered nodes (a defect fixed there): they neither
	// catch nor pass on the infection.
	Immune []graph.NodeID
	// Components of the graph, when the caller keeps them (NewComponents);
	// nil builds them for the call.
	Components *Components
}

// DefaultEpidemicParams: 50 iterations, both directions, threshold 0.5,
// rate 1.
func DefaultEpidemicParams() EpidemicParams {
	return EpidemicParams{Iterations: DefaultIterations, Direction: Both, PromotionThreshold: 0.5, Rate: 1}
}

// Prediction is one node the defect may have reached.
type Prediction struct {
	Node        graph.NodeID
	Probability float64 // union probability over every path from the seeds
	Generation  int     // the step it was first reached (1 = a seed's contact)
	Via         graph.NodeID
	Relation    string // the relation of the edge from Via
}

// EpidemicResult is the model's outcome.
type EpidemicResult struct {
	// Predictions are the non-seed nodes reached, most probable first
	// (ties by node ID).
	Predictions []Prediction
	Infected    int     // non-seed nodes at or above the threshold
	Eligible    int     // nodes that take part (not containers)
	Rate        float64 // the rate used, after calibration
	Calibrated  bool    // the rate was lowered on burnout
	Iterations  int     // steps run before the spread died out or the cap
	// R0 is the mean over seeds of the expected direct infections, Σ of
	// rate × factor over each seed's contacts.
	R0 float64
	// UnreachableComponents are the connected components (over
	// transmitting edges) with no seed in them; UnreachableNodes their
	// size: safe from this outbreak whatever the rate.
	UnreachableComponents int
	UnreachableNodes      int
	// Truncated: MaxContacts ended the spread before it died out (the
	// probabilities are lower bounds).
	Truncated bool
}

// Epidemic runs the SIR model from seeds: each step, what a node newly
// caught spreads to its contacts with probability rate × factor, combined
// over paths as a union (1 − Π(1 − p)); a node spreads what it caught
// once, then recovers. When more than BurnoutFraction of the graph would
// be infected the rate is halved until it is not.
func Epidemic(ctx context.Context, g *graph.Graph, seeds []graph.NodeID, p EpidemicParams) (EpidemicResult, error) {
	if !g.Finalized() {
		return EpidemicResult{}, graph.ErrNotFinalized
	}
	seeds = validSeeds(g, seeds)
	if len(seeds) == 0 {
		return EpidemicResult{}, ErrNoValidInfectedNodes
	}
	p.Iterations = min(max(p.Iterations, 1), MaxIterations)
	if p.Rate <= 0 || math.IsNaN(p.Rate) || p.Rate > 1 {
		p.Rate = 1
	}
	s := newSIR(g, seeds, p.Direction)
	for _, x := range p.Immune {
		if g.Valid(x) && !s.isSeed[x] {
			s.immune[x] = true
		}
	}
	initial := p.Rate
	var res EpidemicResult
	eligible := eligibleNodes(g)
	limit := math.Inf(1)
	if eligible >= burnoutMinNodes {
		limit = BurnoutFraction * float64(eligible-len(seeds))
	}
	for try := 0; ; try++ {
		burnt, err := s.run(ctx, p.Rate, p.Iterations, p.PromotionThreshold, limit)
		if err != nil {
			return EpidemicResult{}, err
		}
		if !burnt {
			res = s.result(p, eligible)
			break
		}
		if try == maxCalibrations {
			return s.result(p, eligible), ErrEpidemicBurnout
		}
		p.Rate /= 2
	}
	res.Calibrated = p.Rate < initial
	res.UnreachableComponents, res.UnreachableNodes = s.unreachable(p.Components)
	return res, nil
}

func eligibleNodes(g *graph.Graph) int {
	n := 0
	for i := 0; i < g.NumNodes(); i++ {
		if !container(g, graph.NodeID(i)) {
			n++
		}
	}
	return n
}

func validSeeds(g *graph.Graph, seeds []graph.NodeID) []graph.NodeID {
	var out []graph.NodeID
	for _, n := range seeds {
		if g.Valid(n) && !container(g, n) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// sir is one model's state over a graph, in dense per-node slices.
type sir struct {
	g      *graph.Graph
	rels   relCache
	dir    Direction
	seeds  []graph.NodeID
	isSeed []bool
	immune []bool // recovered before the run: never infected
	prob   []float64
	gen    []int32 // step first reached, 0 = never
	via    []contactFrom
	steps  int
	// in and sent are last step's messages to the frontier and this
	// step's, kept for the next run.
	in      inbox
	sent    []message
	touched []graph.NodeID
	// visits counts the contacts the run tried; truncated says
	// MaxContacts stopped it.
	visits    int
	truncated bool
	// arena holds each node's contacts, built once and reused by every
	// run of a calibration: node u's are arena[adjLo[u]:adjHi[u]], built
	// when adjHi[u] > 0 (or adjDone).
	arena        []contact
	adjLo, adjHi []uint32
	adjDone      []bool
}

type contactFrom struct {
	from graph.NodeID
	edge graph.EdgeIdx
	p    float64
}

// message is what one node sent another in a step.
type message struct {
	to, from graph.NodeID
	p        float64
}

func newSIR(g *graph.Graph, seeds []graph.NodeID, d Direction) *sir {
	n := g.NumNodes()
	s := &sir{g: g, rels: relCache{}, dir: d, seeds: seeds, isSeed: make([]bool, n), immune: make([]bool, n),
		adjLo: make([]uint32, n), adjHi: make([]uint32, n), adjDone: make([]bool, n)}
	for _, x := range seeds {
		s.isSeed[x] = true
	}
	// One allocation of what a run can use instead of doubling up to it:
	// the contacts and messages of a run are bounded by MaxContacts (plus
	// the last node's), and by the edges on a small graph.
	est := min(MaxContacts, 2*g.NumEdges()) + 1024
	s.arena, s.sent = make([]contact, 0, est), make([]message, 0, est)
	return s
}

func (s *sir) contactsOf(u graph.NodeID) []contact {
	if !s.adjDone[u] {
		lo := len(s.arena)
		s.arena = contacts(s.g, s.rels, u, s.dir, s.arena)
		s.adjLo[u], s.adjHi[u], s.adjDone[u] = uint32(lo), uint32(len(s.arena)), true
	}
	return s.arena[s.adjLo[u]:s.adjHi[u]]
}

// run spreads the infection for at most iters steps at rate, and stops
// early (burnt true) once more than limit non-seed nodes reach threshold.
// The messages do not backtrack: what v caught from w in a step is not
// sent back to w in the next (an echo is no new path), which makes the
// union exact on trees and on the chains of a cycle.
func (s *sir) run(ctx context.Context, rate float64, iters int, threshold, limit float64) (burnt bool, err error) {
	n := s.g.NumNodes()
	s.prob, s.gen, s.via = make([]float64, n), make([]int32, n), make([]contactFrom, n)
	last := make([]caught, n) // what each frontier node caught last step
	next := make([]caught, n)
	mark := make([]int32, n)    // the step that last touched a node
	fromP := make([]float64, n) // scratch: what the current node was sent, by sender
	counted := make([]bool, n)  // reached threshold
	in, sent := &s.in, s.sent[:0]
	if len(in.slot) != n {
		in.slot = make([]int32, n)
	}
	defer func() { s.sent = sent[:0]; in.fill(nil, nil) }()
	for _, x := range s.seeds {
		s.prob[x] = 1
		last[x] = caught{escape: 1, keep: 0}
	}
	frontier := slices.Clone(s.seeds)
	infected := 0
	s.steps, s.visits, s.truncated = 0, 0, false
	for step := int32(1); int(step) <= iters && len(frontier) > 0; step++ {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		s.steps = int(step)
		touched := s.touched[:0]
		sent = sent[:0]
		for i, u := range frontier {
			if s.visits >= MaxContacts {
				s.truncated = true
				break
			}
			got := in.of(i)
			for _, m := range got {
				fromP[m.from] = 1 - (1-fromP[m.from])*(1-m.p)
			}
			cs := s.contactsOf(u)
			s.visits += len(cs)
			for _, c := range cs {
				if s.isSeed[c.to] || s.immune[c.to] || c.to == u {
					continue
				}
				pc := last[u].without(fromP[c.to]) * rate * c.factor
				if pc <= 0 {
					continue
				}
				if mark[c.to] != step {
					mark[c.to] = step
					next[c.to] = caught{escape: 1 - s.prob[c.to], keep: 1}
					touched = append(touched, c.to)
				}
				next[c.to].keep *= 1 - pc
				sent = append(sent, message{c.to, u, pc})
				s.noteVia(c.to, u, c.edge, pc, step)
			}
			for _, m := range got {
				fromP[m.from] = 0
			}
			last[u] = caught{}
		}
		slices.Sort(touched)
		frontier = frontier[:0]
		for _, v := range touched {
			k := next[v]
			next[v] = caught{}
			if d := k.mass(); d > epsilon {
				s.prob[v] += d
				if !counted[v] && s.prob[v] >= threshold {
					counted[v] = true
					infected++
				}
				last[v] = k
				frontier = append(frontier, v)
			}
		}
		if float64(infected) > limit {
			return true, nil
		}
		if s.truncated {
			break
		}
		in.fill(frontier, sent)
		s.touched = touched
	}
	return false, nil
}

// inbox holds one step's messages grouped by the frontier node they went
// to (a counting sort: linear in the messages).
type inbox struct {
	off  []int32   // frontier index i's messages are msg[off[i]:off[i+1]]
	msg  []message // by frontier index, then in the order they were sent
	slot []int32   // per node: its frontier index + 1, 0 when not in it
	on   []graph.NodeID
}

func (b *inbox) of(i int) []message {
	if i+1 >= len(b.off) {
		return nil
	}
	return b.msg[b.off[i]:b.off[i+1]]
}

// fill groups sent by the frontier's nodes (a frontier node's index is
// its slot).
func (b *inbox) fill(frontier []graph.NodeID, sent []message) {
	for _, v := range b.on {
		b.slot[v] = 0
	}
	b.on = append(b.on[:0], frontier...)
	for i, v := range frontier {
		b.slot[v] = int32(i) + 1
	}
	b.off = slices.Grow(b.off[:0], len(frontier)+1)[:len(frontier)+1]
	clear(b.off)
	for _, m := range sent {
		if i := b.slot[m.to]; i > 0 {
			b.off[i]++
		}
	}
	for i := 1; i < len(b.off); i++ {
		b.off[i] += b.off[i-1]
	}
	b.msg = slices.Grow(b.msg[:0], int(b.off[len(b.off)-1]))[:b.off[len(b.off)-1]]
	pos := slices.Clone(b.off[:len(frontier)])
	for _, m := range sent {
		if i := b.slot[m.to] - 1; i >= 0 {
			b.msg[pos[i]] = m
			pos[i]++
		}
	}
}

// caught is what a node caught in one step: escape is the chance it was
// still susceptible before the step, keep the chance it escaped every
// contact of the step.
type caught struct{ escape, keep float64 }

// mass is the probability newly infected in the step.
func (k caught) mass() float64 { return k.escape * (1 - k.keep) }

// without is the mass had one contact (that sent p) not been there.
func (k caught) without(p float64) float64 {
	if p <= 0 || p >= 1 {
		return k.mass()
	}
	return max(0, k.escape*(1-k.keep/(1-p)))
}

// noteVia keeps, for a node reached in this step for the first time, the
// strongest contact that reached it (ties: the lower node ID).
func (s *sir) noteVia(v, u graph.NodeID, e graph.EdgeIdx, pc float64, step int32) {
	g0 := s.gen[v]
	if best := s.via[v]; g0 == 0 || g0 == step && (pc > best.p || pc == best.p && u < best.from) {
		s.via[v], s.gen[v] = contactFrom{u, e, pc}, step
	}
}

// result lists what the run reached.
func (s *sir) result(p EpidemicParams, eligible int) EpidemicResult {
	res := EpidemicResult{Rate: p.Rate, Iterations: s.steps, Eligible: eligible, Truncated: s.truncated}
	for i, pr := range s.prob {
		v := graph.NodeID(i)
		if s.isSeed[v] || pr < epsilon {
			continue
		}
		via := s.via[v]
		res.Predictions = append(res.Predictions, Prediction{Node: v, Probability: graph.Finite64(pr), Generation: int(s.gen[v]), Via: via.from, Relation: s.rels.of(s.g, via.edge).name})
		if pr >= p.PromotionThreshold {
			res.Infected++
		}
	}
	slices.SortFunc(res.Predictions, func(a, b Prediction) int {
		if c := cmp.Compare(b.Probability, a.Probability); c != 0 {
			return c
		}
		return cmp.Compare(a.Node, b.Node)
	})
	for _, n := range s.seeds {
		// Several edges to one contact are one chance of catching it.
		keep := map[graph.NodeID]float64{}
		for _, c := range s.contactsOf(n) {
			if !s.isSeed[c.to] && !s.immune[c.to] && c.to != n {
				k, ok := keep[c.to]
				if !ok {
					k = 1
				}
				keep[c.to] = k * (1 - p.Rate*c.factor)
			}
		}
		for _, k := range keep {
			res.R0 += 1 - k
		}
	}
	res.R0 = graph.Finite64(res.R0 / float64(len(s.seeds)))
	return res
}

// unreachable counts the connected components (over transmitting edges)
// that hold no seed, and their nodes.
func (s *sir) unreachable(c *Components) (components, nodes int) {
	if c == nil || c.g != s.g {
		c = NewComponents(s.g)
	}
	hit := make(map[int32]bool, len(s.seeds))
	for _, sd := range s.seeds {
		hit[c.root[sd]] = true
	}
	for r, k := range c.size {
		if k > 0 && !hit[int32(r)] {
			components++
			nodes += int(k)
		}
	}
	return components, nodes
}

// Components are a graph's connected components over transmitting edges,
// either way (containers take no part). They do not depend on the seeds:
// build them once per graph and pass them in EpidemicParams.
type Components struct {
	g    *graph.Graph
	root []int32 // each node's component root (-1 for a container)
	size []int32 // by root: its nodes
}

// NewComponents finds g's components (one pass over every node's
// contacts; g must be finalized).
func NewComponents(g *graph.Graph) *Components {
	n := g.NumNodes()
	parent := make([]int32, n)
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	rels := relCache{}
	var buf []contact
	for u := graph.NodeID(0); int(u) < n; u++ {
		if container(g, u) {
			continue
		}
		buf = contacts(g, rels, u, Forward, buf[:0])
		for _, c := range buf {
			if a, b := find(int32(u)), find(int32(c.to)); a != b {
				parent[max(a, b)] = min(a, b)
			}
		}
	}
	c := &Components{g: g, root: make([]int32, n), size: make([]int32, n)}
	for u := range n {
		c.root[u] = -1
		if !container(g, graph.NodeID(u)) {
			c.root[u] = find(int32(u))
			c.size[c.root[u]]++
		}
	}
	return c
}
