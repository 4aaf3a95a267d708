package change

import (
	"fmt"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type predictParams struct {
	ChangedNode     string   `json:"changed_node" help:"The node that changed: an external id (file::src/pool.py), a path, or a qualified name/label of a function or type. Give it, changed_nodes or task."`
	ChangedNodes    []string `json:"changed_nodes" jsonschema:"More nodes already changed." help:"Other nodes already changed (same forms as changed_node): predictions then come from all of them together." tool:"maxitems=50"`
	Task            string   `json:"task" jsonschema:"What the change is for, in words." help:"The task in hand (the issue or request, in words): files its text matches rank higher." tool:"maxlen=8000"`
	TopK            int      `json:"top_k" help:"Number of predictions." tool:"default=10,min=1,max=100"`
	IncludeVelocity bool     `json:"include_velocity" help:"Weigh co-changes by recency and report each prediction's velocity (how recently and often the pair changed together). false: every past commit counts the same." tool:"default=true"`
	Detail          string   `json:"detail" help:"brief (the default): each prediction's node id, confidence, co-change count, hop distance and reason. full: also its label, velocity, every reason apart and the signals confidence combines." tool:"default=brief,enum=brief|full"`
	Scope           string   `json:"scope" help:"Predict only files under this path prefix or matching this glob (a federated repository's name followed by /, \"src/auth/\"); the evidence still comes from the whole graph."`
}

func registerChange(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "predict",
		Title:       "Predict co-changes",
		Description: "Files most likely to need a change too, given what changed and the task; use after an edit.",
		Details:     "Which other files most likely need a change when this node changes, ranked by confidence. Combines the git history (files that changed together in earlier commits, weighted by how recent the commits are relative to the repository's newest commit, sweeping commits down-weighted) with structure (importers and imports, callers and callees, tests, the same directory). A file without history still gets structural predictions; an entity is predicted through its file, with its own dependents. With several changed nodes (changed_nodes) and the task's text (task), their evidence is fused by rank: co-changes of each changed file and of the set, files the task's text matches, dependencies, recent activity.",
		Class:       tools.Read,
		WhenToUse:   "After modifying a file (or before committing): what else usually changes with it — tests, callers, configuration, siblings.",
		AvoidWhen:   "You want everything that depends on the node (impact), or the node's own history (timeline).",
		Next:        []string{"validate_plan", "view", "timeline", "impact"},
		Example:     map[string]any{"agent_id": "claude", "changed_node": "file::backend/session.py", "task": "Expire idle sessions after 30 minutes", "top_k": 5},
	}, runPredict)
	tools.Add(r, tools.Tool{
		Name:        "timeline",
		Title:       "File timeline",
		Description: "A file's git history: commits, co-change partners, churn, velocity.",
		Details:     "A file's git history within a window before the repository's newest commit: its commits (date, hash, author, subject, lines added/deleted, files changed with it), its co-change partners with coupling degree, velocity (accelerating, decelerating, stable), stability score, pattern (expanding, shrinking, churning, dormant, stable) and total churn. An entity's timeline is its file's.",
		Class:       tools.Read,
		WhenToUse:   "Hotspots (stability_score < 0.3), files that always change together (coupling_degree > 0.6), churning files that need a redesign, or \"what happened here lately\".",
		AvoidWhen:   "You need what else a change requires (predict) or who depends on the file (impact).",
		Next:        []string{"predict", "view", "impact"},
		Example:     map[string]any{"agent_id": "claude", "node": "file::backend/session.py", "depth": "90d", "top_k": 5},
	}, runTimeline)
	tools.Add(r, tools.Tool{
		Name:        "validate_plan",
		Title:       "Validate a change plan",
		Description: "Check a multi-file change plan before making it: missed files, test coverage, risk score.",
		Details:     "Check a planned set of file actions before implementing it: gaps (files the plan misses that depend on what it modifies or deletes, or that usually change with it), test coverage of the modified files, a risk score with its parts and level, suggested additions, and the total blast radius. Actions naming files that do not exist are reported with the closest paths. With task (the request in words), files its text matches become likelier gaps.",
		Class:       tools.Read,
		WhenToUse:   "Before implementing a multi-file change, or reviewing one: does the plan cover every file that must change, and is it tested?",
		AvoidWhen:   "A single node's blast radius (impact) or co-changes (predict).",
		Next:        []string{"view", "predict", "impact"},
		Example: map[string]any{"agent_id": "claude", "actions": []any{
			map[string]any{"action_type": "modify", "file_path": "backend/session.py", "description": "Add a session timeout"},
			map[string]any{"action_type": "test", "file_path": "tests/test_session.py"},
		}},
	}, runValidatePlan)
}

type predictionJSON struct {
	NodeID      string   `json:"node_id"`
	Label       string   `json:"label,omitempty" jsonschema:"Absent in brief answers."`
	Confidence  float64  `json:"confidence" jsonschema:"In [0, 1], calibrated on real history: about the share of files scored so that really changed with the node."`
	Velocity    *float64 `json:"velocity,omitempty" jsonschema:"How recently and often the pair changed together, in [0, 1] (0 when include_velocity is false); absent in brief answers."`
	CoChanges   int      `json:"co_changes" jsonschema:"Commits in which both changed."`
	Reason      string   `json:"reason" jsonschema:"The main reasons, in one phrase."`
	Reasons     []string `json:"reasons,omitzero" jsonschema:"The reasons apart; absent in brief answers."`
	HopDistance int      `json:"hop_distance,omitempty" jsonschema:"Dependency hops from the changed node (absent: none within 2)."`
	Signals     *signals `json:"signals,omitempty" jsonschema:"The evidence confidence combines, each in [0, 1]; absent in brief answers."`
}

type signals struct {
	History   float64 `json:"history"`
	Structure float64 `json:"structure"`
	Directory float64 `json:"directory"`
	Activity  float64 `json:"activity"`
	Task      float64 `json:"task,omitempty" jsonschema:"How well the task's text matches the file: 1/rank among the files it matches."`
}

type predictOutput struct {
	ChangedNode    string           `json:"changed_node"`
	ChangedNodes   []string         `json:"changed_nodes,omitempty" jsonschema:"Every node the predictions start from, when more than one."`
	File           string           `json:"file,omitempty" jsonschema:"The file the history was read through, when changed_node is an entity."`
	TaskFiles      int              `json:"task_files,omitempty" jsonschema:"Files the task's text matched (absent without a task)."`
	Predictions    []predictionJSON `json:"predictions"`
	CommitsOfNode  int              `json:"commits_of_node" jsonschema:"Commits that changed the file (summed over the changed files)."`
	HistoryCommits int              `json:"history_commits" jsonschema:"Commits the graph knows (0: no git history, predictions from structure only)."`
	Candidates     int              `json:"candidates"`
	Note           string           `json:"note,omitempty"`
	ElapsedMs      float64          `json:"elapsed_ms"`
	tools.Guidance
}

// knownArgs checks what predict was told: at least one changed node or a
// task.
func knownArgs(c *tools.Call, in predictParams) ([][2]string, error) {
	var refs [][2]string // reference, parameter
	if strings.TrimSpace(in.ChangedNode) != "" {
		refs = append(refs, [2]string{in.ChangedNode, "changed_node"})
	}
	for i, r := range in.ChangedNodes {
		refs = append(refs, [2]string{r, fmt.Sprintf("changed_nodes[%d]", i)})
		if strings.TrimSpace(r) == "" {
			return nil, tools.Errorf("Each entry of changed_nodes names a node: an external id, a path or a name.", "changed_nodes[%d] is empty", i).
				WithExample(map[string]any{"agent_id": c.AgentID, "changed_nodes": []string{"src/app.py", "src/sessions.py"}})
		}
	}
	if len(refs) == 0 && strings.TrimSpace(in.Task) == "" {
		return nil, tools.Errorf("Say what changed (changed_node, or changed_nodes for several files) or what the change is for (task); both together predict best.", "no changed node and no task").
			WithExample(map[string]any{"agent_id": c.AgentID, "changed_nodes": []string{"src/app.py"}, "task": "Expire idle sessions after 30 minutes"}).
			WithNext("Call predict again with the file you edited as changed_node.")
	}
	if len(refs) > history.MaxKnownChanged {
		return nil, tools.Errorf(fmt.Sprintf("Name at most %d changed nodes: the files most central to the change.", history.MaxKnownChanged), "%d changed nodes", len(refs)).
			WithExample(map[string]any{"agent_id": c.AgentID, "changed_nodes": []string{"src/app.py", "src/sessions.py"}})
	}
	return refs, nil
}

func runPredict(c *tools.Call, in predictParams) (predictOutput, error) {
	refs, err := knownArgs(c, in)
	if err != nil {
		return predictOutput{}, err
	}
	var out predictOutput
	err = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		g := b.Graph
		var kn history.Known
		for _, ref := range refs {
			id, err := tools.ResolveNode(b, ref[0], ref[1])
			if err != nil {
				return err
			}
			kn.Changed = append(kn.Changed, id)
		}
		start := time.Now()
		if task := strings.TrimSpace(in.Task); task != "" {
			sx, err := tools.SeekIndex(c.Session, b)
			if err != nil {
				return err
			}
			kn.Task = history.TaskFiles(sx, task, history.TaskDepth)
		}
		x := b.History()
		p := history.DefaultPredictParams()
		p.TopK, p.IncludeVelocity = in.TopK, in.IncludeVelocity
		scope, err := tools.ParseScope(b, in.Scope)
		if err != nil {
			return err
		}
		if scope != nil {
			p.Keep = func(n graph.NodeID) bool { return scope.Match(g.SourcePath(n)) }
		}
		res, err := history.PredictKnown(x, kn, p, history.DefaultFusion)
		if err != nil {
			return err
		}
		out = predictOutput{CommitsOfNode: res.Commits, HistoryCommits: x.Len(), Candidates: res.Candidates, Predictions: []predictionJSON{}}
		out.fill(g, kn, res, in.Task != "")
		for _, pr := range res.Predictions {
			out.Predictions = append(out.Predictions, predictionOf(g, pr, in.Detail == "full"))
		}
		switch {
		case x.Len() == 0:
			out.Note = "The graph has no git history (not a repository, or ingested without it): predictions come from structure only."
		case res.Commits == 0 && len(kn.Changed) > 0:
			out.Note = "No commit in the history changed these files: predictions come from structure, activity and the task only."
		}
		out.ElapsedMs = tools.Ms(time.Since(start))
		topLabel := ""
		if len(res.Predictions) > 0 {
			topLabel = g.Label(res.Predictions[0].Node)
		}
		out.Guidance = predictGuidance(c, out, topLabel)
		return nil
	})
	return out, err
}

// fill sets what the predictions start from.
func (out *predictOutput) fill(g *graph.Graph, kn history.Known, res history.PredictResult, task bool) {
	if len(kn.Changed) > 0 {
		out.ChangedNode = g.ExternalID(kn.Changed[0])
	}
	if len(kn.Changed) > 1 {
		for _, id := range kn.Changed {
			out.ChangedNodes = append(out.ChangedNodes, g.ExternalID(id))
		}
	} else if len(kn.Changed) == 1 && res.File != kn.Changed[0] && res.File != graph.NoNode {
		out.File = g.ExternalID(res.File)
	}
	if task {
		out.TaskFiles = len(kn.Task)
	}
}

func predictionOf(g *graph.Graph, pr history.Prediction, full bool) predictionJSON {
	item := predictionJSON{
		NodeID: g.ExternalID(pr.Node), Confidence: tools.Round3(pr.Confidence),
		CoChanges: pr.CoChanges, Reason: strings.Join(pr.Reasons, "; "), HopDistance: pr.HopDistance,
	}
	if full {
		velocity := tools.Round3(pr.Velocity)
		item.Label, item.Velocity, item.Reasons = g.Label(pr.Node), &velocity, tools.NonNil(pr.Reasons)
		item.Signals = &signals{tools.Round3(pr.History), tools.Round3(pr.Structure), tools.Round3(pr.Directory), tools.Round3(pr.Activity), tools.Round3(pr.Task)}
	}
	return item
}

func predictGuidance(c *tools.Call, out predictOutput, topLabel string) tools.Guidance {
	if len(out.Predictions) == 0 {
		return tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "impact", "seek"), NextSuggestedTarget: out.ChangedNode,
			NextStepHint: "Nothing usually changes with this node; check its dependents before editing."}
	}
	top := out.Predictions[0]
	// Confidences are calibrated on real history: at 0.3 about one such
	// file in three changed too, twenty times the base rate.
	if top.Confidence >= 0.3 {
		return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "view", "validate_plan"), NextSuggestedTarget: top.NodeID,
			NextStepHint: fmt.Sprintf("%s often needs a change too (%s): read it, then validate the whole plan.", topLabel, top.Reason)}
	}
	return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "validate_plan", "impact"), NextSuggestedTarget: out.ChangedNode,
		NextStepHint: "No prediction is strong: list the files you plan to change and validate the plan."}
}

// fileNode resolves ref to the file it is or lies in.
func fileNode(b *session.Bundle, ref, param string) (graph.NodeID, graph.NodeID, error) {
	id, err := tools.ResolveNode(b, ref, param)
	if err != nil {
		return 0, 0, err
	}
	return id, history.FileOf(b.Graph, id), nil
}
