package extract

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSigType(t *testing.T) {
	for _, c := range []struct{ in, short, qual string }{
		{"String", "String", "String"},
		{"java.util.List<? extends T>", "List", "java.util.List"},
		{"@Nullable final Map<String, List<Integer>>", "Map", "Map"},
		{"java.lang.reflect.TypeVariable<?>", "TypeVariable", "java.lang.reflect.TypeVariable"},
		{"int[]", "int[]", "int[]"},
		{"a.b.C...", "C...", "a.b.C..."},
		{"const std::string&", "const string&", "const std.string&"},
		{"@Ann(x = \"y\") Foo", "Foo", "Foo"},
	} {
		if got := sigType(c.in); got != c.short {
			t.Errorf("sigType(%q) = %q, want %q", c.in, got, c.short)
		}
		if got := sigTypeQ(c.in, true); got != c.qual {
			t.Errorf("sigTypeQ(%q) = %q, want %q", c.in, got, c.qual)
		}
	}
}

func TestParamType(t *testing.T) {
	for _, c := range []struct {
		in, ty string
		dflt   bool
	}{
		{"const std::string& s", "const std::string&", false},
		{"int", "int", false},
		{"std::string", "std::string", false},
		{"char *p", "char*", false},
		{"int w = 3", "int", true},
		{"params object[] items", "params object[]", false},
		{"s: String", "String", false},
		{"times: Int = 1", "Int", true},
		{"f: (Int) -> Unit", "(Int) -> Unit", false},
	} {
		ty, d := paramType(c.in)
		if ty != c.ty || d != c.dflt {
			t.Errorf("paramType(%q) = %q, %v; want %q, %v", c.in, ty, d, c.ty, c.dflt)
		}
	}
}

func TestArityAccepts(t *testing.T) {
	for _, c := range []struct {
		a    Arity
		n    int
		want bool
	}{
		{Arity{Params: 2}, 2, true},
		{Arity{Params: 2}, 1, false},
		{Arity{Params: 3, Variadic: true}, 2, true},
		{Arity{Params: 3, Variadic: true}, 5, true},
		{Arity{Params: 3, Variadic: true}, 1, false},
		{Arity{Params: 2, Optional: 1}, 1, true},
		{Arity{Params: 2, Optional: 1}, 3, false},
	} {
		if got := c.a.Accepts(c.n); got != c.want {
			t.Errorf("%+v.Accepts(%d) = %v", c.a, c.n, got)
		}
	}
}

// A long signature is cut on a rune boundary: IDs stay valid UTF-8.
func TestJoinSigCutsRunes(t *testing.T) {
	s := joinSig([]string{strings.Repeat("é", 100)})
	if len(s) > maxSig || !utf8.ValidString(s) {
		t.Errorf("joinSig = %d bytes, valid %v", len(s), utf8.ValidString(s))
	}
}
