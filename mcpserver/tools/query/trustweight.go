package query

import (
	"math"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/risk"
	"github.com/m1nd-go/m1nd/mcpserver/immunity"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// trustFactor is the multiplier a file of this trust gives its nodes in
// activate: 1 + w·(ColdStart − trust)/ColdStart, so a file without
// evidence (the cold start) keeps its score, one with a history of fixes
// gains up to ×(1 + w) and a long-stable one loses up to ×(1 − w)
// (docs/design.md#trust). w is in [0, 1].
func trustFactor(trust, w float64) float64 {
	return 1 + w*(risk.ColdStart-trust)/risk.ColdStart
}

// trustWeight is activate's engine.Query.Weight: each node's file's
// trust factor, from the same evidence the trust tool reads (history of
// the ingested checkout and learn's outcomes). Nil — nothing weighted —
// when w is 0 or there is no evidence at all. Documents and nodes
// outside a file keep factor 1: every fix touches a changelog.
func trustWeight(c *tools.Call, b *session.Bundle, w float64) func(graph.NodeID) float32 {
	if w <= 0 {
		return nil
	}
	st := immunity.For(c.Session)
	hs := immunity.SignalsOf(b)
	if hs.Commits == 0 && len(st.Trust.Modules()) == 0 {
		return nil
	}
	g, now := b.Graph, c.Session.Now().Unix()
	memo := map[graph.NodeID]float32{} // per file; the engine calls this from one goroutine
	return func(n graph.NodeID) float32 {
		f := tools.FileOf(g, n)
		if g.Type(f) != graph.File || g.HasTag(f, "doc") {
			return 1
		}
		if v, ok := memo[f]; ok {
			return v
		}
		v := float32(1)
		if e := st.TrustEvidence(g, hs, f, now); e.Observations() > 0 {
			v = float32(trustFactor(risk.Compute(e, 0).Trust, w))
		}
		memo[f] = v
		return v
	}
}

// shownFactor is the factor as activate reports it, to two decimals: 0
// (omitted) when that is 1 — a change too small to be worth the bytes.
func shownFactor(w float32) float64 {
	if v := math.Round(float64(graph.Finite(w))*100) / 100; v != 1 {
		return v
	}
	return 0
}
