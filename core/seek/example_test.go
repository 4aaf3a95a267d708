package seek_test

import (
	"context"
	"fmt"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/seek"
)

// Find a function by what it does, then from a stack trace.
func Example() {
	g := graph.New()
	file, _ := g.AddNode(graph.Node{ExternalID: "file::backend/auth.py", Label: "auth.py", Type: graph.File,
		Provenance: graph.Provenance{SourcePath: "backend/auth.py", LineStart: 1, LineEnd: 30}})
	fn, _ := g.AddNode(graph.Node{ExternalID: "file::backend/auth.py::validate_credentials", Label: "validate_credentials", Type: graph.Function,
		Provenance: graph.Provenance{SourcePath: "backend/auth.py", LineStart: 12, LineEnd: 20, Excerpt: "def validate_credentials(user, password):"}})
	other, _ := g.AddNode(graph.Node{ExternalID: "file::backend/billing.py::charge_card", Label: "charge_card", Type: graph.Function,
		Provenance: graph.Provenance{SourcePath: "backend/billing.py", LineStart: 3, LineEnd: 9}})
	g.AddEdge(graph.Edge{Source: file, Target: fn, Relation: "contains", Weight: 1})
	g.AddEdge(graph.Edge{Source: other, Target: fn, Relation: "calls", Weight: 0.5})
	g.Finalize()

	// Options.ReadFile would add source bodies; labels, paths and
	// excerpts are enough here.
	x, err := seek.Build(context.Background(), g, seek.DefaultOptions())
	if err != nil {
		panic(err)
	}
	p := seek.Params{TopK: 2, GraphRerank: true, Types: []graph.NodeType{graph.Function}}
	for _, h := range x.SearchText("code that validates user credentials", p).Hits {
		fmt.Printf("%s %.2f %v\n", g.Label(h.Node), h.Score, h.Matched)
	}

	trace := `Traceback (most recent call last):
  File "/srv/app/backend/auth.py", line 14, in validate_credentials
KeyError: 'password'`
	r := x.SearchText(trace, seek.Params{TopK: 1})
	h := r.Hits[0]
	fmt.Printf("%s: stack trace evidence %.2f from %s line %d\n", g.Label(h.Node), h.Breakdown.StackTrace, h.Frame.Path, h.Frame.Line)
	// Output:
	// validate_credentials 0.79 [credential validat user auth]
	// charge_card 0.05 []
	// validate_credentials: stack trace evidence 1.75 from /srv/app/backend/auth.py line 14
}
