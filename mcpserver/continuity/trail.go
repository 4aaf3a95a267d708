package continuity

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Trail limits: a trail is a checkpoint of one investigation, not a
// database; every list is bounded and so is the whole file.
const (
	MaxTrails         = 500
	MaxTrailsPerAgent = 100
	MaxTrailBytes     = 256 << 10

	MaxHypotheses    = 50
	MaxConclusions   = 50
	MaxOpenQuestions = 50
	MaxTags          = 20
	MaxVisited       = 500
	MaxBoosts        = 500
	MaxClaimNodes    = 50

	MaxStatement  = 2000
	MaxLabel      = 200
	MaxSummary    = 2000
	MaxAnnotation = 500
	MaxTag        = 64
)

// Trail statuses.
const (
	StatusActive   = "active"
	StatusSaved    = "saved"
	StatusArchived = "archived"
	StatusStale    = "stale"
	StatusMerged   = "merged"
)

// TrailStatuses lists the statuses a trail can have.
var TrailStatuses = []string{StatusActive, StatusSaved, StatusArchived, StatusStale, StatusMerged}

const trailFormat = 1

// Hypothesis is a claim under investigation.
type Hypothesis struct {
	Statement          string   `json:"statement"`
	Confidence         float64  `json:"confidence"`
	SupportingNodes    []string `json:"supporting_nodes"`
	ContradictingNodes []string `json:"contradicting_nodes"`
	// Status is free-form progress ("investigating", "confirmed").
	Status string `json:"status,omitempty"`
}

// Conclusion is a claim the investigation settled.
type Conclusion struct {
	Statement       string   `json:"statement"`
	Confidence      float64  `json:"confidence"`
	FromHypotheses  []string `json:"from_hypotheses"`
	SupportingNodes []string `json:"supporting_nodes"`
}

// Visited is one node the investigation looked at.
type Visited struct {
	NodeID     string  `json:"node_external_id"`
	Annotation string  `json:"annotation,omitempty"`
	Relevance  float64 `json:"relevance"`
}

// Trail is a saved investigation. A stored trail is never modified in
// place: updates replace it, so a *Trail handed out stays consistent.
type Trail struct {
	Format        int                `json:"format"`
	ID            string             `json:"trail_id"`
	AgentID       string             `json:"agent_id"`
	Label         string             `json:"label"`
	Status        string             `json:"status"`
	Summary       string             `json:"summary"`
	CreatedMs     int64              `json:"created_at_ms"`
	ModifiedMs    int64              `json:"last_modified_ms"`
	Hypotheses    []Hypothesis       `json:"hypotheses"`
	Conclusions   []Conclusion       `json:"conclusions"`
	OpenQuestions []string           `json:"open_questions"`
	Tags          []string           `json:"tags"`
	Visited       []Visited          `json:"visited_nodes"`
	Boosts        map[string]float64 `json:"activation_boosts"`
	// Signatures are the nodes' signatures at save (see Signature), so a
	// resume can tell which changed.
	Signatures map[string]string `json:"signatures"`
	// GraphSeq is the store's graph change count at save; GraphGen the
	// session's generation (meaningful within the saving process only).
	GraphSeq   uint64   `json:"graph_seq"`
	GraphGen   uint64   `json:"graph_generation_at_creation"`
	MergedFrom []string `json:"merged_from,omitempty"`
	MergedInto string   `json:"merged_into,omitempty"`
}

// Nodes lists every node the trail names (visited, boosted, supporting or
// contradicting a claim), sorted, once each.
func (tr *Trail) Nodes() []string {
	set := map[string]bool{}
	for _, v := range tr.Visited {
		set[v.NodeID] = true
	}
	for k := range tr.Boosts {
		set[k] = true
	}
	for _, h := range tr.Hypotheses {
		for _, n := range h.SupportingNodes {
			set[n] = true
		}
		for _, n := range h.ContradictingNodes {
			set[n] = true
		}
	}
	for _, c := range tr.Conclusions {
		for _, n := range c.SupportingNodes {
			set[n] = true
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TrailSummary is a trail's compact form (trail_list, trail_resume).
type TrailSummary struct {
	TrailID           string   `json:"trail_id"`
	AgentID           string   `json:"agent_id"`
	Label             string   `json:"label"`
	Status            string   `json:"status"`
	CreatedMs         int64    `json:"created_at_ms"`
	ModifiedMs        int64    `json:"last_modified_ms"`
	NodeCount         int      `json:"node_count"`
	HypothesisCount   int      `json:"hypothesis_count"`
	ConclusionCount   int      `json:"conclusion_count"`
	OpenQuestionCount int      `json:"open_question_count"`
	Tags              []string `json:"tags"`
	Summary           string   `json:"summary,omitempty"`
}

// Brief returns the compact form.
func (tr *Trail) Brief() TrailSummary {
	return TrailSummary{
		TrailID: tr.ID, AgentID: tr.AgentID, Label: tr.Label, Status: tr.Status,
		CreatedMs: tr.CreatedMs, ModifiedMs: tr.ModifiedMs, NodeCount: len(tr.Nodes()),
		HypothesisCount: len(tr.Hypotheses), ConclusionCount: len(tr.Conclusions),
		OpenQuestionCount: len(tr.OpenQuestions), Tags: nonNil(tr.Tags), Summary: tr.Summary,
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Validate checks every bound and value of a trail (at save and at load).
func (tr *Trail) Validate() error {
	inv := func(hint, format string, args ...any) error { return errf(Invalid, hint, format, args...) }
	if err := ValidateAgentID(tr.AgentID); err != nil {
		return err
	}
	if _, ok := cleanText(tr.Label, MaxLabel); !ok || strings.TrimSpace(tr.Label) == "" {
		return inv(fmt.Sprintf("label names the investigation in a few words (at most %d bytes, no control characters), e.g. \"auth-leak-investigation\".", MaxLabel), "label must be non-empty printable text of at most %d bytes", MaxLabel)
	}
	if !slices.Contains(TrailStatuses, tr.Status) {
		return inv("", "status %q is not one of %s", tr.Status, strings.Join(TrailStatuses, ", "))
	}
	if _, ok := cleanText(tr.Summary, MaxSummary); !ok {
		return inv(fmt.Sprintf("summary is at most %d bytes of text.", MaxSummary), "summary is too long or has control characters")
	}
	for _, c := range []struct {
		name   string
		n, max int
	}{
		{"hypotheses", len(tr.Hypotheses), MaxHypotheses}, {"conclusions", len(tr.Conclusions), MaxConclusions},
		{"open_questions", len(tr.OpenQuestions), MaxOpenQuestions}, {"tags", len(tr.Tags), MaxTags},
		{"visited_nodes", len(tr.Visited), MaxVisited}, {"activation_boosts", len(tr.Boosts), MaxBoosts},
	} {
		if c.n > c.max {
			return inv(fmt.Sprintf("A trail keeps at most %d %s; keep the ones that matter (or split the investigation into two trails).", c.max, c.name), "%s has %d entries, over the limit of %d", c.name, c.n, c.max)
		}
	}
	for i, h := range tr.Hypotheses {
		if err := checkClaim(fmt.Sprintf("hypotheses[%d]", i), h.Statement, h.Confidence, h.SupportingNodes, h.ContradictingNodes); err != nil {
			return err
		}
		if _, ok := cleanText(h.Status, MaxTag); !ok {
			return inv("A hypothesis status is a short word such as \"investigating\" or \"confirmed\".", "hypotheses[%d].status is too long", i)
		}
	}
	for i, c := range tr.Conclusions {
		if err := checkClaim(fmt.Sprintf("conclusions[%d]", i), c.Statement, c.Confidence, c.SupportingNodes, c.FromHypotheses); err != nil {
			return err
		}
	}
	for i, q := range tr.OpenQuestions {
		if s, ok := cleanText(q, MaxStatement); !ok || s == "" {
			return inv(fmt.Sprintf("Each open question is non-empty text of at most %d bytes.", MaxStatement), "open_questions[%d] is empty, too long or has control characters", i)
		}
	}
	for i, t := range tr.Tags {
		if s, ok := cleanText(t, MaxTag); !ok || s == "" {
			return inv(fmt.Sprintf("Tags are short words (at most %d bytes), e.g. [\"security\", \"auth\"].", MaxTag), "tags[%d] is empty, too long or has control characters", i)
		}
	}
	for i, v := range tr.Visited {
		if err := checkNodeRef(fmt.Sprintf("visited_nodes[%d].node_external_id", i), v.NodeID); err != nil {
			return err
		}
		if _, ok := cleanText(v.Annotation, MaxAnnotation); !ok {
			return inv(fmt.Sprintf("An annotation is at most %d bytes of text.", MaxAnnotation), "visited_nodes[%d].annotation is too long or has control characters", i)
		}
		if !unit(v.Relevance) {
			return inv("relevance is a number in [0, 1] (default 0.5).", "visited_nodes[%d].relevance must be in [0, 1], got %v", i, v.Relevance)
		}
	}
	for k, v := range tr.Boosts {
		if err := checkNodeRef("activation_boosts key", k); err != nil {
			return err
		}
		if !unit(v) {
			return inv("activation_boosts maps node ids to a boost in [0, 1], e.g. {\"file::auth.py\": 0.8}.", "activation_boosts[%q] must be in [0, 1], got %v", clip(k), v)
		}
	}
	return nil
}

func unit(f float64) bool { return !math.IsNaN(f) && f >= 0 && f <= 1 }

func checkClaim(where, statement string, conf float64, lists ...[]string) error {
	if s, ok := cleanText(statement, MaxStatement); !ok || s == "" {
		return errf(Invalid, fmt.Sprintf("Each claim has a statement: non-empty text of at most %d bytes, e.g. {\"statement\": \"Auth tokens leak through the session pool\", \"confidence\": 0.7}.", MaxStatement), "%s.statement is empty, too long or has control characters", where)
	}
	if !unit(conf) {
		return errf(Invalid, "confidence is a number in [0, 1] (default 0.5).", "%s.confidence must be in [0, 1], got %v", where, conf)
	}
	for _, l := range lists {
		if len(l) > MaxClaimNodes {
			return errf(Invalid, fmt.Sprintf("A claim names at most %d nodes.", MaxClaimNodes), "%s names %d nodes, over the limit of %d", where, len(l), MaxClaimNodes)
		}
		for _, n := range l {
			if err := checkNodeRef(where, n); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkNodeRef bounds a stored node reference.
func checkNodeRef(where, ref string) error {
	if s, ok := cleanText(ref, 1024); !ok || s == "" || s != ref {
		return errf(Invalid, "Node ids look like \"file::backend/auth.py\".", "%s: %q is not a node id", where, clip(ref))
	}
	return nil
}

// Trails is the trail store: shared for reading by every agent.
type Trails struct {
	s  *Store
	mu sync.RWMutex
	// items are immutable once stored (replaced on update).
	items   map[string]*Trail
	pending map[string]int // saves reserved but not yet stored, per agent
	// updMu serialises updates so file and memory agree on the last one.
	updMu sync.Mutex
}

func newTrails(s *Store) *Trails {
	ts := &Trails{s: s, items: map[string]*Trail{}, pending: map[string]int{}}
	loadRecords(s, trailsDir, "trail", "trails", MaxTrails, parseTrail, func(tr *Trail) { ts.items[tr.ID] = tr })
	return ts
}

// parseTrail decodes and checks a trail file named name.
func parseTrail(name string, data []byte) (*Trail, error) {
	return parseRecord[Trail]("trail", name, data, trailFormat)
}

// idSeq reads the sequence number after prefix in an id ("007_ab12" → 7).
func idSeq(id, prefix string) uint64 {
	rest, ok := strings.CutPrefix(id, prefix)
	if !ok {
		return 0
	}
	var n uint64
	for _, r := range rest {
		if r < '0' || r > '9' {
			break
		}
		n = n*10 + uint64(r-'0')
	}
	return n
}

// Save stores a new trail for tr.AgentID and returns it with its id,
// status "saved" and times set (a summary is generated when empty).
func (ts *Trails) Save(tr Trail) (*Trail, error) {
	tr.Format = trailFormat
	tr.Status = StatusSaved
	now := ts.s.nowMs()
	tr.CreatedMs, tr.ModifiedMs = now, now
	if strings.TrimSpace(tr.Summary) == "" {
		tr.Summary = AutoSummary(&tr)
	}
	if err := tr.Validate(); err != nil {
		return nil, err
	}
	ts.mu.Lock()
	if err := ts.roomFor(tr.AgentID); err != nil {
		ts.mu.Unlock()
		return nil, err
	}
	ts.pending[tr.AgentID]++
	ts.mu.Unlock()
	defer func() {
		ts.mu.Lock()
		if ts.pending[tr.AgentID]--; ts.pending[tr.AgentID] <= 0 {
			delete(ts.pending, tr.AgentID)
		}
		ts.mu.Unlock()
	}()
	seq := ts.s.nextSeq("trail", tr.AgentID)
	h := fnv.New32a()
	fmt.Fprintf(h, "%s\x00%d\x00%d", tr.Label, now, seq)
	tr.ID = fmt.Sprintf("trail_%s_%03d_%06x", tr.AgentID, seq, h.Sum32()&0xffffff)
	if err := ts.write(&tr); err != nil {
		return nil, err
	}
	ts.mu.Lock()
	ts.items[tr.ID] = &tr
	ts.mu.Unlock()
	return &tr, nil
}

// roomFor checks the caps (mu held).
func (ts *Trails) roomFor(agent string) error {
	total, mine := len(ts.items), ts.pending[agent]
	for _, p := range ts.pending {
		total += p
	}
	for _, t := range ts.items {
		if t.AgentID == agent {
			mine++
		}
	}
	if mine >= MaxTrailsPerAgent {
		return errf(Limit, fmt.Sprintf("An agent keeps at most %d trails. Merge related ones with trail_merge (the sources stay, marked merged) or save fewer checkpoints.", MaxTrailsPerAgent),
			"agent %q already has %d trails", agent, mine).next("Call trail_list with filter_agent_id set to your agent_id to see them.")
	}
	if total >= MaxTrails {
		return errf(Limit, fmt.Sprintf("The server keeps at most %d trails in all.", MaxTrails), "the server already holds %d trails", total)
	}
	return nil
}

func (ts *Trails) write(tr *Trail) error {
	if ts.s.root == "" {
		return sizeCheck(tr)
	}
	if err := sizeCheck(tr); err != nil {
		return err
	}
	if err := ts.s.writeJSON(trailsDir, tr.ID+".json", tr); err != nil {
		return fmt.Errorf("trail %s not saved: %w", tr.ID, err)
	}
	return nil
}

func sizeCheck(tr *Trail) error {
	n := approxSize(tr)
	if n > MaxTrailBytes {
		return errf(Limit, fmt.Sprintf("A trail is at most %d KiB; shorten statements and annotations or list fewer nodes.", MaxTrailBytes>>10), "the trail would take %d bytes", n)
	}
	return nil
}

// Get returns a trail by id; every agent may read every trail. The result
// must not be modified.
func (ts *Trails) Get(id string) (*Trail, error) {
	ts.mu.RLock()
	tr, ok := ts.items[id]
	ts.mu.RUnlock()
	if !ok {
		return nil, errf(NotFound, "Trail ids come from trail_save or trail_list (e.g. \"trail_jimi_001_a1b2c3\").", "no trail %q", clip(id)).
			next("Call trail_list to see the saved trails.")
	}
	return tr, nil
}

// TrailFilter selects trails for List (zero fields match everything).
type TrailFilter struct {
	AgentID string
	Status  string
	// Tags match when the trail has any of them.
	Tags []string
}

// List returns matching trails, most recently modified first (ties by id).
func (ts *Trails) List(f TrailFilter) []*Trail {
	ts.mu.RLock()
	out := make([]*Trail, 0, len(ts.items))
	for _, t := range ts.items {
		if f.AgentID != "" && t.AgentID != f.AgentID || f.Status != "" && t.Status != f.Status {
			continue
		}
		if len(f.Tags) > 0 && !slices.ContainsFunc(f.Tags, func(x string) bool { return slices.Contains(t.Tags, x) }) {
			continue
		}
		out = append(out, t)
	}
	ts.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool {
		if out[i].ModifiedMs != out[j].ModifiedMs {
			return out[i].ModifiedMs > out[j].ModifiedMs
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// SetStatus changes a trail's status (and merged_into for "merged"). Only
// the owner changes its trails, except that a merge marks its sources.
func (ts *Trails) SetStatus(id, status, mergedInto string) (*Trail, error) {
	ts.updMu.Lock()
	defer ts.updMu.Unlock()
	old, err := ts.Get(id)
	if err != nil {
		return nil, err
	}
	if old.Status == status && old.MergedInto == mergedInto {
		return old, nil
	}
	nt := *old
	nt.Status, nt.ModifiedMs = status, ts.s.nowMs()
	if mergedInto != "" {
		nt.MergedInto = mergedInto
	}
	if err := nt.Validate(); err != nil {
		return nil, err
	}
	if err := ts.write(&nt); err != nil {
		return nil, err
	}
	ts.mu.Lock()
	ts.items[id] = &nt
	ts.mu.Unlock()
	return &nt, nil
}

// Len is the number of trails held.
func (ts *Trails) Len() int {
	ts.mu.RLock()
	defer ts.mu.RUnlock()
	return len(ts.items)
}

// AutoSummary describes a trail in a sentence or two: its label, the
// strongest hypothesis and conclusion, the first open question and the
// counts.
func AutoSummary(tr *Trail) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(tr.Label))
	fmt.Fprintf(&b, ": %d hypotheses, %d conclusions, %d open questions over %d nodes.", len(tr.Hypotheses), len(tr.Conclusions), len(tr.OpenQuestions), len(tr.Nodes()))
	if i := strongest(len(tr.Hypotheses), func(i int) float64 { return tr.Hypotheses[i].Confidence }); i >= 0 {
		fmt.Fprintf(&b, " Leading hypothesis (%.2f): %s.", tr.Hypotheses[i].Confidence, clipText(tr.Hypotheses[i].Statement, 160))
	}
	if i := strongest(len(tr.Conclusions), func(i int) float64 { return tr.Conclusions[i].Confidence }); i >= 0 {
		fmt.Fprintf(&b, " Concluded (%.2f): %s.", tr.Conclusions[i].Confidence, clipText(tr.Conclusions[i].Statement, 160))
	}
	if len(tr.OpenQuestions) > 0 {
		fmt.Fprintf(&b, " Open: %s", clipText(tr.OpenQuestions[0], 160))
	}
	if len(tr.Tags) > 0 {
		fmt.Fprintf(&b, " Tags: %s.", strings.Join(tr.Tags, ", "))
	}
	return clipText(b.String(), MaxSummary)
}

func strongest(n int, conf func(int) float64) int {
	best := -1
	for i := range n {
		if best < 0 || conf(i) > conf(best) {
			best = i
		}
	}
	return best
}

// clipText shortens s to at most n bytes on a rune boundary.
func clipText(s string, n int) string {
	s = strings.TrimRight(strings.TrimSpace(s), ".")
	if len(s) <= n {
		return s
	}
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n] + "…"
}
