package extract

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fuzz targets feed arbitrary bytes to the extractors directly (not
// through ExtractFile, whose recover would hide a panic): any panic or
// crash fails, and every result must satisfy the same invariants as the
// fixtures. Seeds are the fixtures of the languages concerned.
//
//	go test -run '^$' -fuzz FuzzPython -fuzztime 20s -fuzzminimizetime 3s ./ingest/extract
//
// (A short -fuzzminimizetime keeps short runs fuzzing: minimising a new
// input otherwise takes up to a minute during which nothing else runs.)

func seedFixtures(f *testing.F, exts ...string) {
	paths, _ := filepath.Glob("testdata/*/*")
	for _, p := range paths {
		if strings.HasSuffix(p, ".golden.json") {
			continue
		}
		for _, ext := range exts {
			if strings.HasSuffix(p, ext) || (ext == "Makefile" && filepath.Base(p) == ext) {
				if b, err := os.ReadFile(p); err == nil {
					f.Add(b)
				}
			}
		}
	}
	// Shapes that stress error recovery in every grammar.
	for _, s := range []string{"", "\x00", "\xff\xfe", "(((((", "}}}}", "def class fn func {", "\"unterminated", "/*", "a\r\nb\r\n"} {
		f.Add([]byte(s))
	}
}

func fuzzOne(t *testing.T, e Extractor, path string, data []byte) {
	r, err := e.Extract(path, data)
	if err != nil {
		return // an error is an acceptable answer to garbage
	}
	if r == nil {
		t.Fatalf("%s: nil result without error", e.Language())
	}
	checkInvariants(t, r)
}

func FuzzPython(f *testing.F) {
	seedFixtures(f, ".py")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzOne(t, pythonExtractor{}, "f/x.py", data) })
}

func FuzzGo(f *testing.F) {
	seedFixtures(f, ".go")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzOne(t, goExtractor{}, "f/x_test.go", data) })
}

func FuzzJavaScript(f *testing.F) {
	seedFixtures(f, ".js", ".ts", ".tsx")
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, p := range []string{"f/x.js", "f/x.test.ts", "f/x.tsx"} {
			fuzzOne(t, For(p), p, data)
		}
	})
}

func FuzzRust(f *testing.F) {
	seedFixtures(f, ".rs")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzOne(t, rustExtractor{}, "f/x.rs", data) })
}

func FuzzJava(f *testing.F) {
	seedFixtures(f, ".java")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzOne(t, javaExtractor{}, "f/XTest.java", data) })
}

// FuzzTable runs one table-driven language per input, chosen by which.
func FuzzTable(f *testing.F) {
	ex := tableExtractorsList()
	paths, _ := filepath.Glob("testdata/*/*")
	for _, p := range paths {
		if strings.HasSuffix(p, ".golden.json") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		for i, e := range ex {
			if For(p) == e {
				f.Add(uint8(i), b)
			}
		}
	}
	for i, e := range ex {
		f.Add(uint8(i), []byte("{ ( [ \"x\" ] ) }\n\x00"))
		if e.Language() == "kotlin" { // the reparse path (reparse.go)
			f.Add(uint8(i), []byte("class A {\n  class B\n  internal constructor(x: Int) {\n  }\n  fun f() = 1\n}\n"))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		e := ex[int(which)%len(ex)]
		fuzzOne(t, e, "f/x"+e.Extensions()[0], data)
	})
}

func FuzzGeneric(f *testing.F) {
	seedFixtures(f, ".md", ".json")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzOne(t, Generic, "f/x.txt", data) })
}
