package structure

import (
	"cmp"
	"slices"
	"time"

	core "github.com/m1nd-go/m1nd/core/structure"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type layerInspectParams struct {
	Level int `json:"level" jsonschema:"Layer index from layers; 0 is the bottom." tool:"required,min=0"`
	unitParams
	TopK int `json:"top_k" help:"Units, edges and violations listed (each list; counts give the rest)." tool:"default=30,min=1,max=500"`
}

func registerLayerInspect(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "layer_inspect",
		Title:       "Inspect a layer",
		Description: "One layer from layers: its units, links to other layers, violations and health.",
		Details: "Inspects one layer of the layering layers computes (same granularity, scope and exclude_tests, " +
			"same cache): its units, most connected first, with their dependents, dependencies and upward links; " +
			"the links from this layer down and from higher layers into it, per layer and the heaviest unit pairs; " +
			"the violations that start or end in it; its health. A level outside the layering is a LayerNotFound error naming the valid range.",
		Class:     tools.Read,
		WhenToUse: "After layers: what is in a layer, what it leans on, what breaks its order.",
		AvoidWhen: "You have not called layers yet (it gives the levels).",
		Next:      []string{"impact", "layers"},
		Example:   map[string]any{"agent_id": "claude", "level": 0},
	}, runLayerInspect)
}

// LayerInspectOutput is layer_inspect's answer.
type LayerInspectOutput struct {
	Level          int             `json:"level"`
	Layers         int             `json:"layer_count"`
	Name           string          `json:"name"`
	Units          []unitJSON      `json:"units"`
	UnitsTotal     int             `json:"units_total"`
	Down           []levelLinks    `json:"depends_on_levels" jsonschema:"Its links to other levels (up = violation)."`
	From           []levelLinks    `json:"depended_on_by_levels" jsonschema:"Links into it, per level."`
	Edges          []edgeJSON      `json:"inter_layer_edges" jsonschema:"Heaviest unit pairs crossing the layer's border."`
	EdgesTotal     int             `json:"inter_layer_edges_total"`
	Violations     []violationJSON `json:"violations"`
	ViolationTotal int             `json:"violations_total"`
	Health         healthJSON      `json:"health"`
	ElapsedMs      float64         `json:"elapsed_ms"`
}

type unitJSON struct {
	Unit         string `json:"unit"`
	Files        int    `json:"files"`
	Dependents   int    `json:"dependents"`
	Dependencies int    `json:"dependencies"`
	Up           int    `json:"up,omitempty" jsonschema:"Its dependencies on higher layers."`
	Cycle        int    `json:"cycle,omitempty" jsonschema:"Its cycle's number (1: largest), if any."`
}

type levelLinks struct {
	Level int `json:"level"`
	Links int `json:"links"`
}

type edgeJSON struct {
	From      string `json:"from"`
	To        string `json:"to"`
	FromLevel int    `json:"from_level"`
	ToLevel   int    `json:"to_level"`
	Links     int    `json:"links"`
}

// layerNotFound is the LayerNotFound error: the level, the valid range.
func layerNotFound(level, count int) error {
	if count == 0 {
		return tools.Errorf("layers found no dependencies between the selected files: widen scope or try granularity file.",
			"LayerNotFound: level %d, but the layering has no layers", level).WithNext("Call layers to see the units and orphans.")
	}
	return tools.Errorf("Levels run from 0 (the bottom) to the top layer layers reports.",
		"LayerNotFound: level %d is out of range; valid levels are 0..%d", level, count-1).
		WithExample(map[string]any{"agent_id": "claude", "level": count - 1}).
		WithNext("Call layers for the list of layers and their names.")
}

func runLayerInspect(c *tools.Call, in layerInspectParams) (LayerInspectOutput, error) {
	k, err := in.key()
	if err != nil {
		return LayerInspectOutput{}, err
	}
	var out LayerInspectOutput
	err = tools.ReadGraph(c, func(b *session.Bundle) error {
		start := time.Now()
		L, _, err := layering(b, k)
		if err != nil {
			return err
		}
		if in.Level >= len(L.Layers) {
			return layerNotFound(in.Level, len(L.Layers))
		}
		out = inspect(L, in.Level, in.TopK)
		out.ElapsedMs = tools.Ms(time.Since(start))
		return nil
	})
	return out, err
}

// inspect describes layer lv of L, each list at most topK long.
func inspect(L *core.Layering, lv, topK int) LayerInspectOutput {
	u, ly := L.Units, L.Layers[lv]
	out := LayerInspectOutput{Level: lv, Layers: len(L.Layers), Name: layerName(u, ly.Units), UnitsTotal: len(ly.Units),
		Health: healthOut(ly.Health), Units: []unitJSON{}, Down: []levelLinks{}, From: []levelLinks{}, Edges: []edgeJSON{}, Violations: []violationJSON{}}
	for _, v := range byWeight(u, ly.Units)[:min(topK, len(ly.Units))] {
		up := 0
		for _, l := range u.Out[v] {
			if L.Level[l.To] > lv {
				up += l.Weight
			}
		}
		out.Units = append(out.Units, unitJSON{Unit: u.Names[v], Files: len(u.Members[v]), Dependents: len(u.In[v]), Dependencies: len(u.Out[v]),
			Up: up, Cycle: L.CycleOf[v] + 1})
	}
	down, from := map[int]int{}, map[int]int{}
	var edges []edgeJSON
	for _, v := range ly.Units {
		for _, l := range u.Out[v] {
			if t := L.Level[l.To]; t != lv {
				down[t] += l.Weight
				edges = append(edges, edgeJSON{u.Names[v], u.Names[l.To], lv, t, l.Weight})
			}
		}
		for _, l := range u.In[v] {
			if s := L.Level[l.To]; s != lv {
				from[s] += l.Weight
				edges = append(edges, edgeJSON{u.Names[l.To], u.Names[v], s, lv, l.Weight})
			}
		}
	}
	out.Down, out.From = levels(down), levels(from)
	slices.SortFunc(edges, func(a, b edgeJSON) int {
		return cmp.Or(cmp.Compare(b.Links, a.Links), cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To))
	})
	out.EdgesTotal = len(edges)
	out.Edges = append(out.Edges, edges[:min(topK, len(edges))]...)
	for _, v := range L.Violations {
		if v.FromLevel == lv || v.Level == lv {
			if out.ViolationTotal++; len(out.Violations) < topK {
				out.Violations = append(out.Violations, violationOut(L, v))
			}
		}
	}
	return out
}

func levels(m map[int]int) []levelLinks {
	out := []levelLinks{}
	for l, n := range m {
		out = append(out, levelLinks{l, n})
	}
	slices.SortFunc(out, func(a, b levelLinks) int { return cmp.Compare(b.Level, a.Level) })
	return out
}
