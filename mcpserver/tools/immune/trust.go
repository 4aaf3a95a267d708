package immune

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/risk"
	"github.com/m1nd-go/m1nd/mcpserver/immunity"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type trustParams struct {
	MinHistory    int     `json:"min_history" help:"List only modules with at least this many observations (commits that touched them plus recorded outcomes); 0 also lists modules without evidence (cold start 0.5)." tool:"default=1,min=0,max=100000"`
	TierFilter    string  `json:"tier_filter" help:"Only modules of this tier: HighRisk (trust < 0.4), MediumRisk (< 0.7) or LowRisk; all lists every tier." tool:"default=all,enum=all|HighRisk|MediumRisk|LowRisk"`
	SortBy        string  `json:"sort_by" help:"TrustAsc: riskiest first; TrustDesc: safest first; DefectsDesc: most fixes and confirmed defects first; Recency: the most recent defect first." tool:"default=TrustAsc,enum=TrustAsc|TrustDesc|DefectsDesc|Recency"`
	HalfLifeHours float64 `json:"half_life_hours" help:"How fast a defect's weight in the recency factor fades: after this many hours it counts half." tool:"default=720,min=1,max=87600"`
	Scope         string  `json:"scope" jsonschema:"Path prefix or substring of the modules." help:"Keep only modules whose id or path contains this (e.g. \"backend/\")."`
	TopK          int     `json:"top_k" help:"How many modules to list; the counts cover all of them." tool:"default=20,min=1,max=500"`
	IncludeDocs   bool    `json:"include_docs" help:"Also score files without code: documents (README, CHANGELOG …: every fix touches a changelog, which makes it look fragile), data and fixtures." tool:"default=false"`
}

type trustModule struct {
	NodeID          string    `json:"node_id"`
	Trust           float64   `json:"trust"`
	Tier            risk.Tier `json:"tier"`
	DefectsPerYear  float64   `json:"defects_per_year" jsonschema:"Posterior defect rate (Gamma prior)."`
	Recency         float64   `json:"recency" jsonschema:"0 right after a defect, 1 long after (or none)."`
	Changes         int       `json:"changes"`
	Fixes           int       `json:"fixes" jsonschema:"Commits touching it whose subject fixes something."`
	Defects         int       `json:"defects,omitempty" jsonschema:"Recorded by learn (correct)."`
	FalseAlarms     int       `json:"false_alarms,omitempty" jsonschema:"Recorded by learn (wrong)."`
	Partials        int       `json:"partials,omitempty" jsonschema:"Recorded by learn (partial)."`
	LastDefectHours *float64  `json:"last_defect_hours,omitempty"`
}

// TrustOutput is trust's answer.
type TrustOutput struct {
	Modules       []trustModule  `json:"modules"`
	TotalModules  int            `json:"total_modules" jsonschema:"Modules passing the filters."`
	NotListed     int            `json:"not_listed"`
	ByTier        map[string]int `json:"by_tier"`
	Commits       int            `json:"commits"`
	FixCommits    int            `json:"fix_commits"`
	MassEdits     int            `json:"mass_edits_skipped,omitempty" jsonschema:"Commits of more than 50 files, left out."`
	Outcomes      int            `json:"modules_with_outcomes" jsonschema:"Modules with outcomes recorded by learn."`
	HalfLifeHours float64        `json:"half_life_hours"`
	Warnings      []string       `json:"warnings,omitempty"`
	ElapsedMs     float64        `json:"elapsed_ms"`
	tools.Guidance
}

func registerTrust(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "trust",
		Title:       "Module trust",
		Description: "Per-file trust from fix commits and learn outcomes: which modules break most.",
		Details: "Trust per module (file) from its defect history: the commits whose subject fixes something (fix, bug, " +
			"regression, crash …) count as defects in the files they touched, and learn's outcomes add to them (correct: a " +
			"confirmed defect, wrong: a false alarm, partial: half a defect). The base is the chance of a defect-free year at " +
			"the posterior defect rate (Gamma prior; a module without evidence scores 0.5); trust = base × (0.3 + 0.7 × recency), " +
			"where recency = 1 − 2^(−hours since the last defect / half_life_hours). Tiers: HighRisk < 0.4, MediumRisk < 0.7, " +
			"LowRisk. Commits of more than 50 files are left out. History ages count from the newest commit, outcomes from now. " +
			"Outcomes persist in trust_state.json beside the graph.",
		Class:     tools.Read,
		WhenToUse: "Before editing or reviewing: which modules have a history of breaking?",
		AvoidWhen: "You need what a change breaks (impact) or accelerating churn (tremor).",
		Next:      []string{"tremor", "heuristics_surface", "impact"},
		Example:   map[string]any{"agent_id": "claude", "tier_filter": "HighRisk"},
	}, runTrust)
}

func runTrust(c *tools.Call, in trustParams) (TrustOutput, error) {
	var out TrustOutput
	st := immunity.For(c.Session)
	now := c.Session.Now().Unix()
	err := tools.ReadGraph(c, func(b *session.Bundle) error {
		g := b.Graph
		start := time.Now()
		hs := immunity.SignalsOf(b)
		type row struct {
			id graph.NodeID
			e  risk.Evidence
			s  risk.Score
		}
		var rows []row
		out.ByTier = map[string]int{string(risk.HighRisk): 0, string(risk.MediumRisk): 0, string(risk.LowRisk): 0}
		for id := graph.NodeID(0); int(id) < g.NumNodes(); id++ {
			if g.Type(id) != graph.File || !matchesFilter(g, id, in.Scope) || !in.IncludeDocs && holdsNoCode(g, id) {
				continue
			}
			e := st.TrustEvidence(g, hs, id, now)
			if e.Observations() < in.MinHistory {
				continue
			}
			s := risk.Compute(e, in.HalfLifeHours)
			if in.TierFilter != "all" && string(s.Tier) != in.TierFilter {
				continue
			}
			out.ByTier[string(s.Tier)]++
			rows = append(rows, row{id, e, s})
		}
		slices.SortFunc(rows, func(a, b row) int {
			var c int
			switch in.SortBy {
			case "TrustDesc":
				c = cmp.Compare(b.s.Trust, a.s.Trust)
			case "DefectsDesc":
				c = cmp.Compare(b.e.Fixes+b.e.Defects, a.e.Fixes+a.e.Defects)
			case "Recency":
				c = cmp.Compare(recencyKey(a.e), recencyKey(b.e))
			default:
				c = cmp.Compare(a.s.Trust, b.s.Trust)
			}
			return cmp.Or(c, cmp.Compare(g.ExternalID(a.id), g.ExternalID(b.id)))
		})
		out.TotalModules = len(rows)
		for _, r := range rows[:min(len(rows), in.TopK)] {
			out.Modules = append(out.Modules, moduleJSON(g, r.id, r.e, r.s))
		}
		out.Modules = tools.OrEmpty(out.Modules)
		out.NotListed = len(rows) - len(out.Modules)
		out.Commits, out.FixCommits, out.MassEdits = hs.Commits, hs.FixCommits, hs.MassEdits
		out.Outcomes = len(st.Trust.Modules())
		out.HalfLifeHours = in.HalfLifeHours
		out.Warnings = st.Warnings
		out.ElapsedMs = tools.Ms(time.Since(start))
		out.Guidance = trustGuidance(c, out)
		return nil
	})
	return out, err
}

// recencyKey orders the most recent defect first, modules without one last.
func recencyKey(e risk.Evidence) float64 {
	if e.LastDefectHours < 0 {
		return math.Inf(1)
	}
	return e.LastDefectHours
}

func moduleJSON(g *graph.Graph, id graph.NodeID, e risk.Evidence, s risk.Score) trustModule {
	m := trustModule{
		NodeID: g.ExternalID(id), Trust: r3(s.Trust), Tier: s.Tier, DefectsPerYear: r3(s.Rate), Recency: r3(s.Recency),
		Changes: e.Changes, Fixes: e.Fixes, Defects: e.Defects, FalseAlarms: e.FalseAlarms, Partials: e.Partials,
	}
	if e.LastDefectHours >= 0 {
		h := math.Round(e.LastDefectHours*10) / 10
		m.LastDefectHours = &h
	}
	return m
}

func r3(v float64) float64 { return tools.R3(float32(v)) }

func trustGuidance(c *tools.Call, out TrustOutput) tools.Guidance {
	if out.Commits == 0 && out.Outcomes == 0 {
		return tools.Guidance{ProofState: "triaging", NextStepHint: "No git history and no recorded outcomes: every module sits at the cold-start trust 0.5. Ingest a git checkout, or record outcomes with learn."}
	}
	if len(out.Modules) == 0 {
		return tools.Guidance{ProofState: "triaging", NextStepHint: "No module passes the filters; lower min_history or widen tier_filter and scope."}
	}
	top := out.Modules[0]
	return tools.Guidance{
		ProofState:          "triaging",
		NextSuggestedTool:   tools.FirstTool(c.Registry, "heuristics_surface", "impact"),
		NextSuggestedTarget: top.NodeID,
		NextStepHint:        fmt.Sprintf("%s: trust %.2f (%s, %d fixes in %d changes). Check its blast radius before changing it, and add tests where it breaks.", top.NodeID, top.Trust, top.Tier, top.Fixes+top.Defects, top.Changes),
	}
}
