// Package graphdump renders a graph in a canonical, order-independent form
// for tests: nodes sorted by external ID, edges by (source, target,
// relation), every property included. Two graphs with equal dumps are the
// same graph whatever order they were built in.
package graphdump

import (
	"fmt"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Node is a node with everything Graph stores about it.
type Node struct {
	ID              string
	Label           string
	Type            string
	Tags            []string
	LastModified    float64
	ChangeFrequency float32
	Prov            graph.Provenance
	PageRank        float32
}

// Edge is a primary (non-mirror) edge.
type Edge struct {
	Source, Target, Relation string
	Weight, Causal           float32
	Direction                string
	Inhibitory               bool
}

// Dump is a canonical graph.
type Dump struct {
	Nodes []Node
	Edges []Edge
}

// Of dumps a finalized graph.
func Of(g *graph.Graph) Dump {
	var d Dump
	for i := 0; i < g.NumNodes(); i++ {
		id := graph.NodeID(i)
		tags := g.Tags(id)
		slices.Sort(tags)
		d.Nodes = append(d.Nodes, Node{
			ID: g.ExternalID(id), Label: g.Label(id), Type: g.Type(id).String(), Tags: tags,
			LastModified: g.LastModified(id), ChangeFrequency: g.ChangeFrequency(id),
			Prov: g.Provenance(id), PageRank: g.PageRank(id),
		})
	}
	slices.SortFunc(d.Nodes, func(a, b Node) int { return strings.Compare(a.ID, b.ID) })
	for e := 0; e < g.NumEdges(); e++ {
		ei := graph.EdgeIdx(e)
		if g.IsMirror(ei) {
			continue
		}
		d.Edges = append(d.Edges, Edge{
			Source: g.ExternalID(g.Source(ei)), Target: g.ExternalID(g.Target(ei)), Relation: g.RelationName(ei),
			Weight: g.Weight(ei), Causal: g.CausalStrength(ei), Direction: g.EdgeDirection(ei).String(), Inhibitory: g.Inhibitory(ei),
		})
	}
	slices.SortFunc(d.Edges, func(a, b Edge) int {
		return strings.Compare(a.Source+"\x00"+a.Target+"\x00"+a.Relation, b.Source+"\x00"+b.Target+"\x00"+b.Relation)
	})
	return d
}

// EdgeStrings renders edges as "source -relation-> target" lines.
func (d Dump) EdgeStrings() []string {
	out := make([]string, len(d.Edges))
	for i, e := range d.Edges {
		out[i] = fmt.Sprintf("%s -%s-> %s", e.Source, e.Relation, e.Target)
	}
	return out
}

// Has reports whether the dump has the edge "source -relation-> target".
func (d Dump) Has(source, relation, target string) bool {
	for _, e := range d.Edges {
		if e.Source == source && e.Relation == relation && e.Target == target {
			return true
		}
	}
	return false
}

// Node returns the node with an external ID.
func (d Dump) Node(id string) (Node, bool) {
	i, ok := slices.BinarySearchFunc(d.Nodes, id, func(n Node, id string) int { return strings.Compare(n.ID, id) })
	if !ok {
		return Node{}, false
	}
	return d.Nodes[i], true
}
