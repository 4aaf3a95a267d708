package dynamics

import (
	"errors"
	"fmt"
	"slices"
	"time"

	coredyn "github.com/m1nd-go/m1nd/core/dynamics"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// componentsKey caches the graph's components per bundle: they do not
// depend on the seeds, and finding them costs a pass over every edge.
var componentsKey = session.NewKey[*coredyn.Components]("dynamics.components")

type epidemicParams struct {
	InfectedNodes      []string `json:"infected_nodes" help:"The nodes known to hold a defect: external ids, paths or labels (at most 50). Those not found are listed in unresolved; the call fails only when none is found." tool:"required,maxitems=50"`
	Iterations         int      `json:"iterations" help:"Steps of the model (each step the newly infected pass it on once)." tool:"default=50,min=1,max=500"`
	Direction          string   `json:"direction" jsonschema:"forward, backward (to dependents) or both." help:"forward: from a buggy node to what it imports, calls, references, inherits or contains; backward: to its dependents (importers, callers, subclasses, containers); both." tool:"default=both,enum=forward|backward|both"`
	PromotionThreshold float64  `json:"promotion_threshold" jsonschema:"Probability counted as infected." help:"A node whose probability reaches this counts as infected (status infected) rather than at risk; the burnout check counts infected nodes." tool:"default=0.5,min=0,max=1"`
	TopK               int      `json:"top_k" help:"Predictions listed, most probable first; not_listed counts the rest." tool:"default=20,min=1,max=200"`
	IncludeKnown       bool     `json:"include_known" help:"Also seed the nodes earlier calls reported infected (kept in epidemic_state.json beside the graph), less those reported recovered."`
	RecoveredNodes     []string `json:"recovered_nodes" help:"Nodes whose defect is fixed: remembered as recovered (no longer known infected) and immune in this run." tool:"maxitems=50"`
}

// EpidemicOutput is epidemic's answer.
type EpidemicOutput struct {
	InfectedNodes []string         `json:"infected_nodes" jsonschema:"The seeds, as found in the graph."`
	Unresolved    []string         `json:"unresolved,omitempty" jsonschema:"Seeds not found (and why)."`
	Predictions   []predictionJSON `json:"predictions" jsonschema:"Nodes the defect may have reached, most probable first."`
	NotListed     int              `json:"not_listed"`
	Summary       epidemicSummary  `json:"summary"`
	Memory        memoryJSON       `json:"memory" jsonschema:"What earlier calls left: known infected, recovered, the change since this agent's last run."`
	ElapsedMs     float64          `json:"elapsed_ms"`
	tools.Guidance
}

type predictionJSON struct {
	NodeID      string  `json:"node_id"`
	Label       string  `json:"label"`
	Type        string  `json:"type"`
	File        string  `json:"file,omitempty"`
	Probability float64 `json:"probability" jsonschema:"Union over every path from the seeds."`
	Status      string  `json:"status" jsonschema:"infected (at or above promotion_threshold) or at_risk."`
	Generation  int     `json:"generation" jsonschema:"The step that first reached it."`
	Via         string  `json:"via" jsonschema:"The strongest contact that first reached it."`
	Relation    string  `json:"relation" jsonschema:"The relation of the edge from via."`
}

type epidemicSummary struct {
	R0                    float64 `json:"r0" jsonschema:"Expected direct infections per seed."`
	Infected              int     `json:"infected" jsonschema:"Non-seed nodes at or above promotion_threshold."`
	AtRisk                int     `json:"at_risk"`
	EligibleNodes         int     `json:"eligible_nodes" jsonschema:"Nodes that take part (directories and packages do not)."`
	InfectionRate         float64 `json:"infection_rate" jsonschema:"Multiplier of the transmission factors; below 1 after burnout calibration."`
	Calibrated            bool    `json:"calibrated"`
	IterationsRun         int     `json:"iterations_run"`
	UnreachableComponents int     `json:"unreachable_components" jsonschema:"Connected parts with no seed: safe from this outbreak."`
	UnreachableNodes      int     `json:"unreachable_nodes"`
	Direction             string  `json:"direction"`
	Truncated             bool    `json:"truncated" jsonschema:"The work budget ended the spread: probabilities are lower bounds."`
}

func registerEpidemic(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "epidemic",
		Title:       "Bug spread",
		Description: "Which neighbours of known-buggy nodes likely harbour the bug too.",
		Details: "SIR model of a defect spreading over dependency edges. Each step, what a node newly caught passes to its contacts with probability rate × the relation's factor " +
			"(imports 0.8, calls and instantiates 0.7, inherits and implements 0.6, references and other dependencies 0.4, contains 0.3; co-change and documents transmit nothing), " +
			"combined over paths as a union (1 − Π(1 − p)), without echoes back along the edge it came by; then the node recovers. " +
			"Predictions list each node's probability, its status (infected at or above promotion_threshold, else at_risk), the step that first reached it and the contact it came from. " +
			"The summary gives R0 (expected direct infections per seed), the rate used, and the connected parts no seed is in (unreachable: safe). " +
			"Burnout: when more than 80 % of the graph would be infected the rate is halved (up to 8 times) and calibrated is set; if that is not enough the call fails with EpidemicBurnout. " +
			"Directories and packages are never predictions: an import of one reaches each file it holds. Each run tries at most 1,000,000 contacts (truncated: the spread was cut there, probabilities are lower bounds). " +
			"Memory (epidemic_state.json beside the graph, written atomically): seeds are remembered as known infected (include_known seeds them again), " +
			"recovered_nodes as recovered (immune in every run), each agent's last run (since_last_run: new, gone and changed predictions), " +
			"and a burnt-out setup's calibrated rate (the same call starts there: calibration_reused).",
		Class:     tools.Read,
		WhenToUse: "After finding a bug: which modules near it probably have the same defect or are hurt by it?",
		AvoidWhen: "You want what breaks if you change a node (impact) rather than where a defect spread.",
		Next:      []string{"impact", "view"},
		Example:   map[string]any{"agent_id": "claude", "infected_nodes": []string{"file::backend/session.py"}, "direction": "backward"},
	}, runEpidemic)
}

func runEpidemic(c *tools.Call, in epidemicParams) (EpidemicOutput, error) {
	dir, _ := coredyn.ParseDirection(in.Direction)
	var out EpidemicOutput
	err := tools.ReadGraph(c, func(b *session.Bundle) error {
		g := b.Graph
		start := time.Now()
		mem := epidemicMemory(c.Session)
		seeds := out.resolve(b, in.InfectedNodes, "infected_nodes")
		recovered := out.resolve(b, in.RecoveredNodes, "recovered_nodes")
		p := coredyn.DefaultEpidemicParams()
		p.Iterations, p.Direction, p.PromotionThreshold = in.Iterations, dir, in.PromotionThreshold
		p.Immune = append(lookupAll(g, mem.recovered()), recovered...)
		if in.IncludeKnown {
			seeds = append(seeds, lookupAll(g, mem.known(idsOf(g, recovered)))...)
		}
		slices.Sort(seeds)
		seeds = slices.DeleteFunc(slices.Compact(seeds), func(v graph.NodeID) bool { return slices.Contains(recovered, v) })
		p.Components, _ = session.Derive(b, componentsKey, func(g *graph.Graph) (*coredyn.Components, error) {
			return coredyn.NewComponents(g), nil
		})
		setup := setupKey(g, seeds, p)
		reused := mem.calibrated(setup, &p)
		res, err := coredyn.Epidemic(c.Ctx, g, seeds, p)
		switch {
		case errors.Is(err, coredyn.ErrNoValidInfectedNodes):
			return noValidSeeds(in.InfectedNodes, out.Unresolved)
		case errors.Is(err, coredyn.ErrEpidemicBurnout):
			return tools.Errorf("Raise promotion_threshold (e.g. 0.7), follow one direction (forward or backward), or seed fewer nodes.",
				"EpidemicBurnout: more than 80%% of the graph's %d nodes end up infected even at rate 1/256 (%d infected at promotion_threshold %v): it is too densely connected for a meaningful prediction",
				res.Eligible, res.Infected, in.PromotionThreshold).
				WithExample(map[string]any{"agent_id": c.AgentID, "infected_nodes": in.InfectedNodes, "direction": "backward", "promotion_threshold": 0.8}).
				WithNext("Call epidemic again with a higher promotion_threshold or one direction.")
		case err != nil:
			return err
		}
		out.fill(g, seeds, res, in, dir)
		out.Summary.Calibrated = out.Summary.Calibrated || reused
		out.remember(c, mem, g, seeds, recovered, res, setup, reused)
		out.ElapsedMs = tools.Ms(time.Since(start))
		out.Guidance = epidemicGuidance(c, g, res)
		return nil
	})
	return out, err
}

func noValidSeeds(refs, why []string) error {
	e := tools.Errorf("infected_nodes are nodes of the graph (external ids such as \"file::src/auth.py\", paths or labels), not directories or packages; seek or search finds them.",
		"NoValidInfectedNodes: none of the %d infected_nodes is a node the model can use", len(refs))
	e.Extra = map[string]any{"unresolved": why}
	return e.WithExample(map[string]any{"agent_id": "claude", "infected_nodes": []string{"file::backend/session.py"}}).
		WithNext("Find the buggy module's node id with seek or search, then call epidemic with it.")
}

func (out *EpidemicOutput) fill(g *graph.Graph, seeds []graph.NodeID, res coredyn.EpidemicResult, in epidemicParams, dir coredyn.Direction) {
	for _, s := range seeds {
		out.InfectedNodes = append(out.InfectedNodes, g.ExternalID(s))
	}
	out.Predictions = []predictionJSON{}
	atRisk := 0
	for i, pr := range res.Predictions {
		status := "at_risk"
		if pr.Probability >= in.PromotionThreshold {
			status = "infected"
		} else {
			atRisk++
		}
		if i >= in.TopK {
			continue
		}
		ref := tools.RefOf(g, pr.Node)
		out.Predictions = append(out.Predictions, predictionJSON{
			NodeID: ref.NodeID, Label: ref.Label, Type: ref.Type, File: g.SourcePath(pr.Node),
			Probability: tools.R3(float32(pr.Probability)), Status: status, Generation: pr.Generation,
			Via: g.ExternalID(pr.Via), Relation: pr.Relation,
		})
	}
	out.NotListed = len(res.Predictions) - len(out.Predictions)
	out.Summary = epidemicSummary{
		R0: tools.R3(float32(res.R0)), Infected: res.Infected, AtRisk: atRisk, EligibleNodes: res.Eligible,
		InfectionRate: tools.R3(float32(res.Rate)), Calibrated: res.Calibrated, IterationsRun: res.Iterations,
		UnreachableComponents: res.UnreachableComponents, UnreachableNodes: res.UnreachableNodes, Direction: dir.String(),
		Truncated: res.Truncated,
	}
}

func epidemicGuidance(c *tools.Call, g *graph.Graph, res coredyn.EpidemicResult) tools.Guidance {
	if len(res.Predictions) == 0 {
		return tools.Guidance{ProofState: "triaging", NextStepHint: "Nothing is connected to the seeds by a dependency edge in this direction: the defect is contained (try direction both)."}
	}
	top := res.Predictions[0]
	return tools.Guidance{
		ProofState:          "proving",
		NextSuggestedTool:   tools.FirstTool(c.Registry, "view", "impact"),
		NextSuggestedTarget: g.ExternalID(tools.FileOf(g, top.Node)),
		NextStepHint:        fmt.Sprintf("Read %s first (probability %.2f, via %s): look for the same defect there.", g.Label(top.Node), top.Probability, top.Relation),
	}
}
