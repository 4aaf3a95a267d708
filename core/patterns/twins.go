package patterns

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"
	"unsafe"

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
// immutable and safe for concurrent use; build it once per graph
// (NewTwinIndex, or a TwinBuilder fed by several goroutines).
//
// Why flat arrays and sketch blocks rather than a []Unit and a slice per
// class: on go-std the index holds ≈ 48 K units and 45 K classes; a Unit
// is 280 bytes and a class slice a separate small allocation, so the
// units were copied twice on the way in (held whole while the index was
// built) and the classes were 45 K objects for the collector to scan
// (issue 29).
type TwinIndex struct {
	// units, by node: what a pair's score reads besides the sketch.
	units    []unitRec
	sketches sketchStore
	// Class c's members are classMembers[classStart[c]:classStart[c+1]]
	// (indexes into units, ascending); the first stands for the class.
	classStart, classMembers []int32
	// Bucket k lists bucketClasses[bucketStart[k]:bucketStart[k+1]]
	// (ascending): the classes that share one band of their sketches;
	// only buckets of two or more are kept, by band then key.
	bucketStart, bucketClasses []int32
	small                      int
}

// unitRec is a unit as the index keeps it: its sketch is sketches[sketch].
type unitRec struct {
	node   graph.NodeID
	tokens int32
	exact  uint64
	sketch int32
}

// sketchBlock is how many sketches one block of a sketchStore holds
// (128 KiB): fixed blocks grow without copying what is held already.
const sketchBlock = 512

// sketchStore holds sketches in fixed blocks.
type sketchStore []*[sketchBlock][SketchSize]uint32

func (s sketchStore) at(i int32) *[SketchSize]uint32 { return &s[i/sketchBlock][i%sketchBlock] }

// TwinBuilder collects the units of a TwinIndex, from several goroutines
// at once. Units of fewer than its minTokens tokens are only counted:
// short bodies (getters, one-line wrappers) look alike without being
// copies.
type TwinBuilder struct {
	mu        sync.Mutex
	minTokens int32
	units     []unitRec
	sketches  sketchStore
	small     int
}

// NewTwinBuilder starts an index whose units have at least minTokens
// tokens (0: DefaultMinTokens).
func NewTwinBuilder(minTokens int) *TwinBuilder {
	if minTokens <= 0 {
		minTokens = DefaultMinTokens
	}
	return &TwinBuilder{minTokens: int32(min(minTokens, math.MaxInt32))}
}

// Add takes units; the caller may reuse the slice once Add returns.
func (b *TwinBuilder) Add(units ...Unit) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := range units {
		u := &units[i]
		if u.Shape.Tokens < int(b.minTokens) {
			b.small++
			continue
		}
		n := int32(len(b.units))
		if int(n)%sketchBlock == 0 {
			b.sketches = append(b.sketches, new([sketchBlock][SketchSize]uint32))
		}
		*b.sketches.at(n) = u.Shape.Sketch
		b.units = append(b.units, unitRec{node: u.Node, tokens: int32(min(u.Shape.Tokens, math.MaxInt32)), exact: u.Shape.Exact, sketch: n})
	}
}

// Index groups the units into classes and buckets. The builder must not
// be used after.
func (b *TwinBuilder) Index() *TwinIndex {
	b.mu.Lock()
	defer b.mu.Unlock()
	// Exactly sized: the index keeps them for the graph's lifetime.
	x := &TwinIndex{units: make([]unitRec, len(b.units)), sketches: b.sketches, small: b.small}
	copy(x.units, b.units)
	b.units, b.sketches = nil, nil
	slices.SortFunc(x.units, func(a, b unitRec) int { return cmp.Compare(a.node, b.node) })
	x.groupClasses()
	x.fillBuckets()
	x.dropUnreadSketches()
	return x
}

// noSketch marks a unit whose sketch the index does not keep.
const noSketch = -1

// dropUnreadSketches keeps the sketches of the units whose class is in a
// bucket only. Why: a sketch is read when two units of different classes
// are scored, and Twins scores those only as representatives of the
// classes of one bucket; units of one class are equal up to renaming and
// scored by their exact hash. The rest are most of the sketches held for
// the graph's lifetime (issue 29).
func (x *TwinIndex) dropUnreadSketches() {
	read := make([]bool, x.classes())
	for _, c := range x.bucketClasses {
		read[c] = true
	}
	var kept sketchStore
	n := int32(0)
	for c, ok := range read {
		for _, i := range x.class(c) {
			u := &x.units[i]
			if !ok {
				u.sketch = noSketch
				continue
			}
			if int(n)%sketchBlock == 0 {
				kept = append(kept, new([sketchBlock][SketchSize]uint32))
			}
			*kept.at(n) = *x.sketches.at(u.sketch)
			u.sketch = n
			n++
		}
	}
	x.sketches = kept
}

// NewTwinIndex indexes units; those of fewer than minTokens tokens (0:
// DefaultMinTokens) are left out — short bodies (getters, one-line
// wrappers) look alike without being copies.
func NewTwinIndex(units []Unit, minTokens int) *TwinIndex {
	b := NewTwinBuilder(minTokens)
	b.Add(units...)
	return b.Index()
}

// groupClasses numbers the classes of units equal up to renaming in the
// order of their first unit, and lists each class's members.
func (x *TwinIndex) groupClasses() {
	type exactKey struct {
		h uint64
		n int32
	}
	classOf := make([]int32, len(x.units))
	ids := make(map[exactKey]int32, len(x.units))
	for i, u := range x.units {
		k := exactKey{u.exact, u.tokens}
		c, ok := ids[k]
		if !ok {
			c = int32(len(ids))
			ids[k] = c
		}
		classOf[i] = c
	}
	x.classStart = make([]int32, len(ids)+1)
	for _, c := range classOf {
		x.classStart[c+1]++
	}
	for c := range len(ids) {
		x.classStart[c+1] += x.classStart[c]
	}
	x.classMembers = make([]int32, len(x.units))
	next := slices.Clone(x.classStart[:len(ids)])
	for i, c := range classOf {
		x.classMembers[next[c]] = int32(i)
		next[c]++
	}
}

func (x *TwinIndex) classes() int { return len(x.classStart) - 1 }

func (x *TwinIndex) class(c int) []int32 {
	return x.classMembers[x.classStart[c]:x.classStart[c+1]]
}

// fillBuckets makes each band's buckets: the classes sorted by the band's
// key (then class), runs of two or more kept.
func (x *TwinIndex) fillBuckets() {
	type keyed struct {
		k uint64
		c int32
	}
	byKey := make([]keyed, x.classes())
	x.bucketStart = []int32{0}
	for band := range lshBands {
		for c := range byKey {
			byKey[c] = keyed{bandKey(x.sketches.at(x.units[x.class(c)[0]].sketch), band), int32(c)}
		}
		slices.SortFunc(byKey, func(a, b keyed) int { return cmp.Or(cmp.Compare(a.k, b.k), cmp.Compare(a.c, b.c)) })
		for lo := 0; lo < len(byKey); {
			hi := lo + 1
			for hi < len(byKey) && byKey[hi].k == byKey[lo].k {
				hi++
			}
			if hi-lo > 1 {
				for _, e := range byKey[lo:hi] {
					x.bucketClasses = append(x.bucketClasses, e.c)
				}
				x.bucketStart = append(x.bucketStart, int32(len(x.bucketClasses)))
			}
			lo = hi
		}
	}
	x.bucketClasses = slices.Clip(x.bucketClasses)
	x.bucketStart = slices.Clip(x.bucketStart)
}

func (x *TwinIndex) buckets() int { return len(x.bucketStart) - 1 }

func (x *TwinIndex) bucket(k int) []int32 {
	return x.bucketClasses[x.bucketStart[k]:x.bucketStart[k+1]]
}

// TwinIndexStats describes an index's size.
type TwinIndexStats struct {
	Units, Classes, Buckets int
	// Bucketed counts the units whose class is in some bucket: the only
	// ones whose sketch a pair of different classes compares.
	Bucketed int
	// Bytes is what the index holds (its arrays and sketch blocks).
	Bytes int
}

// Stats measures x.
func (x *TwinIndex) Stats() TwinIndexStats {
	in := make([]bool, x.classes())
	for _, c := range x.bucketClasses {
		in[c] = true
	}
	st := TwinIndexStats{Units: len(x.units), Classes: x.classes(), Buckets: x.buckets()}
	for c, ok := range in {
		if ok {
			st.Bucketed += len(x.class(c))
		}
	}
	st.Bytes = cap(x.units)*int(unsafe.Sizeof(unitRec{})) + len(x.sketches)*sketchBlock*SketchSize*4 +
		4*(cap(x.classStart)+cap(x.classMembers)+cap(x.bucketStart)+cap(x.bucketClasses))
	return st
}

// Units is the number of units indexed; Short those left out as too short.
func (x *TwinIndex) Units() int { return len(x.units) }
func (x *TwinIndex) Short() int { return x.small }

func bandKey(s *[SketchSize]uint32, band int) uint64 {
	h := uint64(band) + 1
	for _, v := range s[band*lshRows : (band+1)*lshRows] {
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
	kept := make([][]int32, x.classes())
	for c := range kept {
		for _, i := range x.class(c) {
			if p.Keep == nil || p.Keep(x.units[i].node) {
				kept[c] = append(kept[c], i)
			}
		}
		res.Units += len(kept[c])
	}
	seen := map[uint64]bool{}
	deps := map[graph.NodeID][]graph.NodeID{}
	var out []Twin
	focus := func(i int32) bool { return p.Focus == nil || p.Focus(x.units[i].node) }
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
		if t, ok := x.compare(g, i, j, deps, p.Threshold); ok {
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
	for k := range x.buckets() {
		reps = reps[:0]
		for _, c := range x.bucket(k) {
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

// compare scores one candidate pair of units.
func (x *TwinIndex) compare(g *graph.Graph, i, j int32, deps map[graph.NodeID][]graph.NodeID, threshold float64) (Twin, bool) {
	a, b := &x.units[i], &x.units[j]
	body := x.similarity(a, b)
	// The blend can only lower a body's score by (1-bodyWeight).
	if body < threshold || nested(g, a.node, b.node) {
		return Twin{}, false
	}
	if a.node > b.node {
		a, b = b, a
	}
	t := Twin{A: a.node, B: b.node, Body: body, Exact: body == 1, Similarity: body, Neighbourhood: -1, Tokens: int(min(a.tokens, b.tokens))}
	da, db := depsOf(g, a.node, deps), depsOf(g, b.node, deps)
	if len(da)+len(db) > 0 {
		t.Shared = intersect(da, db)
		t.Neighbourhood = float64(t.Shared) / float64(len(da)+len(db)-t.Shared)
		t.Similarity = bodyWeight*body + (1-bodyWeight)*t.Neighbourhood
	}
	t.Similarity = round3(t.Similarity)
	return t, t.Similarity >= threshold
}

// similarity is Shape.Similarity of two units' shapes.
func (x *TwinIndex) similarity(a, b *unitRec) float64 {
	if a.exact == b.exact && a.tokens == b.tokens {
		return 1
	}
	if a.sketch == noSketch || b.sketch == noSketch {
		return 0 // never: both are in a bucket (dropUnreadSketches)
	}
	return sketchSimilarity(x.sketches.at(a.sketch), x.sketches.at(b.sketch))
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
