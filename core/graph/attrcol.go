package graph

// edgeAttr is what an edge carries that no query or learning writes: its
// relation, causal strength, declared direction, polarity, and whether it
// is the generated copy of a bidirectional edge.
type edgeAttr struct {
	rel        Str
	causal     float32
	dir        Direction
	inhibitory bool
	mirror     bool
}

func attrOf(r *edgeRecord) edgeAttr {
	return edgeAttr{rel: r.rel, causal: r.causal, dir: r.dir, inhibitory: r.inhibitory, mirror: r.flags&flagMirror != 0}
}

// attrMinShare is the shortest run of entries a splice shares with the
// base graph's column rather than copying: shorter runs would fragment
// the column for little saving. A variable so tests can share small runs.
var attrMinShare = 1024

// attrPageShift sizes the pages of attrCol's lookup table (2^10 entries,
// about attrMinShare: a lookup steps over a few pieces at most).
const attrPageShift = 10

// attrCol is a column of values only a build writes: the edge attributes
// (edgeAttr) and the nodes' names, types, tags and provenance (nodeAttr).
// A graph built whole holds it flat. A spliced graph holds it as pieces:
// the long runs of entries the splice kept are slices of the base graph's
// column, shared and never written, and the rest lies in one fresh
// allocation. A splice therefore copies only what it changed (and runs
// shorter than attrMinShare), and a reader of the base graph sees its
// column as it was.
type attrCol[T any] struct {
	flat   []T      // the column when it is one piece; nil with pieces
	starts []uint32 // len(pieces)+1: the index of each piece's first entry, then the length
	pieces [][]T    // read-only once built
	wholes [][]T    // per piece, the allocation it lies in (what it keeps alive)
	page   []uint32 // per page of 2^attrPageShift entries, the piece of its first entry
	// fast holds, per run of 2^attrFastShift entries lying in one piece,
	// those entries; nil where a run straddles two pieces.
	fast [][]T
	// frozen marks a column another graph may share: set when its graph
	// is finalized (a splice of it may then share its memory) and on every
	// column a splice builds. set and push copy a frozen column first.
	frozen bool
}

// attrFastShift sizes the runs of attrCol.fast (256 entries): edgeAt and
// nodeAt index a run by uint8(e), one node cheaper for the inliner than a
// mask, which keeps Relation and its kind inlined in the engines' loops.
const attrFastShift = 8

var _ = [1]int{}[attrFastShift-8] // uint8 indexes a run: fails to compile otherwise

// at is edge e's attributes; callers do not write through it.
func (c *attrCol[T]) at(e EdgeIdx) *T {
	if c.pieces == nil {
		return &c.flat[e]
	}
	if f := c.fast[e>>attrFastShift]; f != nil {
		return &f[uint8(e)]
	}
	return c.slow(e)
}

// slow is at through the page table.
func (c *attrCol[T]) slow(e EdgeIdx) *T {
	k := c.page[e>>attrPageShift]
	for c.starts[k+1] <= uint32(e) {
		k++
	}
	return &c.pieces[k][uint32(e)-c.starts[k]]
}

// len is the number of entries.
func (c *attrCol[T]) len() int {
	if c.pieces == nil {
		return len(c.flat)
	}
	return int(c.starts[len(c.pieces)])
}

// flatCopy returns the entries as one fresh slice.
func (c *attrCol[T]) flatCopy() []T {
	out := make([]T, 0, c.len())
	if c.pieces == nil {
		return append(out, c.flat...)
	}
	for _, p := range c.pieces {
		out = append(out, p...)
	}
	return out
}

// attrBuilder assembles a spliced graph's column in order from entries
// of its own and runs of a base graph's column.
type attrBuilder[T any] struct {
	starts   []uint32
	pieces   [][]T // nil for a fresh piece until finish
	wholes   [][]T
	freshOff []int // per piece, its offset in fresh; -1 when shared
	fresh    []T
	n        uint32
}

// add appends one entry of the builder's own.
func (b *attrBuilder[T]) add(a T) {
	if k := len(b.pieces) - 1; k < 0 || b.freshOff[k] < 0 {
		b.open(nil, nil, len(b.fresh))
	}
	b.fresh = append(b.fresh, a)
	b.n++
}

// open starts a piece at the current end: shared (p, in whole) or, with
// p nil, fresh from offset off.
func (b *attrBuilder[T]) open(p, whole []T, off int) {
	b.starts = append(b.starts, b.n)
	b.pieces = append(b.pieces, p)
	b.wholes = append(b.wholes, whole)
	b.freshOff = append(b.freshOff, off)
}

// share appends the entries [lo, hi) of old: each stretch of them lying
// in one of old's pieces is shared when it is at least attrMinShare long,
// and copied otherwise.
func (b *attrBuilder[T]) share(old *attrCol[T], lo, hi uint32) {
	old.runs(lo, hi, func(run, whole []T) {
		if len(run) >= attrMinShare {
			b.open(run, whole, -1)
			b.n += uint32(len(run))
			return
		}
		for _, a := range run {
			b.add(a)
		}
	})
}

// copies is how many of the entries [lo, hi) of old share copies.
func (old *attrCol[T]) copies(lo, hi uint32) int {
	n := 0
	old.runs(lo, hi, func(run, _ []T) {
		if len(run) < attrMinShare {
			n += len(run)
		}
	})
	return n
}

// reserve sizes the builder's fresh allocation for n entries of its own
// (add, and the runs share copies), so that it is allocated once.
func (b *attrBuilder[T]) reserve(n int) { b.fresh = make([]T, 0, n) }

// runs calls f with each stretch of c's entries [lo, hi) lying in one
// piece, and the allocation that piece lies in.
func (c *attrCol[T]) runs(lo, hi uint32, f func(run, whole []T)) {
	for lo < hi {
		p, whole, start := c.flat, c.flat, uint32(0)
		if c.pieces != nil {
			k := c.page[lo>>attrPageShift]
			for c.starts[k+1] <= lo {
				k++
			}
			p, whole, start = c.pieces[k], c.wholes[k], c.starts[k]
		}
		end := min(hi, start+uint32(len(p)))
		f(p[lo-start:end-start], whole)
		lo = end
	}
}

// finish returns the column. It is flat when it is one piece, and
// flattened when the allocations its pieces keep alive exceed twice its
// own size (a column spliced many times would otherwise hold every old
// generation's fragments).
func (b *attrBuilder[T]) finish() attrCol[T] {
	for k := range b.pieces {
		if b.freshOff[k] >= 0 {
			end := b.freshOff[k] + int(b.n-b.starts[k])
			if k+1 < len(b.starts) {
				end = b.freshOff[k] + int(b.starts[k+1]-b.starts[k])
			}
			b.pieces[k], b.wholes[k] = b.fresh[b.freshOff[k]:end:end], b.fresh
		}
	}
	c := attrCol[T]{starts: append(b.starts, b.n), pieces: b.pieces, wholes: b.wholes, frozen: true}
	switch {
	case len(b.pieces) == 0:
		return attrCol[T]{flat: []T{}, frozen: true}
	case c.retained() > 2*int(b.n)+attrMinShare:
		return attrCol[T]{flat: c.flatCopy(), frozen: true}
	case len(b.pieces) == 1:
		return attrCol[T]{flat: b.pieces[0], frozen: true}
	}
	c.page = make([]uint32, (b.n>>attrPageShift)+1)
	k := uint32(0)
	for i := range c.page {
		for c.starts[k+1] <= uint32(i)<<attrPageShift && int(k) < len(c.pieces)-1 {
			k++
		}
		c.page[i] = k
	}
	c.fast = make([][]T, (b.n>>attrFastShift)+1)
	k = 0
	for i := range c.fast {
		lo := uint32(i) << attrFastShift
		hi := min(b.n, lo+1<<attrFastShift)
		for int(k) < len(c.pieces)-1 && c.starts[k+1] <= lo {
			k++
		}
		if lo < hi && c.starts[k+1] >= hi {
			c.fast[i] = c.pieces[k][lo-c.starts[k] : hi-c.starts[k]]
		}
	}
	return c
}

// retained is about the number of entries the allocations of c's pieces
// hold: an allocation is known by its last entry, and counted from the
// earliest start c knows of it.
func (c *attrCol[T]) retained() int {
	if c.pieces == nil {
		return cap(c.flat)
	}
	longest := map[*T]int{}
	for _, w := range c.wholes {
		if w = w[:cap(w)]; len(w) > 0 {
			end := &w[len(w)-1]
			longest[end] = max(longest[end], len(w))
		}
	}
	total := 0
	for _, n := range longest {
		total += n
	}
	return total
}

// own makes c a flat column of its own, copying it when it may be shared
// (frozen), so that set and push write memory no other graph reads.
func (c *attrCol[T]) own() {
	if c.frozen {
		*c = attrCol[T]{flat: c.flatCopy()}
	}
}

// set writes entry i of a column c owns (copied first when frozen).
func (c *attrCol[T]) set(i int, v T) {
	c.own()
	c.flat[i] = v
}

// push appends an entry (to a copy first when frozen).
func (c *attrCol[T]) push(v T) {
	c.own()
	c.flat = append(c.flat, v)
}

// edgeAt is attrs.at written out for the edge column, and nodeAt for the
// node column: called through the generic method, the dictionary it
// passes to slow puts the accessors (Relation, Inhibitory, TagStrs, ...)
// over the inliner's budget, and the engines call them per edge.
func edgeAt(c *attrCol[edgeAttr], e EdgeIdx) *edgeAttr {
	if c.pieces == nil {
		return &c.flat[e]
	}
	if f := c.fast[e>>attrFastShift]; f != nil {
		return &f[uint8(e)]
	}
	return edgeSlow(c, e)
}

// edgeSlow is edgeAt through the page table.
func edgeSlow(c *attrCol[edgeAttr], e EdgeIdx) *edgeAttr {
	k := c.page[e>>attrPageShift]
	for c.starts[k+1] <= uint32(e) {
		k++
	}
	return &c.pieces[k][uint32(e)-c.starts[k]]
}
