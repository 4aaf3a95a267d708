package dynamics

import (
	"errors"
	"fmt"
	"time"

	coredyn "github.com/m1nd-go/m1nd/core/dynamics"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type flowParams struct {
	NumParticles        int     `json:"num_particles" help:"How many entry points to simulate, one particle each, in discovery order (main functions, request handlers, commands, then public functions nothing calls)." tool:"default=20,min=1,max=100"`
	MaxDepth            int     `json:"max_depth" help:"How many call/reference hops a particle travels from its entry point." tool:"default=10,min=1,max=50"`
	TurbulenceThreshold float64 `json:"turbulence_threshold" jsonschema:"Least score reported (2 entries unlocked: 0.5)." help:"Least score a collision needs to be listed: 1 − 1/entries, halved when every path takes a lock (2 entry points without a lock: 0.5, with: 0.25)." tool:"default=0.5,min=0,max=1"`
	ScopeFilter         string  `json:"scope_filter" help:"A path prefix (backend/, internal/server/): entry points and particles stay inside it."`
	Detail              string  `json:"detail" help:"brief (the default): at most 10 turbulence points, each with up to 5 of its entry points and one path; full: at most 20, with up to 10 colliding pairs and a path for each of up to 5 entry points." tool:"default=brief,enum=brief|full"`
}

// FlowOutput is flow_simulate's answer.
type FlowOutput struct {
	EntryPoints       []entryJSON      `json:"entry_points" jsonschema:"The entry points simulated, one particle each (brief: the first 10)."`
	EntryPointsFound  int              `json:"entry_points_found"`
	Turbulence        []turbulenceJSON `json:"turbulence" jsonschema:"Shared mutable state reached from several entry points, highest score first."`
	TurbulenceNotList int              `json:"turbulence_not_listed"`
	BelowThreshold    int              `json:"below_threshold" jsonschema:"Collisions scored under turbulence_threshold."`
	Valves            []valveJSON      `json:"valves" jsonschema:"Locks and bottlenecks the particles reached."`
	Steps             int              `json:"steps" jsonschema:"Nodes visited by all particles (budget 10000)."`
	Truncated         bool             `json:"truncated" jsonschema:"The step budget ended the walk."`
	ElapsedMs         float64          `json:"elapsed_ms"`
	tools.Guidance
}

type entryJSON struct {
	NodeID string `json:"node_id"`
	Kind   string `json:"kind" jsonschema:"main, http_handler, cli_command or public_uncalled."`
}

type turbulenceJSON struct {
	NodeID     string      `json:"node_id" jsonschema:"The variable, or the class or struct whose attribute it is."`
	Attribute  string      `json:"attribute,omitempty"`
	Shared     string      `json:"shared" jsonschema:"module (variable), class (ClassName.x, cls.x), module_instance (an instance held at module level) or instance (may be per call)."`
	Writes     []string    `json:"writes,omitempty" jsonschema:"An attribute's writes in the methods reached: file:line (at most 5)."`
	File       string      `json:"file,omitempty"`
	Entries    []string    `json:"entries" jsonschema:"Entry points reaching it (brief: at most 5)."`
	EntryCount int         `json:"entry_count"`
	EntryPairs [][2]string `json:"entry_pairs,omitempty" jsonschema:"Full: pairs of entry points that collide here (at most 10)."`
	Paths      [][]string  `json:"paths" jsonschema:"Paths from entry points, entry first (brief: one; full: up to 5)."`
	Guarded    bool        `json:"guarded" jsonschema:"Every path calls or references a lock."`
	Score      float64     `json:"score"`
	Severity   string      `json:"severity" jsonschema:"critical, high, medium or low."`
}

type valveJSON struct {
	NodeID    string `json:"node_id"`
	Particles int    `json:"particles"`
}

// Lists' bounds in flow_simulate's answer: full, then brief.
const (
	maxTurbulenceListed = 20
	maxPairsListed      = 10
	maxPathsListed      = 5
	maxValvesListed     = 20
	maxWritesListed     = 5
	briefTurbulence     = 10
	briefEntries        = 5
	briefEntryPoints    = 10
)

func registerFlow(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "flow_simulate",
		Title:       "Flow collisions",
		Description: "Where execution from different entry points meets on shared mutable state (race candidates).",
		Details: "Discovers entry points — main functions, request handlers (ServeHTTP, routed views, functions named handle… or …Handler), commands (functions named cmd…, …Command, run/execute under cmd/ or cli), then public functions nothing in the repository calls; methods other than ServeHTTP and routed views are not entry points — and launches one particle from each (num_particles of them). " +
			"Particles walk call and reference edges breadth-first up to max_depth hops, in turn, one node each, so the walk is deterministic; together they visit at most 10,000 nodes (truncated says the budget ended it). " +
			"Turbulence: a module-level variable (not a constant) that particles of two entry points or more reach, or an attribute of a class or struct that methods they reach use, one of them writing it outside a constructor " +
			"(self.x = …, self.x[k] = …, self.x.append(…), cls.x / ClassName.x, this.x in JavaScript and TypeScript, fields through a Go pointer receiver; read from the methods' lines on disk, lexically); " +
			"its score is 1 − 1/entries, halved when every path calls or references a lock (or the method uses one of its object's locks), halved again for an instance attribute whose instance is not held at module level (shared: instance — it may be per call); " +
			"severity critical (4+ entries, unguarded and shared), high, medium or low. " +
			"Each point lists its entry points, colliding pairs and one path per entry. Valves: nodes whose name is a lock or bottleneck word (mu, mutex, lock, semaphore, queue, pool, limiter …), with the particles that reach them. " +
			"Python module-level variables are read from the functions of their file (an element written, a mutating call, an assignment after global); other languages' variables from the graph, where every reference counts.",
		Class:     tools.Read,
		WhenToUse: "Looking for race conditions: which global state do several entry points (handlers, main, commands) touch?",
		AvoidWhen: "You need the callers of one function (impact) or a single execution path (trace).",
		Next:      []string{"view", "impact"},
		Example:   map[string]any{"agent_id": "claude", "num_particles": 20, "scope_filter": "backend/"},
	}, runFlow)
}

func runFlow(c *tools.Call, in flowParams) (FlowOutput, error) {
	var out FlowOutput
	err := tools.ReadGraph(c, func(b *session.Bundle) error {
		g := b.Graph
		start := time.Now()
		p := coredyn.FlowParams{Particles: in.NumParticles, MaxDepth: in.MaxDepth, TurbulenceThreshold: in.TurbulenceThreshold, Scope: in.ScopeFilter,
			Source: methodSource(b)}
		res, err := coredyn.Flow(c.Ctx, g, p)
		if errors.Is(err, coredyn.ErrNoEntryPoints) {
			where := "the graph"
			if in.ScopeFilter != "" {
				where = fmt.Sprintf("scope_filter %q", in.ScopeFilter)
			}
			return tools.Errorf("Entry points are functions named main, request handlers (ServeHTTP, handle…, …Handler), commands (cmd…, …Command) or public functions nothing calls; widen or drop scope_filter, or ingest the code that holds them.",
				"NoEntryPoints: %s holds no function execution could start from", where).
				WithExample(map[string]any{"agent_id": c.AgentID, "num_particles": 20}).
				WithNext("Call flow_simulate without scope_filter, or check the graph with seek \"main\".")
		}
		if err != nil {
			return err
		}
		out.fill(g, res, in.Detail == "full")
		out.ElapsedMs = tools.Ms(time.Since(start))
		out.Guidance = flowGuidance(c, g, res)
		return nil
	})
	return out, err
}

func (out *FlowOutput) fill(g *graph.Graph, res coredyn.FlowResult, full bool) {
	limit, entries, paths, entryPoints := maxTurbulenceListed, len(res.Entries), maxPathsListed, len(res.Entries)
	if !full {
		limit, entries, paths, entryPoints = briefTurbulence, briefEntries, 1, briefEntryPoints
	}
	for _, e := range res.Entries[:min(len(res.Entries), entryPoints)] {
		out.EntryPoints = append(out.EntryPoints, entryJSON{g.ExternalID(e.Node), e.Kind.String()})
	}
	out.EntryPointsFound = res.EntriesFound
	out.Turbulence = []turbulenceJSON{}
	for _, t := range res.Turbulence[:min(len(res.Turbulence), limit)] {
		tj := turbulenceJSON{NodeID: g.ExternalID(t.Node), Attribute: t.Attr, Shared: t.Shared, File: g.SourcePath(t.Node), Guarded: t.Guarded,
			Score: tools.R3(float32(t.Score)), Severity: t.Severity, EntryCount: len(t.Entries)}
		for _, w := range t.Writes[:min(len(t.Writes), maxWritesListed)] {
			tj.Writes = append(tj.Writes, tools.FmtLines(g.SourcePath(w.Node), w.Line))
		}
		for j, e := range t.Entries {
			if j < entries {
				tj.Entries = append(tj.Entries, g.ExternalID(e))
			}
			if j < paths {
				tj.Paths = append(tj.Paths, ids(g, t.Paths[j]))
			}
			for _, f := range t.Entries[j+1:] {
				if full && len(tj.EntryPairs) < maxPairsListed {
					tj.EntryPairs = append(tj.EntryPairs, [2]string{g.ExternalID(e), g.ExternalID(f)})
				}
			}
		}
		out.Turbulence = append(out.Turbulence, tj)
	}
	out.TurbulenceNotList = len(res.Turbulence) - len(out.Turbulence)
	out.BelowThreshold = res.Below
	out.Valves = []valveJSON{}
	for _, v := range res.Valves[:min(len(res.Valves), maxValvesListed)] {
		out.Valves = append(out.Valves, valveJSON{g.ExternalID(v.Node), v.Particles})
	}
	out.Steps, out.Truncated = res.Steps, res.Truncated
}

func ids(g *graph.Graph, ns []graph.NodeID) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = g.ExternalID(n)
	}
	return out
}

func flowGuidance(c *tools.Call, g *graph.Graph, res coredyn.FlowResult) tools.Guidance {
	if len(res.Turbulence) == 0 {
		hint := "No shared variable or written attribute is reached from two entry points at this threshold."
		if res.Below > 0 {
			hint += fmt.Sprintf(" %d guarded or weaker collisions lie below it (lower turbulence_threshold to list them).", res.Below)
		}
		return tools.Guidance{ProofState: "triaging", NextStepHint: hint}
	}
	t := res.Turbulence[0]
	return tools.Guidance{
		ProofState:          "proving",
		NextSuggestedTool:   tools.FirstTool(c.Registry, "view", "impact"),
		NextSuggestedTarget: g.ExternalID(tools.FileOf(g, t.Node)),
		NextStepHint:        fmt.Sprintf("%s is reached from %d entry points; read where it is written and check the locking.", stateName(g, t), len(t.Entries)),
	}
}

// stateName is a turbulence point's state: a variable's label, or
// Class.attr.
func stateName(g *graph.Graph, t coredyn.Turbulence) string {
	if t.Attr == "" {
		return g.Label(t.Node)
	}
	return g.Label(t.Node) + "." + t.Attr
}
