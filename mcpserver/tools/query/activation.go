package query

import (
	"fmt"
	"time"

	"github.com/m1nd-go/m1nd/core/engine"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/resonance"
	"github.com/m1nd-go/m1nd/core/seed"
	"github.com/m1nd-go/m1nd/core/seek"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type activateParams struct {
	Query                  string   `json:"query" help:"What to look for: words, identifiers, paths (\"session pool management\", \"AuthService.login\")." tool:"required"`
	TopK                   int      `json:"top_k" help:"Number of activated nodes to return." tool:"default=20,min=1,max=500"`
	Dimensions             []string `json:"dimensions" help:"Dimensions to include: structural, semantic, temporal, causal." tool:"default=structural|semantic|temporal|causal,enum=structural|semantic|temporal|causal"`
	XLR                    bool     `json:"xlr" jsonschema:"Suppress always-active hubs." help:"XLR noise cancellation (suppresses hubs that light up for every query)." tool:"default=true"`
	IncludeGhostEdges      bool     `json:"include_ghost_edges" jsonschema:"Report likely missing links." help:"Report probable but missing connections between strongly co-activated nodes." tool:"default=true"`
	IncludeStructuralHoles bool     `json:"include_structural_holes" jsonschema:"Report dark nodes in a lit neighbourhood." help:"Report nodes whose neighbourhood lit up while they did not." tool:"default=false"`
	Scope                  string   `json:"scope" help:"List only nodes whose file is under this path prefix or matches this glob (a federated repository's name followed by /, \"src/auth/\"); activation still spreads through the rest of the graph."`
	IncludeSeeds           bool     `json:"include_seeds" help:"List the seed nodes the query matched (at most top_k, strongest first); otherwise only seeds_count is given." tool:"default=false"`
	TrustWeight            float64  `json:"trust_weight" jsonschema:"How much fix history moves a result; 0: off." help:"Rank nodes of files with a history of fixes higher: score × (1 + w·(0.5 − trust)/0.5), trust as the trust tool gives it (0.5 without history, so those keep their score); 0 turns it off." tool:"default=0,min=0,max=1"`
}

type warmupParams struct {
	TaskDescription string  `json:"task_description" help:"The task you are about to work on, in natural language." tool:"required"`
	BoostStrength   float64 `json:"boost_strength" help:"Boost given to the most relevant node (others proportionally less)." tool:"default=0.15,min=0,max=1"`
}

type resonateParams struct {
	Query  string `json:"query" jsonschema:"Query to start from (or node_id; neither: global)." help:"Query whose seeds start the waves. Give query or node_id, or neither for global resonance from the most central nodes."`
	NodeID string `json:"node_id" help:"A node to start from instead of a query." jsonschema:"Start node instead of a query."`
	TopK   int    `json:"top_k" help:"Number of harmonics to return." tool:"default=20,min=1,max=200"`
}

func registerActivation(r *tools.Registry) {
	r.AddWarmup("activate's workspaces", tools.WarmActivate) // the first call's scratch, behind the ingest
	tools.Add(r, tools.Tool{
		Name:        "activate",
		Title:       "Spreading activation",
		Description: "Nodes related to a topic by spreading activation: when you know the topic, not the files.",
		Details:     "Spreading activation query across the graph: seeds matched from the query propagate through structure, semantics, recency and causal edges, merged with XLR noise cancellation. Returns ranked nodes with per-dimension scores in [0, 1], the number of seeds (the seeds themselves with include_seeds), optional ghost edges and structural holes. Feedback given with learn on this or a similar query re-ranks the results. With trust_weight (try 0.1), nodes of files with a history of fixes rank higher, long-stable ones lower (trust_factor per result). Side effect, bounded and reported in `plasticity`: Hebbian plasticity on the query's neighbourhood (co-activated edges strengthen, edges competing with them decay; at most a few hundred edges per query).",
		Class:       tools.Write,
		WhenToUse:   "Primary associative search: \"what in the codebase relates to X?\" when you know a topic but not the files.",
		AvoidWhen:   "You know exactly what text to find (search) or want code by described purpose (seek).",
		Next:        []string{"view", "learn", "impact", "why"},
		Example:     map[string]any{"agent_id": "claude", "query": "session pool management", "top_k": 10},
	}, runActivate)
	tools.Add(r, tools.Tool{
		Name:        "warmup",
		Title:       "Warm up for a task",
		Description: "Boost a task's region so later activate queries favour it; call when a task starts.",
		Details:     "Task-based priming: activates the graph around a task description and gives the activated nodes a temporary boost that later activate queries add to their scores. Boosts decay per query and with time and are never persisted.",
		Class:       tools.Write,
		WhenToUse:   "At the start of a focused task or on a context switch, to bias later queries toward its region.",
		AvoidWhen:   "One-off questions: the boost only pays off over several queries.",
		Next:        []string{"activate", "seek"},
		Example:     map[string]any{"agent_id": "claude", "task_description": "Refactor message routing to support group chats", "boost_strength": 0.2},
	}, runWarmup)
	tools.Add(r, tools.Tool{
		Name:        "resonate",
		Title:       "Resonance analysis",
		Description: "Which modules move together and where subsystems part, from standing waves over the graph.",
		Details:     "Resonance analysis: standing waves from seed nodes swept across frequencies, giving harmonics (nodes by harmonic order), resonant frequencies, sympathetic pairs (nodes far from the seeds that respond alike) and harmonic groups. Read-only.",
		Class:       tools.Read,
		WhenToUse:   "Finding natural clusters and couplings: which modules move together, where subsystem boundaries lie.",
		AvoidWhen:   "Plain lookups; activate or seek are cheaper.",
		Next:        []string{"activate", "missing", "why"},
		Example:     map[string]any{"agent_id": "claude", "query": "authentication flow", "top_k": 10},
	}, runResonate)
}

type activatedJSON struct {
	NodeID     string          `json:"node_id"`
	Label      string          `json:"label"`
	Type       string          `json:"type"`
	Activation float64         `json:"activation"`
	Dimensions dimensionScores `json:"dimensions"`
	PageRank   float64         `json:"pagerank"`
	// Feedback is the node's learned relevance for this query in (−1, 1),
	// from learn calls on it or a similar query (absent when none).
	Feedback float64 `json:"feedback,omitempty"`
	// TrustFactor is what the file's trust multiplied the score by
	// (trust_weight; absent when 1).
	TrustFactor float64         `json:"trust_factor,omitempty" jsonschema:"Score × from the file's fix history (trust_weight); absent when 1."`
	Tags        []string        `json:"tags"`
	Provenance  *tools.ProvJSON `json:"provenance,omitempty"`
}

// dimensionScores is a node's score in each dimension, in [0, 1]. Its
// fields are in the order of their names, as the map it replaced was
// encoded, so answers are byte for byte what they were; a struct spares
// each node a map and the encoder's sorting of its keys.
type dimensionScores struct {
	Causal     float64 `json:"causal"`
	Semantic   float64 `json:"semantic"`
	Structural float64 `json:"structural"`
	Temporal   float64 `json:"temporal"`
}

func dimensionsOf(d [graph.NumDimensions]float32) dimensionScores {
	return dimensionScores{
		Causal: tools.R3(d[graph.Causal]), Semantic: tools.R3(d[graph.Semantic]),
		Structural: tools.R3(d[graph.Structural]), Temporal: tools.R3(d[graph.Temporal]),
	}
}

type seedJSON struct {
	NodeID    string  `json:"node_id"`
	Label     string  `json:"label"`
	Relevance float64 `json:"relevance"`
	Match     string  `json:"match"`
}

func runActivate(c *tools.Call, in activateParams) (activateOutput, error) {
	q := in.Query
	if len([]rune(q)) == 0 || len(q) > 20000 {
		return activateOutput{}, tools.Errorf("query is the text to activate from: a few words, identifiers or paths (at most 20,000 bytes).", "query must be non-empty and at most 20,000 bytes, got %d bytes", len(q))
	}
	dims, err := engine.ParseDimensions(in.Dimensions)
	if err != nil {
		return activateOutput{}, tools.Errorf("dimensions accepts structural, semantic, temporal and causal.", "%v", err)
	}
	var out activateOutput
	err = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		eng, err := tools.QueryEngine(c, b)
		if err != nil {
			return err
		}
		g := b.Graph
		scope, err := tools.ParseScope(b, in.Scope)
		if err != nil {
			return err
		}
		eq := engine.Query{
			Text: q, TopK: in.TopK, Dimensions: dims, XLR: in.XLR && c.Session.Config().XLREnabled,
			GhostEdges: in.IncludeGhostEdges, StructuralHoles: in.IncludeStructuralHoles,
		}
		if scope != nil {
			eq.Keep = func(n graph.NodeID) bool { return scope.Match(g.SourcePath(n)) }
		}
		eq.MoreSeeds = func() []seed.Seed { return seekSeeds(c, b, q) } // beside the engine's own seeds
		eq.Weight = trustWeight(c, b, in.TrustWeight)
		res, err := eng.Activate(c.Ctx, eq)
		if err != nil {
			return err
		}
		if res.Learned {
			c.Session.Learned()
		}
		out = activateJSON(c, g, res, in.IncludeSeeds, in.TopK)
		return nil
	})
	return out, err
}

// activateSeekSeeds is how many of seek's best hits join activate's seeds.
const activateSeekSeeds = 20

// seekSeeds are seek's best hits for q as seeds: its code-aware ranking
// (identifier splitting, bodies, file-level word weights) finds the code
// a sentence or a bug report is about far better than label matching,
// and activation then spreads from the right places. None when the seek
// index cannot be built (activate still runs on its own seeds).
func seekSeeds(c *tools.Call, b *session.Bundle, q string) []seed.Seed {
	idx, err := tools.SeekIndex(c.Session, b)
	if err != nil {
		return nil
	}
	res := idx.SearchText(q, seek.Params{TopK: activateSeekSeeds, GraphRerank: true})
	out := make([]seed.Seed, 0, len(res.Hits))
	for _, h := range res.Hits {
		out = append(out, seed.Seed{Node: h.Node, Relevance: h.Score, Match: seed.MatchLexical})
	}
	return out
}

// activateJSON renders an activation. Seeds are listed only when asked
// for, and then at most topK of them: a broad query matches up to 200,
// which would otherwise be most of the answer.
func activateJSON(c *tools.Call, g *graph.Graph, res *engine.Result, withSeeds bool, topK int) activateOutput {
	act := make([]activatedJSON, 0, len(res.Activated))
	for _, n := range res.Activated {
		act = append(act, activatedJSON{
			NodeID: g.ExternalID(n.ID), Label: g.Label(n.ID), Type: tools.TypeName(g.Type(n.ID)),
			Activation: tools.R3(n.Activation), Dimensions: dimensionsOf(n.Dims), PageRank: tools.R3(n.PageRank), Feedback: tools.R3(n.Feedback),
			TrustFactor: shownFactor(n.Weight),
			Tags:        tools.OrEmpty(g.Tags(n.ID)), Provenance: tools.ProvOf(g, n.ID),
		})
	}
	ghosts := []ghostEdgeOutput{}
	for _, ge := range res.GhostEdges {
		ghosts = append(ghosts, ghostEdgeOutput{
			Source: g.ExternalID(ge.Source), Target: g.ExternalID(ge.Target),
			SharedDimensions: ge.DimensionNames, Strength: tools.R3(ge.Strength),
		})
	}
	holes := []activeHoleOutput{}
	if res.Holes != nil {
		for _, h := range res.Holes.Holes {
			holes = append(holes, holeJSON(g, h.Node, h.SiblingAvgActivation, h.ActivatedNeighbors, h.Neighbors, h.Reason))
		}
	}
	out := activateOutput{
		Query:           res.Query,
		SeedsCount:      len(res.Seeds),
		Activated:       act,
		GhostEdges:      ghosts,
		StructuralHoles: holes,
		Plasticity:      res.Plasticity,
		Engine:          res.Engine.String(),
		ElapsedMs:       tools.Ms(res.Elapsed),
	}
	out.XLR.Applied, out.XLR.FallbackToHotOnly, out.XLR.AntiSeeds = res.XLR, res.XLRFallback, len(res.AntiSeeds)
	if withSeeds {
		// Non-nil even when empty: asked for, seeds is always present.
		out.Seeds = make([]seedJSON, 0, min(len(res.Seeds), topK))
		for i, s := range res.Seeds {
			if i == topK {
				break
			}
			out.Seeds = append(out.Seeds, seedJSON{g.ExternalID(s.Node), g.Label(s.Node), tools.R3(s.Relevance), s.Match.String()})
		}
	}
	out.Guidance = activateGuidance(c, g, res)
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

func holeJSON(g *graph.Graph, id graph.NodeID, avg float32, n int, neighbors []graph.NodeID, reason string) activeHoleOutput {
	var nb []string
	for _, x := range neighbors {
		nb = append(nb, g.ExternalID(x))
	}
	ref := tools.RefOf(g, id)
	return activeHoleOutput{
		NodeID: ref.NodeID, Label: ref.Label, Type: ref.Type,
		SiblingAvgActivation: tools.R3(avg), ActivatedNeighbors: n,
		Neighbors: tools.OrEmpty(nb), Reason: reason,
	}
}

func runWarmup(c *tools.Call, in warmupParams) (warmupOutput, error) {
	task := in.TaskDescription
	if task == "" {
		return warmupOutput{}, tools.Errorf("Describe the task in a sentence: \"Refactor the payment retry logic\".", "task_description must not be empty")
	}
	var out warmupOutput
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		eng, err := tools.QueryEngine(c, b)
		if err != nil {
			return err
		}
		start := time.Now()
		res, boosts, err := eng.WarmupTask(c.Ctx, engine.Query{Text: task, TopK: 50, XLR: c.Session.Config().XLREnabled, NoLearn: true}, float32(in.BoostStrength))
		if err != nil {
			return err
		}
		g := b.Graph
		top := []primedNode{}
		for i, s := range boosts {
			if i == 20 {
				break
			}
			top = append(top, primedNode{NodeID: g.ExternalID(s.Node), Label: g.Label(s.Node), Boost: tools.R3(s.Score)})
		}
		out = warmupOutput{
			Task:        task,
			PrimedNodes: len(boosts),
			TopPrimed:   top,
			Seeds:       len(res.Seeds),
			ElapsedMs:   tools.Ms(time.Since(start)),
		}
		if len(boosts) == 0 {
			out.NextStepHint = "No node matched the task description; name concrete modules, functions or files."
		}
		return nil
	})
	return out, err
}

func runResonate(c *tools.Call, in resonateParams) (resonateOutput, error) {
	var out resonateOutput
	err := tools.ReadGraph(c, func(b *session.Bundle) error {
		g := b.Graph
		start := time.Now()
		var seeds []graph.Scored
		label := "global"
		switch {
		case in.NodeID != "":
			id, err := tools.ResolveNode(b, in.NodeID, "node_id")
			if err != nil {
				return err
			}
			seeds = []graph.Scored{{Node: id, Score: 1}}
			label = g.ExternalID(id)
		case in.Query != "":
			eng, err := tools.QueryEngine(c, b)
			if err != nil {
				return err
			}
			for _, s := range eng.Seeds().Find(in.Query, 20) {
				seeds = append(seeds, graph.Scored{Node: s.Node, Score: s.Relevance})
			}
			label = in.Query
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
		topK := in.TopK
		out = resonateOutput{
			Seed:                label,
			SeedNodes:           len(seeds),
			Harmonics:           []harmonicOutput{},
			SympatheticPairs:    []sympatheticPair{},
			ResonantFrequencies: []resonantFrequency{},
			HarmonicGroups:      []harmonicGroup{},
			Stats:               rep.Stats,
		}
		for i, h := range rep.Harmonics {
			if i == topK {
				break
			}
			out.Harmonics = append(out.Harmonics, harmonicOutput{NodeID: g.ExternalID(h.Node), Label: g.Label(h.Node), Amplitude: tools.R3(h.Amplitude), HarmonicOrder: h.HarmonicOrder, Frequency: tools.R3(h.Frequency)})
		}
		for i, p := range rep.SympatheticPairs {
			if i == topK {
				break
			}
			out.SympatheticPairs = append(out.SympatheticPairs, sympatheticPair{A: g.ExternalID(p.A), B: g.ExternalID(p.B), Coupling: tools.R3(p.Coupling)})
		}
		for _, hg := range rep.HarmonicGroups {
			var ids []string
			for i, n := range hg.Nodes {
				if i == topK {
					break
				}
				ids = append(ids, g.ExternalID(n))
			}
			out.HarmonicGroups = append(out.HarmonicGroups, harmonicGroup{HarmonicOrder: hg.HarmonicOrder, Frequency: tools.R3(hg.Frequency), MeanAmplitude: tools.R3(hg.MeanAmplitude), Size: len(hg.Nodes), Nodes: ids})
		}
		for _, f := range rep.ResonantFrequencies {
			out.ResonantFrequencies = append(out.ResonantFrequencies, resonantFrequency{Frequency: tools.R3(f.Frequency), Energy: tools.R3(f.Energy)})
		}
		out.ElapsedMs = tools.Ms(time.Since(start))
		return nil
	})
	return out, err
}
