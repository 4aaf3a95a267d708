package continuity

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/continuity"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// The bounds and enums below are continuity's (MaxLabel, MaxHypotheses,
// TrailStatuses …); TestDeclaredBoundsFollowTheStore holds them together.
type trailSaveParams struct {
	Label         string                       `json:"label" help:"Human-readable label for this investigation, e.g. \"auth-leak-investigation\"." tool:"required,maxlen=200"`
	Hypotheses    []strictObject[hypothesisIn] `json:"hypotheses" jsonschema:"{statement, confidence, supporting_nodes, contradicting_nodes, status}" help:"Hypotheses formed: {statement (required), confidence (0–1, default 0.5), supporting_nodes, contradicting_nodes, status}." tool:"maxitems=50"`
	Conclusions   []strictObject[conclusionIn] `json:"conclusions" jsonschema:"{statement, confidence, from_hypotheses, supporting_nodes}" help:"Conclusions reached: {statement (required), confidence (0–1, default 0.5), from_hypotheses, supporting_nodes}." tool:"maxitems=50"`
	OpenQuestions []string                     `json:"open_questions" help:"Questions left for later." tool:"maxitems=50,maxlen=2000"`
	Tags          []string                     `json:"tags" help:"Tags for organisation and trail_list filters." tool:"maxitems=20,maxlen=64"`
	Summary       string                       `json:"summary" jsonschema:"Generated when omitted." help:"Summary; generated from the hypotheses, conclusions and questions when omitted." tool:"maxlen=2000"`
	// VisitedNodes is nil when absent: the open perspectives' nodes are
	// taken instead.
	VisitedNodes     *[]strictObject[visitedIn] `json:"visited_nodes" jsonschema:"{node_external_id, annotation, relevance}; default: your perspectives' nodes" help:"Visited nodes: {node_external_id (required), annotation, relevance (0–1, default 0.5)}. Omitted: the nodes your open perspectives focused on and visited." tool:"maxitems=500"`
	ActivationBoosts map[string]float64         `json:"activation_boosts" jsonschema:"Node id to boost in [0, 1], applied on resume." help:"Map of node id to a boost in [0, 1], re-injected into activation on resume, e.g. {\"file::backend/session.py\": 0.8}."`
}

type hypothesisIn struct {
	Statement          string   `json:"statement"`
	Confidence         *float64 `json:"confidence,omitempty"`
	SupportingNodes    []string `json:"supporting_nodes,omitempty"`
	ContradictingNodes []string `json:"contradicting_nodes,omitempty"`
	Status             string   `json:"status,omitempty"`
}

type conclusionIn struct {
	Statement       string   `json:"statement"`
	Confidence      *float64 `json:"confidence,omitempty"`
	FromHypotheses  []string `json:"from_hypotheses,omitempty"`
	SupportingNodes []string `json:"supporting_nodes,omitempty"`
}

type visitedIn struct {
	NodeExternalID string   `json:"node_external_id"`
	Annotation     string   `json:"annotation,omitempty"`
	Relevance      *float64 `json:"relevance,omitempty"`
}

type trailResumeParams struct {
	TrailID string `json:"trail_id" help:"Trail to resume (from trail_save or trail_list)." tool:"required,maxlen=256"`
	Force   bool   `json:"force" jsonschema:"Resume a stale trail (over half its nodes missing)." help:"Resume even when the trail is stale (more than 50% of its nodes missing)." tool:"default=false"`
}

type trailListParams struct {
	FilterAgentID string   `json:"filter_agent_id" help:"Only this agent's trails (default: all agents)." tool:"maxlen=64"`
	FilterStatus  string   `json:"filter_status" help:"Only trails with this status." tool:"enum=active|saved|archived|stale|merged"`
	FilterTags    []string `json:"filter_tags" help:"Only trails with at least one of these tags." tool:"maxitems=20,maxlen=64"`
	Limit         int      `json:"limit" help:"Maximum trails listed (total_count counts all matches)." tool:"default=50,min=1,max=500"`
}

type trailMergeParams struct {
	TrailIDs []string `json:"trail_ids" help:"Two to ten trail ids to merge." jsonschema:"Two to ten trail ids." tool:"required,maxitems=10,maxlen=256"`
	Label    string   `json:"label" jsonschema:"Generated when omitted." help:"Label of the merged trail (generated from the sources' labels when omitted)." tool:"maxlen=200"`
}

func registerTrails(r *tools.Registry) {
	agentNote := " agent_id: 1–64 letters, digits, '-', '_' or '.' (it names the trail's owner)."
	tools.Add(r, tools.Tool{
		Name:        "trail_save",
		Title:       "Save a trail",
		Description: "Save your investigation so any agent can resume it after a restart or context reset.",
		Details: "Persist the current investigation — hypotheses, conclusions, open questions, visited nodes, activation boosts and tags — as a trail any agent can resume later (after a restart, a context reset, or by another agent). " +
			"Node references are resolved and checked against the graph; each node's signature is kept so a resume can tell which nodes changed. visited_nodes defaults to what your open perspectives visited. A summary is generated when omitted." + agentNote,
		Class:     tools.Write,
		WhenToUse: "At the end of an investigation, before a context compaction, or to hand an investigation to another agent.",
		AvoidWhen: "You want a small fact that every session should start with (boot_memory).",
		Next:      []string{"trail_list", "trail_resume"},
		Example: map[string]any{"agent_id": "claude", "label": "session-expiry-investigation", "tags": []string{"auth", "session"},
			"hypotheses":        []map[string]any{{"statement": "Expired sessions are still accepted by login", "confidence": 0.6, "supporting_nodes": []string{"file::backend/session.py"}}},
			"open_questions":    []string{"Who calls SessionStore.lookup?"},
			"activation_boosts": map[string]any{"file::backend/session.py": 0.8}},
	}, runTrailSave)
	tools.Add(r, tools.Tool{
		Name:        "trail_resume",
		Title:       "Resume a saved trail",
		Description: "Resume any agent's saved investigation: boosts re-applied, what changed, where to go on.",
		Details: "Restore a saved investigation (yours or another agent's): checks that its nodes still exist and which changed since the save, re-injects its activation boosts (and a light boost for visited nodes) into later activate queries, downgrades hypotheses whose supporting nodes are gone, and returns resume hints: the next focus node, the next open question and the tool to call. " +
			"A trail with more than half of its nodes missing is stale and is refused unless force is true." + agentNote,
		Class:     tools.Write,
		WhenToUse: "At session start to pick up an investigation, after a re-ingest to see what survived, or to take over another agent's investigation.",
		AvoidWhen: "You only want to prime the graph for a new task (warmup).",
		Next:      []string{"view", "activate", "perspective_start", "trail_save"},
		Example:   map[string]any{"agent_id": "claude", "trail_id": "trail_claude_001_a1b2c3"},
	}, runTrailResume)
	tools.Add(r, tools.Tool{
		Name:        "trail_list",
		Title:       "Saved trails",
		Description: "Saved trails of all agents (or one), newest first, with summaries.",
		Details:     "List saved investigation trails of every agent (or one), most recently modified first, with compact summaries to choose one to resume. Filters: owner, status (active, saved, archived, stale, merged), tags (any match).",
		Class:       tools.Read,
		WhenToUse:   "Session start (what can be resumed?), multi-agent coordination (what did the others find?), cleanup.",
		AvoidWhen:   "You already know the trail id (trail_resume).",
		Next:        []string{"trail_resume", "trail_merge"},
		Example:     map[string]any{"agent_id": "claude", "filter_tags": []string{"auth"}},
	}, runTrailList)
	tools.Add(r, tools.Tool{
		Name:        "trail_merge",
		Title:       "Merge trails",
		Description: "Merge trails into a new one of yours, with conflicting hypotheses and links between them.",
		Details: "Combine two or more trails (any agent's) into a new trail owned by the caller: visited nodes, boosts, hypotheses, conclusions, questions and tags are united, identical statements merged. " +
			"Contradicting hypotheses (a node one supports and the other contradicts, or the same statement negated) are reported as conflicts and resolved by confidence plus a recency bonus when the scores differ by at least 0.15, else left unresolved. " +
			"Direct graph edges between nodes only one trail visited are reported as connections. The source trails are marked merged." + agentNote,
		Class:     tools.Write,
		WhenToUse: "Several agents investigated the same area: find where they converge and where they disagree.",
		AvoidWhen: "The trails are unrelated; merging them only blurs both.",
		Next:      []string{"trail_resume", "trail_list"},
		Example:   map[string]any{"agent_id": "claude", "trail_ids": []string{"trail_claude_001_a1b2c3", "trail_analyst_002_d4e5f6"}, "label": "combined-session-investigation"},
	}, runTrailMerge)
}

// contAgent is the calling agent, checked for owning continuity state.
func contAgent(c *tools.Call) (string, error) {
	if err := continuity.ValidateAgentID(c.AgentID); err != nil {
		return "", contErr(err)
	}
	return c.AgentID, nil
}

// contErr turns a continuity refusal into a teaching tool error.
func contErr(err error) error {
	var ce *continuity.Error
	if !errors.As(err, &ce) {
		return err
	}
	e := tools.Errorf(ce.Hint, "%s", ce.Msg)
	e.SuggestedNextStep = ce.Next
	if len(ce.Details) > 0 {
		e.Extra = ce.Details
	}
	return e
}

// stampsOf gives the file stamps of a bundle by file node id.
var stampsKey = session.NewKey[map[string][2]int64]("continuity.stamps")

func stampsOf(b *session.Bundle) continuity.Stamp {
	m, _ := session.Derive(b, stampsKey, func(*graph.Graph) (map[string][2]int64, error) {
		m := map[string][2]int64{}
		for _, r := range b.Files {
			for _, f := range r.Files {
				m[r.Prefix+f.Rel] = [2]int64{f.Size, f.MTimeNS}
			}
		}
		return m, nil
	})
	return func(id string) (int64, int64, bool) {
		s, ok := m[id]
		return s[0], s[1], ok
	}
}

// nodeResolver resolves references once each to external ids.
type nodeResolver struct {
	b    *session.Bundle
	seen map[string]string
}

func (nr *nodeResolver) ext(ref, param string) (string, error) {
	if x, ok := nr.seen[ref]; ok {
		return x, nil
	}
	id, err := tools.ResolveNode(nr.b, ref, param)
	if err != nil {
		return "", err
	}
	x := nr.b.Graph.ExternalID(id)
	nr.seen[ref] = x
	return x, nil
}

func (nr *nodeResolver) list(refs []string, param string) ([]string, error) {
	out := make([]string, 0, len(refs))
	for _, r := range refs {
		x, err := nr.ext(r, param)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

func conf(p *float64) float64 {
	if p == nil {
		return 0.5
	}
	return *p
}

type trailSaveOutput struct {
	TrailID                   string `json:"trail_id"`
	Label                     string `json:"label"`
	AgentID                   string `json:"agent_id"`
	Status                    string `json:"status"`
	NodesSaved                int    `json:"nodes_saved" jsonschema:"Distinct nodes the trail names (visited, boosted, supporting or contradicting a claim)."`
	HypothesesSaved           int    `json:"hypotheses_saved"`
	ConclusionsSaved          int    `json:"conclusions_saved"`
	OpenQuestionsSaved        int    `json:"open_questions_saved"`
	ActivationBoostsSaved     int    `json:"activation_boosts_saved"`
	VisitedFrom               string `json:"visited_from" jsonschema:"given, perspectives (captured from your open perspectives) or none."`
	GraphGenerationAtCreation uint64 `json:"graph_generation_at_creation"`
	CreatedAtMs               int64  `json:"created_at_ms"`
	Summary                   string `json:"summary"`
	Durable                   bool   `json:"durable" jsonschema:"The trail is on disk and survives a restart (false in a memory-only session)."`
	tools.Guidance
}

func runTrailSave(c *tools.Call, in trailSaveParams) (trailSaveOutput, error) {
	agent, err := contAgent(c)
	if err != nil {
		return trailSaveOutput{}, err
	}
	hyps, err := strictItems("hypotheses", in.Hypotheses, `{"statement": "Tokens leak through the pool", "confidence": 0.7, "supporting_nodes": ["file::pool.py"]}`)
	if err != nil {
		return trailSaveOutput{}, err
	}
	concs, err := strictItems("conclusions", in.Conclusions, `{"statement": "The pool never expires tokens", "confidence": 0.8, "supporting_nodes": ["file::pool.py"]}`)
	if err != nil {
		return trailSaveOutput{}, err
	}
	var visited []visitedIn
	if in.VisitedNodes != nil {
		visited, err = strictItems("visited_nodes", *in.VisitedNodes, `{"node_external_id": "file::pool.py", "annotation": "creates tokens", "relevance": 0.8}`)
		if err != nil {
			return trailSaveOutput{}, err
		}
	}
	if len(in.ActivationBoosts) > continuity.MaxBoosts {
		return trailSaveOutput{}, tools.Errorf(fmt.Sprintf("activation_boosts takes at most %d nodes.", continuity.MaxBoosts), "activation_boosts has %d entries", len(in.ActivationBoosts))
	}
	st := c.Session.Continuity()
	// The trail is built under the graph's read lock and written after it
	// (a write waits for an fsync; an ingest should not wait for it).
	var tr continuity.Trail
	var from string
	err = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		var err error
		tr, from, err = buildTrail(c, b, agent, in, hyps, concs, visited)
		return err
	})
	if err != nil {
		return trailSaveOutput{}, err
	}
	saved, err := st.Trails.Save(tr)
	if err != nil {
		return trailSaveOutput{}, contErr(err)
	}
	out := trailSaveOutput{
		TrailID: saved.ID, Label: saved.Label, AgentID: agent, Status: saved.Status,
		NodesSaved: len(saved.Nodes()), HypothesesSaved: len(saved.Hypotheses), ConclusionsSaved: len(saved.Conclusions),
		OpenQuestionsSaved: len(saved.OpenQuestions), ActivationBoostsSaved: len(saved.Boosts), VisitedFrom: from,
		GraphGenerationAtCreation: saved.GraphGen, CreatedAtMs: saved.CreatedMs, Summary: saved.Summary, Durable: st.Persistent(),
	}
	out.Guidance = tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "trail_resume"), NextSuggestedTarget: saved.ID,
		NextStepHint: fmt.Sprintf("Saved. Resume it later (or hand it over) with trail_resume trail_id %q.", saved.ID)}
	if out.NodesSaved == 0 {
		out.NextStepHint = "Saved without nodes: a resume can restore the claims but has nothing to re-activate. Pass visited_nodes or supporting_nodes next time."
	}
	return out, nil
}

// buildTrail resolves a save's node references against the graph and
// takes each node's signature.
func buildTrail(c *tools.Call, b *session.Bundle, agent string, in trailSaveParams, hyps []hypothesisIn, concs []conclusionIn, visited []visitedIn) (continuity.Trail, string, error) {
	nr := &nodeResolver{b: b, seen: map[string]string{}}
	tr := continuity.Trail{AgentID: agent, Label: in.Label, Summary: in.Summary, OpenQuestions: in.OpenQuestions, Tags: dedupe(in.Tags), Boosts: map[string]float64{}}
	for i, h := range hyps {
		sup, err := nr.list(h.SupportingNodes, fmt.Sprintf("hypotheses[%d].supporting_nodes", i))
		if err != nil {
			return tr, "", err
		}
		con, err := nr.list(h.ContradictingNodes, fmt.Sprintf("hypotheses[%d].contradicting_nodes", i))
		if err != nil {
			return tr, "", err
		}
		tr.Hypotheses = append(tr.Hypotheses, continuity.Hypothesis{Statement: strings.TrimSpace(h.Statement), Confidence: conf(h.Confidence), SupportingNodes: dedupe(sup), ContradictingNodes: dedupe(con), Status: h.Status})
	}
	for i, k := range concs {
		sup, err := nr.list(k.SupportingNodes, fmt.Sprintf("conclusions[%d].supporting_nodes", i))
		if err != nil {
			return tr, "", err
		}
		tr.Conclusions = append(tr.Conclusions, continuity.Conclusion{Statement: strings.TrimSpace(k.Statement), Confidence: conf(k.Confidence), FromHypotheses: k.FromHypotheses, SupportingNodes: dedupe(sup)})
	}
	from := "given"
	if in.VisitedNodes == nil {
		from = "none"
		for _, x := range c.Session.Continuity().Perspectives.Visited(agent, continuity.MaxVisited) {
			if _, ok := b.Graph.Lookup(x); ok {
				visited = append(visited, visitedIn{NodeExternalID: x})
				from = "perspectives"
			}
		}
	}
	seenV := map[string]bool{}
	for i, v := range visited {
		x, err := nr.ext(v.NodeExternalID, fmt.Sprintf("visited_nodes[%d].node_external_id", i))
		if err != nil {
			return tr, "", err
		}
		if !seenV[x] {
			seenV[x] = true
			tr.Visited = append(tr.Visited, continuity.Visited{NodeID: x, Annotation: strings.TrimSpace(v.Annotation), Relevance: conf(v.Relevance)})
		}
	}
	keys := make([]string, 0, len(in.ActivationBoosts))
	for k := range in.ActivationBoosts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		x, err := nr.ext(k, "activation_boosts")
		if err != nil {
			return tr, "", err
		}
		tr.Boosts[x] = max(tr.Boosts[x], in.ActivationBoosts[k])
	}
	tr.Signatures = signatures(b, tr.Nodes())
	tr.GraphGen, tr.GraphSeq = b.Gen, c.Session.Continuity().GraphSeq()
	return tr, from, nil
}

func signatures(b *session.Bundle, nodes []string) map[string]string {
	g, stamp := b.Graph, stampsOf(b)
	out := make(map[string]string, len(nodes))
	for _, x := range nodes {
		if id, ok := g.Lookup(x); ok {
			out[x] = continuity.Signature(g, id, stamp)
		}
	}
	return out
}

func dedupe(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range s {
		if x = strings.TrimSpace(x); !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

type downgradeJSON struct {
	Statement         string   `json:"statement"`
	OldConfidence     float64  `json:"old_confidence"`
	NewConfidence     float64  `json:"new_confidence"`
	MissingSupporting []string `json:"missing_supporting_nodes"`
}

type trailResumeOutput struct {
	TrailID              string                  `json:"trail_id"`
	Label                string                  `json:"label"`
	Stale                bool                    `json:"stale" jsonschema:"More than half of the trail's nodes no longer exist."`
	Forced               bool                    `json:"forced,omitempty"`
	GenerationsBehind    uint64                  `json:"generations_behind" jsonschema:"Graph changes (ingests) since the trail was saved."`
	MissingNodes         []string                `json:"missing_nodes" jsonschema:"Nodes the trail names that are no longer in the graph."`
	ChangedNodes         []string                `json:"changed_nodes" jsonschema:"Nodes that still exist but changed since the save (edges, extent, or the file on disk at ingest)."`
	NodesReactivated     int                     `json:"nodes_reactivated" jsonschema:"Trail nodes present in the graph now."`
	BoostsRestored       int                     `json:"boosts_restored" jsonschema:"Activation boosts re-injected (later activate queries rank these nodes higher)."`
	Hypotheses           []continuity.Hypothesis `json:"hypotheses" jsonschema:"The trail's hypotheses, confidences downgraded where supporting nodes are gone."`
	HypothesesDowngraded []downgradeJSON         `json:"hypotheses_downgraded"`
	Conclusions          []continuity.Conclusion `json:"conclusions"`
	OpenQuestions        []string                `json:"open_questions"`
	ResumeHints          []string                `json:"resume_hints" jsonschema:"Where the investigation stood, in a few short lines."`
	NextFocusNode        string                  `json:"next_focus_node,omitempty" jsonschema:"The most relevant surviving node: where to continue."`
	NextOpenQuestion     string                  `json:"next_open_question,omitempty"`
	Trail                continuity.TrailSummary `json:"trail"`
	ElapsedMs            float64                 `json:"elapsed_ms"`
	tools.Guidance
}

func runTrailResume(c *tools.Call, in trailResumeParams) (trailResumeOutput, error) {
	agent, err := contAgent(c)
	if err != nil {
		return trailResumeOutput{}, err
	}
	st := c.Session.Continuity()
	start := time.Now()
	tr, err := st.Trails.Get(strings.TrimSpace(in.TrailID))
	if err != nil {
		return trailResumeOutput{}, contErr(err)
	}
	var out trailResumeOutput
	err = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		out = resumeCheck(b, tr)
		if out.Stale && !in.Force {
			e := tools.Errorf("A stale trail describes code that is mostly gone; resuming it would prime nodes that no longer exist. Pass force: true to resume what is left, or start afresh.",
				"trail %s is stale: %d of %d nodes no longer exist", tr.ID, len(out.MissingNodes), len(out.MissingNodes)+out.NodesReactivated)
			e.Extra = map[string]any{"missing_nodes": out.MissingNodes}
			return e.WithExample(map[string]any{"agent_id": agent, "trail_id": tr.ID, "force": true})
		}
		out.Forced = out.Stale
		out.BoostsRestored = restoreBoosts(c, b, tr)
		return nil
	})
	if err != nil {
		return trailResumeOutput{}, err
	}
	out.GenerationsBehind = st.GraphSeq() - min(tr.GraphSeq, st.GraphSeq())
	if tr.AgentID == agent {
		status := continuity.StatusActive
		if out.Stale {
			status = continuity.StatusStale
		}
		if tr.Status != continuity.StatusMerged && tr.Status != status {
			if nt, err := st.Trails.SetStatus(tr.ID, status, ""); err == nil {
				tr = nt
			}
		}
	}
	out.Trail = tr.Brief()
	out.resumeHints(c, tr)
	out.ElapsedMs = tools.Ms(time.Since(start))
	return out, nil
}

// resumeCheck compares a trail's nodes with the graph.
func resumeCheck(b *session.Bundle, tr *continuity.Trail) trailResumeOutput {
	g, stamp := b.Graph, stampsOf(b)
	out := trailResumeOutput{TrailID: tr.ID, Label: tr.Label, MissingNodes: []string{}, ChangedNodes: []string{}, HypothesesDowngraded: []downgradeJSON{}}
	missing := map[string]bool{}
	for _, x := range tr.Nodes() {
		id, ok := g.Lookup(x)
		switch {
		case !ok:
			missing[x] = true
			out.MissingNodes = append(out.MissingNodes, x)
		case tr.Signatures[x] != "" && continuity.Signature(g, id, stamp) != tr.Signatures[x]:
			out.ChangedNodes = append(out.ChangedNodes, x)
			out.NodesReactivated++
		default:
			out.NodesReactivated++
		}
	}
	out.Stale = len(out.MissingNodes)*2 > len(out.MissingNodes)+out.NodesReactivated
	for _, h := range tr.Hypotheses {
		var gone []string
		for _, n := range h.SupportingNodes {
			if missing[n] {
				gone = append(gone, n)
			}
		}
		if len(gone) > 0 {
			nc := h.Confidence * float64(len(h.SupportingNodes)-len(gone)) / float64(len(h.SupportingNodes))
			out.HypothesesDowngraded = append(out.HypothesesDowngraded, downgradeJSON{h.Statement, tools.R3(float32(h.Confidence)), tools.R3(float32(nc)), gone})
			h.Confidence = float64(tools.R3(float32(nc)))
		}
		out.Hypotheses = append(out.Hypotheses, h)
	}
	out.Hypotheses = tools.OrEmpty(out.Hypotheses)
	out.Conclusions = tools.OrEmpty(tr.Conclusions)
	out.OpenQuestions = tools.OrEmpty(tr.OpenQuestions)
	return out
}

// Visited nodes without an explicit boost are re-activated lightly:
// relevance × visitedBoost.
const visitedBoost = 0.2

// restoreBoosts primes the trail's boosts (and its visited nodes, lightly)
// into the session's warmup boosts; it returns how many were applied.
func restoreBoosts(c *tools.Call, b *session.Bundle, tr *continuity.Trail) int {
	g := b.Graph
	want := map[graph.NodeID]float32{}
	for x, v := range tr.Boosts {
		if id, ok := g.Lookup(x); ok {
			want[id] = max(want[id], float32(v))
		}
	}
	for _, v := range tr.Visited {
		if id, ok := g.Lookup(v.NodeID); ok {
			want[id] = max(want[id], float32(v.Relevance*visitedBoost))
		}
	}
	var list []graph.Scored
	var top float32
	for id, v := range want {
		if v > 0 {
			list = append(list, graph.Scored{Node: id, Score: v})
			top = max(top, v)
		}
	}
	if len(list) == 0 {
		return 0
	}
	applied, err := c.Session.Warmup.Prime(g, list, top)
	if err != nil {
		return 0
	}
	return len(applied)
}

// resumeHints says where the investigation stood and what to do next.
func (out *trailResumeOutput) resumeHints(c *tools.Call, tr *continuity.Trail) {
	hints := []string{}
	missing := map[string]bool{}
	for _, m := range out.MissingNodes {
		missing[m] = true
	}
	best, bestRel := "", -1.0
	for _, v := range tr.Visited {
		if !missing[v.NodeID] && v.Relevance > bestRel {
			best, bestRel = v.NodeID, v.Relevance
		}
	}
	var lead *continuity.Hypothesis
	for i := range out.Hypotheses {
		if lead == nil || out.Hypotheses[i].Confidence > lead.Confidence {
			lead = &out.Hypotheses[i]
		}
	}
	if lead != nil {
		hints = append(hints, fmt.Sprintf("Leading hypothesis (%.2f): %s", lead.Confidence, lead.Statement))
		for _, n := range lead.SupportingNodes {
			if best == "" && !missing[n] {
				best = n
			}
		}
	}
	if best == "" {
		for x, v := range tr.Boosts {
			if !missing[x] && (best == "" || v > tr.Boosts[best] || v == tr.Boosts[best] && x < best) {
				best = x
			}
		}
	}
	if len(tr.Conclusions) > 0 {
		hints = append(hints, fmt.Sprintf("%d conclusion(s) reached; first: %s", len(tr.Conclusions), tr.Conclusions[0].Statement))
	}
	if len(out.ChangedNodes) > 0 {
		hints = append(hints, fmt.Sprintf("%d node(s) changed since the save (re-read them first): %s", len(out.ChangedNodes), strings.Join(tools.FirstN(out.ChangedNodes, 5), ", ")))
	}
	if len(out.MissingNodes) > 0 {
		hints = append(hints, fmt.Sprintf("%d node(s) no longer exist (renamed or deleted?): %s", len(out.MissingNodes), strings.Join(tools.FirstN(out.MissingNodes, 5), ", ")))
	}
	if len(tr.OpenQuestions) > 0 {
		out.NextOpenQuestion = tr.OpenQuestions[0]
		hints = append(hints, "Next open question: "+tr.OpenQuestions[0])
	}
	out.ResumeHints, out.NextFocusNode = hints, best
	out.Guidance = tools.Guidance{ProofState: "triaging"}
	if lead != nil && lead.Confidence >= 0.7 && len(out.ChangedNodes) == 0 {
		out.ProofState = "proving"
	}
	switch {
	case best != "" && len(out.ChangedNodes) > 0 && containsStr(out.ChangedNodes, best):
		out.NextSuggestedTool, out.NextSuggestedTarget = tools.FirstTool(c.Registry, "view", "impact"), best
		out.NextStepHint = "The focus node changed since the save: read it again before trusting the trail's claims about it."
	case best != "":
		out.NextSuggestedTool, out.NextSuggestedTarget = tools.FirstTool(c.Registry, "perspective_start", "view", "impact"), best
		out.NextStepHint = "Continue from the focus node: start a perspective anchored there (or read it), then answer the next open question."
	default:
		out.NextSuggestedTool = tools.FirstTool(c.Registry, "activate", "seek")
		out.NextStepHint = "The trail names no surviving node: re-find the area with activate on its label or hypotheses."
	}
}

func containsStr(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

type trailListOutput struct {
	Trails     []continuity.TrailSummary `json:"trails"`
	TotalCount int                       `json:"total_count"`
	// LoadWarnings are trail, lock, perspective or memory files set aside
	// at start because they did not load.
	LoadWarnings []string `json:"load_warnings,omitempty"`
}

func runTrailList(c *tools.Call, in trailListParams) (trailListOutput, error) {
	if in.FilterAgentID != "" {
		if err := continuity.ValidateAgentID(in.FilterAgentID); err != nil {
			return trailListOutput{}, contErr(err)
		}
	}
	st := c.Session.Continuity()
	all := st.Trails.List(continuity.TrailFilter{AgentID: in.FilterAgentID, Status: in.FilterStatus, Tags: in.FilterTags})
	out := trailListOutput{Trails: []continuity.TrailSummary{}, TotalCount: len(all), LoadWarnings: st.Warnings()}
	for i, t := range all {
		if i == in.Limit {
			break
		}
		s := t.Brief()
		s.Summary = ""
		out.Trails = append(out.Trails, s)
	}
	return out, nil
}

type connectionJSON struct {
	Type     string  `json:"type"`
	Detail   string  `json:"detail"`
	FromNode string  `json:"from_node"`
	ToNode   string  `json:"to_node"`
	Relation string  `json:"relation"`
	Weight   float64 `json:"weight"`
}

type trailMergeOutput struct {
	MergedTrailID         string                `json:"merged_trail_id"`
	Label                 string                `json:"label"`
	SourceTrails          []string              `json:"source_trails"`
	NodesMerged           int                   `json:"nodes_merged"`
	SharedNodes           []string              `json:"shared_nodes" jsonschema:"Nodes more than one source trail names: where the investigations converged."`
	HypothesesMerged      int                   `json:"hypotheses_merged"`
	ConclusionsMerged     int                   `json:"conclusions_merged"`
	Conflicts             []continuity.Conflict `json:"conflicts"`
	ConnectionsDiscovered []connectionJSON      `json:"connections_discovered" jsonschema:"Graph edges between nodes that different trails explored separately."`
	DroppedAtLimits       int                   `json:"dropped_at_limits"`
	ElapsedMs             float64               `json:"elapsed_ms"`
	tools.Guidance
}

// maxConnections bounds the connections a merge reports.
const maxConnections = 20

func runTrailMerge(c *tools.Call, in trailMergeParams) (trailMergeOutput, error) {
	agent, err := contAgent(c)
	if err != nil {
		return trailMergeOutput{}, err
	}
	ids := dedupe(in.TrailIDs)
	if len(ids) < 2 {
		return trailMergeOutput{}, tools.Errorf("trail_merge combines two or more distinct trails; trail_list shows their ids.", "trail_ids must name at least two distinct trails, got %d", len(ids))
	}
	st := c.Session.Continuity()
	start := time.Now()
	var srcs []*continuity.Trail
	for _, id := range ids {
		t, err := st.Trails.Get(id)
		if err != nil {
			return trailMergeOutput{}, contErr(err)
		}
		srcs = append(srcs, t)
	}
	merged, rep := continuity.Merge(agent, strings.TrimSpace(in.Label), srcs)
	var conns []connectionJSON
	err = c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		merged.Signatures = signatures(b, merged.Nodes())
		merged.GraphGen, merged.GraphSeq = b.Gen, st.GraphSeq()
		conns = bridges(b.Graph, srcs)
		return nil
	})
	if err != nil {
		return trailMergeOutput{}, err
	}
	saved, err := st.Trails.Save(merged)
	if err != nil {
		return trailMergeOutput{}, contErr(err)
	}
	out := trailMergeOutput{
		MergedTrailID: saved.ID, Label: saved.Label, SourceTrails: ids, NodesMerged: rep.NodesMerged, SharedNodes: rep.SharedNodes,
		HypothesesMerged: rep.HypothesesMerged, ConclusionsMerged: rep.ConclusionsMerged, Conflicts: rep.Conflicts,
		ConnectionsDiscovered: conns, DroppedAtLimits: rep.Dropped,
	}
	for _, id := range ids {
		if _, err := st.Trails.SetStatus(id, continuity.StatusMerged, out.MergedTrailID); err != nil {
			c.Session.Logf("trail %s not marked merged: %v", id, err)
		}
	}
	out.ElapsedMs = tools.Ms(time.Since(start))
	out.Guidance = tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "trail_resume"), NextSuggestedTarget: out.MergedTrailID,
		NextStepHint: "Resume the merged trail to prime its nodes."}
	for _, cf := range out.Conflicts {
		if cf.Resolution == "unresolved" {
			out.ProofState = "triaging"
			out.NextStepHint = fmt.Sprintf("%d conflict(s) are unresolved: check the evidence (the conflict's nodes) before trusting either hypothesis, then save a trail with the verdict.", countUnresolved(out.Conflicts))
			break
		}
	}
	return out, nil
}

func countUnresolved(cs []continuity.Conflict) int {
	n := 0
	for _, c := range cs {
		if c.Resolution == "unresolved" {
			n++
		}
	}
	return n
}

// bridges finds graph edges between nodes that only different trails
// named: where independently explored areas touch.
func bridges(g *graph.Graph, srcs []*continuity.Trail) []connectionJSON {
	owner := map[string]int{} // node → trail index, -1 when shared
	for i, t := range srcs {
		for _, n := range t.Nodes() {
			if j, ok := owner[n]; ok && j != i {
				owner[n] = -1
			} else if !ok {
				owner[n] = i
			}
		}
	}
	out := []connectionJSON{}
	for n, i := range owner {
		id, ok := g.Lookup(n)
		if i < 0 || !ok {
			continue
		}
		lo, hi := g.OutRange(id)
		for e := lo; e < hi; e++ {
			if g.IsMirror(e) {
				continue
			}
			t := g.ExternalID(g.Target(e))
			if j, ok := owner[t]; ok && j >= 0 && j != i {
				out = append(out, connectionJSON{Type: "bridge_edge", FromNode: n, ToNode: t, Relation: g.RelationName(e), Weight: tools.R3(g.Weight(e)),
					Detail: fmt.Sprintf("%s %s %s: connects %s's trail to %s's", g.Label(id), g.RelationName(e), g.Label(g.Target(e)), srcs[i].Label, srcs[j].Label)})
			}
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Weight != out[b].Weight {
			return out[a].Weight > out[b].Weight
		}
		if out[a].FromNode != out[b].FromNode {
			return out[a].FromNode < out[b].FromNode
		}
		return out[a].ToNode < out[b].ToNode
	})
	return out[:min(len(out), maxConnections)]
}
