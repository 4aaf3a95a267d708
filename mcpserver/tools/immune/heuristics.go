package immune

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/risk"
	"github.com/m1nd-go/m1nd/mcpserver/immunity"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type heuristicsParams struct {
	NodeID   string `json:"node_id" help:"The node to explain: an external id, a path, a qualified name or a label. Give node_id or file_path."`
	FilePath string `json:"file_path" jsonschema:"Or a file path." help:"A file to explain (a path relative to the repository or absolute inside it). Give node_id or file_path."`
}

type factorJSON struct {
	Factor string  `json:"factor"`
	Value  float64 `json:"value"`
	// Signal puts every factor on one scale: how strongly it says
	// "risky" or "important", in [0, 1].
	Signal float64 `json:"signal" jsonschema:"The factor on a common 0–1 scale (1: strongest)."`
	Reason string  `json:"reason"`
}

type heurTrust struct {
	Trust          float64 `json:"trust"`
	Tier           string  `json:"tier"`
	DefectsPerYear float64 `json:"defects_per_year"`
	Changes        int     `json:"changes"`
	Fixes          int     `json:"fixes"`
	Defects        int     `json:"defects,omitempty"`
	FalseAlarms    int     `json:"false_alarms,omitempty"`
}

type heurTremor struct {
	Window    string  `json:"window"`
	Direction string  `json:"direction"`
	Magnitude float64 `json:"magnitude"`
	Slope     float64 `json:"slope"`
	Events    int     `json:"events"`
	Risk      string  `json:"risk_level"`
}

type heurBlast struct {
	Direct   int  `json:"direct_dependents"`
	Total    int  `json:"total_dependents" jsonschema:"Within 3 hops, as impact counts them."`
	Hops     int  `json:"max_hops_reached"`
	Truncate bool `json:"truncated,omitempty"`
}

type heurCentrality struct {
	PageRank   float64 `json:"pagerank"`
	Percentile float64 `json:"percentile" jsonschema:"Share of the graph's nodes with a lower PageRank."`
	InDegree   int     `json:"in_degree"`
	OutDegree  int     `json:"out_degree"`
}

type heurAntibodies struct {
	Scanned  int         `json:"scanned"`
	Matches  []scanMatch `json:"matches" jsonschema:"Matches that bind the node (or a node of the file); at most 5."`
	Total    int         `json:"total_matches"`
	TimedOut int         `json:"timed_out,omitempty"`
}

// HeuristicsOutput is heuristics_surface's answer.
type HeuristicsOutput struct {
	Node       string         `json:"node"`
	Type       string         `json:"type"`
	File       string         `json:"file,omitempty"`
	Factors    []factorJSON   `json:"factors" jsonschema:"Every signal, strongest first."`
	Reasons    []string       `json:"reasons" jsonschema:"The factors with a signal of 0.5 or more, in words."`
	Trust      heurTrust      `json:"trust"`
	Tremor     heurTremor     `json:"tremor"`
	Antibodies heurAntibodies `json:"antibodies"`
	Blast      heurBlast      `json:"blast_radius"`
	Centrality heurCentrality `json:"centrality"`
	ElapsedMs  float64        `json:"elapsed_ms"`
	tools.Guidance
}

func registerHeuristics(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "heuristics_surface",
		Title:       "Risk breakdown",
		Description: "Why a node or file ranks risky: trust, tremor, antibodies, blast radius, centrality.",
		Details: "Explains a node (or a file) by every risk and importance signal at once: its file's trust (defect history), " +
			"its file's tremor over 90 days, the stored antibodies whose matches bind it (or a node of the file), its blast " +
			"radius (impact's dependents within 3 hops) and its centrality (PageRank and its percentile, degrees). Each " +
			"factor also gets a signal in [0, 1] — 1 − trust; tremor magnitude / 5 when accelerating; the worst match's " +
			"severity / 4 × confidence; dependents / (dependents + 10); the PageRank percentile — and the factors are " +
			"ordered by it; those at 0.5 or more are the reasons, in words.",
		Class:     tools.Read,
		WhenToUse: "A node ranks unexpectedly high (or you must justify caution) before editing or escalating.",
		AvoidWhen: "You need the list of dependents itself (impact).",
		Next:      []string{"impact", "trust", "tremor"},
		Example:   map[string]any{"agent_id": "claude", "node_id": "file::backend/session.py"},
	}, runHeuristics)
}

func runHeuristics(c *tools.Call, in heuristicsParams) (HeuristicsOutput, error) {
	ref, param := in.NodeID, "node_id"
	switch {
	case ref != "" && in.FilePath != "":
		return HeuristicsOutput{}, tools.Errorf("Give node_id for a node, or file_path for a file, not both.", "both node_id and file_path given").
			WithExample(map[string]any{"agent_id": c.AgentID, "node_id": "file::src/app.py"})
	case ref == "":
		ref, param = in.FilePath, "file_path"
	}
	if ref == "" {
		return HeuristicsOutput{}, tools.Errorf("Name what to explain: node_id (an id, path or label) or file_path.", "node_id or file_path is required").
			WithExample(map[string]any{"agent_id": c.AgentID, "file_path": "src/app.py"})
	}
	st := immunity.For(c.Session)
	now := c.Session.Now()
	var out HeuristicsOutput
	err := tools.ReadGraph(c, func(b *session.Bundle) error {
		g := b.Graph
		id, err := tools.ResolveNode(b, ref, param)
		if err != nil {
			return err
		}
		start := time.Now()
		file := moduleOf(g, id)
		out.Node, out.Type = g.ExternalID(id), tools.TypeName(g.Type(id))
		if g.Type(file) == graph.File {
			out.File = g.ExternalID(file)
		}
		hs := immunity.SignalsOf(b)
		out.Trust = heuristicTrust(g, hs, st, file, now.Unix())
		out.Tremor = heuristicTremor(g, hs, st, file, now.UnixMilli())
		out.Antibodies = heuristicAntibodies(g, st, id, param == "file_path" || id == file)
		blast, err := heuristicBlast(g, id)
		if err != nil {
			return err
		}
		out.Blast = blast
		out.Centrality = heuristicCentrality(g, id)
		out.Factors, out.Reasons = factors(out)
		out.ElapsedMs = tools.Ms(time.Since(start))
		out.Guidance = heuristicsGuidance(c, out)
		return nil
	})
	return out, err
}

func heuristicTrust(g *graph.Graph, hs *immunity.Signals, st *immunity.Store, file graph.NodeID, now int64) heurTrust {
	e := st.TrustEvidence(g, hs, file, now)
	s := risk.Compute(e, risk.HalfLifeHours)
	return heurTrust{Trust: r3(s.Trust), Tier: string(s.Tier), DefectsPerYear: r3(s.Rate), Changes: e.Changes, Fixes: e.Fixes, Defects: e.Defects, FalseAlarms: e.FalseAlarms}
}

func heuristicTremor(g *graph.Graph, hs *immunity.Signals, st *immunity.Store, file graph.NodeID, nowMs int64) heurTremor {
	w := risk.Days90
	ages, _, _ := st.TremorAges(g, hs, file, nowMs, w.Span())
	r := risk.Measure(ages, w.Span(), w.Bins())
	return heurTremor{Window: string(w), Direction: string(r.Direction), Magnitude: r3(r.Magnitude), Slope: r3(r.Slope), Events: r.Events, Risk: string(r.Risk)}
}

// heuristicAntibodies keeps the matches that bind id — or, for a file,
// any node the file holds.
func heuristicAntibodies(g *graph.Graph, st *immunity.Store, id graph.NodeID, wholeFile bool) heurAntibodies {
	res := st.MatchesBinding(g, func(n graph.NodeID) bool { return n == id || wholeFile && moduleOf(g, n) == id })
	out := heurAntibodies{Matches: []scanMatch{}, Scanned: res.Scanned, TimedOut: res.TimedOut, Total: len(res.Hits)}
	for _, h := range res.Hits[:min(len(res.Hits), 5)] {
		out.Matches = append(out.Matches, matchJSON(g, h.Antibody, h.Match))
	}
	return out
}

func heuristicBlast(g *graph.Graph, id graph.NodeID) (heurBlast, error) {
	p := analysis.DefaultImpactParams()
	p.TopK, p.IncludeCausalChains = 1, false
	res, err := analysis.Impact(g, id, p)
	if err != nil {
		return heurBlast{}, err
	}
	b := heurBlast{Total: res.Affected, Hops: res.MaxHopsReached, Truncate: res.Truncated}
	if len(res.ByHop) > 0 {
		b.Direct = res.ByHop[0]
	}
	return b, nil
}

func heuristicCentrality(g *graph.Graph, id graph.NodeID) heurCentrality {
	pr := g.PageRank(id)
	lower := 0
	for n := graph.NodeID(0); int(n) < g.NumNodes(); n++ {
		if g.PageRank(n) < pr {
			lower++
		}
	}
	return heurCentrality{PageRank: tools.R3(pr), Percentile: r3(float64(lower) / float64(g.NumNodes())), InDegree: g.InDegree(id), OutDegree: g.OutDegree(id)}
}

// factors puts the signals on one scale (docs/design.md#heuristics_surface)
// and words the strong ones.
func factors(o HeuristicsOutput) ([]factorJSON, []string) {
	tremorSig := 0.0
	if o.Tremor.Direction == string(risk.Accelerating) {
		tremorSig = math.Min(1, o.Tremor.Magnitude/risk.CriticalMagnitude)
	}
	abSig, abReason := 0.0, "no stored bug shape binds it"
	if len(o.Antibodies.Matches) > 0 {
		m := o.Antibodies.Matches[0]
		abSig = float64(sevRank(m.Severity)) / 4 * m.Confidence
		abReason = fmt.Sprintf("%d antibody matches bind it; the worst %s (%s, confidence %.2f)", o.Antibodies.Total, m.AntibodyID, m.Severity, m.Confidence)
	}
	fs := []factorJSON{
		{"trust", o.Trust.Trust, r3(1 - o.Trust.Trust), fmt.Sprintf("%s: trust %.2f from %d fixes in %d changes (%.2f defects a year)", o.Trust.Tier, o.Trust.Trust, o.Trust.Fixes+o.Trust.Defects, o.Trust.Changes, o.Trust.DefectsPerYear)},
		{"tremor", o.Tremor.Magnitude, r3(tremorSig), fmt.Sprintf("change is %s over %s (magnitude %.2f, %d events, risk %s)", o.Tremor.Direction, o.Tremor.Window, o.Tremor.Magnitude, o.Tremor.Events, o.Tremor.Risk)},
		{"antibodies", float64(o.Antibodies.Total), r3(abSig), abReason},
		{"blast_radius", float64(o.Blast.Total), r3(float64(o.Blast.Total) / float64(o.Blast.Total+10)), fmt.Sprintf("%d direct and %d dependents in all within %d hops", o.Blast.Direct, o.Blast.Total, max(o.Blast.Hops, 0))},
		{"centrality", o.Centrality.PageRank, o.Centrality.Percentile, fmt.Sprintf("PageRank above %.0f %% of the graph (in %d, out %d edges)", 100*o.Centrality.Percentile, o.Centrality.InDegree, o.Centrality.OutDegree)},
	}
	slices.SortStableFunc(fs, func(a, b factorJSON) int {
		return cmp.Or(cmp.Compare(b.Signal, a.Signal), cmp.Compare(a.Factor, b.Factor))
	})
	reasons := []string{}
	for _, f := range fs {
		if f.Signal >= 0.5 {
			reasons = append(reasons, f.Factor+": "+f.Reason)
		}
	}
	return fs, reasons
}

func heuristicsGuidance(c *tools.Call, o HeuristicsOutput) tools.Guidance {
	g := tools.Guidance{ProofState: "triaging", NextSuggestedTarget: o.Node}
	switch top := o.Factors[0]; {
	case top.Signal < 0.5:
		g.NextSuggestedTool = tools.FirstTool(c.Registry, "view")
		g.NextStepHint = "No signal is strong: the node is neither fragile nor central; read it and edit."
	case top.Factor == "blast_radius" || top.Factor == "centrality":
		g.NextSuggestedTool = tools.FirstTool(c.Registry, "impact")
		g.NextStepHint = "It matters mostly by its reach: list its dependents with impact before changing its interface."
	case top.Factor == "antibodies":
		g.NextSuggestedTool = tools.FirstTool(c.Registry, "antibody_scan")
		g.NextStepHint = "A known bug's shape binds it: check whether that bug's fix applies here."
	default:
		g.NextSuggestedTool = tools.FirstTool(c.Registry, "timeline", "trust")
		g.NextStepHint = "Its history says fragile: read its recent changes and fixes before editing, and add a test where it broke."
	}
	return g
}
