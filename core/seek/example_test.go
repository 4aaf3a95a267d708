package seek_test

import (
	"context"
	"fmt"
	"strings"

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
	// validate_credentials 0.81 [credential validat user auth]
	// charge_card 0.05 []
	// validate_credentials: stack trace evidence 1.75 from /srv/app/backend/auth.py line 14
}

// Learned relevance (engine.Engine.Feedback for the query) re-ranks the
// graph part of a search: a rejected hit falls, a confirmed one rises.
func ExampleParams_feedback() {
	g := graph.New()
	a, _ := g.AddNode(graph.Node{ExternalID: "file::auth/token.py", Label: "token.py", Type: graph.File, Provenance: graph.Provenance{SourcePath: "auth/token.py"}})
	b, _ := g.AddNode(graph.Node{ExternalID: "file::auth/token_cache.py", Label: "token_cache.py", Type: graph.File, Provenance: graph.Provenance{SourcePath: "auth/token_cache.py"}})
	g.Finalize()
	x, err := seek.Build(context.Background(), g, seek.DefaultOptions())
	if err != nil {
		panic(err)
	}
	for _, fb := range [][]graph.Scored{nil, {{Node: a, Score: -0.9}, {Node: b, Score: 0.9}}} {
		var line []string
		for _, h := range x.SearchText("token", seek.Params{TopK: 2, GraphRerank: true, Feedback: fb}).Hits {
			line = append(line, fmt.Sprintf("%s %.2f", g.Label(h.Node), h.Score))
		}
		fmt.Println(strings.Join(line, ", "))
	}
	// ("token" names token.py: it leads by its name, names.go.)
	// Output:
	// token.py 0.96, token_cache.py 0.78
	// token_cache.py 0.98, token.py 0.10
}

// After an incremental ingest, the next index takes the body documents of
// the files whose stamp did not change from the last one instead of
// reading them again.
func ExampleBuildFrom() {
	files := map[string]string{"a.py": "def parse_config():\n    return 1\n", "b.py": "def send_mail():\n    return 2\n"}
	stamps := map[string]string{"a.py": "v1", "b.py": "v1"}
	graphOf := func() *graph.Graph {
		g := graph.New()
		for _, p := range []string{"a.py", "b.py"} {
			g.AddNode(graph.Node{ExternalID: "file::" + p, Label: p, Type: graph.File,
				Provenance: graph.Provenance{SourcePath: p, LineStart: 1, LineEnd: uint32(strings.Count(files[p], "\n"))}})
		}
		g.Finalize()
		return g
	}
	o := seek.DefaultOptions()
	o.ReadFile = func(p string) ([]byte, error) { return []byte(files[p]), nil }
	o.FileStamp = func(p string) (string, bool) { return stamps[p], true }

	first, _ := seek.BuildFrom(context.Background(), graphOf(), o, nil)
	files["b.py"] = "def send_mail(to):\n    return to\n"
	stamps["b.py"] = "v2"
	next, _ := seek.BuildFrom(context.Background(), graphOf(), o, first.Bodies())
	st := next.Stats()
	fmt.Printf("read %d files, %d of them from the last index\n", st.FilesRead, st.FilesReused)
	// Output:
	// read 2 files, 1 of them from the last index
}
