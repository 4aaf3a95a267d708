package graph

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// Raw is a finalized graph as plain arrays: what a binary snapshot stores so
// that loading skips sorting, deduplication and PageRank. Strings are held
// in Strings and referenced by index (0 is the empty string).
type Raw struct {
	Generation uint64
	Strings    []string

	// Per node.
	ExternalID      []uint32
	Label           []uint32
	Type            []NodeType
	TagOffsets      []uint32 // len nodes+1, into Tags
	Tags            []uint32
	LastModified    []float64
	ChangeFrequency []float32
	PageRank        []float32
	SourcePath      []uint32
	Excerpt         []uint32
	Namespace       []uint32
	LineStart       []uint32
	LineEnd         []uint32
	Canonical       []bool

	// Forward CSR, every entry including bidirectional mirrors.
	Offsets    []uint32 // len nodes+1
	Targets    []uint32
	Weights    []float32
	Relations  []uint32
	Directions []Direction
	Inhibitory []bool
	Causal     []float32
	Mirror     []bool
	Original   []float32
	Strengthen []uint16
	Weaken     []uint16
	LTP        []bool
	LTD        []bool
}

// ToRaw exports a finalized graph. Strings are renumbered densely in first
// use order, so unused interned strings are dropped.
func (g *Graph) ToRaw() (*Raw, error) {
	if !g.Finalized() {
		return nil, ErrNotFinalized
	}
	n, m := g.NumNodes(), g.NumEdges()
	remap := map[Str]uint32{0: 0}
	r := &Raw{Generation: uint64(g.gen), Strings: []string{""}}
	str := func(h Str) uint32 {
		if i, ok := remap[h]; ok {
			return i
		}
		i := uint32(len(r.Strings))
		r.Strings = append(r.Strings, g.strings.String(h))
		remap[h] = i
		return i
	}
	r.ExternalID = make([]uint32, n)
	for i := range n {
		// External IDs are not interned in the graph; each gets its own slot.
		r.ExternalID[i] = uint32(len(r.Strings))
		r.Strings = append(r.Strings, g.nodes.attr(NodeID(i)).externalID)
	}
	r.Label = make([]uint32, n)
	r.Type = append([]NodeType(nil), g.nodes.nodeType...)
	r.TagOffsets = make([]uint32, n+1)
	r.LastModified = append([]float64(nil), g.nodes.lastModified...)
	r.ChangeFrequency = append([]float32(nil), g.nodes.changeFrequency...)
	r.PageRank = append([]float32(nil), g.nodes.PageRank...)
	r.SourcePath = make([]uint32, n)
	r.Excerpt = make([]uint32, n)
	r.Namespace = make([]uint32, n)
	r.LineStart = make([]uint32, n)
	r.LineEnd = make([]uint32, n)
	r.Canonical = make([]bool, n)
	for i := 0; i < n; i++ {
		a := g.nodes.attr(NodeID(i))
		r.Label[i] = str(g.nodes.label[i])
		for _, t := range a.tags {
			r.Tags = append(r.Tags, str(t))
		}
		r.TagOffsets[i+1] = uint32(len(r.Tags))
		p := &a.prov
		r.SourcePath[i] = str(p.sourcePath)
		r.Excerpt[i] = str(p.excerpt)
		r.Namespace[i] = str(p.namespace)
		r.LineStart[i], r.LineEnd[i], r.Canonical[i] = p.lineStart, p.lineEnd, p.canonical
	}
	c := &g.csr
	r.Offsets = append([]uint32(nil), c.offsets...)
	r.Targets = make([]uint32, m)
	r.Weights = make([]float32, m)
	r.Relations = make([]uint32, m)
	r.Directions, r.Inhibitory = make([]Direction, m), make([]bool, m)
	r.Causal, r.Mirror = make([]float32, m), make([]bool, m)
	for e := 0; e < m; e++ {
		r.Targets[e] = uint32(c.targets[e])
		r.Weights[e] = math.Float32frombits(c.weights[e].Load())
		a := c.attrs.at(EdgeIdx(e))
		r.Relations[e] = str(a.rel)
		r.Directions[e], r.Inhibitory[e], r.Causal[e], r.Mirror[e] = a.dir, a.inhibitory, a.causal, a.mirror
	}
	lp := c.learning()
	r.Original = append([]float32(nil), lp.Original...)
	if lp.Strengthen == nil && m > 0 { // all zero, not allocated
		r.Strengthen, r.Weaken, r.LTP, r.LTD = make([]uint16, m), make([]uint16, m), make([]bool, m), make([]bool, m)
		return r, nil
	}
	r.Strengthen = append([]uint16(nil), lp.Strengthen...)
	r.Weaken = append([]uint16(nil), lp.Weaken...)
	r.LTP = append([]bool(nil), lp.LTP...)
	r.LTD = append([]bool(nil), lp.LTD...)
	return r, nil
}

var errRaw = errors.New("invalid graph data")

func rawErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errRaw, fmt.Sprintf(format, args...))
}

// FromRaw rebuilds a finalized graph from Raw after validating every array
// length, index and number; the reverse CSR and lookup indexes are derived,
// PageRank is taken as stored. Invalid data is an error, never a panic.
func FromRaw(r *Raw) (*Graph, error) {
	n := len(r.ExternalID)
	ns := uint32(len(r.Strings))
	if ns == 0 || r.Strings[0] != "" {
		return nil, rawErr("string table must start with the empty string")
	}
	for name, l := range map[string]int{
		"label": len(r.Label), "type": len(r.Type), "last_modified": len(r.LastModified),
		"change_frequency": len(r.ChangeFrequency), "pagerank": len(r.PageRank),
		"source_path": len(r.SourcePath), "excerpt": len(r.Excerpt), "namespace": len(r.Namespace),
		"line_start": len(r.LineStart), "line_end": len(r.LineEnd), "canonical": len(r.Canonical),
	} {
		if l != n {
			return nil, rawErr("%s has %d entries for %d nodes", name, l, n)
		}
	}
	if len(r.TagOffsets) != n+1 || len(r.Offsets) != n+1 {
		return nil, rawErr("offset arrays must have nodes+1 entries")
	}
	m := len(r.Targets)
	for name, l := range map[string]int{
		"weights": len(r.Weights), "relations": len(r.Relations), "directions": len(r.Directions),
		"inhibitory": len(r.Inhibitory), "causal": len(r.Causal), "mirror": len(r.Mirror),
		"original": len(r.Original), "strengthen": len(r.Strengthen), "weaken": len(r.Weaken),
		"ltp": len(r.LTP), "ltd": len(r.LTD),
	} {
		if l != m {
			return nil, rawErr("%s has %d entries for %d edges", name, l, m)
		}
	}
	if r.Offsets[0] != 0 || r.Offsets[n] != uint32(m) || r.TagOffsets[0] != 0 || r.TagOffsets[n] != uint32(len(r.Tags)) {
		return nil, rawErr("offsets do not span the arrays")
	}
	checkStr := func(what string, i uint32) error {
		if i >= ns {
			return rawErr("%s string index %d out of range (%d strings)", what, i, ns)
		}
		return nil
	}

	g := NewWithCapacity(n, 0)
	g.strings = newInterner(len(r.Strings) - n)
	g.gen = Generation(r.Generation)
	// Intern the string table, except strings used only as external IDs
	// (the graph keeps those in its own map). A well-formed table has no
	// duplicates, so handles usually equal indexes; remap covers the rest.
	extOnly := make([]bool, ns)
	for _, x := range r.ExternalID {
		if x < ns {
			extOnly[x] = true
		}
	}
	for _, refs := range [][]uint32{r.Label, r.Tags, r.SourcePath, r.Excerpt, r.Namespace, r.Relations} {
		for _, x := range refs {
			if x < ns {
				extOnly[x] = false
			}
		}
	}
	remap := make([]Str, ns)
	for i := 1; i < len(r.Strings); i++ {
		if !extOnly[i] {
			remap[i] = g.strings.Intern(r.Strings[i])
		}
	}
	canon := func(i uint32) Str { return remap[i] }
	exts := externalIDs(r.Strings, r.ExternalID[:n])

	s := &g.nodes
	for i := 0; i < n; i++ {
		if r.TagOffsets[i] > r.TagOffsets[i+1] || r.Offsets[i] > r.Offsets[i+1] {
			return nil, rawErr("offsets of node %d are not monotone", i)
		}
		for _, x := range []uint32{r.ExternalID[i], r.Label[i], r.SourcePath[i], r.Excerpt[i], r.Namespace[i]} {
			if err := checkStr("node", x); err != nil {
				return nil, err
			}
		}
		ext := exts[i]
		if ext == "" {
			return nil, rawErr("node %d has an empty external id", i)
		}
		if _, dup := g.byExt[ext]; dup {
			return nil, rawErr("duplicate external id %q", ext)
		}
		if !IsFinite(r.ChangeFrequency[i]) || !IsFinite(r.PageRank[i]) || math.IsNaN(r.LastModified[i]) || math.IsInf(r.LastModified[i], 0) {
			return nil, rawErr("node %d has a non-finite number", i)
		}
		s.grow()
		g.byExt[ext] = NodeID(i)
		a := nodeAttr{externalID: ext}
		s.label[i] = canon(r.Label[i])
		s.nodeType[i] = r.Type[i]
		if lo, hi := r.TagOffsets[i], r.TagOffsets[i+1]; hi > lo {
			tags := make([]Str, 0, hi-lo)
			for _, t := range r.Tags[lo:hi] {
				if err := checkStr("tag", t); err != nil {
					return nil, err
				}
				tags = append(tags, canon(t))
			}
			a.tags = tags
		}
		s.lastModified[i] = r.LastModified[i]
		s.changeFrequency[i] = finite.Clamp(r.ChangeFrequency[i], 0, 1)
		s.PageRank[i] = finite.Clamp(r.PageRank[i], 0, 1)
		a.prov = provenance{
			sourcePath: canon(r.SourcePath[i]), excerpt: canon(r.Excerpt[i]), namespace: canon(r.Namespace[i]),
			lineStart: r.LineStart[i], lineEnd: r.LineEnd[i], canonical: r.Canonical[i],
		}
		s.attrs.set(i, a)
	}

	c := csr{
		offsets: append([]uint32(nil), r.Offsets...),
		sources: make([]NodeID, m),
		targets: make([]NodeID, m),
		weights: make([]atomicU32, m),
		attrs:   attrCol[edgeAttr]{flat: make([]edgeAttr, m)},
		plast: EdgePlasticity{
			Original:   append([]float32(nil), r.Original...),
			Strengthen: append([]uint16(nil), r.Strengthen...),
			Weaken:     append([]uint16(nil), r.Weaken...),
			LTP:        append([]bool(nil), r.LTP...),
			LTD:        append([]bool(nil), r.LTD...),
		},
		revOffsets: make([]uint32, n+1),
		revSources: make([]NodeID, m),
		revEdge:    make([]EdgeIdx, m),
	}
	for src := 0; src < n; src++ {
		var prevT, runStart uint32
		for e := r.Offsets[src]; e < r.Offsets[src+1]; e++ {
			t := r.Targets[e]
			if t >= uint32(n) {
				return nil, rawErr("edge %d targets node %d of %d", e, t, n)
			}
			if err := checkStr("relation", r.Relations[e]); err != nil {
				return nil, err
			}
			rel := canon(r.Relations[e])
			if e > r.Offsets[src] && t < prevT {
				return nil, rawErr("edges of node %d are not sorted by target", src)
			}
			if t != prevT || e == r.Offsets[src] {
				runStart = e
			}
			// Relation handles are renumbered on export, so within a target
			// only uniqueness is checked, not order. Runs are tiny.
			for k := runStart; k < e; k++ {
				if c.attrs.flat[k].rel == rel {
					return nil, rawErr("node %d repeats the edge to %d with relation %q", src, t, r.Strings[r.Relations[e]])
				}
			}
			prevT = t
			if !IsFinite(r.Weights[e]) || !IsFinite(r.Causal[e]) || !IsFinite(r.Original[e]) {
				return nil, rawErr("edge %d has a non-finite number", e)
			}
			if r.Directions[e] > Bidirectional {
				return nil, rawErr("edge %d has direction %d", e, r.Directions[e])
			}
			c.sources[e] = NodeID(src)
			c.targets[e] = NodeID(t)
			c.attrs.flat[e] = edgeAttr{rel: rel, causal: r.Causal[e], dir: r.Directions[e], inhibitory: r.Inhibitory[e], mirror: r.Mirror[e]}
			c.weights[e] = atomicU32(math.Float32bits(r.Weights[e]))
			c.revOffsets[t+1]++
		}
	}
	for i := 1; i <= n; i++ {
		c.revOffsets[i] += c.revOffsets[i-1]
	}
	pos := append([]uint32(nil), c.revOffsets[:n]...)
	for e := 0; e < m; e++ {
		d := c.targets[e]
		c.revSources[pos[d]] = c.sources[e]
		c.revEdge[pos[d]] = EdgeIdx(e)
		pos[d]++
	}
	g.csr = c
	g.inBound.Store(nil)
	g.buildIndexes()
	g.nodes.attrs.frozen = true // as Finalize leaves it
	g.sortExternalIDs()
	g.strings.freeze()
	g.finalized = true
	g.dirty = false
	return g, nil
}

// externalIDs copies the external ids the nodes name (ids: indexes into
// strs, out-of-range ones left empty for the caller to refuse) into one
// string of their own, sliced per node. A decoded table's strings are
// slices of one string; the interner copies the rest, so without this the
// nodes' ids kept the whole table alive beside the interner's copy.
func externalIDs(strs []string, ids []uint32) []string {
	total := 0
	for _, x := range ids {
		if int(x) < len(strs) {
			total += len(strs[x])
		}
	}
	var b strings.Builder
	b.Grow(total)
	ends := make([]int, len(ids))
	for i, x := range ids {
		if int(x) < len(strs) {
			b.WriteString(strs[x])
		}
		ends[i] = b.Len()
	}
	all := b.String()
	out := make([]string, len(ids))
	for i, end := range ends {
		from := 0
		if i > 0 {
			from = ends[i-1]
		}
		out[i] = all[from:end]
	}
	return out
}
