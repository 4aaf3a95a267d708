package edit

import (
	"strings"
	"testing"
)

func TestParamTypes(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, decl, method, ext, want string }{
		{"java generic and qualified", "public C parse(final O o, java.util.Map<String, List<X>> m, String... rest) {", "parse", ".java", "O,Map,String[]"},
		{"java annotated", "void f(@Nullable String s, @Named(\"x\") int n);", "f", ".java", "String,int"},
		{"java none", "  @Override\n  public String get() {", "get", ".java", ""},
		{"java multi-line", "Builder setX(\n      int x,\n      long y) {", "setX", ".java", "int,long"},
		{"kotlin", "fun <T> f(a: Int, b: Map<String, T>, vararg c: String = arrayOf()): Int", "f", ".kt", "Int,Map,String"},
		{"csharp", "public int F(this string s, ref int n, params object[] xs)", "F", ".cs", "string,int,object[]"},
		{"not a declaration of it", "int g(int a);", "f", ".java", "?"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := ParamTypes(c.decl, c.method, c.ext)
			s := strings.Join(got, ",")
			if !ok {
				s = "?"
			}
			if s != c.want {
				t.Errorf("ParamTypes(%q) = %q, want %q", c.decl, s, c.want)
			}
		})
	}
}

func TestSameParams(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		a, b       []string
		aKnown, bK bool
		want       bool
	}{
		{"equal", []string{"String", "int"}, []string{"String", "int"}, true, true, true},
		{"arity", []string{"String"}, []string{"String", "int"}, true, true, false},
		{"type differs", []string{"CharSequence"}, []string{"char"}, true, true, false},
		{"type parameter", []string{"T"}, []string{"Options"}, true, true, true},
		{"unknown fits", nil, []string{"int"}, false, true, true},
	}
	for _, c := range cases {
		if got := SameParams(c.a, c.aKnown, c.b, c.bK); got != c.want {
			t.Errorf("%s: SameParams = %v, want %v", c.name, got, c.want)
		}
	}
}
