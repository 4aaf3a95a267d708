package dynamics

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	coredyn "github.com/m1nd-go/m1nd/core/dynamics"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// memoryJSON is what epidemic's memory adds to an answer.
type memoryJSON struct {
	KnownInfected      []string `json:"known_infected" jsonschema:"Nodes earlier calls seeded that this call did not (include_known seeds them)."`
	KnownInfectedTotal int      `json:"known_infected_total"`
	Recovered          int      `json:"recovered" jsonschema:"Nodes reported recovered: immune in every run."`
	CalibrationReused  bool     `json:"calibration_reused" jsonschema:"The same call on this graph burnt out before: it started at the rate found then."`
	Persisted          bool     `json:"persisted" jsonschema:"Kept in epidemic_state.json beside the graph (false: memory-only server)."`
	SinceLastRun       *runDiff `json:"since_last_run,omitempty" jsonschema:"Change since this agent's previous call."`
}

// runDiff compares a run's predictions with the agent's previous run
// (the maxRemembered most probable of each).
type runDiff struct {
	At        string   `json:"at"`
	SameSetup bool     `json:"same_setup" jsonschema:"Same graph, seeds, direction, iterations, threshold and recovered nodes."`
	Seeds     []string `json:"seeds"`
	New       []string `json:"new" jsonschema:"Predicted now, not then (most probable first)."`
	NewCount  int      `json:"new_count"`
	Gone      []string `json:"gone" jsonschema:"Predicted then, not now."`
	GoneCount int      `json:"gone_count"`
	Changed   int      `json:"changed" jsonschema:"Predicted both times, probability moved by 0.05 or more."`
}

// maxListed bounds each list of node ids in the memory part of an answer.
const maxListed = 10

// resolve finds refs' nodes; the ones not found go to out.Unresolved.
func (out *EpidemicOutput) resolve(b *session.Bundle, refs []string, param string) []graph.NodeID {
	var ids []graph.NodeID
	for _, ref := range refs {
		id, err := tools.ResolveNode(b, ref, param)
		if err != nil {
			out.Unresolved = append(out.Unresolved, fmt.Sprintf("%s: %v", ref, err))
			continue
		}
		ids = append(ids, id)
	}
	return ids
}

// lookupAll finds the nodes of external ids (those the graph no longer
// has are skipped).
func lookupAll(g *graph.Graph, ids []string) []graph.NodeID {
	var out []graph.NodeID
	for _, id := range ids {
		if v, ok := g.Lookup(id); ok {
			out = append(out, v)
		}
	}
	return out
}

func idsOf(g *graph.Graph, vs []graph.NodeID) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = g.ExternalID(v)
	}
	return out
}

// setupKey names what decides a run's outcome: the graph (generation and
// size), the seeds, the immune nodes and the parameters.
func setupKey(g *graph.Graph, seeds []graph.NodeID, p coredyn.EpidemicParams) string {
	ids := func(vs []graph.NodeID) string {
		s := idsOf(g, vs)
		slices.Sort(s)
		return strings.Join(slices.Compact(s), ",")
	}
	return fmt.Sprintf("g%d/%d/%d|%s|%s|%d|%g|%s", g.Generation(), g.NumNodes(), g.NumEdges(),
		ids(seeds), p.Direction, p.Iterations, p.PromotionThreshold, ids(p.Immune))
}

// calibrated starts p at the rate an earlier run of the same setup
// calibrated to (its answer is the same: calibration only halves until
// the spread stops burning out); it reports whether it did.
func (st *epidemicState) calibrated(setup string, p *coredyn.EpidemicParams) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, r := range st.f.LastRun {
		if r.Setup == setup && r.Calibrated && r.Rate > 0 && r.Rate < 1 && !math.IsNaN(r.Rate) {
			p.Rate = r.Rate
			return true
		}
	}
	return false
}

// remember compares the run with the agent's previous one, records it,
// and fills the memory part of the answer.
func (out *EpidemicOutput) remember(c *tools.Call, st *epidemicState, g *graph.Graph, seeds, recovered []graph.NodeID,
	res coredyn.EpidemicResult, setup string, reused bool) {
	run := &lastRun{At: time.Now().UTC(), Setup: setup, Seeds: idsOf(g, seeds), Rate: res.Rate,
		Calibrated: res.Calibrated || reused, Predictions: map[string]float64{}}
	for _, pr := range res.Predictions[:min(len(res.Predictions), maxRemembered)] {
		run.Predictions[g.ExternalID(pr.Node)] = tools.R3(float32(pr.Probability))
	}
	if prev := st.previous(c.AgentID); prev != nil {
		out.Memory.SinceLastRun = diffRuns(prev, run)
	}
	if err := st.record(c.AgentID, run.Seeds, idsOf(g, recovered), run); err != nil {
		c.Session.Logf("%s: %v", epidemicStateFile, err)
	}
	known := st.known(run.Seeds)
	out.Memory.KnownInfected, out.Memory.KnownInfectedTotal = known[:min(len(known), maxListed*2)], len(known)
	out.Memory.Recovered = len(st.recovered())
	out.Memory.CalibrationReused, out.Memory.Persisted = reused, st.path != ""
}

func diffRuns(prev, cur *lastRun) *runDiff {
	d := &runDiff{At: prev.At.Format(time.RFC3339), SameSetup: prev.Setup == cur.Setup, Seeds: prev.Seeds, New: []string{}, Gone: []string{}}
	var added, gone []string
	for id, p := range cur.Predictions {
		q, ok := prev.Predictions[id]
		switch {
		case !ok:
			added = append(added, id)
		case math.Abs(p-q) >= 0.05:
			d.Changed++
		}
	}
	for id := range prev.Predictions {
		if _, ok := cur.Predictions[id]; !ok {
			gone = append(gone, id)
		}
	}
	byProb := func(m map[string]float64) func(a, b string) int {
		return func(a, b string) int { return cmp.Or(cmp.Compare(m[b], m[a]), cmp.Compare(a, b)) }
	}
	slices.SortFunc(added, byProb(cur.Predictions))
	slices.SortFunc(gone, byProb(prev.Predictions))
	d.NewCount, d.GoneCount = len(added), len(gone)
	d.New, d.Gone = append(d.New, added[:min(len(added), maxListed)]...), append(d.Gone, gone[:min(len(gone), maxListed)]...)
	return d
}
