package extract

import "testing"

// TestJavaMethodReferences: a method reference passes a method on, so it
// uses it — Type::m, this::m, super::m, a typed local's x::m, a scoped
// type's Map.Entry::getKey, a constructor's Foo::new — and this(…) calls
// another constructor of the class by its arguments. Before, none was an
// edge: javapoet's CodeBlockJoiner::add, ::merge and ::join had no callers.
func TestJavaMethodReferences(t *testing.T) {
	src := `package p;

class Rec extends Base {
  Rec(int a) { this(a, "x"); }
  Rec(int a, String b) { }
  void f(Helper h) {
    list.stream().map(Rec::g).map(this::g).map(h::g).map(ArrayList::new)
        .map(java.util.Map.Entry::getKey).map(super::g);
  }
}
`
	r, err := ExtractFile("p/R.java", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, r)
	f := "file::p/R.java::Rec::f"
	for _, tc := range []struct {
		src, dst string
		line     uint32
		h        RefHint
	}{
		{"file::p/R.java::Rec::Rec", "Rec", 4, RefHint{ReceiverType: "Rec", Args: argsHint(2), ArgKinds: "i,s"}},
		{f, "g", 7, RefHint{ReceiverType: "Rec"}},
		{f, "g", 7, RefHint{Receiver: "h", ReceiverType: "Helper"}},
		{f, "ArrayList", 7, RefHint{ReceiverType: "ArrayList"}},
		{f, "getKey", 8, RefHint{ReceiverType: "Entry"}},
		{f, "g", 8, RefHint{ReceiverType: "Base"}},
	} {
		wantEdge(t, r, tc.src, "calls", "ref::"+tc.dst, tc.line, tc.h)
	}
}
