package plasticity

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Feedback is the verdict passed to Learn.
type Feedback string

// The three feedback kinds of the learn tool.
const (
	Correct Feedback = "correct"
	Wrong   Feedback = "wrong"
	Partial Feedback = "partial"
)

// DefaultLearnStrength is the learn tool's default strength.
const DefaultLearnStrength = float32(0.2)

// ParseFeedback accepts "correct", "wrong" or "partial" in any case.
func ParseFeedback(s string) (Feedback, error) {
	switch f := Feedback(strings.ToLower(strings.TrimSpace(s))); f {
	case Correct, Wrong, Partial:
		return f, nil
	}
	return "", fmt.Errorf("unknown feedback %q (want \"correct\", \"wrong\" or \"partial\")", s)
}

// LearnRequest is explicit feedback on some nodes.
type LearnRequest struct {
	// Query is the query the feedback refers to (kept in query memory).
	Query    string
	Feedback Feedback
	// Nodes are the nodes judged: the relevant results for Correct and
	// Partial, the irrelevant ones for Wrong. At least one.
	Nodes []graph.NodeID
	// Strength in [0, 1] is how far the feedback reaches beyond the judged
	// nodes: a neighbour of a judged node is treated as activated at
	// Strength (see Learn). The tool's default is DefaultLearnStrength.
	Strength float32
	// Seeds are the seeds of the original query, strongest first, if known;
	// feedback memory files the feedback under them (under Nodes when
	// empty) and under Words.
	Seeds []graph.NodeID
	// Words are the query's context words; nil means ContextWords(Query).
	Words []string
	// Time of the feedback; zero means the engine's clock.
	Time time.Time
}

// LearnResult reports what Learn changed.
type LearnResult struct {
	Feedback          Feedback `json:"feedback"`
	EdgesStrengthened int      `json:"edges_strengthened"`
	EdgesWeakened     int      `json:"edges_weakened"`
	NodesAffected     int      `json:"nodes_affected"`
	LTPEvents         int      `json:"ltp_events"`
	LTDEvents         int      `json:"ltd_events"`
	HomeostaticNodes  int      `json:"homeostatic_nodes"`
	// TotalWeightDelta is the sum of |Δw| over every edge written.
	TotalWeightDelta float32 `json:"total_weight_delta"`
	// LearningType is "hebbian_ltp" (correct), "hebbian_partial" or
	// "hebbian_ltd" (wrong).
	LearningType string `json:"learning_type"`
	CASFailures  int    `json:"cas_failures,omitempty"`
}

// Learn applies explicit feedback. Let J be the judged nodes. Every edge
// with at least one end in J is visited once; its "other" end has
// activation 1.0 when it is in J too, Strength otherwise, and the judged
// end has activation 1.0.
//
//   - Correct: amplified Hebbian strengthening, Δw = lr · 1.0 · act_other
//     (capped at WeightCap), a strengthen event (towards LTP). Edges between
//     two judged nodes get the maximal lr; edges into their neighbourhood
//     get lr·Strength. Query memory records J with weight 1.0.
//   - Partial: "strengthen confirmed nodes only" — edges between two judged
//     nodes as for Correct; edges into the neighbourhood get half of the
//     Correct delta (lr·Strength/2). Query memory records J at 0.5.
//   - Wrong: the edge decays as if its source were inactive,
//     w·(1 − decay_rate), and additionally loses lr · 1.0 · act_other
//     (anti-Hebbian), floored at WeightFloor; a weaken event (towards LTD).
//     With Strength 0 only the decay applies to neighbourhood edges.
//
// LTP/LTD and homeostasis then run on the edges touched, as in Update.
// Feedback memory then remembers the call under the query's context (its
// words and seeds) with evidence ±(FeedbackBase + (1 − FeedbackBase)·
// Strength) per judged node (half for Partial), which Relevance reports
// for the same and similar queries.
// Learn validates its input first and changes nothing on error.
func (e *Engine) Learn(g *graph.Graph, req LearnRequest) (LearnResult, error) {
	res := LearnResult{Feedback: req.Feedback}
	if err := checkGraph(g); err != nil {
		return res, err
	}
	switch req.Feedback {
	case Correct:
		res.LearningType = "hebbian_ltp"
	case Partial:
		res.LearningType = "hebbian_partial"
	case Wrong:
		res.LearningType = "hebbian_ltd"
	default:
		return res, fmt.Errorf("unknown feedback %q (want \"correct\", \"wrong\" or \"partial\")", req.Feedback)
	}
	if !graph.IsFinite(req.Strength) || req.Strength < 0 || req.Strength > 1 {
		return res, fmt.Errorf("strength must be in [0, 1], got %v", req.Strength)
	}
	if len(req.Nodes) == 0 {
		return res, errors.New("learn needs at least one node")
	}
	if err := checkNodes(g, req.Nodes); err != nil {
		return res, err
	}
	if err := checkNodes(g, req.Seeds); err != nil {
		return res, err
	}

	e.mu.Lock()
	defer e.mu.Unlock()
	at := req.Time
	if at.IsZero() {
		at = e.now()
	}
	e.ensure(g.NumNodes())
	judged := slices.Clone(req.Nodes)
	slices.Sort(judged)
	judged = slices.Compact(judged)
	res.NodesAffected = len(judged)

	// Mark J with act = 1 (e.act is all zeros between calls).
	for _, n := range judged {
		e.act[n] = 1
	}
	defer e.clearActivation(judged)
	e.strengthened = e.strengthened[:0]
	e.weakened = e.weakened[:0]
	e.homeo = e.homeo[:0]
	e.nextStamp()

	p := &e.p
	pl := g.EdgePlasticity()
	var total float64
	visit := func(edge graph.EdgeIdx, other graph.NodeID) {
		inJ := e.act[other] > 0
		actOther := req.Strength
		if inJ {
			actOther = 1
		}
		switch req.Feedback {
		case Correct, Partial:
			delta := p.LearningRate * actOther
			if req.Feedback == Partial && !inJ {
				delta /= 2
			}
			if delta <= 0 {
				return
			}
			old, nw, ok := e.add(g, edge, delta, &res.CASFailures)
			if !ok {
				return
			}
			total += float64(abs32(nw - old))
			strengthenEvent(pl, edge)
			e.strengthened = append(e.strengthened, edge)
			e.addHomeo(g.Target(edge))
			res.EdgesStrengthened++
		case Wrong:
			old, nw, _ := e.sub(g, edge, 1-p.DecayRate, p.LearningRate*actOther, &res.CASFailures)
			total += float64(abs32(nw - old))
			weakenEvent(pl, edge)
			e.weakened = append(e.weakened, edge)
			res.EdgesWeakened++
		}
	}
	for _, n := range judged {
		lo, hi := g.OutRange(n)
		for edge := lo; edge < hi; edge++ {
			visit(edge, g.Target(edge))
		}
		ilo, ihi := g.InRange(n)
		for pos := ilo; pos < ihi; pos++ {
			if s := g.InSource(pos); e.act[s] == 0 { // edges from J were visited above
				visit(g.InEdge(pos), s)
			}
		}
	}
	res.LTPEvents = e.applyLTP(g, e.strengthened, &res.CASFailures)
	res.LTDEvents = e.applyLTD(g, e.weakened, &res.CASFailures)
	res.HomeostaticNodes = e.homeostasis(g, &res.CASFailures)
	res.TotalWeightDelta = graph.Finite(float32(total))

	// Feedback memory.
	seeds := req.Seeds
	if len(seeds) == 0 {
		seeds = judged
	}
	words := req.Words
	if words == nil {
		words = ContextWords(req.Query)
	}
	rec := fbRecord{query: strings.Clone(req.Query), words: sortedUnique(words), seeds: seedKeys(g, seeds, p.MemorySeedsPerQuery), at: at}
	ev := e.evidence(req.Feedback, req.Strength)
	for _, n := range judged {
		rec.nodes = append(rec.nodes, memNode{key: g.ExternalID(n), w: ev})
	}
	e.fb.push(rec)
	e.fbRecords.Store(int32(e.fb.ring.size))
	return res, nil
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}
