package extract

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJavaArgKindsByDeclaredTypes: an argument's kind names its class when
// a declaration says it — a field (this.f too), a parameter of an
// anonymous class's method, var x = new T(), a cast, (parenthesised)
// values, this, T.class, an array declarator, a char ("C", which widens
// to int), a varargs parameter's array (not the field it hides) — and a
// call's result is left for the resolver to type ("^name", "^T.name"),
// but toString() and String.valueOf(…) are Strings. A lambda's parameter
// hides a field of its name.
func TestJavaArgKindsByDeclaredTypes(t *testing.T) {
	src := `package p;

class Host {
  private Option opt;
  private int[] counts;
  private String names[];

  void fields() { use(opt); use(this.opt); use(counts); use(names); }
  void values(Object o, char ch) { use((Group) o); use((opt)); use(this); use(Host.class); use('x'); use(ch); }
  void locals() { var g = new Group(); use(g); int xs[] = {}; use(xs); }
  void calls(Helper h) { use(make()); use(this.make()); use(h.build()); use(Helper.of()); use(list().get(0)); use(h.toString()); use(String.valueOf(1)); }
  void lambda(java.util.List<Option> all) { all.forEach(opt -> use(opt)); }
  void varargs(String... opt) { use(opt); }
  void anon() {
    new Runnable() { public void run(Group opt) { use(opt); } };
  }
}
`
	r, err := ExtractFile("p/Host.java", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, r)
	got := map[string][]string{}
	for _, e := range r.Edges {
		if e.Target == Ref("use") && e.Relation == RelCalls {
			m := e.Source[strings.LastIndex(e.Source, "::")+2:]
			got[m] = append(got[m], e.Hint.ArgKinds)
		}
	}
	want := map[string][]string{
		"fields":  {"oOption", "a"},
		"values":  {"oGroup", "oOption", "oHost", "oClass", "C"},
		"locals":  {"oGroup", "a"},
		"calls":   {"^make", "^Helper.build", "^Helper.of", "_", "s"},
		"lambda":  {"_"},
		"varargs": {"a"},
		"anon":    {"oGroup"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ArgKinds of use(…) by method (-want +got):\n%s", d)
	}
}
