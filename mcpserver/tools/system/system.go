package system

import (
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/buildinfo"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// ServerName and ServerVersion identify the server (the version is set at
// build time by the binary).
var (
	ServerName    = "m1nd-mcp"
	ServerVersion = buildinfo.Placeholder
)

func registerSystem(r *tools.Registry) {
	r.Register(&tools.Tool{
		Name:        "health",
		Title:       "Server health",
		Description: "Server health and statistics: node/edge counts, query count, uptime, memory, plasticity state, persistence, active agent sessions, and the ingested roots with their git branch/HEAD (then and now) so you can tell which repository the graph describes and whether it is stale.",
		Input:       reflect.TypeFor[healthParams](),
		Output:      reflect.TypeFor[healthOutput](),
		Class:       tools.Read,
		WhenToUse:   "First call of a session: confirm the server is alive, the graph is loaded, and it describes the repository you are working in.",
		AvoidWhen:   "You need answers about code; health only describes the server.",
		Next:        []string{"ingest", "activate", "seek", "drift"},
		Example:     map[string]any{"agent_id": "claude"},
		Run:         runHealth,
	})
	r.Register(&tools.Tool{
		Name:        "persist",
		Title:       "Save or reload the graph",
		Description: "Force persistence now: action \"save\" writes the graph then the plasticity state atomically; \"load\" replaces the in-memory graph with the saved snapshot (a missing or unreadable file changes nothing).",
		Params: []tools.Param{
			{Name: "action", Type: tools.String, Required: true, Enum: []string{"save", "load"}, Description: "\"save\" to checkpoint now, \"load\" to reload the saved snapshot."},
		},
		Input:     reflect.TypeFor[persistParams](),
		Output:    reflect.TypeFor[persistOutput](),
		Class:     tools.Exclusive,
		WhenToUse: "Before shutdown or a risky host transition, or to checkpoint after valuable learning.",
		AvoidWhen: "Routine use: the server already persists every auto_persist_interval queries and on exit.",
		Next:      []string{"health"},
		Example:   map[string]any{"agent_id": "claude", "action": "save"},
		Aliases:   []string{"graph.persist"},
		Run:       runPersist,
	})
	r.Register(&tools.Tool{
		Name:        "help",
		Title:       "Tool reference",
		Description: "Self-documenting tool reference generated from the live registry: the index of all tools, or one tool's parameters, example call, WHEN TO USE, AVOID WHEN and NEXT.",
		Params: []tools.Param{
			{Name: "tool_name", Type: tools.String, Description: "A tool to document in full (any accepted spelling). Omit for the index."},
		},
		Input:     reflect.TypeFor[helpParams](),
		Output:    reflect.TypeFor[helpOutput](),
		Class:     tools.Read,
		WhenToUse: "When unsure which tool fits, or how to call one.",
		AvoidWhen: "You already know the call; help costs a round trip.",
		Next:      []string{"health", "ingest"},
		Example:   map[string]any{"agent_id": "claude", "tool_name": "activate"},
		Run:       func(c *tools.Call) (any, error) { return runHelp(c, r) },
	})
}

type sessionInfo struct {
	AgentID    string    `json:"agent_id"`
	QueryCount uint64    `json:"query_count"`
	FirstSeen  time.Time `json:"first_seen"`
	LastActive time.Time `json:"last_active"`
}

type rootInfo struct {
	session.Root
	Exists           bool   `json:"exists"`
	CurrentGitBranch string `json:"current_git_branch,omitempty"`
	CurrentGitHead   string `json:"current_git_head,omitempty"`
	// Stale is set when the repository's HEAD moved since the ingest.
	Stale bool `json:"stale"`
}

func runHealth(c *tools.Call) (any, error) {
	s := c.Session
	b := s.Current()
	g := b.Graph
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	gg, pg, cg := s.Generations()
	last, lastErr := s.LastPersist()
	cfg := s.Config()

	types := map[string]int{}
	for t, n := range g.CountByType() {
		types[t.String()] = n
	}
	learned := s.Plasticity.LearnedEdges(g)
	mem := s.Plasticity.MemoryStats()

	var sessions []sessionInfo
	for _, a := range s.Agents() {
		sessions = append(sessions, sessionInfo{a.ID, a.QueryCount, a.FirstSeen, a.LastSeen})
	}
	var warnings []string
	var roots []rootInfo
	for _, r := range b.Roots {
		ri := rootInfo{Root: r}
		if _, err := os.Stat(r.Path); err == nil {
			ri.Exists = true
			ri.CurrentGitBranch, ri.CurrentGitHead = session.GitState(r.Path)
			ri.Stale = r.GitHead != "" && ri.CurrentGitHead != "" && r.GitHead != ri.CurrentGitHead
		}
		if !ri.Exists {
			warnings = append(warnings, fmt.Sprintf("ingested root %s no longer exists", r.Path))
		}
		if ri.Stale {
			warnings = append(warnings, fmt.Sprintf("%s moved from %s to %s since it was ingested: re-ingest (incremental: true) to refresh the graph", r.Path, tools.Short(r.GitHead), tools.Short(ri.CurrentGitHead)))
		}
		roots = append(roots, ri)
	}
	for _, p := range s.ClientRootsElsewhere() {
		warnings = append(warnings, fmt.Sprintf("your client works in %s, but the graph describes %s: call ingest with path %q to serve it", p, servedList(b.Roots), p))
	}
	stale := s.Staleness(b)
	if stale.Stale() {
		warnings = append(warnings, fmt.Sprintf("files changed on disk since the graph was built (%d modified, %d deleted, %d added): answers naming them are flagged stale_files; re-ingest with incremental: true to refresh",
			len(stale.Modified), len(stale.Deleted), len(stale.Added)))
	}
	status := "ok"
	next := "activate"
	if stale.Stale() {
		next = "ingest"
	}
	if g.NumNodes() == 0 {
		status = "empty"
		next = "ingest"
		warnings = append(warnings, "the graph is empty: call ingest with the repository path")
	}
	if lastErr != "" {
		status = "degraded"
		warnings = append(warnings, "last persist failed: "+lastErr)
	}
	persistence := map[string]any{"mode": "memory-only"}
	if cfg.Persistent() {
		persistence = map[string]any{
			"mode": "disk", "runtime_dir": cfg.RuntimeDir, "graph_source": cfg.GraphSource,
			"plasticity_state": cfg.PlasticityState, "auto_persist_interval": cfg.AutoPersistInterval,
		}
	}
	var lastPersist any
	if !last.IsZero() {
		lastPersist = last.UTC().Format(time.RFC3339)
	}
	return map[string]any{
		"status":                status,
		"server":                map[string]string{"name": ServerName, "version": ServerVersion},
		"domain":                cfg.Domain,
		"node_count":            g.NumNodes(),
		"edge_count":            g.NumEdges(),
		"node_types":            types,
		"queries_processed":     s.Queries(),
		"uptime_seconds":        round2(s.Uptime().Seconds()),
		"memory_usage_bytes":    ms.HeapAlloc,
		"memory":                map[string]uint64{"heap_alloc": ms.HeapAlloc, "heap_sys": ms.HeapSys, "sys": ms.Sys, "num_gc": uint64(ms.NumGC)},
		"plasticity_state":      fmt.Sprintf("%d edges tracked, %d queries in memory", learned, mem.Records),
		"plasticity":            map[string]any{"learned_edges": learned, "query_memory": mem},
		"last_persist_time":     lastPersist,
		"last_persist_error":    nilIfEmpty(lastErr),
		"persistence":           persistence,
		"active_sessions":       tools.OrEmpty(sessions),
		"graph_generation":      gg,
		"plasticity_generation": pg,
		"cache_generation":      cg,
		"ingest_roots":          tools.OrEmpty(roots),
		"warnings":              tools.OrEmpty(warnings),
		"files_on_disk":         diskState(stale),
		"next_suggested_tool":   next,
	}, nil
}

func servedList(roots []session.Root) string {
	if len(roots) == 0 {
		return "nothing yet"
	}
	var out []string
	for _, r := range roots {
		out = append(out, r.Path)
	}
	return strings.Join(out, ", ")
}

// diskState summarises staleness for health (lists capped at 20).
func diskState(st session.Staleness) map[string]any {
	if !st.Known {
		return map[string]any{"checked": false, "reason": "no file stamps for these roots (memory or json adapter, or a snapshot from before stamps)"}
	}
	capped := func(l []string) []string { return tools.OrEmpty(l[:min(len(l), 20)]) }
	return map[string]any{
		"checked": true, "stale": st.Stale(),
		"modified": capped(st.Modified), "deleted": capped(st.Deleted), "added": capped(st.Added),
		"counts": map[string]int{"modified": len(st.Modified), "deleted": len(st.Deleted), "added": len(st.Added)},
	}
}

func runPersist(c *tools.Call) (any, error) {
	s := c.Session
	switch c.Str("action") {
	case "load":
		b, err := s.LoadFromDisk()
		if err != nil {
			return nil, tools.Errorf("The saved snapshot could not be read; the in-memory graph is untouched.", "%v", err).WithNext("Call health to see the persistence paths, or ingest to rebuild the graph.")
		}
		return map[string]any{"action": "load", "node_count": b.Graph.NumNodes(), "edge_count": b.Graph.NumEdges(), "graph_generation": b.Gen}, nil
	default:
		res, err := s.Persist("manual")
		if err != nil {
			return nil, tools.Errorf("Check that the runtime directory is writable and has free space.", "%v", err).WithNext("Call health for the persistence paths and the last error.")
		}
		return res, nil
	}
}

type paramDoc struct {
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Required    bool     `json:"required"`
	Default     any      `json:"default,omitempty"`
	Enum        []string `json:"enum,omitempty"`
	Description string   `json:"description"`
}

func runHelp(c *tools.Call, r *tools.Registry) (any, error) {
	if name := c.Str("tool_name"); name != "" {
		t, ok := r.Lookup(name)
		if !ok {
			sugg := r.Suggest(name)
			e := tools.Errorf("Call help without tool_name for the full index.", "no tool named %q", name)
			if len(sugg) > 0 {
				e.Hint = fmt.Sprintf("Did you mean %s? ", strings.Join(sugg, " or ")) + e.Hint
			}
			return nil, e
		}
		return ToolDoc(t), nil
	}
	type entry struct {
		Name     string   `json:"name"`
		Summary  string   `json:"summary"`
		Class    string   `json:"class"`
		Required []string `json:"required"`
	}
	var toolsList []entry
	for _, t := range r.All() {
		var req []string
		for _, p := range t.AllParams() {
			if p.Required {
				req = append(req, p.Name)
			}
		}
		toolsList = append(toolsList, entry{t.Name, FirstSentence(t.Description), t.Class.String(), req})
	}
	return map[string]any{
		"server":     ServerName + " " + ServerVersion,
		"tool_count": len(toolsList),
		"tools":      toolsList,
		"workflow":   Workflow,
		"usage":      "Call help with tool_name for parameters, an example call, WHEN TO USE, AVOID WHEN and NEXT.",
	}, nil
}

// ToolDoc is the full documentation of one tool, as help returns it.
func ToolDoc(t *tools.Tool) map[string]any {
	var params []paramDoc
	for _, p := range t.AllParams() {
		params = append(params, paramDoc{p.Name, string(p.Type), p.Required, p.Default, p.Enum, p.Description})
	}
	return map[string]any{
		"name":        t.Name,
		"description": t.Description,
		"class":       t.Class.String(),
		"parameters":  params,
		"example":     map[string]any{"name": t.Name, "arguments": t.Example},
		"when_to_use": t.WhenToUse,
		"avoid_when":  t.AvoidWhen,
		"next":        tools.OrEmpty(t.Next),
		"aliases":     tools.OrEmpty(t.Aliases),
	}
}

// Workflow is the short guide the server gives in its instructions and in
// help.
const Workflow = "1) health — is the graph loaded, and for which repository? 2) ingest {path} if it is empty or stale. " +
	"3) seek (intent) or activate (associative) to find code; search/glob for text and paths; view to read lines. " +
	"4) impact before changing a file, why to explain a link, missing for gaps. " +
	"5) learn {feedback: correct|wrong, node_ids} so the graph ranks better next time. Every tool needs agent_id."

// FirstSentence returns the text up to the first ". " (or all of it).
func FirstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	if i := strings.Index(s, ": "); i >= 0 && i < 80 {
		return s[:i]
	}
	return s
}

func round2(f float64) float64 { return float64(int64(f*100+0.5)) / 100 }

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
