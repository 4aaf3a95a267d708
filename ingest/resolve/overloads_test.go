package resolve

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

// bound is where one call of a fixture went, IDs relative to the owner.
type bound struct {
	Target string
	Also   []string
	Status string
}

// TestOverloadsByArgs resolves the calls of the overload fixtures: the
// argument count picks the overload; where it fits several (or none is
// counted), the call binds all of them.
func TestOverloadsByArgs(t *testing.T) {
	// Two arguments fit add(String,int), add(Type,int), the qualified
	// one and the varargs add(String,int,String...); the arguments'
	// kinds (a String parameter, an int literal) leave add(String,int)
	// and the varargs one, and a fixed arity that surely applies wins
	// (TestOverloadsByArgKinds).
	for _, c := range []struct {
		fixture, owner, callee string
		want                   map[string]bound
	}{
		{"java/Overloads.java", "Overloads::", "add", map[string]bound{
			"add/2":             {"add(String,int)", nil, "resolved"},
			"add(String,int)/3": {"add(String,int,String...)", nil, "resolved"},
			"add(Type,int)/1":   {"add", nil, "resolved"},
			// names.add(name): a List's, not one of ours.
			"add(String,int,String...)/1": {"", nil, "unresolved"},
			"addAll/1":                    {"add", nil, "resolved"},
			"run/1":                       {"add", nil, "resolved"},
			"run/2":                       {"add(String,int)", nil, "resolved"},
			"run/4":                       {"add(String,int,String...)", nil, "resolved"},
		}},
		{"csharp/Overloads.cs", "Demo::Printer::", "Print", map[string]bound{
			"Print(string,int)/1":      {"Print", []string{"Print(params object[])"}, "resolved"},
			"Print(params object[])/2": {"Print(params object[])", []string{"Print(string,int)"}, "resolved"},
		}},
		{"cpp/overloads.cpp", "", "area", map[string]bound{
			"main/1": {"area", nil, "resolved"},
			"main/2": {"area(int,int)", nil, "resolved"},
		}},
	} {
		t.Run(c.fixture, func(t *testing.T) {
			if d := cmp.Diff(c.want, resolveCalls(t, c.fixture, c.owner, c.callee)); d != "" {
				t.Errorf("overload resolution (-want +got):\n%s", d)
			}
		})
	}
}

// resolveCalls extracts a fixture of ../extract/testdata and resolves its
// calls of callee, keyed "source/argument count".
func resolveCalls(t *testing.T, fixture, owner, callee string) map[string]bound {
	t.Helper()
	src, err := os.ReadFile("../extract/testdata/" + fixture)
	if err != nil {
		t.Fatal(err)
	}
	r, err := extract.ExtractFile(fixture, src)
	if err != nil {
		t.Fatal(err)
	}
	ix := New([]*extract.Result{r}, nil)
	prefix := extract.FileID(fixture) + "::" + owner
	trim := func(id string) string {
		return strings.TrimPrefix(strings.TrimPrefix(id, prefix), extract.FileID(fixture)+"::")
	}
	got := map[string]bound{}
	for _, e := range r.Edges {
		if e.Target != extract.Ref(callee) || e.Relation != extract.RelCalls {
			continue
		}
		o := ix.Resolve(Source{ID: e.Source, File: r.Path}, callee, e.Relation, e.Hint)
		n, _ := e.Hint.ArgCount()
		b := bound{Target: trim(o.Target), Status: o.Status.String()}
		for _, id := range o.Also {
			b.Also = append(b.Also, trim(id))
		}
		got[fmt.Sprintf("%s/%d", trim(e.Source), n)] = b
	}
	return got
}

// TestOverloadsByArgKinds resolves javapoet's emit calls: the kinds of
// the arguments (a literal, a typed parameter, a construction) drop the
// overloads whose parameters cannot take them, and a fixed-arity overload
// that surely applies wins over the varargs one, as javac picks.
func TestOverloadsByArgKinds(t *testing.T) {
	const fixture = "java/EmitOverloads.java"
	// Lines 18, 19 and 20 (emit(new Block()), emit(name), emit(field))
	// are edges of lines 16 and 15: same source, target and argument
	// kinds.
	want := map[int][]string{
		14: {"emit(String,Object...)"}, // emit("@$T", name), not emit(Block,boolean)
		15: {"emit"},                   // emit("x"): emit(String), no varargs
		16: {"emit(Block)"},            // emit(b)
		17: {"emit(Block,boolean)"},    // emit(b, true)
		21: {"emit(String,Object...)"}, // emit("a" + name, 1, 2)
		22: {"emit(String,Object...)"}, // in a lambda
	}
	if d := cmp.Diff(want, resolveByLine(t, fixture, "EmitOverloads::", "emit")); d != "" {
		t.Errorf("emit calls (-want +got):\n%s", d)
	}
}

// resolveByLine resolves the calls of callee in a fixture, keyed by line:
// the sorted targets (the target and Also), relative to owner.
func resolveByLine(t *testing.T, fixture, owner, callee string) map[int][]string {
	t.Helper()
	src, err := os.ReadFile("../extract/testdata/" + fixture)
	if err != nil {
		t.Fatal(err)
	}
	r, err := extract.ExtractFile(fixture, src)
	if err != nil {
		t.Fatal(err)
	}
	ix := New([]*extract.Result{r}, nil)
	prefix := extract.FileID(fixture) + "::" + owner
	got := map[int][]string{}
	for _, e := range r.Edges {
		if e.Target != extract.Ref(callee) || e.Relation != extract.RelCalls {
			continue
		}
		o := ix.Resolve(Source{ID: e.Source, File: r.Path}, callee, e.Relation, e.Hint)
		var ids []string
		for _, id := range append([]string{o.Target}, o.Also...) {
			if id != "" {
				ids = append(ids, strings.TrimPrefix(id, prefix))
			}
		}
		slices.Sort(ids)
		got[int(e.Line)] = ids
	}
	return got
}
