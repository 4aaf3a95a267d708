package patterns

import (
	"cmp"
	"math"
	"slices"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Fingerprints are nodes' activation patterns under a set of probe
// queries (docs/design.md#patterns): a node's vector holds its
// activation under each probe, and two nodes whose vectors point the
// same way answer the same questions the same way.
type Fingerprints struct {
	probes int
	vec    map[graph.NodeID][]float32
	// norm holds the vectors standardised per probe (see standardise).
	norm map[graph.NodeID][]float32
}

// NewFingerprints holds patterns over probes probe queries.
func NewFingerprints(probes int) *Fingerprints {
	return &Fingerprints{probes: probes, vec: map[graph.NodeID][]float32{}}
}

// Add records n's activation under probe i.
func (f *Fingerprints) Add(i int, n graph.NodeID, activation float32) {
	v := f.vec[n]
	if v == nil {
		v = make([]float32, f.probes)
		f.vec[n] = v
	}
	v[i] = graph.Finite(activation)
	f.norm = nil
}

// standardise centres and scales each probe's activations over the
// nodes fingerprinted: a query lights most of a small graph a little,
// and that common part would make every pair of raw vectors look alike.
// What is compared is how a node departs from the probe's average — the
// cosine of standardised vectors is their correlation.
func (f *Fingerprints) standardise() {
	if f.norm != nil {
		return
	}
	f.norm = make(map[graph.NodeID][]float32, len(f.vec))
	mean, sd := make([]float64, f.probes), make([]float64, f.probes)
	n := float64(len(f.vec))
	for _, v := range f.vec {
		for i, x := range v {
			mean[i] += float64(x) / n
		}
	}
	for _, v := range f.vec {
		for i, x := range v {
			d := float64(x) - mean[i]
			sd[i] += d * d / n
		}
	}
	for i := range sd {
		sd[i] = math.Sqrt(sd[i])
	}
	for id, v := range f.vec {
		z := make([]float32, f.probes)
		for i, x := range v {
			if sd[i] > 0 {
				z[i] = float32((float64(x) - mean[i]) / sd[i])
			}
		}
		f.norm[id] = z
	}
}

// Of is n's fingerprint (zeros when no probe activated it).
func (f *Fingerprints) Of(n graph.NodeID) []float32 {
	if v := f.vec[n]; v != nil {
		return v
	}
	return make([]float32, f.probes)
}

// Cosine is the cosine similarity of two vectors (0 when either is zero).
func Cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range min(len(a), len(b)) {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return graph.Finite64(dot / math.Sqrt(na*nb))
}

// Equivalent is a node whose fingerprint matches another's.
type Equivalent struct {
	Node       graph.NodeID
	Other      graph.NodeID // the node it matches (global pairs); unset for a target's equivalents
	Similarity float64
	// Shared counts the probes that activated both.
	Shared int
}

// EquivalentParams configures Equivalents and Pairs.
type EquivalentParams struct {
	Threshold float64
	// MinShared is the least number of probes activating both (0: 2, or
	// 1 with a single probe): one shared probe makes any two vectors
	// parallel.
	MinShared int
	// Keep admits candidates (the same kind of node, not a neighbour).
	Keep func(graph.NodeID) bool
	// TopK bounds the answer (0: 20); MaxNodes the nodes Pairs compares,
	// the most activated first (0: 1,000).
	TopK, MaxNodes int
}

func (p *EquivalentParams) defaults(probes int) {
	p.MinShared = cmp.Or(p.MinShared, min(2, probes))
	p.TopK = cmp.Or(p.TopK, 20)
	p.MaxNodes = cmp.Or(p.MaxNodes, 1000)
}

func shared(a, b []float32) int {
	n := 0
	for i := range min(len(a), len(b)) {
		if a[i] > 0 && b[i] > 0 {
			n++
		}
	}
	return n
}

func sortEquivalents(e []Equivalent) {
	slices.SortFunc(e, func(a, b Equivalent) int {
		return cmp.Or(cmp.Compare(b.Similarity, a.Similarity), cmp.Compare(b.Shared, a.Shared), cmp.Compare(a.Other, b.Other), cmp.Compare(a.Node, b.Node))
	})
}

// Equivalents lists the nodes whose standardised fingerprint is within
// the threshold (cosine) of target's, most similar first (ties by shared probes, then NodeID),
// and how many there are in all.
func (f *Fingerprints) Equivalents(target graph.NodeID, p EquivalentParams) ([]Equivalent, int) {
	p.defaults(f.probes)
	f.standardise()
	t, tz := f.Of(target), f.norm[target]
	var out []Equivalent
	for n, v := range f.vec {
		if n == target || (p.Keep != nil && !p.Keep(n)) {
			continue
		}
		if s := shared(t, v); s >= p.MinShared {
			if c := round3(Cosine(tz, f.norm[n])); c >= p.Threshold {
				out = append(out, Equivalent{Node: n, Similarity: c, Shared: s})
			}
		}
	}
	sortEquivalents(out)
	return out[:min(len(out), p.TopK)], len(out)
}

// Pairs is the global form: pairs of nodes (Other < Node) whose
// fingerprints match, among the MaxNodes most activated nodes activated
// by at least MinShared probes; keep(a, b) says whether two nodes may
// pair (nil: any). It returns the top pairs and how many there are.
func (f *Fingerprints) Pairs(p EquivalentParams, keep func(a, b graph.NodeID) bool) ([]Equivalent, int) {
	p.defaults(f.probes)
	f.standardise()
	type cand struct {
		n    graph.NodeID
		mass float32
	}
	var cs []cand
	for n, v := range f.vec {
		if p.Keep != nil && !p.Keep(n) {
			continue
		}
		var mass float32
		hits := 0
		for _, x := range v {
			mass += x
			if x > 0 {
				hits++
			}
		}
		if hits >= p.MinShared {
			cs = append(cs, cand{n, mass})
		}
	}
	slices.SortFunc(cs, func(a, b cand) int { return cmp.Or(cmp.Compare(b.mass, a.mass), cmp.Compare(a.n, b.n)) })
	cs = cs[:min(len(cs), p.MaxNodes)]
	var out []Equivalent
	for i := range cs {
		for j := i + 1; j < len(cs); j++ {
			a, b := min(cs[i].n, cs[j].n), max(cs[i].n, cs[j].n)
			va, vb := f.vec[a], f.vec[b]
			s := shared(va, vb)
			if s < p.MinShared {
				continue
			}
			// keep may walk the graph: asked last, of close pairs only.
			if c := round3(Cosine(f.norm[a], f.norm[b])); c >= p.Threshold && (keep == nil || keep(a, b)) {
				out = append(out, Equivalent{Node: b, Other: a, Similarity: c, Shared: s})
			}
		}
	}
	sortEquivalents(out)
	return out[:min(len(out), p.TopK)], len(out)
}

// Len is the number of nodes some probe activated.
func (f *Fingerprints) Len() int { return len(f.vec) }
