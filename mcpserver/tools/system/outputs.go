package system

import (
	"encoding/json"

	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/ingest"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// IngestOutput is ingest's answer.
type IngestOutput struct {
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
	Persisted      tools.Persisted  `json:"persisted"`
	tools.Guidance
}

type graphCountOutput struct {
	NodeCount  int    `json:"node_count"`
	EdgeCount  int    `json:"edge_count"`
	Generation uint64 `json:"generation"`
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
	LastPersistTime      *string         `json:"last_persist_time"`
	LastPersistError     *string         `json:"last_persist_error"`
	Persistence          persistenceInfo `json:"persistence"`
	ActiveSessions       []sessionInfo   `json:"active_sessions"`
	GraphGeneration      uint64          `json:"graph_generation"`
	PlasticityGeneration uint64          `json:"plasticity_generation"`
	CacheGeneration      uint64          `json:"cache_generation"`
	IngestRoots          []rootInfo      `json:"ingest_roots" jsonschema:"The roots the graph describes, with their git state then and now."`
	Warnings             []string        `json:"warnings"`
	FilesOnDisk          filesOnDisk     `json:"files_on_disk" jsonschema:"Files modified, deleted or added on disk since the graph was built (lists capped at 20)."`
	NextSuggestedTool    string          `json:"next_suggested_tool"`
}

// persistenceInfo is health's persistence: the mode alone for a
// memory-only session, every path and the interval for a disk one.
type persistenceInfo struct {
	Mode                string `json:"mode" jsonschema:"disk, or memory-only without a runtime directory."`
	RuntimeDir          string `json:"runtime_dir,omitempty"`
	GraphSource         string `json:"graph_source,omitempty"`
	PlasticityState     string `json:"plasticity_state,omitempty"`
	AutoPersistInterval int    `json:"auto_persist_interval,omitempty"`
}

// MarshalJSON writes every field of a disk session, an empty or zero one
// included (auto_persist_interval 0: auto-persist is off), as health has
// always answered; the omitempty tags (the schema: optional) serve the
// memory-only form.
func (p persistenceInfo) MarshalJSON() ([]byte, error) {
	type plain persistenceInfo
	if p.Mode != "disk" {
		return json.Marshal(plain(p))
	}
	return json.Marshal(struct {
		plain
		RuntimeDir          string `json:"runtime_dir"`
		GraphSource         string `json:"graph_source"`
		PlasticityState     string `json:"plasticity_state"`
		AutoPersistInterval int    `json:"auto_persist_interval"`
	}{plain(p), p.RuntimeDir, p.GraphSource, p.PlasticityState, p.AutoPersistInterval})
}

// filesOnDisk is health's files_on_disk: a reason when nothing could be
// checked, else the state and the lists.
type filesOnDisk struct {
	Checked  bool        `json:"checked"`
	Reason   string      `json:"reason,omitempty"`
	Stale    bool        `json:"stale,omitempty"`
	Modified []string    `json:"modified,omitempty"`
	Deleted  []string    `json:"deleted,omitempty"`
	Added    []string    `json:"added,omitempty"`
	Counts   *diskCounts `json:"counts,omitempty"`
}

type diskCounts struct {
	Modified int `json:"modified"`
	Deleted  int `json:"deleted"`
	Added    int `json:"added"`
}

// MarshalJSON writes stale and the three lists whenever the files were
// checked, false and empty included, as health has always answered; the
// omitempty tags (the schema: optional) serve the unchecked form.
func (f filesOnDisk) MarshalJSON() ([]byte, error) {
	type plain filesOnDisk
	if !f.Checked {
		return json.Marshal(plain(f))
	}
	return json.Marshal(struct {
		plain
		Stale    bool     `json:"stale"`
		Modified []string `json:"modified"`
		Deleted  []string `json:"deleted"`
		Added    []string `json:"added"`
	}{plain(f), f.Stale, f.Modified, f.Deleted, f.Added})
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

// MarshalJSON writes the fields of the action done, zero ones included:
// load's action and counts, or save's as session.PersistResult writes
// them (nodes, edges, plasticity_edges and elapsed_ms even when 0, as for
// a skipped save). The omitempty tags make the schema's union: every
// field optional.
func (o persistOutput) MarshalJSON() ([]byte, error) {
	type plain persistOutput
	if o.Action == "load" {
		return json.Marshal(struct {
			plain
			NodeCount       int    `json:"node_count"`
			EdgeCount       int    `json:"edge_count"`
			GraphGeneration uint64 `json:"graph_generation"`
		}{plain(o), o.NodeCount, o.EdgeCount, o.GraphGeneration})
	}
	return json.Marshal(struct {
		plain
		Reason          string  `json:"reason"`
		Nodes           int     `json:"nodes"`
		Edges           int     `json:"edges"`
		PlasticityEdges int     `json:"plasticity_edges"`
		ElapsedMs       float64 `json:"elapsed_ms"`
	}{plain(o), o.Reason, o.Nodes, o.Edges, o.PlasticityEdges, o.ElapsedMs})
}

// helpOutput is help's answer: the index, or with tool_name one tool's
// documentation (ToolDoc).
type helpOutput struct {
	Server      string         `json:"server,omitempty" jsonschema:"index: the server name and version."`
	ToolCount   int            `json:"tool_count,omitempty"`
	Tools       []helpEntry    `json:"tools,omitempty"`
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

// helpEntry is one tool of help's index.
type helpEntry struct {
	Name     string   `json:"name"`
	Summary  string   `json:"summary"`
	Class    string   `json:"class"`
	Required []string `json:"required"`
}

// MarshalJSON writes a tool's documentation with its guidance fields even
// when empty (avoid_when "", next [], aliases []), as help has always
// answered; the omitempty tags (the schema: optional) serve the index.
func (o helpOutput) MarshalJSON() ([]byte, error) {
	type plain helpOutput
	if o.Name == "" {
		return json.Marshal(plain(o))
	}
	return json.Marshal(struct {
		plain
		WhenToUse string   `json:"when_to_use"`
		AvoidWhen string   `json:"avoid_when"`
		Next      []string `json:"next"`
		Aliases   []string `json:"aliases"`
	}{plain(o), o.WhenToUse, o.AvoidWhen, o.Next, o.Aliases})
}
