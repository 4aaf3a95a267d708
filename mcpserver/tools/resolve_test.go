package tools

import (
	"errors"
	"path"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
)

// nameGraph is a small flask- and gin-like layout: the same module name
// in production code, a sansio copy, tests and examples; the same symbol
// as a class, a manifest's package and a documentation section.
func nameGraph(t *testing.T) *graph.Graph {
	t.Helper()
	g := graph.New()
	add := func(id string, typ graph.NodeType, tags ...string) {
		label, src := id, ""
		switch {
		case strings.HasPrefix(id, "dir::"):
			src = strings.TrimPrefix(id, "dir::")
			label = path.Base(src)
		case strings.HasPrefix(id, "file::"):
			rest := strings.Split(strings.TrimPrefix(id, "file::"), "::")
			src, label = rest[0], rest[len(rest)-1]
			if len(rest) == 1 {
				label = path.Base(src)
			}
		case strings.HasPrefix(id, "package::"):
			label = id[strings.LastIndex(id, "::")+2:]
		}
		if _, err := g.AddNode(graph.Node{ExternalID: id, Label: label, Type: typ, Tags: tags, Provenance: graph.Provenance{SourcePath: src}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"src/flask", "src/flask/sansio", "src/flask/json", "tests", "render"} {
		add("dir::"+d, graph.Directory)
	}
	for _, f := range []string{"src/flask/app.py", "src/flask/sansio/app.py", "src/flask/sessions.py", "src/flask/helpers.py",
		"src/flask/json/__init__.py", "src/flask/sansio/scaffold.py", "src/flask/views.py", "src/flask/cli.py",
		"tests/conftest.py", "tests/test_apps/app.py", "examples/tutorial/app.py", "docs/api.rst", "render/render.go", "render/json.go",
		"cJSON.h", "cJSON.c", "src/attr/validators.py", "src/attr/validators.pyi", "include/yaml/emitter.h", "src/emitter.cpp"} {
		add("file::"+f, graph.File)
	}
	add("file::src/flask/app.py::Flask", graph.Class, "python", "class")
	add("file::src/flask/app.py::Flask::url_for", graph.Function, "python", "method")
	add("file::src/flask/sansio/app.py::App", graph.Class, "python", "class")
	add("file::src/flask/sessions.py::SessionInterface", graph.Class, "python", "class")
	add("file::src/flask/helpers.py::url_for", graph.Function, "python", "function")
	add("file::src/flask/sansio/scaffold.py::Scaffold", graph.Class, "python", "class")
	add("file::src/flask/sansio/scaffold.py::Scaffold::route", graph.Function, "python", "method")
	add("file::src/flask/views.py::View", graph.Class, "python", "class")
	add("file::src/flask/views.py::View::dispatch", graph.Function, "python", "method")
	add("file::src/flask/cli.py::Group", graph.Class, "python", "class")
	add("file::src/flask/cli.py::Group::dispatch", graph.Function, "python", "method")
	add("file::src/flask/cli.py::app", graph.Reference, "python", "variable")
	add("file::tests/conftest.py::app", graph.Function, "python", "function")
	add("file::docs/api.rst::Flask", graph.Module, "section")
	add("package::pypi::Flask", graph.Module)
	add("package::pypi::Werkzeug", graph.Module)
	add("file::render/render.go::Render", graph.Type, "go", "interface")
	add("file::render/json.go::JSON", graph.Struct, "go", "struct")
	add("file::render/json.go::JSON::Render", graph.Function, "go", "method")
	add("file::cJSON.h::cJSON_Parse", graph.Function, "c", "function")
	add("file::cJSON.c::cJSON_Parse", graph.Function, "c", "function")
	add("file::cJSON.h::cJSON_Version", graph.Function, "c", "function")
	add("file::src/attr/validators.pyi::in_", graph.Function, "python", "function")
	add("file::src/attr/validators.py::in_", graph.Function, "python", "function")
	add("file::include/yaml/emitter.h::YAML", graph.Module, "cpp", "module")
	add("file::include/yaml/emitter.h::YAML::Emitter", graph.Class, "cpp", "class")
	add("file::include/yaml/emitter.h::YAML::Emitter::good", graph.Function, "cpp", "method", "declaration")
	add("file::src/emitter.cpp::YAML", graph.Module, "cpp", "module")
	add("file::src/emitter.cpp::YAML::Emitter::Emitter", graph.Function, "cpp", "method")
	add("file::src/emitter.cpp::YAML::Emitter::Emitter(ostream&)", graph.Function, "cpp", "method")
	edge := func(a, b, rel string) {
		if err := g.AddEdgeByID(a, b, graph.Edge{Relation: rel, Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range g.NumNodes() {
		id := g.ExternalID(graph.NodeID(i))
		if j := strings.LastIndex(id, "::"); j > 0 && !strings.HasPrefix(id, "dir::") && !strings.HasPrefix(id, "package::") && strings.Count(id, "::") > 1 {
			if _, ok := g.Lookup(id[:j]); ok { // an out-of-line C++ member has no owner in its file
				edge(id[:j], id, "contains")
			}
		}
	}
	edge("file::src/flask/app.py", "file::src/flask/sessions.py", "imports")
	edge("file::src/flask/app.py", "file::src/flask/sansio/app.py", "imports")
	edge("file::src/flask/cli.py", "file::src/flask/app.py", "imports")
	edge("file::src/flask/views.py", "file::src/flask/app.py", "imports")
	g.Finalize()
	return g
}

func TestResolveIn(t *testing.T) {
	g := nameGraph(t)
	tests := []struct {
		ref, want string
		alts      []string
	}{
		{"file::src/flask/app.py", "file::src/flask/app.py", nil},
		{"src/flask/app.py", "file::src/flask/app.py", nil},
		{"flask/app.py", "file::src/flask/app.py", nil},
		// A module name: production first, then the shallower path.
		{"app", "file::src/flask/app.py", []string{"file::src/flask/sansio/app.py", "file::src/flask/cli.py::app", "file::tests/test_apps/app.py"}},
		{"app.py", "file::src/flask/app.py", []string{"file::src/flask/sansio/app.py", "file::tests/test_apps/app.py", "file::examples/tutorial/app.py"}},
		{"sessions", "file::src/flask/sessions.py", nil},
		{"json", "dir::src/flask/json", []string{"file::render/json.go"}},
		// Another case only when nothing has the exact one.
		{"flask", "dir::src/flask", nil},
		{"FLASK", "dir::src/flask", []string{"file::src/flask/app.py::Flask", "package::pypi::Flask", "file::docs/api.rst::Flask"}},
		// A symbol: the class before the manifest's package and the docs.
		{"Flask", "file::src/flask/app.py::Flask", []string{"package::pypi::Flask", "file::docs/api.rst::Flask"}},
		{"Werkzeug", "package::pypi::Werkzeug", nil},
		{"SessionInterface", "file::src/flask/sessions.py::SessionInterface", nil},
		{"session interface", "file::src/flask/sessions.py::SessionInterface", nil},
		{"url_for", "file::src/flask/helpers.py::url_for", []string{"file::src/flask/app.py::Flask::url_for"}},
		{"Scaffold.route", "file::src/flask/sansio/scaffold.py::Scaffold::route", nil},
		// Go: the package directory, the interface before the methods.
		{"render", "dir::render", []string{"file::render/render.go"}},
		{"Render", "file::render/render.go::Render", []string{"file::render/json.go::JSON::Render"}},
		// The definition before its declaration: a C prototype, a stub.
		{"cJSON_Parse", "file::cJSON.c::cJSON_Parse", []string{"file::cJSON.h::cJSON_Parse"}},
		{"in_", "file::src/attr/validators.py::in_", []string{"file::src/attr/validators.pyi::in_"}},
		// A C++ class in its namespace, its out-of-line constructors apart.
		{"Emitter", "file::include/yaml/emitter.h::YAML::Emitter", nil},
		// A header's function nothing defines is the declaration there is.
		{"cJSON_Version", "file::cJSON.h::cJSON_Version", nil},
	}
	for _, tc := range tests {
		t.Run(tc.ref, func(t *testing.T) {
			r, err := ResolveIn(g, tc.ref, "node_id")
			if err != nil {
				t.Fatal(err)
			}
			var alts []string
			for _, a := range r.Alternatives {
				alts = append(alts, g.ExternalID(a))
			}
			if diff := cmp.Diff([]any{tc.want, tc.alts}, []any{g.ExternalID(r.ID), alts}); diff != "" {
				t.Errorf("ResolveIn(%q) (-want +got):\n%s", tc.ref, diff)
			}
		})
	}
}

// TestResolveInComparable: two methods of the same name in files alike
// are a real ambiguity, and the error lists both, changing nothing.
func TestResolveInComparable(t *testing.T) {
	g := nameGraph(t)
	_, err := ResolveIn(g, "dispatch", "claim subject")
	var te *Error
	if !errors.As(err, &te) {
		t.Fatalf("want a teaching error, got %v", err)
	}
	want := []string{"file::src/flask/views.py::View::dispatch", "file::src/flask/cli.py::Group::dispatch"}
	if diff := cmp.Diff(want, te.Extra["candidates"]); diff != "" {
		t.Errorf("candidates (-want +got):\n%s", diff)
	}
	if !strings.Contains(te.Message, `"dispatch" matches 2 nodes`) || te.SuggestedNextStep == "" {
		t.Errorf("error %+v does not teach", te)
	}
	if _, err := ResolveIn(g, "nowhere", "node_id"); err == nil || !strings.Contains(err.Error(), "not a node") {
		t.Errorf("unknown name: %v", err)
	}
}

func TestResolvedNames(t *testing.T) {
	g := nameGraph(t)
	var rs []Resolution
	for _, ref := range []string{"app", "SessionInterface", "sessions", "file::src/flask/views.py", "Scaffold.route", "flask/app.py", "session interface"} {
		r, err := ResolveIn(g, ref, "node_id")
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	want := []ResolvedName{
		{Name: "app", NodeID: "file::src/flask/app.py", Alternatives: []string{"file::src/flask/sansio/app.py", "file::src/flask/cli.py::app", "file::tests/test_apps/app.py"}},
		{Name: "session interface", NodeID: "file::src/flask/sessions.py::SessionInterface"},
	}
	if diff := cmp.Diff(want, ResolvedNames(g, rs...)); diff != "" {
		t.Errorf("ResolvedNames (-want +got):\n%s", diff)
	}
}

// TestNotFoundNamesTheFileAtAnotherPath: a path whose directory is
// guessed wrong (kotlinpoet's src/commonMain/… for src/jvmMain/…) is not
// a node, and the error names the files of that name, the one sharing
// the most trailing directories first, as the next call's argument.
func TestNotFoundNamesTheFileAtAnotherPath(t *testing.T) {
	g := nameGraph(t)
	_, err := ResolveIn(g, "lib/flask/sansio/app.py", "node_id")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want a teaching error", err)
	}
	want := []string{"file::src/flask/sansio/app.py", "file::examples/tutorial/app.py", "file::src/flask/app.py", "file::tests/test_apps/app.py"}
	if diff := cmp.Diff(want, e.Extra["similar_nodes"]); diff != "" {
		t.Errorf("similar_nodes (-want +got):\n%s", diff)
	}
	if !strings.Contains(e.SuggestedNextStep, `"file::src/flask/sansio/app.py"`) {
		t.Errorf("next step %q does not name the file", e.SuggestedNextStep)
	}
}
