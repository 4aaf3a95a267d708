package patterns

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// synthTwins builds a seeded corpus of n bodies: variants of a few
// templates (renamed, a statement dropped or repeated, literals changed),
// some exact copies, some nested in another's span, with random
// dependencies. It exercises classes, buckets, thinned buckets and the
// pair bound the way a real tree does, and is the same on every machine.
func synthTwins(t testing.TB, n int) (*graph.Graph, []Unit) {
	r := rand.New(rand.NewPCG(29, 2026))
	stmts := []string{
		"x := f(a, b)", "if err != nil { return err }", "for i := range xs { s += xs[i] }",
		"m[k] = append(m[k], v)", `log.Printf("%d", n)`, "y = y*31 + 7", "defer mu.Unlock()",
		"switch c { case 1: z++ default: z-- }", "ch <- struct{}{}", "return nil",
		"buf.WriteString(s)", "if !ok { continue }", "go run(ctx)", "v, ok := m[k]",
	}
	var templates [][]string
	for range 40 {
		var body []string
		for range 6 + r.IntN(14) {
			body = append(body, stmts[r.IntN(len(stmts))])
		}
		templates = append(templates, body)
	}
	g := graph.New()
	var deps []graph.NodeID
	for i := range 30 {
		id, _ := g.AddNode(graph.Node{ExternalID: fmt.Sprintf("dep%d", i), Label: "dep", Type: graph.Function})
		deps = append(deps, id)
	}
	var units []Unit
	type edge struct{ a, b graph.NodeID }
	var edges []edge
	for i := range n {
		tpl := templates[r.IntN(len(templates))]
		body := append([]string(nil), tpl...)
		switch r.IntN(5) {
		case 1:
			k := r.IntN(len(body))
			body = append(body[:k], body[k+1:]...)
		case 2:
			body = append(body, body[r.IntN(len(body))])
		case 3:
			for k := range body {
				body[k] = strings.ReplaceAll(body[k], "31", "17")
			}
		}
		src := fmt.Sprintf("func f%d() {\n%s\n}", i, strings.Join(body, "\n"))
		file, line := fmt.Sprintf("p%d/f%d.go", i%37, i/3), uint32(1)
		if i%3 == 1 && r.IntN(4) == 0 { // nested in the previous unit's span
			line = 2
		}
		id, _ := g.AddNode(graph.Node{ExternalID: fmt.Sprintf("file::%s::f%d", file, i), Label: fmt.Sprintf("f%d", i), Type: graph.Function,
			Provenance: graph.Provenance{SourcePath: file, LineStart: line, LineEnd: line + uint32(len(body)+1)}})
		for range r.IntN(4) {
			edges = append(edges, edge{id, deps[r.IntN(len(deps))]})
		}
		units = append(units, Unit{Node: id, Shape: ShapeOf([]byte(src))})
	}
	for _, e := range edges {
		g.AddEdge(graph.Edge{Source: e.a, Target: e.b, Relation: "calls", Weight: 1})
	}
	g.Finalize()
	r.Shuffle(len(units), func(i, j int) { units[i], units[j] = units[j], units[i] })
	return g, units
}

// twinsDigest hashes Twins' whole answer for a set of parameters.
func twinsDigest(g *graph.Graph, x *TwinIndex) string {
	h := sha256.New()
	odd := func(id graph.NodeID) bool { return id%2 == 1 }
	few := func(id graph.NodeID) bool { return id%50 == 0 }
	for _, p := range []TwinParams{
		{}, {Threshold: 0.3}, {Threshold: 0.5, Keep: odd}, {Threshold: 0.5, Focus: few},
		{Threshold: 0.4, MaxBucket: 3}, {Threshold: 0.4, MaxPairs: 500}, {Threshold: 0.6, TopK: 25},
	} {
		res := Twins(g, x, p)
		fmt.Fprintf(h, "%d %d %d %v\n", res.Total, res.Candidates, res.Units, res.Truncated)
		for _, tw := range res.Twins {
			fmt.Fprintf(h, "%+v %s\n", tw, tw.Reason())
		}
	}
	fmt.Fprintf(h, "%d %d\n", x.Units(), x.Short())
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestTwinsDigest: on a seeded corpus, the index's answers to seven sets
// of parameters hash to what the index built before issue 29's rework of
// its build answered (recorded from 2d14543): a cheaper build must not
// change an answer by a byte.
func TestTwinsDigest(t *testing.T) {
	g, units := synthTwins(t, 3000)
	res := Twins(g, NewTwinIndex(units, 0), TwinParams{Threshold: 0.4})
	if res.Total < 1000 || !res.Truncated {
		t.Fatalf("the corpus should make many pairs and thin a bucket: total %d, truncated %v", res.Total, res.Truncated)
	}
	const want = "1119f71924bd5c5b53939094ea806c476676153e31e628662cfc93bfabf1238b"
	if got := twinsDigest(g, NewTwinIndex(units, 0)); got != want {
		t.Errorf("answers' digest %s, want %s", got, want)
	}
}

// TestShapeDigest: ShapeOf's sketches of the seeded corpus, hashed, are
// what they were before issue 29 (recorded from 2d14543).
func TestShapeDigest(t *testing.T) {
	_, units := synthTwins(t, 3000)
	h := sha256.New()
	for _, u := range units {
		fmt.Fprintf(h, "%d %v\n", u.Node, u.Shape)
	}
	const want = "52138efcbf0552a4bd518b02e607d748372fa7c3158fa9f84d3cb22315b7a87f"
	if got := fmt.Sprintf("%x", h.Sum(nil)); got != want {
		t.Errorf("shapes' digest %s, want %s", got, want)
	}
}

// TestShapeDigestTokenSoup: ShapeOf over seeded random token soup —
// comments of three kinds, strings with escapes and unterminated ones,
// raw strings across lines, numbers, selector chains, keywords,
// non-ASCII identifiers — hashed, is what it was before issue 29's
// rework (recorded from aff2121, whose ShapeOf is 2d14543's).
func TestShapeDigestTokenSoup(t *testing.T) {
	vocab := []string{
		"if", "for", "return", "self", "len", "x", "_y1", "a.b", "a.b.c", "obj.", ".", "(", ")", "{", "}", "[", "]",
		"+", "-", "*", "/", "=", ":=", ",", ";", "\n", "\t", " ", "  ", "0", "42", "0x1f", "1.5e3", "3.14",
		`"s"`, `"e\"s"`, `'c'`, `'\n'`, "`raw\nline`", `"unterminated`, "// line comment\n", "# hash comment\n",
		"/* block\n comment */", "/* open", "é", "naïve", "日本", "$", "$v", "def", "func", "class", "None", "nil",
	}
	r := rand.New(rand.NewPCG(2911, 30))
	h := sha256.New()
	for range 2000 {
		var b strings.Builder
		for range r.IntN(120) {
			b.WriteString(vocab[r.IntN(len(vocab))])
			if r.IntN(3) == 0 {
				b.WriteByte(' ')
			}
		}
		fmt.Fprintf(h, "%v\n", ShapeOf([]byte(b.String())))
	}
	const want = "7deb62ed7c2589ccc5f6437bf550b8bfbca7eb9e1167e65dc8d6ff92433ecb34"
	if got := fmt.Sprintf("%x", h.Sum(nil)); got != want {
		t.Errorf("shapes' digest %s, want %s", got, want)
	}
}
