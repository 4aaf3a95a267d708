// Package graphtest builds deterministic synthetic graphs for tests and
// benchmarks of the engine.
package graphtest

import (
	"fmt"
	"math/rand/v2"

	"github.com/m1nd-go/m1nd/core/graph"
)

var words = []string{
	"auth", "session", "user", "token", "config", "logger", "database", "cache",
	"handler", "router", "payment", "invoice", "order", "client", "server", "parser",
	"render", "schema", "model", "view", "queue", "worker", "metrics", "storage",
	"validate", "encode", "decode", "stream", "index", "search", "report", "email",
}

// PowerLaw returns a finalized graph of exactly nodes nodes and about edges
// distinct edges whose in-degrees follow a Zipf law (a few hubs, a long
// tail), as code graphs do. Nodes are files (1 in 8) containing functions
// and classes; relations are contains (bidirectional), calls, imports and
// references. The same arguments always give the same graph.
func PowerLaw(nodes, edges int, seed uint64) *graph.Graph {
	g := graph.NewWithCapacity(nodes, edges)
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	now := 1.7e9
	file := graph.NodeID(0)
	for i := 0; i < nodes; i++ {
		w1, w2 := words[r.IntN(len(words))], words[r.IntN(len(words))]
		n := graph.Node{ChangeFrequency: float32(r.Float64()), LastModified: now - r.Float64()*90*86400}
		switch {
		case i%8 == 0:
			n.Type = graph.File
			n.Label = fmt.Sprintf("%s_%s_%d.py", w1, w2, i)
			n.ExternalID = "file::src/" + n.Label
			n.Tags = []string{"python", w1}
			n.Provenance = graph.Provenance{SourcePath: "src/" + n.Label, LineStart: 1, LineEnd: 400, Namespace: "code"}
		case i%5 == 0:
			n.Type = graph.Class
			n.Label = fmt.Sprintf("%s%sService%d", title(w1), title(w2), i)
		default:
			n.Type = graph.Function
			n.Label = fmt.Sprintf("%s_%s_%d", w1, w2, i)
		}
		if n.Type != graph.File {
			n.ExternalID = fmt.Sprintf("file::src/f%d.py::%s", file, n.Label)
			n.Tags = []string{w1}
			n.Provenance = graph.Provenance{SourcePath: fmt.Sprintf("src/f%d.py", file), LineStart: uint32(i % 400), LineEnd: uint32(i%400 + 20), Namespace: "code"}
		}
		id, err := g.AddNode(n)
		if err != nil {
			panic(err)
		}
		if n.Type == graph.File {
			file = id
		} else if edges > 0 {
			mustEdge(g, graph.Edge{Source: file, Target: id, Relation: "contains", Weight: 1, Direction: graph.Bidirectional, CausalStrength: 0.8})
		}
	}
	// Contains edges used (nodes - files) of the budget; the rest follow Zipf.
	contains := nodes - (nodes+7)/8
	rest := edges - contains
	if rest > 0 && nodes > 1 {
		z := rand.NewZipf(r, 1.3, 4, uint64(nodes-1))
		// Hubs are spread over the ID space rather than being the first IDs.
		perm := r.Perm(nodes)
		rels := []struct {
			name   string
			causal float32
		}{{"calls", 0.5}, {"calls", 0.5}, {"imports", 0.6}, {"references", 0.3}}
		for k := 0; k < rest; k++ {
			src := graph.NodeID(r.IntN(nodes))
			dst := graph.NodeID(perm[z.Uint64()])
			if src == dst {
				dst = graph.NodeID((int(dst) + 1) % nodes)
			}
			rel := rels[r.IntN(len(rels))]
			mustEdge(g, graph.Edge{Source: src, Target: dst, Relation: rel.name, Weight: 0.5 + float32(r.Float64())/2, CausalStrength: rel.causal})
		}
	}
	g.Finalize()
	return g
}

func mustEdge(g *graph.Graph, e graph.Edge) {
	if err := g.AddEdge(e); err != nil {
		panic(err)
	}
}

func title(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
