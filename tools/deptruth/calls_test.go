package deptruth

import (
	"context"
	"os/exec"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var callsFixture = map[string]string{
	"go.mod": "module example.com/fix\n\ngo 1.22\n",
	"tree.go": `
package fix

type node struct{ path string }

func (n *node) get() string { return n.path }

type tree struct{ root *node }

type trees []tree

type Getter interface{ get() string }

func newNode() *node { return &node{} }
`,
	"use.go": `
package fix

// Walk calls get through an index expression, a range variable, a
// constructor, an interface and a closure; f() is a call of a value.
func Walk(ts trees, g Getter, f func()) {
	root := ts[0].root
	root.get()
	for _, t := range ts {
		t.root.get()
	}
	newNode().get()
	g.get()
	func() { helper() }()
	f()
}

func helper() {}
`,
}

func TestGoCallTruthAndM1nd(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not in PATH")
	}
	root, tracked := writeTree(t, callsFixture)
	ctx := context.Background()
	truth, err := GoCallTruth(ctx, root, tracked, Options{GOOS: []string{"linux"}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[[2]string]bool{
		{"use.go::Walk", "tree.go::node::get"}:   true,
		{"use.go::Walk", "tree.go::newNode"}:     true,
		{"use.go::Walk", "tree.go::Getter::get"}: true,
		{"use.go::Walk", "use.go::helper"}:       true,
	}
	if d := cmp.Diff(want, truth.Calls); d != "" {
		t.Errorf("truth calls (-want +got):\n%s", d)
	}
	m, err := M1ndCalls(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	s := ScoreCalls(truth, m, 10)
	if s.TruthEdges != 4 || s.Unmapped != 0 {
		t.Errorf("scored %d truth edges, %d unmapped; want 4, 0", s.TruthEdges, s.Unmapped)
	}
	// The interface call is the one m1nd may bind otherwise; the calls
	// through locals must all be found.
	for _, e := range [][2]string{{"use.go::Walk", "tree.go::node::get"}, {"use.go::Walk", "tree.go::newNode"}, {"use.go::Walk", "use.go::helper"}} {
		if !m.Calls[e] {
			t.Errorf("m1nd lacks %s → %s; misses %v", e[0], e[1], s.MissSample)
		}
	}
}

func TestScoreCalls(t *testing.T) {
	truth := &CallGraph{
		Funcs: map[string]bool{"a::f": true, "a::g": true, "b::h": true},
		Calls: map[[2]string]bool{{"a::f", "a::g"}: true, {"a::f", "b::h"}: true, {"a::g", "c::x"}: true},
	}
	m := &CallGraph{
		Funcs: map[string]bool{"a::f": true, "a::g": true, "b::h": true, "d::y": true},
		Calls: map[[2]string]bool{{"a::f", "a::g"}: true, {"a::g", "b::h"}: true, {"a::f", "d::y"}: true},
	}
	got := ScoreCalls(truth, m, 5)
	want := CallScore{
		TruthEdges: 2, Unmapped: 1, M1ndEdges: 2, Found: 1, Recall: 0.5, Precision: 0.5,
		MissSample: []string{"a::f → b::h"}, ExtraSample: []string{"a::g → b::h"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ScoreCalls (-want +got):\n%s", d)
	}
}
