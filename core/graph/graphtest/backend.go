package graphtest

import (
	"github.com/m1nd-go/m1nd/core/graph"
)

// Now is the reference clock of the synthetic graphs (2026-01-01T00:00:00Z),
// so temporal scores in tests do not depend on when they run.
const Now = 1767225600.0

const day = 86400.0

// BackendFiles are the labels of the worked example, in NodeID order.
var BackendFiles = []string{"main.py", "auth.py", "session.py", "middleware.py", "user_model.py", "database.py", "routes.py"}

// Backend returns the worked example (docs/design.md#activation-pipeline):
// seven Python files joined by ten "imports" edges of weight 1.0 (causal
// strength 0.6, as ingest assigns to imports), and a map from label to
// NodeID.
//
// session.py carries the tag "auth", which is what makes it a seed of the
// query "authentication" (relevance 0.85) next to auth.py (prefix match,
// 0.9). Timestamps relative to Now make middleware.py the most recently
// modified file (half a day old).
func Backend() (*graph.Graph, map[string]graph.NodeID) {
	g := graph.New()
	ids := map[string]graph.NodeID{}
	type meta struct {
		tags   []string
		ageDay float64
		freq   float32
	}
	m := map[string]meta{
		"main.py":       {nil, 40, 0.2},
		"auth.py":       {[]string{"security"}, 3, 0.7},
		"session.py":    {[]string{"auth", "session"}, 6, 0.5},
		"middleware.py": {[]string{"http"}, 0.5, 0.6},
		"user_model.py": {[]string{"model"}, 20, 0.1},
		"database.py":   {[]string{"storage"}, 60, 0.2},
		"routes.py":     {[]string{"http"}, 10, 0.3},
	}
	for _, l := range BackendFiles {
		mm := m[l]
		id, err := g.AddNode(graph.Node{
			ExternalID: "file::" + l, Label: l, Type: graph.File, Tags: mm.tags,
			LastModified: Now - mm.ageDay*day, ChangeFrequency: mm.freq,
			Provenance: graph.Provenance{SourcePath: "backend/" + l, LineStart: 1, LineEnd: 100, Canonical: true},
		})
		if err != nil {
			panic(err)
		}
		ids[l] = id
	}
	for _, e := range [][2]string{
		{"main.py", "auth.py"}, {"main.py", "routes.py"},
		{"routes.py", "auth.py"}, {"routes.py", "middleware.py"},
		{"auth.py", "session.py"}, {"auth.py", "user_model.py"}, {"auth.py", "database.py"},
		{"session.py", "database.py"}, {"middleware.py", "session.py"}, {"user_model.py", "database.py"},
	} {
		if err := g.AddEdge(graph.Edge{Source: ids[e[0]], Target: ids[e[1]], Relation: "imports", Weight: 1, CausalStrength: 0.6}); err != nil {
			panic(err)
		}
	}
	g.Finalize()
	return g, ids
}
