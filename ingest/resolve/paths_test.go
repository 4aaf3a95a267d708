package resolve

import (
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// pathSources: node, methodTree and the containers holding them are
// declared in tree.go; every caller in calls.go reaches node.getValue
// through a local or an expression whose type only tree.go tells.
var pathSources = map[string]string{
	"tree.go": `package p

type node struct{ path string }

func (n *node) getValue(p string) string { return n.path }

type methodTree struct {
	method string
	root   *node
}

type methodTrees []methodTree

type Engine struct {
	trees  methodTrees
	byName map[string]*node
	pool   []*node
	inner  Inner
}

type Inner struct{ n *node }

type Outer struct {
	Inner
}

func newNode() *node { return &node{} }

func pair() (string, *node) { return "", nil }

var defaultNode = newNode()

var typedNode *node

func (e *Engine) Root() *node { return e.trees[0].root }
`,
	"calls.go": `package p

func (e *Engine) indexField() {
	t := e.trees
	for i := range t {
		root := t[i].root
		root.getValue("x")
	}
}

func (e *Engine) rangeValue() {
	for _, tr := range e.trees {
		tr.root.getValue("")
	}
}

func (e *Engine) mapIndex() {
	n := e.byName["a"]
	n.getValue("")
}

func (e *Engine) sliceRange() {
	for _, n := range e.pool {
		n.getValue("")
	}
}

func composite() {
	n := node{}
	n.getValue("")
}

func pointer() {
	n := &node{}
	n.getValue("")
}

func constructor() {
	n := newNode()
	n.getValue("")
}

func varDecl() {
	var n *node
	n.getValue("")
}

func param(ts methodTrees) {
	ts[0].root.getValue("")
}

func methodResult(e *Engine) {
	r := e.Root()
	r.getValue("")
}

func nestedField(e Engine) {
	in := e.inner
	in.n.getValue("")
}

func promotedField(o *Outer) {
	o.n.getValue("")
}

func closure() {
	f := func(e *Engine) { e.trees[0].root.getValue("") }
	_ = f
}

func assertion(v any) {
	v.(*node).getValue("")
}

func secondResult() {
	_, n := pair()
	n.getValue("")
}

func packageVar() {
	defaultNode.getValue("")
}

func typedPackageVar() {
	typedNode.getValue("")
}

func chain(e *Engine) {
	e.Root().getValue("")
	newNode().getValue("")
}

func unknown(x interface{ getValue(string) string }) {
	x.getValue("")
}
`,
}

// TestGoReceiverPaths checks that a call through a local or an expression
// whose type another file of the package declares binds to the method.
func TestGoReceiverPaths(t *testing.T) {
	var results []*extract.Result
	for _, p := range []string{"calls.go", "tree.go"} {
		r, err := extract.ExtractFile(p, []byte(pathSources[p]))
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, r)
	}
	ix := New(results, nil)
	got := map[string]string{} // caller → what its getValue call binds to
	for _, e := range results[0].Edges {
		if e.Relation != extract.RelCalls || e.Target != extract.Ref("getValue") {
			continue
		}
		caller := e.Source[strings.LastIndex(e.Source, "::")+2:]
		res := ix.Resolve(Source{ID: e.Source, File: "calls.go"}, "getValue", e.Relation, e.Hint)
		got[caller] = res.Target
	}
	const want = "file::tree.go::node::getValue"
	callers := []string{"indexField", "rangeValue", "mapIndex", "sliceRange", "composite", "pointer",
		"constructor", "varDecl", "param", "methodResult", "nestedField", "promotedField", "closure", "assertion", "secondResult",
		"packageVar", "typedPackageVar", "chain"}
	for _, c := range callers {
		if got[c] != want {
			t.Errorf("%s: getValue bound to %q, want %q", c, got[c], want)
		}
	}
	if tgt, ok := got["unknown"]; !ok || tgt != "" {
		t.Errorf("unknown: a receiver of an unnamed interface type bound to %q (present %v), want nothing", tgt, ok)
	}
	if len(got) != len(callers)+1 {
		keys := make([]string, 0, len(got))
		for k := range got {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		t.Errorf("callers seen: %v", keys)
	}
}
