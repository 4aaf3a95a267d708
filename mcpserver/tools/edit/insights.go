package edit

import (
	"cmp"
	"fmt"
	"time"

	"github.com/m1nd-go/m1nd/core/antibody"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/core/risk"
	"github.com/m1nd-go/m1nd/mcpserver/daemon"
	"github.com/m1nd-go/m1nd/mcpserver/immunity"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// insights are the checks a write calls for: a test of the file that the
// batch left alone, files that usually change with it, and a wide blast
// radius.
func (b *batchRun) insights(bd *session.Bundle) []insight {
	g := bd.Graph
	rs := tools.BundleSpace(bd)
	written := map[graph.NodeID]bool{}
	var files []graph.NodeID
	for i, p := range b.paths {
		if id, ok := g.Lookup(rs.FileID(p)); ok && !b.targets[i].Unchanged() {
			written[id] = true
			files = append(files, id)
		}
	}
	var out []insight
	hist := bd.History()
	st, hs, now := immunity.For(b.c.Session), immunity.SignalsOf(bd), b.c.Session.Now().Unix()
	for _, f := range files {
		fp := g.SourcePath(f)
		for _, t := range testsOf(g, f) {
			if !written[t] {
				out = append(out, insight{Kind: "untouched_test_companion", File: fp, Target: g.SourcePath(t),
					Detail: fmt.Sprintf("%s tests %s and was not part of this write: run it, or update it with the change.", g.SourcePath(t), fp)})
			}
		}
		for _, p := range hist.Partners(f, 0, 30, 5) {
			if !written[p.Node] && p.Times >= 2 && p.Coupling >= 0.5 {
				out = append(out, insight{Kind: "co_change_prediction", File: fp, Target: g.SourcePath(p.Node), Score: tools.R3(float32(p.Coupling)),
					Detail: fmt.Sprintf("%s changed together with %s in %d commits (%.0f%% of its history): it may need the same change.", g.SourcePath(p.Node), fp, p.Times, 100*p.Coupling)})
			}
		}
		if in, ok := tremor(hist, f, fp); ok {
			out = append(out, in)
		}
		if in, ok := trustDrop(g, st, hs, f, fp, now); ok {
			out = append(out, in)
		}
		if n := directDependents(g, f); n >= 10 {
			out = append(out, insight{Kind: "high_blast_radius", File: fp, Score: float64(n),
				Detail: fmt.Sprintf("%d files depend on %s directly: check them with impact before building on this change.", n, fp)})
		}
	}
	out = append(out, antibodyRecurrence(g, st, written)...)
	if len(out) > 12 {
		out = out[:12]
	}
	return out
}

// trustDrop reports a written file whose history makes it fragile: trust
// in the HighRisk tier from at least two fixes or recorded defects (one
// fix in a young file is not a pattern).
func trustDrop(g *graph.Graph, st *immunity.Store, hs *immunity.Signals, f graph.NodeID, fp string, nowUnix int64) (insight, bool) {
	e := st.TrustEvidence(g, hs, f, nowUnix)
	s := risk.Compute(e, risk.HalfLifeHours)
	if s.Tier != risk.HighRisk || e.Fixes+e.Defects < 2 {
		return insight{}, false
	}
	return insight{Kind: "trust_drop", File: fp, Score: tools.R3(float32(s.Trust)),
		Detail: fmt.Sprintf("%s has trust %.2f (HighRisk): %d fixes and %d recorded defects in %d changes. Verify this write (verify: true) and run its tests.", fp, s.Trust, e.Fixes, e.Defects, e.Changes)}, true
}

// antibodyRecurrence reports the stored bug shapes that match, after the
// write, a node of a written file: the bug an antibody remembers may be
// back. One insight per antibody, within the scan's budgets.
func antibodyRecurrence(g *graph.Graph, st *immunity.Store, written map[graph.NodeID]bool) []insight {
	if len(written) == 0 || st.Antibodies.Len() == 0 {
		return nil
	}
	res := st.MatchesBinding(g, func(n graph.NodeID) bool { return written[history.FileOf(g, n)] })
	var out []insight
	seen := map[string]bool{}
	for _, h := range res.Hits {
		a := h.Antibody
		if seen[a.ID] {
			continue
		}
		seen[a.ID] = true
		at := boundFile(g, h.Match, written)
		out = append(out, insight{Kind: "antibody_recurrence", File: at, Score: tools.R3(float32(h.Match.Confidence)),
			Detail: fmt.Sprintf("Antibody %s (%s: %s) matches %s after this write: check whether that bug's fix applies here (antibody_scan lists every match).", a.ID, a.Severity, cmp.Or(a.Description, "no description"), at)})
	}
	return out
}

// boundFile is the first written file a match binds.
func boundFile(g *graph.Graph, m antibody.Match, written map[graph.NodeID]bool) string {
	for _, n := range m.Nodes {
		if n != graph.NoNode && written[history.FileOf(g, n)] {
			return g.SourcePath(history.FileOf(g, n))
		}
	}
	return ""
}

// Tremor windows: the recent one, and the one before it the recent rate
// is compared with (by the history's HEAD date, not the clock).
const (
	tremorRecent = 30 * 24 * 3600
	tremorBefore = 180 * 24 * 3600
)

// tremor reports a file whose changes are accelerating: at least three
// commits in the last 30 days of the history, at twice or more its rate
// over the 180 days before — change that speeds up precedes bugs more
// than steady churn does.
func tremor(hist *history.Index, f graph.NodeID, fp string) (insight, bool) {
	if hist == nil {
		return insight{}, false
	}
	head := hist.Head()
	recent, before := 0, 0
	for _, ci := range hist.FileCommits(f) {
		switch age := head - hist.Commit(int(ci)).Time; {
		case age <= tremorRecent:
			recent++
		case age <= tremorRecent+tremorBefore:
			before++
		}
	}
	rate := float64(recent) / 30
	prev := float64(before) / 180
	if recent < 3 || rate < 2*prev {
		return insight{}, false
	}
	ratio := 0.0 // no change before: acceleration from rest
	if prev > 0 {
		ratio = rate / prev
	}
	detail := fmt.Sprintf("%s changed in %d commits in the last 30 days of its history", fp, recent)
	if ratio > 0 {
		detail += fmt.Sprintf(", %.1f× its rate over the 180 days before", ratio)
	} else {
		detail += ", after none in the 180 days before"
	}
	return insight{Kind: "tremor_hotspot", File: fp, Score: float64(recent),
		Detail: detail + ": change is accelerating here. Verify this write (verify: true) and run its tests."}, true
}

// promoteInsights puts the strongest insights of a write into the
// daemon's alert queue when it is watching, so they outlive the answer
// (reviewed later with alerts_list); an unacknowledged alert saying the
// same is not repeated.
func (b *batchRun) promoteInsights(ins []insight) {
	dm := tools.DaemonOf(tools.CallDispatcher(b.c))
	if !dm.Status().Active {
		return
	}
	var al []daemon.Alert
	for _, in := range ins {
		strong := in.Kind == "high_blast_radius" || in.Kind == "tremor_hotspot" || in.Kind == "trust_drop" || in.Kind == "antibody_recurrence" || (in.Kind == "co_change_prediction" && in.Score >= 0.8)
		if !strong {
			continue
		}
		ids := []string{"file::" + in.File}
		if in.Target != "" {
			ids = append(ids, "file::"+in.Target)
		}
		al = append(al, daemon.Alert{Kind: in.Kind, Severity: "warning", Message: in.Detail, NodeIDs: ids})
	}
	dm.Alerts.AddNew(time.Now(), al...)
}
