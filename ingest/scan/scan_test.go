package scan

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestPatternsAndOptions(t *testing.T) {
	if got := Patterns(); len(got) != 8 || got[0] != ErrorHandling || got[7] != DependencyInjection {
		t.Fatalf("Patterns() = %v", got)
	}
	for _, p := range Patterns() {
		if !Known(p) || Describe(p) == "" {
			t.Errorf("%s: not described", p)
		}
	}
	if Known("custom") || Known("nope") {
		t.Error("Known accepts a name that is not a built-in pattern")
	}
	if _, err := File("a.go", []byte("package a"), Options{Patterns: []string{"nope"}}); err == nil || !strings.Contains(err.Error(), "error_handling") {
		t.Errorf("unknown pattern: %v", err)
	}
	if _, err := File("a.txt", []byte("x"), Options{}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("unsupported language: %v", err)
	}
	if _, err := File("a.go", make([]byte, MaxFileSize+1), Options{}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("too large: %v", err)
	}
	if fs, err := File("a.go", []byte("package a\nfunc f() { if err != nil {} }"), Options{Patterns: []string{}}); err != nil || len(fs) != 0 {
		t.Errorf("no patterns: %v %v", fs, err)
	}
	for _, c := range []struct {
		sev  float64
		want string
	}{{0.1, "info"}, {0.3, "warning"}, {0.6, "error"}, {0.8, "critical"}} {
		if Level(c.sev) != c.want {
			t.Errorf("Level(%v) = %s", c.sev, Level(c.sev))
		}
	}
}

func TestLanguageAndTestFiles(t *testing.T) {
	for p, want := range map[string]string{"a/b.go": "go", "x.py": "python", "x.mjs": "javascript", "x.min.js": "", "x.d.ts": "", "x.tsx": "tsx", "X.java": "java", "lib.rs": "rust", "x.c": ""} {
		if got := Language(p); got != want {
			t.Errorf("Language(%s) = %q, want %q", p, got, want)
		}
	}
	for p, want := range map[string]bool{"a_test.go": true, "pkg/test_x.py": true, "tests/x.py": true, "src/x.spec.ts": true, "src/test/java/ATest.java": true, "a.go": false, "latest/x.py": false, "contest.py": false} {
		if IsTestFile(p) != want {
			t.Errorf("IsTestFile(%s) = %v", p, !want)
		}
	}
}

func TestCustomQuery(t *testing.T) {
	q, err := Compile(`(call_expression function: (identifier) @fn (#eq? @fn "panic")) @match`)
	if err != nil {
		t.Fatal(err)
	}
	if langs := q.Languages(); !slices.Contains(langs, "go") || slices.Contains(langs, "python") {
		t.Errorf("languages %v", langs)
	}
	fs, err := File("a.go", []byte("package a\nfunc f() {\n\tpanic(1)\n\tprint(2)\n}\n"), Options{Patterns: []string{}, Query: q})
	if err != nil || len(fs) != 1 || fs[0].Line != 3 || fs[0].Pattern != Custom || fs[0].Snippet != "panic(1)" {
		t.Fatalf("custom findings %+v, %v", fs, err)
	}
	// Python has no call_expression: nothing, no error.
	if fs, err := File("a.py", []byte("panic(1)\n"), Options{Patterns: []string{}, Query: q}); err != nil || len(fs) != 0 {
		t.Errorf("python: %v %v", fs, err)
	}
	for _, bad := range []string{"(no_such_node) @x", "(call_expression", "(identifier)"} {
		if _, err := Compile(bad); err == nil {
			t.Errorf("Compile(%q) accepted", bad)
		}
	}
}

func TestSnippetIsBounded(t *testing.T) {
	long := "package a\nfunc f() { if err != nil {} ; x := \"" + strings.Repeat("é", 400) + "\" }\n"
	fs, err := File("a.go", []byte(long), Options{Patterns: []string{ErrorHandling}})
	if err != nil || len(fs) != 1 {
		t.Fatalf("%v %v", fs, err)
	}
	if len(fs[0].Snippet) > SnippetMax+len("…") || !strings.HasSuffix(fs[0].Snippet, "…") {
		t.Errorf("snippet %d bytes: %q", len(fs[0].Snippet), fs[0].Snippet)
	}
}

func TestBrokenSourceStillScans(t *testing.T) {
	src := "package a\nfunc f( {\n\tif err != nil {\n\t}\n}\nfunc g() {\n\tif err != nil {\n\t}\n}\n"
	fs, err := File("a.go", []byte(src), Options{Patterns: []string{ErrorHandling}})
	if err != nil || len(fs) == 0 {
		t.Fatalf("%v %v", fs, err)
	}
}

// File is safe for concurrent use (run with -race): parsers are pooled,
// compiled queries shared.
func TestConcurrentFiles(t *testing.T) {
	srcs := map[string]string{
		"a.go": "package a\nfunc f() { x, _ := g(); go func() { y = 1 }(); if err != nil {} }",
		"a.py": "try:\n  x = open(p)\nexcept:\n  pass\n",
		"a.ts": "export function f(a: any) { try {} catch {} }",
	}
	want := map[string]int{}
	for name, src := range srcs {
		fs, _ := File(name, []byte(src), Options{})
		want[name] = len(fs)
	}
	var wg sync.WaitGroup
	for range 8 {
		for name, src := range srcs {
			wg.Go(func() {
				fs, err := File(name, []byte(src), Options{})
				if err != nil || len(fs) != want[name] {
					t.Errorf("%s: %d findings, want %d (%v)", name, len(fs), want[name], err)
				}
			})
		}
	}
	wg.Wait()
}

func FuzzFile(f *testing.F) {
	f.Add("a.go", "package a\nfunc f() { x, _ := g(); go func() { y = 1 }() }")
	f.Add("a.py", "try:\n  x = open(p)\nexcept:\n  pass\n")
	f.Add("a.ts", "export function f(a: any) { try {} catch {} }")
	f.Add("A.java", "public class A { static int x; void f() { try {} catch (Exception e) {} } }")
	f.Add("lib.rs", "pub fn f() { x.unwrap(); }")
	f.Fuzz(func(t *testing.T, name, src string) {
		fs, err := File(name, []byte(src), Options{})
		if err != nil {
			return
		}
		for i, x := range fs {
			if x.Line < 1 || x.Severity < 0 || x.Severity > 1 || x.Message == "" || len(x.Snippet) > SnippetMax+3 {
				t.Fatalf("bad finding %+v", x)
			}
			if i > 0 && fs[i-1].Line > x.Line {
				t.Fatalf("unsorted findings")
			}
		}
	})
}
