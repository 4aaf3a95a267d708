// Package resonance finds structural harmonics by sending wave pulses
// through the graph (the resonate tool).
//
// A WavePulse carries an amplitude, a phase in [0, 2π), a positive frequency
// and a positive wavelength. Pulses start at the seeds with phase 0 and are
// processed in BFS order (a FIFO queue). Crossing an edge multiplies the
// amplitude by Damping·min(weight, 1) and advances the phase by
// 2π/wavelength; an inhibitory edge adds π (destructive interference).
// Every arrival is accumulated at its node as a complex number,
// Σ a·(cos φ, sin φ); the node's standing-wave amplitude is the modulus.
//
// Reflections: a pulse that reaches a dead end (no neighbour but the one it
// came from) goes back with a π phase shift; a pulse that enters a hub
// (degree > 4× the average) sends 30 % of its amplitude back (no shift) and
// transmits 70 % onwards. A pulse never goes straight back otherwise.
// Pulses below MinAmplitude or at MaxHops stop; one frequency may send at
// most PulseBudget pulses, and a sweep at most SweepBudget.
//
// Analyze sweeps frequencies and reports the five fields of the resonate
// response: harmonics (each node's strongest harmonic order), sympathetic
// pairs (nodes outside the seeds' 2-hop neighbourhood, not adjacent to each
// other, whose responses across the sweep are alike), resonant frequencies
// (local maxima of total energy across the sweep), the wave pattern at the
// fundamental, and harmonic groups (nodes grouped by harmonic order).
// Everything is deterministic: ties are broken by NodeID.
package resonance

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// Engine runs resonance analysis. It is immutable after New and safe for
// concurrent use.
type Engine struct {
	p    Params
	pool sync.Pool
}

// New returns an engine with validated parameters.
func New(p Params) (*Engine, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	e := &Engine{p: p}
	e.pool.New = func() any { return &scratch{} }
	return e, nil
}

// Params returns the engine's parameters.
func (e *Engine) Params() Params { return e.p }

// WavePulse is one travelling pulse.
type WavePulse struct {
	Node graph.NodeID
	// Amplitude is positive; destructive interference is carried by Phase.
	Amplitude float32
	// Phase is in [0, 2π).
	Phase float32
	// Frequency and Wavelength are strictly positive.
	Frequency  float32
	Wavelength float32
	Hops       uint8
	// PrevNode is the node the pulse came from (NoNode at a seed), Via the
	// edge it crossed.
	PrevNode graph.NodeID
	Via      graph.EdgeIdx
}

type scratch struct {
	re, im  []float64
	touched []graph.NodeID
	queue   []WavePulse
	mark    []uint32
	stamp   uint32
}

func (s *scratch) reset(n int) {
	if len(s.re) < n {
		s.re = make([]float64, n)
		s.im = make([]float64, n)
		s.mark = make([]uint32, n)
		s.stamp = 0
	}
}

func (s *scratch) clearAcc() {
	for _, v := range s.touched {
		s.re[v], s.im[v] = 0, 0
	}
	s.touched = s.touched[:0]
}

func (s *scratch) nextStamp() uint32 {
	s.stamp++
	if s.stamp == 0 {
		clear(s.mark)
		s.stamp = 1
	}
	return s.stamp
}

// WaveNode is one node of a standing wave.
type WaveNode struct {
	Node      graph.NodeID `json:"node"`
	Amplitude float32      `json:"amplitude"`
	// Phase of the resultant, in [0, 2π).
	Phase float32 `json:"phase"`
}

// Wave is the standing wave of one frequency.
type Wave struct {
	Frequency  float32 `json:"frequency"`
	Wavelength float32 `json:"wavelength"`
	// Nodes are every node reached, strongest first (ties by NodeID).
	Nodes []WaveNode `json:"nodes"`
	// TotalEnergy is Σ amplitude².
	TotalEnergy     float32 `json:"total_energy"`
	Pulses          int     `json:"pulses"`
	BudgetExhausted bool    `json:"budget_exhausted"`
}

func checkInput(g *graph.Graph, seeds []graph.Scored) error {
	if g == nil {
		return errors.New("resonance: nil graph")
	}
	if !g.Finalized() {
		return graph.ErrNotFinalized
	}
	for _, s := range seeds {
		if !g.Valid(s.Node) {
			return fmt.Errorf("resonance: node %d out of range (graph has %d nodes)", s.Node, g.NumNodes())
		}
	}
	return nil
}

// seedPulses dedupes seeds (largest score wins; non-positive or non-finite
// scores become 1; capped at 1), sorted by NodeID.
func seedPulses(seeds []graph.Scored) []graph.Scored {
	m := map[graph.NodeID]float32{}
	for _, s := range seeds {
		v := graph.Finite(s.Score)
		if v <= 0 {
			v = 1
		}
		m[s.Node] = max(m[s.Node], min(v, 1))
	}
	out := make([]graph.Scored, 0, len(m))
	for n, v := range m {
		out = append(out, graph.Scored{Node: n, Score: v})
	}
	slices.SortFunc(out, func(a, b graph.Scored) int { return int(a.Node) - int(b.Node) })
	return out
}

// StandingWave propagates one frequency from the seeds (see the package
// documentation) within PulseBudget.
func (e *Engine) StandingWave(g *graph.Graph, seeds []graph.Scored, freq float32) (Wave, error) {
	if err := checkInput(g, seeds); err != nil {
		return Wave{}, err
	}
	if _, err := finite.Positive("frequency", freq); err != nil {
		return Wave{}, err
	}
	sc := e.pool.Get().(*scratch)
	defer e.pool.Put(sc)
	sc.reset(g.NumNodes())
	defer sc.clearAcc()
	w := Wave{Frequency: freq, Wavelength: e.wavelength(freq)}
	w.Pulses, w.BudgetExhausted = e.run(g, sc, seedPulses(seeds), freq, e.p.PulseBudget)
	w.Nodes = make([]WaveNode, 0, len(sc.touched))
	energy := 0.0
	for _, v := range sc.touched {
		a, ph := polar(sc.re[v], sc.im[v])
		energy += float64(a) * float64(a)
		w.Nodes = append(w.Nodes, WaveNode{Node: v, Amplitude: a, Phase: ph})
	}
	sortWave(w.Nodes)
	w.TotalEnergy = graph.Finite(float32(energy))
	return w, nil
}

func sortWave(nodes []WaveNode) {
	slices.SortFunc(nodes, func(a, b WaveNode) int {
		return graph.CompareScored(graph.Scored{Node: a.Node, Score: a.Amplitude}, graph.Scored{Node: b.Node, Score: b.Amplitude})
	})
}

func polar(re, im float64) (amp, phase float32) {
	a := math.Hypot(re, im)
	ph := math.Atan2(im, re)
	if ph < 0 {
		ph += 2 * math.Pi
	}
	if a < 1e-12 {
		ph = 0
	}
	if 2*math.Pi-ph < 1e-6 {
		ph = 0 // a hair below 2π is 0, and float32 rounding must not reach 2π
	}
	phase = graph.Finite(float32(ph))
	if float64(phase) >= 2*math.Pi {
		phase = 0
	}
	return graph.Finite(float32(a)), phase
}

func (e *Engine) wavelength(freq float32) float32 {
	return e.p.Wavelength * e.p.Fundamental / freq
}

func wrap(ph float64) float64 {
	ph = math.Mod(ph, 2*math.Pi)
	if ph < 0 {
		ph += 2 * math.Pi
	}
	return ph
}

// run propagates pulses of one frequency, accumulating into sc.re/sc.im
// (sc.touched lists the nodes reached). It returns the pulses sent and
// whether the budget ran out.
func (e *Engine) run(g *graph.Graph, sc *scratch, seeds []graph.Scored, freq float32, budget int) (int, bool) {
	n := g.NumNodes()
	avgDeg := 0.0
	if n > 0 {
		avgDeg = 2 * float64(g.NumEdges()) / float64(n)
	}
	hubLimit := float64(e.p.HubDegreeRatio) * avgDeg
	lambda := e.wavelength(freq)
	dphi := 2 * math.Pi / float64(lambda)
	damping := float64(e.p.Damping)
	minAmp := float64(e.p.MinAmplitude)

	stamp := sc.nextStamp()
	deposit := func(v graph.NodeID, a, ph float64) {
		if sc.mark[v] != stamp {
			sc.mark[v] = stamp
			sc.touched = append(sc.touched, v)
		}
		sc.re[v] += a * math.Cos(ph)
		sc.im[v] += a * math.Sin(ph)
	}
	q := sc.queue[:0]
	sent := 0
	exhausted := false
	for _, s := range seeds {
		if sent >= budget {
			exhausted = true
			break
		}
		deposit(s.Node, float64(s.Score), 0)
		q = append(q, WavePulse{Node: s.Node, Amplitude: s.Score, Frequency: freq, Wavelength: lambda, PrevNode: graph.NoNode})
		sent++
	}
	emit := func(p *WavePulse, v graph.NodeID, via graph.EdgeIdx, a, ph float64) bool {
		if a < minAmp {
			return true
		}
		if sent >= budget {
			exhausted = true
			return false
		}
		ph = wrap(ph)
		deposit(v, a, ph)
		q = append(q, WavePulse{Node: v, Amplitude: float32(a), Phase: float32(ph), Frequency: freq, Wavelength: lambda, Hops: p.Hops + 1, PrevNode: p.Node, Via: via})
		sent++
		return true
	}
	factor := func(edge graph.EdgeIdx) (float64, float64) {
		w := float64(finite.Clamp(g.Weight(edge), 0, 1))
		extra := 0.0
		if g.Inhibitory(edge) {
			extra = math.Pi
		}
		return damping * w, extra
	}
	for head := 0; head < len(q) && !exhausted; head++ {
		p := q[head]
		if int(p.Hops) >= e.p.MaxHops {
			continue
		}
		u := p.Node
		amp := float64(p.Amplitude)
		trans := 1.0
		if p.PrevNode != graph.NoNode && avgDeg > 0 && float64(g.Degree(u)) > hubLimit {
			// Hub: partial reflection back along the edge the pulse came by.
			f, extra := factor(p.Via)
			if !emit(&p, p.PrevNode, p.Via, amp*float64(e.p.HubReflection)*f, float64(p.Phase)+dphi+extra) {
				break
			}
			trans = 1 - float64(e.p.HubReflection)
		}
		onward := 0
		lo, hi := g.OutRange(u)
		for edge := lo; edge < hi && !exhausted; edge++ {
			v := g.Target(edge)
			if v == p.PrevNode {
				continue
			}
			onward++
			f, extra := factor(edge)
			emit(&p, v, edge, amp*trans*f, float64(p.Phase)+dphi+extra)
		}
		ilo, ihi := g.InRange(u)
		for pos := ilo; pos < ihi && !exhausted; pos++ {
			v := g.InSource(pos)
			if v == p.PrevNode {
				continue
			}
			onward++
			edge := g.InEdge(pos)
			f, extra := factor(edge)
			emit(&p, v, edge, amp*trans*f, float64(p.Phase)+dphi+extra)
		}
		if onward == 0 && p.PrevNode != graph.NoNode && !exhausted {
			// Dead end: full reflection with a π phase shift.
			f, extra := factor(p.Via)
			emit(&p, p.PrevNode, p.Via, amp*f, float64(p.Phase)+dphi+extra+ReflectionPhaseShift)
		}
	}
	sc.queue = q[:0]
	return sent, exhausted
}
