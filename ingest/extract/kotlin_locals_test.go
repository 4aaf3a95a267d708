package extract

import "testing"

// TestKotlinLocalsTypeReceivers: a call on a parameter, a local or a
// property declared with a type (`val x: Foo`, `Foo?`, `a.b.Foo`,
// `Foo<T>`) or a construction (`val x = Foo()`) carries the type, as Java
// locals do; `bar` on an untyped receiver bound only a method of the
// calling file. A for loop, a lambda's parameter, `it`, a later or an
// inner declaration shadow as Kotlin scopes do; a smart cast (`x is Bar`)
// leaves the receiver untyped.
func TestKotlinLocalsTypeReceivers(t *testing.T) {
	src := `package p

val top = Top()

class Holder(val held: Held, plain: Plain) {
    private val prop: Prop? = null
    var made = p.q.Made(1)

    fun calls(param: Param, list: List<Param>) {
        val a = Foo()
        val b: com.x.Bar = make()
        var c: Gen<Int>? = null
        a.one()
        b?.two()
        c.three()
        param.four()
        prop?.five()
        this.prop.six()
        made.seven()
        held.eight()
        plain.nine()
        top.ten()
        list.eleven()
        helper().twelve()
        for (a in items) { a.thirteen() }
        things.map { b -> b.fourteen() }
        things.map { it.fifteen() }
        things.map { w: Wid -> w.sixteen() }
        try { } catch (e: Oops) { e.seventeen() }
        run {
            val a = Other()
            a.eighteen()
        }
        a.nineteen()
    }

    fun casts(s: Shape) {
        if (s is Circle) s.radius()
    }

    fun lambdas() {
        val t: T? = null
        t.twenty()
        val q = CONST()
        q.x()
    }
}
`
	r, err := ExtractFile("p/Holder.kt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, r)
	c := "file::p/Holder.kt::Holder"
	for _, tc := range []struct {
		dst  string
		line uint32
		h    RefHint
	}{
		{"one", 13, RefHint{Receiver: "a", ReceiverType: "Foo"}},
		{"two", 14, RefHint{Receiver: "b?", ReceiverType: "Bar"}},
		{"three", 15, RefHint{Receiver: "c", ReceiverType: "Gen"}},
		{"four", 16, RefHint{Receiver: "param", ReceiverType: "Param"}},
		{"five", 17, RefHint{Receiver: "prop?", ReceiverType: "Prop"}},
		{"six", 18, RefHint{Receiver: "this.prop", ReceiverType: "Prop"}},
		{"seven", 19, RefHint{Receiver: "made", ReceiverType: "Made"}},
		{"eight", 20, RefHint{Receiver: "held", ReceiverType: "Held"}},
		{"nine", 21, RefHint{Receiver: "plain", ReceiverType: "-"}}, // no val: no property
		{"ten", 22, RefHint{Receiver: "top", ReceiverType: "Top"}},
		{"eleven", 23, RefHint{Receiver: "list", ReceiverType: "List"}},
		{"thirteen", 25, RefHint{Receiver: "a", ReceiverType: "-"}},
		{"fourteen", 26, RefHint{Receiver: "b", ReceiverType: "-"}},
		{"fifteen", 27, RefHint{Receiver: "it", ReceiverType: "-"}},
		{"sixteen", 28, RefHint{Receiver: "w", ReceiverType: "Wid"}},
		{"seventeen", 29, RefHint{Receiver: "e", ReceiverType: "Oops"}},
		{"eighteen", 32, RefHint{Receiver: "a", ReceiverType: "Other"}},
		{"nineteen", 34, RefHint{Receiver: "a", ReceiverType: "Foo"}},
	} {
		wantEdge(t, r, c+"::calls", "calls", "ref::"+tc.dst, tc.line, tc.h)
	}
	wantEdge(t, r, c+"::casts", "calls", "ref::radius", 38, RefHint{Receiver: "s", ReceiverType: "-"})
	wantEdge(t, r, c+"::lambdas", "calls", "ref::twenty", 43, RefHint{Receiver: "t", ReceiverType: "-"})
	wantEdge(t, r, c+"::lambdas", "calls", "ref::x", 45, RefHint{Receiver: "q", ReceiverType: "-"})
}
