package plasticity_test

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/plasticity"
)

func exampleGraph() *graph.Graph {
	g := graph.New()
	for _, id := range []string{"auth.py", "session.py", "billing.py"} {
		g.AddNode(graph.Node{ExternalID: "file::" + id, Label: id, Type: graph.File})
	}
	g.AddEdgeByID("file::auth.py", "file::session.py", graph.Edge{Relation: "imports", Weight: 0.5})
	g.AddEdgeByID("file::billing.py", "file::session.py", graph.Edge{Relation: "imports", Weight: 0.5})
	g.Finalize()
	return g
}

// An activation strengthens the edge between two co-activated nodes and
// decays the edge whose source stayed silent; feedback does the same on
// purpose; the learned state exports by external IDs.
func Example() {
	g := exampleGraph()
	e, _ := plasticity.New(plasticity.DefaultParams())
	auth, _ := g.Lookup("file::auth.py")
	session, _ := g.Lookup("file::session.py")
	billing, _ := g.Lookup("file::billing.py")

	st, _ := e.Update(g, plasticity.Query{
		Text:      "auth session",
		Seeds:     []graph.NodeID{auth},
		Activated: []graph.Scored{{Node: auth, Score: 1}, {Node: session, Score: 0.5}},
	})
	ab, _ := g.FindEdgeByName(auth, session, "imports")
	bb, _ := g.FindEdgeByName(billing, session, "imports")
	fmt.Printf("strengthened %d, decayed %d: auth->session %.3f, billing->session %.4f\n",
		st.EdgesStrengthened, st.EdgesDecayed, g.Weight(ab), g.Weight(bb))

	res, _ := e.Learn(g, plasticity.LearnRequest{Feedback: plasticity.Wrong, Nodes: []graph.NodeID{billing}, Strength: 0.2})
	fmt.Printf("%s: %d edge weakened, billing->session %.4f\n", res.LearningType, res.EdgesWeakened, g.Weight(bb))

	for _, s := range e.ExportState(g) {
		fmt.Printf("%s -> %s %s %.4f (original %.1f)\n", s.SourceLabel, s.TargetLabel, s.Relation, s.CurrentWeight, s.OriginalWeight)
	}
	// Output:
	// strengthened 1, decayed 1: auth->session 0.540, billing->session 0.4975
	// hebbian_ltd: 1 edge weakened, billing->session 0.4790
	// file::auth.py -> file::session.py imports 0.5400 (original 0.5)
	// file::billing.py -> file::session.py imports 0.4790 (original 0.5)
}

// Feedback on a query is remembered under its context (its words and
// seeds); Relevance reports it for the same query in full and for a
// similar one (two of its three words) less strongly.
func ExampleEngine_Relevance() {
	g := exampleGraph()
	e, _ := plasticity.New(plasticity.DefaultParams())
	session, _ := g.Lookup("file::session.py")
	billing, _ := g.Lookup("file::billing.py")
	for range 3 {
		e.Learn(g, plasticity.LearnRequest{Query: "session expiry handling", Feedback: plasticity.Wrong, Nodes: []graph.NodeID{billing}, Strength: 1})
		e.Learn(g, plasticity.LearnRequest{Query: "session expiry handling", Feedback: plasticity.Correct, Nodes: []graph.NodeID{session}, Strength: 1})
	}
	for _, q := range []string{"session expiry handling", "Session expiry", "billing export"} {
		fmt.Printf("%q %v:", q, plasticity.ContextWords(q))
		rel, _ := e.Relevance(g, plasticity.Context{Words: plasticity.ContextWords(q)})
		for _, r := range rel {
			fmt.Printf(" %s %+.3f", g.Label(r.Node), r.Score)
		}
		fmt.Println()
	}
	// Output:
	// "session expiry handling" [expiry handling session]: session.py +0.995 billing.py -0.995
	// "Session expiry" [expiry session]: session.py +0.917 billing.py -0.917
	// "billing export" [billing export]:
}

// Feedback memory exports by external IDs, so a session can persist it and
// import it into a new engine (also over a re-ingested graph).
func ExampleEngine_ExportFeedback() {
	g := exampleGraph()
	e, _ := plasticity.New(plasticity.DefaultParams())
	session, _ := g.Lookup("file::session.py")
	e.Learn(g, plasticity.LearnRequest{Query: "session expiry", Feedback: plasticity.Correct, Nodes: []graph.NodeID{session}, Strength: 0.2})

	recs := e.ExportFeedback()
	for _, r := range recs {
		fmt.Printf("%q words=%v seeds=%v nodes=%+v\n", r.Query, r.Words, r.Seeds, r.Nodes)
	}
	restored, _ := plasticity.New(plasticity.DefaultParams())
	if err := restored.ImportFeedback(recs); err != nil {
		panic(err)
	}
	rel, _ := restored.Relevance(g, plasticity.Context{Words: plasticity.ContextWords("session expiry")})
	fmt.Printf("%s %.3f\n", g.Label(rel[0].Node), rel[0].Score)
	// Output:
	// "session expiry" words=[expiry session] seeds=[file::session.py] nodes=[{NodeID:file::session.py Evidence:0.4}]
	// session.py 0.380
}
