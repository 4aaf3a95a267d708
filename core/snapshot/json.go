package snapshot

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// Version is the JSON snapshot format version (docs/design.md#json-snapshot).
const Version = 3

// ErrFormat wraps every "this file is not a valid snapshot" error.
var ErrFormat = errors.New("invalid snapshot")

func formatErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, args...))
}

// File is the JSON snapshot document.
type File struct {
	Version    int    `json:"version"`
	Generation uint64 `json:"generation,omitempty"`
	// Meta is application data saved with the graph (SaveWithMeta).
	Meta  json.RawMessage `json:"meta,omitempty"`
	Nodes []NodeSnapshot  `json:"nodes"`
	Edges []EdgeSnapshot  `json:"edges"`
}

// NodeSnapshot is one node of a JSON snapshot.
type NodeSnapshot struct {
	ExternalID      string          `json:"external_id"`
	Label           string          `json:"label"`
	NodeType        NodeTypeJSON    `json:"node_type"`
	Tags            []string        `json:"tags,omitempty"`
	LastModified    float64         `json:"last_modified"`
	ChangeFrequency float32         `json:"change_frequency"`
	PageRank        float32         `json:"pagerank,omitempty"`
	Provenance      *ProvenanceJSON `json:"provenance,omitempty"`
}

// ProvenanceJSON is a node's source location.
type ProvenanceJSON struct {
	SourcePath string `json:"source_path,omitempty"`
	LineStart  uint32 `json:"line_start,omitempty"`
	LineEnd    uint32 `json:"line_end,omitempty"`
	Excerpt    string `json:"excerpt,omitempty"`
	Namespace  string `json:"namespace,omitempty"`
	Canonical  bool   `json:"canonical,omitempty"`
}

// EdgeSnapshot is one edge of a JSON snapshot. Source and Target are node
// indexes into Nodes (an external ID string is accepted on load too).
// Bidirectional edges appear once.
type EdgeSnapshot struct {
	Source         NodeRef `json:"source"`
	Target         NodeRef `json:"target"`
	Relation       string  `json:"relation"`
	Weight         float32 `json:"weight"`
	Direction      string  `json:"direction"`
	Inhibitory     bool    `json:"inhibitory"`
	CausalStrength float32 `json:"causal_strength"`
}

// NodeTypeJSON writes a node type as its name ("File", "Custom(3)")
// and reads a name, a number, or serde's {"Custom": n}.
type NodeTypeJSON graph.NodeType

// MarshalJSON implements json.Marshaler.
func (t NodeTypeJSON) MarshalJSON() ([]byte, error) {
	return json.Marshal(graph.NodeType(t).String())
}

// UnmarshalJSON implements json.Unmarshaler.
func (t *NodeTypeJSON) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		nt, err := graph.ParseNodeType(s)
		if err != nil {
			return err
		}
		*t = NodeTypeJSON(nt)
	case len(b) > 0 && b[0] == '{':
		var m map[string]uint8
		if err := json.Unmarshal(b, &m); err != nil {
			return fmt.Errorf("node_type object must be {\"Custom\": n}: %w", err)
		}
		n, ok := m["Custom"]
		if !ok || len(m) != 1 {
			return errors.New(`node_type object must be {"Custom": n}`)
		}
		*t = NodeTypeJSON(graph.Custom(n))
	default:
		n, err := strconv.ParseUint(string(b), 10, 8)
		if err != nil {
			return fmt.Errorf("node_type %s is neither a name nor a number 0-255", b)
		}
		*t = NodeTypeJSON(n)
	}
	return nil
}

// NodeRef is a node index, or an external ID when given as a string.
type NodeRef struct {
	Index int
	ID    string
}

// MarshalJSON writes the index.
func (r NodeRef) MarshalJSON() ([]byte, error) {
	if r.ID != "" {
		return json.Marshal(r.ID)
	}
	return strconv.AppendInt(nil, int64(r.Index), 10), nil
}

// UnmarshalJSON reads an index or an external ID.
func (r *NodeRef) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		r.Index = -1
		return json.Unmarshal(b, &r.ID)
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil || n < 0 || n > math.MaxUint32 {
		return fmt.Errorf("edge endpoint %s is neither a node index nor an external id", b)
	}
	r.Index = int(n)
	return nil
}

// ToFile converts a finalized graph to its JSON document.
func ToFile(g *graph.Graph) (*File, error) {
	if !g.Finalized() {
		return nil, graph.ErrNotFinalized
	}
	f := &File{Version: Version, Generation: uint64(g.Generation())}
	f.Nodes = make([]NodeSnapshot, g.NumNodes())
	for i := range f.Nodes {
		id := graph.NodeID(i)
		n := g.Node(id)
		ns := NodeSnapshot{
			ExternalID: n.ExternalID, Label: n.Label, NodeType: NodeTypeJSON(n.Type),
			Tags: n.Tags, LastModified: n.LastModified, ChangeFrequency: n.ChangeFrequency,
			PageRank: g.PageRank(id),
		}
		if p := n.Provenance; p != (graph.Provenance{}) {
			ns.Provenance = &ProvenanceJSON{
				SourcePath: p.SourcePath, LineStart: p.LineStart, LineEnd: p.LineEnd,
				Excerpt: p.Excerpt, Namespace: p.Namespace, Canonical: p.Canonical,
			}
		}
		if len(ns.Tags) == 0 {
			ns.Tags = nil
		}
		f.Nodes[i] = ns
	}
	f.Edges = make([]EdgeSnapshot, 0, g.NumEdges())
	for e := 0; e < g.NumEdges(); e++ {
		ei := graph.EdgeIdx(e)
		if g.IsMirror(ei) {
			continue
		}
		f.Edges = append(f.Edges, EdgeSnapshot{
			Source: NodeRef{Index: int(g.Source(ei))}, Target: NodeRef{Index: int(g.Target(ei))},
			Relation: g.RelationName(ei), Weight: graph.Finite(g.Weight(ei)),
			Direction: g.EdgeDirection(ei).String(), Inhibitory: g.Inhibitory(ei),
			CausalStrength: graph.Finite(g.CausalStrength(ei)),
		})
	}
	return f, nil
}

// FromFile builds and finalizes a graph from a JSON document, validating it
// completely first.
func FromFile(f *File) (*graph.Graph, error) {
	if f.Version != Version {
		return nil, formatErr("snapshot version %d is not supported (this build reads version %d)", f.Version, Version)
	}
	g := graph.NewWithCapacity(len(f.Nodes), len(f.Edges))
	for i, n := range f.Nodes {
		if n.ExternalID == "" {
			return nil, formatErr("node %d has no external_id", i)
		}
		if err := finite.Check("node "+n.ExternalID+" last_modified", n.LastModified); err != nil {
			return nil, formatErr("%v", err)
		}
		node := graph.Node{
			ExternalID: n.ExternalID, Label: n.Label, Type: graph.NodeType(n.NodeType), Tags: n.Tags,
			LastModified: n.LastModified, ChangeFrequency: n.ChangeFrequency,
		}
		if p := n.Provenance; p != nil {
			node.Provenance = graph.Provenance{
				SourcePath: p.SourcePath, LineStart: p.LineStart, LineEnd: p.LineEnd,
				Excerpt: p.Excerpt, Namespace: p.Namespace, Canonical: p.Canonical,
			}
		}
		if _, err := g.AddNode(node); err != nil {
			return nil, formatErr("node %d: %v", i, err)
		}
	}
	resolve := func(r NodeRef, i int, end string) (graph.NodeID, error) {
		if r.ID != "" {
			id, ok := g.Lookup(r.ID)
			if !ok {
				return 0, formatErr("edge %d %s %q is not a node", i, end, r.ID)
			}
			return id, nil
		}
		if r.Index < 0 || r.Index >= len(f.Nodes) {
			return 0, formatErr("edge %d %s index %d is out of range (%d nodes)", i, end, r.Index, len(f.Nodes))
		}
		return graph.NodeID(r.Index), nil
	}
	for i, e := range f.Edges {
		s, err := resolve(e.Source, i, "source")
		if err != nil {
			return nil, err
		}
		t, err := resolve(e.Target, i, "target")
		if err != nil {
			return nil, err
		}
		dir, err := graph.ParseDirection(e.Direction)
		if err != nil {
			return nil, formatErr("edge %d: %v", i, err)
		}
		if err := g.AddEdge(graph.Edge{
			Source: s, Target: t, Relation: e.Relation, Weight: e.Weight,
			Direction: dir, Inhibitory: e.Inhibitory, CausalStrength: e.CausalStrength,
		}); err != nil {
			return nil, formatErr("edge %d: %v", i, err)
		}
	}
	g.Finalize()
	return g, nil
}

// WriteJSON writes g as a JSON snapshot.
func WriteJSON(w io.Writer, g *graph.Graph) error {
	f, err := ToFile(g)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	return enc.Encode(f)
}

// ReadJSON reads a JSON snapshot into a new graph. A malformed document is
// an ErrFormat error; nothing else is touched.
func ReadJSON(r io.Reader) (*graph.Graph, error) {
	g, _, err := readJSON(r)
	return g, err
}

func readJSON(r io.Reader) (*graph.Graph, []byte, error) {
	var f File
	dec := json.NewDecoder(bufio.NewReaderSize(r, 1<<20))
	if err := dec.Decode(&f); err != nil {
		return nil, nil, formatErr("not a JSON graph snapshot: %v", err)
	}
	if dec.More() {
		return nil, nil, formatErr("trailing data after the JSON document")
	}
	g, err := FromFile(&f)
	if err != nil {
		return nil, nil, err
	}
	return g, f.Meta, nil
}

var errMetaNotJSON = errors.New("snapshot meta for a JSON snapshot must be JSON")

// SaveJSON writes g atomically to path as a JSON snapshot.
func SaveJSON(g *graph.Graph, path string) error { return saveJSON(g, nil, path) }

func saveJSON(g *graph.Graph, meta []byte, path string) error {
	f, err := ToFile(g)
	if err != nil {
		return err
	}
	if len(meta) > 0 {
		if !json.Valid(meta) {
			return errMetaNotJSON
		}
		f.Meta = meta
	}
	return WriteFileAtomic(path, 0o644, func(w io.Writer) error { return json.NewEncoder(w).Encode(f) })
}

// LoadJSON reads a JSON snapshot file.
func LoadJSON(path string) (*graph.Graph, error) {
	g, _, err := loadJSON(path)
	return g, err
}

func loadJSON(path string) (*graph.Graph, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	g, meta, err := readJSON(f)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return g, meta, nil
}
