package semantic

import (
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// TestCosineVecMatchesLookup: the cosine of a query with every node's
// label, walked in trigram order, is bit for bit what looking each label
// trigram up in the gram table and then in the query gave, for words the
// labels share, words they do not, and repeated trigrams.
func TestCosineVecMatchesLookup(t *testing.T) {
	g := graphtest.PowerLaw(2000, 6000, 5)
	x := BuildNgramIndex(g)
	queries := []string{"handler", "parse config file", "zzqx unknownword", "aaaa bbbb", "node 12", "file_3 func"}
	for i := range 20 {
		queries = append(queries, strings.ToLower(g.Label(graph.NodeID(i*97))))
	}
	var buf []uint32
	for _, text := range queries {
		q, qn := x.queryVector(nil, QueryWords(text))
		for n := range graph.NodeID(g.NumNodes()) {
			got := x.cosineVec(q, qn, n, &buf)
			if want := lookupCosine(x, q, qn, n); got != want {
				t.Fatalf("%q, node %d %q: %v, want %v", text, n, g.Label(n), got, want)
			}
		}
	}
}

// lookupCosine is cosineVec as it was written first: every label trigram
// looked up in the gram table, then searched for in the query.
func lookupCosine(x *NgramIndex, q []qgram, qnorm float32, n graph.NodeID) float32 {
	if qnorm <= 0 || x.norm[n] <= 0 {
		return 0
	}
	buf := AppendTrigrams(nil, x.LowerLabel(n))
	slices.Sort(buf)
	var dot float32
	for j := 0; j < len(buf); {
		k := j
		for k < len(buf) && buf[k] == buf[j] {
			k++
		}
		if id, ok := x.gramID[buf[j]]; ok {
			for _, g := range q {
				if g.id == int32(id) {
					dot += g.w * x.idf[id] * float32(k-j)
					break
				}
			}
		}
		j = k
	}
	return finite.Clamp(dot/(qnorm*x.norm[n]), 0, 1)
}
