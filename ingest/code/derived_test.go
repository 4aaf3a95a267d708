package code

import (
	"testing"

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
	}
	got := testEdges(files)
	want := []derivedEdge{
		{"file::pkg/db_test.go", "file::pkg/db.go", RelTests},
		{"file::test/util.test.js", "file::lib/util.js", RelTests},
		{"file::tests/test_table.py", "file::rich/table.py", RelTests},
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
