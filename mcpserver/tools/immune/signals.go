package immune

import (
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/core/risk"
	"github.com/m1nd-go/m1nd/mcpserver/immunity"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// histSignals is what trust and tremor read from one bundle's history,
// built once per bundle: the files' evidence and change ages.
type histSignals struct {
	evidence map[graph.NodeID]*risk.Evidence
	// ages are each file's commits' ages in seconds before head.
	ages       map[graph.NodeID][]float64
	head       int64
	span       float64 // head − the oldest commit, seconds
	commits    int
	fixCommits int
	massEdits  int
}

var histKey = session.NewKey[*histSignals]("immune history")

// signalsOf returns b's history signals. Mass edits (more than
// risk.MaxCommitFiles files, counted before files that are not nodes are
// dropped) are skipped, as in the offline check
// (docs/design.md#trust).
func signalsOf(b *session.Bundle) *histSignals {
	s, _ := session.Derive(b, histKey, func(g *graph.Graph) (*histSignals, error) {
		return buildSignals(b.History()), nil
	})
	return s
}

func buildSignals(x *history.Index) *histSignals {
	s := &histSignals{head: x.Head(), commits: x.Len()}
	cs := make([]risk.Commit[graph.NodeID], 0, x.Len())
	oldest := s.head
	for i := range x.Len() {
		c := x.Commit(i)
		oldest = min(oldest, c.Time)
		if len(c.Files) > risk.MaxCommitFiles {
			s.massEdits++
			continue
		}
		if risk.IsFix(c.Subject) {
			s.fixCommits++
		}
		cs = append(cs, risk.Commit[graph.NodeID]{Time: c.Time, Subject: c.Subject, Modules: x.CommitFiles(i)})
	}
	s.span = float64(s.head - oldest)
	s.evidence = risk.HistoryEvidence(cs, s.head)
	s.ages = risk.ChangeAges(cs, s.head)
	return s
}

// moduleOf is the module a node's signals are kept under: its file.
func moduleOf(g *graph.Graph, id graph.NodeID) graph.NodeID { return history.FileOf(g, id) }

// trustEvidence is file's evidence: its history plus the outcomes agents
// recorded (aged by the session's clock, nowUnix).
func trustEvidence(g *graph.Graph, hs *histSignals, st *immunity.Store, file graph.NodeID, nowUnix int64) risk.Evidence {
	e := risk.Evidence{LastDefectHours: -1}
	if h := hs.evidence[file]; h != nil {
		e = *h
	}
	if en, ok := st.Trust.Get(g.ExternalID(file)); ok {
		en.AddTo(&e, nowUnix)
	}
	return e
}

// tremorAges are file's event ages in seconds: its commits before the
// history's head, its learn observations before the session's clock
// (nowMillis) — the session's present continues the repository's. It
// counts the commits and observations inside span.
func tremorAges(g *graph.Graph, hs *histSignals, st *immunity.Store, file graph.NodeID, nowMillis int64, span float64) (ages []float64, commits, learned int) {
	ages = append(ages, hs.ages[file]...)
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

// matchesFilter: a node filter is a substring of the external id or path.
func matchesFilter(g *graph.Graph, id graph.NodeID, filter string) bool {
	if filter == "" {
		return true
	}
	return strings.Contains(g.ExternalID(id), filter) || strings.Contains(g.SourcePath(id), filter)
}

// isDoc: documents (tagged doc by ingest) change with every fix — a
// changelog most of all — and hold no code to be fragile.
func isDoc(g *graph.Graph, id graph.NodeID) bool { return g.HasTag(id, "doc") }
