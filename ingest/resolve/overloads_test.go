package resolve

import (
	"fmt"
	"os"
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
	// one and the varargs add(String,int,String...): types, which the
	// graph does not have, would tell them apart, so all are bound.
	two := []string{"add(String,int,String...)", "add(Type,int)", "add(demo.other.Type,int)"}
	for _, c := range []struct {
		fixture, owner, callee string
		want                   map[string]bound
	}{
		{"java/Overloads.java", "Overloads::", "add", map[string]bound{
			"add/2":             {"add(String,int)", two, "resolved"},
			"add(String,int)/3": {"add(String,int,String...)", nil, "resolved"},
			"add(Type,int)/1":   {"add", nil, "resolved"},
			// names.add(name): a List's, not one of ours.
			"add(String,int,String...)/1": {"", nil, "unresolved"},
			"addAll/1":                    {"add", nil, "resolved"},
			"run/1":                       {"add", nil, "resolved"},
			"run/2":                       {"add(String,int)", two, "resolved"},
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
