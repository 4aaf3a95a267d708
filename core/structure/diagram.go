package structure

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
)

// Diagram is a bounded picture of part of a dependency graph: its nodes
// (the center first when there is one) and the dependencies among them.
type Diagram struct {
	Nodes []DiagramNode
	Edges []DiagramEdge
	// Omitted counts nodes the walk reached but max_nodes left out.
	Omitted int
}

// DiagramNode is one box: a unit of the DepGraph.
type DiagramNode struct {
	Node     graph.NodeID
	Label    string
	PageRank float32
	Center   bool
	Hop      int
}

// DiagramEdge says Nodes[From] depends on Nodes[To]; Label is the
// relation that makes it (the most frequent one between the two units).
type DiagramEdge struct {
	From, To int
	Label    string
}

// Neighbourhood walks d breadth-first from center in both directions
// (dependencies and dependents), up to depth hops and maxNodes units;
// within a hop the units with the highest PageRank come first (ties by
// ID). It returns the units with their hop and how many it left out.
func Neighbourhood(d *analysis.DepGraph, center graph.NodeID, depth, maxNodes int) (nodes []graph.NodeID, hops []int, omitted int) {
	g := d.Graph()
	seen := map[graph.NodeID]bool{center: true}
	nodes, hops = []graph.NodeID{center}, []int{0}
	frontier := []graph.NodeID{center}
	for hop := 1; hop <= depth && len(frontier) > 0; hop++ {
		var next []graph.NodeID
		for _, v := range frontier {
			for _, list := range [][]graph.NodeID{d.Dependencies(v), d.Dependents(v)} {
				for _, w := range list {
					if !seen[w] {
						seen[w] = true
						next = append(next, w)
					}
				}
			}
		}
		byRank(g, next)
		take := min(len(next), maxNodes-len(nodes))
		omitted += len(next) - take
		for _, w := range next[:take] {
			nodes, hops = append(nodes, w), append(hops, hop)
		}
		frontier = next[:take]
	}
	return nodes, hops, omitted
}

// TopUnits are the n units of d with the highest PageRank among those
// keep accepts (ties by ID), and how many it left out.
func TopUnits(d *analysis.DepGraph, keep func(graph.NodeID) bool, n int) ([]graph.NodeID, int) {
	g := d.Graph()
	var all []graph.NodeID
	for v := 0; v < g.NumNodes(); v++ {
		id := graph.NodeID(v)
		if d.Unit(id) == id && keep(id) {
			all = append(all, id)
		}
	}
	byRank(g, all)
	take := min(n, len(all))
	return all[:take], len(all) - take
}

func byRank(g *graph.Graph, s []graph.NodeID) {
	slices.SortFunc(s, func(a, b graph.NodeID) int {
		return cmp.Or(cmp.Compare(g.PageRank(b), g.PageRank(a)), cmp.Compare(a, b))
	})
}

// BuildDiagram draws units and the dependencies among them, labelled by
// relation; label names each unit.
func BuildDiagram(d *analysis.DepGraph, units []graph.NodeID, hops []int, label func(graph.NodeID) string) Diagram {
	g := d.Graph()
	index := make(map[graph.NodeID]int, len(units))
	var dg Diagram
	for i, v := range units {
		index[v] = i
		n := DiagramNode{Node: v, Label: label(v), PageRank: g.PageRank(v)}
		if hops != nil {
			n.Hop, n.Center = hops[i], hops[i] == 0
		}
		dg.Nodes = append(dg.Nodes, n)
	}
	labels := relationLabels(d, index)
	for i, v := range units {
		for _, w := range d.Dependencies(v) {
			if j, ok := index[w]; ok {
				dg.Edges = append(dg.Edges, DiagramEdge{From: i, To: j, Label: labels[[2]int{i, j}]})
			}
		}
	}
	slices.SortFunc(dg.Edges, func(a, b DiagramEdge) int { return cmp.Or(a.From-b.From, a.To-b.To) })
	return dg
}

// relationLabels names each link between drawn units by its most frequent
// relation (ties by name), scanning the graph's edges once.
func relationLabels(d *analysis.DepGraph, index map[graph.NodeID]int) map[[2]int]string {
	g := d.Graph()
	kinds := map[graph.Str]analysis.RelKind{}
	count := map[[2]int]map[string]int{}
	for e := graph.EdgeIdx(0); int(e) < g.NumEdges(); e++ {
		if g.IsMirror(e) {
			continue
		}
		s := g.Relation(e)
		k, ok := kinds[s]
		if !ok {
			k = analysis.ClassifyRelation(g.Strings().String(s))
			kinds[s] = k
		}
		a, b := d.Unit(g.Source(e)), d.Unit(g.Target(e))
		if k == analysis.DependedOnBy {
			a, b = b, a
		} else if k != analysis.DependsOn {
			continue
		}
		i, ok1 := index[a]
		j, ok2 := index[b]
		if !ok1 || !ok2 || i == j {
			continue
		}
		key := [2]int{i, j}
		if count[key] == nil {
			count[key] = map[string]int{}
		}
		count[key][g.Strings().String(s)]++
	}
	out := make(map[[2]int]string, len(count))
	for key, m := range count {
		best := ""
		for r, c := range m {
			if best == "" || c > m[best] || (c == m[best] && r < best) {
				best = r
			}
		}
		out[key] = best
	}
	return out
}

// Mermaid renders dg as a Mermaid flowchart; direction is "TD" or "LR".
// Labels are quoted with Mermaid's entity codes, so any path renders.
func (dg Diagram) Mermaid(direction string, edgeLabels bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "flowchart %s\n", direction)
	for i, n := range dg.Nodes {
		fmt.Fprintf(&b, "  n%d[\"%s<br/>PR %.2f\"]\n", i, mermaidText(n.Label), n.PageRank)
	}
	for _, e := range dg.Edges {
		if l := safeLabel(e.Label); edgeLabels && l != "" {
			fmt.Fprintf(&b, "  n%d -->|%s| n%d\n", e.From, l, e.To)
		} else {
			fmt.Fprintf(&b, "  n%d --> n%d\n", e.From, e.To)
		}
	}
	for i, n := range dg.Nodes {
		if n.Center {
			fmt.Fprintf(&b, "  style n%d stroke-width:3px\n", i)
		}
	}
	return b.String()
}

// DOT renders dg as a Graphviz digraph; direction "TD" or "LR".
func (dg Diagram) DOT(direction string, edgeLabels bool) string {
	rank := "TB"
	if direction == "LR" {
		rank = "LR"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "digraph m1nd {\n  rankdir=%s;\n  node [shape=box, fontsize=10];\n", rank)
	for i, n := range dg.Nodes {
		extra := ""
		if n.Center {
			extra = ", penwidth=3"
		}
		fmt.Fprintf(&b, "  n%d [label=\"%s\\nPR %.2f\"%s];\n", i, dotText(n.Label), n.PageRank, extra)
	}
	for _, e := range dg.Edges {
		if l := safeLabel(e.Label); edgeLabels && l != "" {
			fmt.Fprintf(&b, "  n%d -> n%d [label=\"%s\"];\n", e.From, e.To, l)
		} else {
			fmt.Fprintf(&b, "  n%d -> n%d;\n", e.From, e.To)
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// mermaidText escapes a label for a quoted Mermaid node: "#" first (it
// starts an entity code), then quotes, angle brackets and backticks.
func mermaidText(s string) string {
	return strings.NewReplacer("#", "#35;", "\"", "#quot;", "<", "#lt;", ">", "#gt;", "`", "#96;", "\n", " ").Replace(s)
}

func dotText(s string) string {
	return strings.NewReplacer("\\", "\\\\", "\"", "\\\"", "\n", " ").Replace(s)
}

// safeLabel keeps an edge label to letters, digits, '_' and '-'.
func safeLabel(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}
