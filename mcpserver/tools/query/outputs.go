package query

import (
	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/core/resonance"
	"github.com/m1nd-go/m1nd/core/seek"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// activateOutput is activate's answer.
type activateOutput struct {
	Query           string                 `json:"query"`
	SeedsCount      int                    `json:"seeds_count" jsonschema:"How many nodes the query matched as seeds."`
	Activated       []activatedJSON        `json:"activated" jsonschema:"Ranked nodes, strongest first, with per-dimension scores in [0, 1]."`
	GhostEdges      []ghostEdgeOutput      `json:"ghost_edges" jsonschema:"Probable but missing connections between strongly co-activated nodes."`
	StructuralHoles []activeHoleOutput     `json:"structural_holes" jsonschema:"Nodes whose neighbourhood lit up while they did not (with include_structural_holes)."`
	Plasticity      plasticity.UpdateStats `json:"plasticity" jsonschema:"What the Hebbian learning cycle of this query changed."`
	XLR             struct {
		Applied           bool `json:"applied"`
		FallbackToHotOnly bool `json:"fallback_to_hot_only"`
		AntiSeeds         int  `json:"anti_seeds"`
	} `json:"xlr" jsonschema:"Whether XLR noise cancellation ran."`
	Engine    string  `json:"engine" jsonschema:"The structural propagation strategy chosen."`
	ElapsedMs float64 `json:"elapsed_ms"`
	// Seeds is present (possibly empty) exactly when include_seeds asks.
	Seeds []seedJSON `json:"seeds,omitzero" jsonschema:"The seed nodes (with include_seeds), at most top_k."`
	tools.Guidance
}

type ghostEdgeOutput struct {
	Source           string   `json:"source"`
	Target           string   `json:"target"`
	SharedDimensions []string `json:"shared_dimensions"`
	Strength         float64  `json:"strength"`
}

// activeHoleOutput is a structural hole in activate's answer (holeJSON).
type activeHoleOutput struct {
	NodeID               string   `json:"node_id"`
	Label                string   `json:"label"`
	Type                 string   `json:"type"`
	SiblingAvgActivation float64  `json:"sibling_avg_activation"`
	ActivatedNeighbors   int      `json:"activated_neighbors"`
	Neighbors            []string `json:"neighbors"`
	Reason               string   `json:"reason"`
}

// warmupOutput is warmup's answer.
type warmupOutput struct {
	Task         string       `json:"task"`
	PrimedNodes  int          `json:"primed_nodes" jsonschema:"How many nodes received a boost."`
	TopPrimed    []primedNode `json:"top_primed" jsonschema:"The 20 most boosted nodes."`
	Seeds        int          `json:"seeds"`
	ElapsedMs    float64      `json:"elapsed_ms"`
	NextStepHint string       `json:"next_step_hint,omitempty"`
}

type primedNode struct {
	NodeID string  `json:"node_id"`
	Label  string  `json:"label"`
	Boost  float64 `json:"boost"`
}

type harmonicOutput struct {
	NodeID        string  `json:"node_id"`
	Label         string  `json:"label"`
	Amplitude     float64 `json:"amplitude"`
	HarmonicOrder int     `json:"harmonic_order"`
	Frequency     float64 `json:"frequency"`
}

type sympatheticPair struct {
	A        string  `json:"a"`
	B        string  `json:"b"`
	Coupling float64 `json:"coupling"`
}

type resonantFrequency struct {
	Frequency float64 `json:"frequency"`
	Energy    float64 `json:"energy"`
}

type harmonicGroup struct {
	HarmonicOrder int      `json:"harmonic_order"`
	Frequency     float64  `json:"frequency"`
	MeanAmplitude float64  `json:"mean_amplitude"`
	Size          int      `json:"size"`
	Nodes         []string `json:"nodes"`
}

// resonateOutput is resonate's answer.
type resonateOutput struct {
	Seed                string              `json:"seed" jsonschema:"The query, the node id, or \"global\"."`
	SeedNodes           int                 `json:"seed_nodes"`
	Harmonics           []harmonicOutput    `json:"harmonics"`
	SympatheticPairs    []sympatheticPair   `json:"sympathetic_pairs" jsonschema:"Nodes far from the seeds that respond alike."`
	ResonantFrequencies []resonantFrequency `json:"resonant_frequencies"`
	HarmonicGroups      []harmonicGroup     `json:"harmonic_groups"`
	Stats               resonance.Stats     `json:"stats"`
	ElapsedMs           float64             `json:"elapsed_ms"`
}

// SeekOutput is seek's answer.
type SeekOutput struct {
	Query                  string     `json:"query" jsonschema:"The query, clipped to 300 bytes."`
	Results                []seekHit  `json:"results" jsonschema:"Ranked nodes with score, file and lines, intent summary (detail full: score breakdown, connections)."`
	TotalCandidatesScanned int        `json:"total_candidates_scanned"`
	MatchedNodes           int        `json:"matched_nodes"`
	EmbeddingsUsed         bool       `json:"embeddings_used"`
	GraphRerank            bool       `json:"graph_rerank"`
	QueryTerms             []seekTerm `json:"query_terms,omitzero" jsonschema:"The query's weighted terms (detail full)."`
	Index                  struct {
		BodyIndexed bool    `json:"body_indexed"`
		FilesRead   int     `json:"files_read"`
		Terms       int     `json:"terms"`
		BuildMs     float64 `json:"build_ms"`
	} `json:"index"`
	Scope             string         `json:"scope,omitempty"`
	QueryTruncated    bool           `json:"query_truncated,omitempty"`
	QueryNote         string         `json:"query_note,omitempty" jsonschema:"Which part of an over-long query seek read."`
	StackFrames       []seek.Frame   `json:"stack_frames,omitempty" jsonschema:"Stack-trace frames and file mentions read from the query."`
	Symbols           []string       `json:"symbols,omitempty" jsonschema:"Identifiers the query writes as code."`
	NextSuggestedArgs map[string]any `json:"next_suggested_args,omitempty" jsonschema:"Arguments for next_suggested_tool."`
	Detail            string         `json:"detail,omitempty" jsonschema:"Set when the answer is brief: what detail full adds."`
	ElapsedMs         float64        `json:"elapsed_ms"`
	tools.Guidance
}
