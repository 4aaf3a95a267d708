// Package jsongraph is the "json" ingest adapter, the escape hatch for
// graphs built by other tools. It reads a descriptor
//
//	{
//	  "nodes": [{"id": "room::a", "label": "Studio A", "type": "System", "tags": ["room"]}],
//	  "edges": [{"source": "room::a", "target": "bus::master", "relation": "routes_to", "weight": 1.0}]
//	}
//
// and also the JSON snapshot format of core/snapshot ("external_id",
// "node_type", a "provenance" object, edges addressing nodes by index), so a
// snapshot can be merged into another graph. Optional node fields:
// last_modified, change_frequency, source_path, line_start, line_end,
// excerpt, namespace, canonical. Optional edge fields: direction
// ("forward" | "bidirectional"), causal_strength, inhibitory; defaults follow
// the code adapter's relation table (contains is bidirectional 0.8, ...).
//
// Unknown node types become Custom(0) with a "type:{name}" tag. Duplicate
// IDs keep the first node (counted as label collisions); edges naming no
// node are skipped (counted as unresolved references). Malformed input is
// an error that names the element at fault.
package jsongraph

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/code"
)

// Adapter is the "json" adapter.
type Adapter struct{}

// Name implements adapter.Adapter.
func (Adapter) Name() string { return "json" }

// Domain implements adapter.Adapter ("generic": docs/design.md#adapters).
func (Adapter) Domain() string { return "generic" }

// MaxFileSize bounds the descriptor read into memory.
const MaxFileSize = 1 << 30

// Ingest implements adapter.Adapter.
func (Adapter) Ingest(ctx context.Context, req adapter.Request) (*adapter.Output, error) {
	start := time.Now()
	st, err := os.Stat(req.Root)
	if err != nil {
		return nil, fmt.Errorf("json adapter: %w; pass the path of a JSON file with \"nodes\" and \"edges\" arrays", err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("json adapter: %s is a directory; pass the path of one JSON descriptor file ({\"nodes\": [...], \"edges\": [...]})", req.Root)
	}
	if st.Size() > MaxFileSize {
		return nil, fmt.Errorf("json adapter: %s is %d bytes, over the %d-byte limit", req.Root, st.Size(), MaxFileSize)
	}
	data, err := os.ReadFile(req.Root)
	if err != nil {
		return nil, fmt.Errorf("json adapter: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	maxNodes, deadline := req.Budget(start)
	out, err := Build(data, Options{Namespace: req.Namespace, MaxNodes: maxNodes, Deadline: deadline})
	if err != nil {
		return nil, fmt.Errorf("json adapter: %s: %w", req.Root, err)
	}
	out.Stats.FilesScanned, out.Stats.FilesParsed = 1, 1
	out.Stats.Languages = map[string]int{"json": 1}
	out.Stats.ElapsedMs = float64(time.Since(start).Microseconds()) / 1000
	out.Root.Path = req.Root
	req.Report(adapter.Progress{Phase: adapter.PhaseDone, Done: 1, Total: 1})
	return out, nil
}

// Options of Build.
type Options struct {
	// Namespace, when set, prefixes every ID ("{namespace}::{id}") and is
	// the provenance namespace of nodes that do not name their own.
	Namespace string
	MaxNodes  int
	Deadline  time.Time
}

// rawDoc is the top level; both arrays are optional.
type rawDoc struct {
	Nodes []json.RawMessage `json:"nodes"`
	Edges []json.RawMessage `json:"edges"`
}

type rawNode struct {
	ID              *string  `json:"id"`
	ExternalID      *string  `json:"external_id"`
	Label           string   `json:"label"`
	TypeRaw         any      `json:"type"`
	NodeType        any      `json:"node_type"`
	Tags            []string `json:"tags"`
	LastModified    *float64 `json:"last_modified"`
	ChangeFrequency *float64 `json:"change_frequency"`
	SourcePath      string   `json:"source_path"`
	LineStart       uint32   `json:"line_start"`
	LineEnd         uint32   `json:"line_end"`
	Excerpt         string   `json:"excerpt"`
	Namespace       string   `json:"namespace"`
	Canonical       bool     `json:"canonical"`
	Provenance      *struct {
		SourcePath string `json:"source_path"`
		LineStart  uint32 `json:"line_start"`
		LineEnd    uint32 `json:"line_end"`
		Excerpt    string `json:"excerpt"`
		Namespace  string `json:"namespace"`
		Canonical  bool   `json:"canonical"`
	} `json:"provenance"`
}

type rawEdge struct {
	Source         json.RawMessage `json:"source"`
	Target         json.RawMessage `json:"target"`
	From           json.RawMessage `json:"from"`
	To             json.RawMessage `json:"to"`
	Relation       string          `json:"relation"`
	Weight         *float64        `json:"weight"`
	Direction      string          `json:"direction"`
	CausalStrength *float64        `json:"causal_strength"`
	Inhibitory     bool            `json:"inhibitory"`
}

// Build parses a descriptor and returns the finalized graph.
func Build(data []byte, opt Options) (*adapter.Output, error) {
	var doc rawDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, explain(data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected content after the JSON document; the file must hold exactly one object")
	}
	if opt.MaxNodes <= 0 {
		opt.MaxNodes = adapter.DefaultMaxNodes
	}
	st := adapter.Stats{Adapter: "json"}
	g := graph.NewWithCapacity(len(doc.Nodes), len(doc.Edges))
	prefix := ""
	if opt.Namespace != "" {
		prefix = opt.Namespace + "::"
	}
	ids := make([]graph.NodeID, len(doc.Nodes)) // by position, for index references
	for i, raw := range doc.Nodes {
		ids[i] = graph.NoNode
		if g.NumNodes() >= opt.MaxNodes || (!opt.Deadline.IsZero() && i%1024 == 0 && time.Now().After(opt.Deadline)) {
			st.Partial = true
			st.BudgetExhausted = "max_nodes"
			if g.NumNodes() < opt.MaxNodes {
				st.BudgetExhausted = "timeout"
			}
			break
		}
		n, err := parseNode(raw, i, prefix, opt.Namespace)
		if err != nil {
			return nil, err
		}
		id, err := g.AddNode(n)
		if errors.Is(err, graph.ErrDuplicateNode) {
			st.LabelCollisions++
			ids[i] = id // index references still reach the node that won
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("nodes[%d]: %w", i, err)
		}
		ids[i] = id
	}
	for i, raw := range doc.Edges {
		var e rawEdge
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("edges[%d]: %v; an edge is {\"source\": \"id\", \"target\": \"id\", \"relation\": \"calls\", \"weight\": 1.0}", i, cleanErr(err))
		}
		srcRaw, dstRaw := e.Source, e.Target
		if len(srcRaw) == 0 {
			srcRaw = e.From
		}
		if len(dstRaw) == 0 {
			dstRaw = e.To
		}
		src, ok, err := nodeRef(g, srcRaw, ids, prefix)
		if err != nil {
			return nil, fmt.Errorf("edges[%d].source: %w", i, err)
		}
		dst, ok2, err := nodeRef(g, dstRaw, ids, prefix)
		if err != nil {
			return nil, fmt.Errorf("edges[%d].target: %w", i, err)
		}
		if !ok || !ok2 {
			st.ReferencesUnresolved++
			continue
		}
		rel := strings.TrimSpace(e.Relation)
		if rel == "" {
			rel = "relates_to"
		}
		cs, dir := code.CausalStrength(rel)
		w := float32(1)
		if e.Weight != nil {
			if !finite(*e.Weight) || math.Abs(*e.Weight) > math.MaxFloat32 {
				return nil, fmt.Errorf("edges[%d].weight must be a finite number, got %v", i, *e.Weight)
			}
			w = float32(*e.Weight)
		}
		if e.CausalStrength != nil {
			if !finite(*e.CausalStrength) || *e.CausalStrength < 0 || *e.CausalStrength > 1 {
				return nil, fmt.Errorf("edges[%d].causal_strength must be in [0, 1], got %v", i, *e.CausalStrength)
			}
			cs = float32(*e.CausalStrength)
		}
		if e.Direction != "" {
			d, err := graph.ParseDirection(e.Direction)
			if err != nil {
				return nil, fmt.Errorf("edges[%d]: %w", i, err)
			}
			dir = d
		}
		if err := g.AddEdge(graph.Edge{Source: src, Target: dst, Relation: rel, Weight: w, Direction: dir, Inhibitory: e.Inhibitory, CausalStrength: cs}); err != nil {
			return nil, fmt.Errorf("edges[%d]: %w", i, err)
		}
		st.ReferencesResolved++
	}
	g.Finalize()
	st.NodesCreated = g.NumNodes()
	st.EdgesCreated = adapter.CountEdges(g)
	st.GraphNodes, st.GraphEdges = st.NodesCreated, st.EdgesCreated
	return &adapter.Output{Graph: g, Stats: st}, nil
}

func parseNode(raw json.RawMessage, i int, prefix, ns string) (graph.Node, error) {
	var r rawNode
	if err := json.Unmarshal(raw, &r); err != nil {
		return graph.Node{}, fmt.Errorf("nodes[%d]: %v; a node is {\"id\": \"...\", \"label\": \"...\", \"type\": \"Concept\", \"tags\": []}", i, cleanErr(err))
	}
	id := ""
	switch {
	case r.ID != nil:
		id = *r.ID
	case r.ExternalID != nil:
		id = *r.ExternalID
	}
	if strings.TrimSpace(id) == "" {
		return graph.Node{}, fmt.Errorf("nodes[%d] has no \"id\"; every node needs a non-empty string id", i)
	}
	n := graph.Node{ExternalID: prefix + id, Label: r.Label, Tags: r.Tags}
	if n.Label == "" {
		n.Label = id
	}
	typ := r.TypeRaw
	if typ == nil {
		typ = r.NodeType
	}
	switch t := typ.(type) {
	case nil:
		n.Type = graph.Custom(0)
	case string:
		pt, err := graph.ParseNodeType(t)
		if err != nil {
			pt = graph.Custom(0)
			n.Tags = append(append([]string(nil), n.Tags...), "type:"+t)
		}
		n.Type = pt
	case float64:
		if t < 0 || t > 255 || t != math.Trunc(t) {
			return graph.Node{}, fmt.Errorf("nodes[%d].type %v is not a node type number (0-255)", i, t)
		}
		n.Type = graph.NodeType(t)
	default:
		return graph.Node{}, fmt.Errorf("nodes[%d].type must be a type name such as \"Function\" or a number", i)
	}
	if r.LastModified != nil {
		if !finite(*r.LastModified) {
			return graph.Node{}, fmt.Errorf("nodes[%d].last_modified must be a finite number of Unix seconds", i)
		}
		n.LastModified = *r.LastModified
	}
	n.ChangeFrequency = 0.3
	if r.ChangeFrequency != nil {
		if !finite(*r.ChangeFrequency) || *r.ChangeFrequency < 0 || *r.ChangeFrequency > 1 {
			return graph.Node{}, fmt.Errorf("nodes[%d].change_frequency must be in [0, 1], got %v", i, *r.ChangeFrequency)
		}
		n.ChangeFrequency = float32(*r.ChangeFrequency)
	}
	p := graph.Provenance{SourcePath: r.SourcePath, LineStart: r.LineStart, LineEnd: r.LineEnd, Excerpt: r.Excerpt, Namespace: r.Namespace, Canonical: r.Canonical}
	if pp := r.Provenance; pp != nil {
		p = graph.Provenance{SourcePath: pp.SourcePath, LineStart: pp.LineStart, LineEnd: pp.LineEnd, Excerpt: pp.Excerpt, Namespace: pp.Namespace, Canonical: pp.Canonical}
	}
	if p.Namespace == "" {
		p.Namespace = ns
	}
	n.Provenance = p
	return n, nil
}

// nodeRef resolves an edge endpoint: an ID string, or a node index.
func nodeRef(g *graph.Graph, raw json.RawMessage, ids []graph.NodeID, prefix string) (graph.NodeID, bool, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return 0, false, errors.New("missing; name a node by its id (a string) or its position in nodes (a number)")
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, false, err
		}
		id, ok := g.Lookup(prefix + s)
		return id, ok, nil
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return 0, false, errors.New("must be a node id (string) or a node index (number)")
	}
	if f < 0 || f != math.Trunc(f) || f >= float64(len(ids)) {
		return 0, false, nil
	}
	id := ids[int(f)]
	return id, id != graph.NoNode, nil
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// explain turns a decoding error into one that locates the fault.
func explain(data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := position(data, se.Offset)
		return fmt.Errorf("invalid JSON at line %d, column %d: %v", line, col, se)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return fmt.Errorf("the descriptor must be a JSON object, found %s; write {\"nodes\": [...], \"edges\": [...]}", te.Value)
		}
		return fmt.Errorf("%q must be an array of objects, found %s; the descriptor is {\"nodes\": [...], \"edges\": [...]}", te.Field, te.Value)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("invalid JSON: the document ends early (an unclosed bracket, brace or string)")
	}
	if errors.Is(err, io.EOF) {
		return errors.New("the file is empty; a descriptor is {\"nodes\": [...], \"edges\": [...]}")
	}
	return fmt.Errorf("invalid descriptor: %v", err)
}

func position(data []byte, off int64) (line, col int) {
	line, col = 1, 1
	for i := int64(0); i < off-1 && i < int64(len(data)); i++ { // Offset is just past the fault
		if data[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

func cleanErr(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		f := te.Field
		if i := strings.LastIndexByte(f, '.'); i >= 0 {
			f = f[i+1:]
		}
		return fmt.Sprintf("field %q cannot be a JSON %s", f, te.Value)
	}
	return err.Error()
}
