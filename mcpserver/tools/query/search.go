package query

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/semantic"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/textsearch"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type searchParams struct {
	Query         string `json:"query" jsonschema:"Text, RE2 regex or description, per mode." help:"Text to find: exact text (literal), an RE2 regular expression (regex), or a description (semantic)." tool:"required"`
	Mode          string `json:"mode" jsonschema:"literal, regex (RE2) or semantic (by meaning)." help:"literal (exact text), regex (RE2: no lookaround or backreferences), semantic (by meaning over graph nodes)." tool:"default=literal,enum=literal|regex|semantic"`
	Scope         string `json:"scope" help:"Only files under this root-relative path prefix (\"backend/\") or matching this glob (\"**/*_test.go\")."`
	TopK          int    `json:"top_k" help:"Maximum result lines returned." tool:"default=50,min=1,max=1000"`
	MaxResults    *int   `json:"max_results" jsonschema:"Alias of top_k." tool:"min=1,max=1000"`
	CaseSensitive bool   `json:"case_sensitive" help:"Match case exactly (literal and regex modes)." tool:"default=false"`
	ContextLines  int    `json:"context_lines" help:"Lines of context before and after each match." tool:"default=2,min=0,max=10"`
	Multiline     bool   `json:"multiline" jsonschema:"regex: let the pattern span lines." help:"regex mode: let the pattern span lines ('.' also matches newline); each result then covers line_number..end_line." tool:"default=false"`
	ExactCounts   bool   `json:"exact_counts" jsonschema:"Make total_matches exact (slower)." help:"Scan every file even after top_k lines were found, so total_matches is exact (slower on large trees). Off: the scan stops once enough lines are found and total_matches is a lower bound (total_matches_exact says which)." tool:"default=false"`
	CountOnly     bool   `json:"count_only" help:"Return only the counts (always exact), no result lines." tool:"default=false"`
}

func registerSearch(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "search",
		Title:       "Search text and labels",
		Description: "Lines matching exact text, an RE2 regex or a meaning, with context: the graph-aware grep.",
		Details: "Unified literal/regex/semantic search — a graph-aware grep. Searches node labels in the graph and the contents of the indexed files on disk, " +
			"returning matching lines with line numbers and context. Definitions whose name matches come first (most central first), then matching lines " +
			"file by file (most central file first); every line names the graph node that encloses it. semantic mode ranks nodes by meaning (trigram TF-IDF + co-occurrence) " +
			"and shows their lines that mention the query's words.",
		Class:     tools.Read,
		WhenToUse: "Exact text, identifiers, error messages or regex across the graph and the files' contents; the graph-aware grep replacement.",
		AvoidWhen: "You want code by purpose (seek) or its neighbourhood (activate); you only need file names (glob).",
		Next:      []string{"view", "batch_view", "seek", "glob"},
		Example:   map[string]any{"agent_id": "claude", "query": "def login", "mode": "literal", "scope": "backend/", "top_k": 20},
	}, runSearch)
}

// searchLine is one line of a file in a result.
type searchLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// searchResult is one result: a line of a file (or, for a node without a
// file, the node alone).
type searchResult struct {
	FilePath   string `json:"file_path"`
	LineNumber int    `json:"line_number"`
	// EndLine is set when a multiline match spans lines.
	EndLine int `json:"end_line,omitempty"`
	// Column is the 1-based character column of the first match.
	Column      int    `json:"column,omitempty"`
	MatchedLine string `json:"matched_line"`
	// MatchedText is the whole match when it spans lines (multiline).
	MatchedText   string   `json:"matched_text,omitempty"`
	LineClipped   bool     `json:"line_clipped,omitempty"`
	ContextBefore []string `json:"context_before"`
	ContextAfter  []string `json:"context_after"`
	// MatchedBy says how it was found: "label" (a node's name), "content"
	// (the file's text), "semantic".
	MatchedBy []string `json:"matched_by"`
	// NodeID is the node whose label matched, or the innermost node whose
	// line range encloses the line.
	NodeID      string   `json:"node_id,omitempty"`
	Label       string   `json:"label,omitempty"`
	Type        string   `json:"type,omitempty"`
	Score       *float64 `json:"score,omitempty"`
	GraphLinked bool     `json:"graph_linked"`
	// MatchingLines (semantic mode) are the node's lines that mention a
	// query word.
	MatchingLines []searchLine `json:"matching_lines,omitempty"`
}

type SearchOutput struct {
	Query         string         `json:"query"`
	Mode          string         `json:"mode"`
	Scope         *string        `json:"scope"`
	CaseSensitive bool           `json:"case_sensitive"`
	Results       []searchResult `json:"results"`
	// TotalMatches is ContentMatches + LabelMatches (a definition found
	// both ways is one result but counts in both).
	TotalMatches      int  `json:"total_matches"`
	TotalMatchesExact bool `json:"total_matches_exact"`
	ContentMatches    int  `json:"content_matches"`
	LabelMatches      int  `json:"label_matches"`
	Returned          int  `json:"returned"`
	Truncated         bool `json:"truncated"`
	FilesScanned      int  `json:"files_scanned"`
	FilesMatched      int  `json:"files_matched"`
	// FilesSkipped counts indexed files not searched, by reason (binary,
	// too_large, unreadable, missing, refused, not_scanned).
	FilesSkipped map[string]int `json:"files_skipped,omitempty"`
	ElapsedMs    float64        `json:"elapsed_ms"`
	tools.Guidance
}

// Limits on what one result carries.
const (
	searchMaxLine     = 400     // bytes of a matched or context line
	searchMaxFileSize = 8 << 20 // files above are skipped (minified blobs)
)

func runSearch(c *tools.Call, in searchParams) (SearchOutput, error) {
	start := time.Now()
	query := in.Query
	mode := in.Mode
	if strings.TrimSpace(query) == "" {
		return SearchOutput{}, tools.Errorf("query is the text (literal), pattern (regex) or description (semantic) to find. To list files use glob; to find code by purpose use seek.",
			"query is empty").WithExample(map[string]any{"agent_id": "claude", "query": "def login"})
	}
	topK := in.TopK
	if in.MaxResults != nil {
		topK = *in.MaxResults
	}
	ctxLines := in.ContextLines
	out := SearchOutput{Query: query, Mode: mode, CaseSensitive: in.CaseSensitive, Results: []searchResult{}}

	var m *textsearch.Matcher
	if mode != "semantic" {
		var err error
		m, err = textsearch.Compile(textsearch.Query{Pattern: query, Regex: mode == "regex", CaseSensitive: out.CaseSensitive, Multiline: in.Multiline})
		if err != nil {
			return SearchOutput{}, patternToolError(query, err)
		}
	}
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		if b.Graph.NumNodes() == 0 && len(b.Roots) == 0 {
			return tools.EmptyGraphErr()
		}
		scope, err := tools.ParseScope(b, in.Scope)
		if err != nil {
			return err
		}
		if scope != nil {
			s := scope.String()
			out.Scope = &s
		}
		if mode == "semantic" {
			return searchSemantic(c, b, scope, query, topK, ctxLines, &out)
		}
		searchText(c, b, scope, m, topK, ctxLines, in.CountOnly, in.ExactCounts, &out)
		return nil
	})
	if err != nil {
		return SearchOutput{}, err
	}
	out.Returned = len(out.Results)
	out.Guidance = searchGuidance(&out)
	out.ElapsedMs = tools.Ms(time.Since(start))
	return out, nil
}

// patternToolError teaches how to fix an invalid pattern.
func patternToolError(query string, err error) error {
	if errors.Is(err, textsearch.ErrEmptyPattern) {
		return tools.Errorf("query must contain something other than whitespace.", "query is blank")
	}
	var pe *textsearch.PatternError
	if !errors.As(err, &pe) {
		return err
	}
	e := tools.Errorf(pe.Hint+fmt.Sprintf(" The escaped regex for this exact text is %q.", pe.Escaped), "%s", pe.Error())
	e.Example = map[string]any{"arguments": map[string]any{"agent_id": "claude", "query": query, "mode": "literal"}}
	e.Extra = map[string]any{"escaped_regex": pe.Escaped, "reason": pe.Reason}
	if pe.Fragment != "" {
		e.Extra["at"] = pe.Fragment
	}
	e.SuggestedNextStep = fmt.Sprintf("Call search again with mode \"literal\" (query %q), or with mode \"regex\" and query %q.", query, pe.Escaped)
	return e
}

// searchFile is an indexed file in search order.
type searchFile struct {
	idx int // into graphFiles.Files
	abs string
}

// rankedFiles returns the indexed files in search order: most central
// file node first (PageRank), then by path, so truncated results show the
// files that matter most.
var rankedFilesKey = session.NewKey[[]int]("files.ranked")

func rankedFiles(b *session.Bundle) []int {
	v, _ := session.Derive(b, rankedFilesKey, func(g *graph.Graph) ([]int, error) {
		gf := tools.BundleGraphFiles(b)
		order := make([]int, len(gf.Files))
		pr := make([]float32, len(gf.Files))
		for i := range order {
			order[i] = i
			if n := gf.Files[i].Node; n != graph.NoNode {
				pr[i] = g.PageRank(n)
			}
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(pr[b], pr[a]) })
		return order, nil
	})
	return v
}

func searchText(c *tools.Call, b *session.Bundle, scope *tools.ScopeFilter, m *textsearch.Matcher, topK, ctxLines int, countOnly, exactCounts bool, out *SearchOutput) {
	g := b.Graph
	gf := tools.BundleGraphFiles(b)
	disk := tools.BundleDiskFiles(b)
	cache := tools.BundleCache(b)
	exact := countOnly || exactCounts
	skipped := map[string]int{}

	// 1. Node labels: names equal to the query first, then names starting
	// with it, then the rest; the most central first within each tier.
	type labelHit struct {
		id   graph.NodeID
		tier int
		pr   float32
	}
	q := m.Query().Pattern
	var hits []labelHit
	for i := 0; i < g.NumNodes(); i++ {
		id := graph.NodeID(i)
		if scope != nil && !scope.Match(g.SourcePath(id)) {
			continue
		}
		l := g.Label(id)
		if !m.MatchLabel(l) {
			continue
		}
		t := 2
		switch {
		case strings.EqualFold(l, q):
			t = 0
		case len(l) >= len(q) && strings.EqualFold(l[:len(q)], q):
			t = 1
		}
		hits = append(hits, labelHit{id, t, g.PageRank(id)})
	}
	slices.SortStableFunc(hits, func(a, b labelHit) int {
		if a.tier != b.tier {
			return a.tier - b.tier
		}
		return cmp.Compare(b.pr, a.pr)
	})
	labels := make([]graph.NodeID, len(hits))
	for i, h := range hits {
		labels[i] = h.id
	}
	out.LabelMatches = len(labels)

	// 2. File contents, in rank order.
	var files []searchFile
	var tsFiles []textsearch.File
	for _, i := range rankedFiles(b) {
		f := &gf.Files[i]
		if !scope.Match(f.Path) {
			continue
		}
		if disk.Abs[i] == "" {
			skipped["missing_or_refused"]++
			continue
		}
		files = append(files, searchFile{idx: i, abs: disk.Abs[i]})
		tsFiles = append(tsFiles, textsearch.File{Path: f.Path, Abs: disk.Abs[i]})
	}
	opt := textsearch.Options{Keep: topK, Cache: cache, MaxFileSize: searchMaxFileSize, Open: tools.BundleGuard(b).OpenReal}
	if !exact {
		opt.StopAfter = topK
	}
	res := textsearch.Search(c.Ctx, tsFiles, m, opt)
	out.ContentMatches = res.Total
	out.TotalMatches = out.ContentMatches + out.LabelMatches
	out.TotalMatchesExact = !res.Stopped
	out.FilesScanned = res.FilesScanned
	out.FilesMatched = res.FilesMatched
	for k, v := range map[string]int{"binary": res.Binary, "too_large": res.TooLarge, "unreadable": res.Unreadable} {
		if v > 0 {
			skipped[k] = v
		}
	}
	if res.Stopped {
		n := 0
		for _, fr := range res.Files {
			if fr.Skipped == "not_scanned" {
				n++
			}
		}
		skipped["not_scanned"] = n
	}
	if len(skipped) > 0 {
		out.FilesSkipped = skipped
	}
	if countOnly {
		out.Truncated = out.TotalMatches > 0
		return
	}

	// 3. Results: matching definitions first, then lines in file order.
	type key struct {
		path string
		line int
	}
	byKey := map[key]int{}
	loader := tools.NewContentLoader(cache, tools.BundleGuard(b).OpenReal)
	labelShown := 0
	for _, id := range labels {
		if len(out.Results) == topK {
			break
		}
		p := g.Provenance(id)
		r := searchResult{FilePath: p.SourcePath, MatchedBy: []string{"label"}, GraphLinked: true,
			NodeID: g.ExternalID(id), Label: g.Label(id), Type: tools.TypeName(g.Type(id)), ContextBefore: []string{}, ContextAfter: []string{}}
		fi, inFiles := gf.ByPath[p.SourcePath]
		if g.Type(id) != graph.File && p.LineStart > 0 && inFiles {
			r.LineNumber = int(p.LineStart)
			if data := loader.Load(disk.Abs[fi]); data != nil {
				fillLine(&r, data, int(p.LineStart), ctxLines)
				// Whether the definition line itself matches does not
				// depend on how far the content scan got.
				if ls, ok := lineOffset(data, r.LineNumber); ok {
					if n, kept := m.Scan(textsearch.LineText(data, ls), 1); n > 0 {
						r.MatchedBy = append(r.MatchedBy, "content")
						r.Column = textsearch.Column(data, ls, ls+kept[0].Start)
					}
				}
			}
			byKey[key{p.SourcePath, r.LineNumber}] = len(out.Results)
		} else {
			r.MatchedLine = g.Label(id)
		}
		out.Results = append(out.Results, r)
		labelShown++
	}
	contentShown := 0
	for fi, fr := range res.Files {
		if len(fr.Matches) == 0 {
			continue
		}
		f := &gf.Files[files[fi].idx]
		for _, mt := range fr.Matches {
			if i, ok := byKey[key{f.Path, mt.Line}]; ok {
				if r := &out.Results[i]; !slices.Contains(r.MatchedBy, "content") {
					r.MatchedBy = append(r.MatchedBy, "content")
					if data := loader.Load(files[fi].abs); data != nil && mt.Fits(data) {
						r.Column = textsearch.Column(data, mt.LineStart, mt.Start)
					}
				}
				contentShown++
				continue
			}
			if len(out.Results) == topK {
				continue
			}
			data := loader.Load(files[fi].abs)
			if data == nil || !mt.Fits(data) {
				continue // unreadable, or changed since the scan
			}
			r := searchResult{FilePath: f.Path, LineNumber: mt.Line, MatchedBy: []string{"content"}}
			if mt.EndLine != mt.Line {
				r.EndLine = mt.EndLine
				r.MatchedText, _ = textsearch.Clip(data[mt.Start:mt.End], 0, 0, 4*searchMaxLine)
			}
			r.Column = textsearch.Column(data, mt.LineStart, mt.Start)
			line := textsearch.LineText(data, mt.LineStart)
			r.MatchedLine, r.LineClipped = textsearch.Clip(line, mt.Start-mt.LineStart, mt.End-mt.LineStart, searchMaxLine)
			before, after := textsearch.Context(data, mt.LineStart, mt.End, ctxLines)
			r.ContextBefore, r.ContextAfter = clipLines(before), clipLines(after)
			if id, ok := tools.Enclosing(g, f, mt.Line); ok {
				r.NodeID, r.Label, r.Type, r.GraphLinked = g.ExternalID(id), g.Label(id), tools.TypeName(g.Type(id)), true
			}
			out.Results = append(out.Results, r)
			contentShown++
		}
	}
	out.Truncated = labelShown < out.LabelMatches || contentShown < out.ContentMatches || !out.TotalMatchesExact
}

// fillLine sets the matched line and its context from the file content.
func fillLine(r *searchResult, data []byte, line, ctxLines int) {
	ls, ok := lineOffset(data, line)
	if !ok {
		return
	}
	text := textsearch.LineText(data, ls)
	r.MatchedLine, r.LineClipped = textsearch.Clip(text, 0, 0, searchMaxLine)
	before, after := textsearch.Context(data, ls, ls, ctxLines)
	r.ContextBefore, r.ContextAfter = clipLines(before), clipLines(after)
}

// lineOffset returns the byte offset where 1-based line n starts.
func lineOffset(data []byte, n int) (int, bool) {
	off := 0
	for i := 1; i < n; i++ {
		j := indexNL(data[off:])
		if j < 0 {
			return 0, false
		}
		off += j + 1
	}
	if off > len(data) || (off == len(data) && n > 1) {
		return 0, false
	}
	return off, true
}

func indexNL(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}

func clipLines(ls [][]byte) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i], _ = textsearch.Clip(l, 0, 0, searchMaxLine)
	}
	return out
}

// semanticIndex is the semantic index of the bundle's graph: the query
// engine's when it builds, else one of our own.
func semanticIndex(c *tools.Call, b *session.Bundle) (*semantic.Index, error) {
	if e, err := c.Session.Engine(b); err == nil && e.Semantic() != nil {
		return e.Semantic(), nil
	}
	return session.Derive(b, semanticKey, func(g *graph.Graph) (*semantic.Index, error) {
		return semantic.New(g, semantic.DefaultOptions())
	})
}

var semanticKey = session.NewKey[*semantic.Index]("search.semantic")

func searchSemantic(c *tools.Call, b *session.Bundle, scope *tools.ScopeFilter, query string, topK, ctxLines int, out *SearchOutput) error {
	g := b.Graph
	if g.NumNodes() == 0 {
		return tools.EmptyGraphErr()
	}
	ix, err := semanticIndex(c, b)
	if err != nil {
		return tools.Errorf("The semantic index could not be built for this graph; literal and regex modes still work.", "semantic index: %v", err)
	}
	// Ask for more than topK so the count says whether more exist; more
	// still when the scope will filter some out.
	want := topK * 4
	if scope != nil {
		want = topK * 16
	}
	scored := ix.Query(query, want)
	gf := tools.BundleGraphFiles(b)
	disk := tools.BundleDiskFiles(b)
	loader := tools.NewContentLoader(tools.BundleCache(b), tools.BundleGuard(b).OpenReal)
	words := semantic.QueryWords(query)
	files := map[string]bool{}
	out.TotalMatchesExact = len(scored) < want
	for _, s := range scored {
		p := g.Provenance(s.Node)
		if scope != nil && !scope.Match(p.SourcePath) {
			continue
		}
		out.TotalMatches++
		if len(out.Results) == topK {
			continue
		}
		score := tools.Round3(float64(s.Score))
		r := searchResult{FilePath: p.SourcePath, MatchedBy: []string{"semantic"}, GraphLinked: true, Score: &score,
			NodeID: g.ExternalID(s.Node), Label: g.Label(s.Node), Type: tools.TypeName(g.Type(s.Node)),
			ContextBefore: []string{}, ContextAfter: []string{}, MatchedLine: g.Label(s.Node)}
		if fi, ok := gf.ByPath[p.SourcePath]; ok && disk.Abs[fi] != "" {
			files[p.SourcePath] = true
			if data := loader.Load(disk.Abs[fi]); data != nil {
				if g.Type(s.Node) != graph.File && p.LineStart > 0 {
					r.LineNumber = int(p.LineStart)
					fillLine(&r, data, r.LineNumber, ctxLines)
				}
				r.MatchingLines = mentionLines(data, p, words, 5)
			}
		}
		out.Results = append(out.Results, r)
	}
	out.LabelMatches = out.TotalMatches
	out.FilesScanned = len(files)
	out.FilesMatched = len(files)
	out.Truncated = len(out.Results) < out.TotalMatches || !out.TotalMatchesExact
	return nil
}

// mentionLines returns up to n lines of the node's range (the whole file
// for a file node) that contain one of the query words.
func mentionLines(data []byte, p graph.Provenance, words []string, n int) []searchLine {
	if len(words) == 0 {
		return nil
	}
	from, to := int(p.LineStart), int(p.LineEnd)
	if from <= 0 {
		from = 1
	}
	if to < from {
		to = 1 << 30
	}
	ls, ok := lineOffset(data, from)
	if !ok {
		return nil
	}
	var out []searchLine
	for line := from; line <= to && ls < len(data) && len(out) < n; line++ {
		text := textsearch.LineText(data, ls)
		low := strings.ToLower(string(text))
		for _, w := range words {
			if strings.Contains(low, w) {
				t, _ := textsearch.Clip(text, 0, 0, searchMaxLine)
				out = append(out, searchLine{Line: line, Text: t})
				break
			}
		}
		next := indexNL(data[ls:])
		if next < 0 {
			break
		}
		ls += next + 1
	}
	return out
}

// searchGuidance points at the next step the result supports.
func searchGuidance(out *SearchOutput) tools.Guidance {
	if len(out.Results) == 0 && out.TotalMatches > 0 {
		// count_only: the lines were counted, not listed.
		return tools.Guidance{ProofState: "triaging", NextSuggestedTool: "search",
			NextStepHint: fmt.Sprintf("%d matches in %d files, counted, not listed: search again without count_only (a scope or top_k bounds the list).", out.TotalMatches, out.FilesMatched)}
	}
	if len(out.Results) == 0 {
		hint := "No match. Try mode \"semantic\" or seek to find code by meaning, widen the scope, or turn case_sensitive off."
		next := "seek"
		if !strings.ContainsAny(out.Query, " \t") && strings.ContainsAny(out.Query, "./") {
			hint = "No match in file contents or node names. If this is a file name, glob finds files by path."
			next = "glob"
		}
		return tools.Guidance{ProofState: "triaging", NextSuggestedTool: next, NextStepHint: hint}
	}
	top := out.Results[0]
	if top.FilePath == "" {
		return tools.Guidance{ProofState: "triaging", NextSuggestedTool: "activate", NextSuggestedTarget: top.NodeID,
			NextStepHint: fmt.Sprintf("The best match is the node %s, which has no file; explore its neighbourhood with activate.", top.NodeID)}
	}
	files := map[string]bool{}
	for _, r := range out.Results {
		files[r.FilePath] = true
	}
	offset := max(1, top.LineNumber-10)
	hint := fmt.Sprintf("Open %s with view (offset %d) to read the match in context.", tools.FmtLines(top.FilePath, top.LineNumber), offset)
	if len(files) > 1 {
		hint += fmt.Sprintf(" Matches span %d files: view each around its matched lines (offset/limit).", len(files))
	}
	if out.Truncated {
		hint += " More matches exist than were returned: narrow with scope or raise top_k."
	}
	return tools.Guidance{ProofState: "triaging", NextSuggestedTool: "view", NextSuggestedTarget: top.FilePath, NextStepHint: hint}
}
