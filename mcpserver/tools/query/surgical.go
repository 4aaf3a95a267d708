package query

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/textsearch"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// Budgets: the target file is shown up to max_source_bytes; connected
// files contribute regions up to max_excerpt_bytes in total.
const (
	surgicalSourceDefault  = 256 << 10
	surgicalSourceMax      = edit.MaxFileSize
	surgicalExcerptDefault = 48 << 10
)

// surgicalParams is surgical_context's input. Its tags repeat
// surgicalSourceDefault and surgicalSourceMax (declare_test.go holds them
// together).
type surgicalParams struct {
	FilePath       string `json:"file_path" jsonschema:"Root-relative, absolute, or a file node id." help:"The file to edit: relative to an ingest root (\"backend/auth.py\"), absolute inside one, or its file node id." tool:"required"`
	MaxSourceBytes int    `json:"max_source_bytes" help:"The file's contents are shown up to this many bytes (content_truncated says when cut)." tool:"default=262144,min=1024,max=4194304"`
	MaxNeighbors   int    `json:"max_neighbors" jsonschema:"Callers and callees listed, each." tool:"default=30,min=1,max=500"`
}

// surgicalV2Params is surgical_context_v2's input: surgical_context's
// parameters, written again (declare_test.go holds them equal), and the
// excerpt budgets (max_excerpt_bytes' default is surgicalExcerptDefault).
type surgicalV2Params struct {
	FilePath          string `json:"file_path" jsonschema:"Root-relative, absolute, or a file node id." help:"The file to edit: relative to an ingest root (\"backend/auth.py\"), absolute inside one, or its file node id." tool:"required"`
	MaxSourceBytes    int    `json:"max_source_bytes" help:"The file's contents are shown up to this many bytes (content_truncated says when cut)." tool:"default=262144,min=1024,max=4194304"`
	MaxNeighbors      int    `json:"max_neighbors" jsonschema:"Callers and callees listed, each." tool:"default=30,min=1,max=500"`
	MaxConnectedFiles int    `json:"max_connected_files" help:"Connected files excerpted (callers first, then tests, then callees)." tool:"default=8,min=0,max=50"`
	MaxRegionLines    int    `json:"max_region_lines" help:"Lines per excerpted region (a longer function shows its head)." tool:"default=40,min=1,max=400"`
	ContextLines      int    `json:"context_lines" help:"Lines of context around each region." tool:"default=2,min=0,max=20"`
	MaxExcerptBytes   int    `json:"max_excerpt_bytes" help:"Total bytes of excerpts across connected files." tool:"default=49152,min=1024,max=1048576"`
	IncludeTests      bool   `json:"include_tests" help:"Excerpt the linked test files too." tool:"default=true"`
	Detail            string `json:"detail" help:"brief: the file, its symbols, excerpts of the few connected files with the most links to it (at most 3, 4 KB, 15 lines a region, within the budgets given) and the other connected files listed with their role, relations, the symbols they use and their lines (up to 12, not_listed counts the rest), instead of the callers, callees and tests lists; full: every list and excerpt within the budgets." tool:"default=brief,enum=brief|full"`
}

func registerSurgical(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "surgical_context",
		Title:       "Everything to edit one file",
		Description: "A file's text and sha256, symbols, callers, callees and tests: all to edit it.",
		Details:     "Complete context for editing a file in one call: its contents (with sha256 for apply's expected_sha256), its symbol table (functions, classes, methods with their lines), its callers (who calls, imports or uses its symbols, with file and line), its callees (what it uses), and the tests linked to it.",
		Class:       tools.Read,
		WhenToUse:   "Before a single-file edit, once seek, search or impact told you which file.",
		AvoidWhen:   "You do not know the file yet (seek, search, impact first), or the edit spans its callers (surgical_context_v2 shows their code too).",
		Next:        []string{"apply", "edit_preview", "surgical_context_v2"},
		Example:     map[string]any{"agent_id": "claude", "file_path": "backend/session.py"},
	}, runSurgical)
	tools.Add(r, tools.Tool{
		Name:        "surgical_context_v2",
		Title:       "A file and its connected code",
		Description: "surgical_context plus excerpts of callers, tests and callees, for a multi-file edit.",
		Details: "surgical_context plus bounded source excerpts of the connected files: the regions of the callers that call into the file, of the callees it calls, and of its tests — one call instead of reading five files. Budgets bound the files, the lines per region and the total bytes. " +
			"By default (detail brief) the connected files stand for the callers, callees and tests lists: each with its role, how many links join it to the file, their relations, the symbols they use and the lines that link; the few with the most links are excerpted within small budgets, a few more listed, the rest counted in not_listed. detail full gives every list and the excerpts within the budgets given.",
		Class:     tools.Read,
		WhenToUse: "Before a multi-file edit (a function with its callers and tests) — then apply_batch writes them together.",
		AvoidWhen: "You do not know the file yet (seek, search, impact first).",
		Next:      []string{"apply_batch", "edit_preview", "apply"},
		Example:   map[string]any{"agent_id": "claude", "file_path": "backend/session.py", "max_connected_files": 4},
	}, runSurgicalV2)
}

type surgicalOutput struct {
	FilePath         string          `json:"file_path"`
	AbsolutePath     string          `json:"absolute_path"`
	FileNodeID       string          `json:"file_node_id,omitempty"`
	InGraph          bool            `json:"in_graph"`
	SHA256           string          `json:"sha256" jsonschema:"The file's SHA-256: pass it as expected_sha256 to apply or apply_batch so a change made since is caught."`
	Bytes            int             `json:"bytes"`
	TotalLines       int             `json:"total_lines"`
	LineEndings      string          `json:"line_endings" jsonschema:"lf, crlf, mixed or none; apply keeps it."`
	Content          string          `json:"content" jsonschema:"The file's text (not line-numbered), up to max_source_bytes."`
	ContentTruncated bool            `json:"content_truncated"`
	Symbols          []surgicalSym   `json:"symbols" jsonschema:"Entities defined in the file, by line, each with how many callers and callees it has."`
	Callers          []surgicalLink  `json:"callers,omitzero" jsonschema:"Code outside the file that calls, imports, inherits or uses its symbols (surgical_context_v2: detail full)."`
	Callees          []surgicalLink  `json:"callees,omitzero" jsonschema:"What the file's code calls, imports or uses outside the file (surgical_context_v2: detail full)."`
	Tests            []surgicalTest  `json:"tests,omitzero" jsonschema:"Test files linked to the file (tests edges) or calling into it (surgical_context_v2: detail full)."`
	NotListed        notListed       `json:"not_listed"`
	ConnectedFiles   []connectedFile `json:"connected_files,omitempty" jsonschema:"surgical_context_v2: excerpts of the connected files' regions (detail brief: of the closest few, the others listed)."`
	ExcerptBytes     int             `json:"excerpt_bytes,omitempty"`
	ExcerptTruncated bool            `json:"excerpt_truncated,omitempty" jsonschema:"A budget cut the excerpts: raise max_excerpt_bytes or max_connected_files, or view the files."`
	Detail           string          `json:"detail,omitempty" jsonschema:"Set when the answer is brief: what detail full adds."`
	ElapsedMs        float64         `json:"elapsed_ms"`
	tools.Guidance
}

type surgicalSym struct {
	NodeID     string `json:"node_id"`
	Label      string `json:"label"`
	Type       string `json:"type"`
	LineStart  int    `json:"line_start"`
	LineEnd    int    `json:"line_end"`
	Callers    int    `json:"callers"`
	Callees    int    `json:"callees"`
	Deprecated bool   `json:"deprecated,omitempty" jsonschema:"Marked deprecated in the code."`
}

type surgicalLink struct {
	NodeID     string `json:"node_id"`
	Label      string `json:"label"`
	Type       string `json:"type"`
	File       string `json:"file,omitempty"`
	Line       int    `json:"line,omitempty"`
	Relation   string `json:"relation"`
	Symbol     string `json:"symbol" jsonschema:"The node of this file the link attaches to."`
	Deprecated bool   `json:"deprecated,omitempty" jsonschema:"Marked deprecated in the code."`
}

type surgicalTest struct {
	File   string `json:"file"`
	NodeID string `json:"node_id"`
	Via    string `json:"via" jsonschema:"tests (a tests edge) or calls (a test's code uses the file)."`
}

type notListed struct {
	Callers int `json:"callers"`
	Callees int `json:"callees"`
	// Tests and Files are counted by a brief surgical_context_v2, which
	// lists connected files instead of callers, callees and tests.
	Tests int `json:"tests,omitempty"`
	Files int `json:"connected_files,omitempty" jsonschema:"Connected files neither excerpted nor listed (detail brief)."`
}

type connectedFile struct {
	FilePath string `json:"file_path"`
	Role     string `json:"role" jsonschema:"caller, callee or test."`
	// Links, Relations, Symbols and Lines describe the file in a brief
	// answer, excerpted or not.
	Links     int             `json:"links,omitempty" jsonschema:"How many links join it to the file (detail brief)."`
	Relations []string        `json:"relations,omitempty" jsonschema:"How they link: calls, imports, references, tests… (detail brief)."`
	Symbols   []string        `json:"symbols,omitempty" jsonschema:"The file's symbols they link to (detail brief)."`
	Lines     []int           `json:"lines,omitempty" jsonschema:"Its first lines that link (detail brief)."`
	Regions   []excerptRegion `json:"regions,omitzero"`
	Truncated bool            `json:"truncated,omitempty"`
	Error     string          `json:"error,omitempty"`
}

type excerptRegion struct {
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	NodeID    string `json:"node_id,omitempty"`
	Label     string `json:"label,omitempty"`
	Content   string `json:"content" jsonschema:"The lines, each \"%6d\\t<text>\"."`
}

func (o surgicalOutput) Coverage() (read, seen []string) {
	read = []string{o.FilePath}
	for _, f := range o.ConnectedFiles {
		if len(f.Regions) > 0 {
			read = append(read, f.FilePath)
		}
	}
	seen = []string{o.FileNodeID}
	for _, s := range o.Symbols {
		seen = append(seen, s.NodeID)
	}
	for _, l := range append(slices.Clone(o.Callers), o.Callees...) {
		seen = append(seen, l.NodeID)
	}
	return read, seen
}

func runSurgical(c *tools.Call, in surgicalParams) (surgicalOutput, error) {
	return surgicalContext(c, surgicalV2Params{FilePath: in.FilePath, MaxSourceBytes: in.MaxSourceBytes, MaxNeighbors: in.MaxNeighbors}, false)
}

func runSurgicalV2(c *tools.Call, in surgicalV2Params) (surgicalOutput, error) {
	return surgicalContext(c, in, true)
}

// surgicalContext answers both tools; v2 adds the connected files'
// excerpts.
func surgicalContext(c *tools.Call, in surgicalV2Params, v2 bool) (surgicalOutput, error) {
	start := time.Now()
	if strings.TrimSpace(in.FilePath) == "" {
		return surgicalOutput{}, tools.Errorf("file_path names the file to edit, e.g. \"backend/auth.py\".", "file_path is empty").
			WithExample(map[string]any{"agent_id": "claude", "file_path": "backend/auth.py"})
	}
	var out surgicalOutput
	var brief bool
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		raw := strings.TrimPrefix(in.FilePath, "file::")
		tgt, err := tools.ResolveView(b, raw, "file_path")
		if err != nil {
			return err
		}
		data, _, err := tools.ReadView(tgt.Res, "file_path")
		if err != nil {
			return err
		}
		out = surgicalOutput{FilePath: tgt.GraphPath, AbsolutePath: tgt.Res.Abs, InGraph: tgt.InGraph, SHA256: edit.SHA256(data), Bytes: len(data)}
		out.fillContent(data, in.MaxSourceBytes)
		ctx := newSurgicalCtx(b, tgt.GraphPath, in.MaxNeighbors)
		ctx.fill(&out)
		brief = v2 && in.Detail != "full"
		switch {
		case brief:
			ctx.briefExcerpts(&out, in)
		case v2:
			ctx.excerpts(&out, in)
		}
		return nil
	})
	if err != nil {
		return surgicalOutput{}, err
	}
	out.Guidance = surgicalGuidance(c, &out, v2)
	if brief {
		// The connected files stand for the lists.
		out.NotListed = notListed{Callers: len(out.Callers) + out.NotListed.Callers, Callees: len(out.Callees) + out.NotListed.Callees, Tests: len(out.Tests), Files: out.NotListed.Files}
		out.Callers, out.Callees, out.Tests = nil, nil, nil
		out.Detail = surgicalBriefNote
	}
	out.ElapsedMs = tools.Ms(time.Since(start))
	return out, nil
}

// fillContent sets the content (cut at a line end within max bytes),
// the line count and the line-ending style.
func (o *surgicalOutput) fillContent(data []byte, max int) {
	var vr viewResponse
	_ = renderLines(&vr, data, 1, 1)
	o.TotalLines, o.LineEndings = vr.TotalLines, vr.LineEndings
	text := data
	if len(text) > max {
		cut := bytes.LastIndexByte(text[:max], '\n') + 1
		if cut == 0 {
			cut = max
		}
		text, o.ContentTruncated = text[:cut], true
	}
	o.Content = strings.ToValidUTF8(string(text), "\uFFFD")
}

// surgicalCtx is the graph around one file.
type surgicalCtx struct {
	b        *session.Bundle
	g        *graph.Graph
	gpath    string
	file     graph.NodeID
	own      map[graph.NodeID]bool // the file node and its entities
	ownOrder []graph.NodeID
	max      int
	callers  []surgicalLink
	callees  []surgicalLink
	tests    []surgicalTest
	// nodes of the links, for excerpts
	callerNodes, calleeNodes, testNodes []graph.NodeID
	// linkAt is a caller's first line naming this file's code (linkingLines)
	linkAt map[graph.NodeID]int
}

func newSurgicalCtx(b *session.Bundle, gpath string, max int) *surgicalCtx {
	s := &surgicalCtx{b: b, g: b.Graph, gpath: gpath, file: graph.NoNode, own: map[graph.NodeID]bool{}, max: max}
	if id, ok := s.g.Lookup(tools.BundleSpace(b).FileID(gpath)); ok {
		s.file = id
		s.own[id], s.ownOrder = true, append(s.ownOrder, id)
	}
	if i, ok := tools.BundleGraphFiles(b).ByPath[gpath]; ok {
		for _, id := range tools.BundleGraphFiles(b).Files[i].Nodes {
			if !s.own[id] {
				s.own[id], s.ownOrder = true, append(s.ownOrder, id)
			}
		}
	}
	return s
}

// fill lists the symbols, callers, callees and tests.
func (s *surgicalCtx) fill(o *surgicalOutput) {
	g := s.g
	if s.file != graph.NoNode {
		o.FileNodeID = g.ExternalID(s.file)
	}
	inCount, outCount := map[graph.NodeID]int{}, map[graph.NodeID]int{}
	seen := map[[3]string]bool{}
	testSeen := map[string]bool{}
	for _, own := range s.ownOrder {
		for _, n := range g.Neighbors(own) {
			if s.own[n.Node] || g.Type(n.Node) == graph.Directory {
				continue
			}
			kind := analysis.ClassifyRelation(n.Relation)
			// other depends on own: a caller; own depends on other: a callee.
			var callerSide bool
			switch {
			case kind == analysis.DependsOn:
				callerSide = n.Incoming
			case kind == analysis.DependedOnBy:
				callerSide = !n.Incoming
			default:
				continue
			}
			other := n.Node
			if n.Relation == "tests" && callerSide {
				s.addTest(tools.FileOf(g, other), "tests", testSeen)
				continue
			}
			key := [3]string{g.ExternalID(other), n.Relation, g.ExternalID(own)}
			if seen[key] || n.Relation == "tests" {
				continue
			}
			seen[key] = true
			link := s.link(other, own, n.Relation)
			if callerSide {
				inCount[own]++
				s.callers, s.callerNodes = append(s.callers, link), append(s.callerNodes, other)
				if edit.IsTestFile(link.File) {
					s.addTest(tools.FileOf(g, other), "calls", testSeen)
				}
			} else {
				outCount[own]++
				s.callees, s.calleeNodes = append(s.callees, link), append(s.calleeNodes, other)
			}
		}
	}
	_, syms := fileNodes(s.b, s.gpath)
	o.Symbols = []surgicalSym{}
	for _, v := range syms {
		id, _ := g.Lookup(v.NodeID)
		o.Symbols = append(o.Symbols, surgicalSym{NodeID: v.NodeID, Label: v.Label, Type: v.Type, LineStart: v.LineStart, LineEnd: v.LineEnd, Callers: inCount[id], Callees: outCount[id], Deprecated: v.Deprecated})
	}
	s.linkingLines()
	sortLinks(s.callers, s.callerNodes)
	sortLinks(s.callees, s.calleeNodes)
	o.Callers, o.NotListed.Callers = clipLinks(s.callers, s.max)
	o.Callees, o.NotListed.Callees = clipLinks(s.callees, s.max)
	slices.SortFunc(s.tests, func(a, b surgicalTest) int { return strings.Compare(a.File, b.File) })
	o.Tests = s.tests
	if o.Tests == nil {
		o.Tests = []surgicalTest{}
	}
}

func (s *surgicalCtx) addTest(f graph.NodeID, via string, seen map[string]bool) {
	p := s.g.SourcePath(f)
	if p == "" || seen[p] {
		return
	}
	seen[p] = true
	s.tests = append(s.tests, surgicalTest{File: p, NodeID: s.g.ExternalID(f), Via: via})
	s.testNodes = append(s.testNodes, f)
}

func (s *surgicalCtx) link(other, own graph.NodeID, rel string) surgicalLink {
	g := s.g
	ref := tools.RefOf(g, other)
	return surgicalLink{NodeID: ref.NodeID, Label: ref.Label, Type: ref.Type, File: g.SourcePath(other), Line: int(g.Provenance(other).LineStart), Relation: rel, Symbol: g.ExternalID(own), Deprecated: tools.IsDeprecated(g, other)}
}

// sortLinks orders links (and their nodes alike) by file, line, node.
func sortLinks(ls []surgicalLink, nodes []graph.NodeID) {
	idx := make([]int, len(ls))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		x, y := ls[a], ls[b]
		if c := strings.Compare(x.File, y.File); c != 0 {
			return c
		}
		if x.Line != y.Line {
			return x.Line - y.Line
		}
		if c := strings.Compare(x.NodeID, y.NodeID); c != 0 {
			return c
		}
		return strings.Compare(x.Symbol, y.Symbol)
	})
	l2, n2 := slices.Clone(ls), slices.Clone(nodes)
	for i, j := range idx {
		ls[i], nodes[i] = l2[j], n2[j]
	}
}

func clipLinks(ls []surgicalLink, max int) ([]surgicalLink, int) {
	if ls == nil {
		return []surgicalLink{}, 0
	}
	if len(ls) > max {
		return ls[:max], len(ls) - max
	}
	return ls, 0
}

// excerpts adds the regions of the connected files, within the budgets:
// callers first (the code that breaks when the file changes), then tests,
// then callees.
func (s *surgicalCtx) excerpts(o *surgicalOutput, in surgicalV2Params) {
	type want struct {
		role  string
		nodes []graph.NodeID
	}
	byFile := map[string]*want{}
	var order []string
	add := func(role string, nodes []graph.NodeID) {
		for _, n := range nodes {
			p := s.g.SourcePath(n)
			if p == "" || p == s.gpath || s.g.Type(n) == graph.Directory {
				continue
			}
			w := byFile[p]
			if w == nil {
				w = &want{role: role}
				if edit.IsTestFile(p) {
					w.role = "test"
				}
				byFile[p] = w
				order = append(order, p)
			}
			w.nodes = append(w.nodes, n)
		}
	}
	add("caller", s.callerNodes)
	if in.IncludeTests {
		add("test", s.testNodes)
	}
	add("callee", s.calleeNodes)
	budget := in.MaxExcerptBytes
	o.ConnectedFiles = []connectedFile{}
	for _, p := range order {
		if len(o.ConnectedFiles) == in.MaxConnectedFiles {
			o.ExcerptTruncated = true
			break
		}
		cf := s.excerptFile(p, byFile[p].role, byFile[p].nodes, in, &budget)
		o.ConnectedFiles = append(o.ConnectedFiles, cf)
		if cf.Truncated {
			o.ExcerptTruncated = true
		}
		if budget <= 0 {
			break
		}
	}
	o.ExcerptBytes = in.MaxExcerptBytes - max(budget, 0)
}

// excerptFile reads one connected file and cuts its regions: each linked
// node's lines (its head when long) with context; a node without lines
// (a module importing the file) shows the lines naming this file's
// symbols.
func (s *surgicalCtx) excerptFile(p, role string, nodes []graph.NodeID, in surgicalV2Params, budget *int) connectedFile {
	cf := connectedFile{FilePath: p, Role: role, Regions: []excerptRegion{}}
	res, err := tools.BundleGuard(s.b).Resolve(tools.BundleSpace(s.b).DiskPath(p))
	if err != nil || !res.Exists {
		cf.Error = "not readable inside the ingest roots"
		return cf
	}
	data, _, err := tools.ReadGuarded(res, "file_path")
	if err != nil || textsearch.IsBinary(data) {
		cf.Error = "not a readable text file"
		return cf
	}
	lines := strings.Split(string(data), "\n")
	var spans [][3]int // start, end, node index
	for i, n := range nodes {
		pv := s.g.Provenance(n)
		if pv.LineStart > 0 && s.g.Type(n) != graph.File {
			end := min(int(max(pv.LineEnd, pv.LineStart)), int(pv.LineStart)+in.MaxRegionLines-1)
			spans = append(spans, [3]int{int(pv.LineStart), end, i})
			if at := s.linkAt[n]; at > end {
				// a long caller: its head, and the line that calls in
				spans = append(spans, [3]int{at, at, i})
			}
			continue
		}
		for _, l := range s.mentions(lines) {
			spans = append(spans, [3]int{l, l, -1})
		}
	}
	slices.SortFunc(spans, func(a, b [3]int) int { return a[0] - b[0] })
	var merged [][3]int
	for _, sp := range spans {
		sp[0], sp[1] = max(1, sp[0]-in.ContextLines), min(len(lines), sp[1]+in.ContextLines)
		if k := len(merged) - 1; k >= 0 && sp[0] <= merged[k][1]+1 {
			merged[k][1] = max(merged[k][1], sp[1])
			continue
		}
		merged = append(merged, sp)
	}
	for _, sp := range merged {
		var sb strings.Builder
		for n := sp[0]; n <= sp[1] && n <= len(lines); n++ {
			fmt.Fprintf(&sb, "%6d\t%s\n", n, strings.TrimRight(lines[n-1], "\r"))
		}
		if sb.Len() > *budget {
			cf.Truncated = true
			*budget = 0
			break
		}
		*budget -= sb.Len()
		r := excerptRegion{StartLine: sp[0], EndLine: sp[1], Content: strings.ToValidUTF8(sb.String(), "\uFFFD")}
		if sp[2] >= 0 {
			r.NodeID, r.Label = s.g.ExternalID(nodes[sp[2]]), s.g.Label(nodes[sp[2]])
		}
		cf.Regions = append(cf.Regions, r)
	}
	return cf
}

// linkingLines moves each caller's line from where the caller starts to
// its first line naming what it uses of this file (the import, the call),
// so an agent reads the link itself; it stays when no line names it.
func (s *surgicalCtx) linkingLines() {
	texts := map[string][]string{}
	s.linkAt = map[graph.NodeID]int{}
	for i := range s.callers {
		l := &s.callers[i]
		lines, read := texts[l.File]
		if !read {
			lines = s.readLines(l.File)
			texts[l.File] = lines
		}
		own, ok := s.g.Lookup(l.Symbol)
		if !ok || len(lines) == 0 {
			continue
		}
		from, to := 1, len(lines)
		if caller := s.callerNodes[i]; s.g.Type(caller) != graph.File {
			pv := s.g.Provenance(caller)
			from, to = max(1, int(pv.LineStart)), min(len(lines), int(max(pv.LineEnd, pv.LineStart)))
		}
		name, imports := s.g.Label(own), own == s.file
		if imports {
			name = strings.TrimSuffix(path.Base(s.gpath), path.Ext(s.gpath))
		}
		for n := from; n <= to; n++ {
			if namesWord(lines[n-1], name) && (!imports || importLine.MatchString(lines[n-1])) {
				l.Line = n
				if at, ok := s.linkAt[s.callerNodes[i]]; !ok || n < at {
					s.linkAt[s.callerNodes[i]] = n
				}
				break
			}
		}
	}
}

// readLines is a connected file's lines, nil when it cannot be read.
func (s *surgicalCtx) readLines(p string) []string {
	res, err := tools.BundleGuard(s.b).Resolve(tools.BundleSpace(s.b).DiskPath(p))
	if err != nil || !res.Exists {
		return nil
	}
	data, _, err := tools.ReadGuarded(res, "file_path")
	if err != nil || textsearch.IsBinary(data) {
		return nil
	}
	return strings.Split(string(data), "\n")
}

// namesWord reports whether line holds name as a whole identifier.
func namesWord(line, name string) bool {
	ident := func(b byte) bool { return b == '_' || b >= '0' && b <= '9' || b|0x20 >= 'a' && b|0x20 <= 'z' }
	for i := 0; name != ""; {
		j := strings.Index(line[i:], name)
		if j < 0 {
			return false
		}
		j += i
		if (j == 0 || !ident(line[j-1])) && (j+len(name) == len(line) || !ident(line[j+len(name)])) {
			return true
		}
		i = j + 1
	}
	return false
}

// mentions are the (at most three) lines of a connected file that name
// this file: its imports of it, else lines naming its symbols.
func (s *surgicalCtx) mentions(lines []string) []int {
	base := path.Base(s.gpath)
	base = strings.TrimSuffix(base, path.Ext(base))
	var names []string
	for _, id := range s.ownOrder {
		if l := s.g.Label(id); id != s.file && len(l) > 3 && !strings.HasPrefix(l, "__") {
			names = append(names, l)
		}
	}
	find := func(match func(string) bool) []int {
		var out []int
		for i, l := range lines {
			if match(l) {
				if out = append(out, i+1); len(out) == 3 {
					break
				}
			}
		}
		return out
	}
	if out := find(func(l string) bool { return strings.Contains(l, base) && importLine.MatchString(l) }); len(out) > 0 {
		return out
	}
	return find(func(l string) bool {
		return slices.ContainsFunc(names, func(n string) bool { return strings.Contains(l, n) })
	})
}

var importLine = regexp.MustCompile(`^\s*(?:import|from|use|using|require|#include|include)\b|\brequire\(|\bimport\(`)

func surgicalGuidance(c *tools.Call, o *surgicalOutput, v2 bool) tools.Guidance {
	reg := c.Registry
	if !o.InGraph {
		return tools.Guidance{ProofState: "proving", NextSuggestedTool: tools.FirstTool(reg, "view", "ingest"), NextSuggestedTarget: o.FilePath,
			NextStepHint: "The file is not in the graph, so its callers are unknown: view it (auto_ingest adds it) or ingest its repository, then ask again."}
	}
	callerFiles := map[string]bool{}
	for _, l := range o.Callers {
		if l.File != "" && l.File != o.FilePath {
			callerFiles[l.File] = true
		}
	}
	if len(callerFiles) > 0 && !v2 {
		return tools.Guidance{ProofState: "ready_to_edit", NextSuggestedTool: tools.FirstTool(reg, "surgical_context_v2", "apply"), NextSuggestedTarget: o.FilePath,
			NextStepHint: fmt.Sprintf("%d other files call into %s: if the edit changes a signature, get their code with surgical_context_v2 and write them together with apply_batch; otherwise apply with expected_sha256 %s.", len(callerFiles), o.FilePath, o.SHA256[:12]+"…")}
	}
	next := "apply"
	if v2 && len(callerFiles) > 0 {
		next = "apply_batch"
	}
	return tools.Guidance{ProofState: "ready_to_edit", NextSuggestedTool: tools.FirstTool(reg, next, "apply"), NextSuggestedTarget: o.FilePath,
		NextStepHint: fmt.Sprintf("Edit with %s, passing expected_sha256 = sha256 so a change made meanwhile is refused; verify: true builds and tests before keeping it.", next)}
}

// The budgets of a brief surgical_context_v2 (detail "brief"): the
// closest connected files are excerpted, the others listed.
const (
	surgicalBriefExcerptFiles = 3
	surgicalBriefExcerptBytes = 2 << 10
	surgicalBriefRegionLines  = 12
	surgicalBriefListedFiles  = 5
	// surgicalBriefPerFile bounds the lines and symbols named per file.
	surgicalBriefPerFile = 3
)

// surgicalBriefNote marks a brief answer and says what full adds.
const surgicalBriefNote = "brief: detail full lists callers, callees and tests and excerpts more files"

// briefExcerpts lists the connected files, each with its role, how many
// links join it to the file, their relations, the file's symbols they
// attach to and its lines that link: callers first, then tests, then
// callees, each by links (most first). The first few are excerpted
// within small budgets (each file its share), the next are listed, the
// rest counted in not_listed.
func (s *surgicalCtx) briefExcerpts(o *surgicalOutput, in surgicalV2Params) {
	type file struct {
		cf          connectedFile
		rank, order int
		nodes       []graph.NodeID
	}
	g := s.g
	fileID := "\x00"
	if s.file != graph.NoNode {
		fileID = g.ExternalID(s.file)
	}
	byFile := map[string]*file{}
	var files []*file
	appendNew := func(list []string, v string) []string {
		if v == "" || slices.Contains(list, v) {
			return list
		}
		return append(list, v)
	}
	add := func(role string, rank int, n graph.NodeID, rel, sym string, line int) {
		p := g.SourcePath(n)
		if p == "" || p == s.gpath || g.Type(n) == graph.Directory {
			return
		}
		f := byFile[p]
		if f == nil {
			if edit.IsTestFile(p) {
				role, rank = "test", 1
			}
			f = &file{cf: connectedFile{FilePath: p, Role: role}, rank: rank, order: len(files)}
			byFile[p] = f
			files = append(files, f)
		}
		f.cf.Links++
		f.nodes = append(f.nodes, n)
		f.cf.Relations = appendNew(f.cf.Relations, rel)
		if sym != fileID && len(f.cf.Symbols) < surgicalBriefPerFile {
			f.cf.Symbols = appendNew(f.cf.Symbols, strings.TrimPrefix(sym, fileID+"::"))
		}
		if line > 0 && len(f.cf.Lines) < surgicalBriefPerFile && !slices.Contains(f.cf.Lines, line) {
			f.cf.Lines = append(f.cf.Lines, line)
		}
	}
	for i, l := range s.callers {
		add("caller", 0, s.callerNodes[i], l.Relation, l.Symbol, l.Line)
	}
	if in.IncludeTests {
		for i, t := range s.tests {
			if f := byFile[t.File]; f != nil {
				// Already there through its code's links.
				f.cf.Relations = appendNew(f.cf.Relations, "tests")
				continue
			}
			if t.Via == "tests" {
				add("test", 1, s.testNodes[i], "tests", "", 0)
			}
		}
	}
	for i, l := range s.callees {
		add("callee", 2, s.calleeNodes[i], l.Relation, l.Symbol, l.Line)
	}
	slices.SortStableFunc(files, func(a, b *file) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		if a.cf.Links != b.cf.Links {
			return b.cf.Links - a.cf.Links
		}
		return a.order - b.order
	})
	short := in
	short.MaxRegionLines = min(in.MaxRegionLines, surgicalBriefRegionLines)
	excerpted := min(in.MaxConnectedFiles, surgicalBriefExcerptFiles, len(files))
	budget := min(in.MaxExcerptBytes, surgicalBriefExcerptBytes)
	o.ConnectedFiles = []connectedFile{}
	for i, f := range files {
		if i == excerpted+surgicalBriefListedFiles {
			o.NotListed.Files = len(files) - i
			break
		}
		slices.Sort(f.cf.Lines)
		if i < excerpted {
			// Each file its share of what is left; its regions in order
			// while they fit, the first cut to fit.
			all := short.MaxExcerptBytes
			ex := s.excerptFile(f.cf.FilePath, f.cf.Role, f.nodes, short, &all)
			var used int
			f.cf.Regions, used, f.cf.Truncated = fitRegions(ex.Regions, budget/(excerpted-i))
			f.cf.Truncated = f.cf.Truncated || ex.Truncated
			f.cf.Error = ex.Error
			budget -= used
			o.ExcerptBytes += used
			o.ExcerptTruncated = o.ExcerptTruncated || f.cf.Truncated
		}
		o.ConnectedFiles = append(o.ConnectedFiles, f.cf)
	}
}

// fitRegions keeps the regions that fit in budget bytes, in order; the
// first is cut at a line to fit when it alone does not. It reports the
// bytes kept and whether anything was left out.
func fitRegions(regions []excerptRegion, budget int) (kept []excerptRegion, used int, cut bool) {
	kept = []excerptRegion{}
	for i, r := range regions {
		if used+len(r.Content) <= budget {
			kept, used = append(kept, r), used+len(r.Content)
			continue
		}
		if i == 0 {
			n, lines := 0, 0
			for n < len(r.Content) {
				j := strings.IndexByte(r.Content[n:], '\n') + 1
				if j == 0 || n+j > budget {
					break
				}
				n, lines = n+j, lines+1
			}
			if lines > 0 {
				r.Content, r.EndLine = r.Content[:n], r.StartLine+lines-1
				kept, used = append(kept, r), n
			}
		}
		return kept, used, true
	}
	return kept, used, false
}
