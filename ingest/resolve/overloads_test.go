package resolve

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

// TestOverloadsByArgs resolves the calls of the Java overload fixture: the
// argument count picks the overload; where it fits several (or none), the
// call binds all of them.
func TestOverloadsByArgs(t *testing.T) {
	src, err := os.ReadFile("../extract/testdata/java/Overloads.java")
	if err != nil {
		t.Fatal(err)
	}
	r, err := extract.ExtractFile("demo/Overloads.java", src)
	if err != nil {
		t.Fatal(err)
	}
	ix := New([]*extract.Result{r}, nil)
	const c = "file::demo/Overloads.java::Overloads::"
	type bound struct {
		Target string
		Also   []string
		Status string
	}
	got := map[string]bound{}
	for _, e := range r.Edges {
		name, ok := strings.CutPrefix(e.Target, extract.RefPrefix)
		if !ok || name != "add" || e.Relation != extract.RelCalls || e.Hint.Receiver != "" {
			continue
		}
		o := ix.Resolve(Source{ID: e.Source, File: r.Path}, name, e.Relation, e.Hint)
		n, _ := e.Hint.ArgCount()
		key := strings.TrimPrefix(e.Source, c) + "/" + string(rune('0'+n))
		got[key] = bound{strings.TrimPrefix(o.Target, c), trimAll(o.Also, c), o.Status.String()}
	}
	// Two arguments fit add(String,int), add(Type,int) and the varargs
	// add(String,int,String...): types, which the graph does not have,
	// would tell them apart, so all three are bound.
	two := []string{"add(String,int,String...)", "add(Type,int)", "add(demo.other.Type,int)"}
	want := map[string]bound{
		"add/2":             {"add(String,int)", two, "resolved"},
		"add(String,int)/3": {"add(String,int,String...)", nil, "resolved"},
		"add(Type,int)/1":   {"add", nil, "resolved"},
		"addAll/1":          {"add", nil, "resolved"},
		"run/1":             {"add", nil, "resolved"},
		"run/2":             {"add(String,int)", two, "resolved"},
		"run/4":             {"add(String,int,String...)", nil, "resolved"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("overload resolution (-want +got):\n%s", d)
	}
}

func trimAll(ids []string, prefix string) []string {
	var out []string
	for _, id := range ids {
		out = append(out, strings.TrimPrefix(id, prefix))
	}
	return out
}
