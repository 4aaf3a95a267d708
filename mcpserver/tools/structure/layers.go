package structure

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	core "github.com/m1nd-go/m1nd/core/structure"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// unitParams choose the units a layering is built over (shared by layers
// and layer_inspect, so both read the same cached layering).
type unitParams struct {
	Granularity  string `json:"granularity" help:"module: Go packages (directories) and other languages' files; file: every file; directory: every directory." tool:"default=module,enum=module|file|directory"`
	Scope        string `json:"scope" help:"Keep only files whose repository path starts with this prefix (e.g. \"core/\")."`
	ExcludeTests bool   `json:"exclude_tests" help:"Leave test files out of the layering (they sit on top of everything they test)." tool:"default=true"`
	// NodeTypeFilter picks the node types the units are made of.
	NodeTypeFilter []string `json:"node_type_filter" help:"Node types that form the layered units. file: files, grouped by granularity. Entity types (class, struct, function, …): each such node is a unit holding what it contains (a class its methods); with file too, what no chosen entity holds stays in its file." tool:"default=file,enum=file|function|class|struct|enum|type,maxitems=6"`
}

func (p unitParams) key() (unitKey, error) {
	g, ok := core.ParseGranularity(p.Granularity)
	if !ok {
		return unitKey{}, tools.Errorf("granularity is module, file or directory.", "unknown granularity %q", p.Granularity)
	}
	k := unitKey{gran: g, scope: strings.TrimPrefix(p.Scope, "./"), excludeTests: p.ExcludeTests}
	var types []string
	for _, s := range p.NodeTypeFilter {
		t, err := graph.ParseNodeType(s)
		if err != nil || t == graph.Directory || t == graph.Module {
			return unitKey{}, tools.Errorf("node_type_filter lists file and entity types: file, function, class, struct, enum, type.",
				"node_type_filter: %q is not a node type layers can use", s)
		}
		types = append(types, t.String())
	}
	slices.Sort(types)
	k.types = strings.Join(slices.Compact(types), ",")
	if k.types == "File" || k.types == "" {
		k.types = ""
	}
	return k, nil
}

type layersParams struct {
	unitParams
	Detail string `json:"detail" help:"brief: 5 units per layer, 10 violations, 10 utility units; full: 30, 50, 50." tool:"default=brief,enum=brief|full"`
}

func registerLayers(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "layers",
		Title:       "Layers",
		Description: "Architectural layers from the dependencies, with upward, circular and skip violations.",
		Details: "Orders the repository's modules (Go packages, other languages' files) into at most 8 layers: " +
			"level 0 depends on no other layer, each module sits one level above its highest dependency. " +
			"Cycles (Tarjan SCC) are ordered inside by a greedy feedback-arc order, so one stray import is " +
			"reported as an UpwardDependency instead of fusing a stack into one layer; each cycle is also a " +
			"CircularDependency. Edges that skip two layers or more are SkipLayer (Low). Sparse layers (one " +
			"module) merge into their neighbour. Utility units: CrossCutting (used from 3+ layers), Bridge " +
			"(removing it splits the graph), Orphan (no dependency, no layer). Health per layer: links inside, " +
			"down, up, skipping, and its separation score (share not pointing up). node_type_filter layers entities instead " +
			"(class, struct, function…: each holds what it contains). A file imported for types alone (Python's if TYPE_CHECKING, " +
			"TypeScript's import type) is no runtime dependency: left out, counted in type_only_links. Cached per graph generation.",
		Class:     tools.Read,
		WhenToUse: "Before an architectural change or review: what sits on what, and which imports break the order?",
		AvoidWhen: "You need one file's dependents (impact).",
		Next:      []string{"layer_inspect", "impact"},
		Example:   map[string]any{"agent_id": "claude"},
	}, runLayers)
}

// LayersOutput is layers' answer.
type LayersOutput struct {
	Granularity     string          `json:"granularity"`
	Units           int             `json:"units"`
	Layered         int             `json:"layered"`
	Orphans         int             `json:"orphans"`
	Layers          []layerJSON     `json:"layers"`
	Separation      float64         `json:"layer_separation_score"`
	Cycles          int             `json:"cycles"`
	TypeOnly        int             `json:"type_only_links,omitempty" jsonschema:"File-level dependencies left out as type-only imports (if TYPE_CHECKING, import type): no cycle or violation at run time."`
	Violations      []violationJSON `json:"violations"`
	ViolationCounts map[string]int  `json:"violation_counts"`
	NotListed       int             `json:"violations_not_listed"`
	Utility         []utilityJSON   `json:"utility_nodes"`
	UtilityCounts   map[string]int  `json:"utility_counts"`
	Generation      uint64          `json:"graph_generation"`
	Cached          bool            `json:"cached"`
	ElapsedMs       float64         `json:"elapsed_ms"`
	Next            string          `json:"next_step_hint,omitempty"`
}

type layerJSON struct {
	Level  int        `json:"level"`
	Name   string     `json:"name" jsonschema:"Its top directories, with counts."`
	Units  int        `json:"units"`
	Sample []string   `json:"sample"`
	Health healthJSON `json:"health"`
}

type healthJSON struct {
	Internal   int     `json:"internal"`
	Down       int     `json:"down"`
	Up         int     `json:"up"`
	Skip       int     `json:"skip"`
	Separation float64 `json:"layer_separation_score"`
}

type violationJSON struct {
	Kind      string `json:"kind"`
	Severity  string `json:"severity"`
	From      string `json:"from"`
	To        string `json:"to"`
	FromLevel int    `json:"from_level"`
	ToLevel   int    `json:"to_level"`
	Links     int    `json:"links" jsonschema:"File-level dependencies behind it."`
	CycleSize int    `json:"cycle_size,omitempty"`
}

type utilityJSON struct {
	Unit         string `json:"unit"`
	Kind         string `json:"kind"`
	Layers       int    `json:"layers"`
	Dependents   int    `json:"dependents"`
	Dependencies int    `json:"dependencies"`
}

func runLayers(c *tools.Call, in layersParams) (LayersOutput, error) {
	k, err := in.key()
	if err != nil {
		return LayersOutput{}, err
	}
	nUnits, nViol, nUtil := 5, 10, 10
	if in.Detail == "full" {
		nUnits, nViol, nUtil = 30, 50, 50
	}
	var out LayersOutput
	err = tools.ReadGraph(c, func(b *session.Bundle) error {
		start := time.Now()
		L, cached, err := layering(b, k)
		if err != nil {
			return err
		}
		u := L.Units
		out = LayersOutput{Granularity: in.Granularity, Units: u.Len(), Separation: round3(L.Separation), Cycles: len(L.Cycles), TypeOnly: u.TypeOnly,
			ViolationCounts: map[string]int{}, UtilityCounts: map[string]int{}, Generation: uint64(b.Graph.Generation()), Cached: cached,
			Layers: []layerJSON{}, Violations: []violationJSON{}, Utility: []utilityJSON{}}
		for _, ly := range L.Layers {
			out.Layered += len(ly.Units)
			out.Layers = append(out.Layers, layerOut(L, ly, nUnits))
		}
		for _, v := range L.Violations {
			out.ViolationCounts[v.Kind.String()]++
			if len(out.Violations) < nViol {
				out.Violations = append(out.Violations, violationOut(L, v))
			} else {
				out.NotListed++
			}
		}
		for _, it := range L.Utility {
			out.UtilityCounts[it.Kind.String()]++
			if it.Kind == core.Orphan {
				out.Orphans++
			}
			if len(out.Utility) < nUtil && (it.Kind != core.Orphan || in.Detail == "full") {
				out.Utility = append(out.Utility, utilityJSON{Unit: u.Names[it.Unit], Kind: it.Kind.String(),
					Layers: it.Layers, Dependents: it.Dependents, Dependencies: it.Dependencies})
			}
		}
		if len(L.Layers) == 0 {
			out.Next = "No dependencies between the selected files: widen scope, or try granularity file."
		} else {
			out.Next = fmt.Sprintf("layer_inspect {level: 0..%d} lists a layer's units, its links to other layers and its violations.", len(L.Layers)-1)
		}
		out.ElapsedMs = tools.Ms(time.Since(start))
		return nil
	})
	return out, err
}

func round3(f float64) float64 { return tools.R3(float32(f)) }

func layerOut(L *core.Layering, ly core.Layer, n int) layerJSON {
	u := L.Units
	out := layerJSON{Level: ly.Level, Name: layerName(u, ly.Units), Units: len(ly.Units), Sample: []string{}, Health: healthOut(ly.Health)}
	for _, v := range byWeight(u, ly.Units)[:min(n, len(ly.Units))] {
		out.Sample = append(out.Sample, u.Names[v])
	}
	return out
}

func healthOut(h core.Health) healthJSON {
	return healthJSON{Internal: h.Internal, Down: h.Down, Up: h.Up, Skip: h.Skip, Separation: round3(h.Separation)}
}

func violationOut(L *core.Layering, v core.Violation) violationJSON {
	out := violationJSON{Kind: v.Kind.String(), Severity: v.Severity.String(), From: L.Units.Names[v.From], To: L.Units.Names[v.To],
		FromLevel: v.FromLevel, ToLevel: v.Level, Links: v.Weight}
	if v.Cycle >= 0 {
		out.CycleSize = len(L.Cycles[v.Cycle])
	}
	return out
}

// byWeight orders units by how many units depend on them or they on
// (most connected first), then by name: a layer's sample shows its
// central units.
func byWeight(u *core.Units, vs []int) []int {
	s := slices.Clone(vs)
	slices.SortStableFunc(s, func(a, b int) int {
		return cmp.Compare(len(u.In[b])+len(u.Out[b]), len(u.In[a])+len(u.Out[a]))
	})
	return s
}

// layerName names a layer by its top directories (at most three), most
// units first: "core (12), ingest (3)". Below a directory every unit
// shares (go-cmp's cmp/, a src/ layout) the next level names it: every
// layer was "cmp (4)".
func layerName(u *core.Units, vs []int) string {
	base := sharedDir(u.Names)
	count := map[string]int{}
	for _, v := range vs {
		count[dirKey(u.Names[v], base)]++
	}
	tops := slices.Collect(tools.MapsKeys(count))
	slices.SortFunc(tops, func(a, b string) int { return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(a, b)) })
	var parts []string
	for _, t := range tops[:min(3, len(tops))] {
		parts = append(parts, fmt.Sprintf("%s (%d)", t, count[t]))
	}
	if len(tops) > 3 {
		parts = append(parts, fmt.Sprintf("+%d more", len(tops)-3))
	}
	return strings.Join(parts, ", ")
}

// sharedDir is the directory every name lies in or is ("" when none, or
// when the root itself is a unit).
func sharedDir(names []string) string {
	if len(names) == 0 {
		return ""
	}
	parts := strings.Split(names[0], "/")
	for _, n := range names[1:] {
		p := strings.Split(n, "/")
		k := 0
		for k < len(parts) && k < len(p) && parts[k] == p[k] {
			k++
		}
		parts = parts[:k]
	}
	if len(parts) == 0 || parts[0] == "." {
		return ""
	}
	return strings.Join(parts, "/")
}

// dirKey is the directory that names a unit in a layer: its first
// element below base (base itself for the unit that is base).
func dirKey(name, base string) string {
	if base == "" {
		top, _, _ := strings.Cut(name, "/")
		return top
	}
	rest, ok := strings.CutPrefix(name, base+"/")
	if !ok {
		return name
	}
	next, _, _ := strings.Cut(rest, "/")
	return base + "/" + next
}
