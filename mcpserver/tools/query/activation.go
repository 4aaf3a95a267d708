package query

import (
	"fmt"
	"reflect"
	"time"

	"github.com/m1nd-go/m1nd/core/engine"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/resonance"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

func registerActivation(r *tools.Registry) {
	r.Register(&tools.Tool{
		Name:        "activate",
		Title:       "Spreading activation",
		Description: "Spreading activation query across the graph: seeds matched from the query propagate through structure, semantics, recency and causal edges, merged with XLR noise cancellation. Returns ranked nodes with per-dimension scores in [0, 1], the number of seeds (the seeds themselves with include_seeds), optional ghost edges and structural holes. Feedback given with learn on this or a similar query re-ranks the results. Side effect, bounded and reported in `plasticity`: Hebbian plasticity on the query's neighbourhood (co-activated edges strengthen, edges competing with them decay; at most a few hundred edges per query).",
		Params: []tools.Param{
			{Name: "query", Type: tools.String, Required: true, Description: "What to look for: words, identifiers, paths (\"session pool management\", \"AuthService.login\")."},
			{Name: "top_k", Type: tools.Integer, Default: 20, Min: tools.Bound(1), Max: tools.Bound(500), Description: "Number of activated nodes to return."},
			{Name: "dimensions", Type: tools.StringArray, Enum: tools.DimensionNames, Default: tools.DimensionNames, Description: "Dimensions to include: structural, semantic, temporal, causal."},
			{Name: "xlr", Type: tools.Boolean, Default: true, Description: "XLR noise cancellation (suppresses hubs that light up for every query)."},
			{Name: "include_ghost_edges", Type: tools.Boolean, Default: true, Description: "Report probable but missing connections between strongly co-activated nodes."},
			{Name: "include_structural_holes", Type: tools.Boolean, Default: false, Description: "Report nodes whose neighbourhood lit up while they did not."},
			{Name: "include_seeds", Type: tools.Boolean, Default: false, Description: "List the seed nodes the query matched (at most top_k, strongest first); otherwise only seeds_count is given."},
		},
		Input:     reflect.TypeFor[activateParams](),
		Output:    reflect.TypeFor[activateOutput](),
		Class:     tools.Write,
		WhenToUse: "Primary associative search: \"what in the codebase relates to X?\" when you know a topic but not the files.",
		AvoidWhen: "You know exactly what text to find (search) or want code by described purpose (seek).",
		Next:      []string{"view", "learn", "impact", "why"},
		Example:   map[string]any{"agent_id": "claude", "query": "session pool management", "top_k": 10},
		Run:       runActivate,
	})
	r.Register(&tools.Tool{
		Name:        "warmup",
		Title:       "Warm up for a task",
		Description: "Task-based priming: activates the graph around a task description and gives the activated nodes a temporary boost that later activate queries add to their scores. Boosts decay per query and with time and are never persisted.",
		Params: []tools.Param{
			{Name: "task_description", Type: tools.String, Required: true, Description: "The task you are about to work on, in natural language."},
			{Name: "boost_strength", Type: tools.Number, Default: 0.15, Min: tools.Bound(0), Max: tools.Bound(1), Description: "Boost given to the most relevant node (others proportionally less)."},
		},
		Input:     reflect.TypeFor[warmupParams](),
		Output:    reflect.TypeFor[warmupOutput](),
		Class:     tools.Write,
		WhenToUse: "At the start of a focused task or on a context switch, to bias later queries toward its region.",
		AvoidWhen: "One-off questions: the boost only pays off over several queries.",
		Next:      []string{"activate", "seek"},
		Example:   map[string]any{"agent_id": "claude", "task_description": "Refactor message routing to support group chats", "boost_strength": 0.2},
		Run:       runWarmup,
	})
	r.Register(&tools.Tool{
		Name:        "resonate",
		Title:       "Resonance analysis",
		Description: "Resonance analysis: standing waves from seed nodes swept across frequencies, giving harmonics (nodes by harmonic order), resonant frequencies, sympathetic pairs (nodes far from the seeds that respond alike) and harmonic groups. Read-only.",
		Params: []tools.Param{
			{Name: "query", Type: tools.String, Description: "Query whose seeds start the waves. Give query or node_id, or neither for global resonance from the most central nodes."},
			{Name: "node_id", Type: tools.String, Description: "A node to start from instead of a query."},
			{Name: "top_k", Type: tools.Integer, Default: 20, Min: tools.Bound(1), Max: tools.Bound(200), Description: "Number of harmonics to return."},
		},
		Input:     reflect.TypeFor[resonateParams](),
		Output:    reflect.TypeFor[resonateOutput](),
		Class:     tools.Read,
		WhenToUse: "Finding natural clusters and couplings: which modules move together, where subsystem boundaries lie.",
		AvoidWhen: "Plain lookups; activate or seek are cheaper.",
		Next:      []string{"activate", "missing", "why"},
		Example:   map[string]any{"agent_id": "claude", "query": "authentication flow", "top_k": 10},
		Run:       runResonate,
	})
}

type activatedJSON struct {
	NodeID     string             `json:"node_id"`
	Label      string             `json:"label"`
	Type       string             `json:"type"`
	Activation float64            `json:"activation"`
	Dimensions map[string]float64 `json:"dimensions"`
	PageRank   float64            `json:"pagerank"`
	// Feedback is the node's learned relevance for this query in (−1, 1),
	// from learn calls on it or a similar query (absent when none).
	Feedback   float64         `json:"feedback,omitempty"`
	Tags       []string        `json:"tags"`
	Provenance *tools.ProvJSON `json:"provenance,omitempty"`
}

type seedJSON struct {
	NodeID    string  `json:"node_id"`
	Label     string  `json:"label"`
	Relevance float64 `json:"relevance"`
	Match     string  `json:"match"`
}

func runActivate(c *tools.Call) (any, error) {
	q := c.Str("query")
	if len([]rune(q)) == 0 || len(q) > 20000 {
		return nil, tools.Errorf("query is the text to activate from: a few words, identifiers or paths (at most 20,000 bytes).", "query must be non-empty and at most 20,000 bytes, got %d bytes", len(q))
	}
	dims, err := engine.ParseDimensions(c.Strs("dimensions"))
	if err != nil {
		return nil, tools.Errorf("dimensions accepts structural, semantic, temporal and causal.", "%v", err)
	}
	var out map[string]any
	err = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		eng, err := tools.QueryEngine(c, b)
		if err != nil {
			return err
		}
		g := b.Graph
		res, err := eng.Activate(c.Ctx, engine.Query{
			Text: q, TopK: c.Int("top_k"), Dimensions: dims, XLR: c.Bool("xlr") && c.Session.Config().XLREnabled,
			GhostEdges: c.Bool("include_ghost_edges"), StructuralHoles: c.Bool("include_structural_holes"),
		})
		if err != nil {
			return err
		}
		if res.Learned {
			c.Session.Learned()
		}
		out = activateJSON(c, g, res, c.Bool("include_seeds"), c.Int("top_k"))
		return nil
	})
	return out, err
}

// activateJSON renders an activation. Seeds are listed only when asked
// for, and then at most topK of them: a broad query matches up to 200,
// which would otherwise be most of the answer.
func activateJSON(c *tools.Call, g *graph.Graph, res *engine.Result, withSeeds bool, topK int) map[string]any {
	act := make([]activatedJSON, 0, len(res.Activated))
	for _, n := range res.Activated {
		dims := map[string]float64{}
		for d, name := range tools.DimensionNames {
			dims[name] = tools.R3(n.Dims[d])
		}
		act = append(act, activatedJSON{
			NodeID: g.ExternalID(n.ID), Label: g.Label(n.ID), Type: tools.TypeName(g.Type(n.ID)),
			Activation: tools.R3(n.Activation), Dimensions: dims, PageRank: tools.R3(n.PageRank), Feedback: tools.R3(n.Feedback),
			Tags: tools.OrEmpty(g.Tags(n.ID)), Provenance: tools.ProvOf(g, n.ID),
		})
	}
	ghosts := []map[string]any{}
	for _, ge := range res.GhostEdges {
		ghosts = append(ghosts, map[string]any{
			"source": g.ExternalID(ge.Source), "target": g.ExternalID(ge.Target),
			"shared_dimensions": ge.DimensionNames, "strength": tools.R3(ge.Strength),
		})
	}
	holes := []map[string]any{}
	if res.Holes != nil {
		for _, h := range res.Holes.Holes {
			holes = append(holes, holeJSON(g, h.Node, h.SiblingAvgActivation, h.ActivatedNeighbors, h.Neighbors, h.Reason))
		}
	}
	out := map[string]any{
		"query":            res.Query,
		"seeds_count":      len(res.Seeds),
		"activated":        act,
		"ghost_edges":      ghosts,
		"structural_holes": holes,
		"plasticity":       res.Plasticity,
		"xlr":              map[string]any{"applied": res.XLR, "fallback_to_hot_only": res.XLRFallback, "anti_seeds": len(res.AntiSeeds)},
		"engine":           res.Engine.String(),
		"elapsed_ms":       tools.Ms(res.Elapsed),
	}
	if withSeeds {
		seeds := make([]seedJSON, 0, min(len(res.Seeds), topK))
		for i, s := range res.Seeds {
			if i == topK {
				break
			}
			seeds = append(seeds, seedJSON{g.ExternalID(s.Node), g.Label(s.Node), tools.R3(s.Relevance), s.Match.String()})
		}
		out["seeds"] = seeds
	}
	activateGuidance(c, g, res).Into(out)
	return out
}

func activateGuidance(c *tools.Call, g *graph.Graph, res *engine.Result) tools.Guidance {
	if len(res.Activated) == 0 {
		return tools.Guidance{
			ProofState:        "triaging",
			NextSuggestedTool: tools.FirstTool(c.Registry, "seek", "search"),
			NextStepHint:      "Nothing in the graph matched the query words. Describe the code's purpose with seek, or look for exact text with search.",
		}
	}
	top := res.Activated[0]
	target := g.ExternalID(tools.FileOf(g, top.ID))
	dominant := len(res.Activated) == 1 || top.Activation >= 1.3*res.Activated[1].Activation
	if dominant {
		return tools.Guidance{
			ProofState:          "proving",
			NextSuggestedTool:   tools.FirstTool(c.Registry, "view", "impact"),
			NextSuggestedTarget: target,
			NextStepHint:        fmt.Sprintf("%s clearly leads; read it, then call learn with feedback correct (or wrong) so the next query ranks better.", g.Label(top.ID)),
		}
	}
	return tools.Guidance{
		ProofState:          "triaging",
		NextSuggestedTool:   tools.FirstTool(c.Registry, "view", "why", "impact"),
		NextSuggestedTarget: target,
		NextStepHint:        "Several candidates score close together: inspect the top ones, narrow the query, or use why between two of them; report the useful ones with learn.",
	}
}

func holeJSON(g *graph.Graph, id graph.NodeID, avg float32, n int, neighbors []graph.NodeID, reason string) map[string]any {
	var nb []string
	for _, x := range neighbors {
		nb = append(nb, g.ExternalID(x))
	}
	ref := tools.RefOf(g, id)
	return map[string]any{
		"node_id": ref.NodeID, "label": ref.Label, "type": ref.Type,
		"sibling_avg_activation": tools.R3(avg), "activated_neighbors": n,
		"neighbors": tools.OrEmpty(nb), "reason": reason,
	}
}

func runWarmup(c *tools.Call) (any, error) {
	task := c.Str("task_description")
	if task == "" {
		return nil, tools.Errorf("Describe the task in a sentence: \"Refactor the payment retry logic\".", "task_description must not be empty")
	}
	var out map[string]any
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		eng, err := tools.QueryEngine(c, b)
		if err != nil {
			return err
		}
		start := time.Now()
		res, boosts, err := eng.WarmupTask(c.Ctx, engine.Query{Text: task, TopK: 50, XLR: c.Session.Config().XLREnabled, NoLearn: true}, float32(c.Float("boost_strength")))
		if err != nil {
			return err
		}
		g := b.Graph
		top := []map[string]any{}
		for i, s := range boosts {
			if i == 20 {
				break
			}
			top = append(top, map[string]any{"node_id": g.ExternalID(s.Node), "label": g.Label(s.Node), "boost": tools.R3(s.Score)})
		}
		out = map[string]any{
			"task":         task,
			"primed_nodes": len(boosts),
			"top_primed":   top,
			"seeds":        len(res.Seeds),
			"elapsed_ms":   tools.Ms(time.Since(start)),
		}
		if len(boosts) == 0 {
			out["next_step_hint"] = "No node matched the task description; name concrete modules, functions or files."
		}
		return nil
	})
	return out, err
}

func runResonate(c *tools.Call) (any, error) {
	var out map[string]any
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		g := b.Graph
		if g.NumNodes() == 0 {
			return tools.EmptyGraphErr()
		}
		start := time.Now()
		var seeds []graph.Scored
		label := "global"
		switch {
		case c.Str("node_id") != "":
			id, err := tools.ResolveNode(b, c.Str("node_id"), "node_id")
			if err != nil {
				return err
			}
			seeds = []graph.Scored{{Node: id, Score: 1}}
			label = g.ExternalID(id)
		case c.Str("query") != "":
			eng, err := tools.QueryEngine(c, b)
			if err != nil {
				return err
			}
			for _, s := range eng.Seeds().Find(c.Str("query"), 20) {
				seeds = append(seeds, graph.Scored{Node: s.Node, Score: s.Relevance})
			}
			label = c.Str("query")
			if len(seeds) == 0 {
				return tools.Errorf("Resonance starts from seed nodes; none matched the query.", "no node matches query %q", label).WithNext("Use seek to find the node, then call resonate with its node_id.")
			}
		}
		eng, err := resonance.New(resonance.DefaultParams())
		if err != nil {
			return err
		}
		rep, err := eng.Analyze(g, seeds)
		if err != nil {
			return err
		}
		topK := c.Int("top_k")
		harm := []map[string]any{}
		for i, h := range rep.Harmonics {
			if i == topK {
				break
			}
			harm = append(harm, map[string]any{"node_id": g.ExternalID(h.Node), "label": g.Label(h.Node), "amplitude": tools.R3(h.Amplitude), "harmonic_order": h.HarmonicOrder, "frequency": tools.R3(h.Frequency)})
		}
		pairs := []map[string]any{}
		for i, p := range rep.SympatheticPairs {
			if i == topK {
				break
			}
			pairs = append(pairs, map[string]any{"a": g.ExternalID(p.A), "b": g.ExternalID(p.B), "coupling": tools.R3(p.Coupling)})
		}
		groups := []map[string]any{}
		for _, hg := range rep.HarmonicGroups {
			var ids []string
			for i, n := range hg.Nodes {
				if i == topK {
					break
				}
				ids = append(ids, g.ExternalID(n))
			}
			groups = append(groups, map[string]any{"harmonic_order": hg.HarmonicOrder, "frequency": tools.R3(hg.Frequency), "mean_amplitude": tools.R3(hg.MeanAmplitude), "size": len(hg.Nodes), "nodes": ids})
		}
		freqs := []map[string]any{}
		for _, f := range rep.ResonantFrequencies {
			freqs = append(freqs, map[string]any{"frequency": tools.R3(f.Frequency), "energy": tools.R3(f.Energy)})
		}
		out = map[string]any{
			"seed":                 label,
			"seed_nodes":           len(seeds),
			"harmonics":            harm,
			"sympathetic_pairs":    pairs,
			"resonant_frequencies": freqs,
			"harmonic_groups":      groups,
			"stats":                rep.Stats,
			"elapsed_ms":           tools.Ms(time.Since(start)),
		}
		return nil
	})
	return out, err
}
