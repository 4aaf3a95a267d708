// Package testlink pairs test files with the files they test, by the naming
// conventions of each language: test_x.py and x_test.py ↔ x.py,
// x_test.go ↔ x.go, x.test.ts / x.spec.js / __tests__/x.js ↔ x.ts / x.js,
// FooTest.java / FooTests.kt / FooSpec.scala ↔ Foo, x_spec.rb ↔ x.rb,
// x_test.cc / test_x.c ↔ x.cc / x.h, Rust tests/*.rs ↔ the crate, and more.
// When several files could be the subject, the one whose directory best
// mirrors the test's (src/test/java ↔ src/main/java, tests/ ↔ src/, spec/ ↔
// lib/) wins.
package testlink

import (
	"path"
	"slices"
	"strings"
)

// Link is one test → subject pair of root-relative paths.
type Link struct {
	Test, Subject string
}

// family groups extensions whose files may test each other.
var family = map[string]string{
	".py": "py", ".pyi": "py",
	".go": "go",
	".ts": "js", ".tsx": "js", ".js": "js", ".jsx": "js", ".mjs": "js", ".cjs": "js", ".mts": "js", ".cts": "js", ".vue": "js", ".svelte": "js",
	".java": "jvm", ".kt": "jvm", ".kts": "jvm", ".scala": "jvm", ".groovy": "jvm",
	".cs": "cs", ".fs": "cs",
	".rb":  "rb",
	".php": "php",
	".c":   "c", ".h": "c", ".cc": "c", ".cpp": "c", ".cxx": "c", ".hpp": "c", ".hh": "c", ".hxx": "c", ".m": "c", ".mm": "c",
	".rs":    "rs",
	".swift": "swift",
	".dart":  "dart",
	".ex":    "ex", ".exs": "ex",
	".lua": "lua",
	".sh":  "sh", ".bash": "sh", ".bats": "sh",
	".hs":  "hs",
	".jl":  "jl",
	".zig": "zig",
	".ml":  "ml",
}

type fileKey struct{ stem, fam string }

// Find returns the test links among files (root-relative, forward slashes),
// sorted by test path.
func Find(files []string) []Link { return FindWith(files, nil) }

// FindWith is Find where, of several files a test could be named for, those
// reaches(test, subject) accepts — the ones the test imports, say — are
// preferred; nil or no accepted candidate leaves the choice to the layout.
func FindWith(files []string, reaches func(test, subject string) bool) []Link {
	byStem := map[fileKey][]string{}
	isTest := make(map[string]bool, len(files))
	subjects := make(map[string]string, len(files)) // test → subject stem
	crateRoots := map[string]string{}               // crate dir → lib.rs/main.rs
	for _, f := range files {
		dir, base := split(f)
		ext := path.Ext(base)
		fam, ok := family[strings.ToLower(ext)]
		if !ok {
			continue
		}
		stem := strings.TrimSuffix(base, ext)
		if s, ok := subjectStem(fam, f, dir, stem); ok {
			isTest[f] = true
			subjects[f] = s
			continue
		}
		byStem[fileKey{stem, fam}] = append(byStem[fileKey{stem, fam}], f)
		if fam == "rs" && (base == "lib.rs" || base == "main.rs") && path.Base(dir) == "src" {
			crate := path.Dir(dir)
			if crate == "." {
				crate = ""
			}
			if cur, ok := crateRoots[crate]; !ok || base == "lib.rs" && !strings.HasSuffix(cur, "lib.rs") {
				crateRoots[crate] = f
			}
		}
	}
	var out []Link
	for _, f := range files {
		if !isTest[f] {
			continue
		}
		dir, base := split(f)
		fam := family[strings.ToLower(path.Ext(base))]
		cands := byStem[fileKey{subjects[f], fam}]
		if reaches != nil && len(cands) > 1 {
			var in []string
			for _, c := range cands {
				if reaches(f, c) {
					in = append(in, c)
				}
			}
			if len(in) > 0 {
				cands = in
			}
		}
		if fam == "rs" {
			if crate, ok := rustTestCrate(dir); ok {
				if s := bestSubject(dir, cands, crate); s != "" {
					out = append(out, Link{f, s})
				} else if root, ok := crateRoots[crate]; ok {
					out = append(out, Link{f, root})
				}
				continue
			}
		}
		if s := bestSubject(dir, cands, ""); s != "" {
			out = append(out, Link{f, s})
		}
	}
	slices.SortFunc(out, func(a, b Link) int { return strings.Compare(a.Test, b.Test) })
	return out
}

// subjectStem recognises a test file and returns the stem of its subject.
func subjectStem(fam, file, dir, stem string) (string, bool) {
	cut := func(prefixes, suffixes []string) (string, bool) {
		for _, s := range suffixes {
			if x, ok := strings.CutSuffix(stem, s); ok && x != "" {
				return x, true
			}
		}
		for _, p := range prefixes {
			if x, ok := strings.CutPrefix(stem, p); ok && x != "" {
				return x, true
			}
		}
		return "", false
	}
	switch fam {
	case "py":
		return cut([]string{"test_"}, []string{"_test", "_tests"})
	case "go":
		return cut(nil, []string{"_test"})
	case "js":
		if s, ok := cut(nil, []string{".test", ".spec", ".tests", ".e2e", ".stories"}); ok {
			return s, true
		}
		if slices.Contains(strings.Split(dir, "/"), "__tests__") {
			return stem, true
		}
	case "jvm", "cs", "swift", "php", "hs":
		return cut([]string{"Test"}, []string{"Tests", "Test", "Spec", "IT", "Suite"})
	case "rb":
		if stem == "spec_helper" {
			return "", false // RSpec's setup, no test
		}
		// rack's minitest/spec files are test/spec_builder.rb.
		return cut([]string{"test_", "spec_"}, []string{"_spec", "_test"})
	case "c":
		return cut([]string{"test_"}, []string{"_unittest", "_test", "_tests", "Test"})
	case "dart", "ex", "zig":
		return cut(nil, []string{"_test"})
	case "lua":
		return cut([]string{"test_"}, []string{"_spec", "_test"})
	case "sh":
		if strings.HasSuffix(file, ".bats") {
			return stem, true
		}
		return cut([]string{"test_"}, []string{"_test"})
	case "rs":
		if _, ok := rustTestCrate(dir); ok {
			return stem, true
		}
		return cut(nil, []string{"_test", "_tests"})
	case "jl", "ml":
		return cut([]string{"test_"}, []string{"_test"})
	}
	return "", false
}

// rustTestCrate reports whether dir is (inside) a crate's tests/ directory
// and returns the crate directory.
func rustTestCrate(dir string) (string, bool) {
	segs := strings.Split(dir, "/")
	for i, s := range segs {
		if s == "tests" {
			return strings.Join(segs[:i], "/"), true
		}
	}
	return "", false
}

// testDirs are directory names that hold tests and have no counterpart on
// the subject side.
var testDirs = map[string]bool{
	"test": true, "tests": true, "spec": true, "specs": true, "__tests__": true,
	"testing": true, "unit": true, "integration": true, "e2e": true, "it": true,
}

// bestSubject chooses among candidate subjects the one whose directory best
// mirrors the test's directory. within restricts to a subtree ("" = any).
func bestSubject(testDir string, cands []string, within string) string {
	norm := mirror(testDir)
	best, bestScore := "", -1
	for _, c := range cands {
		if within != "" && !strings.HasPrefix(c, within+"/") {
			continue
		}
		cdir, _ := split(c)
		score := 0
		if cdir == testDir {
			score = 1 << 20
		} else {
			cn := mirror(cdir)
			score = commonSuffix(norm, cn)*64 + commonPrefix(norm, cn)
			if cdir == path.Dir(testDir) || cdir == "" && !strings.Contains(testDir, "/") {
				score += 32 // tests/ next to the code it tests
			}
		}
		if score > bestScore || score == bestScore && c < best {
			best, bestScore = c, score
		}
	}
	return best
}

// mirror drops test-only directory names and maps Maven's test source
// root to the main one.
func mirror(dir string) []string {
	if dir == "" {
		return nil
	}
	var out []string
	for _, s := range strings.Split(dir, "/") {
		switch {
		case testDirs[s]:
			continue
		case s == "main":
			continue
		}
		out = append(out, s)
	}
	return out
}

func commonSuffix(a, b []string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

func commonPrefix(a, b []string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func split(p string) (dir, base string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", p
	}
	return p[:i], p[i+1:]
}
