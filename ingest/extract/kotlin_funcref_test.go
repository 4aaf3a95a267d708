package extract

import "testing"

// TestKotlinFunctionReferences: a callable reference passes a function
// on, so it uses it: `::f` (a bare name, bound where it is written),
// `Foo::f` (a type's), `this::f` (the class's own), `x::f` (a value's).
// `Foo::class` names a class object, no function. Before, none of them
// was an edge: timber's createStackElementTag, used only through
// `.let(::createStackElementTag)`, had no dependents.
func TestKotlinFunctionReferences(t *testing.T) {
	src := `package p

class Tree {
    val tag: String? get() = element().let(::createTag)

    fun run(x: Other) {
        listOf(1).map(Format::render)
        g(this::helper)
        h(x::pick)
        val k = Tree::class
    }
}
`
	r, err := ExtractFile("p/Tree.kt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, r)
	run := "file::p/Tree.kt::Tree::run"
	for _, tc := range []struct {
		src, dst string
		line     uint32
		h        RefHint
	}{
		{"file::p/Tree.kt::Tree", "createTag", 4, RefHint{}}, // a getter's calls are its class's
		{run, "render", 7, RefHint{Receiver: "Format", ReceiverType: "Format"}},
		{run, "helper", 8, RefHint{Receiver: "this", ReceiverType: "Tree"}},
		{run, "pick", 9, RefHint{Receiver: "x"}},
	} {
		wantEdge(t, r, tc.src, "calls", "ref::"+tc.dst, tc.line, tc.h)
	}
	for _, e := range r.Edges {
		if e.Target == "ref::class" {
			t.Errorf("Tree::class read as a function reference: %+v", e)
		}
	}
}
