package report

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"slices"
	"time"

	"github.com/m1nd-go/m1nd/core/analysis"
	coredyn "github.com/m1nd-go/m1nd/core/dynamics"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type panoramicParams struct {
	Scope string `json:"scope" help:"A path prefix (backend/, src/server/): only its files are ranked, and the maxima that normalise the score are taken inside it."`
	TopK  int    `json:"top_k" help:"Files listed, riskiest first; not_listed counts the rest." tool:"default=20,min=1,max=200"`
}

// PanoramicOutput is panoramic's answer.
type PanoramicOutput struct {
	Modules        []moduleRiskJSON `json:"modules" jsonschema:"Files by combined risk, riskiest first (at most top_k)."`
	NotListed      int              `json:"not_listed"`
	CriticalAlerts []alertJSON      `json:"critical_alerts" jsonschema:"Files with risk ≥ 0.7 (at most 20)."`
	Directories    []dirRiskJSON    `json:"directories" jsonschema:"Directories by their riskiest file (at most 10)."`
	Summary        panoramicSummary `json:"summary"`
	ElapsedMs      float64          `json:"elapsed_ms"`
	tools.Guidance
}

type moduleRiskJSON struct {
	NodeID          string  `json:"node_id"`
	Risk            float64 `json:"risk" jsonschema:"0.4 PageRank/max + 0.3 blast/max + 0.3 change frequency."`
	PageRank        float64 `json:"pagerank"`
	BlastRadius     int     `json:"blast_radius" jsonschema:"Non-test files depending on it within 3 hops."`
	Dependents      int     `json:"dependents" jsonschema:"Direct dependent files (tests excluded)."`
	ChangeFrequency float64 `json:"change_frequency"`
}

type alertJSON struct {
	NodeID string  `json:"node_id"`
	Risk   float64 `json:"risk"`
	Reason string  `json:"reason"`
}

type dirRiskJSON struct {
	Path     string  `json:"path"`
	Files    int     `json:"files"`
	MeanRisk float64 `json:"mean_risk"`
	MaxRisk  float64 `json:"max_risk"`
	Critical int     `json:"critical"`
	Riskiest string  `json:"riskiest"`
}

type panoramicSummary struct {
	FilesRanked int     `json:"files_ranked" jsonschema:"Non-test files in scope."`
	Critical    int     `json:"critical"`
	MeanRisk    float64 `json:"mean_risk"`
	Nodes       int     `json:"graph_nodes"`
	Edges       int     `json:"graph_edges"`
}

// Lists' bounds in panoramic's answer.
const (
	maxAlerts      = 20
	maxDirectories = 10
)

// riskPartsKey caches the per-file risk measures of one graph.
var riskPartsKey = session.NewKey[[]coredyn.FileRisk]("report.riskparts")

// RiskParts returns the bundle's per-file risk measures (built once per
// graph).
func RiskParts(ctx context.Context, b *session.Bundle) ([]coredyn.FileRisk, error) {
	return session.DeriveCtx(ctx, b, riskPartsKey, func(ctx context.Context, g *graph.Graph) ([]coredyn.FileRisk, error) {
		d, err := analysis.NewDepGraph(g, true)
		if err != nil {
			return nil, err
		}
		return coredyn.FileRiskParts(ctx, d)
	})
}

func registerPanoramic(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "panoramic",
		Title:       "Risk overview",
		Description: "Every file ranked by blast radius, centrality and churn, with critical alerts.",
		Details: "Ranks every non-test file (inside scope) by risk = 0.4 × PageRank / max PageRank + 0.3 × blast radius / max blast radius + 0.3 × change frequency, " +
			"where the blast radius counts the non-test files that depend on it within 3 hops (file level, dependency edges only) and change frequency comes from git history. " +
			"Files at risk ≥ 0.7 raise critical alerts. Directories are summarised by their riskiest file, mean risk and critical count. " +
			"The measures are computed once per graph; a scope re-normalises within it.",
		Class:     tools.Read,
		WhenToUse: "Starting on an unfamiliar repository, or choosing where a review or tests matter most.",
		AvoidWhen: "You already have a file in mind (impact, timeline).",
		Next:      []string{"impact", "view"},
		Example:   map[string]any{"agent_id": "claude", "top_k": 10},
	}, runPanoramic)
}

func runPanoramic(c *tools.Call, in panoramicParams) (PanoramicOutput, error) {
	var out PanoramicOutput
	err := tools.ReadGraph(c, func(b *session.Bundle) error {
		g := b.Graph
		start := time.Now()
		parts, err := RiskParts(c.Ctx, b)
		if err != nil {
			return err
		}
		ranked := coredyn.Rank(parts, in.Scope)
		if len(ranked) == 0 && in.Scope != "" {
			return tools.Errorf("scope is a path prefix of the ingested files, e.g. \"backend/\"; glob lists the files.",
				"no file to rank under scope %q", in.Scope).
				WithExample(map[string]any{"agent_id": c.AgentID, "top_k": 10}).WithNext("Call panoramic without scope, or glob to see the paths.")
		}
		out = panoramicOut(g, ranked, in.TopK)
		out.ElapsedMs = tools.Ms(time.Since(start))
		if len(ranked) > 0 {
			out.Guidance = tools.Guidance{
				ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "impact", "view"),
				NextSuggestedTarget: g.ExternalID(ranked[0].File),
				NextStepHint:        fmt.Sprintf("Start with %s (risk %.2f): what depends on it, then read it.", ranked[0].Path, ranked[0].Risk),
			}
		}
		return nil
	})
	return out, err
}

func panoramicOut(g *graph.Graph, ranked []coredyn.FileRisk, topK int) PanoramicOutput {
	out := PanoramicOutput{Modules: []moduleRiskJSON{}, CriticalAlerts: []alertJSON{}}
	dirs := map[string]*dirRiskJSON{}
	sum := 0.0
	for i, r := range ranked {
		id := g.ExternalID(r.File)
		if i < topK {
			out.Modules = append(out.Modules, moduleRiskJSON{NodeID: id, Risk: r3(r.Risk), PageRank: r3(r.PageRank),
				BlastRadius: r.Blast, Dependents: r.Dependents, ChangeFrequency: r3(r.Churn)})
		}
		critical := r.Risk >= coredyn.CriticalRisk
		if critical {
			out.Summary.Critical++
			if len(out.CriticalAlerts) < maxAlerts {
				out.CriticalAlerts = append(out.CriticalAlerts, alertJSON{id, r3(r.Risk),
					fmt.Sprintf("%d files depend on it within 3 hops (%d directly), change frequency %.2f", r.Blast, r.Dependents, r.Churn)})
			}
		}
		dir := path.Dir(r.Path)
		d := dirs[dir]
		if d == nil {
			d = &dirRiskJSON{Path: dir, MaxRisk: -1}
			dirs[dir] = d
		}
		d.Files++
		d.MeanRisk += r.Risk
		if r.Risk > d.MaxRisk {
			d.MaxRisk, d.Riskiest = r.Risk, id // ranked order: the first is the riskiest
		}
		if critical {
			d.Critical++
		}
		sum += r.Risk
	}
	out.NotListed = len(ranked) - len(out.Modules)
	for _, d := range dirs {
		d.MeanRisk, d.MaxRisk = r3(d.MeanRisk/float64(d.Files)), r3(d.MaxRisk)
		out.Directories = append(out.Directories, *d)
	}
	slices.SortFunc(out.Directories, func(a, b dirRiskJSON) int {
		if c := cmp.Compare(b.MaxRisk, a.MaxRisk); c != 0 {
			return c
		}
		return cmp.Compare(a.Path, b.Path)
	})
	out.Directories = out.Directories[:min(len(out.Directories), maxDirectories)]
	if out.Directories == nil {
		out.Directories = []dirRiskJSON{}
	}
	out.Summary.FilesRanked, out.Summary.Nodes, out.Summary.Edges = len(ranked), g.NumNodes(), g.NumEdges()
	if len(ranked) > 0 {
		out.Summary.MeanRisk = r3(sum / float64(len(ranked)))
	}
	return out
}

func r3(f float64) float64 { return tools.R3(float32(f)) }
