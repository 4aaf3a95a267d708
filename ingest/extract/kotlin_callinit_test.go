package extract

import "testing"

// TestKotlinCallInitReceivers: a local or a property initialised by a
// call that is no construction (`val x = make()`), directly or through
// `by lazy { … }`, hands the resolver the call's form ("make()",
// "Foo.create()", "_.build()"), typed there by the callee's declared
// result; before, x.m() had an untyped receiver "x". A lazy construction
// gives its class. A safe call, a constant-like callee or another
// delegate leave the receiver as it was.
func TestKotlinCallInitReceivers(t *testing.T) {
	src := `package p

class Holder {
    private val cached by lazy { Cache() }
    private val made by lazy(LazyThreadSafetyMode.NONE) { build(1) }
    private val other by Delegates.notNull<Foo>()

    fun calls(a: A) {
        val x = make(1)
        val y = Factory.create()
        val z = a.builder().build()
        val w = a?.get()
        val c = CONST()
        x.one()
        y.two()
        z.three()
        w.four()
        c.five()
        cached.six()
        made.seven()
        other.eight()
    }
}
`
	r, err := ExtractFile("p/Holder.kt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, r)
	c := "file::p/Holder.kt::Holder::calls"
	for _, tc := range []struct {
		dst  string
		line uint32
		h    RefHint
	}{
		{"one", 14, RefHint{Receiver: "make()", ReceiverType: "-"}},
		{"two", 15, RefHint{Receiver: "Factory.create()", ReceiverType: "-"}},
		{"three", 16, RefHint{Receiver: "_.build()", ReceiverType: "-"}},
		{"four", 17, RefHint{Receiver: "w", ReceiverType: "-"}},
		{"five", 18, RefHint{Receiver: "c", ReceiverType: "-"}},
		{"six", 19, RefHint{Receiver: "cached", ReceiverType: "Cache"}},
		{"seven", 20, RefHint{Receiver: "build()", ReceiverType: "-"}},
		{"eight", 21, RefHint{Receiver: "other", ReceiverType: "-"}},
	} {
		wantEdge(t, r, c, "calls", "ref::"+tc.dst, tc.line, tc.h)
	}
}

// TestKotlinReturns: a function's declared result type (after its
// parameters: the type before an extension's name is its receiver) or
// the class its expression body constructs is recorded in
// Result.Returns, which the resolver reads to type call receivers; a
// type parameter, a function type and no type record nothing.
func TestKotlinReturns(t *testing.T) {
	src := `package p

fun top(): Top = Top()
fun CodeBlock.ext(a: Int): Bar? = null
fun <T> gen(): T = TODO()
fun made() = Made(1)
fun none() { }
fun fn(): () -> Unit = {}

class K {
    fun get(): a.b.Gen<Int> = TODO()
    fun over(a: Int): One = One()
    fun over(a: String): Two = Two()
}
`
	r, err := ExtractFile("p/K.kt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, r)
	f := "file::p/K.kt::"
	want := map[string]string{
		f + "top": "Top", f + "ext": "Bar", f + "made": "Made",
		f + "K::get": "Gen", f + "K::over": "One", f + "K::over(String)": "Two",
	}
	got := map[string]string{}
	for id, tr := range r.Returns {
		got[id] = tr.Name
	}
	for id, name := range want {
		if got[id] != name {
			t.Errorf("Returns[%s] = %q, want %q (all: %v)", id, got[id], name, got)
		}
	}
	for _, id := range []string{f + "gen", f + "none", f + "fn"} {
		if n, ok := got[id]; ok {
			t.Errorf("Returns[%s] = %q, want none", id, n)
		}
	}
}
