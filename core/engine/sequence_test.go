package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/internal/golden"
	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/core/seed"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata goldens")

// TestActivateSequenceGolden pins what a run of queries answers and
// learns when its phases overlap (D2 beside another ranker's seeds, D1 on
// the calling goroutine, priming beside merge, learning beside the top-k
// cut): 24 queries in a row on one engine, learning on, seeds from a
// second ranker (MoreSeeds), XLR, ghost edges and structural holes, one
// Learn call part way; every answer (timings zeroed) and the learned
// state after, byte-compared with testdata/activate_sequence.golden.json,
// which the code that ran the phases one after another wrote.
func TestActivateSequenceGolden(t *testing.T) {
	g := graphtest.PowerLaw(3000, 7800, 5)
	opts := DefaultOptions()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	opts.Now = func() time.Time { return now }
	e := newEngine(t, g, func(o *Options) { *o = opts })
	type answer struct {
		Result     *Result
		SeedsCount int
		Error      string
	}
	var got struct {
		Answers []answer
		// The learned state is large: its digests, and its sizes.
		Edges, Memory, Weights string
		NumEdges, NumMemory    int
	}
	for i := range 24 {
		text := benchQueries[i%len(benchQueries)]
		more := []seed.Seed{{Node: graph.NodeID(i * 83 % 3000), Relevance: 0.7, Match: seed.MatchLexical}, {Node: graph.NodeID(i * 151 % 3000), Relevance: 0.4, Match: seed.MatchLexical}}
		q := Query{Text: text, TopK: 10, XLR: true, GhostEdges: true, StructuralHoles: i%3 == 0,
			MoreSeeds: func() []seed.Seed { return more }}
		if i%4 == 1 {
			q.Dimensions = []graph.Dimension{graph.Structural, graph.Causal} // no D2
		}
		r, err := e.Activate(context.Background(), q)
		a := answer{Result: r}
		if err != nil {
			a.Error = err.Error()
		} else {
			a.SeedsCount = len(r.Seeds)
			r.Seeds = r.Seeds[:min(3, len(r.Seeds))]
			r.Timings, r.Elapsed = Timings{}, 0
		}
		got.Answers = append(got.Answers, a)
		if i == 10 && err == nil && len(r.Activated) > 2 {
			if _, err := e.Learn(plasticity.LearnRequest{Query: text, Feedback: plasticity.Correct, Nodes: []graph.NodeID{r.Activated[2].ID}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	edges, memory := e.Plasticity().ExportState(g), e.Plasticity().ExportQueryMemory()
	weights := make([]float32, g.NumEdges())
	for i := range weights {
		weights[i] = g.Weight(graph.EdgeIdx(i))
	}
	got.Edges, got.Memory, got.Weights = digest(t, edges), digest(t, memory), digest(t, weights)
	got.NumEdges, got.NumMemory = len(edges), len(memory)
	data, err := json.MarshalIndent(got, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "activate_sequence.golden.json"), data, *updateGolden, "answers or learned state")
}

// digest is the SHA-256 of v's JSON.
func digest(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// TestOfferRunsOnce: work offered beside (offer) runs exactly once, on
// the other goroutine or taken back by wait, and a second wait returns.
func TestOfferRunsOnce(t *testing.T) {
	var n atomic.Int64
	for i := range 2000 {
		b := offer(func() { n.Add(1) })
		if i%2 == 0 {
			runtime.Gosched() // give the other goroutine a chance to take it
		}
		b.wait()
		b.wait()
		if got := n.Load(); got != int64(i+1) {
			t.Fatalf("after %d offers f ran %d times", i+1, got)
		}
	}
}
