package patterns

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
)

// LSH layout: a pair whose sketches agree on all rows of one band becomes
// a candidate. With 16 bands of 4 rows a pair of Jaccard 0.8 is a
// candidate with probability 0.99, one of 0.5 with 0.64, one of 0.3 with
// 0.12: the work follows the similar pairs, not the number of pairs.
const (
	lshBands = 16
	lshRows  = SketchSize / lshBands
)

// Defaults of TwinParams (docs/design.md#patterns).
const (
	DefaultTwinThreshold = 0.8
	DefaultMinTokens     = 30
	DefaultMaxBucket     = 16
	DefaultMaxPairs      = 50_000
	// bodyWeight is the body shape's share of a pair's similarity when
	// either unit has dependencies (the rest is their neighbourhood).
	bodyWeight = 0.8
)

// Unit is a node whose body Twins compares: its node and its body's Shape.
type Unit struct {
	Node  graph.NodeID
	Shape Shape
}

// TwinIndex holds the units of a graph grouped into classes of bodies
// equal up to renaming, and the LSH buckets of the classes. It is
// immutable and safe for concurrent use; build it once per graph.
type TwinIndex struct {
	units []Unit
	// classes[c] lists the units (indexes into units, ascending) whose
	// bodies are equal up to renaming; the first stands for the class.
	classes [][]int32
	// buckets lists the classes (ascending) that share one band of their
	// sketches; only buckets of two or more are kept.
	buckets [][]int32
	small   int
}

// NewTwinIndex indexes units; those of fewer than minTokens tokens (0:
// DefaultMinTokens) are left out — short bodies (getters, one-line
// wrappers) look alike without being copies.
func NewTwinIndex(units []Unit, minTokens int) *TwinIndex {
	if minTokens <= 0 {
		minTokens = DefaultMinTokens
	}
	x := &TwinIndex{units: keptUnits(units, minTokens)}
	x.small = len(units) - len(x.units)
	slices.SortFunc(x.units, func(a, b Unit) int { return cmp.Compare(a.Node, b.Node) })
	type exactKey struct {
		h uint64
		n int
	}
	classOf := map[exactKey]int{}
	for i, u := range x.units {
		k := exactKey{u.Shape.Exact, u.Shape.Tokens}
		c, ok := classOf[k]
		if !ok {
			c = len(x.classes)
			classOf[k] = c
			x.classes = append(x.classes, nil)
		}
		x.classes[c] = append(x.classes[c], int32(i))
	}
	for band := range lshBands {
		m := map[uint64][]int32{}
		for c, members := range x.classes {
			k := bandKey(&x.units[members[0]].Shape, band)
			m[k] = append(m[k], int32(c))
		}
		keys := make([]uint64, 0, len(m))
		for k, v := range m {
			if len(v) > 1 {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			x.buckets = append(x.buckets, m[k])
		}
	}
	return x
}

// keptUnits copies the units of at least minTokens tokens into a slice of
// exactly their number. Why exact: a Unit is ≈ 280 bytes (its sketch), so
// on go-std the kept units are ≈ 16 MB held for the graph's lifetime; grown
// by append they were held with a quarter or more of spare capacity (1375
// for 1000 units), and each growth's old array was garbage on top of the
// caller's units at the top of the server's warm-up after an ingest (issue
// 29).
func keptUnits(units []Unit, minTokens int) []Unit {
	n := 0
	for i := range units {
		if units[i].Shape.Tokens >= minTokens {
			n++
		}
	}
	kept := make([]Unit, 0, n)
	for i := range units {
		if units[i].Shape.Tokens >= minTokens {
			kept = append(kept, units[i])
		}
	}
	return kept
}

// Units is the number of units indexed; Short those left out as too short.
func (x *TwinIndex) Units() int { return len(x.units) }
func (x *TwinIndex) Short() int { return x.small }

func bandKey(s *Shape, band int) uint64 {
	h := uint64(band) + 1
	for _, v := range s.Sketch[band*lshRows : (band+1)*lshRows] {
		h = mix(h ^ uint64(v))
	}
	return h
}

// TwinParams configures Twins.
type TwinParams struct {
	// Threshold is the least similarity reported (0: DefaultTwinThreshold).
	Threshold float64
	// Keep, when set, restricts both units of a pair (node types).
	Keep func(graph.NodeID) bool
	// Focus, when set, restricts pairs to those with at least one unit it
	// admits (new code, a directory): what its twins are anywhere.
	Focus func(graph.NodeID) bool
	// MaxBucket bounds the pairs one LSH bucket makes: a larger bucket (a
	// family of generated functions) pairs each class with the next one
	// only. 0: DefaultMaxBucket.
	MaxBucket int
	// MaxPairs bounds the candidate pairs compared (0: DefaultMaxPairs).
	MaxPairs int
	// TopK bounds the twins returned (0: all); Total counts them all.
	TopK int
}

// Twin is a pair of near-duplicate units, A < B.
type Twin struct {
	A, B graph.NodeID
	// Similarity is what ranks the pair: Body, blended with Neighbourhood
	// when either unit depends on anything.
	Similarity float64
	// Body estimates the Jaccard similarity of the normalised bodies;
	// Exact says they are equal up to renaming.
	Body  float64
	Exact bool
	// Neighbourhood is the Jaccard similarity of the nodes A and B depend
	// on (-1 when neither depends on anything); Shared counts those both
	// depend on.
	Neighbourhood float64
	Shared        int
	// Tokens is the smaller body's size in tokens.
	Tokens int
}

// Reason says in words why the pair is reported.
func (t Twin) Reason() string {
	body := fmt.Sprintf("bodies %.0f%% alike after renaming", t.Body*100)
	if t.Exact {
		body = "same body up to renaming"
	}
	if t.Neighbourhood < 0 {
		return body
	}
	return fmt.Sprintf("%s; %d shared dependencies (neighbourhood %.0f%% alike)", body, t.Shared, t.Neighbourhood*100)
}

// TwinResult is Twins' answer.
type TwinResult struct {
	Twins []Twin
	// Total counts the pairs at or above the threshold; Candidates the
	// pairs compared; Units the units that Keep admitted.
	Total, Candidates, Units int
	// Truncated: MaxPairs stopped the comparison, or a bucket was thinned.
	Truncated bool
}

// Twins finds the near-duplicate pairs among x's units, most similar
// first, then largest (ties by A, then B). Units equal up to renaming
// form a class: its first admitted unit is paired with each other one,
// and stands for the class in pairs with other classes. A unit is never
// paired with one nested in it.
func Twins(g *graph.Graph, x *TwinIndex, p TwinParams) TwinResult {
	if p.Threshold <= 0 {
		p.Threshold = DefaultTwinThreshold
	}
	p.MaxBucket = cmp.Or(p.MaxBucket, DefaultMaxBucket)
	p.MaxPairs = cmp.Or(p.MaxPairs, DefaultMaxPairs)
	var res TwinResult
	// kept[c] are the admitted members of class c.
	kept := make([][]int32, len(x.classes))
	for c, members := range x.classes {
		for _, i := range members {
			if p.Keep == nil || p.Keep(x.units[i].Node) {
				kept[c] = append(kept[c], i)
			}
		}
		res.Units += len(kept[c])
	}
	seen := map[uint64]bool{}
	deps := map[graph.NodeID][]graph.NodeID{}
	var out []Twin
	focus := func(i int32) bool { return p.Focus == nil || p.Focus(x.units[i].Node) }
	try := func(i, j int32) {
		if !focus(i) && !focus(j) {
			return
		}
		key := uint64(min(i, j))<<32 | uint64(max(i, j))
		if seen[key] {
			return
		}
		seen[key] = true
		res.Candidates++
		if t, ok := compare(g, &x.units[i], &x.units[j], deps, p.Threshold); ok {
			out = append(out, t)
		}
	}
	// A class is a star: its first admitted unit with each other one
	// (they are all equal up to renaming; Copies counts them).
	star := func(members []int32) {
		for _, m := range members[1:] {
			try(members[0], m)
		}
	}
	for _, m := range kept {
		if len(m) > 1 {
			star(m)
		}
	}
	// A class's representative: its first member in focus, else its first.
	rep := func(members []int32) int32 {
		for _, m := range members {
			if focus(m) {
				return m
			}
		}
		return members[0]
	}
	var reps []int32
	for _, b := range x.buckets {
		reps = reps[:0]
		for _, c := range b {
			if len(kept[c]) > 0 {
				reps = append(reps, rep(kept[c]))
			}
		}
		if len(reps) > p.MaxBucket { // a generated family: each with the next
			res.Truncated = true
			for k := 1; k < len(reps); k++ {
				try(reps[k-1], reps[k])
			}
			continue
		}
		for k := range reps {
			for l := k + 1; l < len(reps); l++ {
				try(reps[k], reps[l])
			}
		}
		if res.Candidates >= p.MaxPairs {
			res.Truncated = true
			break
		}
	}
	slices.SortFunc(out, func(a, b Twin) int {
		return cmp.Or(cmp.Compare(b.Similarity, a.Similarity), cmp.Compare(b.Tokens, a.Tokens), cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B))
	})
	res.Total = len(out)
	if p.TopK > 0 && len(out) > p.TopK {
		out = out[:p.TopK]
	}
	res.Twins = out
	return res
}

// compare scores one candidate pair.
func compare(g *graph.Graph, a, b *Unit, deps map[graph.NodeID][]graph.NodeID, threshold float64) (Twin, bool) {
	body := a.Shape.Similarity(&b.Shape)
	// The blend can only lower a body's score by (1-bodyWeight).
	if body < threshold || nested(g, a.Node, b.Node) {
		return Twin{}, false
	}
	if a.Node > b.Node {
		a, b = b, a
	}
	t := Twin{A: a.Node, B: b.Node, Body: body, Exact: body == 1, Similarity: body, Neighbourhood: -1, Tokens: min(a.Shape.Tokens, b.Shape.Tokens)}
	da, db := depsOf(g, a.Node, deps), depsOf(g, b.Node, deps)
	if len(da)+len(db) > 0 {
		t.Shared = intersect(da, db)
		t.Neighbourhood = float64(t.Shared) / float64(len(da)+len(db)-t.Shared)
		t.Similarity = bodyWeight*body + (1-bodyWeight)*t.Neighbourhood
	}
	t.Similarity = round3(t.Similarity)
	return t, t.Similarity >= threshold
}

// nested reports whether one node's source span holds the other's.
func nested(g *graph.Graph, a, b graph.NodeID) bool {
	pa, pb := g.Provenance(a), g.Provenance(b)
	if pa.SourcePath != pb.SourcePath {
		return false
	}
	return pa.LineStart <= pb.LineEnd && pb.LineStart <= pa.LineEnd
}

// depsOf is the sorted set of nodes n depends on (calls, references,
// imports, inheritance …; never containment), memoised in deps.
func depsOf(g *graph.Graph, n graph.NodeID, deps map[graph.NodeID][]graph.NodeID) []graph.NodeID {
	if d, ok := deps[n]; ok {
		return d
	}
	var d []graph.NodeID
	lo, hi := g.OutRange(n)
	for e := lo; e < hi; e++ {
		if !g.IsMirror(e) && analysis.ClassifyRelation(g.RelationName(e)) == analysis.DependsOn && g.Target(e) != n {
			d = append(d, g.Target(e))
		}
	}
	slices.Sort(d)
	d = slices.Compact(d)
	deps[n] = d
	return d
}

func intersect(a, b []graph.NodeID) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			n++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return n
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }
