// Package learnbench measures whether learn changes what activate returns:
// per repository it picks queries deterministically, asks the real
// m1nd-mcp server (over stdio JSON-RPC, through localize.Client) to
// activate each, marks the first result wrong and the eighth correct a few
// times, and activates again — the same query, a similar one and an
// unrelated one. See benchmarks/results/learning.md.
//
// Queries are the subjects of the repository's newest bug-fix commits, as
// tools/localize mines them (then of its other small commits when there
// are too few fixes), with at least two content words
// (plasticity.ContextWords), each subject once. The similar query is the
// subject without its last content word; the control query is the next
// selected subject sharing no more than a fifth of its words.
package learnbench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/tools/localize"
)

// Config is one repository's run.
type Config struct {
	// Repo is a git checkout; it is ingested as it is and mined for
	// queries. The server only reads it.
	Repo string
	// Server is the m1nd-mcp binary; ServerArgs are passed to it.
	Server     string
	ServerArgs []string
	// Queries is how many queries to run (default 20).
	Queries int
	// TopK is activate's top_k (default 20).
	TopK int
	// WrongRank and RightRank are the 1-based ranks marked wrong and
	// correct (defaults 1 and 8).
	WrongRank, RightRank int
	// Rounds of learn calls (one wrong and one correct each; default 3) at
	// Strength (default 1).
	Rounds   int
	Strength float64
	// TaskTimeout bounds one query's session (default 5 minutes).
	TaskTimeout time.Duration
	// Log receives progress lines (nil: discarded).
	Log io.Writer
}

func (c *Config) defaults() {
	if c.Queries <= 0 {
		c.Queries = 20
	}
	if c.TopK <= 0 {
		c.TopK = 20
	}
	if c.WrongRank <= 0 {
		c.WrongRank = 1
	}
	if c.RightRank <= 0 {
		c.RightRank = 8
	}
	if c.Rounds <= 0 {
		c.Rounds = 3
	}
	if c.Strength <= 0 {
		c.Strength = 1
	}
	if c.TaskTimeout <= 0 {
		c.TaskTimeout = 5 * time.Minute
	}
}

// Ranks are the 1-based ranks of the node marked wrong and of the node
// marked correct in one ranking (0: not in the top_k).
type Ranks struct {
	Wrong int `json:"wrong"`
	Right int `json:"right"`
}

// Pass is the benchmark's criterion: the wrong node is not in the top 3
// and the correct one is in the top 5.
func (r Ranks) Pass() bool {
	return (r.Wrong == 0 || r.Wrong > 3) && r.Right > 0 && r.Right <= 5
}

// Moved reports whether, from before to r, the wrong node went down (or
// out) and the correct one up (or stayed first).
func (r Ranks) Moved(before Ranks) bool {
	down := before.Wrong == 0 && r.Wrong == 0 || before.Wrong > 0 && (r.Wrong == 0 || r.Wrong > before.Wrong)
	up := r.Right > 0 && (before.Right == 0 || r.Right < before.Right || r.Right == 1)
	return down && up
}

// QueryResult is one query's outcome.
type QueryResult struct {
	Commit  string `json:"commit"`
	Query   string `json:"query"`
	Similar string `json:"similar"`
	Control string `json:"control,omitempty"`
	// Skipped says why the query was not measured (too few results, an
	// error); the other fields are then partial.
	Skipped string `json:"skipped,omitempty"`
	Wrong   string `json:"wrong"`
	Right   string `json:"right"`
	// Same and Similar are the ranks before and after learning.
	SameBefore    Ranks `json:"same_before"`
	SameAfter     Ranks `json:"same_after"`
	SimilarBefore Ranks `json:"similar_before"`
	SimilarAfter  Ranks `json:"similar_after"`
	// Feedback is the learned relevance activate reported after learning
	// for the wrong and the correct node, on the same and on the similar
	// query.
	Feedback map[string]float64 `json:"feedback"`
	// ControlOverlap is the share of the control query's top 10 that is
	// the same set before and after learning (-1: no control query), and
	// ControlRepeat the same share between two activations of the control
	// query before learning: asking a query again changes its answer a
	// little by itself (query-memory priming, the query's own Hebbian
	// cycle), so ControlOverlap is read against it. ControlFeedback counts
	// the control's results learned feedback moved (0 when the feedback
	// on the query did not reach the unrelated one).
	ControlOverlap  float64 `json:"control_overlap"`
	ControlRepeat   float64 `json:"control_repeat"`
	ControlFeedback int     `json:"control_feedback_nodes"`
	// ActivateBytes is the size of the first activate response;
	// EdgesWritten what its plasticity cycle wrote (strengthened +
	// decayed) and EdgesCapped what it left alone at the per-query bound.
	ActivateBytes int `json:"activate_bytes"`
	EdgesWritten  int `json:"edges_written"`
	EdgesCapped   int `json:"edges_capped"`
	Nodes         int `json:"nodes"`
}

// Summary aggregates a repository's measured queries.
type Summary struct {
	Queries int `json:"queries"`
	Skipped int `json:"skipped"`
	// Same is the share of queries whose repeated activation passes
	// (Ranks.Pass); SimilarBefore and Similar the share for the similar
	// query before and after learning; SimilarMoved the share where the
	// similar query's ranks moved the right way (Ranks.Moved).
	Same          float64 `json:"same"`
	SimilarBefore float64 `json:"similar_before"`
	Similar       float64 `json:"similar"`
	SimilarMoved  float64 `json:"similar_moved"`
	// ControlOverlap and ControlRepeat are the means of the queries'
	// (see QueryResult); ControlFeedback the share of control queries
	// learned feedback reached.
	ControlOverlap  float64 `json:"control_overlap"`
	ControlRepeat   float64 `json:"control_repeat"`
	ControlFeedback float64 `json:"control_feedback"`
	// Mean activate response size and plasticity writes per activation.
	ActivateBytes float64 `json:"activate_bytes"`
	EdgesWritten  float64 `json:"edges_written"`
}

// Report is one repository's run.
type Report struct {
	Repo     string            `json:"repo"`
	Head     string            `json:"head"`
	Started  time.Time         `json:"started"`
	ElapsedS float64           `json:"elapsed_s"`
	Machine  map[string]string `json:"machine"`
	Options  map[string]any    `json:"options"`
	Summary  Summary           `json:"summary"`
	Results  []QueryResult     `json:"results"`
}

// query is a selected query with its similar and control companions.
type query struct {
	commit, text, similar, control string
}

// SelectQueries picks n queries from repo's history (see the package
// documentation). The same repository always gives the same queries.
func SelectQueries(repo string, n int) ([]query, error) {
	var out []query
	seen := map[string]bool{}
	for _, all := range []bool{false, true} {
		tasks, err := localize.Mine(repo, localize.MineOptions{AllCommits: all, MaxCommits: 5000})
		if err != nil {
			return nil, err
		}
		for _, t := range tasks {
			s := strings.TrimSpace(t.Subject)
			key := strings.Join(plasticity.ContextWords(s), " ")
			if len(out) == n || seen[key] || len(plasticity.ContextWords(s)) < 2 {
				continue
			}
			seen[key] = true
			out = append(out, query{commit: t.Commit, text: s, similar: Similar(s)})
		}
		if len(out) == n {
			break
		}
	}
	for i := range out {
		for j := 1; j < len(out); j++ {
			c := out[(i+j)%len(out)]
			if wordJaccard(out[i].text, c.text) <= 0.2 {
				out[i].control = c.text
				break
			}
		}
	}
	return out, nil
}

// Similar is query without its last content word: a query sharing all
// but one of its words.
func Similar(q string) string {
	f := strings.Fields(q)
	for i := len(f) - 1; i >= 0; i-- {
		if len(plasticity.ContextWords(f[i])) > 0 {
			return strings.Join(slices.Delete(slices.Clone(f), i, i+1), " ")
		}
	}
	return q
}

func wordJaccard(a, b string) float64 {
	wa, wb := plasticity.ContextWords(a), plasticity.ContextWords(b)
	both := 0
	for _, w := range wa {
		if slices.Contains(wb, w) {
			both++
		}
	}
	union := len(wa) + len(wb) - both
	if union == 0 {
		return 0
	}
	return float64(both) / float64(union)
}

// Run measures cfg.Repo.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	cfg.defaults()
	logf := localize.LogLines(cfg.Log)
	start := time.Now()
	qs, err := SelectQueries(cfg.Repo, cfg.Queries)
	if err != nil {
		return nil, err
	}
	rep := &Report{
		Repo: cfg.Repo, Started: start.UTC(), Machine: localize.MachineFacts(),
		Options: map[string]any{
			"queries": cfg.Queries, "top_k": cfg.TopK, "wrong_rank": cfg.WrongRank, "right_rank": cfg.RightRank,
			"rounds": cfg.Rounds, "strength": cfg.Strength,
		},
	}
	if out, err := exec.Command("git", "-C", cfg.Repo, "rev-parse", "HEAD").Output(); err == nil {
		rep.Head = strings.TrimSpace(string(out))
	}
	for i, q := range qs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		tctx, cancel := context.WithTimeout(ctx, cfg.TaskTimeout)
		r := runQuery(tctx, cfg, q)
		cancel()
		rep.Results = append(rep.Results, r)
		logf("[%d/%d] %q same %v→%v similar %v→%v control %.2f %s", i+1, len(qs), clip(q.text, 50), r.SameBefore, r.SameAfter, r.SimilarBefore, r.SimilarAfter, r.ControlOverlap, r.Skipped)
	}
	rep.Summary = Summarize(rep.Results)
	rep.ElapsedS = float64(time.Since(start).Milliseconds()) / 1000
	return rep, nil
}

// Summarize aggregates measured queries.
func Summarize(rs []QueryResult) Summary {
	var s Summary
	var controls int
	for _, r := range rs {
		if r.Skipped != "" {
			s.Skipped++
			continue
		}
		s.Queries++
		s.Same += b2f(r.SameAfter.Pass())
		s.SimilarBefore += b2f(r.SimilarBefore.Pass())
		s.Similar += b2f(r.SimilarAfter.Pass())
		s.SimilarMoved += b2f(r.SimilarAfter.Moved(r.SimilarBefore))
		s.ActivateBytes += float64(r.ActivateBytes)
		s.EdgesWritten += float64(r.EdgesWritten)
		if r.ControlOverlap >= 0 {
			s.ControlOverlap += r.ControlOverlap
			s.ControlRepeat += r.ControlRepeat
			s.ControlFeedback += b2f(r.ControlFeedback > 0)
			controls++
		}
	}
	if s.Queries > 0 {
		n := float64(s.Queries)
		s.Same, s.SimilarBefore, s.Similar, s.SimilarMoved = s.Same/n, s.SimilarBefore/n, s.Similar/n, s.SimilarMoved/n
		s.ActivateBytes, s.EdgesWritten = s.ActivateBytes/n, s.EdgesWritten/n
	}
	if controls > 0 {
		k := float64(controls)
		s.ControlOverlap, s.ControlRepeat, s.ControlFeedback = s.ControlOverlap/k, s.ControlRepeat/k, s.ControlFeedback/k
	} else {
		s.ControlOverlap, s.ControlRepeat = -1, -1
	}
	return s
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

type activated struct {
	NodeID   string  `json:"node_id"`
	Feedback float64 `json:"feedback"`
}

type activation struct {
	Activated  []activated     `json:"activated"`
	Plasticity map[string]int  `json:"plasticity"`
	raw        json.RawMessage `json:"-"`
}

func (a *activation) ranks(wrong, right string) Ranks {
	var r Ranks
	for i, n := range a.Activated {
		switch n.NodeID {
		case wrong:
			r.Wrong = i + 1
		case right:
			r.Right = i + 1
		}
	}
	return r
}

func (a *activation) feedback(id string) float64 {
	for _, n := range a.Activated {
		if n.NodeID == id {
			return n.Feedback
		}
	}
	return 0
}

func (a *activation) top(k int) []string {
	var out []string
	for i, n := range a.Activated {
		if i == k {
			break
		}
		out = append(out, n.NodeID)
	}
	return out
}

// runQuery measures one query in a fresh server, so that no query's
// learning reaches another's.
func runQuery(ctx context.Context, cfg Config, q query) (r QueryResult) {
	r = QueryResult{Commit: q.commit, Query: q.text, Similar: q.similar, Control: q.control, ControlOverlap: -1, ControlRepeat: -1, Feedback: map[string]float64{}}
	fail := func(format string, a ...any) QueryResult {
		r.Skipped = fmt.Sprintf(format, a...)
		return r
	}
	c, err := localize.StartFor(cfg.Server, cfg.Repo, cfg.ServerArgs...)
	if err != nil {
		return fail("start: %v", err)
	}
	defer c.Close()
	if err := c.Initialize(ctx); err != nil {
		return fail("initialize: %v", err)
	}
	var ing struct {
		Nodes int `json:"nodes_created"`
	}
	if err := c.CallTool(ctx, "ingest", map[string]any{"agent_id": "learnbench", "path": cfg.Repo}, &ing); err != nil {
		return fail("ingest: %v", err)
	}
	r.Nodes = ing.Nodes
	activate := func(text string) (*activation, error) {
		var raw json.RawMessage
		if err := c.CallTool(ctx, "activate", map[string]any{"agent_id": "learnbench", "query": text, "top_k": cfg.TopK}, &raw); err != nil {
			return nil, err
		}
		a := &activation{raw: raw}
		return a, json.Unmarshal(raw, a)
	}
	before, err := activate(q.text)
	if err != nil {
		return fail("activate: %v", err)
	}
	r.ActivateBytes = len(before.raw)
	r.EdgesWritten = before.Plasticity["edges_strengthened"] + before.Plasticity["edges_decayed"]
	r.EdgesCapped = before.Plasticity["edges_capped"]
	if len(before.Activated) < max(cfg.WrongRank, cfg.RightRank) {
		return fail("%d results, fewer than rank %d", len(before.Activated), max(cfg.WrongRank, cfg.RightRank))
	}
	r.Wrong, r.Right = before.Activated[cfg.WrongRank-1].NodeID, before.Activated[cfg.RightRank-1].NodeID
	r.SameBefore = before.ranks(r.Wrong, r.Right)
	simBefore, err := activate(q.similar)
	if err != nil {
		return fail("activate similar: %v", err)
	}
	r.SimilarBefore = simBefore.ranks(r.Wrong, r.Right)
	var ctrlBefore *activation
	if q.control != "" {
		first, err := activate(q.control)
		if err != nil {
			return fail("activate control: %v", err)
		}
		if ctrlBefore, err = activate(q.control); err != nil {
			return fail("activate control: %v", err)
		}
		r.ControlRepeat = overlap(first.top(10), ctrlBefore.top(10))
	}
	for range cfg.Rounds {
		for _, fb := range []struct{ kind, node string }{{"wrong", r.Wrong}, {"correct", r.Right}} {
			err := c.CallTool(ctx, "learn", map[string]any{"agent_id": "learnbench", "query": q.text, "feedback": fb.kind, "node_ids": []string{fb.node}, "strength": cfg.Strength}, nil)
			if err != nil {
				return fail("learn: %v", err)
			}
		}
	}
	after, err := activate(q.text)
	if err != nil {
		return fail("activate again: %v", err)
	}
	r.SameAfter = after.ranks(r.Wrong, r.Right)
	simAfter, err := activate(q.similar)
	if err != nil {
		return fail("activate similar again: %v", err)
	}
	r.SimilarAfter = simAfter.ranks(r.Wrong, r.Right)
	r.Feedback["same_wrong"], r.Feedback["same_right"] = after.feedback(r.Wrong), after.feedback(r.Right)
	r.Feedback["similar_wrong"], r.Feedback["similar_right"] = simAfter.feedback(r.Wrong), simAfter.feedback(r.Right)
	if ctrlBefore != nil {
		ctrlAfter, err := activate(q.control)
		if err != nil {
			return fail("activate control again: %v", err)
		}
		r.ControlOverlap = overlap(ctrlBefore.top(10), ctrlAfter.top(10))
		r.ControlFeedback = ctrlAfter.Plasticity["feedback_nodes"]
	}
	return r
}

// overlap is |a ∩ b| / max(|a|, |b|) (1 for two empty lists).
func overlap(a, b []string) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	both := 0
	for _, x := range a {
		if slices.Contains(b, x) {
			both++
		}
	}
	return float64(both) / float64(max(len(a), len(b)))
}

func clip(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// Markdown renders one repository's summary line and per-query ranks.
func (r *Report) Markdown() string {
	var b strings.Builder
	s := r.Summary
	fmt.Fprintf(&b, "Repository `%s` at `%s`: %d queries measured, %d skipped.\n\n", r.Repo, short(r.Head), s.Queries, s.Skipped)
	b.WriteString("Ranks are #wrong/#right (– = not in the top 20). Control: top-10 overlap of the unrelated query across learning (its overlap when merely asked twice).\n\n")
	b.WriteString("| query | similar | same: before → after | similar: before → after | control |\n| --- | --- | --- | --- | ---: |\n")
	for _, q := range r.Results {
		if q.Skipped != "" {
			fmt.Fprintf(&b, "| %s | – | skipped: %s | | |\n", cell(q.Query), cell(q.Skipped))
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s → %s | %s → %s | %.1f (%.1f) |\n", cell(q.Query), cell(q.Similar), q.SameBefore, q.SameAfter, q.SimilarBefore, q.SimilarAfter, q.ControlOverlap, q.ControlRepeat)
	}
	return b.String()
}

// String renders ranks as "#wrong/#right" with – for absent.
func (r Ranks) String() string {
	f := func(n int) string {
		if n == 0 {
			return "–"
		}
		return fmt.Sprint(n)
	}
	return f(r.Wrong) + "/" + f(r.Right)
}

// SummaryTable renders one line per report and a mean line.
func SummaryTable(reps []*Report) string {
	var b strings.Builder
	b.WriteString("| repository | queries | same query: wrong out of top 3, correct in top 5 | similar query: same criterion before → after | similar: both moved the right way | unrelated query: top-10 overlap across learning (asked twice) | unrelated query reached by feedback | activate response bytes | edges written / activate |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	var mean Summary
	n := 0
	for _, r := range reps {
		s := r.Summary
		name := r.Repo[strings.LastIndex(r.Repo, "/")+1:]
		fmt.Fprintf(&b, "| %s | %d | %s | %s → %s | %s | %.2f (%.2f) | %s | %.0f | %.0f |\n", name, s.Queries, pct(s.Same), pct(s.SimilarBefore), pct(s.Similar), pct(s.SimilarMoved), s.ControlOverlap, s.ControlRepeat, pct(s.ControlFeedback), s.ActivateBytes, s.EdgesWritten)
		if s.Queries > 0 {
			n++
			mean.Queries += s.Queries
			mean.Same += s.Same
			mean.SimilarBefore += s.SimilarBefore
			mean.Similar += s.Similar
			mean.SimilarMoved += s.SimilarMoved
			mean.ControlOverlap += s.ControlOverlap
			mean.ControlRepeat += s.ControlRepeat
			mean.ControlFeedback += s.ControlFeedback
			mean.ActivateBytes += s.ActivateBytes
			mean.EdgesWritten += s.EdgesWritten
		}
	}
	if n > 1 {
		k := float64(n)
		fmt.Fprintf(&b, "| **mean of %d** | %d | %s | %s → %s | %s | %.2f (%.2f) | %s | %.0f | %.0f |\n", n, mean.Queries, pct(mean.Same/k), pct(mean.SimilarBefore/k), pct(mean.Similar/k), pct(mean.SimilarMoved/k), mean.ControlOverlap/k, mean.ControlRepeat/k, pct(mean.ControlFeedback/k), mean.ActivateBytes/k, mean.EdgesWritten/k)
	}
	return b.String()
}

func pct(v float64) string { return fmt.Sprintf("%.0f%%", 100*v) }

func cell(s string) string {
	return strings.ReplaceAll(clip(s, 60), "|", "\\|")
}

func short(h string) string {
	if len(h) > 10 {
		return h[:10]
	}
	return h
}
