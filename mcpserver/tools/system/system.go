package system

import (
	"fmt"
	"os"
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

type healthParams struct{}

type persistParams struct {
	Action string `json:"action" help:"\"save\" to checkpoint now, \"load\" to reload the saved snapshot." tool:"required,enum=save|load"`
}

type helpParams struct {
	ToolName string `json:"tool_name" jsonschema:"Omit for the index." help:"A tool to document in full (any accepted spelling). Omit for the index."`
}

func registerSystem(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "health",
		Title:       "Server health",
		Description: "Server health and statistics: graph size, its repository and staleness; call it first.",
		Details:     "Server health and statistics: node/edge counts, query count, uptime, memory, plasticity state, persistence, active agent sessions, and the ingested roots with their git branch/HEAD (then and now) so you can tell which repository the graph describes and whether it is stale.",
		Class:       tools.Read,
		WhenToUse:   "First call of a session: confirm the server is alive, the graph is loaded, and it describes the repository you are working in.",
		AvoidWhen:   "You need answers about code; health only describes the server.",
		Next:        []string{"ingest", "activate", "seek", "drift"},
		Example:     map[string]any{"agent_id": "claude"},
	}, runHealth)
	tools.Add(r, tools.Tool{
		Name:        "persist",
		Title:       "Save or reload the graph",
		Description: "Save the graph and learned state now, or reload the saved snapshot.",
		Details:     "Force persistence now: action \"save\" writes the graph then the plasticity state atomically; \"load\" replaces the in-memory graph with the saved snapshot (a missing or unreadable file changes nothing).",
		Class:       tools.Exclusive,
		WhenToUse:   "Before shutdown or a risky host transition, or to checkpoint after valuable learning.",
		AvoidWhen:   "Routine use: the server already persists every auto_persist_interval queries and on exit.",
		Next:        []string{"health"},
		Example:     map[string]any{"agent_id": "claude", "action": "save"},
		Aliases:     []string{"graph.persist"},
	}, runPersist)
	tools.Add(r, tools.Tool{
		Name:        "help",
		Title:       "Tool reference",
		Description: "The tool index, or one tool's parameters, example and when to use it.",
		Details:     "Self-documenting tool reference generated from the live registry: the index of all tools, or one tool's parameters, example call, WHEN TO USE, AVOID WHEN and NEXT.",
		Class:       tools.Read,
		WhenToUse:   "When unsure which tool fits, or how to call one.",
		AvoidWhen:   "You already know the call; help costs a round trip.",
		Next:        []string{"health", "ingest"},
		Example:     map[string]any{"agent_id": "claude", "tool_name": "activate"},
	}, func(c *tools.Call, in helpParams) (helpOutput, error) { return runHelp(r, in) })
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

func runHealth(c *tools.Call, _ healthParams) (healthOutput, error) {
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
	out := healthOutput{
		Status:               status,
		Domain:               cfg.Domain,
		NodeCount:            g.NumNodes(),
		EdgeCount:            g.NumEdges(),
		NodeTypes:            types,
		QueriesProcessed:     s.Queries(),
		UptimeSeconds:        round2(s.Uptime().Seconds()),
		MemoryUsageBytes:     ms.HeapAlloc,
		PlasticityState:      fmt.Sprintf("%d edges tracked, %d queries in memory", learned, mem.Records),
		LastPersistError:     nilIfEmpty(lastErr),
		Persistence:          persistenceInfo{Mode: "memory-only"},
		ActiveSessions:       tools.OrEmpty(sessions),
		GraphGeneration:      gg,
		PlasticityGeneration: pg,
		CacheGeneration:      cg,
		IngestRoots:          tools.OrEmpty(roots),
		Warnings:             tools.OrEmpty(warnings),
		FilesOnDisk:          diskState(stale),
		NextSuggestedTool:    next,
	}
	out.Server.Name, out.Server.Version = ServerName, ServerVersion
	out.Memory.HeapAlloc, out.Memory.HeapSys, out.Memory.Sys, out.Memory.NumGC = ms.HeapAlloc, ms.HeapSys, ms.Sys, uint64(ms.NumGC)
	out.Plasticity.LearnedEdges, out.Plasticity.QueryMemory = learned, mem
	if !last.IsZero() {
		t := last.UTC().Format(time.RFC3339)
		out.LastPersistTime = &t
	}
	if cfg.Persistent() {
		out.Persistence = persistenceInfo{
			Mode: "disk", RuntimeDir: cfg.RuntimeDir, GraphSource: cfg.GraphSource,
			PlasticityState: cfg.PlasticityState, AutoPersistInterval: cfg.AutoPersistInterval,
		}
	}
	return out, nil
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
func diskState(st session.Staleness) filesOnDisk {
	if !st.Known {
		return filesOnDisk{Checked: false, Reason: "no file stamps for these roots (memory or json adapter, or a snapshot from before stamps)"}
	}
	capped := func(l []string) []string { return tools.OrEmpty(l[:min(len(l), 20)]) }
	return filesOnDisk{
		Checked: true, Stale: st.Stale(),
		Modified: capped(st.Modified), Deleted: capped(st.Deleted), Added: capped(st.Added),
		Counts: &diskCounts{Modified: len(st.Modified), Deleted: len(st.Deleted), Added: len(st.Added)},
	}
}

func runPersist(c *tools.Call, in persistParams) (persistOutput, error) {
	s := c.Session
	switch in.Action {
	case "load":
		b, err := s.LoadFromDisk()
		if err != nil {
			return persistOutput{}, tools.Errorf("The saved snapshot could not be read; the in-memory graph is untouched.", "%v", err).WithNext("Call health to see the persistence paths, or ingest to rebuild the graph.")
		}
		return persistOutput{Action: "load", NodeCount: b.Graph.NumNodes(), EdgeCount: b.Graph.NumEdges(), GraphGeneration: b.Gen}, nil
	default:
		res, err := s.Persist("manual")
		if err != nil {
			return persistOutput{}, tools.Errorf("Check that the runtime directory is writable and has free space.", "%v", err).WithNext("Call health for the persistence paths and the last error.")
		}
		return persistOutput{
			Reason: res.Reason, GraphPath: res.GraphPath, PlasticityPath: res.PlasticityPath, Nodes: res.Nodes, Edges: res.Edges,
			PlasticityEdges: res.PlasticityEdges, SaveStamp: res.SaveStamp, Skipped: res.Skipped, ElapsedMs: res.ElapsedMs,
		}, nil
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

func runHelp(r *tools.Registry, in helpParams) (helpOutput, error) {
	if name := in.ToolName; name != "" {
		t, ok := r.Lookup(name)
		if !ok {
			sugg := r.Suggest(name)
			e := tools.Errorf("Call help without tool_name for the full index.", "no tool named %q", name)
			if len(sugg) > 0 {
				e.Hint = fmt.Sprintf("Did you mean %s? ", strings.Join(sugg, " or ")) + e.Hint
			}
			return helpOutput{}, e
		}
		return ToolDoc(t), nil
	}
	out := helpOutput{
		Server:   ServerName + " " + ServerVersion,
		Workflow: Workflow,
		Usage:    "Call help with tool_name for parameters, an example call, WHEN TO USE, AVOID WHEN and NEXT.",
	}
	for _, t := range r.All() {
		var req []string
		for _, p := range t.AllParams() {
			if p.Required {
				req = append(req, p.Name)
			}
		}
		out.Tools = append(out.Tools, helpEntry{t.Name, FirstSentence(t.Description), t.Class.String(), req})
	}
	out.ToolCount = len(out.Tools)
	return out, nil
}

// ToolDoc is the full documentation of one tool, as help returns it.
func ToolDoc(t *tools.Tool) helpOutput {
	var params []paramDoc
	for _, p := range t.AllParams() {
		params = append(params, paramDoc{p.Name, string(p.Type), p.Required, p.Default, p.Enum, p.Doc()})
	}
	return helpOutput{
		Name:        t.Name,
		Description: t.Doc(),
		Class:       t.Class.String(),
		Parameters:  params,
		Example:     map[string]any{"name": t.Name, "arguments": t.Example},
		WhenToUse:   t.WhenToUse,
		AvoidWhen:   t.AvoidWhen,
		Next:        tools.OrEmpty(t.Next),
		Aliases:     tools.OrEmpty(t.Aliases),
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

func nilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
