package graph

// Node describes a node to add to (or update in) a Graph, and is what
// Graph.Node returns. Strings here are plain; the graph interns them.
type Node struct {
	// ExternalID is the stable identity, e.g. "file::src/auth.py::login".
	ExternalID string
	Label      string
	Type       NodeType
	Tags       []string
	// LastModified is a Unix time in seconds (0 = unknown).
	LastModified float64
	// ChangeFrequency is in [0, 1]; ingest derives it from git history.
	ChangeFrequency float32
	Provenance      Provenance
}

// Provenance locates a node in its source.
type Provenance struct {
	SourcePath string
	LineStart  uint32
	LineEnd    uint32
	Excerpt    string
	Namespace  string
	Canonical  bool
}

// PlasticityNode is the warm-path per-node learning state.
type PlasticityNode struct {
	// FireCount counts the queries in which the node was activated.
	FireCount uint32
	// LastFired is the Unix time (seconds) of the last activation, 0 = never.
	LastFired uint32
}

// provenance is the interned, in-graph form of Provenance.
type provenance struct {
	sourcePath Str
	excerpt    Str
	namespace  Str
	lineStart  uint32
	lineEnd    uint32
	canonical  bool
}

// nodeAttr is what a node carries that only a build writes (AddNode,
// UpsertNode, Finalize's tag packing): one record, so that a splice shares
// the runs of nodes it keeps with its base graph as one column. The label
// and type are not in it: scans read them for every node (temporal decay,
// the seed and n-gram indexes), and 5 bytes a node are cheaper to copy
// than a 64-byte stride is to scan.
type nodeAttr struct {
	externalID string
	tags       []Str
	prov       provenance
}

// NodeStorage holds per-node data as parallel arrays (struct of arrays),
// grouped by how often queries touch them.
type NodeStorage struct {
	// Hot path: touched by every query.

	// Activation is scratch for single-threaded callers that want the last
	// activation per dimension stored on the graph; it is allocated by
	// ActivationScratch on first use. Concurrent engines keep their own
	// per-query buffers instead.
	Activation [][NumDimensions]float32
	// PageRank is normalised to [0, 1] (the most central node has 1).
	PageRank []float32

	// Warm path: plasticity.
	Plasticity []PlasticityNode

	// Cold path: seed finding, display, export. attrs is shared with
	// spliced generations; the label, the type and the two numbers git
	// enrichment sets are flat arrays each graph copies.
	attrs           attrCol[nodeAttr]
	label           []Str
	nodeType        []NodeType
	lastModified    []float64
	changeFrequency []float32
}

// Len is the number of nodes.
func (s *NodeStorage) Len() int { return len(s.PageRank) }

// attr is node id's record (attrs.at written out, see edgeAt); callers do
// not write through it.
func (s *NodeStorage) attr(id NodeID) *nodeAttr { return nodeAt(&s.attrs, id) }

func nodeAt(c *attrCol[nodeAttr], id NodeID) *nodeAttr {
	if c.pieces == nil {
		return &c.flat[id]
	}
	if f := c.fast[id>>attrFastShift]; f != nil {
		return &f[uint8(id)]
	}
	return nodeSlow(c, id)
}

// nodeSlow is attr through the page table.
func nodeSlow(c *attrCol[nodeAttr], id NodeID) *nodeAttr {
	k := c.page[id>>attrPageShift]
	for c.starts[k+1] <= uint32(id) {
		k++
	}
	return &c.pieces[k][uint32(id)-c.starts[k]]
}

// ActivationScratch returns the per-node activation scratch, allocating it
// (zeroed) the first time or when nodes were added since.
func (s *NodeStorage) ActivationScratch() [][NumDimensions]float32 {
	if n := s.Len(); len(s.Activation) < n {
		s.Activation = append(s.Activation, make([][NumDimensions]float32, n-len(s.Activation))...)
	}
	return s.Activation
}

func (s *NodeStorage) grow() {
	s.PageRank = append(s.PageRank, 0)
	s.Plasticity = append(s.Plasticity, PlasticityNode{})
	s.attrs.push(nodeAttr{})
	s.label = append(s.label, 0)
	s.nodeType = append(s.nodeType, 0)
	s.lastModified = append(s.lastModified, 0)
	s.changeFrequency = append(s.changeFrequency, 0)
}

func (s *NodeStorage) clone() NodeStorage {
	c := NodeStorage{
		Activation:      append([][NumDimensions]float32(nil), s.Activation...),
		PageRank:        append([]float32(nil), s.PageRank...),
		Plasticity:      append([]PlasticityNode(nil), s.Plasticity...),
		attrs:           attrCol[nodeAttr]{flat: s.attrs.flatCopy()},
		label:           append([]Str(nil), s.label...),
		nodeType:        append([]NodeType(nil), s.nodeType...),
		lastModified:    append([]float64(nil), s.lastModified...),
		changeFrequency: append([]float32(nil), s.changeFrequency...),
	}
	for i := range c.attrs.flat {
		a := &c.attrs.flat[i]
		a.tags = append([]Str(nil), a.tags...)
	}
	return c
}
