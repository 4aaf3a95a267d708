package patterns

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/patterns"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type twinsParams struct {
	Scope               string   `json:"scope" jsonschema:"Path prefix or glob one twin lies in." help:"Only pairs with at least one node under this path prefix (\"src/api/\") or glob (\"**/*.py\"): the twins of that code anywhere in the repository."`
	NodeTypes           []string `json:"node_types" help:"Kinds of node compared: function (methods included), class, struct, enum, type." tool:"default=function,enum=function|class|struct|enum|type"`
	SimilarityThreshold float64  `json:"similarity_threshold" help:"Least similarity reported: the body shape's similarity (identifiers, strings and numbers renamed away), blended 4:1 with the overlap of what the two depend on." tool:"default=0.8,min=0.3,max=1"`
	TopK                int      `json:"top_k" help:"Pairs listed; total_pairs counts all." tool:"default=10,min=1,max=200"`
}

// TwinsOutput is twins' answer.
type TwinsOutput struct {
	Twins      []twinJSON `json:"twins" jsonschema:"Near-duplicate pairs, most similar first."`
	TotalPairs int        `json:"total_pairs"`
	NotListed  int        `json:"not_listed"`
	Compared   int        `json:"units_compared" jsonschema:"Bodies in scope large enough to compare."`
	Candidates int        `json:"candidate_pairs" jsonschema:"Pairs scored (LSH candidates), not all pairs."`
	Truncated  bool       `json:"truncated,omitempty" jsonschema:"A bound stopped the comparison early."`
	ElapsedMs  float64    `json:"elapsed_ms"`
	tools.Guidance
}

type twinJSON struct {
	A          twinSide `json:"a"`
	B          twinSide `json:"b"`
	Similarity float64  `json:"similarity"`
	Body       float64  `json:"body_similarity"`
	Reason     string   `json:"reason"`
}

type twinSide struct {
	NodeID string `json:"node_id"`
	File   string `json:"file"`
	Lines  string `json:"lines" jsonschema:"start-end"`
}

func registerTwins(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "twins",
		Title:       "Near-duplicates",
		Description: "Near-duplicate functions or classes across the repository: copies under other names.",
		Details: "Finds pairs of functions (or classes, structs) whose bodies have the same shape once identifiers, strings and numbers are renamed away, " +
			"blended with how much of what they depend on they share. Candidates come from MinHash locality-sensitive hashing, so the work is bounded " +
			"(candidate_pairs says how many pairs were scored). Bodies under 30 tokens are not compared. Each pair has its files, lines and a reason.",
		Class:     tools.Read,
		WhenToUse: "Duplicate logic: consolidation candidates, or checking new code duplicates nothing.",
		AvoidWhen: "Looking for code by meaning (seek) or for one node's equivalents (fingerprint).",
		Next:      []string{"view", "fingerprint"},
		Example:   map[string]any{"agent_id": "claude", "scope": "backend/", "similarity_threshold": 0.8},
	}, runTwins)
	// No warm-up: the index is built by the first twins call. Built after
	// every ingest it read every file and held ≈ 50 MB on go-std at the
	// top of the server's peak, then 17 MB for the graph's lifetime, for
	// a tool most sessions never call (issue 29).
}

// twinIndexKey is the bundle's body index, built once per graph.
var twinIndexKey = session.NewKey[*patterns.TwinIndex]("patterns.twins")

// twinTypes are the node types the index holds.
var twinTypes = map[string]graph.NodeType{"function": graph.Function, "class": graph.Class, "struct": graph.Struct, "enum": graph.Enum, "type": graph.Type}

func twinIndex(b *session.Bundle) *patterns.TwinIndex {
	x, _ := buildTwinIndex(context.Background(), b)
	return x
}

// buildTwinIndex builds the index unless ctx ends first (then nothing is
// cached: the next caller builds it). The first twins call on a graph
// pays for it: it reads every file with indexed nodes.
func buildTwinIndex(ctx context.Context, b *session.Bundle) (*patterns.TwinIndex, error) {
	return session.DeriveCtx(ctx, b, twinIndexKey, func(ctx context.Context, g *graph.Graph) (*patterns.TwinIndex, error) {
		tb := twinUnits(ctx, b)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return tb.Index(), nil
	})
}

// twinUnits reads the bodies the index compares into a builder. Each
// worker hands over one file's units at a time from a slice it reuses,
// and the builder keeps only the long enough ones' sketches: on go-std a
// unit is ≈ 280 bytes, 81 K of them read, 48 K kept (issue 29).
func twinUnits(ctx context.Context, b *session.Bundle) *patterns.TwinBuilder {
	g := b.Graph
	indexed := func(id graph.NodeID) bool {
		t := g.Type(id)
		return t == graph.Function || t == graph.Class || t == graph.Struct || t == graph.Enum || t == graph.Type
	}
	tb := patterns.NewTwinBuilder(0)
	var pool sync.Pool
	eachFileBody(ctx, b, indexed, func(nodes []graph.NodeID, data []byte, offs []int) {
		local, _ := pool.Get().(*[]patterns.Unit)
		if local == nil {
			local = new([]patterns.Unit)
		}
		units := (*local)[:0]
		for _, id := range nodes {
			p := g.Provenance(id)
			units = append(units, patterns.Unit{Node: id, Shape: patterns.ShapeOf(span(data, offs, p.LineStart, p.LineEnd))})
		}
		tb.Add(units...)
		*local = units
		pool.Put(local)
	})
	return tb
}

func runTwins(c *tools.Call, in twinsParams) (TwinsOutput, error) {
	var out TwinsOutput
	err := tools.ReadGraph(c, func(b *session.Bundle) error {
		g := b.Graph
		if err := tools.NeedRoots(b); err != nil {
			return err
		}
		scope, err := tools.ParseScope(b, in.Scope)
		if err != nil {
			return err
		}
		start := time.Now()
		var types []graph.NodeType
		for _, t := range in.NodeTypes {
			types = append(types, twinTypes[t])
		}
		p := patterns.TwinParams{
			Threshold: in.SimilarityThreshold,
			TopK:      in.TopK,
			Keep:      func(id graph.NodeID) bool { return slices.Contains(types, g.Type(id)) },
		}
		if scope != nil {
			p.Focus = func(id graph.NodeID) bool { return scope.Match(g.SourcePath(id)) }
		}
		res := patterns.Twins(g, twinIndex(b), p)
		out = TwinsOutput{Twins: []twinJSON{}, TotalPairs: res.Total, NotListed: res.Total - len(res.Twins), Compared: res.Units, Candidates: res.Candidates, Truncated: res.Truncated}
		for _, t := range res.Twins {
			out.Twins = append(out.Twins, twinJSON{A: sideOf(g, t.A), B: sideOf(g, t.B), Similarity: t.Similarity, Body: round3(t.Body), Reason: t.Reason()})
		}
		out.ElapsedMs = tools.Ms(time.Since(start))
		out.Guidance = twinsGuidance(c, out)
		return nil
	})
	return out, err
}

func sideOf(g *graph.Graph, id graph.NodeID) twinSide {
	p := g.Provenance(id)
	return twinSide{NodeID: g.ExternalID(id), File: p.SourcePath, Lines: fmt.Sprintf("%d-%d", p.LineStart, max(p.LineEnd, p.LineStart))}
}

func twinsGuidance(c *tools.Call, out TwinsOutput) tools.Guidance {
	if len(out.Twins) == 0 {
		return tools.Guidance{ProofState: "triaging", NextStepHint: fmt.Sprintf("No pair of the %d bodies compared reaches the threshold; lower similarity_threshold or widen scope.", out.Compared)}
	}
	t := out.Twins[0]
	return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "view"), NextSuggestedTarget: t.A.File,
		NextStepHint: fmt.Sprintf("Read both copies (%s:%s and %s:%s) and decide whether one can call the other.", t.A.File, t.A.Lines, t.B.File, t.B.Lines)}
}

func round3(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }
