package seek

import (
	"context"
	"maps"
	"testing"

	"github.com/m1nd-go/m1nd/core/testcorpus"
)

// TestFileNamedWithExtension: a query that names a file by its base name
// with the extension ("on.py", "the static.py file") finds it first, as
// the name without the extension does; before, such a query went the
// path route only, where the extension's word ("py") matched every file
// that says it and the name counted for nothing.
func TestFileNamedWithExtension(t *testing.T) {
	x, _ := namesFixture(t, DefaultOptions())
	files := maps.Clone(fixtureFiles)
	ents := maps.Clone(testcorpus.Entities)
	add := func(p, src string, es ...testcorpus.Entity) {
		files[p], ents[p] = src, es
	}
	add("lib/none.py", "class Sentinel:\n    def __bool__(self):\n        return False\n",
		testcorpus.Entity{Name: "Sentinel", Kind: testcorpus.Class, Start: 1, End: 3})
	add("web/is.js", "export function typeName(value) {\n  return typeof value\n}\n",
		testcorpus.Entity{Name: "typeName", Kind: testcorpus.Function, Start: 1, End: 3})
	add("tools/py_files.py", "def iter_py_files(root):\n    \"\"\"Every .py file: py, pyi, the py files of root.\"\"\"\n    return glob(root, '*.py')\n",
		testcorpus.Entity{Name: "iter_py_files", Kind: testcorpus.Function, Start: 1, End: 3})
	add("web/types.js", "// js types: what js says of a value\nexport function jsType(value) {\n  return typeof value\n}\n",
		testcorpus.Entity{Name: "jsType", Kind: testcorpus.Function, Start: 2, End: 4})
	sg, read := fixtureGraphOf(t, files, ents)
	o := DefaultOptions()
	o.ReadFile = read
	sx, err := Build(context.Background(), sg, o)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query, want string
		stop        bool // the stopword fixture
	}{
		{"validators.py", "file::attr/validators.py", false},
		{"the validators.py module", "file::attr/validators.py", false},
		{"config_loader.py", "file::app/config_loader.py", false},
		{"none.py", "file::lib/none.py", true},
		{"the none.py file", "file::lib/none.py", true},
		{"is.js", "file::web/is.js", true},
	}
	for _, tt := range tests {
		ix := x
		if tt.stop {
			ix = sx
		}
		for _, rerank := range []bool{true, false} {
			r := ix.SearchText(tt.query, Params{TopK: 5, GraphRerank: rerank})
			if len(r.Hits) == 0 || ix.Graph().ExternalID(r.Hits[0].Node) != tt.want {
				t.Errorf("%q rerank %v: top = %v, want %s first", tt.query, rerank, ids(ix.Graph(), r.Hits), tt.want)
			}
		}
	}
	// A path or a line says which file and where: the name rule stays out.
	for _, fs := range [][]Frame{
		{{Path: "attr/validators.py", Lang: "path"}},
		{{Path: "validators.py", Line: 3, Lang: "path"}},
		{{Path: "validators.py", Lang: "python"}},
		{{Path: "on.py", Lang: "path"}, {Path: "app.py", Line: 2, Lang: "python"}},
	} {
		if mentionsOnly(fs) {
			t.Errorf("mentionsOnly(%v) = true, want false", fs)
		}
	}
}

// TestWithoutExts: the extension of every file mention goes, the rest of
// the text stays.
func TestWithoutExts(t *testing.T) {
	tests := []struct{ in, want string }{
		{"on.py", "on"},
		{"the static.py file", "the static file"},
		{"fix app/auth.py:42 and web/index.ts", "fix app/auth:42 and web/index"},
		{"os.path.join and e.g. this", "os.path.join and e.g. this"},
		{"no mention", "no mention"},
	}
	for _, tt := range tests {
		if got := withoutExts(tt.in); got != tt.want {
			t.Errorf("withoutExts(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
