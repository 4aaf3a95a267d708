package query

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// batch_view limits.
const (
	batchViewMaxFiles = 50
	batchViewMaxBytes = 1_000_000
	// batchViewIngestBytes bounds the content held for one batch's
	// auto-ingest.
	batchViewIngestBytes = 16 << 20
	// batchViewOutline bounds the symbols listed per file in summary mode.
	batchViewOutline = 200
)

// batchViewParams is batch_view's input. Its tags repeat batchViewMaxFiles
// and batchViewMaxBytes (declare_test.go holds them together); lines per
// file are bounded as view bounds them.
type batchViewParams struct {
	Files           []string `json:"files" jsonschema:"Paths or globs (\"backend/*.py\")." help:"Paths relative to an ingest root (or absolute inside one) and/or glob patterns over indexed files (\"backend/*.py\"); at most 50 files are shown." tool:"required,maxitems=50"`
	AutoIngest      bool     `json:"auto_ingest" help:"Extract files under an ingest root that are not in the graph yet and merge them into it (one new graph generation for the whole batch)." tool:"default=true"`
	SummaryMode     bool     `json:"summary_mode" jsonschema:"Outlines (symbols, lines) instead of text." help:"Show each file's outline — its symbols with line ranges, and a one-line summary — instead of its lines." tool:"default=false"`
	MaxLinesPerFile int      `json:"max_lines_per_file" help:"Lines shown per file, from line 1 (continue a cut file with view and its next_offset)." tool:"default=200,min=1,max=5000"`
	MaxTotalBytes   int      `json:"max_total_bytes" help:"Budget for the content of all files together; a file that does not fit is cut at a line, later files are omitted." tool:"default=100000,min=1000,max=1000000"`
}

func registerBatchView(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "batch_view",
		Title:       "View several files",
		Description: "Several known files (paths or globs) in one call, line-numbered or as outlines.",
		Details: "Read several files in one call: paths and glob patterns (over the indexed files), each file a separate entry with line-numbered content, bounded to the ingest roots exactly like view. " +
			"A file that fails (missing, outside the roots, binary) reports its own error with the closest indexed paths; the others are still shown. " +
			"Output is bounded by max_total_bytes (files past it are listed as omitted, a cut file says where to continue). " +
			"summary_mode shows each file's outline (symbols with their lines) instead of its text.",
		Hints:     &tools.Hints{Idempotent: true}, // auto_ingest adds to the graph, like view
		Class:     tools.Read,
		WhenToUse: "You know several files to read (after search, glob, impact or seek): one call instead of one view per file; summary_mode to skim a file family's structure.",
		AvoidWhen: "One file (view), or you do not know which files matter yet (seek, search).",
		Next:      []string{"impact", "view", "coverage_session"},
		Example:   map[string]any{"agent_id": "claude", "files": []string{"backend/auth.py", "backend/session.py", "tests/*.py"}, "max_lines_per_file": 40},
	}, runBatchView)
}

// batchFile is one file of a batch.
type batchFile struct {
	// Input is the entry the file came from: the path given, or the glob
	// pattern that matched it.
	Input        string `json:"input"`
	FilePath     string `json:"file_path"`
	AbsolutePath string `json:"absolute_path,omitempty"`
	// Status is "ok", "error" (Error, Hint say why) or "omitted" (past the
	// file cap or the byte budget).
	Status     string   `json:"status"`
	Error      string   `json:"error,omitempty"`
	Hint       string   `json:"hint,omitempty"`
	DidYouMean []string `json:"did_you_mean,omitempty"`
	StartLine  int      `json:"start_line,omitempty"`
	EndLine    int      `json:"end_line,omitempty"`
	TotalLines int      `json:"total_lines,omitempty"`
	// Truncated: lines follow EndLine; NextOffset continues with view.
	Truncated    bool   `json:"truncated,omitempty"`
	NextOffset   int    `json:"next_offset,omitempty"`
	Content      string `json:"content,omitempty"`
	LinesClipped int    `json:"lines_clipped,omitempty"`
	LineEndings  string `json:"line_endings,omitempty"`
	InvalidUTF8  bool   `json:"invalid_utf8,omitempty"`
	Bytes        int    `json:"bytes,omitempty"`
	// Summary (summary_mode): lines and symbol counts, and the file's
	// leading doc line when the graph has one; Outline its symbols.
	Summary      string     `json:"summary,omitempty"`
	Outline      []viewNode `json:"outline,omitempty"`
	InGraph      bool       `json:"in_graph"`
	AutoIngested bool       `json:"auto_ingested,omitempty"`
	IngestError  string     `json:"auto_ingest_error,omitempty"`
	FileNodeID   string     `json:"file_node_id,omitempty"`
}

type batchViewResponse struct {
	Files []batchFile `json:"files"`
	// Requested counts the entries given; Matched the files they named
	// (globs expanded, duplicates once).
	Requested int `json:"requested"`
	Matched   int `json:"matched"`
	Shown     int `json:"shown"`
	Errors    int `json:"errors"`
	Omitted   int `json:"omitted"`
	// Truncated is set when a file was cut or omitted.
	Truncated     bool    `json:"truncated"`
	SummaryMode   bool    `json:"summary_mode"`
	MaxTotalBytes int     `json:"max_total_bytes"`
	UsedBytes     int     `json:"used_bytes"`
	AutoIngested  int     `json:"auto_ingested"`
	ElapsedMs     float64 `json:"elapsed_ms"`
	tools.Guidance
}

// batchItem is a file of the batch on its way through the phases.
type batchItem struct {
	out  batchFile
	tgt  tools.ViewTarget
	data []byte // kept for auto-ingest only
	mod  time.Time
	// noFile marks an entry that named no file (a bad glob, a glob
	// matching nothing).
	noFile bool
}

func runBatchView(c *tools.Call, in batchViewParams) (batchViewResponse, error) {
	start := time.Now()
	var entries []string
	for _, f := range in.Files {
		if f = strings.TrimSpace(f); f != "" {
			entries = append(entries, f)
		}
	}
	if len(entries) == 0 {
		return batchViewResponse{}, tools.Errorf("files lists paths relative to an ingest root (or absolute inside one) and/or glob patterns over the indexed files.", "files is empty").
			WithExample(map[string]any{"agent_id": "claude", "files": []string{"src/main.go", "src/*.go"}}).
			WithNext("Call glob or search to find the files, then pass their paths.")
	}
	out := batchViewResponse{Files: []batchFile{}, Requested: len(entries), SummaryMode: in.SummaryMode, MaxTotalBytes: in.MaxTotalBytes}

	// 1. Expand globs and judge every path against the roots.
	var items []*batchItem
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		var err error
		items, err = batchTargets(b, entries)
		return err
	})
	if err != nil {
		return batchViewResponse{}, err
	}

	// 2. Read the files (up to the budget) and auto-ingest those the
	// graph lacks, in one build.
	batchRead(items, in)
	if in.AutoIngest {
		batchIngest(c, items)
	}

	// 3. Nodes, outlines, the budget.
	err = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		for _, it := range items {
			if it.out.Status != "ok" {
				continue
			}
			var all []viewNode
			it.out.FileNodeID, all = fileNodes(b, it.tgt.GraphPath)
			it.out.InGraph = it.out.InGraph || it.out.FileNodeID != ""
			if in.SummaryMode {
				it.out.Summary, it.out.Outline = outlineOf(b, it, all)
			}
		}
		return nil
	})
	if err != nil {
		return batchViewResponse{}, err
	}
	for _, it := range items {
		applyBudget(&out, it)
		out.Files = append(out.Files, it.out)
	}
	out.Matched = len(items) - countInputErrors(items)
	out.Guidance = batchViewGuidance(c, &out)
	out.ElapsedMs = tools.Ms(time.Since(start))
	return out, nil
}

// batchTargets expands the entries into files (globs over the indexed
// files, in path order; a path given twice once) and resolves each like
// view does. Files past the cap are omitted.
func batchTargets(b *session.Bundle, entries []string) ([]*batchItem, error) {
	if err := tools.NeedRoots(b); err != nil {
		return nil, err
	}
	gf := tools.BundleGraphFiles(b)
	var items []*batchItem
	seen := map[string]bool{}
	files := 0
	add := func(input, p string) {
		it := &batchItem{out: batchFile{Input: input, FilePath: p, Status: "ok"}}
		items = append(items, it)
		if files >= batchViewMaxFiles {
			it.out.Status, it.out.Error = "omitted", fmt.Sprintf("over the %d-file limit of one batch", batchViewMaxFiles)
			return
		}
		tgt, err := tools.ResolveView(b, p, "files")
		if err != nil {
			setItemError(it, err)
			return
		}
		if seen[tgt.GraphPath] {
			items = items[:len(items)-1] // the same file named twice
			return
		}
		seen[tgt.GraphPath] = true
		files++
		it.tgt = tgt
		it.out.FilePath, it.out.AbsolutePath, it.out.InGraph = tgt.GraphPath, tgt.Res.Abs, tgt.InGraph
	}
	for _, e := range entries {
		_, indexed := gf.ByPath[strings.TrimPrefix(e, "./")]
		if indexed || !strings.ContainsAny(e, "*?[{") {
			add(e, e)
			continue
		}
		gm, err := tools.CompileGlob(e)
		if err != nil {
			items = append(items, &batchItem{noFile: true, out: batchFile{Input: e, FilePath: e, Status: "error",
				Error: fmt.Sprintf("invalid glob pattern %q: %v", e, err),
				Hint:  "Supported: * (within a directory), ** (any depth), ?, [abc], {a,b}."}})
			continue
		}
		n := 0
		for i := range gf.Files {
			if gm.Match(gf.Files[i].Path) {
				add(e, gf.Files[i].Path)
				n++
			}
		}
		if n == 0 {
			items = append(items, &batchItem{noFile: true, out: batchFile{Input: e, FilePath: e, Status: "error",
				Error: fmt.Sprintf("glob pattern %q matches no indexed file", e),
				Hint:  "Globs match the files in the graph; call glob to try a pattern, or give the path."}})
		}
	}
	return items, nil
}

// setItemError turns a per-file failure into the file's error fields.
func setItemError(it *batchItem, err error) {
	it.out.Status = "error"
	var te *tools.Error
	if !errors.As(err, &te) {
		it.out.Error = err.Error()
		return
	}
	it.out.Error, it.out.Hint = te.Message, te.Hint
	if near, ok := te.Extra["did_you_mean"].([]string); ok {
		it.out.DidYouMean = near
	}
}

// batchRead reads and renders each file until the rendered content alone
// exceeds the budget; later files are not read (applyBudget omits them).
func batchRead(items []*batchItem, in batchViewParams) {
	rendered, held := 0, 0
	for _, it := range items {
		if it.out.Status != "ok" {
			continue
		}
		if !in.SummaryMode && rendered >= in.MaxTotalBytes {
			it.out.Status, it.out.Error = "omitted", fmt.Sprintf("over max_total_bytes (%d)", in.MaxTotalBytes)
			continue
		}
		data, fi, err := tools.ReadView(it.tgt.Res, "files")
		if err != nil {
			setItemError(it, err)
			continue
		}
		var vr viewResponse
		vr.FilePath = it.out.FilePath
		if err := renderLines(&vr, data, 1, in.MaxLinesPerFile); err != nil {
			setItemError(it, err)
			continue
		}
		o := &it.out
		o.StartLine, o.EndLine, o.TotalLines, o.Truncated, o.NextOffset = vr.StartLine, vr.EndLine, vr.TotalLines, vr.Truncated, vr.NextOffset
		o.LinesClipped, o.LineEndings, o.InvalidUTF8, o.Bytes = vr.LinesClipped, vr.LineEndings, vr.InvalidUTF8, len(data)
		if !in.SummaryMode {
			o.Content = vr.Content
			rendered += len(fitLines(vr.Content, in.MaxTotalBytes-rendered)) // what applyBudget will keep
		}
		if !it.tgt.InGraph && in.AutoIngest {
			if why := autoIngestRefusal(it.tgt.Res, data); why != "" {
				o.IngestError = why
			} else if held+len(data) > batchViewIngestBytes {
				o.IngestError = fmt.Sprintf("not ingested: the batch holds over %d bytes to ingest already; view the file on its own", batchViewIngestBytes)
			} else {
				it.data, it.mod, held = data, fi.ModTime(), held+len(data)
			}
		}
	}
}

// batchIngest merges the files read that the graph lacks, in one build.
func batchIngest(c *tools.Call, items []*batchItem) {
	var pending []pendingIngest
	var who []*batchItem
	for _, it := range items {
		if it.data != nil {
			pending = append(pending, pendingIngest{gpath: it.tgt.GraphPath, ns: it.tgt.NS, data: it.data, mod: it.mod})
			who = append(who, it)
		}
	}
	if len(pending) == 0 {
		return
	}
	for i, err := range autoIngest(c, pending...) {
		it := who[i]
		it.data = nil
		if err != nil {
			it.out.IngestError = err.Error()
		} else {
			it.out.AutoIngested, it.out.InGraph = true, true
		}
	}
}

// outlineOf is a file's one-line summary and its symbols (bounded).
func outlineOf(b *session.Bundle, it *batchItem, all []viewNode) (string, []viewNode) {
	counts := map[string]int{}
	for _, n := range all {
		counts[n.Type]++
	}
	var parts []string
	for _, t := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, tools.Plural(counts[t], t))
	}
	s := fmt.Sprintf("%d lines", it.out.TotalLines)
	if len(parts) > 0 {
		s += "; " + strings.Join(parts, ", ")
	} else if it.out.FileNodeID == "" {
		s += "; not in the graph, no outline"
	}
	if id, ok := b.Graph.Lookup(it.out.FileNodeID); ok && it.out.FileNodeID != "" {
		if ex := strings.TrimSpace(b.Graph.Provenance(id).Excerpt); ex != "" {
			s += " — " + clipRunes(ex, 160)
		}
	}
	if len(all) > batchViewOutline {
		all = all[:batchViewOutline]
	}
	return s, all
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// applyBudget charges a file's content (or outline) to the budget: a file
// that does not fit is cut at a line; nothing fits once it is spent.
func applyBudget(out *batchViewResponse, it *batchItem) {
	o := &it.out
	switch o.Status {
	case "error":
		out.Errors++
		return
	case "omitted":
		out.Omitted++
		out.Truncated = true
		return
	}
	left := out.MaxTotalBytes - out.UsedBytes
	cost := len(o.Content) + len(o.Summary)
	for _, n := range o.Outline {
		cost += len(n.NodeID) + len(n.Label) + len(n.Type) + 48
	}
	switch {
	case cost <= left:
	case o.Content != "" && fitLines(o.Content, left) != "":
		o.Content = fitLines(o.Content, left)
		o.EndLine = o.StartLine + strings.Count(o.Content, "\n") - 1
		o.Truncated, o.NextOffset = true, o.EndLine+1
		cost = len(o.Content)
		out.Truncated = true
	case len(o.Outline) > 0 && left > len(o.Summary):
		keep, c := 0, len(o.Summary)
		for keep < len(o.Outline) {
			n := o.Outline[keep]
			if c+len(n.NodeID)+len(n.Label)+len(n.Type)+48 > left {
				break
			}
			c += len(n.NodeID) + len(n.Label) + len(n.Type) + 48
			keep++
		}
		o.Outline, o.Truncated, cost = o.Outline[:keep], true, c
		out.Truncated = true
	default:
		*o = batchFile{Input: o.Input, FilePath: o.FilePath, AbsolutePath: o.AbsolutePath, InGraph: o.InGraph, FileNodeID: o.FileNodeID,
			Status: "omitted", Error: fmt.Sprintf("over max_total_bytes (%d)", out.MaxTotalBytes)}
		out.Omitted++
		out.Truncated = true
		return
	}
	out.UsedBytes += cost
	out.Shown++
	if o.Truncated {
		out.Truncated = true
	}
	if o.AutoIngested {
		out.AutoIngested++
	}
}

// fitLines is the longest run of whole lines of content within n bytes.
func fitLines(content string, n int) string {
	if len(content) <= n {
		return content
	}
	if n <= 0 {
		return ""
	}
	return content[:strings.LastIndexByte(content[:n], '\n')+1]
}

// countInputErrors counts entries that named no file (bad globs, globs
// matching nothing).
func countInputErrors(items []*batchItem) int {
	n := 0
	for _, it := range items {
		if it.noFile {
			n++
		}
	}
	return n
}

func batchViewGuidance(c *tools.Call, out *batchViewResponse) tools.Guidance {
	var firstOK, firstCut, firstErr *batchFile
	for i := range out.Files {
		f := &out.Files[i]
		switch {
		case f.Status == "ok" && firstOK == nil:
			firstOK = f
		case f.Status == "error" && firstErr == nil:
			firstErr = f
		}
		if f.Status == "ok" && f.Truncated && firstCut == nil {
			firstCut = f
		}
	}
	switch {
	case firstOK == nil && firstErr == nil:
		return tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "batch_view"),
			NextStepHint: fmt.Sprintf("Every file was over the budget: raise max_total_bytes (up to %d), lower max_lines_per_file, or use summary_mode.", batchViewMaxBytes)}
	case firstOK == nil:
		return tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "glob", "search"),
			NextStepHint: fmt.Sprintf("No file could be shown (%s); list the indexed files with glob and retry with their paths.", firstErr.Error)}
	case firstCut != nil && !out.SummaryMode:
		return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "view"), NextSuggestedTarget: firstCut.FilePath,
			NextStepHint: fmt.Sprintf("%s was cut at line %d of %d; continue it with view at offset %d, or raise max_total_bytes / max_lines_per_file.", firstCut.FilePath, firstCut.EndLine, firstCut.TotalLines, firstCut.NextOffset)}
	}
	target := firstOK.FileNodeID
	if target == "" {
		target = firstOK.FilePath
	}
	next := tools.FirstTool(c.Registry, "impact", "view")
	hint := fmt.Sprintf("Before editing %s, check what depends on it with %s.", firstOK.FilePath, next)
	if out.Errors > 0 {
		hint = fmt.Sprintf("%s failed (see error and did_you_mean). ", tools.Plural(out.Errors, "entry")) + hint
	}
	return tools.Guidance{ProofState: "proving", NextSuggestedTool: next, NextSuggestedTarget: target, NextStepHint: hint}
}
