package tools

import (
	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/core/resonance"
	"github.com/m1nd-go/m1nd/core/seek"
	"github.com/m1nd-go/m1nd/ingest"
)

// The result types of the tools whose handlers build their answer as a
// map: each lists the map's fields as the handler writes them (a field
// without omitempty is always present), so the outputSchema derived from it
// says what the answer holds. Handlers that answer with a struct declare
// that struct instead (globResponse, searchResponse, viewResponse). A test
// validates every tool's answers against the schema with no field left
// undeclared.

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
	Engine    string     `json:"engine" jsonschema:"The structural propagation strategy chosen."`
	ElapsedMs float64    `json:"elapsed_ms"`
	Seeds     []seedJSON `json:"seeds,omitempty" jsonschema:"The seed nodes (with include_seeds), at most top_k."`
	guidance
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
	Task        string `json:"task"`
	PrimedNodes int    `json:"primed_nodes" jsonschema:"How many nodes received a boost."`
	TopPrimed   []struct {
		NodeID string  `json:"node_id"`
		Label  string  `json:"label"`
		Boost  float64 `json:"boost"`
	} `json:"top_primed" jsonschema:"The 20 most boosted nodes."`
	Seeds        int     `json:"seeds"`
	ElapsedMs    float64 `json:"elapsed_ms"`
	NextStepHint string  `json:"next_step_hint,omitempty"`
}

// resonateOutput is resonate's answer.
type resonateOutput struct {
	Seed      string `json:"seed" jsonschema:"The query, the node id, or \"global\"."`
	SeedNodes int    `json:"seed_nodes"`
	Harmonics []struct {
		NodeID        string  `json:"node_id"`
		Label         string  `json:"label"`
		Amplitude     float64 `json:"amplitude"`
		HarmonicOrder int     `json:"harmonic_order"`
		Frequency     float64 `json:"frequency"`
	} `json:"harmonics"`
	SympatheticPairs []struct {
		A        string  `json:"a"`
		B        string  `json:"b"`
		Coupling float64 `json:"coupling"`
	} `json:"sympathetic_pairs" jsonschema:"Nodes far from the seeds that respond alike."`
	ResonantFrequencies []struct {
		Frequency float64 `json:"frequency"`
		Energy    float64 `json:"energy"`
	} `json:"resonant_frequencies"`
	HarmonicGroups []struct {
		HarmonicOrder int      `json:"harmonic_order"`
		Frequency     float64  `json:"frequency"`
		MeanAmplitude float64  `json:"mean_amplitude"`
		Size          int      `json:"size"`
		Nodes         []string `json:"nodes"`
	} `json:"harmonic_groups"`
	Stats     resonance.Stats `json:"stats"`
	ElapsedMs float64         `json:"elapsed_ms"`
}

// impactOutput is impact's answer.
type impactOutput struct {
	Source         string           `json:"source"`
	SourceLabel    string           `json:"source_label"`
	Direction      string           `json:"direction" jsonschema:"dependents, dependencies or both."`
	Level          string           `json:"level" jsonschema:"file or entity: what blast_radius lists."`
	Scope          int              `json:"scope" jsonschema:"Nodes the change includes (the source and what it contains); never in the blast radius."`
	BlastRadius    []impactNodeJSON `json:"blast_radius" jsonschema:"What is affected, direct dependents first, at most top_k."`
	TotalAffected  int              `json:"total_affected"`
	AffectedByHop  map[string]int   `json:"affected_by_hop" jsonschema:"Affected nodes per hop distance (\"1\", \"2\", ...), before top_k."`
	NotListed      int              `json:"not_listed"`
	TotalEnergy    float64          `json:"total_energy"`
	MaxHopsReached int              `json:"max_hops_reached"`
	CausalChains   []chainJSON      `json:"causal_chains" jsonschema:"The strongest paths the impact travels along."`
	Truncated      bool             `json:"truncated" jsonschema:"The propagation stopped at its edge budget."`
	ElapsedMs      float64          `json:"elapsed_ms"`
	guidance
}

// whyOutput is why's answer.
type whyOutput struct {
	Source          string      `json:"source"`
	Target          string      `json:"target"`
	Paths           []chainJSON `json:"paths" jsonschema:"Paths from source to target, strongest first."`
	TotalPathsFound int         `json:"total_paths_found"`
	Truncated       bool        `json:"truncated"`
	ElapsedMs       float64     `json:"elapsed_ms"`
	NextStepHint    string      `json:"next_step_hint,omitempty"`
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

// seekOutput is seek's answer.
type seekOutput struct {
	Query                  string     `json:"query" jsonschema:"The query, clipped to 300 bytes."`
	Results                []seekHit  `json:"results" jsonschema:"Ranked nodes with a score breakdown, file and lines, intent summary and connections."`
	TotalCandidatesScanned int        `json:"total_candidates_scanned"`
	MatchedNodes           int        `json:"matched_nodes"`
	EmbeddingsUsed         bool       `json:"embeddings_used"`
	GraphRerank            bool       `json:"graph_rerank"`
	QueryTerms             []seekTerm `json:"query_terms"`
	Index                  struct {
		BodyIndexed bool    `json:"body_indexed"`
		FilesRead   int     `json:"files_read"`
		Terms       int     `json:"terms"`
		BuildMs     float64 `json:"build_ms"`
	} `json:"index"`
	Scope             string         `json:"scope,omitempty"`
	QueryTruncated    bool           `json:"query_truncated,omitempty"`
	StackFrames       []seek.Frame   `json:"stack_frames,omitempty" jsonschema:"Stack-trace frames and file mentions read from the query."`
	Symbols           []string       `json:"symbols,omitempty" jsonschema:"Identifiers the query writes as code."`
	NextSuggestedArgs map[string]any `json:"next_suggested_args,omitempty" jsonschema:"Arguments for next_suggested_tool."`
	ElapsedMs         float64        `json:"elapsed_ms"`
	guidance
}

// ingestOutput is ingest's answer.
type ingestOutput struct {
	Path           string           `json:"path"`
	Adapter        string           `json:"adapter"`
	Mode           string           `json:"mode"`
	FilesProcessed int              `json:"files_processed"`
	NodesCreated   int              `json:"nodes_created"`
	EdgesCreated   int              `json:"edges_created"`
	Languages      map[string]int   `json:"languages" jsonschema:"Parsed files per language."`
	ElapsedMs      float64          `json:"elapsed_ms"`
	Stats          ingest.Stats     `json:"stats"`
	Root           ingest.RootInfo  `json:"root"`
	Graph          graphCountOutput `json:"graph" jsonschema:"The graph now served."`
	Persisted      struct {
		Durable   bool    `json:"durable" jsonschema:"The new graph is saved: a crash or kill cannot lose it."`
		Reason    string  `json:"reason,omitempty"`
		Error     string  `json:"error,omitempty"`
		SaveStamp string  `json:"save_stamp,omitempty"`
		ElapsedMs float64 `json:"elapsed_ms,omitempty"`
	} `json:"persisted"`
	guidance
}

type graphCountOutput struct {
	NodeCount  int    `json:"node_count"`
	EdgeCount  int    `json:"edge_count"`
	Generation uint64 `json:"generation"`
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
	NodeCountDelta  int      `json:"node_count_delta"`
	EdgeCountDelta  int      `json:"edge_count_delta"`
	NewNodes        []string `json:"new_nodes" jsonschema:"File and directory nodes added since the baseline (at most 100)."`
	RemovedNodes    []string `json:"removed_nodes"`
	EdgesChanged    int      `json:"edges_changed"`
	AvgAbsDelta     float64  `json:"avg_abs_delta"`
	LTPCount        int      `json:"ltp_count"`
	LTDCount        int      `json:"ltd_count"`
	ElapsedMs       float64  `json:"elapsed_ms"`
	TopWeightDrifts []struct {
		Edge     string  `json:"edge"`
		Source   string  `json:"source"`
		Target   string  `json:"target"`
		Relation string  `json:"relation"`
		Old      float64 `json:"old"`
		New      float64 `json:"new"`
		Delta    float64 `json:"delta"`
	} `json:"top_weight_drifts,omitempty" jsonschema:"The edges whose learned weight moved most (with include_weight_drift)."`
	NextStepHint string `json:"next_step_hint,omitempty"`
}

// healthOutput is health's answer.
type healthOutput struct {
	Status string `json:"status" jsonschema:"ok, empty (no graph yet) or degraded (the last save failed)."`
	Server struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"server"`
	Domain           string         `json:"domain"`
	NodeCount        int            `json:"node_count"`
	EdgeCount        int            `json:"edge_count"`
	NodeTypes        map[string]int `json:"node_types"`
	QueriesProcessed uint64         `json:"queries_processed"`
	UptimeSeconds    float64        `json:"uptime_seconds"`
	MemoryUsageBytes uint64         `json:"memory_usage_bytes"`
	Memory           struct {
		HeapAlloc uint64 `json:"heap_alloc"`
		HeapSys   uint64 `json:"heap_sys"`
		Sys       uint64 `json:"sys"`
		NumGC     uint64 `json:"num_gc"`
	} `json:"memory"`
	PlasticityState string `json:"plasticity_state"`
	Plasticity      struct {
		LearnedEdges int                    `json:"learned_edges"`
		QueryMemory  plasticity.MemoryStats `json:"query_memory"`
	} `json:"plasticity"`
	LastPersistTime  *string `json:"last_persist_time"`
	LastPersistError *string `json:"last_persist_error"`
	Persistence      struct {
		Mode                string `json:"mode" jsonschema:"disk, or memory-only without a runtime directory."`
		RuntimeDir          string `json:"runtime_dir,omitempty"`
		GraphSource         string `json:"graph_source,omitempty"`
		PlasticityState     string `json:"plasticity_state,omitempty"`
		AutoPersistInterval int    `json:"auto_persist_interval,omitempty"`
	} `json:"persistence"`
	ActiveSessions       []sessionInfo `json:"active_sessions"`
	GraphGeneration      uint64        `json:"graph_generation"`
	PlasticityGeneration uint64        `json:"plasticity_generation"`
	CacheGeneration      uint64        `json:"cache_generation"`
	IngestRoots          []rootInfo    `json:"ingest_roots" jsonschema:"The roots the graph describes, with their git state then and now."`
	Warnings             []string      `json:"warnings"`
	FilesOnDisk          struct {
		Checked  bool     `json:"checked"`
		Reason   string   `json:"reason,omitempty"`
		Stale    bool     `json:"stale,omitempty"`
		Modified []string `json:"modified,omitempty"`
		Deleted  []string `json:"deleted,omitempty"`
		Added    []string `json:"added,omitempty"`
		Counts   *struct {
			Modified int `json:"modified"`
			Deleted  int `json:"deleted"`
			Added    int `json:"added"`
		} `json:"counts,omitempty"`
	} `json:"files_on_disk" jsonschema:"Files modified, deleted or added on disk since the graph was built (lists capped at 20)."`
	NextSuggestedTool string `json:"next_suggested_tool"`
}

// persistOutput is persist's answer: action save answers with what it
// wrote (session.PersistResult), load with the graph it loaded.
type persistOutput struct {
	Reason          string  `json:"reason,omitempty" jsonschema:"save: why it was saved (manual)."`
	GraphPath       string  `json:"graph_path,omitempty"`
	PlasticityPath  string  `json:"plasticity_path,omitempty"`
	Nodes           int     `json:"nodes,omitempty"`
	Edges           int     `json:"edges,omitempty"`
	PlasticityEdges int     `json:"plasticity_edges,omitempty"`
	SaveStamp       string  `json:"save_stamp,omitempty"`
	Skipped         string  `json:"skipped,omitempty"`
	ElapsedMs       float64 `json:"elapsed_ms,omitempty"`
	Action          string  `json:"action,omitempty" jsonschema:"load: the action done."`
	NodeCount       int     `json:"node_count,omitempty"`
	EdgeCount       int     `json:"edge_count,omitempty"`
	GraphGeneration uint64  `json:"graph_generation,omitempty"`
}

// helpOutput is help's answer: the index, or with tool_name one tool's
// documentation (ToolDoc).
type helpOutput struct {
	Server    string `json:"server,omitempty" jsonschema:"index: the server name and version."`
	ToolCount int    `json:"tool_count,omitempty"`
	Tools     []struct {
		Name     string   `json:"name"`
		Summary  string   `json:"summary"`
		Class    string   `json:"class"`
		Required []string `json:"required"`
	} `json:"tools,omitempty"`
	Workflow    string         `json:"workflow,omitempty"`
	Usage       string         `json:"usage,omitempty"`
	Name        string         `json:"name,omitempty" jsonschema:"tool_name: the tool documented."`
	Description string         `json:"description,omitempty"`
	Class       string         `json:"class,omitempty"`
	Parameters  []paramDoc     `json:"parameters,omitempty"`
	Example     map[string]any `json:"example,omitempty"`
	WhenToUse   string         `json:"when_to_use,omitempty"`
	AvoidWhen   string         `json:"avoid_when,omitempty"`
	Next        []string       `json:"next,omitempty"`
	Aliases     []string       `json:"aliases,omitempty"`
}
