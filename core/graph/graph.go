package graph

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// Errors returned by graph construction and weight updates.
var (
	ErrDuplicateNode   = errors.New("duplicate external id")
	ErrEmptyExternalID = errors.New("empty external id")
	ErrUnknownNode     = errors.New("unknown node")
	ErrNotFinalized    = errors.New("graph is not finalized")
	ErrCASExhausted    = errors.New("compare-and-swap retry limit exhausted")
	ErrNonFinite       = errors.New("non-finite value")
)

// Graph is the property graph: interned strings, node storage (struct of
// arrays), and after Finalize an immutable CSR with forward and reverse
// adjacency. Edge weights stay mutable through atomic compare-and-swap.
//
// Building and finalizing need exclusive access. A finalized graph may be
// read by many goroutines at once, concurrently with weight updates
// (UpdateWeight, AtomicMaxWeight, AtomicWriteWeight).
type Graph struct {
	strings *Interner
	nodes   NodeStorage
	// byExt maps external IDs to nodes while the graph is being built;
	// Finalize replaces it with extOrder (node IDs sorted by external ID,
	// 4 bytes a node instead of a map entry) and it is rebuilt on demand
	// if nodes are added later.
	byExt    map[string]NodeID
	extOrder []NodeID

	csr       csr
	inBound   atomic.Pointer[inBound] // nil until TrackInWeightBound
	pending   []edgeRecord
	finalized bool
	dirty     bool // nodes or edges changed since the last Finalize
	gen       Generation
	// prResidual is how settled the ranks are: the L1 change of a cold
	// start's last round, or the tolerance a warm start reached (warm
	// starts aim for the same, so a chain of patches does not tighten it
	// round after round). 0 when unknown (a loaded graph).
	prResidual float64
	// prRounds are the rounds the last PageRank computation ran.
	prRounds int

	// Indexes built at Finalize.
	byLabel strIndex
	byTag   strIndex
	byPath  strIndex
}

// New returns an empty graph.
func New() *Graph {
	return &Graph{strings: NewInterner(), byExt: map[string]NodeID{}}
}

// NewWithCapacity returns an empty graph with room for about nodes nodes
// and edges edges before reallocating.
func NewWithCapacity(nodes, edges int) *Graph {
	g := &Graph{strings: newInterner(nodes), byExt: make(map[string]NodeID, nodes)}
	g.pending = make([]edgeRecord, 0, edges)
	s := &g.nodes
	s.PageRank = make([]float32, 0, nodes)
	s.Plasticity = make([]PlasticityNode, 0, nodes)
	s.attrs.flat = make([]nodeAttr, 0, nodes)
	s.label = make([]Str, 0, nodes)
	s.nodeType = make([]NodeType, 0, nodes)
	s.lastModified = make([]float64, 0, nodes)
	s.changeFrequency = make([]float32, 0, nodes)
	return g
}

// Strings exposes the interner (read-only use once finalized).
func (g *Graph) Strings() *Interner { return g.strings }

// Nodes exposes the node storage; the exported arrays are the hot and warm
// paths the engines read.
func (g *Graph) Nodes() *NodeStorage { return &g.nodes }

// NumNodes is the number of nodes.
func (g *Graph) NumNodes() int { return len(g.nodes.PageRank) }

// NumEdges is the number of forward CSR entries (bidirectional edges count
// twice). Zero before Finalize.
func (g *Graph) NumEdges() int { return len(g.csr.targets) }

// Generation is the mutation counter; each Finalize increments it.
func (g *Graph) Generation() Generation { return g.gen }

// Finalized reports whether the CSR reflects every added node and edge.
func (g *Graph) Finalized() bool { return g.finalized && !g.dirty }

// AddNode adds a node. A duplicate or empty external ID is an error and
// changes nothing; non-finite numbers are replaced by 0.
func (g *Graph) AddNode(n Node) (NodeID, error) {
	if n.ExternalID == "" {
		return NoNode, ErrEmptyExternalID
	}
	if id, ok := g.extMap()[n.ExternalID]; ok {
		return id, fmt.Errorf("%w %q (node %d)", ErrDuplicateNode, n.ExternalID, id)
	}
	id := NodeID(g.NumNodes())
	g.nodes.grow()
	g.byExt[n.ExternalID] = id
	g.setNode(id, n)
	g.dirty = true
	return id, nil
}

// UpsertNode adds n, or updates the node with the same external ID in place
// (keeping its NodeID and edges). It reports whether the node was created.
func (g *Graph) UpsertNode(n Node) (NodeID, bool, error) {
	if n.ExternalID == "" {
		return NoNode, false, ErrEmptyExternalID
	}
	if id, ok := g.extMap()[n.ExternalID]; ok {
		g.setNode(id, n)
		g.dirty = true
		return id, false, nil
	}
	id, err := g.AddNode(n)
	return id, err == nil, err
}

// setNode writes n's attributes on node id (its external ID included).
func (g *Graph) setNode(id NodeID, n Node) {
	s := &g.nodes
	label, a := g.nodeAttrOf(n)
	s.attrs.set(int(id), a)
	s.label[id] = label
	s.nodeType[id] = n.Type
	s.lastModified[id] = Finite64(n.LastModified)
	s.changeFrequency[id] = finite.Clamp(n.ChangeFrequency, 0, 1)
}

// nodeAttrOf interns n's label, tags and provenance into g's strings.
func (g *Graph) nodeAttrOf(n Node) (Str, nodeAttr) {
	label := n.Label
	if label == "" {
		label = n.ExternalID
	}
	// Interned in this order (label, tags, provenance) as before the
	// record: handles number strings in the order they were first seen.
	labelStr := g.strings.Intern(label)
	a := nodeAttr{externalID: n.ExternalID}
	var tags []Str
	if len(n.Tags) > 0 {
		tags = make([]Str, 0, len(n.Tags))
		for _, t := range n.Tags {
			if t == "" {
				continue
			}
			h := g.strings.Intern(t)
			dup := false
			for _, x := range tags {
				if x == h {
					dup = true
					break
				}
			}
			if !dup {
				tags = append(tags, h)
			}
		}
	}
	a.tags = tags
	p := n.Provenance
	a.prov = provenance{
		sourcePath: g.strings.Intern(p.SourcePath),
		excerpt:    g.strings.Intern(p.Excerpt),
		namespace:  g.strings.Intern(p.Namespace),
		lineStart:  p.LineStart,
		lineEnd:    p.LineEnd,
		canonical:  p.Canonical,
	}
	return labelStr, a
}

// Edge describes an edge to add. Weight and CausalStrength must be finite;
// non-finite values are rejected by AddEdge.
type Edge struct {
	Source, Target NodeID
	Relation       string
	Weight         float32
	Direction      Direction
	Inhibitory     bool
	CausalStrength float32
}

// AddEdge stages an edge; it enters the CSR at the next Finalize. Several
// edges with the same (source, target, relation) collapse into one keeping
// the largest weight.
func (g *Graph) AddEdge(e Edge) error {
	n := NodeID(g.NumNodes())
	if e.Source >= n || e.Target >= n {
		return fmt.Errorf("%w: edge %d -> %d but the graph has %d nodes", ErrUnknownNode, e.Source, e.Target, n)
	}
	if !IsFinite(e.Weight) || !IsFinite(e.CausalStrength) {
		return fmt.Errorf("%w: edge %d -> %d weight %v causal_strength %v", ErrNonFinite, e.Source, e.Target, e.Weight, e.CausalStrength)
	}
	if e.Direction > Bidirectional {
		return fmt.Errorf("invalid direction %d", e.Direction)
	}
	g.pending = append(g.pending, edgeRecord{
		src: e.Source, dst: e.Target,
		rel:    g.strings.Intern(e.Relation),
		weight: e.Weight, orig: e.Weight,
		dir: e.Direction, inhibitory: e.Inhibitory,
		causal: e.CausalStrength,
	})
	g.dirty = true
	return nil
}

// AddEdgeByID is AddEdge addressed by external IDs.
func (g *Graph) AddEdgeByID(source, target string, e Edge) error {
	s, ok := g.Lookup(source)
	if !ok {
		return fmt.Errorf("%w %q", ErrUnknownNode, source)
	}
	t, ok := g.Lookup(target)
	if !ok {
		return fmt.Errorf("%w %q", ErrUnknownNode, target)
	}
	e.Source, e.Target = s, t
	return g.AddEdge(e)
}

// Lookup finds a node by external ID.
func (g *Graph) Lookup(externalID string) (NodeID, bool) {
	if g.byExt != nil {
		id, ok := g.byExt[externalID]
		return id, ok
	}
	s := &g.nodes
	i, ok := slices.BinarySearchFunc(g.extOrder, externalID, func(id NodeID, t string) int {
		return strings.Compare(s.attr(id).externalID, t)
	})
	if !ok {
		return NoNode, false
	}
	return g.extOrder[i], true
}

// extMap returns the building-time external ID map, rebuilding it after
// Finalize dropped it (nodes are being added again).
func (g *Graph) extMap() map[string]NodeID {
	if g.byExt == nil {
		n := g.NumNodes()
		g.byExt = make(map[string]NodeID, n)
		for i := range n {
			g.byExt[g.nodes.attr(NodeID(i)).externalID] = NodeID(i)
		}
		g.extOrder = nil
	}
	return g.byExt
}

// sortExternalIDs builds extOrder and drops the map (Finalize).
func (g *Graph) sortExternalIDs() {
	s := &g.nodes
	order := make([]NodeID, g.NumNodes())
	for i := range order {
		order[i] = NodeID(i)
	}
	slices.SortFunc(order, func(a, b NodeID) int { return strings.Compare(s.attr(a).externalID, s.attr(b).externalID) })
	g.extOrder = order
	g.byExt = nil
}

// Valid reports whether id names a node of g.
func (g *Graph) Valid(id NodeID) bool { return int(id) < g.NumNodes() }

// ExternalID of a node.
func (g *Graph) ExternalID(id NodeID) string { return nodeAt(&g.nodes.attrs, id).externalID }

// Label of a node.
func (g *Graph) Label(id NodeID) string { return g.strings.String(g.nodes.label[id]) }

// LabelStr is the interned label handle of a node.
func (g *Graph) LabelStr(id NodeID) Str { return g.nodes.label[id] }

// Type of a node.
func (g *Graph) Type(id NodeID) NodeType { return g.nodes.nodeType[id] }

// TagStrs returns the interned tags of a node (do not modify).
func (g *Graph) TagStrs(id NodeID) []Str { return nodeAt(&g.nodes.attrs, id).tags }

// Tags returns the tags of a node as strings.
func (g *Graph) Tags(id NodeID) []string {
	ts := nodeAt(&g.nodes.attrs, id).tags
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = g.strings.String(t)
	}
	return out
}

// HasTag reports whether the node carries tag.
func (g *Graph) HasTag(id NodeID, tag string) bool {
	h, ok := g.strings.Lookup(tag)
	if !ok {
		return false
	}
	for _, t := range nodeAt(&g.nodes.attrs, id).tags {
		if t == h {
			return true
		}
	}
	return false
}

// LastModified is the node's Unix time in seconds (0 = unknown).
func (g *Graph) LastModified(id NodeID) float64 { return g.nodes.lastModified[id] }

// ChangeFrequency is in [0, 1].
func (g *Graph) ChangeFrequency(id NodeID) float32 { return g.nodes.changeFrequency[id] }

// PageRank is the node's normalised PageRank in [0, 1].
func (g *Graph) PageRank(id NodeID) float32 { return g.nodes.PageRank[id] }

// Provenance of a node.
func (g *Graph) Provenance(id NodeID) Provenance {
	p := &nodeAt(&g.nodes.attrs, id).prov
	return Provenance{
		SourcePath: g.strings.String(p.sourcePath),
		LineStart:  p.lineStart,
		LineEnd:    p.lineEnd,
		Excerpt:    g.strings.String(p.excerpt),
		Namespace:  g.strings.String(p.namespace),
		Canonical:  p.canonical,
	}
}

// ProvenanceStrs returns the interned handles of a node's source path,
// excerpt and namespace: a streamed snapshot numbers strings by handle
// without resolving and hashing each one.
func (g *Graph) ProvenanceStrs(id NodeID) (sourcePath, excerpt, namespace Str) {
	p := &nodeAt(&g.nodes.attrs, id).prov
	return p.sourcePath, p.excerpt, p.namespace
}

// SourcePath of a node ("" when none).
func (g *Graph) SourcePath(id NodeID) string {
	return g.strings.String(nodeAt(&g.nodes.attrs, id).prov.sourcePath)
}

// Node returns everything known about a node.
func (g *Graph) Node(id NodeID) Node {
	return Node{
		ExternalID:      nodeAt(&g.nodes.attrs, id).externalID,
		Label:           g.Label(id),
		Type:            g.nodes.nodeType[id],
		Tags:            g.Tags(id),
		LastModified:    g.nodes.lastModified[id],
		ChangeFrequency: g.nodes.changeFrequency[id],
		Provenance:      g.Provenance(id),
	}
}

// SetLastModified updates a node's timestamp (e.g. from git) without a
// re-finalize; it is a cold-path field no index depends on.
func (g *Graph) SetLastModified(id NodeID, unix float64) { g.nodes.lastModified[id] = Finite64(unix) }

// SetChangeFrequency updates a node's change frequency, clamped to [0, 1].
func (g *Graph) SetChangeFrequency(id NodeID, f float32) {
	g.nodes.changeFrequency[id] = finite.Clamp(f, 0, 1)
}

// atomicWeight gives atomic access to a weight slot.
func (g *Graph) atomicWeight(e EdgeIdx) *atomicU32 { return &g.csr.weights[e] }

// FindNodes resolves a user-supplied reference: an exact external ID, then
// an exact label, then a case-insensitive label. It returns every match of
// the first rule that matches, in NodeID order.
func (g *Graph) FindNodes(ref string) []NodeID {
	if id, ok := g.Lookup(ref); ok {
		return []NodeID{id}
	}
	if ids := g.NodesByLabel(ref); len(ids) > 0 {
		return ids
	}
	var out []NodeID
	for i, l := range g.nodes.label {
		if strings.EqualFold(g.strings.String(l), ref) {
			out = append(out, NodeID(i))
		}
	}
	return out
}
