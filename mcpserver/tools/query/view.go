package query

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/code"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/gitmeta"
	"github.com/m1nd-go/m1nd/ingest/resolve"
	"github.com/m1nd-go/m1nd/ingest/walk"
	"github.com/m1nd-go/m1nd/mcpserver/pathguard"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/textsearch"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

const viewMaxLineBytes = 2000 // longer lines are clipped (minified code)

const // autoIngestMaxSize matches the ingest walker's file size limit.
autoIngestMaxSize = 4 << 20

// viewParams is view's input: by default 200 lines from line 1, at most
// 5000 lines per call.
type viewParams struct {
	FilePath   string `json:"file_path" jsonschema:"Root-relative path, or absolute inside a root." help:"Path relative to an ingest root (\"src/auth.py\") or absolute inside one." tool:"required"`
	Offset     int    `json:"offset" jsonschema:"First line (1-based)." help:"First line to show (1-based)." tool:"default=1,min=1,max=2147483648"`
	Limit      int    `json:"limit" help:"Maximum number of lines to show." tool:"default=200,min=1,max=5000"`
	AutoIngest bool   `json:"auto_ingest" help:"Extract the file and merge it into the graph when it is under an ingest root but not in the graph yet." tool:"default=true"`
}

func registerView(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "view",
		Title:       "View file lines",
		Description: "A known file's numbered lines (offset, limit) and the graph nodes defined in them.",
		Details: "Fast line-numbered file reading with offset/limit, bounded to the ingest roots. Lists the graph nodes defined in the lines shown. " +
			"A file under an ingest root that is not in the graph yet is extracted and merged into it first (auto_ingest).",
		// Read: auto_ingest publishes a new graph through the session's
		// build path, which serialises with other builds by itself.
		// Not read-only: auto_ingest adds the file viewed to the graph
		// (a new generation); viewing it again adds nothing more.
		Hints:     &tools.Hints{Idempotent: true},
		Class:     tools.Read,
		WhenToUse: "You already know the file: bounded, line-numbered reading before an edit, or to check what impact or why pointed at.",
		AvoidWhen: "You do not know where the code is yet: locate it with seek, search or activate first.",
		Next:      []string{"impact", "search", "view"},
		Example:   map[string]any{"agent_id": "claude", "file_path": "backend/auth.py", "offset": 1, "limit": 80},
	}, runView)
}

type viewNode struct {
	NodeID     string `json:"node_id"`
	Label      string `json:"label"`
	Type       string `json:"type"`
	LineStart  int    `json:"line_start"`
	LineEnd    int    `json:"line_end"`
	Deprecated bool   `json:"deprecated,omitempty" jsonschema:"Marked deprecated in the code."`
}

type viewResponse struct {
	FilePath     string `json:"file_path"`
	AbsolutePath string `json:"absolute_path"`
	Offset       int    `json:"offset"`
	Limit        int    `json:"limit"`
	StartLine    int    `json:"start_line"`
	EndLine      int    `json:"end_line"`
	TotalLines   int    `json:"total_lines"`
	// Truncated is set when lines follow EndLine; NextOffset continues.
	Truncated  bool `json:"truncated"`
	NextOffset int  `json:"next_offset,omitempty"`
	// Content is the lines shown, each as "%6d\t<text>\n".
	Content      string `json:"content"`
	LinesClipped int    `json:"lines_clipped,omitempty"`
	// LineEndings is "lf", "crlf", "mixed" or "none" (one line, no
	// terminator); '\r' is never shown.
	LineEndings string `json:"line_endings"`
	// InvalidUTF8 is set when bytes that are not UTF-8 were shown as U+FFFD.
	InvalidUTF8  bool       `json:"invalid_utf8,omitempty"`
	Bytes        int        `json:"bytes"`
	InGraph      bool       `json:"in_graph"`
	AutoIngested bool       `json:"auto_ingested"`
	IngestError  string     `json:"auto_ingest_error,omitempty"`
	FileNodeID   string     `json:"file_node_id,omitempty"`
	Nodes        []viewNode `json:"nodes"`
	ElapsedMs    float64    `json:"elapsed_ms"`
	tools.Guidance
}

func runView(c *tools.Call, in viewParams) (viewResponse, error) {
	start := time.Now()
	raw := in.FilePath
	offset, limit := in.Offset, in.Limit
	if strings.TrimSpace(raw) == "" {
		return viewResponse{}, tools.Errorf("file_path is a path relative to an ingest root (\"src/auth.py\") or absolute inside one.", "file_path is empty").
			WithExample(map[string]any{"agent_id": "claude", "file_path": "src/main.go"})
	}

	// 1. Resolve the path against the roots and check the graph.
	var tgt tools.ViewTarget
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		var err error
		tgt, err = tools.ResolveView(b, raw, "file_path")
		return err
	})
	if err != nil {
		return viewResponse{}, err
	}

	// 2. Read the file.
	data, fi, err := tools.ReadView(tgt.Res, "file_path")
	if err != nil {
		return viewResponse{}, err
	}
	out := viewResponse{FilePath: tgt.GraphPath, AbsolutePath: tgt.Res.Abs, Offset: offset, Limit: limit, Bytes: len(data), InGraph: tgt.InGraph, Nodes: []viewNode{}}

	// 3. auto_ingest: merge the file into the graph.
	if !tgt.InGraph && in.AutoIngest {
		if why := autoIngestRefusal(tgt.Res, data); why != "" {
			out.IngestError = why
		} else if errs := autoIngest(c, pendingIngest{gpath: tgt.GraphPath, ns: tgt.NS, data: data, mod: fi.ModTime()}); errs[0] != nil {
			out.IngestError = errs[0].Error()
		} else {
			out.AutoIngested, out.InGraph = true, true
		}
	}

	// 4. The lines.
	if err := renderLines(&out, data, offset, limit); err != nil {
		return viewResponse{}, err
	}

	// 5. Nodes defined in the range (from the graph as it is now).
	err = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		var all []viewNode
		out.FileNodeID, all = fileNodes(b, tgt.GraphPath)
		out.Nodes = nodesInRange(all, out.StartLine, out.EndLine)
		return nil
	})
	if err != nil {
		return viewResponse{}, err
	}
	out.Guidance = viewGuidance(c, &out)
	out.ElapsedMs = tools.Ms(time.Since(start))
	return out, nil
}

// autoIngestRefusal says why a viewed file stays out of the graph ("" when
// it may go in): what a walk of the root would leave out (secrets, skipped
// and ignored files) stays out when viewed, too.
func autoIngestRefusal(res pathguard.Resolved, data []byte) string {
	if admitted, why := walk.Admit(res.Root, res.Rel, walk.Options{}); !admitted {
		return "not ingested: " + why
	}
	if len(data) > autoIngestMaxSize {
		return fmt.Sprintf("not ingested: %d bytes is over the %d-byte ingest limit", len(data), autoIngestMaxSize)
	}
	return ""
}

// fileNodes are the file node's ID and every node defined in the file
// (with a line range), by line; a node spanning more comes first.
func fileNodes(b *session.Bundle, graphPath string) (string, []viewNode) {
	g := b.Graph
	var fileID string
	if id, ok := g.Lookup(tools.BundleSpace(b).FileID(graphPath)); ok {
		fileID = g.ExternalID(id)
	}
	gf := tools.BundleGraphFiles(b)
	i, ok := gf.ByPath[graphPath]
	if !ok {
		return fileID, nil
	}
	f := &gf.Files[i]
	if fileID == "" && f.Node != graph.NoNode {
		fileID = g.ExternalID(f.Node)
	}
	var out []viewNode
	for _, id := range f.Nodes {
		p := g.Provenance(id)
		ls, le := int(p.LineStart), int(max(p.LineEnd, p.LineStart))
		if ls == 0 {
			continue
		}
		out = append(out, viewNode{NodeID: g.ExternalID(id), Label: g.Label(id), Type: tools.TypeName(g.Type(id)), LineStart: ls, LineEnd: le, Deprecated: tools.IsDeprecated(g, id)})
	}
	slices.SortStableFunc(out, func(a, b viewNode) int {
		if a.LineStart != b.LineStart {
			return a.LineStart - b.LineStart
		}
		return (b.LineEnd - b.LineStart) - (a.LineEnd - a.LineStart)
	})
	return fileID, out
}

// nodesInRange keeps the nodes overlapping lines [start, end].
func nodesInRange(all []viewNode, start, end int) []viewNode {
	out := []viewNode{}
	for _, n := range all {
		if n.LineEnd >= start && n.LineStart <= end {
			out = append(out, n)
		}
	}
	return out
}

// renderLines fills the line window, counts and line-ending facts.
func renderLines(out *viewResponse, data []byte, offset, limit int) error {
	total := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		total++
	}
	out.TotalLines = total
	crlf := bytes.Count(data, []byte("\r\n"))
	lf := bytes.Count(data, []byte{'\n'})
	switch {
	case lf == 0:
		out.LineEndings = "none"
	case crlf == lf:
		out.LineEndings = "crlf"
	case crlf == 0:
		out.LineEndings = "lf"
	default:
		out.LineEndings = "mixed"
	}
	if offset > max(total, 1) {
		return tools.Errorf(fmt.Sprintf("The file has %d lines; offset is 1-based and at most %d.", total, max(total, 1)), "offset %d is past the end of %s (%d lines)", offset, out.FilePath, total).
			WithExample(map[string]any{"agent_id": "claude", "file_path": out.FilePath, "offset": max(1, total-limit+1), "limit": limit})
	}
	out.StartLine = offset
	out.EndLine = min(total, offset+limit-1)
	if total == 0 {
		out.StartLine, out.EndLine = 0, 0
		return nil
	}
	ls, _ := lineOffset(data, offset)
	var sb strings.Builder
	for n := offset; n <= out.EndLine; n++ {
		text := textsearch.LineText(data, ls)
		if len(text) > viewMaxLineBytes {
			cut := viewMaxLineBytes
			for cut > 0 && !utf8.RuneStart(text[cut]) {
				cut--
			}
			text = text[:cut]
			out.LinesClipped++
			fmt.Fprintf(&sb, "%6d\t%s… [line clipped at %d bytes]\n", n, toValidUTF8(text, out), viewMaxLineBytes)
		} else {
			fmt.Fprintf(&sb, "%6d\t%s\n", n, toValidUTF8(text, out))
		}
		if i := bytes.IndexByte(data[ls:], '\n'); i >= 0 {
			ls += i + 1
		} else {
			ls = len(data)
		}
	}
	out.Content = sb.String()
	if out.EndLine < total {
		out.Truncated = true
		out.NextOffset = out.EndLine + 1
	}
	return nil
}

func toValidUTF8(b []byte, out *viewResponse) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out.InvalidUTF8 = true
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

func viewGuidance(c *tools.Call, out *viewResponse) tools.Guidance {
	if out.Truncated {
		return tools.Guidance{ProofState: "proving", NextSuggestedTool: "view", NextSuggestedTarget: out.FilePath,
			NextStepHint: fmt.Sprintf("Lines %d–%d of %d shown; continue with offset %d, or search with scope %q to jump to what you need.", out.StartLine, out.EndLine, out.TotalLines, out.NextOffset, out.FilePath)}
	}
	target := out.FileNodeID
	if target == "" {
		return tools.Guidance{ProofState: "proving", NextSuggestedTool: "search",
			NextStepHint: "The file is not in the graph, so its callers and dependents are unknown; ingest its repository (or view it with auto_ingest) to connect it."}
	}
	next := "impact"
	if c.Registry != nil {
		if t := tools.FirstTool(c.Registry, "surgical_context", "impact"); t != "" {
			next = t
		}
	}
	return tools.Guidance{ProofState: "proving", NextSuggestedTool: next, NextSuggestedTarget: target,
		NextStepHint: fmt.Sprintf("Before editing %s, check what depends on it with %s.", out.FilePath, next)}
}

// pendingIngest is a viewed file to merge into the graph.
type pendingIngest struct {
	gpath, ns string
	data      []byte
	mod       time.Time
}

// autoIngest extracts files and merges them into the current graph in one
// build, publishing one new graph generation; a file another call merged
// first is skipped. It returns one error (or nil) per file.
func autoIngest(c *tools.Call, files ...pendingIngest) []error {
	errs := make([]error, len(files))
	_, err := c.Session.Build("graph_merged", func(old *session.Bundle) (*graph.Graph, []session.Root, error) {
		var todo []int
		for i, f := range files {
			if _, ok := old.Graph.Lookup(tools.BundleSpace(old).FileID(f.gpath)); !ok {
				todo = append(todo, i)
			}
		}
		if len(todo) == 0 {
			return nil, nil, errAlreadyInGraph
		}
		// Clone copies the per-node firing records, which plasticity
		// writes under its own lock.
		var g *graph.Graph
		c.Session.Plasticity.Locked(func() { g = old.Graph.Clone() })
		merged := 0
		for _, i := range todo {
			f := files[i]
			rel := f.gpath
			if f.ns != "" {
				rel = strings.TrimPrefix(f.gpath, f.ns+"/")
			}
			if errs[i] = mergeFile(g, rel, f.ns, f.data, float64(f.mod.UnixNano())/1e9); errs[i] == nil {
				merged++
			}
		}
		if merged == 0 {
			return nil, nil, errNothingMerged
		}
		g.Finalize()
		return g, old.Roots, nil
	})
	if err != nil && !errors.Is(err, errAlreadyInGraph) && !errors.Is(err, errNothingMerged) {
		for i := range errs {
			if errs[i] == nil {
				errs[i] = err
			}
		}
	}
	return errs
}

// errAlreadyInGraph aborts an auto-ingest that other calls finished
// first; errNothingMerged one whose every file failed to extract.
var (
	errAlreadyInGraph = errors.New("already in the graph")
	errNothingMerged  = errors.New("nothing merged")
)

// mergeFile adds one extracted file to g (not finalized): its nodes with
// provenance, the extractor's edges, containment by its directory's node
// (created with its ancestors when new),
// and references bound to existing nodes by name (same directory first,
// else a unique match; ambiguous ones at half weight). It is the
// single-file form of the code adapter's build; a full re-ingest resolves
// references with import hints and may bind a few differently.
func mergeFile(g *graph.Graph, rel, ns string, data []byte, mtime float64) error {
	r, xerr := extract.ExtractFile(rel, data)
	if r == nil {
		return fmt.Errorf("extract %s: %v", rel, xerr)
	}
	sp := tools.Spaced(ns)
	ids := map[string]graph.NodeID{}
	for _, n := range r.Nodes {
		id, _, err := g.UpsertNode(graph.Node{
			ExternalID: sp.Id(n.ID), Label: n.Label, Type: n.Type, Tags: n.Tags,
			LastModified: mtime, ChangeFrequency: gitmeta.NotGitFrequency,
			Provenance: graph.Provenance{SourcePath: sp.Path(r.Path), LineStart: n.Line, LineEnd: n.EndLine, Excerpt: n.Excerpt, Namespace: code.NamespaceCode},
		})
		if err != nil {
			return fmt.Errorf("add %s: %w", n.ID, err)
		}
		ids[n.ID] = id
	}
	fileID, ok := ids[extract.FileID(r.Path)]
	if !ok {
		return fmt.Errorf("extract %s: no file node", rel)
	}
	edge := func(src, dst graph.NodeID, rel string, w float32) {
		if src == dst {
			return
		}
		cs, dir := code.CausalStrength(rel)
		_ = g.AddEdge(graph.Edge{Source: src, Target: dst, Relation: rel, Weight: w, Direction: dir, CausalStrength: cs})
	}
	dir := path.Dir(r.Path)
	if dir != "." {
		d, err := ensureDirNode(g, sp, dir, mtime, edge)
		if err != nil {
			return err
		}
		edge(d, fileID, extract.RelContains, code.WeightCertain)
	}
	lookup := func(ext string) (graph.NodeID, bool) {
		if id, ok := ids[ext]; ok {
			return id, true
		}
		return g.Lookup(sp.Id(ext))
	}
	for _, e := range r.Edges {
		src, ok := lookup(e.Source)
		if !ok {
			continue
		}
		if name, isRef := strings.CutPrefix(e.Target, extract.RefPrefix); isRef {
			if dst, w, ok := bindRef(g, name, sp.Path(dir), fileID); ok {
				edge(src, dst, e.Relation, w)
			}
			continue
		}
		if dst, ok := lookup(e.Target); ok {
			edge(src, dst, e.Relation, code.WeightCertain)
		}
	}
	return nil
}

// ensureDirNode returns the directory node of dir, adding it and any
// missing ancestors (linked parent → child by contains) the way the code
// adapter shapes directories; the root itself has no node.
func ensureDirNode(g *graph.Graph, sp tools.Spaced, dir string, mtime float64, edge func(src, dst graph.NodeID, rel string, w float32)) (graph.NodeID, error) {
	if id, ok := g.Lookup(sp.Id(resolve.DirID(dir))); ok {
		return id, nil
	}
	id, err := g.AddNode(graph.Node{
		ExternalID: sp.Id(resolve.DirID(dir)), Label: path.Base(dir), Type: graph.Directory, Tags: []string{"directory"},
		LastModified: mtime, ChangeFrequency: gitmeta.NotGitFrequency,
		Provenance: graph.Provenance{SourcePath: sp.Path(dir), Namespace: code.NamespaceCode},
	})
	if err != nil {
		return graph.NoNode, fmt.Errorf("add directory %s: %w", dir, err)
	}
	if parent := path.Dir(dir); parent != "." {
		pid, err := ensureDirNode(g, sp, parent, mtime, edge)
		if err != nil {
			return graph.NoNode, err
		}
		edge(pid, id, extract.RelContains, code.WeightCertain)
	}
	return id, nil
}

// bindRef resolves "ref::name" against nodes already in the graph.
func bindRef(g *graph.Graph, name, dir string, self graph.NodeID) (graph.NodeID, float32, bool) {
	base := name
	if i := strings.LastIndexAny(base, ".:/"); i >= 0 {
		base = base[i+1:]
	}
	var cands, near []graph.NodeID
	for _, id := range g.NodesByLabel(base) {
		if id == self || g.Type(id) == graph.Directory {
			continue
		}
		cands = append(cands, id)
		if path.Dir(g.SourcePath(id)) == dir {
			near = append(near, id)
		}
	}
	switch {
	case len(near) == 1:
		return near[0], code.WeightCertain, true
	case len(near) > 1:
		return near[0], code.WeightAmbiguous, true
	case len(cands) == 1:
		return cands[0], code.WeightCertain, true
	case len(cands) > 1 && len(cands) <= 3:
		return cands[0], code.WeightAmbiguous, true
	}
	return graph.NoNode, 0, false
}
