package code

import (
	"testing"

	"github.com/m1nd-go/m1nd/ingest/extract"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestTestEdgesNeedAReach(t *testing.T) {
	files := []fileFacts{
		{path: "rich/table.py"},
		{path: "examples/table.py"},
		{path: "tests/test_table.py", imports: []string{"rich/table.py", "rich/console.py"}},
		{path: "bench/array.ts"},
		{path: "src/tests/array.test.ts", imports: []string{"src/index.ts"}},
		{path: "pkg/db.go"},
		{path: "pkg/db_test.go"},
		{path: "lib/util.js"},
		{path: "test/util.test.js"}, // imports nothing the graph knows: the name decides
		{path: "source/index.ts"},
		{path: "source/errors.ts"},
		{path: "test/helpers/server.ts", imports: []string{"source/errors.ts"}},
		{path: "test/retry.ts", imports: []string{"source/index.ts", "test/helpers/server.ts"}}, // no name pairs it: it tests what it imports
	}
	got := testEdges(files, nil)
	want := []derivedEdge{
		{"file::pkg/db_test.go", "file::pkg/db.go", RelTests},
		{"file::test/util.test.js", "file::lib/util.js", RelTests},
		{"file::tests/test_table.py", "file::rich/table.py", RelTests},
		{"file::test/retry.ts", "file::source/index.ts", RelTests},
	}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(derivedEdge{}), cmpopts.SortSlices(func(a, b derivedEdge) bool { return a.src < b.src })); d != "" {
		t.Errorf("test edges (-want +got):\n%s", d)
	}
}

func TestDeclareEdges(t *testing.T) {
	files := []fileFacts{
		{path: "attr/__init__.py"}, {path: "attr/__init__.pyi"},
		{path: "attr/lonely.pyi"},
		{path: "lib/index.js"}, {path: "lib/index.d.ts"},
		{path: "lib/esm.mjs"}, {path: "lib/esm.d.mts"},
		{path: "src/types.d.ts"},
	}
	want := []derivedEdge{
		{"file::attr/__init__.pyi", "file::attr/__init__.py", RelDeclares},
		{"file::lib/index.d.ts", "file::lib/index.js", RelDeclares},
		{"file::lib/esm.d.mts", "file::lib/esm.mjs", RelDeclares},
	}
	if d := cmp.Diff(want, declareEdges(files), cmp.AllowUnexported(derivedEdge{})); d != "" {
		t.Errorf("declare edges (-want +got):\n%s", d)
	}
}

func TestPrototypeEdges(t *testing.T) {
	fn := func(file, name string, tags ...string) extract.Node {
		return extract.Node{ID: extract.FileID(file) + "::" + name, Tags: tags}
	}
	c := func(p, lang string, imports []string, nodes ...extract.Node) fileFacts {
		return fileFacts{path: p, lang: lang, imports: imports, res: &extract.Result{Path: p, Language: lang, Nodes: nodes}}
	}
	files := []fileFacts{
		c("cJSON.h", "c", nil, fn("cJSON.h", "cJSON_Parse", "c", "function", "declaration"), fn("cJSON.h", "inline_helper", "c", "function")),
		c("cJSON.c", "c", []string{"cJSON.h"}, fn("cJSON.c", "cJSON_Parse", "c", "function"), fn("cJSON.c", "inline_helper", "c", "function")),
		// Defines the name without including the header: not its definition.
		c("other.c", "c", nil, fn("other.c", "cJSON_Parse", "c", "function")),
		c("foo.hpp", "cpp", nil, fn("foo.hpp", "Foo::bar", "cpp", "method", "declaration")),
		c("foo.cpp", "cpp", []string{"foo.hpp"}, fn("foo.cpp", "Foo::bar", "cpp", "method")),
		{path: "x.py", lang: "python", imports: []string{"cJSON.h"}},
		// unity.c includes unity.h, which includes the header declaring it.
		c("unity_internals.h", "c", nil, fn("unity_internals.h", "UnityBegin", "c", "function", "declaration")),
		c("unity.h", "c", []string{"unity_internals.h"}),
		c("unity.c", "c", []string{"unity.h"}, fn("unity.c", "UnityBegin", "c", "function")),
	}
	want := []derivedEdge{
		{"file::cJSON.c::cJSON_Parse", "file::cJSON.h::cJSON_Parse", extract.RelImplements},
		{"file::foo.cpp::Foo::bar", "file::foo.hpp::Foo::bar", extract.RelImplements},
		{"file::unity.c::UnityBegin", "file::unity_internals.h::UnityBegin", extract.RelImplements},
	}
	if d := cmp.Diff(want, prototypeEdges(files), cmp.AllowUnexported(derivedEdge{})); d != "" {
		t.Errorf("prototype edges (-want +got):\n%s", d)
	}
}
