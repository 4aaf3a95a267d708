package change

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/engine"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/seek"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// ImpactParams is impact's input (exported for toolset's bind test).
type ImpactParams struct {
	NodeID              string `json:"node_id" help:"The node: an external id (file::backend/config.py, file::gin.go::Engine::handleHTTPRequest), a path relative to the repository or absolute inside it, a qualified name (Engine.handleHTTPRequest) or a label." tool:"required"`
	Direction           string `json:"direction" jsonschema:"dependents: what breaks; dependencies: what it relies on; or both." help:"dependents: what depends on this and breaks if it changes (also called forward, \"what does this affect?\"); dependencies: what this depends on (also called reverse, \"what affects this?\"); both." tool:"default=dependents,enum=dependents|dependencies|both|forward|reverse"`
	Level               string `json:"level" jsonschema:"List files or entities; auto: as the node is." help:"file: list files (each with the number of its entities affected); entity: list functions, types and methods; auto: files for a file, directory or package, entities for an entity." tool:"default=auto,enum=auto|file|entity"`
	IncludeCausalChains bool   `json:"include_causal_chains" help:"With detail \"full\": include the strongest paths the impact travels along." tool:"default=true"`
	MaxHops             int    `json:"max_hops" help:"How many dependency hops to follow (1: direct dependents only)." tool:"default=3,min=1,max=10"`
	TopK                *int   `json:"top_k" jsonschema:"Nodes listed (default 15, full 30); not_listed counts the rest." help:"Maximum nodes listed in the blast radius: 15 by default, 30 with detail \"full\"; total_affected, not_listed and affected_by_hop count all of them." tool:"min=1,max=1000"`
	Scope               string `json:"scope" help:"List only nodes whose file is under this path prefix or matches this glob (a federated repository's name followed by /, \"src/auth/\", \"**/*.py\"); the walk still crosses other files, and the counts are of the listed scope."`
	Detail              string `json:"detail" help:"brief (the default): each affected node with its id, type, hop distance, signal and the first usage that links it, in short form; the causal chains are counted, not listed. full: also labels and files, up to three usages in full, and the causal chains (include_causal_chains)." tool:"default=brief,enum=brief|full"`
}

type whyParams struct {
	Source  string `json:"source" help:"Start node (external id, path or label)." tool:"required"`
	Target  string `json:"target" help:"End node (external id, path or label)." tool:"required"`
	MaxHops int    `json:"max_hops" help:"Longest path considered." tool:"default=6,min=1,max=12"`
	TopK    int    `json:"top_k" help:"Number of paths returned." tool:"default=5,min=1,max=50"`
}

type missingParams struct {
	Query                string  `json:"query" help:"The topic to look for gaps around." tool:"required"`
	MinSiblingActivation float64 `json:"min_sibling_activation" help:"Neighbours must be activated at least this much to count." tool:"default=0.3,min=0,max=1"`
	TopK                 int     `json:"top_k" help:"Maximum holes returned." tool:"default=10,min=1,max=100"`
	Scope                string  `json:"scope" help:"Look for gaps only among files under this path prefix or matching this glob (a federated repository's name followed by /, \"src/auth/\")."`
}

func registerAnalysis(r *tools.Registry) {
	r.AddWarmup("impact's scratch", tools.WarmImpact) // the first call's scratch, behind the ingest
	tools.Add(r, tools.Tool{
		Name:        "impact",
		Title:       "Blast radius",
		Description: "What breaks if this node changes: dependents, nearest first, with the usage linking them.",
		Details:     "What breaks if this node changes. Lists the files (or functions, types, methods) that depend on it — importers, callers, subclasses, type users, tests — direct dependents first, then their dependents, each with hop distance, signal strength and the usages that connect it. Follows dependency edges only: the node's own children, its directory and package are never reported as affected. direction \"dependencies\" answers the opposite question (what the node relies on).",
		Class:       tools.Read,
		WhenToUse:   "Before modifying a file or function: who calls, imports or subclasses it, and what depends on those?",
		AvoidWhen:   "You need files that usually change together (co-change history), or you are only reading code.",
		Next:        []string{"why", "view", "validate_plan"},
		Example:     map[string]any{"agent_id": "claude", "node_id": "file::backend/session.py"},
	}, runImpact)
	tools.Add(r, tools.Tool{
		Name:        "why",
		Title:       "Why connected",
		Description: "How two nodes are connected: the strongest paths, hop by hop.",
		Details:     "Explain how two nodes are connected: every path up to max_hops, ranked by cumulative edge strength, with the relation of each hop (reversed hops are marked).",
		Class:       tools.Read,
		WhenToUse:   "\"Why are these two modules connected?\" — tracing influence or a suspected dependency.",
		AvoidWhen:   "You want everything a node affects (impact).",
		Next:        []string{"impact", "view"},
		Example:     map[string]any{"agent_id": "claude", "source": "file::backend/payments.py", "target": "file::backend/session.py", "max_hops": 4},
	}, runWhy)
	tools.Add(r, tools.Tool{
		Name:        "missing",
		Title:       "Structural holes",
		Description: "What should exist around a topic but does not: missing tests, bridges, dependencies.",
		Details:     "Structural holes around a topic: what should exist but does not. Activates the query, then reports modules in the middle of the topic that the query did not reach but whose words match it (inactive_bridge: among the five production files seek ranks first), activated modules without tests while their siblings have them — a test that reaches a module through its users or through data and re-export modules counts (untested), and activated modules of the topic that skip a dependency every other sibling uses — the route without the validator (missing_dependency). Tests, examples, vendored copies, re-export files, files in no programming language and modules without a function are no holes. Each hole has a kind, a score, the evidence nodes and a reason; an answer without holes says what was checked.",
		Class:       tools.Read,
		WhenToUse:   "Gap analysis before or after building a feature: what is conspicuously absent?",
		AvoidWhen:   "Looking for existing code (activate, seek).",
		Next:        []string{"activate", "view"},
		Example:     map[string]any{"agent_id": "claude", "query": "database connection pooling"},
	}, runMissing)
}

type impactNodeJSON struct {
	NodeID         string   `json:"node_id"`
	Label          string   `json:"label,omitempty" jsonschema:"Absent in brief answers."`
	Type           string   `json:"type"`
	File           string   `json:"file,omitempty"`
	SignalStrength float64  `json:"signal_strength"`
	HopDistance    int      `json:"hop_distance"`
	Direction      string   `json:"direction,omitempty"`
	Entities       int      `json:"entities_affected,omitempty"`
	Via            []string `json:"via,omitempty" jsonschema:"The usages that link it (\"dependent relation dependency\"): the first, without the files' paths, in brief answers; up to three in full."`
	// Runtime is what runtime_overlay's spans said of the node, if any.
	Runtime *tools.RuntimeHeat `json:"runtime,omitempty" jsonschema:"Calls, errors, latency and heat from runtime_overlay's spans."`
}

type chainJSON struct {
	Path               []string `json:"path"`
	Relations          []string `json:"relations"`
	CumulativeStrength float64  `json:"cumulative_strength"`
	Hops               int      `json:"hops"`
}

// chainOut renders a path; a hop walked against an edge's direction shows
// the relation in its passive form ("imported_by", "called_by",
// "contained_in"), so every hop reads left to right.
func chainOut(g *graph.Graph, ch analysis.Chain) chainJSON {
	out := chainJSON{CumulativeStrength: tools.R3(ch.CumulativeStrength), Hops: len(ch.Relations)}
	for _, n := range ch.Nodes {
		out.Path = append(out.Path, g.ExternalID(n))
	}
	for i, r := range ch.Relations {
		if i < len(ch.Reversed) && ch.Reversed[i] {
			r = analysis.PassiveRelation(r)
		}
		out.Relations = append(out.Relations, r)
	}
	return out
}

// impact's default top_k: a brief answer lists fewer nodes (not_listed
// counts the rest), a full one what it always listed.
const (
	impactBriefTopK = 15
	impactFullTopK  = 30
)

// inFile is a node's short name in a brief usage: an entity without its
// file's path ("Dispatcher::Call"), a file by its path.
func inFile(g *graph.Graph, id graph.NodeID) string {
	s := tools.ShortID(g, id)
	if p := g.SourcePath(id); p != "" && strings.HasPrefix(s, p+"::") {
		return s[len(p)+2:]
	}
	return s
}

func runImpact(c *tools.Call, in ImpactParams) (ImpactOutput, error) {
	dir, err := analysis.ParseImpactDirection(in.Direction)
	if err != nil {
		return ImpactOutput{}, tools.Errorf("direction is \"dependents\" (what breaks if this changes), \"dependencies\" (what this relies on) or \"both\".", "%v", err)
	}
	level, err := analysis.ParseLevel(in.Level)
	if err != nil {
		return ImpactOutput{}, tools.Errorf("level is \"file\", \"entity\" or \"auto\".", "%v", err)
	}
	full := in.Detail == "full"
	topK := impactBriefTopK
	if full {
		topK = impactFullTopK
	}
	if in.TopK != nil {
		topK = *in.TopK
	}
	var out ImpactOutput
	err = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		g := b.Graph
		srcRes, err := tools.Resolve(b, in.NodeID, "node_id")
		if err != nil {
			return err
		}
		src := srcRes.ID
		start := time.Now()
		p := analysis.DefaultImpactParams()
		p.Direction, p.Level = dir, level
		p.MaxHops, p.TopK, p.IncludeCausalChains = in.MaxHops, topK, in.IncludeCausalChains
		scope, err := tools.ParseScope(b, in.Scope)
		if err != nil {
			return err
		}
		if scope != nil {
			p.Keep = func(n graph.NodeID) bool { return scope.Match(g.SourcePath(n)) }
		}
		res, err := analysis.Impact(g, src, p)
		if err != nil {
			return err
		}
		blast := make([]impactNodeJSON, 0, len(res.BlastRadius))
		runtime := tools.Runtime(c.Session)
		for _, n := range res.BlastRadius {
			ref := tools.RefOf(g, n.Node)
			item := impactNodeJSON{NodeID: ref.NodeID, Type: ref.Type, SignalStrength: tools.R3(n.SignalStrength), HopDistance: n.HopDistance, Entities: n.Entities}
			if h, ok := runtime.Heat(ref.NodeID); ok {
				item.Runtime = &h
			}
			if dir == analysis.BothWays {
				item.Direction = n.Direction.String()
			}
			if full {
				item.Label, item.File = ref.Label, g.SourcePath(n.Node)
				for _, u := range n.Via {
					item.Via = append(item.Via, tools.ShortID(g, u.Dependent)+" "+u.Relation+" "+tools.ShortID(g, u.Dependency))
				}
			} else if len(n.Via) > 0 {
				u := n.Via[0]
				item.Via = []string{inFile(g, u.Dependent) + " " + u.Relation + " " + inFile(g, u.Dependency)}
			}
			blast = append(blast, item)
		}
		var chains []chainJSON
		notListed := 0
		if full {
			chains = []chainJSON{}
			for _, ch := range res.CausalChains {
				chains = append(chains, chainOut(g, ch))
			}
		} else {
			notListed = len(res.CausalChains)
		}
		byHop := map[string]int{}
		for i, n := range res.ByHop {
			byHop[strconv.Itoa(i+1)] = n
		}
		out = ImpactOutput{
			Source:         g.ExternalID(src),
			SourceLabel:    g.Label(src),
			Direction:      res.Direction,
			Level:          res.Level,
			Scope:          res.Scope,
			BlastRadius:    blast,
			TotalAffected:  res.Affected,
			AffectedByHop:  byHop,
			NotListed:      res.Affected - len(blast),
			TotalEnergy:    tools.R3(res.TotalEnergy),
			MaxHopsReached: res.MaxHopsReached,
			CausalChains:   chains,
			ChainsUnlisted: notListed,
			Truncated:      res.Truncated,
			ResolvedAs:     tools.ResolvedNames(g, srcRes),
			ElapsedMs:      tools.Ms(time.Since(start)),
			Guidance:       impactGuidance(c, g, src, res, full),
		}
		return nil
	})
	return out, err
}

// impactGuidance: many direct dependents, or a wide transitive reach,
// call for validating the change plan first; a contained one lets the
// agent go read the closest dependent and edit.
func impactGuidance(c *tools.Call, g *graph.Graph, src graph.NodeID, res analysis.ImpactResult, full bool) tools.Guidance {
	direct := 0
	if len(res.ByHop) > 0 {
		direct = res.ByHop[0]
	}
	what := "dependents"
	if res.Direction == analysis.Dependencies.String() {
		what = "dependencies"
	}
	switch {
	case len(res.BlastRadius) == 0:
		hint := "Nothing depends on this node: the change is local (check dynamic uses — reflection, string dispatch, config — which the graph cannot see)."
		if what == "dependencies" {
			hint = "This node depends on nothing else in the repository."
		}
		return tools.Guidance{
			ProofState:          "ready_to_edit",
			NextSuggestedTool:   tools.FirstTool(c.Registry, "view"),
			NextSuggestedTarget: g.ExternalID(tools.FileOf(g, src)),
			NextStepHint:        hint,
		}
	case what == "dependents" && (direct >= 10 || res.Affected >= 40):
		chains := "read the causal chains first"
		if !full {
			chains = "detail \"full\" lists the causal chains"
		}
		return tools.Guidance{
			ProofState:          "proving",
			NextSuggestedTool:   tools.FirstTool(c.Registry, "validate_plan", "why", "view"),
			NextSuggestedTarget: g.ExternalID(src),
			NextStepHint: fmt.Sprintf("%s has %d direct dependents and %d affected in all (%d levels deep): a change to its interface ripples widely; keep it compatible or plan every dependent's update, and %s.",
				g.Label(src), direct, res.Affected, res.MaxHopsReached, chains),
		}
	default:
		top := res.BlastRadius[0].Node
		return tools.Guidance{
			ProofState:          "ready_to_edit",
			NextSuggestedTool:   tools.FirstTool(c.Registry, "view"),
			NextSuggestedTarget: g.ExternalID(tools.FileOf(g, top)),
			NextStepHint:        fmt.Sprintf("The blast radius is contained (%d %s, %d direct); read the closest one, %s, before editing.", res.Affected, what, direct, g.Label(top)),
		}
	}
}

func runWhy(c *tools.Call, in whyParams) (WhyOutput, error) {
	var out WhyOutput
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		g := b.Graph
		srcRes, dstRes, err := tools.ResolvePair(b, in.Source, "source", in.Target, "target", true)
		if err != nil {
			return err
		}
		src, dst := srcRes.ID, dstRes.ID
		start := time.Now()
		p := analysis.DefaultWhyParams()
		p.MaxHops, p.TopK = in.MaxHops, in.TopK
		res, err := analysis.Why(g, src, dst, p)
		if err != nil {
			return err
		}
		paths := []chainJSON{}
		for _, ch := range res.Paths {
			paths = append(paths, chainOut(g, ch))
		}
		out = WhyOutput{
			Source:          g.ExternalID(src),
			Target:          g.ExternalID(dst),
			Paths:           paths,
			TotalPathsFound: res.TotalPathsFound,
			Truncated:       res.Truncated,
			ResolvedAs:      tools.ResolvedNames(g, srcRes, dstRes),
			ElapsedMs:       tools.Ms(time.Since(start)),
		}
		if len(paths) == 0 {
			out.NextStepHint = fmt.Sprintf("No path within %d hops; raise max_hops, or the two nodes are structurally unrelated.", p.MaxHops)
		}
		return nil
	})
	return out, err
}

func holeOut(g *graph.Graph, h analysis.Hole) missingHoleOutput {
	nb := []string{}
	for _, x := range h.Neighbors {
		nb = append(nb, g.ExternalID(x))
	}
	ref := tools.RefOf(g, h.Node)
	out := missingHoleOutput{
		NodeID: ref.NodeID, Label: ref.Label, Type: ref.Type, Kind: string(h.Kind),
		Score: tools.R3(h.Score), SiblingAvgActivation: tools.R3(h.SiblingAvgActivation), ActivatedNeighbors: h.ActivatedNeighbors,
		Neighbors: nb, Reason: h.Reason,
	}
	if h.Kind == analysis.HoleMissingDependency {
		out.Missing = g.ExternalID(h.Missing)
	}
	return out
}

// missingTopic is the query's text relevance per node (seek's lexical
// scores, tests left out): a bridge must be about the topic by its words.
func missingTopic(c *tools.Call, b *session.Bundle, q string) (map[graph.NodeID]float32, error) {
	sx, err := tools.SeekIndex(c.Session, b)
	if err != nil {
		return nil, err
	}
	res := sx.SearchText(q, seek.Params{TopK: 400, ExcludeTests: true})
	topic := make(map[graph.NodeID]float32, len(res.Hits))
	for _, h := range res.Hits {
		topic[h.Node] = max(topic[h.Node], h.Breakdown.Total())
	}
	return topic, nil
}

func runMissing(c *tools.Call, in missingParams) (missingOutput, error) {
	q := in.Query
	if q == "" {
		return missingOutput{}, tools.Errorf("query is the topic to look for gaps around, e.g. \"input validation\".", "query must not be empty")
	}
	var out missingOutput
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		eng, err := tools.QueryEngine(c, b)
		if err != nil {
			return err
		}
		g := b.Graph
		start := time.Now()
		query := engine.Query{Text: q, TopK: 200, XLR: c.Session.Config().XLREnabled, NoLearn: true}
		scope, err := tools.ParseScope(b, in.Scope)
		if err != nil {
			return err
		}
		if scope != nil {
			query.Keep = func(n graph.NodeID) bool { return scope.Match(g.SourcePath(n)) }
		}
		res, err := eng.Activate(c.Ctx, query)
		if err != nil {
			return err
		}
		hp := analysis.DefaultHoleParams()
		hp.MinSiblingActivation = float32(in.MinSiblingActivation)
		hp.TopK = in.TopK
		if hp.Topic, err = missingTopic(c, b, q); err != nil {
			return err
		}
		holes, err := analysis.StructuralHoles(g, res.Scored(), hp)
		if err != nil {
			return err
		}
		list := []missingHoleOutput{}
		for _, h := range holes.Holes {
			list = append(list, holeOut(g, h))
		}
		out = missingOutput{
			Query:      q,
			Holes:      list,
			TotalHoles: holes.Total,
			Activated:  len(res.Activated),
			ElapsedMs:  tools.Ms(time.Since(start)),
		}
		switch {
		case len(res.Activated) == 0:
			out.NextStepHint = "Nothing matched the query, so there is no neighbourhood to find gaps in; try seek or different words."
		case holes.Total == 0:
			out.NextStepHint = "No holes: the topic's modules were reached, are tested where their siblings are, and use what their siblings use. A bridge must also match the query's words; name the topic as its code does to look again."
		}
		return nil
	})
	return out, err
}
