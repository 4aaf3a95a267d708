package continuity

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// Conflict is a pair of hypotheses from different trails that cannot both
// hold: one trail's evidence contradicts the other's, or the statements
// say the same thing with opposite polarity.
type Conflict struct {
	HypothesisA string `json:"hypothesis_a"`
	TrailA      string `json:"trail_a"`
	HypothesisB string `json:"hypothesis_b"`
	TrailB      string `json:"trail_b"`
	// Why: "contradicting_nodes" (a node one supports the other
	// contradicts) or "opposite_statements".
	Why string `json:"why"`
	// Nodes are the nodes the two disagree about.
	Nodes []string `json:"nodes,omitempty"`
	// Resolution is "resolved" when confidence and recency separate the
	// two by at least ResolveDelta, "unresolved" otherwise.
	Resolution string  `json:"resolution"`
	Winner     string  `json:"winner,omitempty"`
	ScoreDelta float64 `json:"score_delta"`
}

// Conflict resolution: score = confidence + RecencyBonus for the
// hypothesis of the more recently modified trail; a difference under
// ResolveDelta is left for review.
const (
	RecencyBonus = 0.1
	ResolveDelta = 0.15
)

// MergeReport says what a merge combined.
type MergeReport struct {
	NodesMerged       int        `json:"nodes_merged"`
	SharedNodes       []string   `json:"shared_nodes"`
	HypothesesMerged  int        `json:"hypotheses_merged"`
	ConclusionsMerged int        `json:"conclusions_merged"`
	Conflicts         []Conflict `json:"conflicts"`
	// Dropped counts entries left out at the trail limits.
	Dropped int `json:"dropped_at_limits"`
}

type srcHyp struct {
	h     Hypothesis
	trail *Trail
	score float64
}

// Merge combines trails (two or more, in the order given) into a new,
// unsaved trail for agent: visited nodes and boosts are united (the
// highest relevance or boost wins), identical statements are merged, and
// contradicting hypotheses are reported and, when the scores allow,
// resolved (the loser stays, with status "rejected_in_merge").
func Merge(agent, label string, trails []*Trail) (Trail, MergeReport) {
	var rep MergeReport
	out := Trail{AgentID: agent, Label: label, Boosts: map[string]float64{}}
	newest := int64(math.MinInt64)
	for _, t := range trails {
		newest = max(newest, t.ModifiedMs)
		out.MergedFrom = append(out.MergedFrom, t.ID)
	}
	seenIn := map[string]int{}
	visited := map[string]*Visited{}
	var order []string
	for _, t := range trails {
		for _, n := range t.Nodes() {
			seenIn[n]++
		}
		for _, v := range t.Visited {
			if cur, ok := visited[v.NodeID]; ok {
				cur.Relevance = max(cur.Relevance, v.Relevance)
				if cur.Annotation == "" {
					cur.Annotation = v.Annotation
				} else if v.Annotation != "" && v.Annotation != cur.Annotation {
					cur.Annotation = clipText(cur.Annotation+" | "+v.Annotation, MaxAnnotation)
				}
				continue
			}
			vc := v
			visited[v.NodeID] = &vc
			order = append(order, v.NodeID)
		}
		for k, b := range t.Boosts {
			out.Boosts[k] = max(out.Boosts[k], b)
		}
	}
	for _, n := range order {
		out.Visited = append(out.Visited, *visited[n])
	}
	// Hypotheses: identical statements merge; the rest are compared.
	var hyps []srcHyp
	byStmt := map[string]int{}
	for _, t := range trails {
		bonus := 0.0
		if t.ModifiedMs == newest && len(trails) > 1 {
			bonus = RecencyBonus
		}
		for _, h := range t.Hypotheses {
			k := normStatement(h.Statement)
			if i, ok := byStmt[k]; ok {
				cur := &hyps[i]
				cur.h.Confidence = max(cur.h.Confidence, h.Confidence)
				cur.h.SupportingNodes = union(cur.h.SupportingNodes, h.SupportingNodes, MaxClaimNodes)
				cur.h.ContradictingNodes = union(cur.h.ContradictingNodes, h.ContradictingNodes, MaxClaimNodes)
				cur.score = max(cur.score, h.Confidence+bonus)
				continue
			}
			byStmt[k] = len(hyps)
			hc := h
			hc.SupportingNodes = slices.Clone(h.SupportingNodes)
			hc.ContradictingNodes = slices.Clone(h.ContradictingNodes)
			hyps = append(hyps, srcHyp{h: hc, trail: t, score: h.Confidence + bonus})
		}
	}
	rep.Conflicts = conflicts(hyps)
	for _, h := range hyps {
		out.Hypotheses = append(out.Hypotheses, h.h)
	}
	for _, c := range rep.Conflicts {
		for i := range out.Hypotheses {
			st := out.Hypotheses[i].Statement
			switch {
			case c.Resolution == "resolved" && (st == c.HypothesisA || st == c.HypothesisB) && st != c.Winner:
				out.Hypotheses[i].Status = "rejected_in_merge"
			case c.Resolution == "unresolved" && (st == c.HypothesisA || st == c.HypothesisB):
				out.Hypotheses[i].Status = "conflict_unresolved"
			}
		}
	}
	seenC, seenQ, seenT := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, t := range trails {
		for _, c := range t.Conclusions {
			if k := normStatement(c.Statement); !seenC[k] {
				seenC[k] = true
				out.Conclusions = append(out.Conclusions, c)
			}
		}
		for _, q := range t.OpenQuestions {
			if k := normStatement(q); !seenQ[k] {
				seenQ[k] = true
				out.OpenQuestions = append(out.OpenQuestions, q)
			}
		}
		for _, tag := range t.Tags {
			if !seenT[tag] {
				seenT[tag] = true
				out.Tags = append(out.Tags, tag)
			}
		}
	}
	rep.Dropped = out.fitLimits()
	rep.HypothesesMerged, rep.ConclusionsMerged = len(out.Hypotheses), len(out.Conclusions)
	rep.NodesMerged = len(out.Nodes())
	for n, k := range seenIn {
		if k > 1 {
			rep.SharedNodes = append(rep.SharedNodes, n)
		}
	}
	sort.Strings(rep.SharedNodes)
	rep.SharedNodes = nonNil(rep.SharedNodes)
	rep.Conflicts = nonNil(rep.Conflicts)
	if strings.TrimSpace(out.Label) == "" {
		out.Label = clipText("merged: "+strings.Join(labels(trails), " + "), MaxLabel)
	}
	return out, rep
}

func labels(ts []*Trail) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Label)
	}
	return out
}

// fitLimits trims a merged trail to the trail limits, keeping the most
// relevant entries, and returns how many were dropped.
func (tr *Trail) fitLimits() int {
	dropped := 0
	if n := len(tr.Visited) - MaxVisited; n > 0 {
		sort.SliceStable(tr.Visited, func(i, j int) bool { return tr.Visited[i].Relevance > tr.Visited[j].Relevance })
		tr.Visited, dropped = tr.Visited[:MaxVisited], dropped+n
	}
	if n := len(tr.Hypotheses) - MaxHypotheses; n > 0 {
		sort.SliceStable(tr.Hypotheses, func(i, j int) bool { return tr.Hypotheses[i].Confidence > tr.Hypotheses[j].Confidence })
		tr.Hypotheses, dropped = tr.Hypotheses[:MaxHypotheses], dropped+n
	}
	if n := len(tr.Conclusions) - MaxConclusions; n > 0 {
		sort.SliceStable(tr.Conclusions, func(i, j int) bool { return tr.Conclusions[i].Confidence > tr.Conclusions[j].Confidence })
		tr.Conclusions, dropped = tr.Conclusions[:MaxConclusions], dropped+n
	}
	if n := len(tr.OpenQuestions) - MaxOpenQuestions; n > 0 {
		tr.OpenQuestions, dropped = tr.OpenQuestions[:MaxOpenQuestions], dropped+n
	}
	if n := len(tr.Tags) - MaxTags; n > 0 {
		tr.Tags, dropped = tr.Tags[:MaxTags], dropped+n
	}
	if n := len(tr.Boosts) - MaxBoosts; n > 0 {
		keys := make([]string, 0, len(tr.Boosts))
		for k := range tr.Boosts {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if tr.Boosts[keys[i]] != tr.Boosts[keys[j]] {
				return tr.Boosts[keys[i]] > tr.Boosts[keys[j]]
			}
			return keys[i] < keys[j]
		})
		for _, k := range keys[MaxBoosts:] {
			delete(tr.Boosts, k)
		}
		dropped += n
	}
	return dropped
}

// conflicts compares hypotheses of different trails pairwise.
func conflicts(hyps []srcHyp) []Conflict {
	var out []Conflict
	for i := range hyps {
		for j := i + 1; j < len(hyps); j++ {
			a, b := hyps[i], hyps[j]
			if a.trail == b.trail {
				continue
			}
			why, nodes := "", intersect(a.h.SupportingNodes, b.h.ContradictingNodes)
			nodes = append(nodes, intersect(b.h.SupportingNodes, a.h.ContradictingNodes)...)
			switch {
			case len(nodes) > 0:
				why = "contradicting_nodes"
			case opposite(a.h.Statement, b.h.Statement):
				why = "opposite_statements"
				nodes = intersect(a.h.SupportingNodes, b.h.SupportingNodes)
			default:
				continue
			}
			c := Conflict{HypothesisA: a.h.Statement, TrailA: a.trail.ID, HypothesisB: b.h.Statement, TrailB: b.trail.ID, Why: why, Nodes: nodes}
			d := a.score - b.score
			c.ScoreDelta = math.Round(math.Abs(d)*1000) / 1000
			if math.Abs(d) >= ResolveDelta {
				c.Resolution, c.Winner = "resolved", a.h.Statement
				if d < 0 {
					c.Winner = b.h.Statement
				}
			} else {
				c.Resolution = "unresolved"
			}
			out = append(out, c)
		}
	}
	return out
}

var negations = map[string]bool{"not": true, "no": true, "never": true, "none": true, "cannot": true, "without": true, "isn't": true, "doesn't": true, "don't": true, "aren't": true, "won't": true, "properly": true, "safe": true, "correctly": true}

var stopwords = map[string]bool{"the": true, "a": true, "an": true, "is": true, "are": true, "of": true, "to": true, "in": true, "on": true, "and": true, "or": true, "by": true, "for": true, "from": true, "through": true, "with": true, "be": true, "it": true, "its": true, "that": true, "this": true}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '_'
	})
}

// opposite reports two statements about the same thing (most content words
// shared) of which exactly one is negated ("leaks tokens" against "tokens
// are not leaked", "properly scoped").
func opposite(a, b string) bool {
	ca, na := content(a)
	cb, nb := content(b)
	if na == nb || len(ca) == 0 || len(cb) == 0 {
		return false
	}
	shared := 0
	for w := range ca {
		if cb[w] {
			shared++
		}
	}
	return float64(shared)/float64(min(len(ca), len(cb))) >= 0.5
}

// content returns a statement's content words (crudely stemmed) and
// whether it is negated.
func content(s string) (map[string]bool, bool) {
	set, neg := map[string]bool{}, false
	for _, w := range words(s) {
		switch {
		case negations[w]:
			neg = !neg
		case !stopwords[w] && len(w) > 2:
			set[stem(w)] = true
		}
	}
	return set, neg
}

func stem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

func normStatement(s string) string { return strings.Join(words(s), " ") }

func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		if slices.Contains(b, x) && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func union(a, b []string, limit int) []string {
	out := slices.Clone(a)
	for _, x := range b {
		if len(out) >= limit {
			break
		}
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// String describes a conflict in a line.
func (c Conflict) String() string {
	return fmt.Sprintf("%q (%s) vs %q (%s): %s", c.HypothesisA, c.TrailA, c.HypothesisB, c.TrailB, c.Resolution)
}
