package seek

import (
	"context"
	"maps"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/testcorpus"
)

// namesFixture adds attrs' shape (issue 27) to the corpus: validators.py
// whose code says "validator" a few times, _make.py whose functions are
// named validate/validator and say it everywhere, and typing examples
// full of Validated classes; config_loader.py beside a Config class
// elsewhere.
func namesFixture(t *testing.T, o Options) (*Index, *graph.Graph) {
	t.Helper()
	files := maps.Clone(fixtureFiles)
	ents := maps.Clone(testcorpus.Entities)
	add := func(p, src string, es ...testcorpus.Entity) {
		files[p], ents[p] = src, es
	}
	add("attr/validators.py", `def instance_of(type):
    """A validator that raises if the value is not an instance of type."""
    return _InstanceOf(type)
def in_(options):
    return _In(options)
def optional(v):
    return _Optional(v)
`,
		testcorpus.Entity{Name: "instance_of", Kind: testcorpus.Function, Start: 1, End: 3},
		testcorpus.Entity{Name: "in_", Kind: testcorpus.Function, Start: 4, End: 5},
		testcorpus.Entity{Name: "optional", Kind: testcorpus.Function, Start: 6, End: 7})
	add("attr/_make.py", `def validate(inst):
    """Validate all attributes on inst that have a validator."""
    for a in fields(inst):
        if a.validator is not None:
            a.validator(inst, a, getattr(inst, a.name))
def validator(meth):
    """Decorate a method as the attribute's validator; validators run in order."""
    return meth
def attrib(default=None, validator=None):
    """Define an attribute with its validator and its validators' order."""
    return Attribute(default, validator)
`,
		testcorpus.Entity{Name: "validate", Kind: testcorpus.Function, Start: 1, End: 5},
		testcorpus.Entity{Name: "validator", Kind: testcorpus.Function, Start: 6, End: 8},
		testcorpus.Entity{Name: "attrib", Kind: testcorpus.Function, Start: 9, End: 11})
	add("typing_examples/baseline.py", `class Validated:
    """Validators on every field: validator, validators, validated."""
    num = attrib(validator=validators.instance_of(int))
class ValidatedOptional:
    """More validators: validator after validator."""
    num = attrib(validator=validators.optional(validators.instance_of(int)))
`,
		testcorpus.Entity{Name: "Validated", Kind: testcorpus.Class, Start: 1, End: 3},
		testcorpus.Entity{Name: "ValidatedOptional", Kind: testcorpus.Class, Start: 4, End: 6})
	add("attr/validators.pyi", "def instance_of(type): ...\ndef optional(v): ...\n",
		testcorpus.Entity{Name: "instance_of", Kind: testcorpus.Function, Start: 1, End: 1},
		testcorpus.Entity{Name: "optional", Kind: testcorpus.Function, Start: 2, End: 2})
	add("app/as_loader.py", "def chain(a, b):\n    return a.loader(b.loader)\n",
		testcorpus.Entity{Name: "chain", Kind: testcorpus.Function, Start: 1, End: 2})
	add("app/loader_loader.py", "def chain(a, b):\n    return a.loader(b.loader)\n",
		testcorpus.Entity{Name: "chain", Kind: testcorpus.Function, Start: 1, End: 2})
	add("app/config_loader.py", "def read(path):\n    return parse(open(path).read())\n",
		testcorpus.Entity{Name: "read", Kind: testcorpus.Function, Start: 1, End: 2})
	add("app/settings.py", `class Config:
    """The config: every config value the loader read, and the config loader's defaults."""
    def load_config(self):
        """Load the config with the config loader."""
        return ConfigLoader().load()
`,
		testcorpus.Entity{Name: "Config", Kind: testcorpus.Class, Start: 1, End: 5},
		testcorpus.Entity{Name: "load_config", Kind: testcorpus.Function, Parent: "Config", Start: 3, End: 5})
	g, read := fixtureGraphOf(t, files, ents)
	o.ReadFile = read
	x, err := Build(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	return x, g
}

// TestQueryNamesFile: a query that is a file's name, in any of the
// spellings the index normalises, ranks that file first; without the
// name evidence _make.py, a typing example or settings.py won.
func TestQueryNamesFile(t *testing.T) {
	x, g := namesFixture(t, DefaultOptions())
	off := DefaultOptions()
	off.NameMatch = 0
	xoff, _ := namesFixture(t, off)
	tests := []struct {
		query string
		want  string
		// lost is set where the file was not first without the rule
		// (a query written as code was already found by its symbol).
		lost bool
	}{
		{"validators", "file::attr/validators.py", true},
		{"validator", "file::attr/validators.py", true},
		{"Validators", "file::attr/validators.py", true},
		{"config_loader", "file::app/config_loader.py", false},
		{"ConfigLoader", "file::app/config_loader.py", false},
		{"config loader", "file::app/config_loader.py", true},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			for _, rerank := range []bool{true, false} {
				r := x.SearchText(tt.query, Params{TopK: 5, GraphRerank: rerank})
				if len(r.Hits) == 0 || g.ExternalID(r.Hits[0].Node) != tt.want {
					t.Errorf("rerank %v: top = %v, want %s first", rerank, ids(g, r.Hits), tt.want)
				}
			}
			// The fixture reproduces the bug: without the rule the
			// named file is not first.
			r := xoff.SearchText(tt.query, Params{TopK: 5, GraphRerank: true})
			if first := len(r.Hits) > 0 && g.ExternalID(r.Hits[0].Node) == tt.want; first == tt.lost {
				t.Errorf("without NameMatch %s first: %v, want %v", tt.want, first, !tt.lost)
			}
		})
	}
}

// TestNamedFileOrder: files sharing the name keep the order of their own
// evidence (the stub after the code); a name among other words is a
// share of the query, and a stem with a part the query lacks is not
// named.
func TestNamedFileOrder(t *testing.T) {
	x, g := namesFixture(t, DefaultOptions())
	r := x.SearchText("validators", Params{TopK: 10, GraphRerank: true})
	rank := map[string]int{}
	for i, h := range r.Hits {
		rank[g.ExternalID(h.Node)] = i + 1
	}
	if py, pyi := rank["file::attr/validators.py"], rank["file::attr/validators.pyi"]; py != 1 || pyi == 0 || pyi < py {
		t.Errorf("validators.py at %d, validators.pyi at %d: %v", py, pyi, ids(g, r.Hits))
	}
	got := map[string]float32{}
	for _, f := range namedBy(x, "validators config loader") {
		got[g.ExternalID(f.Node)] = f.Score
	}
	v, c := got["file::attr/validators.py"], got["file::app/config_loader.py"]
	if !(v > 0 && v < 1 && c > 0 && c < 1) || !(v+c > 0.99 && v+c < 1.01) {
		t.Errorf("shares %v: want validators and config_loader sharing the query", got)
	}
	if _, ok := got["file::app/settings.py"]; ok {
		t.Errorf("settings.py named by a query without 'settings': %v", got)
	}
	for _, f := range namedBy(x, "loader") {
		t.Errorf("loader names %s: a stem that repeats a part or drops one is named by its whole only", g.ExternalID(f.Node))
	}
	if fs := namedBy(x, "loader_loader"); len(fs) != 1 || g.ExternalID(fs[0].Node) != "file::app/loader_loader.py" {
		t.Errorf("loader_loader names %v, want loader_loader.py", fs)
	}
	for _, q := range []string{"config", "loader", "make validators"} {
		for _, f := range namedBy(x, q) {
			if id := g.ExternalID(f.Node); id == "file::app/config_loader.py" && q != "make validators" {
				t.Errorf("%q names config_loader.py (share %v): a stem needs all its parts", q, f.Score)
			}
		}
	}
}

// namedBy returns the files query names, with their shares.
func namedBy(x *Index, query string) []graph.Scored {
	q := ParseQuery(query)
	terms := x.weighTerms(q, DefaultMaxTerms)
	return x.namedFiles(terms, x.ownTerms(q, terms))
}

func TestStemTerms(t *testing.T) {
	tests := []struct {
		stem            string
		parts, compacts []string
		dropped         bool
	}{
		{"validators", []string{"validator"}, nil, false},
		{"_make", []string{"mak"}, nil, false},
		{"config_loader", []string{"config", "loader"}, []string{"configloader"}, false},
		{"ConfigLoader", []string{"config", "loader"}, []string{"configloader"}, false},
		{"date-utils", []string{"dat", "util"}, nil, false},
		{"__init__", []string{"init"}, nil, false},
		{"as-promise", []string{"promis"}, nil, true},
		{"function.test", []string{"test"}, nil, true},
		{"unicode4-1-0", []string{"unicod"}, []string{"unicode4"}, true},
	}
	for _, tt := range tests {
		p, c, d := stemTerms(tt.stem)
		if !slices.Equal(p, tt.parts) || !slices.Equal(c, tt.compacts) || d != tt.dropped {
			t.Errorf("stemTerms(%q) = %v, %v, %v; want %v, %v, %v", tt.stem, p, c, d, tt.parts, tt.compacts, tt.dropped)
		}
	}
}

// TestFramesNameNoFile: the words of a stack trace's paths ("auth" of
// backend/auth.py) do not name the file again; the function at the
// innermost frame's line stays first.
func TestFramesNameNoFile(t *testing.T) {
	x, g := buildFixture(t, nil)
	r := x.SearchText(testcorpus.PythonTrace, Params{TopK: 3, GraphRerank: true})
	if want := "file::backend/auth.py::AuthService::validate_credentials"; len(r.Hits) == 0 || g.ExternalID(r.Hits[0].Node) != want {
		t.Errorf("top = %v, want %s first", ids(g, r.Hits), want)
	}
}

// TestStopwordInName: a stem with a stopword part (_null_file.py: "null"
// is a stopword) is named when the query says its words in order; a
// query that says only the other part does not name it.
func TestStopwordInName(t *testing.T) {
	files := maps.Clone(fixtureFiles)
	ents := maps.Clone(testcorpus.Entities)
	files["app/_null_file.py"] = "class NullFile:\n    def write(self, text):\n        return 0\n"
	ents["app/_null_file.py"] = []testcorpus.Entity{{Name: "NullFile", Kind: testcorpus.Class, Start: 1, End: 3}}
	files["app/console.py"] = "def write_file(file, text):\n    \"\"\"Write text to the file, or to a null file when none.\"\"\"\n    file.write(text)\n"
	ents["app/console.py"] = []testcorpus.Entity{{Name: "write_file", Kind: testcorpus.Function, Start: 1, End: 3}}
	g, read := fixtureGraphOf(t, files, ents)
	o := DefaultOptions()
	o.ReadFile = read
	x, err := Build(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	const want = "file::app/_null_file.py"
	for _, q := range []string{"null file", "the null file", "null_file", "NullFile"} {
		fs := namedBy(x, q)
		if len(fs) != 1 || g.ExternalID(fs[0].Node) != want || fs[0].Score < 0.999 {
			t.Errorf("%q names %v, want %s alone with share 1", q, fs, want)
		}
		r := x.SearchText(q, Params{TopK: 5, GraphRerank: true})
		if len(r.Hits) == 0 || g.ExternalID(r.Hits[0].Node) != want {
			t.Errorf("%q: top = %v, want %s first", q, ids(g, r.Hits), want)
		}
	}
	for _, q := range []string{"file", "null write file", "file null"} {
		for _, f := range namedBy(x, q) {
			if g.ExternalID(f.Node) == want {
				t.Errorf("%q names %s: the query does not say its words in order", q, want)
			}
		}
	}
}

func TestNameWords(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"null file", []string{"null", "fil"}},
		{"_null_file", []string{"null", "fil"}},
		{"NullFile", []string{"null", "fil"}},
		{"as-promise", []string{"as", "promis"}},
		{"unicode4-1-0", []string{"unicod", "4", "1", "0"}},
	}
	for _, tt := range tests {
		if got := nameWords(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("nameWords(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// dirsFixture adds packages to the corpus: a Go package with a doc.go, a
// Python package with an __init__.py, a JS folder with an index.js, each
// beside code elsewhere that says the package's name more often than the
// package's own files do.
func dirsFixture(t *testing.T, o Options) (*Index, *graph.Graph) {
	t.Helper()
	files := maps.Clone(fixtureFiles)
	ents := maps.Clone(testcorpus.Entities)
	add := func(p, src string, es ...testcorpus.Entity) {
		files[p], ents[p] = src, es
	}
	fn := func(name string, start, end int) testcorpus.Entity {
		return testcorpus.Entity{Name: name, Kind: testcorpus.Function, Start: start, End: end}
	}
	add("zapcore/doc.go", "// Package zapcore defines the low-level interfaces of the logger.\npackage zapcore\n")
	add("zapcore/core.go", "package zapcore\n\n// Core writes entries.\ntype Core interface{ Write(e Entry) error }\n",
		testcorpus.Entity{Name: "Core", Kind: testcorpus.Class, Start: 4, End: 4})
	add("zapcore/encoder.go", "package zapcore\n\nfunc NewEncoder() Encoder {\n\treturn Encoder{}\n}\n", fn("NewEncoder", 3, 5))
	add("zapcore/core_test.go", "package zapcore\n\nfunc TestCore(t *testing.T) {\n\tzapcore := NewCore()\n\t_ = zapcore\n}\n", fn("TestCore", 3, 6))
	add("logger.go", "package zap\n\n// NewZapcoreLogger wraps a zapcore Core: zapcore encoders, zapcore levels.\nfunc NewZapcoreLogger(core zapcore.Core) *Logger {\n\treturn &Logger{core: zapcore.NewTee(core)}\n}\n",
		fn("NewZapcoreLogger", 4, 6))
	add("sessions/__init__.py", "from .store import SessionStore\n")
	add("sessions/py.typed", "")
	add("sessions/store.py", "class SessionStore:\n    def get(self, key):\n        return self.data[key]\n",
		testcorpus.Entity{Name: "SessionStore", Kind: testcorpus.Class, Start: 1, End: 3})
	add("app/views.py", "def list_sessions(request):\n    \"\"\"All sessions: sessions by user, sessions by age.\"\"\"\n    return sessions.all()\n", fn("list_sessions", 1, 3))
	add("web/middleware/index.js", "export { cors } from './cors.js'\n")
	add("web/middleware/cors.js", "export function cors(req) {\n  return req.headers\n}\n", fn("cors", 1, 3))
	add("web/app.js", "// useMiddleware runs every middleware: middleware order, middleware errors.\nexport function useMiddleware(app, middleware) {\n  app.middleware.push(middleware)\n}\n", fn("useMiddleware", 2, 4))
	g, read := fixtureGraphOf(t, files, ents)
	o.ReadFile = read
	x, err := Build(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	return x, g
}

// TestQueryNamesDirectory: a query that names a directory with a
// directory word ("package", "folder"), or is its name alone, answers
// the directory's entry file first and its other code files next (not
// its tests); without the rule code elsewhere that says the name won.
func TestQueryNamesDirectory(t *testing.T) {
	x, g := dirsFixture(t, DefaultOptions())
	off := DefaultOptions()
	off.NameMatch = 0
	xoff, _ := dirsFixture(t, off)
	tests := []struct {
		query, entry, dir string
		// lost is set where the entry was not first without the rule
		// (doc.go says "Package zapcore" itself).
		lost bool
		// other is set where a file of that name elsewhere may come
		// second: the query did not say "package" or "folder".
		other bool
	}{
		{"the zapcore package", "file::zapcore/doc.go", "zapcore/", false, false},
		{"zapcore", "file::zapcore/doc.go", "zapcore/", true, true},
		{"sessions package", "file::sessions/__init__.py", "sessions/", true, false},
		{"the middleware folder", "file::web/middleware/index.js", "web/middleware/", true, false},
	}
	// The name alone names the package's entry as a file: its other files
	// gain nothing.
	{
		q := ParseQuery("sessions")
		terms := x.weighTerms(q, DefaultMaxTerms)
		o := x.ownTerms(q, terms)
		if ds := x.namedDirs(terms, o); len(ds) != 1 || o.dir {
			t.Errorf("sessions names %v (directory word %v), want sessions/ alone", ds, o.dir)
		}
		lex := func(x *Index) float32 {
			for _, h := range x.SearchText("sessions", Params{TopK: 20, GraphRerank: true}).Hits {
				if g.ExternalID(h.Node) == "file::sessions/store.py" {
					return h.Breakdown.Lexical
				}
			}
			return -1
		}
		if on, off := lex(x), lex(xoff); on != off {
			t.Errorf("sessions: store.py's lexical score %v, %v without NameMatch: want no gain", on, off)
		}
		rp := x.SearchText("sessions package", Params{TopK: 10, GraphRerank: true})
		if len(rp.Hits) < 2 || g.ExternalID(rp.Hits[1].Node) != "file::sessions/store.py" {
			t.Errorf("sessions package: %v, want store.py 2nd", ids(g, rp.Hits))
		}
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r := x.SearchText(tt.query, Params{TopK: 5, GraphRerank: true})
			top := ids(g, r.Hits)
			if len(top) < 2 || top[0] != tt.entry || !tt.other && (!strings.HasPrefix(top[1], "file::"+tt.dir) || strings.Contains(top[1], "_test")) {
				t.Errorf("top = %v, want %s first and a code file of %s second", top, tt.entry, tt.dir)
			}
			r = xoff.SearchText(tt.query, Params{TopK: 5, GraphRerank: true})
			if first := len(r.Hits) > 0 && g.ExternalID(r.Hits[0].Node) == tt.entry; first == tt.lost {
				t.Errorf("without NameMatch %s first: %v, want %v", tt.entry, first, !tt.lost)
			}
		})
	}
	// A directory's name among other words, without a directory word, is
	// about some code there, not the folder: no directory is named.
	for _, q := range []string{"zapcore encoder allocates", "middleware order"} {
		qq := ParseQuery(q)
		terms := x.weighTerms(qq, DefaultMaxTerms)
		if ds := x.namedDirs(terms, x.ownTerms(qq, terms)); len(ds) > 0 {
			t.Errorf("%q names directories %v", q, ds)
		}
	}
}

func TestEntryRank(t *testing.T) {
	tests := []struct {
		base, dir string
		want      int
	}{
		{"__init__.py", "sessions", 0},
		{"doc.go", "zapcore", 1},
		{"zapcore.go", "zapcore", 2},
		{"core.go", "zapcore", len(entryNames)},
		{"index.js", "middleware", 5},
	}
	for _, tt := range tests {
		if got := entryRank(tt.base, tt.dir); got != tt.want {
			t.Errorf("entryRank(%q, %q) = %d, want %d", tt.base, tt.dir, got, tt.want)
		}
	}
}

// TestDirFilesCodeOnly: a directory's files are its code files; a tagged
// marker file (py.typed, which ingest tags) is not one of them, nor a
// test.
func TestDirFilesCodeOnly(t *testing.T) {
	g := graph.New()
	file := func(p string, tags ...string) graph.NodeID {
		return mustAdd(t, g, graph.Node{ExternalID: "file::" + p, Label: path.Base(p), Type: graph.File, Tags: tags,
			Provenance: graph.Provenance{SourcePath: p}})
	}
	entry := file("pkg/__init__.py", "python")
	file("pkg/py.typed", "marker")
	store := file("pkg/store.py", "python")
	file("pkg/test_store.py", "python")
	g.Finalize()
	x, err := Build(context.Background(), g, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	files, got := x.dirFiles("pkg")
	if want := []graph.NodeID{entry, store}; !slices.Equal(files, want) || got != entry {
		t.Errorf("dirFiles(pkg) = %v, %v; want %v, %v", files, got, want, entry)
	}
}

// TestGoPackageDoc: a Go package without doc.go or a file named as the
// package opens with the file that carries its doc comment (go-cmp's
// cmp/compare.go, not options.go, which sorts first and says "cmp" more).
func TestGoPackageDoc(t *testing.T) {
	files := map[string]string{
		"cmp/compare.go": "// Copyright 2017.\n\n// Package cmp determines equality of values.\npackage cmp\n\nfunc Equal(x, y any) bool { return x == y }\n",
		"cmp/options.go": "package cmp\n\n// Option configures cmp: cmp.Ignore, cmp.Transformer, cmp options for cmp.Equal.\ntype Option interface{ filter() }\n",
		"cmp/path.go":    "package cmp\n\n// Path is a cmp path.\ntype Path []PathStep\n",
		"other.go":       "package main\n\n// useCmp calls cmp.Equal with cmp options: cmp cmp cmp.\nfunc useCmp() { cmp.Equal(1, 2) }\n",
	}
	g, read := fixtureGraphOf(t, files, nil)
	o := DefaultOptions()
	o.ReadFile = read
	x, err := Build(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"the cmp package", "cmp folder"} {
		r := x.SearchText(q, Params{TopK: 5, GraphRerank: true})
		if top := ids(g, r.Hits); len(top) == 0 || top[0] != "file::cmp/compare.go" {
			t.Errorf("%q: top = %v, want cmp/compare.go first", q, top)
		}
	}
	for src, want := range map[string]bool{
		"// Package cmp does.\npackage cmp\n":         true,
		"/*\nPackage cmp does.\n*/\npackage cmp\n":    true,
		"package cmp\n\n// Package-level state.\n":    false,
		"// Copyright.\n\npackage cmp // Package cmp": false,
	} {
		if got := hasPackageDoc([]byte(src)); got != want {
			t.Errorf("hasPackageDoc(%q) = %v, want %v", src, got, want)
		}
	}
}

// TestStopwordOnlyName: a file or directory named only by stopwords
// (none.py, is.js, all/) has no term; a query that says its name, alone or
// with kind or file words, still ranks it first, and a query that uses the
// stopword among other words does not name it.
func TestStopwordOnlyName(t *testing.T) {
	files := maps.Clone(fixtureFiles)
	ents := maps.Clone(testcorpus.Entities)
	add := func(p, src string, es ...testcorpus.Entity) {
		files[p], ents[p] = src, es
	}
	add("lib/none.py", "class Sentinel:\n    def __bool__(self):\n        return False\n",
		testcorpus.Entity{Name: "Sentinel", Kind: testcorpus.Class, Start: 1, End: 3})
	add("web/is.js", "export function typeName(value) {\n  return typeof value\n}\n",
		testcorpus.Entity{Name: "typeName", Kind: testcorpus.Function, Start: 1, End: 3})
	add("ops/all/__init__.py", "from .reduce import every\n")
	add("ops/all/reduce.py", "def every(items):\n    return all(items)\n",
		testcorpus.Entity{Name: "every", Kind: testcorpus.Function, Start: 1, End: 2})
	add("app/console.py", "def write_file(file, text):\n    \"\"\"Write text to the file, or to no file when none: a module's file, a package's file.\"\"\"\n    file.write(text)\n",
		testcorpus.Entity{Name: "write_file", Kind: testcorpus.Function, Start: 1, End: 3})
	g, read := fixtureGraphOf(t, files, ents)
	build := func(nameMatch float32) *Index {
		o := DefaultOptions()
		o.ReadFile, o.NameMatch = read, nameMatch
		x, err := Build(context.Background(), g, o)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	x, off := build(DefaultOptions().NameMatch), build(0)
	tests := []struct{ query, want string }{
		{"none file", "file::lib/none.py"},
		{"the none module", "file::lib/none.py"},
		{"none", "file::lib/none.py"},
		{"None", "file::lib/none.py"},
		{"the is module", "file::web/is.js"},
		{"the all package", "file::ops/all/__init__.py"},
	}
	for _, tt := range tests {
		for _, rerank := range []bool{true, false} {
			r := x.SearchText(tt.query, Params{TopK: 5, GraphRerank: rerank})
			if len(r.Hits) == 0 || g.ExternalID(r.Hits[0].Node) != tt.want {
				t.Errorf("%q rerank %v: top = %v, want %s first", tt.query, rerank, ids(g, r.Hits), tt.want)
			}
		}
		r := off.SearchText(tt.query, Params{TopK: 5, GraphRerank: true})
		if len(r.Hits) > 0 && g.ExternalID(r.Hits[0].Node) == tt.want {
			t.Errorf("%q without NameMatch: %s first already, the row proves nothing", tt.query, tt.want)
		}
	}
	for _, q := range []string{"return none when the file is empty", "write none to the console file"} {
		for _, f := range namedBy(x, q) {
			if id := g.ExternalID(f.Node); id == "file::lib/none.py" {
				t.Errorf("%q names %s: the stopword is a word of the query there", q, id)
			}
		}
	}
}

// TestFileStemsAsFound: the stems the index keeps per file (found once at
// its build, in one shared array, in NodeID order) are what nameIDs and
// stopName find for the file's stem on the spot, for every file of the
// fixtures.
func TestFileStemsAsFound(t *testing.T) {
	for _, fx := range []func(*testing.T, Options) (*Index, *graph.Graph){namesFixture, dirsFixture} {
		x, g := fx(t, DefaultOptions())
		files := 0
		for i := range x.n {
			f := graph.NodeID(i)
			if x.fileOf[f] != f {
				continue
			}
			files++
			name := stem(g.Label(f))
			want := x.nameIDsOf(name)
			want.stop, want.file = stopName(name), f
			if d := cmp.Diff(want, *x.stemOf(f), cmp.AllowUnexported(nameIDs{}), cmpopts.EquateEmpty()); d != "" {
				t.Errorf("%s (%q) (-found +kept):\n%s", g.ExternalID(f), name, d)
			}
		}
		if files < 5 || len(x.names.stems) != files {
			t.Errorf("%d stems kept for %d files", len(x.names.stems), files)
		}
	}
}
