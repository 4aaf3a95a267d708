package patterns

import (
	"fmt"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// bodies of the twins tests: a and b are one function renamed, c is a
// and one extra statement, d is another function, tiny is too short.
var bodies = map[string]string{
	"a": `def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            k, v = line.split("=", 1)
            rows.append((k.strip(), v.strip()))
    return rows`,
	"b": `def read_pairs(fname):
    out = []
    with open(fname) as fh:
        for ln in fh:
            ln = ln.strip()
            if not ln or ln.startswith(";"):
                continue
            key, val = ln.split(":", 1)
            out.append((key.strip(), val.strip()))
    return out`,
	"c": `def load_all(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            k, v = line.split("=", 1)
            rows.append((k.strip(), v.strip()))
    log.info("loaded %d", len(rows))
    return rows`,
	"d": `def serve(port):
    sock = socket.socket()
    sock.bind(("", port))
    sock.listen(5)
    while True:
        conn, addr = sock.accept()
        try:
            handle(conn)
        except Exception as e:
            print(e)
        finally:
            conn.close()`,
	"tiny": `def get(self): return self.x`,
}

// twinGraph builds one file per body, each with one function; a, b and d
// call helper, so a and b share their neighbourhood.
func twinGraph(t testing.TB) (*graph.Graph, *TwinIndex) {
	g := graph.New()
	helper, _ := g.AddNode(graph.Node{ExternalID: "file::h.py::helper", Label: "helper", Type: graph.Function})
	var units []Unit
	for _, name := range []string{"a", "b", "c", "d", "tiny"} {
		src := bodies[name]
		id, err := g.AddNode(graph.Node{ExternalID: "file::" + name + ".py::" + name, Label: name, Type: graph.Function,
			Provenance: graph.Provenance{SourcePath: name + ".py", LineStart: 1, LineEnd: uint32(strings.Count(src, "\n") + 1)}})
		if err != nil {
			t.Fatal(err)
		}
		if name != "c" && name != "tiny" {
			g.AddEdge(graph.Edge{Source: id, Target: helper, Relation: "calls", Weight: 1})
		}
		units = append(units, Unit{Node: id, Shape: ShapeOf([]byte(src))})
	}
	g.Finalize()
	return g, NewTwinIndex(units, 0)
}

func TestTwins(t *testing.T) {
	g, x := twinGraph(t)
	if x.Units() != 4 || x.Short() != 1 {
		t.Fatalf("indexed %d units, %d short; want 4 and 1", x.Units(), x.Short())
	}
	label := func(tw Twin) string { return g.Label(tw.A) + "-" + g.Label(tw.B) }
	for _, tc := range []struct {
		name      string
		threshold float64
		keep      func(graph.NodeID) bool
		want      []string
	}{
		{"renamed copy only", 0.95, nil, []string{"a-b"}},
		// a and b are one class: a stands for it in pairs with c.
		{"with the extended copy", 0.6, nil, []string{"a-b", "a-c"}},
		{"scope leaves a out", 0.6, func(id graph.NodeID) bool { return g.Label(id) != "a" }, []string{"b-c"}},
		{"scope leaves b out", 0.6, func(id graph.NodeID) bool { return g.Label(id) != "b" }, []string{"a-c"}},
	} {
		res := Twins(g, x, TwinParams{Threshold: tc.threshold, Keep: tc.keep})
		var got []string
		for _, tw := range res.Twins {
			got = append(got, label(tw))
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) || res.Total != len(tc.want) {
			t.Errorf("%s: twins %v (total %d), want %v", tc.name, got, res.Total, tc.want)
		}
	}
	for _, tc := range []struct {
		name  string
		focus string
		want  []string
	}{
		// b stands for its class when in focus.
		{"twins of b", "b", []string{"a-b", "b-c"}},
		{"twins of c", "c", []string{"a-c"}},
		{"twins of d", "d", nil},
	} {
		res := Twins(g, x, TwinParams{Threshold: 0.6, Focus: func(id graph.NodeID) bool { return g.Label(id) == tc.focus }})
		var got []string
		for _, tw := range res.Twins {
			got = append(got, label(tw))
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: twins %v, want %v", tc.name, got, tc.want)
		}
	}
	res := Twins(g, x, TwinParams{Threshold: 0.95})
	if tw := res.Twins[0]; !tw.Exact || tw.Similarity != 1 || tw.Shared != 1 || tw.Neighbourhood != 1 {
		t.Errorf("a-b: %+v, want an exact body and the same neighbourhood", tw)
	}
}

// Two functions equal up to renaming are twins; a different one is not.
func ExampleTwins() {
	g := graph.New()
	src := map[string]string{
		"sum":   "func sum(xs []int) int { t := 0; for _, x := range xs { if x > 0 { t += x } }; return t }",
		"total": "func total(vs []int) int { acc := 0; for _, v := range vs { if v > 0 { acc += v } }; return acc }",
		"serve": "func serve(l net.Listener) { for { c, err := l.Accept(); if err != nil { return }; go handle(c) } }",
	}
	var units []Unit
	for _, name := range []string{"serve", "sum", "total"} {
		id, _ := g.AddNode(graph.Node{ExternalID: "file::" + name + ".go::" + name, Label: name, Type: graph.Function,
			Provenance: graph.Provenance{SourcePath: name + ".go", LineStart: 1, LineEnd: 1}})
		units = append(units, Unit{Node: id, Shape: ShapeOf([]byte(src[name]))})
	}
	g.Finalize()
	res := Twins(g, NewTwinIndex(units, 10), TwinParams{Threshold: 0.8})
	for _, tw := range res.Twins {
		fmt.Println(g.Label(tw.A), g.Label(tw.B), tw.Similarity, tw.Reason())
	}
	// Output: sum total 1 same body up to renaming
}

// TestTwinIndexKeepsNoSpare: the index holds its units in a slice of
// exactly their number (grown by append it held a quarter or more
// unused), and no sketch Twins cannot read: those of classes in no
// bucket (issue 29).
func TestTwinIndexKeepsNoSpare(t *testing.T) {
	if st := NewTwinIndex(nil, 0).Stats(); st.Units+st.Classes+st.Buckets+st.Bucketed != 0 {
		t.Errorf("an empty index's stats: %+v", st)
	}
	long := ShapeOf([]byte(bodies["a"]))
	short := ShapeOf([]byte(bodies["tiny"]))
	for _, n := range []int{1, 5, 100, 1000} {
		units := make([]Unit, 0, 2*n)
		for i := range n {
			units = append(units, Unit{Node: graph.NodeID(2 * i), Shape: long}, Unit{Node: graph.NodeID(2*i + 1), Shape: short})
		}
		x := NewTwinIndex(units, 0)
		if x.Units() != n || x.Short() != n {
			t.Fatalf("n=%d: indexed %d, %d short; want %d and %d", n, x.Units(), x.Short(), n, n)
		}
		if cap(x.units) != len(x.units) {
			t.Errorf("n=%d: the index holds %d units in a slice of capacity %d", n, len(x.units), cap(x.units))
		}
		// One class in no bucket: Twins never reads its sketches.
		if len(x.sketches) != 0 {
			t.Errorf("n=%d: %d sketch blocks kept for a class in no bucket", n, len(x.sketches))
		}
		if st := x.Stats(); st.Units != n || st.Classes != 1 || st.Bucketed != 0 || st.Bytes >= n*SketchSize*4 {
			t.Errorf("n=%d: stats %+v: one class of n units, no bucket, less than their sketches' bytes", n, st)
		}
	}
}
