package extract

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestFor(t *testing.T) {
	for path, want := range map[string]string{
		"a/b.py": "python", "A/B.PY": "python", "stubs/x.pyi": "python", "main.go": "go",
		"web/app.tsx": "typescript", "types.d.ts": "typescript", "x.mts": "typescript",
		"lib/a.mjs": "javascript", "a.cjs": "javascript", "c.jsx": "javascript",
		"src/lib.rs": "rust", "Foo.java": "java", "x.c": "c", "x.h": "c", "x.hpp": "cpp",
		"a.cs": "csharp", "Rakefile": "ruby", "x.rb": "ruby", "i.php": "php", "run.sh": "bash",
		".bashrc": "bash", "A.scala": "scala", "A.kt": "kotlin", "x.lua": "lua", "Q.hs": "haskell",
		"s.ml": "ocaml", "s.mli": "ocaml", "x.jl": "julia", "x.zig": "zig", "s.css": "css",
		"ci.yml": "yaml", "c.yaml": "yaml", "Cargo.toml": "toml", "package.json": "json",
		"index.html": "html", "a.R": "r", "Makefile": "make", "rules.mk": "make",
		"README.md": "generic", "notes": "generic", "Dockerfile": "generic", "x.swift": "generic",
	} {
		if got := For(path).Language(); got != want {
			t.Errorf("For(%q) = %s, want %s", path, got, want)
		}
	}
}

func TestLanguages(t *testing.T) {
	langs := Languages()
	if !slices.IsSorted(langs) {
		t.Errorf("not sorted: %v", langs)
	}
	for _, l := range []string{"python", "go", "javascript", "typescript", "rust", "java", "c", "cpp",
		"csharp", "ruby", "php", "bash", "scala", "kotlin", "lua", "haskell", "ocaml", "julia", "zig",
		"css", "yaml", "toml", "json", "html", "r", "make"} {
		if !slices.Contains(langs, l) {
			t.Errorf("Languages() lacks %s: %v", l, langs)
		}
	}
	if slices.Contains(langs, "generic") {
		t.Errorf("generic listed: %v", langs)
	}
	if n := len(slices.Compact(slices.Clone(langs))); n != len(langs) {
		t.Errorf("duplicates in %v", langs)
	}
}

type panicky struct{}

func (panicky) Language() string     { return "panicky" }
func (panicky) Extensions() []string { return nil }
func (panicky) Extract(string, []byte) (*Result, error) {
	var m map[string]int
	m["boom"]++ // a nil-map write: a real runtime panic
	return nil, nil
}

type failing struct{}

func (failing) Language() string                        { return "failing" }
func (failing) Extensions() []string                    { return nil }
func (failing) Extract(string, []byte) (*Result, error) { return nil, errors.New("no grammar") }

func TestExtractFallsBack(t *testing.T) {
	for _, e := range []Extractor{panicky{}, failing{}} {
		r, err := extractWith(e, "dir/x.weird", []byte("hello\nworld\n"))
		if err == nil {
			t.Fatalf("%s: no error", e.Language())
		}
		if r == nil || len(r.Nodes) != 1 || r.Nodes[0].ID != "file::dir/x.weird" {
			t.Fatalf("%s: fallback result %+v", e.Language(), r)
		}
		if r.Language != e.Language() {
			t.Errorf("fallback language %q, want the original %q", r.Language, e.Language())
		}
		if r.Nodes[0].EndLine != 2 || r.Nodes[0].Excerpt != "hello" {
			t.Errorf("fallback file node %+v", r.Nodes[0])
		}
	}
	_, err := extractWith(panicky{}, "x", nil)
	if err == nil || !strings.Contains(err.Error(), "panicked") {
		t.Errorf("panic not reported: %v", err)
	}
}

func TestGeneric(t *testing.T) {
	cases := []struct {
		path, lang string
		tags       []string
	}{
		{"docs/guide.md", "markdown", []string{"md", "doc"}},
		{"conf/app.ini", "ini", []string{"ini", "config"}},
		{"Dockerfile", "dockerfile", []string{"build"}},
		{"notes", "text", nil},
		{"data.xyz", "text", []string{"xyz"}},
	}
	for _, c := range cases {
		r, err := ExtractFile(c.path, []byte("\n\n  # Title here  \nbody\n"))
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, r)
		n := r.Nodes[0]
		if r.Language != c.lang || !slices.Equal(n.Tags, c.tags) || n.Excerpt != "# Title here" || n.EndLine != 4 || len(r.Nodes) != 1 || len(r.Edges) != 0 {
			t.Errorf("%s: lang %q tags %v excerpt %q lines %d-%d nodes %d", c.path, r.Language, n.Tags, n.Excerpt, n.Line, n.EndLine, len(r.Nodes))
		}
	}
}

func TestTooLargeFileKeepsFileNode(t *testing.T) {
	src := bytes.Repeat([]byte("x = 1\n"), maxParseBytes/6+1)
	r, err := ExtractFile("big.py", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Nodes) != 1 || !slices.Contains(r.Nodes[0].Tags, "large") || r.Language != "python" {
		t.Errorf("large file: %+v", r.Nodes)
	}
}

// TestDeepNestingIsCut feeds nesting far beyond maxTreeDepth: the flattener
// cuts it (no deep Go recursion) and the rest of the file still extracts.
func TestDeepNestingIsCut(t *testing.T) {
	deep := strings.Repeat("(", 20000) + "1" + strings.Repeat(")", 20000)
	for _, c := range []struct{ path, src, fn string }{
		{"deep.py", "def f():\n    x = " + deep + "\n    g()\n", "f"},
		{"deep.go", "package p\nfunc f() { x := " + deep + "; g() }\n", "f"},
		{"deep.js", "function f() { const x = " + deep + "; g(); }\n", "f"},
		{"deep.rs", "fn f() { let x = " + deep + "; g(); }\n", "f"},
		{"deep.java", "class A { void f() { int x = " + deep + "; g(); } }\n", "A::f"},
		{"deep.c", "void f() { int x = " + deep + "; g(); }\n", "f"},
	} {
		r, err := ExtractFile(c.path, []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		checkInvariants(t, r)
		fid := FileID(c.path) + "::" + c.fn
		if findNode(r, fid) == nil {
			t.Errorf("%s: function %s lost", c.path, c.fn)
		}
		wantEdge(t, r, fid, "calls", "ref::g", 0, RefHint{})
	}
}

func TestConcurrentExtraction(t *testing.T) {
	paths := fixtures(t)
	done := make(chan struct{})
	for w := 0; w < 4; w++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; i < 3; i++ {
				for _, p := range paths {
					rel := strings.TrimPrefix(p, "testdata/")
					src := mustRead(t, p)
					r1, err := ExtractFile(rel, src)
					if err != nil || len(r1.Nodes) == 0 {
						t.Errorf("%s: %v", rel, err)
					}
				}
			}
		}()
	}
	for w := 0; w < 4; w++ {
		<-done
	}
}

func TestCppHeaderSniffing(t *testing.T) {
	cpp := "#pragma once\nnamespace geo {\nclass Shape {\npublic:\n  virtual double area() const = 0;\n};\n}\n"
	r, err := ExtractFile("include/shape.h", []byte(cpp))
	if err != nil {
		t.Fatal(err)
	}
	if r.Language != "cpp" {
		t.Fatalf("C++ header extracted as %s", r.Language)
	}
	wantNode(t, r, "file::include/shape.h::geo::Shape", "Class", 3)
	c := "/* a C header; no class here */\nint add(int a, int b);\nstruct point { int x, y; };\n"
	if r, err := ExtractFile("include/add.h", []byte(c)); err != nil || r.Language != "c" {
		t.Fatalf("C header: %v %+v", err, r)
	}
}
