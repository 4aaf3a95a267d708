package system

import (
	"errors"
	"fmt"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// ingestParams is ingest's input.
type ingestParams struct {
	Path            string   `json:"path" help:"Directory (or file) to ingest; absolute, or relative to the server's working directory." tool:"required"`
	Adapter         string   `json:"adapter" jsonschema:"code, memory, json, or a document adapter (universal, auto, …)." help:"code (source tree), memory (markdown/text notes), json (a {nodes, edges} descriptor); documents: universal (Markdown, reStructuredText, AsciiDoc, text, HTML; PDF/DOCX with providers), auto or document (detects the family per file and per directory; a source tree goes to code), light (L1GHT Markdown), bibtex, article (JATS), patent, rfc (RFC XML v3), crossref." tool:"default=code"`
	Mode            string   `json:"mode" jsonschema:"merge adds to the current graph; replace rebuilds it." help:"replace: rebuild the graph from this path; merge: add to the current graph (same external_id updates the node)." tool:"default=replace,enum=replace|merge"`
	Incremental     bool     `json:"incremental" jsonschema:"Re-extract only changed files (code)." help:"Re-extract only files changed since the last ingest of this path (code adapter). When a few files only changed their contents, the current graph is patched in place of a rebuild (stats.incremental.patched); learned weights are kept either way." tool:"default=false"`
	Namespace       string   `json:"namespace" jsonschema:"Id prefix: memory/json nodes; a code root beside others." help:"Prefix for the external ids of memory and json nodes. For a code root, the namespace its nodes get once other code roots share the graph (\"api::file::main.go\"); default: the directory's name."`
	IncludeDotfiles bool     `json:"include_dotfiles" help:"Also ingest hidden files and directories." tool:"default=false"`
	DotfilePatterns []string `json:"dotfile_patterns" help:"Hidden paths to include even without include_dotfiles (e.g. \".github/**\")."`
	MaxNodes        int      `json:"max_nodes" jsonschema:"Stop at this many nodes (0: the server's budget, 500000 unless set)." help:"This call's node budget: past it the ingest stops admitting files and answers with a partial graph (stats.partial). 0: the server's (--ingest-max-nodes, config ingest_max_nodes; default 500000, ≈ 7 M lines). Raise it to ingest a larger tree as one root, e.g. 2000000." tool:"min=0,max=50000000"`
	TimeoutS        int      `json:"timeout_s" jsonschema:"Stop after this many seconds (0: the server's budget, 300 unless set)." help:"This call's time budget in seconds: past it the ingest stops admitting files and answers with a partial graph. 0: the server's (--ingest-timeout-s, config ingest_timeout_s; default 300; at most 1800, the call's own limit). A large tree on a busy machine needs more, e.g. 1800." tool:"min=0,max=1800"`
}

func registerIngest(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "ingest",
		Title:       "Ingest a repository",
		Description: "Build or refresh the graph from a repository, notes or documents; incremental after edits.",
		Details:     "Ingest or re-ingest a codebase, a memory/markdown corpus or a JSON graph descriptor into the graph: walks the tree (honouring .gitignore), extracts entities with tree-sitter, reads git history, resolves references, builds and finalizes the graph. Reports progress when the client sends a progress token.",
		Class:       tools.Exclusive,
		WhenToUse:   "Session start when health shows an empty or stale graph; after code changes (incremental: true); to merge notes or another root into the graph.",
		AvoidWhen:   "The graph is current (health: stale false) — re-ingesting costs time and resets nothing you need.",
		Next:        []string{"health", "activate", "seek"},
		Example:     map[string]any{"agent_id": "claude", "path": "/path/to/repo", "mode": "replace"},
	}, runIngest)
}

func runIngest(c *tools.Call, in ingestParams) (IngestOutput, error) {
	r := &tools.IngestRun{C: c, Path: in.Path, Adapter: in.Adapter, Mode: in.Mode, Namespace: in.Namespace,
		Incremental: in.Incremental, IncludeDotfiles: in.IncludeDotfiles, DotfilePatterns: in.DotfilePatterns,
		MaxNodes: in.MaxNodes, Timeout: time.Duration(in.TimeoutS) * time.Second}
	if err := r.Target(); err != nil {
		return IngestOutput{}, err
	}
	start := time.Now()
	s := c.Session
	tools.KeepMemoryLimit()
	// A small tree's ingest collects its garbage after the builds behind
	// the answer, not several times beside the parse (py-335: 2-6
	// collections before the answer at GOGC 100).
	roomDone := tools.RoomForIngest()
	jb, err := r.BuildJournaled()
	if err != nil {
		roomDone()
		var te *tools.Error
		if errors.As(err, &te) {
			return IngestOutput{}, te
		}
		return IngestOutput{}, tools.Errorf("The current graph is unchanged. Check the path, adapter and mode.", "ingest failed: %v", err)
	}
	nb := jb.Bundle
	// A large graph's seek index was started before the journal's fsync;
	// the answer waits for it, so the first seek does not (it waited
	// seconds for the build behind the answer). Then, in the background,
	// the query engine and the warm-ups, so the first query does not pay
	// for them either (and the seek index of a small graph); after a large
	// ingest they wait for the client's first call (jb.Hold), which then
	// has the process to itself. The new graph
	// is durable before the answer: by its journal record, its snapshot
	// written behind (the memory released first, as a save after it
	// reuses it, and once the indexes are built: beside them it was the
	// peak); or, when it could not be journaled, by its snapshot.
	jb.AwaitSeekIndex(c)
	built := tools.BuildIndexesAfter(c, nb, jb.Hold())
	go func() { <-built; roomDone() }()
	var persisted tools.Persisted
	if jb.Journaled {
		persisted = tools.SaveBehindIngest(s, r, jb.Hold(), built)
	} else {
		persisted = tools.PersistAfterIngest(s, nb)
		tools.ReleaseAfterIngest(r) // (a full GC and a scavenge of the heap: half a second on a large one)
	}
	// The last progress says it is over, also when nothing needed doing
	// (an unchanged tree reports no phase): a client's bar ends at 100 %.
	c.Progress(1, 1, "done")
	return ingestAnswer(c, r, nb, persisted, time.Since(start))
}

// ingestAnswer is the ingest's answer with guidance.
func ingestAnswer(c *tools.Call, r *tools.IngestRun, nb *session.Bundle, persisted tools.Persisted, took time.Duration) (IngestOutput, error) {
	o := r.Output()
	st := o.Stats
	out := IngestOutput{
		Path:           r.RootPath(),
		Adapter:        st.Adapter,
		Mode:           r.Mode,
		FilesProcessed: st.FilesParsed,
		NodesCreated:   st.NodesCreated,
		EdgesCreated:   st.EdgesCreated,
		Languages:      st.Languages,
		ElapsedMs:      tools.Ms(took),
		Stats:          st,
		Root:           o.Root,
		Graph:          graphCountOutput{NodeCount: nb.Graph.NumNodes(), EdgeCount: nb.Graph.NumEdges(), Generation: nb.Gen},
		Persisted:      persisted,
	}
	out.Guidance = tools.Guidance{
		ProofState:        "triaging",
		NextSuggestedTool: tools.FirstTool(c.Registry, "seek", "activate"),
		NextStepHint:      "The graph is ready: find code by purpose with seek, explore a topic with activate, or check a file's blast radius with impact.",
	}
	if st.Partial {
		maxNodes, timeout := r.Budgets()
		out.Guidance.NextStepHint = partialHint(st.BudgetExhausted, r.RootPath(), maxNodes, timeout)
	}
	if !out.Persisted.Durable && out.Persisted.Error != "" {
		out.Guidance.NextStepHint = "The graph is served but NOT saved (see persisted.error): a restart would lose it. Free space or fix the runtime directory, then call persist."
	}
	return out, nil
}

// partialHint says which budget stopped an ingest, at what value, and the
// ways past it: the same call with that budget raised (max_nodes,
// timeout_s; the server's default is --ingest-max-nodes /
// --ingest-timeout-s) while it can be, or the tree as several roots merged
// into one graph, since each call has its own budget.
func partialHint(budget, root string, maxNodes int, timeout time.Duration) string {
	limit, raise := budget, "call ingest again with max_nodes and timeout_s raised"
	switch budget {
	case "max_nodes":
		limit, raise = fmt.Sprintf("max_nodes, %d nodes", maxNodes), ""
		if maxNodes < session.MaxIngestNodes {
			raise = fmt.Sprintf("call ingest again with max_nodes raised (e.g. %d; the server's default is set with --ingest-max-nodes)", min(max(4*maxNodes, 2_000_000), session.MaxIngestNodes))
		}
	case "timeout":
		limit, raise = fmt.Sprintf("timeout, %v", timeout), ""
		if timeout < session.MaxIngestTimeout {
			raise = fmt.Sprintf("call ingest again with timeout_s raised (e.g. %d, the most; the server's default is set with --ingest-timeout-s)", int(session.MaxIngestTimeout/time.Second))
		}
	}
	way := "To ingest it as one root, " + raise + ". Or, as each"
	if raise == "" {
		way = "That budget is at its most: as each"
	}
	return fmt.Sprintf("The ingest stopped early at its budget (%s): the graph is consistent but covers only part of %s. "+
		"%s ingest call has its own budget, ingest the tree's top directories one by one, the first with mode \"replace\" and the rest with mode \"merge\", for one graph of all of it.", limit, root, way)
}
