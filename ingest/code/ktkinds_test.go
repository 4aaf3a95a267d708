package code

import "testing"

// TestKotlinConstructorsByArgumentKinds: constructors of one arity are
// told apart by what the arguments evidently are — string, number,
// boolean literals, lambdas, named arguments against parameter names, a
// trailing lambda — and all are bound only when nothing tells them apart
// (a variable's type is not known here).
func TestKotlinConstructorsByArgumentKinds(t *testing.T) {
	d := ingestFiles(t, t.TempDir(), map[string]string{
		"src/Color.kt": "package p\n\nclass Color {\n" +
			"    constructor(name: String) {}\n" +
			"    constructor(rgb: Int) {}\n" +
			"    constructor(dark: Boolean) {}\n" +
			"    constructor(alpha: Double) {}\n" +
			"    constructor(pick: (Int) -> Int) {}\n" +
			"}\n",
		"src/Member.kt": "package p\n\nclass Member(pkg: String, enc: Any?, simple: String, ext: Boolean = false) {\n" +
			"    constructor(pkg: String, simple: String, ext: Boolean) : this(pkg, null, simple, ext)\n" +
			"    constructor(enc: Any, simple: String, ext: Boolean) : this(\"\", enc, simple, ext)\n" +
			"    constructor(vararg parts: String) : this(\"\", null, \"\", false)\n" +
			"}\n",
		"src/Use.kt": "package p\n\n" +
			"fun byName() = Color(\"red\")\n" +
			"fun byInt() = Color(0xff)\n" +
			"fun byNeg() = Color(-1)\n" +
			"fun byBool() = Color(true)\n" +
			"fun byReal() = Color(0.5)\n" +
			"fun byLambda() = Color { it + 1 }\n" +
			"fun byNamed() = Color(dark = false)\n" +
			"fun byRef() = Color(::pick)\n" +
			"fun unknown(x: Any) = Color(x)\n" +
			"fun pick(i: Int) = i\n" +
			"fun both() = listOf(Color(\"a\"), Color(1))\n" +
			"fun member() = Member(pkg = \"a\", simple = \"b\", ext = true)\n",
	})
	ctor := map[string]string{}
	for _, n := range d.Nodes {
		if n.Type == "Function" && len(n.ID) > len("file::src/Color.kt::Color::Color") {
			ctor[n.ID] = n.ID
		}
	}
	id := func(sig string) string {
		for k := range ctor {
			if k == "file::src/Color.kt::Color::Color"+sig || (sig == "" && k == "file::src/Color.kt::Color::Color") {
				return k
			}
		}
		return "file::src/Color.kt::Color::Color" + sig
	}
	want := map[string]string{
		"byName": "(String)", "byInt": "(Int)", "byNeg": "(Int)", "byBool": "(Boolean)", "byReal": "(Double)",
		"byLambda": "(- Int)", "byNamed": "(Boolean)", "byRef": "(- Int)",
	}
	for fn, sig := range want {
		var got []string
		for _, e := range d.Edges {
			if e.Source == "file::src/Use.kt::"+fn && e.Relation == "calls" && e.Target != "file::src/Color.kt::Color" && e.Target != "file::src/Use.kt::pick" {
				got = append(got, e.Target)
			}
		}
		if len(got) != 1 || (got[0] != id(sig) && !(sig == "(String)" && got[0] == id(""))) {
			t.Errorf("%s binds %v, want the constructor %s alone", fn, got, sig)
		}
	}
	// Named arguments that leave out a required parameter (enc) rule the
	// primary out; a vararg may take none.
	var member []string
	for _, e := range d.Edges {
		if e.Source == "file::src/Use.kt::member" && e.Relation == "calls" && e.Target != "file::src/Member.kt::Member" {
			member = append(member, e.Target)
		}
	}
	if len(member) != 1 || member[0] != "file::src/Member.kt::Member::Member(String,String,Boolean)" {
		t.Errorf("member binds %v, want Member(String,String,Boolean) alone", member)
	}
	// Two calls of one arity in one function: each keeps its own.
	for _, sig := range []string{"", "(Int)"} {
		if !d.Has("file::src/Use.kt::both", "calls", "file::src/Color.kt::Color::Color"+sig) {
			t.Errorf("both: no edge to the constructor %q", sig)
		}
	}
	n := 0
	for _, e := range d.Edges {
		if e.Source == "file::src/Use.kt::unknown" && e.Relation == "calls" && e.Target != "file::src/Color.kt::Color" {
			n++
		}
	}
	if n != 5 {
		t.Errorf("unknown binds %d constructors, want all 5: nothing tells them apart", n)
	}
}
