package extract

import "testing"

// TestKotlinDefaultsArity: a function's and a secondary constructor's
// parameter defaults sit beside the parameter in the grammar (a class
// parameter holds its own), and the arity counted none of them: an
// overloaded `copy(nullable: Boolean = …, tags: Map = …)` refused
// `copy(nullable = true)`. A vararg takes any number, none too; a
// required parameter after defaults still counts; an override's
// parameters take the defaults of the function it overrides.
func TestKotlinDefaultsArity(t *testing.T) {
	src := `package p

class T(val a: Int = 1) {
    constructor(s: String, n: Int = 0) : this(n)
    fun copy(nullable: Boolean = false, size: Int = 0): T = this
    fun copy(nullable: Boolean = false, size: Int = 0, tags: Map<String, Any> = emptyMap()): T = this
    fun join(sep: String = ",", transform: (T) -> String) = ""
    fun join(sep: String = ",", vararg xs: Any?) = ""
}

class U : T() {
    override fun copy(nullable: Boolean, size: Int): U = this
    fun copy(s: String): U = this
}
`
	r, err := ExtractFile("p/T.kt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, r)
	for id, want := range map[string]Arity{
		"file::p/T.kt::T::T":                     {Params: 1, Optional: 1, Kinds: "a:i?"},
		"file::p/T.kt::T::T(String,Int)":         {Params: 2, Optional: 1, Kinds: "s:s,n:i?"},
		"file::p/T.kt::T::copy":                  {Params: 2, Optional: 2, Kinds: "nullable:b?,size:i?"},
		"file::p/T.kt::T::copy(Boolean,Int,Map)": {Params: 3, Optional: 3, Kinds: "nullable:b?,size:i?,tags:o?"},
		"file::p/T.kt::T::join":                  {Params: 2, Optional: 1, Kinds: "sep:s?,transform:l"},
		"file::p/T.kt::T::join(String,Any?)":     {Params: 2, Optional: 2, Variadic: true, Kinds: "sep:s?,xs:_*"},
		// An override takes the overridden function's defaults.
		"file::p/T.kt::U::copy":         {Params: 2, Optional: 2, Kinds: "nullable:b?,size:i?"},
		"file::p/T.kt::U::copy(String)": {Params: 1, Kinds: "s:s"},
	} {
		if got, ok := r.Arity[id]; !ok || got != want {
			t.Errorf("%s: arity %+v, want %+v", id, got, want)
		}
	}
	if a := r.Arity["file::p/T.kt::T::copy"]; !a.Accepts(1) || !a.Accepts(0) {
		t.Errorf("copy(nullable = true) refused: %+v", a)
	}
	if a := r.Arity["file::p/T.kt::T::join(String,Any?)"]; !a.Accepts(0) {
		t.Errorf("join() refused: %+v", a) // a vararg may take nothing
	}
}
