package live

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/autoingest"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type autoIngestStartParams struct {
	Roots      []string `json:"roots" help:"Directories or files to watch, absolute or relative to the server's working directory; each must be allowed for ingest." tool:"required,maxitems=32"`
	Formats    []string `json:"formats" jsonschema:"universal, light, bibtex, article, patent, rfc, crossref, a format, all." help:"Formats to ingest: universal (Markdown, reStructuredText, AsciiDoc, text, HTML, PDF/DOCX with providers), light, bibtex, article/jats, patent, rfc, crossref, a single format (markdown, rst, asciidoc, text, html, pdf, docx), or all. Default: all." tool:"maxitems=32"`
	DebounceMs int      `json:"debounce_ms" help:"Quiet time after the last change before it is ingested." tool:"default=200,min=10,max=60000"`
	Namespace  string   `json:"namespace" jsonschema:"Default \"doc\"." help:"Namespace of the document nodes (default \"doc\")."`
}

func registerAutoIngest(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "auto_ingest_start",
		Title:       "Watch document roots",
		Description: "Keep documents under roots in the graph: ingested now and on each change.",
		Details: "Watch document roots (directories or single files) and keep their documents in the graph: the documents there now are ingested at once (bootstrap), " +
			"then every added, edited or deleted document file is re-ingested (or removed) after debounce_ms of quiet — the code graph is left as it is, bindings are refreshed. " +
			"Kernel watches (inotify/FSEvents) when available, polling otherwise. With a runtime directory, a watch still running when the server stops resumes when it starts again (auto_ingest_stop ends it for good).",
		Class:     tools.Exclusive,
		WhenToUse: "A docs/specs/wiki root should stay current in the graph while you (or others) edit it.",
		AvoidWhen: "A one-shot document ingest (ingest with adapter \"universal\", mode \"merge\"); source code (daemon_start watches code roots).",
		Next:      []string{"auto_ingest_status", "auto_ingest_tick", "document_resolve"},
		Example:   map[string]any{"agent_id": "claude", "roots": []string{"README.md"}, "formats": []string{"universal"}, "debounce_ms": 200},
	}, runAutoIngestStart)
	tools.Add(r, tools.Tool{
		Name:        "auto_ingest_status",
		Title:       "Auto-ingest status",
		Description: "Document watchers' state: queue, ticks, last errors.",
		Details:     "The document watchers' state: running, roots, formats, watcher backend, queue depth, tracked documents, ticks and their counts, the last errors, the documents and sections of the namespace in the graph, and which providers exist.",
		Class:       tools.Read,
		WhenToUse:   "To check that watched documents reach the graph, or why one does not (last_errors).",
		Next:        []string{"auto_ingest_tick", "document_drift"},
		Example:     map[string]any{"agent_id": "claude"},
	}, runAutoIngestStatus)
	tools.Add(r, tools.Tool{
		Name:        "auto_ingest_tick",
		Title:       "Apply document changes now",
		Description: "Ingest watched documents' changes now, skipping the debounce.",
		Details:     "One deterministic pass now: scan the watched roots, compare with the manifest (size and modification time), ingest added and edited documents and remove deleted ones in one graph update. Returns ingested, removed, skipped and errored paths.",
		Class:       tools.Exclusive,
		WhenToUse:   "Right after editing a watched document, when the next answer must include the edit (tests, scripts) without waiting for the debounce.",
		AvoidWhen:   "No roots are watched (auto_ingest_start first).",
		Next:        []string{"document_resolve", "document_drift"},
		Example:     map[string]any{"agent_id": "claude"},
	}, runAutoIngestTick)
	tools.Add(r, tools.Tool{
		Name:        "auto_ingest_stop",
		Title:       "Stop watching documents",
		Description: "Stop the document watchers; documents stay in the graph.",
		Details:     "Stop the document watchers and persist the manifest (runtime directory, auto-ingest.json). The documents stay in the graph.",
		Class:       tools.Write,
		WhenToUse:   "When the watched roots change or the session ends.",
		Next:        []string{"auto_ingest_start", "auto_ingest_status"},
		Example:     map[string]any{"agent_id": "claude"},
	}, runAutoIngestStop)
}

type autoIngestTickOutput struct {
	autoingest.TickResult
	tools.Guidance
}

type autoIngestStartOutput struct {
	Running        bool                  `json:"running"`
	Roots          []string              `json:"roots"`
	Formats        []string              `json:"formats"`
	Namespace      string                `json:"namespace"`
	DebounceMs     int                   `json:"debounce_ms"`
	Backend        string                `json:"watcher_backend"`
	BackendNote    string                `json:"watcher_note,omitempty"`
	Bootstrap      autoingest.TickResult `json:"bootstrap" jsonschema:"What the first pass ingested."`
	ProviderStatus map[string]bool       `json:"provider_status"`
	tools.Guidance
}

type autoIngestStatusOutput struct {
	autoingest.Status
	SemanticDocumentCount int             `json:"semantic_document_count" jsonschema:"Documents of the namespace in the graph."`
	SemanticSectionCount  int             `json:"semantic_section_count"`
	ProviderStatus        map[string]bool `json:"provider_status"`
	tools.Guidance
}

type autoIngestStopOutput struct {
	Stopped         bool   `json:"stopped" jsonschema:"Whether watchers were running."`
	ManifestEntries int    `json:"manifest_entries"`
	ManifestPath    string `json:"manifest_path,omitempty"`
	Note            string `json:"note,omitempty"`
	tools.Guidance
}

// autoIngestOf returns the session's auto-ingest runtime, made on first
// use.
func autoIngestOf(c *tools.Call) *autoingest.Runtime {
	s := c.Session
	return session.Shared(s, autoIngestKey, func() *autoingest.Runtime {
		// Its watch runs under the session's lifetime: Close calls a tick
		// in flight off and waits for it.
		return autoingest.New(documentApplier(s), s.RuntimePath(""), s.Logf).Under(s.Go)
	})
}

var autoIngestKey = session.NewKey[*autoingest.Runtime]("auto-ingest")

// ResumeAutoIngest restarts the document watch the runtime directory says
// was running when the server stopped, in the background (its bootstrap
// pass reads every document); a watch that cannot resume (a root gone) is
// logged and left stopped.
func ResumeAutoIngest(d *tools.Dispatcher) {
	s := d.Session
	if s.RuntimePath("") == "" {
		return
	}
	rt := autoIngestOf(&tools.Call{Session: s})
	opt, ok := rt.Saved()
	if !ok {
		return
	}
	accept, err := acceptFormats(opt.Formats)
	if err != nil {
		s.Logf("auto-ingest: not resumed: %v", err)
		return
	}
	// The roots pass today's checks (the allowed roots may have changed).
	c := &tools.Call{Ctx: s.Context(), AgentID: "auto-ingest", Session: s}
	for _, r := range opt.Roots {
		if _, err := checkDocRoot(c, r); err != nil {
			s.Logf("auto-ingest: not resumed: %v", err)
			return
		}
	}
	s.Go("auto-ingest: resume", func(ctx context.Context) error {
		if _, err := rt.Start(ctx, opt, accept); err != nil {
			s.Logf("auto-ingest: not resumed: %v", err)
			return nil
		}
		s.Logf("auto-ingest: resumed watching %v", opt.Roots)
		return nil
	})
}

// formatSets are the formats auto_ingest accepts by name.
var formatSets = map[string][]document.Format{
	"universal": {document.Markdown, document.RST, document.AsciiDoc, document.Text, document.HTML, document.PDF, document.DOCX},
	"light":     {document.Light}, "l1ght": {document.Light},
	"bibtex": {document.BibTeX}, "bib": {document.BibTeX},
	"article": {document.JATS}, "jats": {document.JATS},
	"patent": {document.Patent}, "rfc": {document.RFC}, "crossref": {document.CrossRef},
	"markdown": {document.Markdown}, "rst": {document.RST}, "asciidoc": {document.AsciiDoc}, "text": {document.Text},
	"html": {document.HTML}, "pdf": {document.PDF}, "docx": {document.DOCX},
}

// acceptFormats turns format names into a filter (nil: all).
func acceptFormats(names []string) (func(document.Format) bool, error) {
	set := map[document.Format]bool{}
	for _, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		if n == "all" || n == "auto" || n == "document" {
			return nil, nil
		}
		fs, ok := formatSets[n]
		if !ok {
			return nil, tools.Errorf("formats are: universal, light, bibtex, article (jats), patent, rfc, crossref, markdown, rst, asciidoc, text, html, pdf, docx, or all.", "unknown format %q", n).
				WithExample(map[string]any{"agent_id": "claude", "roots": []string{"docs"}, "formats": []string{"universal", "light"}})
		}
		for _, f := range fs {
			set[f] = true
		}
	}
	if len(set) == 0 {
		return nil, nil
	}
	return func(f document.Format) bool { return set[f] }, nil
}

func runAutoIngestStart(c *tools.Call, in autoIngestStartParams) (autoIngestStartOutput, error) {
	if len(in.Roots) == 0 {
		return autoIngestStartOutput{}, tools.Errorf("roots lists the directories (or files) of documents to watch.", "roots is empty").
			WithCall("auto_ingest_start", map[string]any{"agent_id": c.AgentID, "roots": []string{"/path/to/docs"}})
	}
	accept, err := acceptFormats(in.Formats)
	if err != nil {
		return autoIngestStartOutput{}, err
	}
	ns := strings.TrimSpace(in.Namespace)
	if ns == "" {
		ns = document.DefaultNamespace
	}
	if err := document.CheckNamespace(ns); err != nil {
		return autoIngestStartOutput{}, tools.Errorf("A namespace is a short name of letters, digits, '.', '_' or '-'.", "%v", err)
	}
	var roots []string
	for _, raw := range in.Roots {
		root, err := checkDocRoot(c, raw)
		if err != nil {
			return autoIngestStartOutput{}, err
		}
		if !slices.Contains(roots, root) {
			roots = append(roots, root)
		}
	}
	rt := autoIngestOf(c)
	boot, err := rt.Start(c.Ctx, autoingest.Options{Roots: roots, Formats: in.Formats, DebounceMs: in.DebounceMs, Namespace: ns}, accept)
	if err != nil {
		return autoIngestStartOutput{}, tools.Errorf("Each root must be an existing directory or file.", "auto-ingest not started: %v", err)
	}
	st := rt.Status()
	out := autoIngestStartOutput{Running: st.Running, Roots: st.Roots, Formats: st.Formats, Namespace: st.Namespace, DebounceMs: st.DebounceMs,
		Backend: st.Backend, BackendNote: st.BackendNote, Bootstrap: boot, ProviderStatus: providerStatus(c.Ctx)}
	out.Guidance = tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "document_drift", "auto_ingest_status"),
		NextStepHint: fmt.Sprintf("%d documents ingested; edits are picked up after %d ms of quiet (auto_ingest_tick applies them at once).", len(boot.IngestedPaths), st.DebounceMs)}
	if len(boot.ErroredPaths) > 0 {
		out.NextSuggestedTool = tools.FirstTool(c.Registry, "auto_ingest_status")
		out.NextStepHint = fmt.Sprintf("%d documents failed (bootstrap.errors); the others are in the graph.", len(boot.ErroredPaths))
	}
	return out, nil
}

// checkDocRoot resolves a root and checks the session may ingest it.
func checkDocRoot(c *tools.Call, raw string) (string, error) {
	root, err := filepath.Abs(strings.TrimSpace(raw))
	if err != nil || strings.TrimSpace(raw) == "" {
		return "", tools.Errorf("roots are directories or files, absolute or relative to the server's working directory.", "root %q cannot be resolved", raw)
	}
	if _, err := os.Stat(root); err != nil {
		return "", tools.Errorf("Each root must exist on the machine the server runs on.", "root %q does not exist or cannot be read", root).
			WithNext("Check the path (ls it), then call auto_ingest_start again.")
	}
	if err := c.Session.CheckIngestPath(root); err != nil {
		var re *session.RootError
		if errors.As(err, &re) {
			return "", tools.Errorf(re.Hint(), "%s", re.Msg)
		}
		return "", tools.Errorf("Pass a directory the server may ingest.", "%v", err)
	}
	return root, nil
}

// providerStatus maps each optional provider to its availability.
func providerStatus(ctx context.Context) map[string]bool {
	_, ps := document.ProviderHealth(ctx)
	out := map[string]bool{}
	for _, p := range ps {
		out[p.Name] = p.Available
	}
	return out
}

func runAutoIngestStatus(c *tools.Call, _ struct{}) (autoIngestStatusOutput, error) {
	st := autoIngestOf(c).Status()
	out := autoIngestStatusOutput{Status: st, ProviderStatus: providerStatus(c.Ctx)}
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		ns := st.Namespace
		if ns == "" {
			ns = document.DefaultNamespace
		}
		for _, d := range document.Catalog(b.Graph) {
			if d.Namespace == ns {
				out.SemanticDocumentCount++
				out.SemanticSectionCount += len(document.Sections(b.Graph, d.Node))
			}
		}
		return nil
	})
	if err != nil {
		return autoIngestStatusOutput{}, err
	}
	out.Guidance = tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "auto_ingest_tick"),
		NextStepHint: "auto_ingest_tick applies pending changes now; document_drift shows which documents fell behind their code."}
	switch {
	case !st.Running:
		out.NextSuggestedTool = tools.FirstTool(c.Registry, "auto_ingest_start")
		out.NextStepHint = "Not running: auto_ingest_start watches document roots."
	case len(st.LastErrors) > 0:
		out.NextStepHint = fmt.Sprintf("%d recent failures (last_errors): fix or remove those files; the next tick retries them.", len(st.LastErrors))
	}
	return out, nil
}

func runAutoIngestTick(c *tools.Call, _ struct{}) (autoIngestTickOutput, error) {
	res, err := autoIngestOf(c).Tick(c.Ctx)
	if err != nil {
		return autoIngestTickOutput{}, tools.Errorf("Start watching first: auto_ingest_start with the document roots.", "%v", err).
			WithNext("Call auto_ingest_start, then auto_ingest_tick.").
			WithCall("auto_ingest_start", map[string]any{"agent_id": c.AgentID, "roots": []string{"/path/to/docs"}})
	}
	out := autoIngestTickOutput{TickResult: res}
	out.Guidance = tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "document_drift"),
		NextStepHint: "The graph holds the documents as they are on disk now."}
	if len(res.IngestedPaths) > 0 {
		out.NextSuggestedTool = tools.FirstTool(c.Registry, "document_resolve")
		out.NextSuggestedTarget = res.IngestedPaths[0]
	}
	return out, nil
}

func runAutoIngestStop(c *tools.Call, _ struct{}) (autoIngestStopOutput, error) {
	was, n, err := autoIngestOf(c).Stop()
	out := autoIngestStopOutput{Stopped: was, ManifestEntries: n}
	if p := c.Session.RuntimePath("auto-ingest.json"); p != "" && err == nil {
		out.ManifestPath = p
	} else if err != nil {
		out.Note = "manifest not saved: " + err.Error()
	} else {
		out.Note = "memory-only session (no --runtime-dir): the manifest is not saved"
	}
	out.Guidance = tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "auto_ingest_start"),
		NextStepHint: "The documents stay in the graph; auto_ingest_start watches again."}
	return out, nil
}

// wholeRoot: a root with more changed documents than this is read in one
// pass (one git history read) instead of file by file.
const wholeRoot = 16

// documentApplier ingests a tick's changes into the graph in one update:
// the changed documents leave the graph, the added and edited ones are
// read again and merged (bindings to code refreshed by the merge). A root
// with many changes (the bootstrap) is read whole, with git times; single
// files are read without git, their last change being the edit itself.
func documentApplier(s *session.State) autoingest.Applier {
	return func(ctx context.Context, changes []autoingest.Change, opt autoingest.Options, accept func(document.Format) bool) (autoingest.Outcome, error) {
		out := autoingest.Outcome{Errored: map[string]string{}}
		gone := map[string]bool{}
		perRoot := map[string]int{}
		for _, ch := range changes {
			gone[ch.Path] = true
			if ch.Kind == autoingest.Removed {
				out.Removed = append(out.Removed, ch.Path)
			} else {
				perRoot[ch.Root]++
			}
		}
		lane := document.DocumentsOnly(accept)
		add := graph.New()
		read := func(root string, noGit bool, paths []string) {
			o, err := lane.Ingest(ctx, adapter.Request{Root: root, Namespace: opt.Namespace, NoGit: noGit})
			if err == nil && o.Stats.FilesFailed > 0 && len(paths) == 1 {
				err = errors.New(strings.Join(o.Stats.Warnings, "; "))
			}
			if err == nil {
				err = add.Merge(o.Graph)
			}
			for _, p := range paths {
				switch {
				case err != nil:
					out.Errored[p] = err.Error()
				case o.Stats.FilesParsed == 0:
					out.Skipped = append(out.Skipped, p)
				default:
					out.Ingested = append(out.Ingested, p)
				}
			}
			if err == nil && len(paths) > 1 && o.Stats.FilesFailed > 0 {
				out.Errored[root] = strings.Join(o.Stats.Warnings, "; ")
			}
		}
		whole := map[string][]string{}
		for _, ch := range changes {
			switch {
			case ch.Kind == autoingest.Removed:
			case perRoot[ch.Root] > wholeRoot:
				whole[ch.Root] = append(whole[ch.Root], ch.Path)
			default:
				read(ch.Path, true, []string{ch.Path})
			}
		}
		for _, root := range slices.Sorted(maps.Keys(whole)) {
			read(root, false, whole[root])
		}
		add.Finalize()
		nb, err := s.BuildBundle("graph_merged", func(old *session.Bundle) (*session.Bundle, error) {
			return applyDocuments(s, old, add, gone, opt)
		})
		if err != nil {
			return out, err
		}
		tools.PersistAfterIngest(s, nb)
		return out, nil
	}
}

// applyDocuments builds the bundle of one tick.
func applyDocuments(s *session.State, old *session.Bundle, add *graph.Graph, gone map[string]bool, opt autoingest.Options) (*session.Bundle, error) {
	base := graph.New()
	base.Finalize()
	if old.Graph.NumNodes() > 0 {
		s.Plasticity.Locked(func() { base = old.Graph.Clone() })
		var err error
		base, _, err = document.DropDocuments(base, func(d document.DocInfo) bool { return d.Namespace == opt.Namespace && gone[d.Abs] })
		if err != nil {
			return nil, err
		}
	}
	merged, _, err := ingest.MergeGraphs(base, add)
	if err != nil {
		return nil, err
	}
	nb := &session.Bundle{Graph: merged, Roots: slices.Clone(old.Roots), Commits: old.Commits, Files: old.Files}
	for _, r := range opt.Roots {
		if !slices.ContainsFunc(nb.Roots, func(x session.Root) bool { return x.Path == r }) {
			nb.Roots = append(nb.Roots, session.Root{Path: r, Adapter: document.Router.Name(), Namespace: opt.Namespace, Mode: "merge", IngestedAt: time.Now().UTC()})
		}
	}
	return nb, nil
}
