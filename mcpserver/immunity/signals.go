package immunity

import (
	"cmp"
	"slices"
	"time"

	"github.com/m1nd-go/m1nd/core/antibody"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/core/risk"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// Signals is what trust and tremor read from one bundle's history, built
// once per bundle: the files' evidence and change ages.
type Signals struct {
	Evidence map[graph.NodeID]*risk.Evidence
	// Ages are each file's commits' ages in seconds before Head.
	Ages       map[graph.NodeID][]float64
	Head       int64
	Span       float64 // Head − the oldest commit, seconds
	Commits    int
	FixCommits int
	MassEdits  int
}

var signalsKey = session.NewKey[*Signals]("immune history")

// SignalsOf returns b's history signals. Mass edits (more than
// risk.MaxCommitFiles files, counted before files that are not nodes are
// dropped) are skipped, as in the offline check (docs/design.md#trust).
func SignalsOf(b *session.Bundle) *Signals {
	s, _ := session.Derive(b, signalsKey, func(g *graph.Graph) (*Signals, error) {
		return buildSignals(b.History()), nil
	})
	return s
}

func buildSignals(x *history.Index) *Signals {
	s := &Signals{Head: x.Head(), Commits: x.Len()}
	cs := make([]risk.Commit[graph.NodeID], 0, x.Len())
	oldest := s.Head
	for i := range x.Len() {
		c := x.Commit(i)
		oldest = min(oldest, c.Time)
		if len(c.Files) > risk.MaxCommitFiles {
			s.MassEdits++
			continue
		}
		if risk.IsFix(c.Subject) {
			s.FixCommits++
		}
		cs = append(cs, risk.Commit[graph.NodeID]{Time: c.Time, Subject: c.Subject, Modules: x.CommitFiles(i)})
	}
	s.Span = float64(s.Head - oldest)
	s.Evidence = risk.HistoryEvidence(cs, s.Head)
	s.Ages = risk.ChangeAges(cs, s.Head)
	return s
}

// TrustEvidence is file's evidence: its history plus the outcomes agents
// recorded (aged by the session's clock, nowUnix).
func (st *Store) TrustEvidence(g *graph.Graph, hs *Signals, file graph.NodeID, nowUnix int64) risk.Evidence {
	e := risk.Evidence{LastDefectHours: -1}
	if h := hs.Evidence[file]; h != nil {
		e = *h
	}
	if en, ok := st.Trust.Get(g.ExternalID(file)); ok {
		en.AddTo(&e, nowUnix)
	}
	return e
}

// TremorAges are file's event ages in seconds: its commits before the
// history's head, its learn observations before the session's clock
// (nowMillis) — the session's present continues the repository's. It
// counts the commits and observations inside span.
func (st *Store) TremorAges(g *graph.Graph, hs *Signals, file graph.NodeID, nowMillis int64, span float64) (ages []float64, commits, learned int) {
	ages = append(ages, hs.Ages[file]...)
	for _, a := range ages {
		if a <= span {
			commits++
		}
	}
	for _, o := range st.Tremor.Of(g.ExternalID(file)) {
		a := float64(nowMillis-o.At) / 1000
		ages = append(ages, a)
		if a >= 0 && a <= span {
			learned++
		}
	}
	return ages, commits, learned
}

// Antibody scan budgets: per pattern and per scan (docs/design.md#antibodies).
const (
	PatternBudget = 10 * time.Millisecond
	ScanBudget    = 100 * time.Millisecond
)

// Hit is one antibody match.
type Hit struct {
	Antibody antibody.Antibody
	Match    antibody.Match
}

// Binding is the result of MatchesBinding.
type Binding struct {
	Scanned, TimedOut int
	// Hits bind the node, worst severity and best confidence first.
	Hits []Hit
}

// MatchesBinding runs the enabled antibodies within the scan's budgets and
// keeps the matches that bind a node for which binds is true (it is never
// called with graph.NoNode).
func (st *Store) MatchesBinding(g *graph.Graph, binds func(graph.NodeID) bool) Binding {
	var out Binding
	end := time.Now().Add(ScanBudget)
	for _, a := range st.Antibodies.List() {
		now := time.Now()
		if !a.Enabled || now.After(end) {
			continue
		}
		deadline := now.Add(PatternBudget)
		if deadline.After(end) {
			deadline = end
		}
		res := antibody.Find(g, a.Pattern, antibody.Options{Mode: antibody.Substring, MaxMatches: 100, Deadline: deadline})
		out.Scanned++
		if res.TimedOut {
			out.TimedOut++
		}
		for _, m := range res.Matches {
			if slices.ContainsFunc(m.Nodes, func(n graph.NodeID) bool { return n != graph.NoNode && binds(n) }) {
				out.Hits = append(out.Hits, Hit{a, m})
			}
		}
	}
	slices.SortStableFunc(out.Hits, func(x, y Hit) int {
		return cmp.Or(cmp.Compare(y.Antibody.Severity.Rank(), x.Antibody.Severity.Rank()), cmp.Compare(y.Match.Confidence, x.Match.Confidence), cmp.Compare(x.Antibody.ID, y.Antibody.ID))
	})
	return out
}
