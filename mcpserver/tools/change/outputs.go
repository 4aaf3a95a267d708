package change

import (
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// ImpactOutput is impact's answer.
type ImpactOutput struct {
	Source         string               `json:"source"`
	SourceLabel    string               `json:"source_label"`
	Direction      string               `json:"direction" jsonschema:"dependents, dependencies or both."`
	Level          string               `json:"level" jsonschema:"file or entity: what blast_radius lists."`
	Scope          int                  `json:"scope" jsonschema:"Nodes the change includes (the source and what it contains); never in the blast radius."`
	BlastRadius    []impactNodeJSON     `json:"blast_radius" jsonschema:"What is affected, direct dependents first, at most top_k."`
	TotalAffected  int                  `json:"total_affected"`
	AffectedByHop  map[string]int       `json:"affected_by_hop" jsonschema:"Affected nodes per hop distance (\"1\", \"2\", ...), before top_k."`
	NotListed      int                  `json:"not_listed"`
	TotalEnergy    float64              `json:"total_energy"`
	MaxHopsReached int                  `json:"max_hops_reached"`
	CausalChains   []chainJSON          `json:"causal_chains,omitzero" jsonschema:"The strongest paths the impact travels along (detail full)."`
	ChainsUnlisted int                  `json:"causal_chains_not_listed,omitempty" jsonschema:"Brief answers: the causal chains found, which detail full lists."`
	Truncated      bool                 `json:"truncated" jsonschema:"The propagation stopped at its edge budget."`
	ResolvedAs     []tools.ResolvedName `json:"resolved_as,omitempty" jsonschema:"node_id read as a node it does not spell exactly, with the other nodes it could mean."`
	ElapsedMs      float64              `json:"elapsed_ms"`
	tools.Guidance
}

// WhyOutput is why's answer.
type WhyOutput struct {
	Source          string               `json:"source"`
	Target          string               `json:"target"`
	Paths           []chainJSON          `json:"paths" jsonschema:"Paths from source to target, strongest first."`
	TotalPathsFound int                  `json:"total_paths_found"`
	Truncated       bool                 `json:"truncated"`
	ResolvedAs      []tools.ResolvedName `json:"resolved_as,omitempty" jsonschema:"Names read as a node they do not spell exactly, with the other nodes they could mean."`
	ElapsedMs       float64              `json:"elapsed_ms"`
	NextStepHint    string               `json:"next_step_hint,omitempty"`
}

// missingOutput is missing's answer.
type missingOutput struct {
	Query        string              `json:"query"`
	Holes        []missingHoleOutput `json:"holes"`
	TotalHoles   int                 `json:"total_holes"`
	Activated    int                 `json:"activated" jsonschema:"Nodes the query activated (the neighbourhood searched for gaps)."`
	ElapsedMs    float64             `json:"elapsed_ms"`
	NextStepHint string              `json:"next_step_hint,omitempty"`
}

// missingHoleOutput is one hole in missing's answer (holeOut).
type missingHoleOutput struct {
	NodeID               string   `json:"node_id"`
	Label                string   `json:"label"`
	Type                 string   `json:"type"`
	Kind                 string   `json:"kind" jsonschema:"inactive_bridge, untested or missing_dependency."`
	Score                float64  `json:"score"`
	SiblingAvgActivation float64  `json:"sibling_avg_activation"`
	ActivatedNeighbors   int      `json:"activated_neighbors"`
	Neighbors            []string `json:"neighbors"`
	Reason               string   `json:"reason"`
	Missing              string   `json:"missing,omitempty" jsonschema:"missing_dependency: the dependency its siblings use."`
}
