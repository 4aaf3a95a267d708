package query

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/seek"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// seekMaxQueryBytes refuses pastes beyond any bug report; seek reads the
// first seek.MaxQueryBytes of what it accepts, and of its prose the first
// seek.MaxQueryTerms distinct words (stack frames are all read).
const seekMaxQueryBytes = 1 << 20

// seekFeedbackBytes is how much of the query is compared with what learn
// was taught: learn takes queries up to this size, so a longer one is
// compared by its beginning (the comparison's cost grows faster than the
// text: a 1 MB paste took minutes).
const seekFeedbackBytes = tools.DefaultMaxStringLen

// seekParams is seek's input. Its tags repeat seek.DefaultTopK (top_k's
// default) and seekMaxQueryBytes (query's bound); declare_test.go holds
// them together.
type seekParams struct {
	Query        string   `json:"query" jsonschema:"What the code does, or a pasted bug report or stack trace." help:"What the code does, in natural language (\"code that validates user credentials\"), or a pasted bug report / stack trace (up to 1 MiB; the first 64 KB are read, and of the prose around the stack frames its first 256 distinct words)." tool:"required,maxlen=1048576"`
	TopK         int      `json:"top_k" help:"Maximum results to return." tool:"default=20,min=1,max=200"`
	Scope        string   `json:"scope" help:"File path prefix to limit the search (\"backend/\"), relative to the ingest root or absolute inside it. None = entire graph."`
	NodeTypes    []string `json:"node_types" jsonschema:"Node types to keep (function, class, file…)." help:"Keep only these node types: \"function\", \"class\", \"struct\", \"module\", \"file\" (also enum, type, directory, reference, concept, \"method\" = function). Empty = all types." tool:"default="`
	ExcludeTests bool     `json:"exclude_tests" help:"Leave out test files and the code in them." tool:"default=false"`
	MinScore     float64  `json:"min_score" help:"Minimum combined score (0.0 to 1.0)." tool:"default=0.1,min=0,max=1"`
	GraphRerank  bool     `json:"graph_rerank" help:"Graph re-ranking of candidates: neighbour spreading, PageRank prior, co-change partners, file aggregation. false = pure text and stack-trace matching." tool:"default=true"`
	Detail       string   `json:"detail" help:"brief: each result's id, label, type, score, matched terms, file and lines, and its intent summary cut to a line; full adds each result's score breakdown and connections, and the query's weighted terms." tool:"default=brief,enum=brief|full"`
}

func registerSeek(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "seek",
		Title:       "Seek code by purpose",
		Description: "Code by what it does, from a description, bug report or stack trace: when you do not know where.",
		Details: "Intent-aware code search: finds code by what it does (\"code that validates user credentials\") or from a pasted bug report or stack trace. " +
			"Every node is scored against the query by a code-aware BM25F index (identifiers split, file paths, signatures, doc comments and source bodies); " +
			"stack frames and file mentions in the query are strong evidence; graph re-ranking adds what neighbours of strong hits, centrality, co-change history and a file's best entities say. " +
			"Returns ranked nodes with their score, file and lines and intent summary (detail full adds each one's score breakdown and connections, and the query's weighted terms), plus guidance on what to read next. Read-only.",
		Class:     tools.Read,
		WhenToUse: "You know what the code does but not where it lives; you have a bug report or stack trace and want the files to open first; before a change, to find all code related to a feature.",
		AvoidWhen: "You know the exact text or symbol (search is exact) or the file (view); for the neighbourhood of a topic use activate.",
		Next:      []string{"view", "impact", "activate", "search"},
		Example:   map[string]any{"agent_id": "claude", "query": "code that validates user credentials", "top_k": 5, "node_types": []string{"function", "class"}},
	}, runSeek)
}

type seekBreakdown struct {
	KeywordMatch    float64 `json:"keyword_match"`
	StackTrace      float64 `json:"stacktrace"`
	GraphActivation float64 `json:"graph_activation"`
	PageRank        float64 `json:"pagerank"`
	CoChange        float64 `json:"co_change"`
}

type seekConnection struct {
	NodeID    string `json:"node_id"`
	Label     string `json:"label"`
	Relation  string `json:"relation"`
	Direction string `json:"direction"`
}

type seekHit struct {
	NodeID         string         `json:"node_id"`
	Label          string         `json:"label"`
	Type           string         `json:"type"`
	Score          float64        `json:"score"`
	ScoreBreakdown *seekBreakdown `json:"score_breakdown,omitempty" jsonschema:"How the score was made (detail full)."`
	// KindPrior is set when the node's kind (test, docs/data, fixture,
	// directory) discounted its score.
	KindPrior     float64          `json:"kind_prior,omitempty"`
	MatchedTerms  []string         `json:"matched_terms"`
	IntentSummary string           `json:"intent_summary,omitempty"`
	FilePath      string           `json:"file_path,omitempty"`
	LineStart     uint32           `json:"line_start,omitempty"`
	LineEnd       uint32           `json:"line_end,omitempty"`
	StackFrame    *seek.Frame      `json:"stack_frame,omitempty"`
	Connections   []seekConnection `json:"connections,omitzero" jsonschema:"Up to three neighbours, other results first (detail full)."`
	Deprecated    bool             `json:"deprecated,omitempty" jsonschema:"Marked deprecated in the code."`
}

type seekTerm struct {
	Term   string  `json:"term"`
	Weight float64 `json:"weight"`
	DF     int     `json:"df"`
	// From marks a synonym or abbreviation added to a short query.
	From string `json:"from,omitempty"`
}

func runSeek(c *tools.Call, in seekParams) (SeekOutput, error) {
	start := time.Now()
	q := in.Query
	if strings.TrimSpace(q) == "" {
		return SeekOutput{}, tools.Errorf("query says what the code does, in words (\"code that validates user credentials\"), or carries a pasted bug report or stack trace.", "query must not be empty").
			WithExample(map[string]any{"agent_id": c.AgentID, "query": "code that validates user credentials"})
	}
	if len(q) > seekMaxQueryBytes {
		return SeekOutput{}, tools.Errorf("Paste the error message, the stack trace and the first paragraphs of the report; seek reads the first 64 KB of a query.", "query is %d bytes; the limit is %d", len(q), seekMaxQueryBytes)
	}
	types, err := parseNodeTypes(in.NodeTypes)
	if err != nil {
		return SeekOutput{}, err
	}
	rerank := in.GraphRerank
	// Parsed once, bounded (seek.MaxQueryBytes, seek.MaxQueryTerms): what
	// follows costs the same for a 1 MB paste as for its first 64 KB.
	parsed := seek.ParseQuery(q)
	var out SeekOutput
	err = tools.ReadGraph(c, func(b *session.Bundle) error {
		scope, err := seekScope(b, in.Scope)
		if err != nil {
			return err
		}
		idx, err := tools.SeekIndex(c.Session, b)
		if err != nil {
			return tools.Errorf("The seek index could not be built for this graph; the graph itself is fine.", "building the seek index: %v", err).
				WithNext("Call health, then retry; activate and search still work.")
		}
		p := seek.Params{TopK: in.TopK, Scope: scope, Types: types, MinScore: float32(in.MinScore), GraphRerank: rerank, ExcludeTests: in.ExcludeTests}
		if rerank && len(b.Commits) > 0 {
			// Co-change history: seek's own matrix, not the query
			// engine's (whose build the first seek would wait for).
			if co, err := tools.SeekCoChange(c.Session, b); err == nil && co != nil {
				p.CoChange = co
			}
		}
		if err := seekInTime(c); err != nil {
			return err
		}
		if rerank && c.Session.Plasticity.FeedbackRecords() > 0 {
			// What learn taught about this (or a similar) query re-ranks
			// seek's graph part as it re-ranks activate.
			if eng, err := c.Session.Engine(b); err == nil {
				p.Feedback, _ = eng.Feedback(clipBytes(q, seekFeedbackBytes))
			}
			if err := seekInTime(c); err != nil {
				return err
			}
		}
		res := idx.Search(parsed, p)
		out = seekResponse(c, b, idx, q, scope, res, rerank)
		if in.Detail != "full" {
			out.brief()
		}
		if parsed.Truncated || parsed.TermsDropped > 0 {
			out.QueryTruncated = true
			out.QueryNote = queryNote(parsed)
		}
		out.ElapsedMs = tools.Ms(time.Since(start))
		return nil
	})
	return out, err
}

// seekInTime reports the call's budget ending as a teaching error: the
// steps of a seek check it between them, so a call past its deadline
// stops instead of holding a reader's slot.
func seekInTime(c *tools.Call) error {
	if err := c.Ctx.Err(); err != nil {
		return tools.Errorf("seek stopped at its time budget; nothing was changed. A shorter query (the error message, the stack trace, a sentence on what the code does) answers faster.", "seek did not finish in time: %v", err).
			WithNext("Retry with a shorter query, or narrow it with scope or node_types.")
	}
	return nil
}

// queryNote says which part of an over-long query seek read.
func queryNote(q seek.Query) string {
	var parts []string
	if q.Truncated {
		parts = append(parts, fmt.Sprintf("the first %d KB of the query", seek.MaxQueryBytes>>10))
	}
	if q.TermsDropped > 0 {
		parts = append(parts, fmt.Sprintf("of its prose the first %d distinct words (%d more were left out)", seek.MaxQueryTerms, q.TermsDropped))
	}
	return "seek read " + strings.Join(parts, " and ") + "; stack frames and file mentions in the part read all count. Paste the error, the stack trace and a few sentences on what the code does rather than whole logs."
}

// clipBytes is s cut to at most n bytes on a rune boundary.
func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// nodeTypeAliases are friendly spellings of node types.
var nodeTypeAliases = map[string]graph.NodeType{"method": graph.Function, "fn": graph.Function, "func": graph.Function, "dir": graph.Directory, "folder": graph.Directory}

func parseNodeTypes(raw []string) ([]graph.NodeType, error) {
	var out []graph.NodeType
	for _, s := range raw {
		t, ok := nodeTypeAliases[strings.ToLower(strings.TrimSpace(s))]
		if !ok {
			var err error
			if t, err = graph.ParseNodeType(s); err != nil {
				return nil, tools.Errorf("node_types takes lower-case type names: file, directory, function, class, struct, enum, type, module, reference, concept (or \"method\" for function).", "node_types: unknown node type %q", s).
					WithExample(map[string]any{"agent_id": "claude", "query": "code that validates user credentials", "node_types": []string{"function", "class"}})
			}
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, nil
}

// seekScope normalises the scope to a root-relative prefix and checks
// that it names something in the graph.
func seekScope(b *session.Bundle, raw string) (string, error) {
	s := strings.TrimSpace(strings.ReplaceAll(raw, "\\", "/"))
	if s == "" {
		return "", nil
	}
	if strings.ContainsAny(s, "*?[{") {
		return "", tools.Errorf("scope is a path prefix such as \"backend/\" or \"src/auth\"; to select files by pattern, list them with glob and scope seek to their directory.", "scope %q is a pattern, not a path prefix", raw)
	}
	if filepath.IsAbs(s) {
		rel, ok := "", false
		for _, r := range b.Roots {
			if x, err := filepath.Rel(r.Path, filepath.FromSlash(s)); err == nil && x != ".." && !strings.HasPrefix(x, ".."+string(filepath.Separator)) {
				rel, ok = filepath.ToSlash(x), true
				break
			}
		}
		if !ok {
			return "", scopeErr(b, raw, "is outside the ingested roots")
		}
		if rel == "." {
			return "", nil
		}
		if strings.HasSuffix(s, "/") {
			rel += "/"
		}
		s = rel
	}
	for strings.HasPrefix(s, "./") {
		s = s[2:]
	}
	if s == "." || s == "" {
		return "", nil
	}
	for _, seg := range strings.Split(s, "/") {
		if seg == ".." {
			return "", scopeErr(b, raw, "climbs out of the ingested tree with ..")
		}
	}
	g := b.Graph
	for i := 0; i < g.NumNodes(); i++ {
		if p := g.SourcePath(graph.NodeID(i)); strings.HasPrefix(p, s) || p == strings.TrimSuffix(s, "/") {
			return s, nil
		}
	}
	return "", scopeErr(b, raw, "matches no file or directory in the graph")
}

func scopeErr(b *session.Bundle, raw, why string) error {
	tops := map[string]bool{}
	g := b.Graph
	for i := 0; i < g.NumNodes() && len(tops) < 12; i++ {
		id := graph.NodeID(i)
		p := g.SourcePath(id)
		switch j := strings.IndexByte(p, '/'); {
		case p == "":
		case j > 0:
			tops[p[:j+1]] = true
		case g.Type(id) == graph.Directory:
			tops[p+"/"] = true
		default:
			tops[p] = true
		}
	}
	names := make([]string, 0, len(tops))
	for t := range tops {
		names = append(names, t)
	}
	slices.Sort(names)
	e := tools.Errorf("scope is a path prefix relative to the ingest root, like the source paths in seek results (\"backend/\").", "scope %q %s", raw, why)
	e.SuggestedNextStep = "Retry with one of details.top_level_paths as scope, or without scope."
	e.Extra = map[string]any{"top_level_paths": names}
	return e
}

func seekResponse(c *tools.Call, b *session.Bundle, idx *seek.Index, q, scope string, res seek.Result, rerank bool) SeekOutput {
	g := b.Graph
	inHits := map[graph.NodeID]bool{}
	nodes := make([]graph.NodeID, len(res.Hits))
	for i, h := range res.Hits {
		inHits[h.Node] = true
		nodes[i] = h.Node
	}
	summaries := idx.Summaries(nodes)
	hits := make([]seekHit, 0, len(res.Hits))
	for i, h := range res.Hits {
		pv := g.Provenance(h.Node)
		bd := h.Breakdown
		hits = append(hits, seekHit{
			NodeID: g.ExternalID(h.Node), Label: g.Label(h.Node), Type: tools.TypeName(g.Type(h.Node)),
			Score: tools.R3(h.Score),
			ScoreBreakdown: &seekBreakdown{
				KeywordMatch: tools.R3(bd.Lexical), StackTrace: tools.R3(bd.StackTrace), GraphActivation: tools.R3(bd.Graph),
				PageRank: tools.R3(bd.PageRank), CoChange: tools.R3(bd.CoChange),
			},
			KindPrior:     kindPrior(h.Prior),
			MatchedTerms:  tools.OrEmpty(h.Matched),
			IntentSummary: summaries[i],
			FilePath:      pv.SourcePath, LineStart: pv.LineStart, LineEnd: pv.LineEnd,
			StackFrame:  h.Frame,
			Connections: seekConnections(g, h.Node, inHits),
			Deprecated:  tools.IsDeprecated(g, h.Node),
		})
	}
	terms := make([]seekTerm, 0, min(len(res.Terms), 12))
	for _, t := range res.Terms[:min(len(res.Terms), 12)] {
		terms = append(terms, seekTerm{t.Term, tools.R3(t.Weight), t.DF, t.From})
	}
	st := idx.Stats()
	out := SeekOutput{
		Query:                  tools.ClipText(q, 300),
		Results:                hits,
		TotalCandidatesScanned: g.NumNodes(),
		MatchedNodes:           res.Candidates,
		EmbeddingsUsed:         false,
		GraphRerank:            rerank,
		QueryTerms:             terms,
		Scope:                  scope,
		StackFrames:            res.Frames,
		Symbols:                res.Symbols,
	}
	out.Index.BodyIndexed, out.Index.FilesRead, out.Index.Terms, out.Index.BuildMs = idx.HasBody(), st.FilesRead, st.Terms, tools.Ms(st.Elapsed)
	out.Guidance, out.NextSuggestedArgs = seekGuidance(c, g, q, res, scope)
	return out
}

// seekBriefSummary bounds a result's intent summary in a brief answer:
// about a line of text.
const seekBriefSummary = 120

// brief cuts the answer to what an agent needs to act on (detail
// "brief"): each result's id, label, type, score, matched terms, file,
// lines and stack frame, its intent summary cut to a line; the score
// breakdowns, connections and the query's weighted terms are left to
// detail "full".
func (o *SeekOutput) brief() {
	for i := range o.Results {
		h := &o.Results[i]
		h.ScoreBreakdown, h.Connections = nil, nil
		h.IntentSummary = tools.ClipText(h.IntentSummary, seekBriefSummary)
	}
	o.QueryTerms = nil
	o.Detail = seekBriefNote
}

// seekBriefNote marks a brief answer and says what full adds.
const seekBriefNote = "brief: detail full adds score breakdowns, connections and query terms"

func kindPrior(p float32) float64 {
	if p >= 1 || p <= 0 {
		return 0
	}
	return tools.R3(p)
}

// relationRank orders connections: the relations that explain code first.
func relationRank(rel string) int {
	switch rel {
	case "calls":
		return 0
	case "imports":
		return 1
	case "inherits", "implements":
		return 2
	case "tests":
		return 3
	case "references":
		return 4
	case "contains":
		return 5
	}
	return 6
}

// seekConnections lists up to three neighbours: other results first, then
// by relation, centrality and id.
func seekConnections(g *graph.Graph, id graph.NodeID, inHits map[graph.NodeID]bool) []seekConnection {
	nbs := g.Neighbors(id)
	slices.SortStableFunc(nbs, func(a, b graph.Neighbor) int {
		if ia, ib := inHits[a.Node], inHits[b.Node]; ia != ib {
			if ia {
				return -1
			}
			return 1
		}
		if ra, rb := relationRank(a.Relation), relationRank(b.Relation); ra != rb {
			return ra - rb
		}
		if pa, pb := g.PageRank(a.Node), g.PageRank(b.Node); pa != pb {
			if pa > pb {
				return -1
			}
			return 1
		}
		if a.Node != b.Node {
			return int(a.Node) - int(b.Node)
		}
		if a.Incoming != b.Incoming {
			if !a.Incoming {
				return -1
			}
			return 1
		}
		return 0
	})
	out := []seekConnection{}
	seen := map[graph.NodeID]bool{id: true}
	for _, nb := range nbs {
		if seen[nb.Node] {
			continue
		}
		seen[nb.Node] = true
		dir := "out"
		if nb.Incoming {
			dir = "in"
		}
		out = append(out, seekConnection{g.ExternalID(nb.Node), g.Label(nb.Node), nb.Relation, dir})
		if len(out) == 3 {
			break
		}
	}
	return out
}

// dominance is how much the best result must outscore (in match units)
// the best result from another file to count as the one place to look.
const dominance = 1.35

// seekGuidance picks the next step that fits the result: nothing found →
// literal search; one clear site → read it (or, when a stack trace and the
// text agree on it, check its impact); several close sites → see how
// they connect.
func seekGuidance(c *tools.Call, g *graph.Graph, q string, res seek.Result, scope string) (tools.Guidance, map[string]any) {
	if len(res.Hits) == 0 {
		term := literalTerm(q)
		hint := "Nothing in the graph matched the query. Look for the exact text on disk with search (mode literal), or rephrase with the words the code itself would use."
		if scope != "" {
			hint = fmt.Sprintf("Nothing under scope %q matched; retry without scope, or ", scope) + "look for the exact text with search (mode literal)."
		}
		if len(res.Frames) > 0 {
			hint += " The stack trace names files the graph does not hold; ingest the repository they come from."
		}
		gd := tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "search", "activate"), NextSuggestedTarget: term, NextStepHint: hint}
		var args map[string]any
		if gd.NextSuggestedTool == "search" && term != "" {
			args = map[string]any{"query": term, "mode": "literal"}
		}
		return gd, args
	}
	// Directories are places to scope to, not code to read: guidance
	// follows the best hit that is not one.
	ti := slices.IndexFunc(res.Hits, func(h seek.Hit) bool { return g.Type(h.Node) != graph.Directory })
	if ti < 0 {
		dir := g.SourcePath(res.Hits[0].Node)
		return tools.Guidance{
			ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "glob", "seek"), NextSuggestedTarget: dir,
			NextStepHint: fmt.Sprintf("Only directories matched; list the files of %s with glob, or repeat seek with scope %q and more specific words.", dir, dir+"/"),
		}, nil
	}
	top := res.Hits[ti]
	topFile := tools.FileOf(g, top.Node)
	var second *seek.Hit
	for i := ti + 1; i < len(res.Hits); i++ {
		if g.Type(res.Hits[i].Node) == graph.Directory {
			continue
		}
		if tools.FileOf(g, res.Hits[i].Node) != topFile {
			second = &res.Hits[i]
			break
		}
	}
	x1 := top.Breakdown.Total()
	if second == nil || x1 >= dominance*second.Breakdown.Total() {
		// The site's most precise hit: an entity with lines, if any.
		focus := top
		for _, h := range res.Hits {
			if tools.FileOf(g, h.Node) == topFile && g.Type(h.Node) != graph.File && g.Provenance(h.Node).LineStart > 0 {
				focus = h
				break
			}
		}
		pv := g.Provenance(focus.Node)
		path := pv.SourcePath
		offset, limit := 1, 200
		if g.Type(focus.Node) != graph.File && pv.LineStart > 0 {
			offset = max(1, int(pv.LineStart)-3)
			limit = min(400, int(max(pv.LineEnd, pv.LineStart)-pv.LineStart)+7)
		}
		args := map[string]any{"file_path": path, "offset": offset, "limit": limit}
		confirmed := focus.Frame != nil && focus.Frame.Line > 0 && focus.Breakdown.StackTrace >= 0.5 && focus.Breakdown.Lexical > 0
		if confirmed {
			if tool := tools.FirstTool(c.Registry, "impact"); tool != "" {
				return tools.Guidance{
					ProofState: "ready_to_edit", NextSuggestedTool: tool, NextSuggestedTarget: g.ExternalID(focus.Node),
					NextStepHint: fmt.Sprintf("The stack trace (%s line %d) and the query text agree on %s (%s lines %d–%d). Check its blast radius with impact, read the lines with view if you have not, then edit.",
						focus.Frame.Path, focus.Frame.Line, g.Label(focus.Node), path, pv.LineStart, pv.LineEnd),
				}, map[string]any{"node_id": g.ExternalID(focus.Node)}
			}
		}
		where := path
		if offset > 1 {
			where = fmt.Sprintf("%s lines %d–%d", path, pv.LineStart, pv.LineEnd)
		}
		// The score quoted is the leader's; when the focus is an entity of
		// the leading file, say so rather than lend it the file's score.
		lead := fmt.Sprintf("%s leads clearly (score %.2f)", g.Label(focus.Node), top.Score)
		if focus.Node != top.Node {
			lead = fmt.Sprintf("%s leads clearly (score %.2f); its best-ranked entity is %s", g.Label(top.Node), top.Score, g.Label(focus.Node))
		}
		return tools.Guidance{
			ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "view", "impact"), NextSuggestedTarget: path,
			NextStepHint: fmt.Sprintf("%s: read %s to confirm it is the code, then run impact on it before editing.", lead, where),
		}, args
	}
	// Several close sites.
	var names []string
	seen := map[graph.NodeID]bool{}
	for _, h := range res.Hits {
		f := tools.FileOf(g, h.Node)
		if seen[f] || h.Breakdown.Total()*dominance < x1 {
			continue
		}
		seen[f] = true
		names = append(names, g.SourcePath(h.Node))
		if len(names) == 3 {
			break
		}
	}
	if rel := linkBetween(g, top.Node, second.Node); rel != "" {
		if tool := tools.FirstTool(c.Registry, "impact"); tool != "" {
			return tools.Guidance{
				ProofState: "triaging", NextSuggestedTool: tool, NextSuggestedTarget: g.ExternalID(top.Node),
				NextStepHint: fmt.Sprintf("%s and %s score close together and are linked (%s): impact on %s shows what else moves with them; then view the one that fits.",
					g.Label(top.Node), g.Label(second.Node), rel, g.Label(top.Node)),
			}, map[string]any{"node_id": g.ExternalID(top.Node)}
		}
	}
	return tools.Guidance{
		ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "activate", "view"), NextSuggestedTarget: g.ExternalID(top.Node),
		NextStepHint: fmt.Sprintf("%d places score close together (%s): activate the query to see how they connect, view the top ones, or narrow with scope or node_types.",
			len(names), strings.Join(names, ", ")),
	}, map[string]any{"query": tools.ClipText(q, 500)}
}

// literalTerm picks the word of q most worth a literal search: the
// longest identifier-like word (unstemmed, as it would appear in code).
func literalTerm(q string) string {
	best := ""
	for _, w := range strings.FieldsFunc(tools.ClipText(q, 4096), func(r rune) bool {
		return !(r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		w = strings.Trim(w, ".")
		if len(w) > len(best) && len(w) <= 64 {
			best = w
		}
	}
	return best
}

// linkBetween names a relation that joins a and b, or their files ("").
func linkBetween(g *graph.Graph, a, b graph.NodeID) string {
	for _, p := range [][2]graph.NodeID{{a, b}, {b, a}, {tools.FileOf(g, a), tools.FileOf(g, b)}, {tools.FileOf(g, b), tools.FileOf(g, a)}} {
		if p[0] == p[1] {
			continue
		}
		if es := g.EdgesBetween(p[0], p[1]); len(es) > 0 {
			return g.RelationName(es[0])
		}
	}
	return ""
}
