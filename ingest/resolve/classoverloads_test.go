package resolve

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// TestOverloadsByArgClasses resolves calls of overloads whose parameters
// differ only by class: the argument's declared type (a parameter, a
// field, a local, var x = new T(), a construction, a cast) keeps the
// overloads whose parameter class it is or extends; a value of a class
// with a base not declared here, or of unknown type, keeps them all.
// javac binds each as want says (benchmarks/deptruth/javadeps.java over
// the fixture) but the last two: it rejects get(out) (Outside is neither
// class: a library's AbstractList extends no class declared here, so no
// overload fits and all stay) and types the lambda's parameter an Option.
func TestOverloadsByArgClasses(t *testing.T) {
	const fixture = "java/ClassOverloads.java"
	want := map[int][]string{
		17: {"get"},                              // param: get(Option)
		18: {"get"},                              // subclass: Special extends Option
		19: {"get"},                              // field
		20: {"get"},                              // this.option
		21: {"get(String)"},                      // a String field
		22: {"get(Group)"},                       // new Group()
		23: {"get(Group)"},                       // (Group) null
		24: {"get(Group)"},                       // a local
		25: {"get"},                              // var v = new Option()
		26: {"get", "get(Group)", "get(String)"}, // Outside: none fits
		27: {"get", "get(Group)", "get(String)"}, // a lambda's parameter hides the field
	}
	if d := cmp.Diff(want, resolveByLine(t, fixture, "ClassOverloads::", "get")); d != "" {
		t.Errorf("get calls (-want +got):\n%s", d)
	}
}

// TestConstructorDelegationByArgClasses resolves this(…) and super(…) by
// their arguments' classes, as javac does: this(s) with s a Special is
// Group(Option); super(g) with g a Group is Group(Group).
func TestConstructorDelegationByArgClasses(t *testing.T) {
	const fixture = "java/ClassOverloads.java"
	want := map[string]bound{
		"Group::Group(Special,int)/1": {Target: "Group::Group(Option)", Status: "resolved"},
		"SubGroup::SubGroup/1":        {Target: "Group::Group(Group)", Status: "resolved"},
	}
	got := resolveCalls(t, fixture, "", "Group")
	delete(got, "ClassOverloads::created/0") // new Group(), not a delegation
	delete(got, "ClassOverloads::local/0")
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("this(…)/super(…) (-want +got):\n%s", d)
	}
}

// TestArgsFitByClass: Java kinds that name classes fit when may says so;
// a class without its name ("o", Kotlin's) fits any; a char value ("C")
// widens to an integral parameter, not to a String or a class.
func TestArgsFitByClass(t *testing.T) {
	may := func(arg, param string) bool { return arg == param || arg == "Special" && param == "Option" }
	for _, c := range []struct {
		params, args string
		want         bool
	}{
		{"o:oOption", "oOption", true},
		{"o:oOption", "oSpecial", true},
		{"o:oOption", "oGroup", false},
		{"o:oOption", "o", true},
		{"o:o", "oGroup", true},
		{"o:oOption", "l", true}, // a lambda, by a SAM conversion
		{"o:oOption", "s", false},
		{"s:s", "oOption", false},
		{"c:c", "C", true},
		{"n:i", "C", true},
		{"s:s", "C", false},
		{"o:oOption", "C", false},
		{"x:_", "C", true},
		{"o:oOption,xs:_*", "oGroup,s", false},
		{"o:oOption,xs:_*", "oSpecial,s,i", true},
	} {
		if got := argsFit(c.params, c.args, may); got != c.want {
			t.Errorf("argsFit(%q, %q) = %v, want %v", c.params, c.args, got, c.want)
		}
	}
}

// TestArgClassNamedLikeNested: take(task), task a TimerTask (a library's
// class, so a Runnable too), binds take(Runnable) alone, as javac does,
// though a nested class of the fixture is named Runnable: only a
// top-level declaration makes a parameter's class surely declared here.
func TestArgClassNamedLikeNested(t *testing.T) {
	got := resolveByLine(t, "java/ClassOverloads.java", "Tasks::", "take")
	if d := cmp.Diff([]string{"take"}, got[56]); d != "" {
		t.Errorf("take(task) (-want +got):\n%s", d)
	}
}

// TestArgKindsOfCallResults: an argument that is a call is of the class
// its callee declares it returns — a method of the calling class, one of
// a typed receiver's class, a static one — as javac binds take(…).
func TestArgKindsOfCallResults(t *testing.T) {
	want := map[int][]string{
		58: {"take(Group)"}, // take(group())
		59: {"take(Group)"}, // take(m.make())
		60: {"take"},        // take(Maker.task()): a Task, a Runnable
	}
	got := resolveByLine(t, "java/ClassOverloads.java", "Tasks::", "take")
	delete(got, 56)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("take calls (-want +got):\n%s", d)
	}
}

// TestMiscountedCallBindsNothing: a Java call whose argument count no
// declaration of its name accepts is another's — xs.get(0) on a List is
// no Builder.get() — and binds nothing; b.get() still binds Builder.get.
func TestMiscountedCallBindsNothing(t *testing.T) {
	src := `package p;

class Builder { Builder get() { return this; } }

class User {
  void list(java.util.List<String> xs) { xs.get(0); }
  void builder(Builder b) { b.get(); }
}
`
	r, err := extract.ExtractFile("p/User.java", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ix := New([]*extract.Result{r}, nil)
	got := map[uint32]string{}
	for _, e := range r.Edges {
		if e.Target == extract.Ref("get") && e.Relation == extract.RelCalls {
			got[e.Line] = ix.Resolve(Source{ID: e.Source, File: r.Path}, "get", e.Relation, e.Hint).Target
		}
	}
	want := map[uint32]string{6: "", 7: "file::p/User.java::Builder::get"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("get calls (-want +got):\n%s", d)
	}
}
