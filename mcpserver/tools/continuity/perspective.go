package continuity

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/m1nd-go/m1nd/core/engine"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/continuity"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// Paging of route sets.
const (
	routesPageSize    = 6
	routesMaxPageSize = 10
	affinityTopK      = 8
	inspectAffinities = 3
	peekMaxLines      = 40
	peekMaxBytes      = 4000
)

// The bounds and enums below are continuity's (MaxRoutes, MaxBranchName,
// the route families) and this file's paging; TestDeclaredBoundsFollowTheStore
// holds them together.
type perspStartParams struct {
	Query      string                        `json:"query" help:"Seed query for route synthesis, e.g. \"session management and expiry\"." tool:"required"`
	AnchorNode string                        `json:"anchor_node" jsonschema:"Default: the query's top node." help:"Anchor node (external id, path or label): the starting focus, and routes are scored by their distance to it."`
	Lens       strictObject[continuity.Lens] `json:"lens" jsonschema:"{dimensions, node_types, families} filter." help:"Optional lens: {\"dimensions\": [structural, semantic, temporal, causal] used by the query's activation, \"node_types\": [\"file\", \"function\", ...] route targets may have, \"families\": route families kept (structural_neighbor, causal_downstream, causal_upstream, test_coverage, co_change, semantic_match, anchor_return)}."`
}

// perspIDParams name a perspective (back, close). The other perspective
// tools' arguments repeat its field rather than embed it, since
// TestBindAgreesWithAccessors reads top-level fields only;
// TestSharedParamsAgree keeps the copies equal.
type perspIDParams struct {
	PerspectiveID string `json:"perspective_id" help:"The perspective (from perspective_start or perspective_list)." tool:"required,maxlen=256"`
}

type perspRoutesParams struct {
	PerspectiveID   string `json:"perspective_id" help:"The perspective (from perspective_start or perspective_list)." tool:"required,maxlen=256"`
	Page            int    `json:"page" help:"Page number (1-based)." tool:"default=1,min=1"`
	PageSize        int    `json:"page_size" jsonschema:"Routes per page, clamped to [1, 10]." tool:"default=6"`
	RouteSetVersion *int   `json:"route_set_version" help:"The version your routes came with (optional: reported when stale)." tool:"min=0"`
}

// perspRouteParams name one route of a perspective.
type perspRouteParams struct {
	PerspectiveID   string `json:"perspective_id" help:"The perspective (from perspective_start or perspective_list)." tool:"required,maxlen=256"`
	RouteID         string `json:"route_id" jsonschema:"R_...; or route_index." help:"The route's stable id (R_...). Give route_id or route_index, not both." tool:"maxlen=64"`
	RouteIndex      *int   `json:"route_index" jsonschema:"1-based; or route_id." help:"The route's index as listed (1-based, the index field of a route; it does not restart on each page)." tool:"min=1,max=60"`
	RouteSetVersion int    `json:"route_set_version" help:"The route_set_version your routes came with: a stale one is refused with the current version." tool:"required,min=0"`
}

type perspVersionParams struct {
	PerspectiveID   string `json:"perspective_id" help:"The perspective (from perspective_start or perspective_list)." tool:"required,maxlen=256"`
	RouteSetVersion int    `json:"route_set_version" help:"The route_set_version your routes came with: a stale one is refused with the current version." tool:"required,min=0"`
}

type perspBranchParams struct {
	PerspectiveID string `json:"perspective_id" help:"The perspective (from perspective_start or perspective_list)." tool:"required,maxlen=256"`
	BranchName    string `json:"branch_name" jsonschema:"Generated when omitted." help:"Name of the branch (generated when omitted)." tool:"maxlen=64"`
}

type perspCompareParams struct {
	PerspectiveIDA string   `json:"perspective_id_a" help:"First perspective (yours)." tool:"required,maxlen=256"`
	PerspectiveIDB string   `json:"perspective_id_b" help:"Second perspective (yours)." tool:"required,maxlen=256"`
	Dimensions     []string `json:"dimensions" help:"Dimensions to compare on (default all four)." tool:"enum=structural|semantic|temporal|causal"`
}

type perspListParams struct{}

func registerPerspectives(r *tools.Registry) {
	own := " Perspectives are per agent: only their owner sees and uses them. agent_id: 1–64 letters, digits, '-', '_' or '.'."
	// The per-agent note is the same for every perspective tool: help and
	// the docs show it, tools/list does not.
	persp := func(t tools.Tool) tools.Tool {
		t.Details = t.Doc() + own
		return t
	}
	tools.Add(r, persp(tools.Tool{
		Name:        "perspective_start",
		Title:       "Start a perspective",
		Description: "Ranked routes from a focus node, to explore an area step by step.",
		Details: "Enter a perspective: a navigable surface of routes from a focus node, synthesised from the query's activation and the focus's neighbourhood (dependencies, dependents, containment, tests, co-change, query matches, the way back to the anchor), each scored from local activation, path coherence, novelty, anchor relevance and continuity. " +
			fmt.Sprintf("With anchor_node the perspective is anchored there (routes stay relevant to it); otherwise the focus is the query's top node. Returns the first page of routes and the route_set_version later calls must quote. At most %d perspectives per agent, %d routes each.", continuity.MaxPerspectivesPerAgent, continuity.MaxRoutes),
		Class:     tools.Write,
		WhenToUse: "Guided exploration of an area over several steps, where you want to keep your place (history, back, branches) and survive a restart.",
		AvoidWhen: "One question with one answer (activate, impact, why).",
		Next:      []string{"perspective_inspect", "perspective_follow", "perspective_routes"},
		Example:   map[string]any{"agent_id": "claude", "query": "session expiry and login", "anchor_node": "file::backend/session.py"},
	}), runPerspectiveStart)
	tools.Add(r, persp(tools.Tool{
		Name:        "perspective_routes",
		Title:       "Page routes",
		Description: "Page through a perspective's routes; also how to recover the current route_set_version.",
		Details:     fmt.Sprintf("Page through the current route set (page_size clamped to [1, %d]). A perspective gone stale (the graph or learned weights changed) is refreshed first; a route_set_version that no longer matches is reported, not refused, since this is how you recover the current one.", routesMaxPageSize),
		Class:       tools.Read,
		WhenToUse:   "The first page was not enough, or a call said your route_set_version is stale.",
		AvoidWhen:   "You already see the route you want (inspect or follow it).",
		Next:        []string{"perspective_inspect", "perspective_follow"},
		Example:     map[string]any{"agent_id": "claude", "perspective_id": "persp_claude_001", "page": 1},
	}), runPerspectiveRoutes)
	tools.Add(r, persp(tools.Tool{
		Name:        "perspective_inspect",
		Title:       "Inspect a route",
		Description: "One route explained without moving: path, family, scores, provenance.",
		Details:     "Expand one route without moving: its full path, family and what it means, score breakdown, provenance of the target (file, lines, whether the file changed on disk since ingest), whether peek can show it, and the target's affinity candidates.",
		Class:       tools.Read,
		WhenToUse:   "Before following a route: why is it there, where does it lead?",
		AvoidWhen:   "You want the code itself (perspective_peek).",
		Next:        []string{"perspective_follow", "perspective_peek"},
		Example:     map[string]any{"agent_id": "claude", "perspective_id": "persp_claude_001", "route_index": 1, "route_set_version": 1},
	}), runPerspectiveInspect)
	tools.Add(r, persp(tools.Tool{
		Name:        "perspective_peek",
		Title:       "Peek at a route's target",
		Description: "A short excerpt of a route target's source, to judge a route before following it.",
		Details:     fmt.Sprintf("Show a small slice of the route target's source: the lines of the node (at most %d lines, %d bytes), read through the same path guard as view (only files under the ingest roots).", peekMaxLines, peekMaxBytes),
		Class:       tools.Read,
		WhenToUse:   "Deciding whether a route is worth following, without leaving the perspective.",
		AvoidWhen:   "You need the whole file (view).",
		Next:        []string{"perspective_follow", "view"},
		Example:     map[string]any{"agent_id": "claude", "perspective_id": "persp_claude_001", "route_index": 1, "route_set_version": 1},
	}), runPerspectivePeek)
	tools.Add(r, persp(tools.Tool{
		Name:        "perspective_follow",
		Title:       "Follow a route",
		Description: "Move the focus to a route's target and get its routes (a new route_set_version).",
		Details:     "Move the focus to a route's target and synthesise the routes from there (a new route_set_version). The move goes on the history stack for perspective_back.",
		Class:       tools.Write,
		WhenToUse:   "The primary move: go where a route leads.",
		AvoidWhen:   "You only want to look (inspect, peek).",
		Next:        []string{"perspective_inspect", "perspective_suggest", "perspective_back"},
		Example:     map[string]any{"agent_id": "claude", "perspective_id": "persp_claude_001", "route_index": 1, "route_set_version": 1},
	}), runPerspectiveFollow)
	tools.Add(r, persp(tools.Tool{
		Name:        "perspective_suggest",
		Title:       "Suggest the next move",
		Description: "Which route to follow next, or whether to go back, with a reason and a confidence.",
		Details:     "Recommend the next move from the routes and the history: follow the best route not yet visited, or go back when the routes here are weak, with the reason and a confidence.",
		Class:       tools.Read,
		WhenToUse:   "Undecided between routes.",
		AvoidWhen:   "You know where you want to go.",
		Next:        []string{"perspective_follow", "perspective_back"},
		Example:     map[string]any{"agent_id": "claude", "perspective_id": "persp_claude_001", "route_set_version": 1},
	}), runPerspectiveSuggest)
	tools.Add(r, persp(tools.Tool{
		Name:        "perspective_affinity",
		Title:       "Route affinities",
		Description: "Nodes sharing many neighbours with a route's target, unlinked: probable edges.",
		Class:       tools.Read,
		WhenToUse:   "Looking for code that should be connected to the target but is not (duplicated logic, a missing dependency).",
		AvoidWhen:   "You want verified dependencies (impact, why).",
		Next:        []string{"why", "perspective_follow"},
		Example:     map[string]any{"agent_id": "claude", "perspective_id": "persp_claude_001", "route_index": 1, "route_set_version": 1},
	}), runPerspectiveAffinity)
	tools.Add(r, persp(tools.Tool{
		Name:        "perspective_branch",
		Title:       "Branch a perspective",
		Description: "Fork a perspective to explore an alternative without losing your place.",
		Details:     "Fork a perspective: the branch starts at the same focus with the same routes, version and history, and moves independently from then on.",
		Class:       tools.Write,
		WhenToUse:   "Exploring two alternatives from the same point without losing your place.",
		AvoidWhen:   "You will not come back to the original.",
		Next:        []string{"perspective_follow", "perspective_compare"},
		Example:     map[string]any{"agent_id": "claude", "perspective_id": "persp_claude_001", "branch_name": "auth-path"},
	}), runPerspectiveBranch)
	tools.Add(r, persp(tools.Tool{
		Name:        "perspective_back",
		Title:       "Go back",
		Description: "Return to the focus before the last follow, with its routes.",
		Details:     "Return to the focus before the last follow (popping the history stack) and its routes.",
		Class:       tools.Write,
		WhenToUse:   "A route led nowhere useful; breadth-first exploration.",
		AvoidWhen:   "You have not followed anything yet.",
		Next:        []string{"perspective_follow", "perspective_suggest"},
		Example:     map[string]any{"agent_id": "claude", "perspective_id": "persp_claude_001"},
	}), runPerspectiveBack)
	tools.Add(r, persp(tools.Tool{
		Name:        "perspective_compare",
		Title:       "Compare two perspectives",
		Description: "Nodes two of your perspectives share and those unique to each, with score differences.",
		Details:     "Compare two of your perspectives: the nodes both reached (focus, anchor, visited and route targets), the nodes unique to each, and per activation dimension the mean score of each perspective's nodes and the difference.",
		Class:       tools.Read,
		WhenToUse:   "After branching, or two queries on one area: where do they overlap?",
		AvoidWhen:   "The perspectives belong to different agents (each agent sees only its own).",
		Next:        []string{"perspective_close", "perspective_follow"},
		Example:     map[string]any{"agent_id": "claude", "perspective_id_a": "persp_claude_001", "perspective_id_b": "persp_claude_002"},
	}), runPerspectiveCompare)
	tools.Add(r, persp(tools.Tool{
		Name:        "perspective_list",
		Title:       "Your perspectives",
		Description: "Your open perspectives with their focus, route count, history depth and staleness.",
		Details:     "Your open perspectives: focus, mode, route count, history length, whether they are stale, times and approximate memory.",
		Class:       tools.Read,
		WhenToUse:   "Session start, or before opening another perspective (the per-agent limit).",
		AvoidWhen:   "You know the perspective id.",
		Next:        []string{"perspective_routes", "perspective_close"},
		Example:     map[string]any{"agent_id": "claude"},
	}), runPerspectiveList)
	tools.Add(r, persp(tools.Tool{
		Name:        "perspective_close",
		Title:       "Close a perspective",
		Description: "Free a perspective and release the locks tied to it, when done exploring.",
		Details:     "Close a perspective, free it, and release the locks tied to it (lock_create with its perspective_id).",
		Class:       tools.Write,
		WhenToUse:   "Done with an exploration, or at the per-agent limit.",
		AvoidWhen:   "You may want to come back (it costs little to keep).",
		Next:        []string{"perspective_list", "trail_save"},
		Example:     map[string]any{"agent_id": "claude", "perspective_id": "persp_claude_001"},
	}), runPerspectiveClose)
}

type routeJSON struct {
	RouteID     string   `json:"route_id"`
	Index       int      `json:"index"`
	TargetNode  string   `json:"target_node"`
	TargetLabel string   `json:"target_label"`
	Family      string   `json:"family"`
	Score       float64  `json:"score"`
	PathPreview []string `json:"path_preview" jsonschema:"Labels of the nodes along the route."`
	Reason      string   `json:"reason"`
}

// perspNavOutput is the answer of start, follow and back.
type perspNavOutput struct {
	PerspectiveID   string      `json:"perspective_id"`
	Mode            string      `json:"mode"`
	ModeEffective   string      `json:"mode_effective" jsonschema:"local when an anchored perspective's focus has drifted more than 3 hops from its anchor."`
	AnchorNode      string      `json:"anchor_node,omitempty"`
	FocusNode       string      `json:"focus_node"`
	PreviousFocus   string      `json:"previous_focus,omitempty" jsonschema:"The focus before this follow."`
	RestoredFocus   string      `json:"restored_focus,omitempty" jsonschema:"The focus back restored."`
	Routes          []routeJSON `json:"routes" jsonschema:"The first page of routes."`
	TotalRoutes     int         `json:"total_routes"`
	Page            int         `json:"page"`
	TotalPages      int         `json:"total_pages"`
	RouteSetVersion uint64      `json:"route_set_version"`
	CacheGeneration uint64      `json:"cache_generation"`
	HistoryDepth    int         `json:"history_depth"`
	Suggested       string      `json:"suggested,omitempty"`
	Refreshed       bool        `json:"refreshed,omitempty" jsonschema:"The perspective was stale (the graph or learned weights changed) and its routes were recomputed."`
	ElapsedMs       float64     `json:"elapsed_ms"`
	tools.Guidance
}

type perspRoutesOutput struct {
	PerspectiveID    string      `json:"perspective_id"`
	Mode             string      `json:"mode"`
	ModeEffective    string      `json:"mode_effective"`
	Anchor           string      `json:"anchor,omitempty"`
	Focus            string      `json:"focus"`
	LensSummary      string      `json:"lens_summary"`
	Page             int         `json:"page"`
	TotalPages       int         `json:"total_pages"`
	TotalRoutes      int         `json:"total_routes"`
	RouteSetVersion  uint64      `json:"route_set_version"`
	CacheGeneration  uint64      `json:"cache_generation"`
	Routes           []routeJSON `json:"routes"`
	Suggested        string      `json:"suggested,omitempty"`
	PageSizeClamped  bool        `json:"page_size_clamped"`
	VersionWasStale  bool        `json:"version_was_stale,omitempty" jsonschema:"The route_set_version you passed is not the current one: use the routes and version of this answer."`
	Refreshed        bool        `json:"refreshed,omitempty"`
	NextStepHintText string      `json:"next_step_hint,omitempty"`
}

type provenanceJSON struct {
	SourcePath      string `json:"source_path,omitempty"`
	LineStart       uint32 `json:"line_start,omitempty"`
	LineEnd         uint32 `json:"line_end,omitempty"`
	Namespace       string `json:"namespace,omitempty"`
	ProvenanceStale bool   `json:"provenance_stale" jsonschema:"The file changed or was deleted on disk since it was ingested."`
}

type perspInspectOutput struct {
	RouteID            string                `json:"route_id"`
	RouteIndex         int                   `json:"route_index"`
	Family             string                `json:"family"`
	FamilyExplanation  string                `json:"family_explanation"`
	TargetNode         string                `json:"target_node"`
	TargetLabel        string                `json:"target_label"`
	TargetType         string                `json:"target_type"`
	Relation           string                `json:"relation,omitempty"`
	PathPreview        []string              `json:"path_preview"`
	Path               []string              `json:"path" jsonschema:"External ids along the route."`
	Reason             string                `json:"reason"`
	Score              float64               `json:"score"`
	ScoreBreakdown     continuity.Breakdown  `json:"score_breakdown"`
	Provenance         provenanceJSON        `json:"provenance"`
	PeekAvailable      bool                  `json:"peek_available"`
	AffinityCandidates []continuity.Affinity `json:"affinity_candidates"`
	RouteSetVersion    uint64                `json:"route_set_version"`
	ResponseChars      int                   `json:"response_chars"`
}

type peekContent struct {
	Excerpt   string `json:"excerpt"`
	FilePath  string `json:"file_path"`
	LineStart int    `json:"line_start"`
	LineEnd   int    `json:"line_end"`
	Truncated bool   `json:"truncated" jsonschema:"The node spans more than the excerpt shows (view shows all of it)."`
}

type perspPeekOutput struct {
	RouteID    string      `json:"route_id"`
	RouteIndex int         `json:"route_index"`
	TargetNode string      `json:"target_node"`
	Content    peekContent `json:"content"`
	tools.Guidance
}

type suggestionJSON struct {
	Action     string  `json:"action" jsonschema:"follow, back or start_new."`
	RouteID    string  `json:"route_id,omitempty"`
	TargetNode string  `json:"target_node,omitempty"`
	Reason     string  `json:"reason"`
	Confidence float64 `json:"confidence"`
}

type perspSuggestOutput struct {
	PerspectiveID   string         `json:"perspective_id"`
	Suggestion      suggestionJSON `json:"suggestion"`
	RouteSetVersion uint64         `json:"route_set_version"`
	tools.Guidance
}

type perspAffinityOutput struct {
	RouteID    string                `json:"route_id"`
	TargetNode string                `json:"target_node"`
	Notice     string                `json:"notice"`
	Candidates []continuity.Affinity `json:"candidates"`
}

type perspBranchOutput struct {
	PerspectiveID       string `json:"perspective_id"`
	BranchPerspectiveID string `json:"branch_perspective_id"`
	BranchName          string `json:"branch_name"`
	BranchedFromFocus   string `json:"branched_from_focus"`
	RouteSetVersion     uint64 `json:"route_set_version"`
}

type dimDeltaJSON struct {
	Dimension string  `json:"dimension"`
	ScoreA    float64 `json:"score_a"`
	ScoreB    float64 `json:"score_b"`
	Delta     float64 `json:"delta"`
}

type perspCompareOutput struct {
	PerspectiveIDA  string         `json:"perspective_id_a"`
	PerspectiveIDB  string         `json:"perspective_id_b"`
	SharedNodes     []string       `json:"shared_nodes"`
	UniqueToA       []string       `json:"unique_to_a"`
	UniqueToB       []string       `json:"unique_to_b"`
	Counts          map[string]int `json:"counts" jsonschema:"Sizes of the three lists before they were cut to 50."`
	DimensionDeltas []dimDeltaJSON `json:"dimension_deltas"`
	ResponseChars   int            `json:"response_chars"`
}

type perspSummaryJSON struct {
	PerspectiveID   string `json:"perspective_id"`
	Mode            string `json:"mode"`
	Query           string `json:"query"`
	AnchorNode      string `json:"anchor_node,omitempty"`
	FocusNode       string `json:"focus_node"`
	BranchName      string `json:"branch_name,omitempty"`
	BranchedFrom    string `json:"branched_from,omitempty"`
	RouteCount      int    `json:"route_count"`
	RouteSetVersion uint64 `json:"route_set_version"`
	NavEventCount   int    `json:"nav_event_count"`
	HistoryDepth    int    `json:"history_depth"`
	Stale           bool   `json:"stale"`
	CreatedAtMs     int64  `json:"created_at_ms"`
	LastAccessedMs  int64  `json:"last_accessed_ms"`
	MemoryBytes     int    `json:"memory_bytes"`
}

type perspListOutput struct {
	AgentID          string             `json:"agent_id"`
	Perspectives     []perspSummaryJSON `json:"perspectives"`
	TotalMemoryBytes int                `json:"total_memory_bytes"`
	Limit            int                `json:"limit" jsonschema:"Perspectives an agent may keep open."`
}

type perspCloseOutput struct {
	PerspectiveID string   `json:"perspective_id"`
	Closed        bool     `json:"closed"`
	LocksReleased []string `json:"locks_released"`
}

func cacheGen(c *tools.Call) uint64 {
	_, _, cg := c.Session.Generations()
	return cg
}

// cacheGenOf is cacheGen for what a reader computes from its bundle b: a
// build may publish a newer graph while the reader runs.
func cacheGenOf(c *tools.Call, b *session.Bundle) uint64 {
	_, _, cg := c.Session.GenerationsOf(b)
	return cg
}

// activationOf runs the perspective's query read-only (no learning) and
// keeps the top MaxActivation nodes.
func activationOf(c *tools.Call, b *session.Bundle, query string, lens continuity.Lens) (map[string]continuity.Act, graph.NodeID, error) {
	out := map[string]continuity.Act{}
	eng, err := tools.QueryEngine(c, b)
	if err != nil {
		return nil, graph.NoNode, err
	}
	dims, err := engine.ParseDimensions(lens.Dimensions)
	if err != nil {
		return nil, graph.NoNode, tools.Errorf("lens.dimensions accepts structural, semantic, temporal and causal.", "%v", err)
	}
	res, err := eng.Activate(c.Ctx, engine.Query{Text: query, TopK: continuity.MaxActivation, Dimensions: dims, NoLearn: true, XLR: c.Session.Config().XLREnabled})
	if err != nil {
		return nil, graph.NoNode, err
	}
	ids := make([]graph.NodeID, 0, len(res.Activated))
	for _, n := range res.Activated {
		a := continuity.Act{Score: tools.R3(n.Activation)}
		for d := range a.Dims {
			a.Dims[d] = tools.R3(n.Dims[d])
		}
		ids = append(ids, n.ID)
		out[b.Graph.ExternalID(n.ID)] = a
	}
	return out, focusOf(b.Graph, ids, query), nil
}

// focusCandidates is how far down the activation a production node is
// looked for before a test is taken as the focus.
const focusCandidates = 10

// focusOf picks where a perspective stands: the query's top node, but
// production code before tests unless the query asks for tests ("route
// matching" on gorilla/mux stood on TestSubrouterMatching, whose name
// holds both words, instead of Router.Match).
func focusOf(g *graph.Graph, ranked []graph.NodeID, query string) graph.NodeID {
	if len(ranked) == 0 {
		return graph.NoNode
	}
	if mentionsTests(query) {
		return ranked[0]
	}
	for _, id := range ranked[:min(len(ranked), focusCandidates)] {
		if !tools.IsTestPath(g.SourcePath(id)) {
			return id
		}
	}
	return ranked[0]
}

// mentionsTests reports a query about tests ("flaky test of login").
func mentionsTests(query string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(query), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		switch w {
		case "test", "tests", "testing", "unittest", "pytest", "spec", "specs", "bench", "benchmark", "fuzz":
			return true
		}
	}
	return false
}

// synth computes p's routes from its focus on b's graph and installs them.
func synth(b *session.Bundle, p *continuity.Perspective) (modeEffective string) {
	g := b.Graph
	focus, _ := g.Lookup(p.Focus)
	anchor := graph.NoNode
	if id, ok := g.Lookup(p.Anchor); ok && p.Anchor != "" {
		anchor = id
	}
	routes, dist := continuity.Synthesize(continuity.SynthInput{G: g, Focus: focus, Anchor: anchor, Act: p.Activation, Visited: p.Visited, Lens: p.Lens, Limit: continuity.MaxRoutes})
	p.SetRoutes(routes)
	if p.Mode == continuity.ModeAnchored && dist < 0 {
		return continuity.ModeLocal
	}
	return p.Mode
}

// refresh recomputes a stale perspective on b: the query's activation,
// the focus (falling back to the anchor or the query's top node when it
// is gone) and the routes. It returns nil when p is current.
func refresh(c *tools.Call, b *session.Bundle, p *continuity.Perspective) (*continuity.Perspective, error) {
	st := c.Session.Continuity()
	cg := cacheGenOf(c, b)
	if !p.Stale(cg, st.Epoch) {
		return nil, nil
	}
	np := p.Clone()
	act, top, err := activationOf(c, b, np.Query, np.Lens)
	if err != nil {
		return nil, err
	}
	np.Activation = act
	g := b.Graph
	if _, ok := g.Lookup(np.Anchor); !ok && np.Anchor != "" {
		np.Anchor, np.Mode = "", continuity.ModeLocal
	}
	if _, ok := g.Lookup(np.Focus); !ok {
		switch {
		case np.Anchor != "":
			np.Focus = np.Anchor
		case top != graph.NoNode:
			np.Focus = g.ExternalID(top)
		default:
			return nil, tools.Errorf("The graph changed under this perspective: its focus, anchor and query no longer match any node. Close it and start a new one.", "perspective %s has nothing left to stand on", p.ID).
				WithNext("Call perspective_close, then perspective_start with a new query.")
		}
	}
	synth(b, np)
	np.CacheGen, np.Epoch = cg, st.Epoch
	return np, nil
}

// current returns the caller's perspective, refreshed when stale, inside
// a graph read; fn then acts on it under the perspective's lock.
func withPersp(c *tools.Call, agent, id string, fn func(b *session.Bundle, p *continuity.Perspective, refreshed bool) (*continuity.Perspective, error)) error {
	ps := c.Session.Continuity().Perspectives
	return tools.ReadGraph(c, func(b *session.Bundle) error {
		refreshed := false
		err := ps.With(agent, id, func(p *continuity.Perspective) (*continuity.Perspective, error) {
			np, err := refresh(c, b, p)
			refreshed = np != nil
			return np, err
		})
		if err != nil {
			return contErr(err)
		}
		return contErr(ps.With(agent, id, func(p *continuity.Perspective) (*continuity.Perspective, error) {
			return fn(b, p, refreshed)
		}))
	})
}

// onRoute runs fn on the route a call names in its perspective (through
// withPersp and pickRoute); the perspective fn returns, when not nil,
// replaces the one stored.
func onRoute[Out any](c *tools.Call, in perspRouteParams, fn func(b *session.Bundle, p *continuity.Perspective, r continuity.Route, refreshed bool) (Out, *continuity.Perspective, error)) (Out, error) {
	var out Out
	agent, err := contAgent(c)
	if err != nil {
		return out, err
	}
	err = withPersp(c, agent, in.PerspectiveID, func(b *session.Bundle, p *continuity.Perspective, refreshed bool) (*continuity.Perspective, error) {
		r, err := pickRoute(agent, p, in)
		if err != nil {
			return nil, err
		}
		var np *continuity.Perspective
		out, np, err = fn(b, p, r, refreshed)
		return np, err
	})
	return out, err
}

// checkVersion refuses a stale route_set_version with the current one.
func checkVersion(agent string, p *continuity.Perspective, v int) error {
	if uint64(v) == p.Version {
		return nil
	}
	e := tools.Errorf(fmt.Sprintf("Routes are quoted with the route_set_version they came with; the current route set is version %d (it changes on follow, back and when the graph or learned weights change). Get the current routes with perspective_routes and retry with route_set_version %d.", p.Version, p.Version),
		"route_set_version %d is stale: perspective %s is at version %d", v, p.ID, p.Version)
	e.Extra = map[string]any{"current_route_set_version": p.Version, "perspective_id": p.ID}
	return e.WithNext(fmt.Sprintf("Call perspective_routes with perspective_id %q.", p.ID)).
		WithCall("perspective_routes", map[string]any{"agent_id": agent, "perspective_id": p.ID, "page": 1})
}

// pickRoute finds the route a call names by id or index (exactly one).
func pickRoute(agent string, p *continuity.Perspective, in perspRouteParams) (continuity.Route, error) {
	if err := checkVersion(agent, p, in.RouteSetVersion); err != nil {
		return continuity.Route{}, err
	}
	ex := map[string]any{"agent_id": agent, "perspective_id": p.ID, "route_index": 1, "route_set_version": p.Version}
	switch {
	case in.RouteID == "" && in.RouteIndex == nil:
		return continuity.Route{}, tools.Errorf("Name the route by route_id (R_...) or by route_index (its index field).", "route_id or route_index is required").WithExample(ex)
	case in.RouteID != "" && in.RouteIndex != nil:
		return continuity.Route{}, tools.Errorf("Give route_id or route_index, not both.", "both route_id and route_index were given").WithExample(ex)
	}
	idx := 0
	if in.RouteIndex != nil {
		idx = *in.RouteIndex
	}
	r, ok := p.Route(strings.TrimSpace(in.RouteID), idx)
	if !ok {
		what := fmt.Sprintf("route_id %q", in.RouteID)
		if in.RouteID == "" {
			what = fmt.Sprintf("route_index %d", idx)
		}
		return r, tools.Errorf(fmt.Sprintf("This route set has %d routes (indexes 1–%d); perspective_routes lists them.", len(p.Routes), len(p.Routes)), "%s is not in perspective %s's route set (version %d)", what, p.ID, p.Version).WithExample(ex)
	}
	return r, nil
}

func page(routes []continuity.Route, g *graph.Graph, pg, size int) ([]routeJSON, int) {
	total := max(1, (len(routes)+size-1)/size)
	out := []routeJSON{}
	for i := (pg - 1) * size; i < min(len(routes), pg*size); i++ {
		r := routes[i]
		out = append(out, routeJSON{RouteID: r.ID, Index: r.Index, TargetNode: r.Target, TargetLabel: r.TargetLabel, Family: r.Family, Score: r.Score, PathPreview: labels(g, r.Path), Reason: r.Reason})
	}
	return out, total
}

func labels(g *graph.Graph, ids []string) []string {
	out := make([]string, 0, len(ids))
	for _, x := range ids {
		if id, ok := g.Lookup(x); ok {
			out = append(out, g.Label(id))
		} else {
			out = append(out, x)
		}
	}
	return out
}

// navOutput renders a perspective after start, follow or back.
func navOutput(c *tools.Call, b *session.Bundle, p *continuity.Perspective, modeEff string, start time.Time) perspNavOutput {
	routes, pages := page(p.Routes, b.Graph, 1, routesPageSize)
	out := perspNavOutput{PerspectiveID: p.ID, Mode: p.Mode, ModeEffective: modeEff, AnchorNode: p.Anchor, FocusNode: p.Focus, Routes: routes,
		TotalRoutes: len(p.Routes), Page: 1, TotalPages: pages, RouteSetVersion: p.Version, CacheGeneration: p.CacheGen, HistoryDepth: len(p.History)}
	out.Guidance = tools.Guidance{ProofState: "triaging", NextStepHint: "No routes lead from here: go back, or start a perspective from another query."}
	if len(p.Routes) > 0 {
		top := p.Routes[0]
		out.Suggested = fmt.Sprintf("inspect %s (%s, %s) before following it", top.ID, top.TargetLabel, strings.ReplaceAll(top.Family, "_", " "))
		out.NextSuggestedTool, out.NextSuggestedTarget = tools.FirstTool(c.Registry, "perspective_inspect", "perspective_follow"), top.ID
		out.NextStepHint = fmt.Sprintf("Inspect or peek at a route (quote route_set_version %d), then follow it; perspective_back returns here.", p.Version)
	}
	out.ElapsedMs = tools.Ms(time.Since(start))
	return out
}

// parseLens checks the lens argument (decoded strictly: an unknown field
// is refused); absent, it is the zero lens.
func parseLens(in strictObject[continuity.Lens]) (continuity.Lens, error) {
	l := in.v
	if in.err != nil {
		ex := `{"dimensions": ["structural", "causal"], "node_types": ["file"], "families": ["causal_downstream"]}`
		return l, tools.Errorf("lens is an object like "+ex+"; every field is optional.", "lens: %v", in.err)
	}
	if _, err := engine.ParseDimensions(l.Dimensions); err != nil {
		return l, tools.Errorf("lens.dimensions accepts structural, semantic, temporal and causal.", "%v", err)
	}
	for _, f := range l.Families {
		if !slices.Contains(continuity.Families, f) {
			return l, tools.Errorf("lens.families accepts "+strings.Join(continuity.Families, ", ")+".", "lens.families: unknown family %q", f)
		}
	}
	types := []string{}
	for _, t := range []graph.NodeType{graph.File, graph.Directory, graph.Function, graph.Class, graph.Struct, graph.Enum, graph.Type, graph.Module, graph.Reference, graph.Concept} {
		types = append(types, tools.TypeName(t))
	}
	for i, t := range l.NodeTypes {
		l.NodeTypes[i] = strings.ToLower(t)
		if !slices.Contains(types, l.NodeTypes[i]) {
			return l, tools.Errorf("lens.node_types accepts "+strings.Join(types, ", ")+".", "lens.node_types: unknown type %q", t)
		}
	}
	return l, nil
}

func lensSummary(l continuity.Lens) string {
	parts := []string{"all dimensions"}
	if len(l.Dimensions) > 0 {
		parts[0] = "dimensions " + strings.Join(l.Dimensions, ", ")
	}
	if len(l.NodeTypes) > 0 {
		parts = append(parts, "types "+strings.Join(l.NodeTypes, ", "))
	} else {
		parts = append(parts, "no type filter")
	}
	if len(l.Families) > 0 {
		parts = append(parts, "families "+strings.Join(l.Families, ", "))
	}
	return strings.Join(parts, "; ")
}

func runPerspectiveStart(c *tools.Call, in perspStartParams) (perspNavOutput, error) {
	agent, err := contAgent(c)
	if err != nil {
		return perspNavOutput{}, err
	}
	if strings.TrimSpace(in.Query) == "" {
		return perspNavOutput{}, tools.Errorf("query seeds the routes: a few words or identifiers, e.g. \"session expiry\".", "query must not be empty")
	}
	lens, err := parseLens(in.Lens)
	if err != nil {
		return perspNavOutput{}, err
	}
	st := c.Session.Continuity()
	start := time.Now()
	var out perspNavOutput
	err = tools.ReadGraph(c, func(b *session.Bundle) error {
		g := b.Graph
		p := continuity.Perspective{AgentID: agent, Query: strings.TrimSpace(in.Query), Lens: lens, Mode: continuity.ModeLocal, CacheGen: cacheGenOf(c, b), Epoch: st.Epoch}
		if in.AnchorNode != "" {
			id, err := tools.ResolveNode(b, in.AnchorNode, "anchor_node")
			if err != nil {
				return err
			}
			p.Anchor, p.Focus, p.Mode = g.ExternalID(id), g.ExternalID(id), continuity.ModeAnchored
		}
		act, top, err := activationOf(c, b, p.Query, lens)
		if err != nil {
			return err
		}
		p.Activation = act
		if p.Focus == "" {
			if top == graph.NoNode {
				return tools.Errorf("A perspective needs a place to stand: the query matched no node. Use other words (seek finds code by description) or pass anchor_node.", "query %q matches no node", p.Query).
					WithExample(map[string]any{"agent_id": agent, "query": p.Query, "anchor_node": "file::path/to/file.py"})
			}
			p.Focus = g.ExternalID(top)
		}
		p.AddVisited(p.Focus)
		modeEff := synth(b, &p)
		saved, err := st.Perspectives.Start(p)
		if err != nil {
			return contErr(err)
		}
		out = navOutput(c, b, saved, modeEff, start)
		return nil
	})
	return out, err
}

func runPerspectiveRoutes(c *tools.Call, in perspRoutesParams) (perspRoutesOutput, error) {
	agent, err := contAgent(c)
	if err != nil {
		return perspRoutesOutput{}, err
	}
	size := min(max(in.PageSize, 1), routesMaxPageSize)
	var out perspRoutesOutput
	err = withPersp(c, agent, in.PerspectiveID, func(b *session.Bundle, p *continuity.Perspective, refreshed bool) (*continuity.Perspective, error) {
		routes, pages := page(p.Routes, b.Graph, in.Page, size)
		if in.Page > pages {
			return nil, tools.Errorf(fmt.Sprintf("This route set has %d page(s) of %d routes.", pages, size), "page %d is past the last page (%d)", in.Page, pages).
				WithExample(map[string]any{"agent_id": agent, "perspective_id": p.ID, "page": pages, "page_size": size})
		}
		out = perspRoutesOutput{PerspectiveID: p.ID, Mode: p.Mode, ModeEffective: p.Mode, Anchor: p.Anchor, Focus: p.Focus, LensSummary: lensSummary(p.Lens),
			Page: in.Page, TotalPages: pages, TotalRoutes: len(p.Routes), RouteSetVersion: p.Version, CacheGeneration: p.CacheGen, Routes: routes,
			PageSizeClamped: size != in.PageSize, Refreshed: refreshed}
		if in.RouteSetVersion != nil && uint64(*in.RouteSetVersion) != p.Version {
			out.VersionWasStale = true
			out.NextStepHintText = fmt.Sprintf("Your route_set_version %d is stale; quote %d with these routes.", *in.RouteSetVersion, p.Version)
		}
		if len(routes) > 0 {
			out.Suggested = fmt.Sprintf("inspect %s (%s)", routes[0].RouteID, routes[0].TargetLabel)
		}
		return nil, nil
	})
	return out, err
}

var familyExplanations = map[string]string{
	continuity.FamilyStructural: "Containment: the target holds the focus or is held by it (same file, class or directory).",
	continuity.FamilyDownstream: "A dependency: the focus (or something it depends on) imports, calls, references or extends the target.",
	continuity.FamilyUpstream:   "A dependent: the target imports, calls, references or extends the focus, so it is affected when the focus changes.",
	continuity.FamilyTest:       "A test relation: one tests the other.",
	continuity.FamilyCoChange:   "Co-change: the two change together in the git history.",
	continuity.FamilySemantic:   "A query match: the perspective's query activates the target, though no edge joins it to the focus.",
	continuity.FamilyAnchor:     "The way back to the perspective's anchor.",
}

func runPerspectiveInspect(c *tools.Call, in perspRouteParams) (perspInspectOutput, error) {
	return onRoute(c, in, func(b *session.Bundle, p *continuity.Perspective, r continuity.Route, _ bool) (perspInspectOutput, *continuity.Perspective, error) {
		g := b.Graph
		id, _ := g.Lookup(r.Target)
		prov := g.Provenance(id)
		out := perspInspectOutput{RouteID: r.ID, RouteIndex: r.Index, Family: r.Family, FamilyExplanation: familyExplanations[r.Family], TargetNode: r.Target,
			TargetLabel: r.TargetLabel, TargetType: r.TargetType, Relation: r.Relation, PathPreview: labels(g, r.Path), Path: r.Path, Reason: r.Reason,
			Score: r.Score, ScoreBreakdown: r.Breakdown, RouteSetVersion: p.Version,
			Provenance:         provenanceJSON{SourcePath: prov.SourcePath, LineStart: prov.LineStart, LineEnd: prov.LineEnd, Namespace: prov.Namespace},
			AffinityCandidates: continuity.Affinities(g, id, inspectAffinities)}
		if f := tools.FileOf(g, id); g.Type(f) == graph.File {
			out.Provenance.ProvenanceStale = slices.Contains(c.Session.Staleness(b).StaleIDs(), g.ExternalID(f))
		}
		out.PeekAvailable = peekSource(b, id) != ""
		if data, err := json.Marshal(out); err == nil {
			out.ResponseChars = len(data)
		}
		return out, nil, nil
	})
}

// peekSource is the graph path of a node's source file, when it has one
// the guard can read ("" otherwise).
func peekSource(b *session.Bundle, id graph.NodeID) string {
	g := b.Graph
	p := g.SourcePath(id)
	if p == "" && g.Type(id) == graph.File {
		p = strings.TrimPrefix(g.ExternalID(id), "file::")
	}
	if p == "" || len(b.Roots) == 0 {
		return ""
	}
	res, _, _, err := tools.BundleSpace(b).Resolve(tools.BundleGuard(b), p)
	if err != nil || !res.Exists {
		return ""
	}
	return p
}

func runPerspectivePeek(c *tools.Call, in perspRouteParams) (perspPeekOutput, error) {
	return onRoute(c, in, func(b *session.Bundle, _ *continuity.Perspective, r continuity.Route, _ bool) (perspPeekOutput, *continuity.Perspective, error) {
		g := b.Graph
		id, _ := g.Lookup(r.Target)
		src := peekSource(b, id)
		if src == "" {
			return perspPeekOutput{}, nil, tools.Errorf("peek reads a node's source file under the ingest roots; this target has none that can be read (a directory, an external reference, or a file gone from disk). Inspect it, or follow the route and peek at a route from there.",
				"route %s's target %s has no readable source", r.ID, r.Target)
		}
		t, err := tools.ResolveView(b, src, "target source")
		if err != nil {
			return perspPeekOutput{}, nil, err
		}
		data, _, err := tools.ReadView(t.Res, "target source")
		if err != nil {
			return perspPeekOutput{}, nil, err
		}
		prov := g.Provenance(id)
		out := perspPeekOutput{RouteID: r.ID, RouteIndex: r.Index, TargetNode: r.Target, Content: excerpt(data, src, int(prov.LineStart), int(prov.LineEnd))}
		out.Guidance = tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "perspective_follow"), NextSuggestedTarget: r.ID,
			NextStepHint: "Follow the route if this is what you are after; view shows the whole file."}
		if out.Content.Truncated {
			out.NextSuggestedTool, out.NextSuggestedTarget = tools.FirstTool(c.Registry, "view"), src
		}
		return out, nil, nil
	})
}

// excerpt cuts lines [start, end] (1-based; the file's head when unknown)
// to peekMaxLines lines and peekMaxBytes bytes.
func excerpt(data []byte, file string, start, end int) peekContent {
	lines := strings.SplitAfter(string(data), "\n")
	if start < 1 || start > len(lines) {
		start = 1
	}
	if end < start {
		end = start + peekMaxLines - 1
	}
	end = min(end, len(lines))
	last := min(end, start+peekMaxLines-1)
	var sb strings.Builder
	truncated := last < end
	for i := start; i <= last; i++ {
		if sb.Len()+len(lines[i-1]) > peekMaxBytes {
			truncated, last = true, i-1
			break
		}
		sb.WriteString(lines[i-1])
	}
	return peekContent{Excerpt: strings.ToValidUTF8(sb.String(), "�"), FilePath: file, LineStart: start, LineEnd: max(last, start), Truncated: truncated}
}

func runPerspectiveFollow(c *tools.Call, in perspRouteParams) (perspNavOutput, error) {
	start := time.Now()
	return onRoute(c, in, func(b *session.Bundle, p *continuity.Perspective, r continuity.Route, refreshed bool) (perspNavOutput, *continuity.Perspective, error) {
		np := p.Clone()
		np.Push(r.ID, time.Now().UnixMilli())
		prev := np.Focus
		np.Focus = r.Target
		np.AddVisited(r.Target)
		modeEff := synth(b, np)
		out := navOutput(c, b, np, modeEff, start)
		out.PreviousFocus, out.Refreshed = prev, refreshed
		return out, np, nil
	})
}

func runPerspectiveBack(c *tools.Call, in perspIDParams) (perspNavOutput, error) {
	agent, err := contAgent(c)
	if err != nil {
		return perspNavOutput{}, err
	}
	start := time.Now()
	var out perspNavOutput
	err = withPersp(c, agent, in.PerspectiveID, func(b *session.Bundle, p *continuity.Perspective, refreshed bool) (*continuity.Perspective, error) {
		if len(p.History) == 0 {
			return nil, tools.Errorf("back undoes a follow; this perspective is still where it started. Follow a route first, or branch to explore an alternative.", "perspective %s has no history to go back to", p.ID).
				WithNext("Call perspective_routes to see the routes from here.")
		}
		np := p.Clone()
		last := np.History[len(np.History)-1]
		np.History = np.History[:len(np.History)-1]
		np.NavCount++
		np.Focus, np.Mode = last.Focus, last.Mode
		if _, ok := b.Graph.Lookup(np.Focus); !ok {
			np.Focus = p.Focus // the earlier focus is gone: stay
		}
		modeEff := synth(b, np)
		out = navOutput(c, b, np, modeEff, start)
		out.RestoredFocus, out.Refreshed = np.Focus, refreshed
		return np, nil
	})
	return out, err
}

func runPerspectiveSuggest(c *tools.Call, in perspVersionParams) (perspSuggestOutput, error) {
	agent, err := contAgent(c)
	if err != nil {
		return perspSuggestOutput{}, err
	}
	var out perspSuggestOutput
	err = withPersp(c, agent, in.PerspectiveID, func(b *session.Bundle, p *continuity.Perspective, _ bool) (*continuity.Perspective, error) {
		if err := checkVersion(agent, p, in.RouteSetVersion); err != nil {
			return nil, err
		}
		out = perspSuggestOutput{PerspectiveID: p.ID, RouteSetVersion: p.Version, Suggestion: suggest(b.Graph, p)}
		out.Guidance = tools.Guidance{ProofState: "triaging", NextStepHint: out.Suggestion.Reason}
		switch out.Suggestion.Action {
		case "follow":
			out.NextSuggestedTool, out.NextSuggestedTarget = tools.FirstTool(c.Registry, "perspective_follow"), out.Suggestion.RouteID
		case "back":
			out.NextSuggestedTool = tools.FirstTool(c.Registry, "perspective_back")
		default:
			out.NextSuggestedTool = tools.FirstTool(c.Registry, "perspective_start", "trail_save")
		}
		return nil, nil
	})
	return out, err
}

// suggest picks the next move: the best route to a node not yet visited
// (dependencies and dependents first among equals), or back when every
// route here is weak or visited.
func suggest(g *graph.Graph, p *continuity.Perspective) suggestionJSON {
	var best *continuity.Route
	for i := range p.Routes {
		r := &p.Routes[i]
		if slices.Contains(p.Visited, r.Target) {
			continue
		}
		if best == nil || r.Score > best.Score || r.Score == best.Score && causalFamily(r.Family) && !causalFamily(best.Family) {
			best = r
		}
	}
	if best != nil && (best.Score >= 0.3 || len(p.History) == 0) {
		reason := fmt.Sprintf("Highest-scoring route not yet explored: %s.", best.Reason)
		if id, ok := g.Lookup(best.Target); ok {
			if deg := g.Degree(id); deg >= 10 {
				reason += fmt.Sprintf(" %s is a hub with %d connections.", best.TargetLabel, deg)
			}
		}
		return suggestionJSON{Action: "follow", RouteID: best.ID, TargetNode: best.Target, Reason: reason, Confidence: best.Score}
	}
	if len(p.History) > 0 {
		prev := p.History[len(p.History)-1]
		return suggestionJSON{Action: "back", TargetNode: prev.Focus, Reason: "The routes from here are weak or already explored: go back to " + prev.Focus + " and take another route.", Confidence: 0.5}
	}
	return suggestionJSON{Action: "start_new", Reason: "Every route from here has been explored: save what you found (trail_save) or start a perspective from another query.", Confidence: 0.3}
}

func causalFamily(f string) bool {
	return f == continuity.FamilyDownstream || f == continuity.FamilyUpstream
}

func runPerspectiveAffinity(c *tools.Call, in perspRouteParams) (perspAffinityOutput, error) {
	return onRoute(c, in, func(b *session.Bundle, _ *continuity.Perspective, r continuity.Route, _ bool) (perspAffinityOutput, *continuity.Perspective, error) {
		id, _ := b.Graph.Lookup(r.Target)
		return perspAffinityOutput{RouteID: r.ID, TargetNode: r.Target, Notice: "Probable connections, not verified edges.", Candidates: continuity.Affinities(b.Graph, id, affinityTopK)}, nil, nil
	})
}

func runPerspectiveBranch(c *tools.Call, in perspBranchParams) (perspBranchOutput, error) {
	agent, err := contAgent(c)
	if err != nil {
		return perspBranchOutput{}, err
	}
	name := strings.TrimSpace(in.BranchName)
	if strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return perspBranchOutput{}, tools.Errorf("branch_name is a short printable name, e.g. \"auth-path\".", "branch_name has control characters")
	}
	ps := c.Session.Continuity().Perspectives
	src, err := ps.Get(agent, in.PerspectiveID)
	if err != nil {
		return perspBranchOutput{}, contErr(err)
	}
	np := src.Clone()
	np.BranchedFrom = src.ID
	np.BranchName = name
	if name == "" {
		np.BranchName = fmt.Sprintf("branch-of-%s", src.ID)
	}
	saved, err := ps.Start(*np)
	if err != nil {
		return perspBranchOutput{}, contErr(err)
	}
	return perspBranchOutput{PerspectiveID: src.ID, BranchPerspectiveID: saved.ID, BranchName: saved.BranchName, BranchedFromFocus: saved.Focus, RouteSetVersion: saved.Version}, nil
}

func perspNodes(p *continuity.Perspective) map[string]bool {
	set := map[string]bool{p.Focus: true}
	if p.Anchor != "" {
		set[p.Anchor] = true
	}
	for _, v := range p.Visited {
		set[v] = true
	}
	for _, r := range p.Routes {
		set[r.Target] = true
	}
	return set
}

func runPerspectiveCompare(c *tools.Call, in perspCompareParams) (perspCompareOutput, error) {
	agent, err := contAgent(c)
	if err != nil {
		return perspCompareOutput{}, err
	}
	ps := c.Session.Continuity().Perspectives
	a, err := ps.Get(agent, in.PerspectiveIDA)
	if err != nil {
		return perspCompareOutput{}, contErr(err)
	}
	b, err := ps.Get(agent, in.PerspectiveIDB)
	if err != nil {
		return perspCompareOutput{}, contErr(err)
	}
	na, nb := perspNodes(a), perspNodes(b)
	out := perspCompareOutput{PerspectiveIDA: a.ID, PerspectiveIDB: b.ID, SharedNodes: []string{}, UniqueToA: []string{}, UniqueToB: []string{}, Counts: map[string]int{}}
	for _, x := range sortedSet(na) {
		if nb[x] {
			out.SharedNodes = append(out.SharedNodes, x)
		} else {
			out.UniqueToA = append(out.UniqueToA, x)
		}
	}
	for _, x := range sortedSet(nb) {
		if !na[x] {
			out.UniqueToB = append(out.UniqueToB, x)
		}
	}
	out.Counts = map[string]int{"shared_nodes": len(out.SharedNodes), "unique_to_a": len(out.UniqueToA), "unique_to_b": len(out.UniqueToB)}
	out.SharedNodes, out.UniqueToA, out.UniqueToB = tools.FirstN(out.SharedNodes, 50), tools.FirstN(out.UniqueToA, 50), tools.FirstN(out.UniqueToB, 50)
	dims := in.Dimensions
	if len(dims) == 0 {
		dims = tools.DimensionNames
	}
	for _, d := range dims {
		i := slices.Index(tools.DimensionNames, d)
		sa, sb := meanDim(a, na, i), meanDim(b, nb, i)
		out.DimensionDeltas = append(out.DimensionDeltas, dimDeltaJSON{Dimension: d, ScoreA: sa, ScoreB: sb, Delta: float64(tools.R3(float32(sa - sb)))})
	}
	if data, err := json.Marshal(out); err == nil {
		out.ResponseChars = len(data)
	}
	return out, nil
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// meanDim is the mean score of dimension d over a perspective's nodes in
// its own query's activation (0 for nodes the query did not reach).
func meanDim(p *continuity.Perspective, nodes map[string]bool, d int) float64 {
	if len(nodes) == 0 || d < 0 {
		return 0
	}
	sum := 0.0
	for x := range nodes {
		sum += p.Activation[x].Dims[d]
	}
	return float64(tools.R3(float32(sum / float64(len(nodes)))))
}

func runPerspectiveList(c *tools.Call, _ perspListParams) (perspListOutput, error) {
	agent, err := contAgent(c)
	if err != nil {
		return perspListOutput{}, err
	}
	st := c.Session.Continuity()
	cg := cacheGen(c)
	out := perspListOutput{AgentID: agent, Perspectives: []perspSummaryJSON{}, Limit: continuity.MaxPerspectivesPerAgent}
	for _, p := range st.Perspectives.List(agent) {
		size := 0
		if data, err := json.Marshal(p); err == nil {
			size = len(data)
		}
		out.TotalMemoryBytes += size
		out.Perspectives = append(out.Perspectives, perspSummaryJSON{
			PerspectiveID: p.ID, Mode: p.Mode, Query: p.Query, AnchorNode: p.Anchor, FocusNode: p.Focus, BranchName: p.BranchName, BranchedFrom: p.BranchedFrom,
			RouteCount: len(p.Routes), RouteSetVersion: p.Version, NavEventCount: p.NavCount, HistoryDepth: len(p.History), Stale: p.Stale(cg, st.Epoch),
			CreatedAtMs: p.CreatedMs, LastAccessedMs: p.AccessedMs, MemoryBytes: size,
		})
	}
	return out, nil
}

func runPerspectiveClose(c *tools.Call, in perspIDParams) (perspCloseOutput, error) {
	agent, err := contAgent(c)
	if err != nil {
		return perspCloseOutput{}, err
	}
	st := c.Session.Continuity()
	if err := st.Perspectives.Close(agent, in.PerspectiveID); err != nil {
		return perspCloseOutput{}, contErr(err)
	}
	return perspCloseOutput{PerspectiveID: in.PerspectiveID, Closed: true, LocksReleased: st.Locks.ReleaseForPerspective(agent, in.PerspectiveID)}, nil
}
