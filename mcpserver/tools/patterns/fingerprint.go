package patterns

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/engine"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/patterns"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"golang.org/x/sync/errgroup"
)

type fingerprintParams struct {
	TargetNode          string   `json:"target_node" jsonschema:"Node to find equivalents of; omitted: global." help:"The node to find equivalents of (external id, path, qualified name or label). Omitted: global fingerprinting — pairs of equivalent nodes among those the probes activate most."`
	SimilarityThreshold float64  `json:"similarity_threshold" help:"Least cosine similarity of two fingerprints, each standardised per probe." tool:"default=0.85,min=0,max=1"`
	ProbeQueries        []string `json:"probe_queries" help:"The queries whose activation pattern is the fingerprint. Default: the target's name and its most central neighbours' names, then the most central nodes' names (global: those only), 8 in all." tool:"maxitems=12,maxlen=200"`
	TopK                int      `json:"top_k" help:"Equivalents (or pairs) listed." tool:"default=10,min=1,max=100"`
}

// FingerprintOutput is fingerprint's answer.
type FingerprintOutput struct {
	Target      string           `json:"target,omitempty"`
	Probes      []string         `json:"probes"`
	Fingerprint []float64        `json:"fingerprint,omitempty" jsonschema:"The target's activation under each probe."`
	Equivalents []equivalentJSON `json:"equivalents" jsonschema:"Most similar first (global: pairs)."`
	Total       int              `json:"total_equivalents"`
	Activated   int              `json:"nodes_fingerprinted" jsonschema:"Nodes some probe activated."`
	ElapsedMs   float64          `json:"elapsed_ms"`
	tools.Guidance
}

type equivalentJSON struct {
	NodeID     string  `json:"node_id"`
	Label      string  `json:"label"`
	Of         string  `json:"of,omitempty" jsonschema:"Global: the node it is equivalent to."`
	Similarity float64 `json:"similarity"`
	Reason     string  `json:"reason"`
}

func registerFingerprint(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "fingerprint",
		Title:       "Equivalent nodes",
		Description: "Nodes that respond like this one to probe queries: duplicates of its role elsewhere.",
		Details: "Runs probe queries through activation (without learning) and takes a node's activation under each as its fingerprint; nodes of the same kind " +
			"whose fingerprints point the same way (cosine ≥ similarity_threshold, activated by at least two of the same probes) are its equivalents. " +
			"Direct neighbours, its container and children and its siblings in one file are left out: those are complements (resonate), not duplicates. " +
			"Without target_node, the probes are the most central nodes' names and the answer lists equivalent pairs.",
		Class:     tools.Read,
		WhenToUse: "Consolidation: does code doing this node's job exist elsewhere?",
		AvoidWhen: "Copied code (twins compares bodies) or coupled code (resonate).",
		Next:      []string{"twins", "view"},
		Example:   map[string]any{"agent_id": "claude", "target_node": "file::backend/session.py", "similarity_threshold": 0.7},
	}, runFingerprint)
}

// kindOf groups node types that can stand in for each other.
func kindOf(t graph.NodeType) int {
	switch {
	case t == graph.Function:
		return 1
	case patterns.IsTypeNode(t):
		return 2
	}
	return 3 + int(t)
}

func runFingerprint(c *tools.Call, in fingerprintParams) (FingerprintOutput, error) {
	var out FingerprintOutput
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		eng, err := tools.QueryEngine(c, b)
		if err != nil {
			return err
		}
		g := b.Graph
		target := graph.NoNode
		if strings.TrimSpace(in.TargetNode) != "" {
			if target, err = tools.ResolveNode(b, in.TargetNode, "target_node"); err != nil {
				return err
			}
		}
		start := time.Now()
		probes := in.ProbeQueries
		if len(probes) == 0 {
			probes = autoProbes(g, target)
		}
		// The probes run side by side (activation only reads the graph).
		results := make([]*engine.Result, len(probes))
		eg, ctx := errgroup.WithContext(c.Ctx)
		eg.SetLimit(runtime.GOMAXPROCS(0))
		for i, q := range probes {
			eg.Go(func() (err error) {
				results[i], err = eng.Activate(ctx, engine.Query{Text: q, TopK: 300, NoLearn: true})
				return err
			})
		}
		if err := eg.Wait(); err != nil {
			return err
		}
		fp := patterns.NewFingerprints(len(probes))
		for i, res := range results {
			for _, n := range res.Activated {
				fp.Add(i, n.ID, n.Activation)
			}
		}
		out = FingerprintOutput{Probes: probes, Equivalents: []equivalentJSON{}}
		p := patterns.EquivalentParams{Threshold: in.SimilarityThreshold, TopK: in.TopK}
		var eqs []patterns.Equivalent
		if target != graph.NoNode {
			out.Target = g.ExternalID(target)
			for _, x := range fp.Of(target) {
				out.Fingerprint = append(out.Fingerprint, tools.R3(x))
			}
			near := linked(g, target)
			p.Keep = func(n graph.NodeID) bool {
				return kindOf(g.Type(n)) == kindOf(g.Type(target)) && !near[n] && !sameFile(g, n, target) && g.Type(n) != graph.Reference
			}
			eqs, out.Total = fp.Equivalents(target, p)
		} else {
			// Unresolved references (ref:: names) are not code of this
			// repository; a pair must share three probes, not two.
			p.Keep = func(n graph.NodeID) bool {
				t := g.Type(n)
				return t != graph.Directory && t != graph.Module && t != graph.Reference
			}
			p.MinShared = 3
			eqs, out.Total = fp.Pairs(p, func(a, b graph.NodeID) bool {
				return kindOf(g.Type(a)) == kindOf(g.Type(b)) && !sameFile(g, a, b) && !linked(g, a)[b]
			})
		}
		for _, e := range eqs {
			item := equivalentJSON{NodeID: g.ExternalID(e.Node), Label: g.Label(e.Node), Similarity: e.Similarity,
				Reason: fmt.Sprintf("same response to %d of %d probes (cosine %.2f), both %ss", e.Shared, len(probes), e.Similarity, tools.TypeName(g.Type(e.Node)))}
			if target == graph.NoNode {
				item.Of = g.ExternalID(e.Other)
			}
			out.Equivalents = append(out.Equivalents, item)
		}
		out.Activated = fp.Len()
		out.ElapsedMs = tools.Ms(time.Since(start))
		out.Guidance = fingerprintGuidance(c, out)
		return nil
	})
	return out, err
}

// sameFile reports whether two entities share a file: siblings answer
// every probe alike through their file, which makes them neighbours, not
// duplicates.
func sameFile(g *graph.Graph, a, b graph.NodeID) bool {
	return g.Type(a) != graph.File && g.SourcePath(a) != "" && g.SourcePath(a) == g.SourcePath(b)
}

// linked is the set of n's direct neighbours by any relation (callers,
// callees, container, children): complements, not duplicates.
func linked(g *graph.Graph, n graph.NodeID) map[graph.NodeID]bool {
	out := map[graph.NodeID]bool{}
	for _, nb := range g.Neighbors(n) {
		out[nb.Node] = true
	}
	return out
}

// Probes made up when none are given: from the neighbourhood, then from
// the graph's hubs, which give the fingerprint dimensions that tell the
// target's region from others.
const (
	nearProbes = 5
	maxProbes  = 8
)

// autoProbes makes probes: the target's name and its neighbours' most
// specific names, then the most central code nodes' names.
func autoProbes(g *graph.Graph, target graph.NodeID) []string {
	byRank := func(c []graph.NodeID) {
		slices.SortFunc(c, func(a, b graph.NodeID) int {
			return cmp.Or(cmp.Compare(g.PageRank(b), g.PageRank(a)), cmp.Compare(a, b))
		})
	}
	var probes []string
	add := func(label string, limit int) {
		label = strings.TrimSpace(label)
		if label != "" && !slices.Contains(probes, label) && len(probes) < limit {
			probes = append(probes, label)
		}
	}
	if target != graph.NoNode {
		add(g.Label(target), nearProbes)
		var near []graph.NodeID
		for _, nb := range g.Neighbors(target) {
			if t := g.Type(nb.Node); t != graph.Directory && t != graph.Module && !tools.IsTestPath(g.SourcePath(nb.Node)) {
				near = append(near, nb.Node)
			}
		}
		// Specific names first: a neighbour whose name few nodes share
		// (parseRequest, not Mutex) seeds a query about this region.
		rarity := func(n graph.NodeID) int { return len(g.NodesByLabel(g.Label(n))) }
		slices.SortFunc(near, func(a, b graph.NodeID) int {
			return cmp.Or(cmp.Compare(rarity(a), rarity(b)), cmp.Compare(g.PageRank(b), g.PageRank(a)), cmp.Compare(a, b))
		})
		for _, n := range near {
			add(g.Label(n), nearProbes)
		}
	}
	var hubs []graph.NodeID
	for i := range g.NumNodes() {
		if t := g.Type(graph.NodeID(i)); t == graph.Function || patterns.IsTypeNode(t) || t == graph.File {
			hubs = append(hubs, graph.NodeID(i))
		}
	}
	byRank(hubs)
	for _, n := range hubs {
		add(g.Label(n), maxProbes)
	}
	return probes
}

func fingerprintGuidance(c *tools.Call, out FingerprintOutput) tools.Guidance {
	if len(out.Equivalents) == 0 {
		return tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "twins"),
			NextStepHint: "Nothing else responds to the probes the same way; lower similarity_threshold, give probe_queries about the node's job, or look for copied bodies with twins."}
	}
	e := out.Equivalents[0]
	return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "view"), NextSuggestedTarget: e.NodeID,
		NextStepHint: fmt.Sprintf("%s plays the same role (%s): read it and decide whether the two should be one.", e.Label, e.Reason)}
}
