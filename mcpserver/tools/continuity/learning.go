package continuity

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

func registerLearning(r *tools.Registry) {
	r.Register(&tools.Tool{
		Name:        "learn",
		Title:       "Learn from feedback",
		Description: "Explicit feedback on query results: \"correct\" ranks the given nodes higher when this query (or a similar one, sharing most words or seeds) is asked again, \"wrong\" ranks them lower, \"partial\" is a weaker \"correct\". It also adjusts the edges around the nodes (Hebbian learning with LTP/LTD). Edge weights persist with the graph; the per-query verdicts last for the server's session.",
		Params: []tools.Param{
			{Name: "query", Type: tools.String, Required: true, Description: "The query the feedback is about (as used in activate/seek)."},
			{Name: "feedback", Type: tools.String, Required: true, Enum: []string{"correct", "wrong", "partial"}, Description: "correct: these nodes were relevant; wrong: these were noise; partial: only these were relevant."},
			{Name: "node_ids", Type: tools.StringArray, Required: true, Description: "The nodes judged (external ids, paths or labels)."},
			{Name: "strength", Type: tools.Number, Default: 0.2, Min: tools.Bound(0), Max: tools.Bound(1), Description: "How strong the verdict is: its weight in later rankings (three calls at 1 settle it) and how far the edge adjustment reaches into the nodes' neighbourhood."},
		},
		Input:     reflect.TypeFor[LearnParams](),
		Output:    reflect.TypeFor[learnOutput](),
		Class:     tools.Write,
		WhenToUse: "After every activate/seek whose results you used (or rejected): it is how the graph gets better for this repository.",
		AvoidWhen: "You did not look at the results; guessed feedback teaches the graph noise.",
		Next:      []string{"activate", "drift"},
		Example:   map[string]any{"agent_id": "claude", "query": "session expiry", "feedback": "correct", "node_ids": []string{"file::backend/session.py"}},
		Run:       runLearn,
	})
	r.Register(&tools.Tool{
		Name:        "drift",
		Title:       "What changed since a baseline",
		Description: "What changed against a baseline: node/edge count deltas, new and removed files, and the edges whose learned weight moved most (strengthened and weakened), with LTP/LTD counts. since=\"last_session\" compares with the state saved by the previous session.",
		Params: []tools.Param{
			{Name: "since", Type: tools.String, Default: "last_session", Description: "\"last_session\" (the previous session's baseline), \"session_start\", or a time (RFC 3339 or Unix seconds)."},
			{Name: "include_weight_drift", Type: tools.Boolean, Default: true, Description: "Include the edges whose weights moved most."},
			{Name: "top_n", Type: tools.Integer, Default: 10, Min: tools.Bound(1), Max: tools.Bound(100), Description: "How many strengthened and weakened edges to list."},
		},
		Input:     reflect.TypeFor[driftParams](),
		Output:    reflect.TypeFor[driftOutput](),
		Class:     tools.Read,
		WhenToUse: "Session start (after health) to recover context; after an ingest or a stretch of learning.",
		AvoidWhen: "You need the code itself; drift describes the graph's evolution.",
		Next:      []string{"activate", "health"},
		Example:   map[string]any{"agent_id": "claude", "since": "last_session"},
		Run:       runDrift,
	})
}

func runLearn(c *tools.Call) (any, error) {
	fb, err := plasticity.ParseFeedback(c.Str("feedback"))
	if err != nil {
		return nil, tools.Errorf("feedback is correct, wrong or partial.", "%v", err)
	}
	refs := c.Strs("node_ids")
	if len(refs) == 0 {
		return nil, tools.Errorf("node_ids lists the nodes your feedback is about, e.g. [\"file::auth.py\"].", "node_ids must not be empty")
	}
	var out map[string]any
	err = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		g := b.Graph
		if g.NumNodes() == 0 {
			return tools.EmptyGraphErr()
		}
		var nodes []graph.NodeID
		seen := map[graph.NodeID]bool{}
		for _, r := range refs {
			id, err := tools.ResolveNode(b, r, "node_ids")
			if err != nil {
				return err
			}
			if !seen[id] {
				seen[id] = true
				nodes = append(nodes, id)
			}
		}
		start := time.Now()
		req := plasticity.LearnRequest{Query: c.Str("query"), Feedback: fb, Nodes: nodes, Strength: float32(c.Float("strength"))}
		apply := func(req plasticity.LearnRequest) (plasticity.LearnResult, error) {
			if eng, err := c.Session.Engine(b); err == nil {
				// Filed under the context activate computes for the query,
				// so the same and similar queries see it.
				return eng.Learn(req)
			}
			return c.Session.Plasticity.Learn(g, req)
		}
		res, err := c.Session.Learn(g, c.AgentID, req, apply)
		if errors.Is(err, session.ErrNotDurable) {
			return tools.Errorf("Check that the runtime directory is writable and has free space (health shows it), then call learn again.", "%v", err)
		}
		if err != nil {
			return err
		}
		gen := c.Session.Learned()
		out = map[string]any{
			"query":              c.Str("query"),
			"feedback":           string(fb),
			"edges_adjusted":     res.EdgesStrengthened + res.EdgesWeakened,
			"edges_strengthened": res.EdgesStrengthened,
			"edges_weakened":     res.EdgesWeakened,
			"nodes_affected":     res.NodesAffected,
			// Threshold crossings, not adjustments: an edge earns its
			// one-time long-term bonus (penalty) after 5 consecutive
			// strengthens (weakens), so most learn calls cross none.
			"ltp_thresholds_crossed": res.LTPEvents,
			"ltd_thresholds_crossed": res.LTDEvents,
			"plasticity_delta":       tools.R3(res.TotalWeightDelta),
			"learning_type":          res.LearningType,
			"plasticity_generation":  gen,
			"durable":                c.Session.Durable(),
			"elapsed_ms":             tools.Ms(time.Since(start)),
		}
		if res.EdgesStrengthened+res.EdgesWeakened == 0 {
			out["next_step_hint"] = "These nodes have no edges to adjust (isolated nodes); feedback changed nothing."
		}
		return nil
	})
	return out, err
}

// parseSince accepts RFC 3339 or Unix seconds.
func parseSince(s string) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, true
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f > 0 {
		sec := int64(f)
		return time.Unix(sec, int64((f-float64(sec))*1e9)), true
	}
	return time.Time{}, false
}

func runDrift(c *tools.Call) (any, error) {
	since := strings.TrimSpace(c.Str("since"))
	var at time.Time
	if since != "last_session" && since != "session_start" {
		t, ok := parseSince(since)
		if !ok {
			return nil, tools.Errorf("since is \"last_session\", \"session_start\", an RFC 3339 time (2026-03-13T10:30:00Z) or Unix seconds.", "cannot read since=%q", since)
		}
		at = t
	}
	var out map[string]any
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		g := b.Graph
		start := time.Now()
		base, exact := c.Session.Baseline(since, at)
		rep, err := c.Session.Plasticity.Drift(g, plasticity.BaselineFromStates(base.Weights, base.Taken), plasticity.DriftOptions{TopN: c.Int("top_n")})
		if err != nil {
			return err
		}
		newFiles, removed := fileDelta(g, base.Files, 100)
		out = map[string]any{
			"since":            since,
			"baseline":         map[string]any{"source": base.Source, "taken": base.Taken.UTC().Format(time.RFC3339), "exact": exact},
			"node_count_delta": g.NumNodes() - base.NodeCount,
			"edge_count_delta": g.NumEdges() - base.EdgeCount,
			"new_nodes":        newFiles,
			"removed_nodes":    removed,
			"edges_changed":    rep.EdgesChanged,
			"avg_abs_delta":    tools.R3(rep.AvgAbsDelta),
			"ltp_count":        rep.LTPCount,
			"ltd_count":        rep.LTDCount,
			"elapsed_ms":       tools.Ms(time.Since(start)),
		}
		if c.Bool("include_weight_drift") {
			out["top_weight_drifts"] = driftList(g, rep.TopStrengthened, rep.TopWeakened)
		}
		if !exact {
			out["next_step_hint"] = fmt.Sprintf("No baseline is as old as %s; compared with the oldest one (%s).", since, base.Taken.UTC().Format(time.RFC3339))
		}
		return nil
	})
	return out, err
}

// fileDelta lists file-level nodes added and removed since the baseline.
func fileDelta(g *graph.Graph, baseFiles []string, limit int) (added, removed []string) {
	inBase := make(map[string]bool, len(baseFiles))
	for _, f := range baseFiles {
		inBase[f] = true
		if _, ok := g.Lookup(f); !ok && len(removed) < limit {
			removed = append(removed, f)
		}
	}
	for i := 0; i < g.NumNodes() && len(added) < limit; i++ {
		id := graph.NodeID(i)
		if t := g.Type(id); (t == graph.File || t == graph.Directory) && !inBase[g.ExternalID(id)] {
			added = append(added, g.ExternalID(id))
		}
	}
	return tools.OrEmpty(added), tools.OrEmpty(removed)
}

func driftList(g *graph.Graph, up, down []plasticity.EdgeDrift) []map[string]any {
	out := []map[string]any{}
	for _, list := range [][]plasticity.EdgeDrift{up, down} {
		for _, d := range list {
			out = append(out, map[string]any{
				"edge":     fmt.Sprintf("%s -> %s", g.Label(d.Source), g.Label(d.Target)),
				"source":   d.SourceID,
				"target":   d.TargetID,
				"relation": d.Relation,
				"old":      tools.R3(d.Old),
				"new":      tools.R3(d.New),
				"delta":    tools.R3(d.Delta),
			})
		}
	}
	return out
}
