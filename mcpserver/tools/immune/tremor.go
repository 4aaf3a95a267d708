package immune

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/risk"
	"github.com/m1nd-go/m1nd/mcpserver/immunity"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type tremorParams struct {
	Window       string  `json:"window" help:"7d (daily bins), 30d (3-day bins), 90d or all (12 bins over the window). Commits count back from the repository's newest commit, learn observations from now." tool:"default=30d,enum=7d|30d|90d|all"`
	NodeFilter   string  `json:"node_filter" jsonschema:"Substring of the modules' ids or paths." help:"Keep only modules whose id or path contains this (e.g. \"backend/\")."`
	MinMagnitude float64 `json:"min_magnitude" help:"List only modules whose magnitude (|mean second difference| × √events) reaches this." tool:"default=0,min=0,max=1000"`
	TopK         int     `json:"top_k" help:"How many modules to list; the counts cover all of them." tool:"default=20,min=1,max=500"`
	Detail       string  `json:"detail" help:"brief: the reading of each module; full: also its per-bin event counts, oldest first." tool:"default=brief,enum=brief|full"`
	IncludeDocs  bool    `json:"include_docs" help:"Also read files without code: documents (README, CHANGELOG …), which change with everything, data and fixtures." tool:"default=false"`
}

type tremorModule struct {
	NodeID    string     `json:"node_id"`
	Direction string     `json:"direction"`
	Magnitude float64    `json:"magnitude"`
	MeanAccel float64    `json:"mean_acceleration" jsonschema:"Mean second difference of the per-bin counts."`
	Slope     float64    `json:"slope" jsonschema:"Regression slope of the per-bin counts."`
	Events    int        `json:"events" jsonschema:"Commits and learn observations in the window."`
	Commits   int        `json:"commits"`
	Learned   int        `json:"learn_observations,omitempty"`
	Risk      risk.Level `json:"risk_level"`
	Series    []float64  `json:"series,omitempty" jsonschema:"Events per bin, oldest first (detail full)."`
}

// TremorOutput is tremor's answer.
type TremorOutput struct {
	Window       string         `json:"window"`
	Bins         int            `json:"bins"`
	BinHours     float64        `json:"bin_hours"`
	Modules      []tremorModule `json:"modules"`
	TotalModules int            `json:"total_modules" jsonschema:"Modules with events in the window that pass the filters."`
	NotListed    int            `json:"not_listed"`
	ByRisk       map[string]int `json:"by_risk"`
	Warnings     []string       `json:"warnings,omitempty"`
	ElapsedMs    float64        `json:"elapsed_ms"`
	tools.Guidance
}

func registerTremor(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "tremor",
		Title:       "Change acceleration",
		Description: "Modules whose change frequency accelerates (git and learn events).",
		Details: "Change acceleration per module (file): its commits in the window (ages from the newest commit) and the " +
			"learn calls that named it (ages from now; a ring of 256 per module, one per second at most, kept in " +
			"tremor_state.json) are counted in equal bins; the mean second difference of the counts is the " +
			"acceleration, magnitude = |acceleration| × √events, and the counts' regression slope the trend. " +
			"Direction: Accelerating or Decelerating from magnitude 1, else Stable. Risk: Critical when magnitude > 5 " +
			"and slope > 0.5, High above magnitude 3 with a rising slope, Medium from 1, Low below, Unknown under 3 events. " +
			"Commits of more than 50 files are left out.",
		Class:     tools.Read,
		WhenToUse: "Looking for modules heating up: change that accelerates often precedes bugs.",
		AvoidWhen: "You need one file's full history (timeline) or its defect record (trust).",
		Next:      []string{"trust", "heuristics_surface", "timeline"},
		Example:   map[string]any{"agent_id": "claude", "window": "90d"},
	}, runTremor)
}

func runTremor(c *tools.Call, in tremorParams) (TremorOutput, error) {
	w, err := risk.ParseWindow(in.Window)
	if err != nil {
		return TremorOutput{}, tools.Errorf("window is 7d, 30d, 90d or all.", "%v", err)
	}
	var out TremorOutput
	st := immunity.For(c.Session)
	nowMs := c.Session.Now().UnixMilli()
	err = tools.ReadGraph(c, func(b *session.Bundle) error {
		g := b.Graph
		start := time.Now()
		hs := immunity.SignalsOf(b)
		span := tremorSpan(w, hs, st, nowMs)
		type row struct {
			id               graph.NodeID
			r                risk.Reading
			commits, learned int
		}
		var rows []row
		out.ByRisk = map[string]int{}
		for _, id := range tremorCandidates(g, hs, st) {
			if !matchesFilter(g, id, in.NodeFilter) || !in.IncludeDocs && holdsNoCode(g, id) {
				continue
			}
			ages, commits, learned := st.TremorAges(g, hs, id, nowMs, span)
			r := risk.Measure(ages, span, w.Bins())
			if r.Events == 0 || r.Magnitude < in.MinMagnitude {
				continue
			}
			out.ByRisk[string(r.Risk)]++
			rows = append(rows, row{id, r, commits, learned})
		}
		slices.SortFunc(rows, func(a, b row) int {
			return cmp.Or(cmp.Compare(b.r.Magnitude, a.r.Magnitude), cmp.Compare(b.r.Slope, a.r.Slope), cmp.Compare(g.ExternalID(a.id), g.ExternalID(b.id)))
		})
		for _, r := range rows[:min(len(rows), in.TopK)] {
			m := tremorModule{NodeID: g.ExternalID(r.id), Direction: string(r.r.Direction), Magnitude: r3(r.r.Magnitude), MeanAccel: r3(r.r.MeanAccel),
				Slope: r3(r.r.Slope), Events: r.r.Events, Commits: r.commits, Learned: r.learned, Risk: r.r.Risk}
			if in.Detail == "full" {
				m.Series = r.r.Series
			}
			out.Modules = append(out.Modules, m)
		}
		out.Modules = tools.OrEmpty(out.Modules)
		out.Window, out.Bins, out.BinHours = string(w), w.Bins(), r3(span/float64(w.Bins())/3600)
		out.TotalModules, out.NotListed = len(rows), len(rows)-len(out.Modules)
		out.Warnings = st.Warnings
		out.ElapsedMs = tools.Ms(time.Since(start))
		out.Guidance = tremorGuidance(c, out)
		return nil
	})
	return out, err
}

// tremorSpan is the window's length; for all, the history's span or the
// oldest learn observation's age, whichever is longer.
func tremorSpan(w risk.Window, hs *immunity.Signals, st *immunity.Store, nowMs int64) float64 {
	if s := w.Span(); s > 0 {
		return s
	}
	span := hs.Span
	for _, n := range st.Tremor.Nodes() {
		if obs := st.Tremor.Of(n); len(obs) > 0 {
			span = max(span, float64(nowMs-obs[0].At)/1000)
		}
	}
	return span
}

// tremorCandidates are the files with commits or learn observations,
// ascending.
func tremorCandidates(g *graph.Graph, hs *immunity.Signals, st *immunity.Store) []graph.NodeID {
	seen := map[graph.NodeID]bool{}
	for id := range hs.Ages {
		seen[id] = true
	}
	for _, ext := range st.Tremor.Nodes() {
		if id, ok := g.Lookup(ext); ok {
			seen[id] = true
		}
	}
	out := make([]graph.NodeID, 0, len(seen))
	for id := range seen {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

func tremorGuidance(c *tools.Call, out TremorOutput) tools.Guidance {
	if len(out.Modules) == 0 {
		return tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "trust"),
			NextStepHint: fmt.Sprintf("No module changed in the %s window (or passes the filters); try window all, or trust for the defect record.", out.Window)}
	}
	top := out.Modules[0]
	return tools.Guidance{
		ProofState:          "triaging",
		NextSuggestedTool:   tools.FirstTool(c.Registry, "heuristics_surface", "timeline"),
		NextSuggestedTarget: top.NodeID,
		NextStepHint:        fmt.Sprintf("%s is %s (magnitude %.2f, risk %s): see what else ranks it risky before changing it.", top.NodeID, top.Direction, top.Magnitude, top.Risk),
	}
}
