package resonance

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

func chain(t testing.TB, names []string, edges [][2]string) *graph.Graph {
	t.Helper()
	g := graph.New()
	for _, n := range names {
		if _, err := g.AddNode(graph.Node{ExternalID: n, Label: n}); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range edges {
		if err := g.AddEdgeByID(e[0], e[1], graph.Edge{Relation: "imports", Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	g.Finalize()
	return g
}

func engine(t testing.TB, f func(*Params)) *Engine {
	t.Helper()
	p := DefaultParams()
	if f != nil {
		f(&p)
	}
	e, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func amp(w Wave, n graph.NodeID) (float32, float32) {
	for _, x := range w.Nodes {
		if x.Node == n {
			return x.Amplitude, x.Phase
		}
	}
	return 0, 0
}

func close32(a, b float64) bool { return math.Abs(a-b) < 1e-5 }

// TestDeadEndReflectionFlipsPhase: S—L with half a wavelength per hop. The
// pulse reaches the dead end L with phase π, comes back with phase
// π + π (travel) + π (reflection) ≡ π and amplitude 0.8² = 0.64, and
// interferes destructively at S: 1 − 0.64 = 0.36. Without the phase flip
// it would arrive in phase (1.64).
func TestDeadEndReflectionFlipsPhase(t *testing.T) {
	g := chain(t, []string{"S", "L"}, [][2]string{{"S", "L"}})
	e := engine(t, func(p *Params) { p.MaxHops = 2; p.Wavelength = 4 })
	w, err := e.StandingWave(g, []graph.Scored{{Node: 0, Score: 1}}, 2) // wavelength 2 hops
	if err != nil {
		t.Fatal(err)
	}
	if a, ph := amp(w, 0); !close32(float64(a), 0.36) || !close32(float64(ph), 0) {
		t.Errorf("S: amplitude %v phase %v, want 0.36 at phase 0", a, ph)
	}
	if a, ph := amp(w, 1); !close32(float64(a), 0.8) || !close32(float64(ph), math.Pi) {
		t.Errorf("L: amplitude %v phase %v, want 0.8 at π", a, ph)
	}
	if w.Pulses != 3 {
		t.Errorf("pulses = %d, want 3 (seed, forward, reflection)", w.Pulses)
	}
	// Control: L is no dead end when it continues to M; nothing comes back.
	g2 := chain(t, []string{"S", "L", "M"}, [][2]string{{"S", "L"}, {"L", "M"}})
	w2, _ := e.StandingWave(g2, []graph.Scored{{Node: 0, Score: 1}}, 2)
	if a, _ := amp(w2, 0); !close32(float64(a), 1) {
		t.Errorf("S without a dead end: amplitude %v, want 1", a)
	}
}

// TestHubReflectsThirtyPercent: A → H where H is a hub with 20 leaves.
func TestHubReflectsThirtyPercent(t *testing.T) {
	names := []string{"A", "H"}
	edges := [][2]string{{"A", "H"}}
	for i := 0; i < 20; i++ {
		leaf := "x" + string(rune('a'+i))
		names = append(names, leaf)
		edges = append(edges, [2]string{"H", leaf})
	}
	g := chain(t, names, edges)
	e := engine(t, func(p *Params) { p.MaxHops = 2; p.Wavelength = 4 })
	w, err := e.StandingWave(g, []graph.Scored{{Node: 0, Score: 1}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Back at A: 0.3·0.8·0.8 = 0.192 at phase 2π ≡ 0 (no shift at a hub).
	if a, _ := amp(w, 0); !close32(float64(a), 1.192) {
		t.Errorf("A: amplitude %v, want 1.192", a)
	}
	// Leaves: 0.8·0.7·0.8 = 0.448.
	if a, _ := amp(w, 2); !close32(float64(a), 0.448) {
		t.Errorf("leaf: amplitude %v, want 0.448", a)
	}
}

func TestAnalyzeDeterministicBudgetedFinite(t *testing.T) {
	g := graphtest.PowerLaw(3000, 9000, 9)
	e := engine(t, nil)
	seeds := []graph.Scored{{Node: 5, Score: 1}, {Node: 1234, Score: 0.7}}
	a, err := e.Analyze(g, seeds)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := e.Analyze(g, seeds)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two identical analyses differ")
	}
	if len(a.Harmonics) == 0 || len(a.ResonantFrequencies) == 0 || len(a.WavePattern.Antinodes) == 0 || len(a.HarmonicGroups) == 0 {
		t.Fatalf("empty report: %+v", a)
	}
	checkReport(t, g, a, e.Params())

	small := engine(t, func(p *Params) { p.PulseBudget = 100; p.SweepBudget = 450 })
	c, _ := small.Analyze(g, seeds)
	if c.Stats.Pulses > 450 || !c.Stats.BudgetExhausted {
		t.Errorf("budgets: %+v", c.Stats)
	}
	if len(c.Stats.Frequencies) != 5 { // 100 per frequency, 450 in all
		t.Errorf("frequencies run under a 450 sweep budget: %v", c.Stats.Frequencies)
	}
	w, _ := small.StandingWave(g, seeds, 1)
	if w.Pulses > 100 || !w.BudgetExhausted {
		t.Errorf("standing wave pulses %d", w.Pulses)
	}
}

// checkReport verifies the invariants every report must hold.
func checkReport(t *testing.T, g *graph.Graph, r Report, p Params) {
	t.Helper()
	unit := func(what string, v float32) {
		if !graph.IsFinite(v) || v < 0 || v > 1 {
			t.Errorf("%s = %v, want in [0, 1]", what, v)
		}
	}
	for i, h := range r.Harmonics {
		unit("harmonic amplitude", h.Amplitude)
		if h.HarmonicOrder < 1 || h.HarmonicOrder > p.NumHarmonics {
			t.Errorf("harmonic order %d", h.HarmonicOrder)
		}
		if i > 0 && r.Harmonics[i-1].Amplitude < h.Amplitude {
			t.Error("harmonics not sorted")
		}
	}
	if len(r.Harmonics) > p.TopK || len(r.SympatheticPairs) > p.TopK || len(r.WavePattern.Antinodes) > p.TopK {
		t.Error("top_k exceeded")
	}
	for _, w := range r.WavePattern.Antinodes {
		unit("antinode amplitude", w.Amplitude)
		if !(w.Phase >= 0 && w.Phase < 2*math.Pi) {
			t.Errorf("phase %v outside [0, 2π)", w.Phase)
		}
	}
	for _, f := range r.ResonantFrequencies {
		unit("resonant energy", f.Energy)
	}
	// Sympathetic pairs lie outside the seeds' 2-hop neighbourhood and are
	// not adjacent.
	near := map[graph.NodeID]bool{}
	frontier := r.Seeds
	for _, s := range r.Seeds {
		near[s] = true
	}
	for hop := 0; hop < 2; hop++ {
		var next []graph.NodeID
		for _, u := range frontier {
			for _, nb := range g.Neighbors(u) {
				if !near[nb.Node] {
					near[nb.Node] = true
					next = append(next, nb.Node)
				}
			}
		}
		frontier = next
	}
	for _, sp := range r.SympatheticPairs {
		unit("coupling", sp.Coupling)
		if sp.Coupling < p.MinCoupling || near[sp.A] || near[sp.B] || len(g.EdgesBetween(sp.A, sp.B))+len(g.EdgesBetween(sp.B, sp.A)) > 0 || sp.A >= sp.B {
			t.Errorf("bad sympathetic pair %+v", sp)
		}
	}
}

// TestResonantFrequenciesAreLocalMaxima recomputes each sweep point's energy
// with StandingWave and checks the reported maxima against it.
func TestResonantFrequenciesAreLocalMaxima(t *testing.T) {
	g := graphtest.PowerLaw(800, 2400, 4)
	e := engine(t, func(p *Params) { p.NumHarmonics = 6; p.SweepSteps = 3 })
	seeds := []graph.Scored{{Node: 17, Score: 1}}
	r, err := e.Analyze(g, seeds)
	if err != nil {
		t.Fatal(err)
	}
	var energy []float64
	for _, f := range r.Stats.Frequencies {
		w, _ := e.StandingWave(g, seeds, f)
		energy = append(energy, float64(w.TotalEnergy))
	}
	var want []float32
	for i, v := range energy {
		if (i == 0 || v > energy[i-1]) && (i == len(energy)-1 || v >= energy[i+1]) {
			want = append(want, r.Stats.Frequencies[i])
		}
	}
	var got []float32
	for _, f := range r.ResonantFrequencies {
		got = append(got, f.Frequency)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("resonant frequencies %v, want %v (energies %v)", got, want, energy)
	}
	if math.Abs(float64(r.WavePattern.Frequency)-1) > 1e-6 {
		t.Errorf("wave pattern at %v, want the fundamental", r.WavePattern.Frequency)
	}
}

func TestPropertyRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	e := engine(t, func(p *Params) { p.PulseBudget = 5000; p.SweepBudget = 20000 })
	for trial := 0; trial < 20; trial++ {
		n := 20 + rng.IntN(600)
		g := graphtest.PowerLaw(n, n*(1+rng.IntN(6)), uint64(100+trial))
		var seeds []graph.Scored
		for i := 0; i < rng.IntN(4); i++ { // sometimes none: global resonance
			seeds = append(seeds, graph.Scored{Node: graph.NodeID(rng.IntN(n)), Score: rng.Float32()})
		}
		r, err := e.Analyze(g, seeds)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Seeds) == 0 {
			t.Fatalf("trial %d: no seeds (global resonance should pick some)", trial)
		}
		if r.Stats.Pulses > 20000 {
			t.Fatalf("trial %d: %d pulses over the sweep budget", trial, r.Stats.Pulses)
		}
		checkReport(t, g, r, e.Params())
	}
}

func TestValidation(t *testing.T) {
	g := chain(t, []string{"a"}, nil)
	e := engine(t, nil)
	if _, err := e.StandingWave(g, nil, 0); err == nil {
		t.Error("accepted frequency 0")
	}
	if _, err := e.Analyze(g, []graph.Scored{{Node: 7}}); err == nil {
		t.Error("accepted an out-of-range seed")
	}
	for _, f := range []func(*Params){
		func(p *Params) { p.Wavelength = 0 },
		func(p *Params) { p.Fundamental = float32(math.Inf(1)) },
		func(p *Params) { p.HubReflection = 1 },
		func(p *Params) { p.Damping = 0 },
	} {
		p := DefaultParams()
		f(&p)
		if _, err := New(p); err == nil {
			t.Errorf("New accepted %+v", p)
		}
	}
	// A lone node: the seed itself and nothing else.
	r, err := e.Analyze(g, nil)
	if err != nil || len(r.Harmonics) != 1 || r.Harmonics[0].Amplitude != 1 {
		t.Errorf("lone node: %+v, %v", r, err)
	}
}

func BenchmarkAnalyze(b *testing.B) {
	g := graphtest.PowerLaw(10000, 26000, 1)
	e := engine(b, nil)
	seeds := []graph.Scored{{Node: 42, Score: 1}, {Node: 4242, Score: 0.8}}
	for b.Loop() {
		if _, err := e.Analyze(g, seeds); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStandingWave(b *testing.B) {
	g := graphtest.PowerLaw(10000, 26000, 1)
	e := engine(b, nil)
	seeds := []graph.Scored{{Node: 42, Score: 1}}
	for b.Loop() {
		if _, err := e.StandingWave(g, seeds, 1); err != nil {
			b.Fatal(err)
		}
	}
}
