package continuity

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/antibody"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/core/risk"
	"github.com/m1nd-go/m1nd/mcpserver/immunity"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// LearnParams are learn's arguments.
type LearnParams struct {
	Query    string   `json:"query" help:"The query the feedback is about (as used in activate/seek)." tool:"required"`
	Feedback string   `json:"feedback" jsonschema:"correct: relevant; wrong: noise; partial: only these were relevant." help:"correct: these nodes were relevant; wrong: these were noise; partial: only these were relevant." tool:"required,enum=correct|wrong|partial"`
	NodeIDs  []string `json:"node_ids" help:"The nodes judged (external ids, paths or labels)." tool:"required"`
	Strength float64  `json:"strength" help:"How strong the verdict is: its weight in later rankings (three calls at 1 settle it) and how far the edge adjustment reaches into the nodes' neighbourhood." tool:"default=0.2,min=0,max=1"`
}

type driftParams struct {
	Since              string `json:"since" jsonschema:"last_session, session_start, or a time (RFC 3339 or Unix seconds)." help:"\"last_session\" (the previous session's baseline), \"session_start\", or a time (RFC 3339 or Unix seconds)." tool:"default=last_session"`
	IncludeWeightDrift bool   `json:"include_weight_drift" help:"Include the edges whose weights moved most." tool:"default=true"`
	TopN               int    `json:"top_n" help:"How many strengthened and weakened edges to list." tool:"default=10,min=1,max=100"`
}

func registerLearning(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "learn",
		Title:       "Learn from feedback",
		Description: "Rate activate/seek results so similar queries rank better; use after acting on them.",
		Details:     "Explicit feedback on query results: \"correct\" ranks the given nodes higher when this query (or a similar one, sharing most words or seeds) is asked again, \"wrong\" ranks them lower, \"partial\" is a weaker \"correct\". It also adjusts the edges around the nodes (Hebbian learning with LTP/LTD). Edge weights persist with the graph; the per-query verdicts last for the server's session. Every call is also a tremor observation of the files named; a verdict on a query about a bug (fix, crash, regression …) records a trust outcome for them (correct: a confirmed defect, wrong: a false alarm), and 2–6 linked nodes confirmed for it are stored as an antibody (antibody_scan).",
		Class:       tools.Write,
		WhenToUse:   "After every activate/seek whose results you used (or rejected): it is how the graph gets better for this repository.",
		AvoidWhen:   "You did not look at the results; guessed feedback teaches the graph noise.",
		Next:        []string{"activate", "drift"},
		Example:     map[string]any{"agent_id": "claude", "query": "session expiry", "feedback": "correct", "node_ids": []string{"file::backend/session.py"}},
	}, runLearn)
	tools.Add(r, tools.Tool{
		Name:        "drift",
		Title:       "Graph drift",
		Description: "Graph changes since last session and edges learning moved most; use at session start.",
		Details:     "What changed against a baseline: node/edge count deltas, new and removed files, and the edges whose learned weight moved most (strengthened and weakened), with LTP/LTD counts. since=\"last_session\" compares with the state saved by the previous session.",
		Class:       tools.Read,
		WhenToUse:   "Session start (after health) to recover context; after an ingest or a stretch of learning.",
		AvoidWhen:   "You need the code itself; drift describes the graph's evolution.",
		Next:        []string{"activate", "health"},
		Example:     map[string]any{"agent_id": "claude", "since": "last_session"},
	}, runDrift)
}

// learnOutput is learn's answer.
type learnOutput struct {
	Query                string  `json:"query"`
	Feedback             string  `json:"feedback"`
	EdgesAdjusted        int     `json:"edges_adjusted"`
	EdgesStrengthened    int     `json:"edges_strengthened"`
	EdgesWeakened        int     `json:"edges_weakened"`
	NodesAffected        int     `json:"nodes_affected"`
	LTPThresholdsCrossed int     `json:"ltp_thresholds_crossed" jsonschema:"Edges that earned their one-time long-term bonus (after 5 consecutive strengthens)."`
	LTDThresholdsCrossed int     `json:"ltd_thresholds_crossed" jsonschema:"Edges that earned their one-time long-term penalty (after 5 consecutive weakens)."`
	PlasticityDelta      float64 `json:"plasticity_delta"`
	LearningType         string  `json:"learning_type"`
	PlasticityGeneration uint64  `json:"plasticity_generation"`
	Durable              bool    `json:"durable" jsonschema:"The feedback is journaled and survives a crash."`
	TrustRecordsUpdated  int     `json:"trust_records_updated" jsonschema:"Files whose trust ledger got an outcome (queries about a bug)."`
	TremorObservations   int     `json:"tremor_observations_recorded" jsonschema:"Files that got a tremor observation (one a second)."`
	AntibodyCreated      string  `json:"antibody_created,omitempty" jsonschema:"The bug shape stored from confirmed linked nodes."`
	ElapsedMs            float64 `json:"elapsed_ms"`
	NextStepHint         string  `json:"next_step_hint,omitempty"`
}

// driftOutput is drift's answer.
type driftOutput struct {
	Since    string `json:"since"`
	Baseline struct {
		Source string `json:"source"`
		Taken  string `json:"taken"`
		Exact  bool   `json:"exact" jsonschema:"A baseline as old as since was found (else the oldest one was used)."`
	} `json:"baseline"`
	NodeCountDelta int      `json:"node_count_delta"`
	EdgeCountDelta int      `json:"edge_count_delta"`
	NewNodes       []string `json:"new_nodes" jsonschema:"File and directory nodes added since the baseline (at most 100)."`
	RemovedNodes   []string `json:"removed_nodes"`
	EdgesChanged   int      `json:"edges_changed"`
	AvgAbsDelta    float64  `json:"avg_abs_delta"`
	LTPCount       int      `json:"ltp_count"`
	LTDCount       int      `json:"ltd_count"`
	ElapsedMs      float64  `json:"elapsed_ms"`
	// TopWeightDrifts is present (possibly empty) with include_weight_drift.
	TopWeightDrifts *[]weightDrift `json:"top_weight_drifts,omitempty" jsonschema:"The edges whose learned weight moved most (with include_weight_drift)."`
	NextStepHint    string         `json:"next_step_hint,omitempty"`
}

// weightDrift is one edge of drift's top_weight_drifts.
type weightDrift struct {
	Edge     string  `json:"edge"`
	Source   string  `json:"source"`
	Target   string  `json:"target"`
	Relation string  `json:"relation"`
	Old      float64 `json:"old"`
	New      float64 `json:"new"`
	Delta    float64 `json:"delta"`
}

func runLearn(c *tools.Call, in LearnParams) (learnOutput, error) {
	fb, err := plasticity.ParseFeedback(in.Feedback)
	if err != nil {
		return learnOutput{}, tools.Errorf("feedback is correct, wrong or partial.", "%v", err)
	}
	refs := in.NodeIDs
	if len(refs) == 0 {
		return learnOutput{}, tools.Errorf("node_ids lists the nodes your feedback is about, e.g. [\"file::auth.py\"].", "node_ids must not be empty")
	}
	var out learnOutput
	err = tools.ReadGraph(c, func(b *session.Bundle) error {
		g := b.Graph
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
		req := plasticity.LearnRequest{Query: in.Query, Feedback: fb, Nodes: nodes, Strength: float32(in.Strength)}
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
		out = learnOutput{
			Query:             in.Query,
			Feedback:          string(fb),
			EdgesAdjusted:     res.EdgesStrengthened + res.EdgesWeakened,
			EdgesStrengthened: res.EdgesStrengthened,
			EdgesWeakened:     res.EdgesWeakened,
			NodesAffected:     res.NodesAffected,
			// Threshold crossings, not adjustments: an edge earns its
			// one-time long-term bonus (penalty) after 5 consecutive
			// strengthens (weakens), so most learn calls cross none.
			LTPThresholdsCrossed: res.LTPEvents,
			LTDThresholdsCrossed: res.LTDEvents,
			PlasticityDelta:      tools.R3(res.TotalWeightDelta),
			LearningType:         res.LearningType,
			PlasticityGeneration: gen,
			Durable:              c.Session.Durable(),
			ElapsedMs:            tools.Ms(time.Since(start)),
		}
		if res.EdgesStrengthened+res.EdgesWeakened == 0 {
			out.NextStepHint = "These nodes have no edges to adjust (isolated nodes); feedback changed nothing."
		}
		if err := recordImmune(c, g, nodes, in.Query, fb, res.TotalWeightDelta, &out); err != nil {
			out.NextStepHint = strings.TrimSpace(out.NextStepHint + " Trust and tremor state not saved: " + err.Error())
		}
		return nil
	})
	return out, err
}

// recordImmune feeds the verdict to the immune state
// (docs/design.md#immune-memory-and-risk-signals): every learn call is a
// tremor observation of the files it names; a verdict on a query about a
// bug (the defect vocabulary of fix commits) is also a trust outcome —
// correct a confirmed defect, wrong a false alarm, partial a partial —
// and confirmed linked nodes are stored as an antibody (a shape already
// stored, or too broad, is not).
func recordImmune(c *tools.Call, g *graph.Graph, nodes []graph.NodeID, query string, fb plasticity.Feedback, delta float32, out *learnOutput) error {
	st := immunity.For(c.Session)
	now := c.Session.Now()
	bug := risk.IsFix(query)
	outcome := map[plasticity.Feedback]risk.Outcome{plasticity.Correct: risk.Defect, plasticity.Wrong: risk.FalseAlarm, plasticity.Partial: risk.Partial}[fb]
	seen := map[graph.NodeID]bool{}
	for _, n := range nodes {
		f := history.FileOf(g, n)
		if seen[f] {
			continue
		}
		seen[f] = true
		ext := g.ExternalID(f)
		if st.Tremor.Observe(ext, now.UnixMilli(), float64(graph.Finite(delta))) {
			out.TremorObservations++
		}
		if bug {
			st.Trust.Record(ext, outcome, now.Unix())
			out.TrustRecordsUpdated++
		}
	}
	var errs []error
	if p, ok := antibody.FromFeedback(g, nodes); ok && bug && fb == plasticity.Correct {
		a, err := st.Antibodies.Create(antibody.Antibody{Pattern: p, Severity: antibody.Medium, Description: "learned: " + query,
			Tags: []string{"learned"}, Source: "learn", Created: now.Unix()}, antibody.Substring)
		if err == nil {
			out.AntibodyCreated = a.ID
			errs = append(errs, st.SaveAntibodies())
		}
	}
	if out.TremorObservations > 0 {
		errs = append(errs, st.SaveTremor())
	}
	if out.TrustRecordsUpdated > 0 {
		errs = append(errs, st.SaveTrust())
	}
	return errors.Join(errs...)
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

func runDrift(c *tools.Call, in driftParams) (driftOutput, error) {
	since := strings.TrimSpace(in.Since)
	var at time.Time
	if since != "last_session" && since != "session_start" {
		t, ok := parseSince(since)
		if !ok {
			return driftOutput{}, tools.Errorf("since is \"last_session\", \"session_start\", an RFC 3339 time (2026-03-13T10:30:00Z) or Unix seconds.", "cannot read since=%q", since)
		}
		at = t
	}
	var out driftOutput
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		g := b.Graph
		start := time.Now()
		base, exact := c.Session.Baseline(since, at)
		rep, err := c.Session.Plasticity.Drift(g, plasticity.BaselineFromStates(base.Weights, base.Taken), plasticity.DriftOptions{TopN: in.TopN})
		if err != nil {
			return err
		}
		newFiles, removed := fileDelta(g, base.Files, 100)
		out = driftOutput{
			Since:          since,
			NodeCountDelta: g.NumNodes() - base.NodeCount,
			EdgeCountDelta: g.NumEdges() - base.EdgeCount,
			NewNodes:       newFiles,
			RemovedNodes:   removed,
			EdgesChanged:   rep.EdgesChanged,
			AvgAbsDelta:    tools.R3(rep.AvgAbsDelta),
			LTPCount:       rep.LTPCount,
			LTDCount:       rep.LTDCount,
			ElapsedMs:      tools.Ms(time.Since(start)),
		}
		out.Baseline.Source, out.Baseline.Taken, out.Baseline.Exact = base.Source, base.Taken.UTC().Format(time.RFC3339), exact
		if in.IncludeWeightDrift {
			drifts := driftList(g, rep.TopStrengthened, rep.TopWeakened)
			out.TopWeightDrifts = &drifts
		}
		if !exact {
			out.NextStepHint = fmt.Sprintf("No baseline is as old as %s; compared with the oldest one (%s).", since, base.Taken.UTC().Format(time.RFC3339))
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

func driftList(g *graph.Graph, up, down []plasticity.EdgeDrift) []weightDrift {
	out := []weightDrift{}
	for _, list := range [][]plasticity.EdgeDrift{up, down} {
		for _, d := range list {
			out = append(out, weightDrift{
				Edge:     fmt.Sprintf("%s -> %s", g.Label(d.Source), g.Label(d.Target)),
				Source:   d.SourceID,
				Target:   d.TargetID,
				Relation: d.Relation,
				Old:      tools.R3(d.Old),
				New:      tools.R3(d.New),
				Delta:    tools.R3(d.Delta),
			})
		}
	}
	return out
}
