package resonance

import (
	"cmp"
	"math"
	"slices"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// Harmonic is a node's strongest harmonic response.
type Harmonic struct {
	Node graph.NodeID `json:"node"`
	// Amplitude is relative to the strongest response of the sweep, (0, 1].
	Amplitude float32 `json:"amplitude"`
	// HarmonicOrder k means the node responds most at k·Fundamental
	// (the lowest k on ties).
	HarmonicOrder int     `json:"harmonic_order"`
	Frequency     float32 `json:"frequency"`
}

// SympatheticPair is two nodes outside the seeds' 2-hop neighbourhood, not
// adjacent to each other, whose responses across the sweep are alike.
type SympatheticPair struct {
	A graph.NodeID `json:"a"`
	B graph.NodeID `json:"b"`
	// Coupling is the cosine similarity of the two sweep responses, [0, 1].
	Coupling float32 `json:"coupling"`
}

// ResonantFrequency is a local maximum of total energy over the sweep.
type ResonantFrequency struct {
	Frequency float32 `json:"frequency"`
	// Energy is relative to the most energetic sweep point, (0, 1].
	Energy float32 `json:"energy"`
}

// WavePattern is the standing wave at the fundamental.
type WavePattern struct {
	Frequency   float32 `json:"frequency"`
	TotalEnergy float32 `json:"total_energy"`
	// Antinodes are the TopK strongest nodes (amplitude relative to the
	// strongest of this wave).
	Antinodes []WaveNode `json:"antinodes"`
	// StandingNodes counts reached nodes whose amplitude is under 10 % of
	// the strongest: the nodes of the standing wave.
	StandingNodes int `json:"standing_nodes"`
	NodesReached  int `json:"nodes_reached"`
}

// HarmonicGroup is the reported harmonics sharing an order.
type HarmonicGroup struct {
	HarmonicOrder int            `json:"harmonic_order"`
	Frequency     float32        `json:"frequency"`
	Nodes         []graph.NodeID `json:"nodes"`
	MeanAmplitude float32        `json:"mean_amplitude"`
}

// Stats reports the work done by Analyze.
type Stats struct {
	Pulses          int       `json:"pulses"`
	BudgetExhausted bool      `json:"budget_exhausted"`
	Frequencies     []float32 `json:"frequencies"`
	NodesReached    int       `json:"nodes_reached"`
	// SympatheticSkipped is true when the seeds' neighbourhood exceeded
	// NeighborhoodBudget, so sympathetic pairs could not be told apart.
	SympatheticSkipped bool `json:"sympathetic_skipped,omitempty"`
}

// Report is the resonate tool's payload (node IDs; the server renders
// labels).
type Report struct {
	Seeds               []graph.NodeID      `json:"seeds"`
	Harmonics           []Harmonic          `json:"harmonics"`
	SympatheticPairs    []SympatheticPair   `json:"sympathetic_pairs"`
	ResonantFrequencies []ResonantFrequency `json:"resonant_frequencies"`
	WavePattern         WavePattern         `json:"wave_pattern"`
	HarmonicGroups      []HarmonicGroup     `json:"harmonic_groups"`
	Stats               Stats               `json:"stats"`
}

// Analyze runs the frequency sweep from seeds. With no seeds it analyses
// global resonance from the GlobalSeeds nodes of highest PageRank.
func (e *Engine) Analyze(g *graph.Graph, seeds []graph.Scored) (Report, error) {
	var rep Report
	if err := checkInput(g, seeds); err != nil {
		return rep, err
	}
	if len(seeds) == 0 {
		seeds = e.globalSeeds(g)
	}
	origins := seedPulses(seeds)
	for _, s := range origins {
		rep.Seeds = append(rep.Seeds, s.Node)
	}
	if len(origins) == 0 {
		return rep, nil
	}
	sc := e.pool.Get().(*scratch)
	defer e.pool.Put(sc)
	sc.reset(g.NumNodes())

	p := &e.p
	steps := p.NumHarmonics * p.SweepSteps
	fundIdx := p.SweepSteps - 1
	row := map[graph.NodeID]int{}
	var rowNode []graph.NodeID
	var resp []float32 // len(rowNode) × steps
	var energy []float64
	remaining := p.SweepBudget
	for k := 1; k <= steps; k++ {
		if remaining <= 0 {
			rep.Stats.BudgetExhausted = true
			break
		}
		freq := p.Fundamental * float32(k) / float32(p.SweepSteps)
		sent, exh := e.run(g, sc, origins, freq, min(p.PulseBudget, remaining))
		remaining -= sent
		rep.Stats.Pulses += sent
		rep.Stats.BudgetExhausted = rep.Stats.BudgetExhausted || exh
		rep.Stats.Frequencies = append(rep.Stats.Frequencies, freq)
		idx := k - 1
		en := 0.0
		var wave []WaveNode
		for _, v := range sc.touched {
			a, ph := polar(sc.re[v], sc.im[v])
			en += float64(a) * float64(a)
			r, ok := row[v]
			if !ok {
				r = len(rowNode)
				row[v] = r
				rowNode = append(rowNode, v)
				resp = append(resp, make([]float32, steps)...)
			}
			resp[r*steps+idx] = a
			if idx == fundIdx {
				wave = append(wave, WaveNode{Node: v, Amplitude: a, Phase: ph})
			}
		}
		energy = append(energy, en)
		if idx == fundIdx {
			rep.WavePattern = e.pattern(freq, en, wave)
		}
		sc.clearAcc()
	}
	rep.Stats.NodesReached = len(rowNode)
	if len(rowNode) == 0 {
		return rep, nil
	}
	peak := float32(0)
	for _, a := range resp {
		peak = max(peak, a)
	}
	if peak <= 0 {
		return rep, nil
	}
	rep.ResonantFrequencies = resonant(rep.Stats.Frequencies, energy)
	rep.Harmonics, rep.HarmonicGroups = e.harmonics(rowNode, resp, steps, len(energy), peak)
	rep.SympatheticPairs, rep.Stats.SympatheticSkipped = e.sympathetic(g, sc, origins, rowNode, resp, steps, peak)
	return rep, nil
}

func (e *Engine) globalSeeds(g *graph.Graph) []graph.Scored {
	all := make([]graph.Scored, g.NumNodes())
	for i := range all {
		all[i] = graph.Scored{Node: graph.NodeID(i), Score: g.PageRank(graph.NodeID(i))}
	}
	top := graph.SelectTop(all, e.p.GlobalSeeds)
	out := make([]graph.Scored, len(top))
	for i, s := range top {
		out[i] = graph.Scored{Node: s.Node, Score: 1}
	}
	return out
}

func (e *Engine) pattern(freq float32, en float64, wave []WaveNode) WavePattern {
	wp := WavePattern{Frequency: freq, TotalEnergy: graph.Finite(float32(en)), NodesReached: len(wave)}
	sortWave(wave)
	if len(wave) == 0 || wave[0].Amplitude <= 0 {
		return wp
	}
	top := wave[0].Amplitude
	for _, w := range wave {
		if w.Amplitude < 0.1*top {
			wp.StandingNodes++
		}
	}
	for _, w := range wave[:min(len(wave), e.p.TopK)] {
		w.Amplitude = finite.Clamp(w.Amplitude/top, 0, 1)
		wp.Antinodes = append(wp.Antinodes, w)
	}
	return wp
}

// resonant returns the local maxima of energy over the sweep (strictly
// above the left neighbour, at least the right one).
func resonant(freqs []float32, energy []float64) []ResonantFrequency {
	top := 0.0
	for _, v := range energy {
		top = max(top, v)
	}
	if top <= 0 {
		return nil
	}
	var out []ResonantFrequency
	for i, v := range energy {
		if v <= 0 || (i > 0 && v <= energy[i-1]) || (i+1 < len(energy) && v < energy[i+1]) {
			continue
		}
		out = append(out, ResonantFrequency{Frequency: freqs[i], Energy: finite.Clamp(float32(v/top), 0, 1)})
	}
	return out
}

// harmonics picks each node's strongest harmonic among the sweep points
// that are integer multiples of the fundamental, keeps the TopK, and
// groups them by order.
func (e *Engine) harmonics(rowNode []graph.NodeID, resp []float32, steps, done int, peak float32) ([]Harmonic, []HarmonicGroup) {
	p := &e.p
	all := make([]Harmonic, 0, len(rowNode))
	for r, v := range rowNode {
		best, order := float32(0), 0
		for k := 1; k <= p.NumHarmonics; k++ {
			idx := k*p.SweepSteps - 1
			if idx >= done {
				break
			}
			if a := resp[r*steps+idx]; a > best {
				best, order = a, k
			}
		}
		if order == 0 {
			continue
		}
		all = append(all, Harmonic{Node: v, Amplitude: finite.Clamp(best/peak, 0, 1), HarmonicOrder: order, Frequency: p.Fundamental * float32(order)})
	}
	slices.SortFunc(all, func(a, b Harmonic) int {
		return graph.CompareScored(graph.Scored{Node: a.Node, Score: a.Amplitude}, graph.Scored{Node: b.Node, Score: b.Amplitude})
	})
	all = all[:min(len(all), p.TopK)]
	var groups []HarmonicGroup
	for k := 1; k <= p.NumHarmonics; k++ {
		var grp HarmonicGroup
		sum := 0.0
		for _, h := range all {
			if h.HarmonicOrder == k {
				grp.Nodes = append(grp.Nodes, h.Node)
				sum += float64(h.Amplitude)
			}
		}
		if len(grp.Nodes) == 0 {
			continue
		}
		grp.HarmonicOrder, grp.Frequency = k, p.Fundamental*float32(k)
		grp.MeanAmplitude = float32(sum / float64(len(grp.Nodes)))
		groups = append(groups, grp)
	}
	return all, groups
}

// sympathetic finds pairs outside the seeds' 2-hop neighbourhood with alike
// sweep responses (see SympatheticPair).
func (e *Engine) sympathetic(g *graph.Graph, sc *scratch, seeds []graph.Scored, rowNode []graph.NodeID, resp []float32, steps int, peak float32) ([]SympatheticPair, bool) {
	p := &e.p
	// Exclusion zone: BFS over forward and reverse edges.
	stamp := sc.nextStamp()
	frontier := make([]graph.NodeID, 0, len(seeds))
	count := 0
	for _, s := range seeds {
		if sc.mark[s.Node] != stamp {
			sc.mark[s.Node] = stamp
			frontier = append(frontier, s.Node)
			count++
		}
	}
	for hop := 0; hop < SympatheticExclusionHops; hop++ {
		var next []graph.NodeID
		add := func(v graph.NodeID) {
			if sc.mark[v] != stamp {
				sc.mark[v] = stamp
				next = append(next, v)
				count++
			}
		}
		for _, u := range frontier {
			lo, hi := g.OutRange(u)
			for edge := lo; edge < hi; edge++ {
				add(g.Target(edge))
			}
			ilo, ihi := g.InRange(u)
			for pos := ilo; pos < ihi; pos++ {
				add(g.InSource(pos))
			}
			if count > p.NeighborhoodBudget {
				return nil, true
			}
		}
		frontier = next
	}
	type cand struct {
		r    int
		peak float32
		norm float64
	}
	var cands []cand
	for r, v := range rowNode {
		if sc.mark[v] == stamp {
			continue
		}
		pk, norm := float32(0), 0.0
		for _, a := range resp[r*steps : (r+1)*steps] {
			pk = max(pk, a)
			norm += float64(a) * float64(a)
		}
		if pk/peak < p.SympatheticMinAmplitude || norm == 0 {
			continue
		}
		cands = append(cands, cand{r, pk, math.Sqrt(norm)})
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if a.peak != b.peak {
			return cmp.Compare(b.peak, a.peak)
		}
		return cmp.Compare(rowNode[a.r], rowNode[b.r])
	})
	cands = cands[:min(len(cands), p.SympatheticCandidates)]
	var out []SympatheticPair
	for i := range cands {
		for j := i + 1; j < len(cands); j++ {
			a, b := rowNode[cands[i].r], rowNode[cands[j].r]
			if g.Adjacent(a, b) {
				continue
			}
			dot := 0.0
			ra, rb := resp[cands[i].r*steps:], resp[cands[j].r*steps:]
			for k := 0; k < steps; k++ {
				dot += float64(ra[k]) * float64(rb[k])
			}
			c := finite.Clamp(float32(dot/(cands[i].norm*cands[j].norm)), 0, 1)
			if c < p.MinCoupling {
				continue
			}
			if a > b {
				a, b = b, a
			}
			out = append(out, SympatheticPair{A: a, B: b, Coupling: c})
		}
	}
	slices.SortFunc(out, func(x, y SympatheticPair) int {
		if x.Coupling != y.Coupling {
			return cmp.Compare(y.Coupling, x.Coupling)
		}
		if x.A != y.A {
			return cmp.Compare(x.A, y.A)
		}
		return cmp.Compare(x.B, y.B)
	})
	return out[:min(len(out), p.TopK)], false
}
