package patterns

import (
	"fmt"
	"time"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/patterns"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type ghostParams struct {
	Scope string `json:"scope" jsonschema:"Path prefix or glob of one file." help:"Only pairs with at least one file under this path prefix (\"src/api/\") or glob."`
	Depth string `json:"depth" help:"How far back in the history, counted from its newest commit: 7d, 30d, 90d or all." tool:"default=all,enum=7d|30d|90d|all"`
	TopK  int    `json:"top_k" help:"Pairs listed; total_ghost_edges counts all." tool:"default=10,min=1,max=100"`
}

// GhostOutput is ghost_edges' answer.
type GhostOutput struct {
	GhostEdges []ghostJSON `json:"ghost_edges" jsonschema:"Strongest first."`
	Total      int         `json:"total_ghost_edges"`
	Coupled    int         `json:"coupled_pairs" jsonschema:"Pairs with enough joint commits, linked or not."`
	Commits    int         `json:"commits_read"`
	Depth      string      `json:"depth"`
	Note       string      `json:"note,omitempty"`
	ElapsedMs  float64     `json:"elapsed_ms"`
	tools.Guidance
}

type ghostJSON struct {
	Source       string  `json:"source"`
	Target       string  `json:"target"`
	Support      int     `json:"support" jsonschema:"Commits that changed both."`
	Confidence   float64 `json:"confidence" jsonschema:"Support over the quieter file's commits."`
	Score        float64 `json:"score"`
	LastTogether string  `json:"last_together" jsonschema:"Date of the newest joint commit."`
}

func registerGhosts(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "ghost_edges",
		Title:       "Hidden coupling",
		Description: "File pairs that change together in git history with no edge between them.",
		Details: "Reads the git history ingest recorded: every pair of code files changed in the same commits at least twice (commits of more than 20 files left out), " +
			"minus the pairs with a static dependency either way (imports, calls, references, inheritance, tests). Each pair has its support (joint commits), " +
			"confidence (support over the quieter file's commits) and a score that discounts little support. depth limits the window, counted back from the newest commit.",
		Class:     tools.Read,
		WhenToUse: "Hidden temporal coupling before a refactor: what else usually changes, though nothing links it.",
		AvoidWhen: "You changed one file and want what else needs a change (predict).",
		Next:      []string{"predict", "why", "view"},
		Example:   map[string]any{"agent_id": "claude", "depth": "all", "top_k": 10},
	}, runGhosts)
}

var fileDepsKey = session.NewKey[*analysis.DepGraph]("patterns.deps.file")

func runGhosts(c *tools.Call, in ghostParams) (GhostOutput, error) {
	var out GhostOutput
	err := tools.ReadGraph(c, func(b *session.Bundle) error {
		g := b.Graph
		scope, err := tools.ParseScope(b, in.Scope)
		if err != nil {
			return err
		}
		start := time.Now()
		deps, err := session.Derive(b, fileDepsKey, func(g *graph.Graph) (*analysis.DepGraph, error) { return analysis.NewDepGraph(g, true) })
		if err != nil {
			return err
		}
		x := b.History()
		p := patterns.GhostParams{TopK: in.TopK, Keep: func(id graph.NodeID) bool { return tools.HoldsCode(g, id) }}
		if days := map[string]int64{"7d": 7, "30d": 30, "90d": 90}[in.Depth]; days > 0 {
			p.Since = x.Head() - days*86400
		}
		if scope != nil {
			p.Focus = func(id graph.NodeID) bool { return scope.Match(g.SourcePath(id)) }
		}
		res := patterns.Ghosts(x, deps, p)
		out = GhostOutput{GhostEdges: []ghostJSON{}, Total: res.Total, Coupled: res.Coupled, Commits: res.Commits, Depth: in.Depth}
		for _, gh := range res.Ghosts {
			out.GhostEdges = append(out.GhostEdges, ghostJSON{
				Source: g.ExternalID(gh.A), Target: g.ExternalID(gh.B), Support: gh.Support, Confidence: gh.Confidence, Score: gh.Score,
				LastTogether: time.Unix(gh.Last, 0).UTC().Format(time.DateOnly),
			})
		}
		if x.Len() == 0 {
			out.Note = "The graph has no git history (not a repository, or ingested without it): there is no co-change to read."
		}
		out.ElapsedMs = tools.Ms(time.Since(start))
		out.Guidance = ghostGuidance(c, out, scope != nil)
		return nil
	})
	return out, err
}

func ghostGuidance(c *tools.Call, out GhostOutput, scoped bool) tools.Guidance {
	if len(out.GhostEdges) == 0 {
		return tools.Guidance{ProofState: "triaging", NextStepHint: noGhostHint(out, scoped)}
	}
	top := out.GhostEdges[0]
	return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "view"), NextSuggestedTarget: top.Source,
		NextStepHint: fmt.Sprintf("%s and %s changed together in %d commits with nothing linking them: read both for a shared format, protocol or duplicated rule.", top.Source, top.Target, top.Support)}
}

// noGhostHint says what an empty answer covered, and suggests only a wider
// window or scope that the call did not already use.
func noGhostHint(out GhostOutput, scoped bool) string {
	what := fmt.Sprintf("No hidden coupling in %d commits", out.Commits)
	if out.Coupled == 0 {
		what = fmt.Sprintf("No two code files changed together twice in %d commits", out.Commits)
	} else {
		what += fmt.Sprintf(": the %d pairs that change together are linked by a dependency", out.Coupled)
	}
	switch {
	case out.Depth != "all":
		return what + fmt.Sprintf(" (depth %s); try depth all.", out.Depth)
	case scoped:
		return what + " under this scope; drop scope for the whole repository."
	}
	return what + "."
}
