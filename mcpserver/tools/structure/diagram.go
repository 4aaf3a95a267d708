package structure

import (
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	core "github.com/m1nd-go/m1nd/core/structure"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type diagramParams struct {
	Center     string `json:"center" jsonschema:"Node id, path or label; omit for the top files." help:"The node to draw around (an external id, a path or a label): its dependencies and dependents, breadth-first. A directory draws the top files under it. Omitted: the files with the highest PageRank." tool:"maxlen=1000"`
	Format     string `json:"format" help:"mermaid (a flowchart) or dot (Graphviz)." tool:"default=mermaid,enum=mermaid|dot"`
	Direction  string `json:"direction" help:"TD: top down; LR: left to right." tool:"default=TD,enum=TD|LR"`
	MaxNodes   int    `json:"max_nodes" help:"Most boxes drawn; nodes_omitted counts the nodes left out." tool:"default=25,min=2,max=150"`
	Depth      int    `json:"depth" help:"Hops walked from center." tool:"default=2,min=1,max=4"`
	Scope      string `json:"scope" jsonschema:"Path prefix for the top files." help:"Without center: draw only files under this path prefix."`
	EdgeLabels bool   `json:"edge_labels" help:"Label each arrow with the relation that makes it (imports, calls, …)." tool:"default=true"`
}

func registerDiagram(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "diagram",
		Title:       "Dependency diagram",
		Description: "Mermaid or DOT diagram of a node's dependency neighbourhood, or of the top files.",
		Details: "Draws dependencies as Mermaid (flowchart) or Graphviz DOT text. With center: a breadth-first walk over its dependencies and dependents " +
			"(files for a file, entities for a function or class), depth hops, highest PageRank first within a hop, at most max_nodes boxes (nodes_omitted counts the rest). " +
			"Without center (or with a directory): the files with the highest PageRank, scoped by path prefix. Each box carries its PageRank; " +
			"each arrow reads \"depends on\" and is labelled with the relation that makes it. The text parses in Mermaid and renders with Graphviz's dot.",
		Class:     tools.Read,
		WhenToUse: "Explaining structure to a person or another agent; a picture for a review or a design doc.",
		AvoidWhen: "You need the dependents as data (impact) or the layering (layers).",
		Next:      []string{"impact", "layers"},
		Example:   map[string]any{"agent_id": "claude", "center": "file::backend/session.py", "format": "mermaid"},
	}, runDiagram)
}

// DiagramOutput is diagram's answer.
type DiagramOutput struct {
	Format    string  `json:"format"`
	Diagram   string  `json:"diagram"`
	Center    string  `json:"center,omitempty"`
	Level     string  `json:"level" jsonschema:"file or entity: what a box is."`
	NodeCount int     `json:"node_count"`
	EdgeCount int     `json:"edge_count"`
	Omitted   int     `json:"nodes_omitted"`
	ElapsedMs float64 `json:"elapsed_ms"`
}

func runDiagram(c *tools.Call, in diagramParams) (DiagramOutput, error) {
	var out DiagramOutput
	err := tools.ReadGraph(c, func(b *session.Bundle) error {
		g := b.Graph
		start := time.Now()
		scope := strings.TrimPrefix(in.Scope, "./")
		center := graph.NoNode
		if in.Center != "" {
			id, err := tools.ResolveNode(b, in.Center, "center")
			if err != nil {
				return err
			}
			if t := g.Type(id); t == graph.Directory || t == graph.Module && g.HasTag(id, "package") {
				scope = strings.TrimPrefix(strings.TrimPrefix(g.ExternalID(id), "dir::"), "package::") + "/"
			} else {
				center = id
			}
		}
		entity := center != graph.NoNode && g.Type(center) != graph.File
		d, err := fileDeps(b)
		if entity {
			d, err = entityDeps(b)
		}
		if err != nil {
			return err
		}
		var units []graph.NodeID
		var hops []int
		if center != graph.NoNode {
			if u := d.Unit(center); u != graph.NoNode {
				center = u
			}
			units, hops, out.Omitted = core.Neighbourhood(d, center, in.Depth, in.MaxNodes)
			out.Center = g.ExternalID(center)
		} else {
			units, out.Omitted = core.TopUnits(d, func(v graph.NodeID) bool {
				return g.Type(v) == graph.File && strings.HasPrefix(core.FilePath(g, v), scope)
			}, in.MaxNodes)
			if len(units) == 0 {
				return tools.Errorf("scope is a path prefix of ingested files, e.g. \"src/\".", "no file under %q", scope).
					WithExample(map[string]any{"agent_id": "claude", "max_nodes": 20})
			}
		}
		dg := core.BuildDiagram(d, units, hops, func(v graph.NodeID) string { return tools.ShortID(g, v) })
		out.Format, out.NodeCount, out.EdgeCount = in.Format, len(dg.Nodes), len(dg.Edges)
		out.Level = levelName(entity)
		if in.Format == "dot" {
			out.Diagram = dg.DOT(in.Direction, in.EdgeLabels)
		} else {
			out.Diagram = dg.Mermaid(in.Direction, in.EdgeLabels)
		}
		out.ElapsedMs = tools.Ms(time.Since(start))
		return nil
	})
	return out, err
}

func levelName(entity bool) string {
	if entity {
		return "entity"
	}
	return "file"
}
