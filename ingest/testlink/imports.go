package testlink

import (
	"path"
	"slices"
	"strings"
)

// ImportLinks links each test file that no name pairs with a subject
// (Find gives it none) to the source files it imports directly, as
// imports reports them (root-relative paths the test's import edges were
// bound to): ky's test/retry.ts tests source/index.ts, which it imports,
// though no source/retry.ts exists. A test file is one Find recognises by
// its name, or a JS/TS file under a test/, tests/ or __tests__/
// directory, where mocha and ava look for tests by default (helpers and
// fixtures below them are not tests). Imported test files, files below
// a test directory (helpers) and files of another language family are
// no subjects. Links are sorted by test, then subject.
func ImportLinks(files []string, imports func(test string) []string) []Link {
	named := map[string]bool{}
	for _, l := range Find(files) {
		named[l.Test] = true
	}
	have := make(map[string]bool, len(files))
	for _, f := range files {
		have[f] = true
	}
	var out []Link
	for _, f := range files {
		if named[f] || !IsTest(f) || testAidFiles[strings.TrimSuffix(path.Base(f), path.Ext(f))] {
			continue
		}
		for _, s := range imports(f) {
			if have[s] && s != f && famOf(s) == famOf(f) && !IsTest(s) && !underTestDir(s) && !slices.Contains(out, Link{f, s}) {
				out = append(out, Link{f, s})
			}
		}
	}
	slices.SortFunc(out, func(a, b Link) int {
		if c := strings.Compare(a.Test, b.Test); c != 0 {
			return c
		}
		return strings.Compare(a.Subject, b.Subject)
	})
	return out
}

// IsTest reports whether file is a test: by its name (x_test.go,
// test_x.py, x.spec.ts …, as Find reads names) or, for JS and TS, by
// its place (a test/, tests/ or __tests__/ directory, outside helpers
// and fixtures; not a declaration file or an _underscored one).
func IsTest(file string) bool {
	dir, base := split(file)
	ext := path.Ext(base)
	fam, ok := family[strings.ToLower(ext)]
	if !ok {
		return false
	}
	if _, ok := subjectStem(fam, file, dir, strings.TrimSuffix(base, ext)); ok {
		return true
	}
	if fam != "js" || strings.HasPrefix(base, "_") || strings.Contains(base, ".d.") || strings.Contains(base, ".config.") {
		return false
	}
	segs := strings.Split(dir, "/")
	return slices.ContainsFunc(segs, func(s string) bool { return jsTestDirs[s] }) &&
		!slices.ContainsFunc(segs, func(s string) bool { return testAids[s] })
}

// jsTestDirs are the directories mocha (./test) and ava (test/, tests/,
// __tests__/) search for tests by default.
var jsTestDirs = map[string]bool{"test": true, "tests": true, "__tests__": true}

// testAids are directories under a test directory that hold what tests
// use, not tests (ava skips helpers and fixtures).
var testAids = map[string]bool{
	"helpers": true, "helper": true, "fixtures": true, "fixture": true, "__fixtures__": true,
	"__mocks__": true, "mocks": true, "support": true, "utils": true, "_utils": true,
}

// testAidFiles are stems test-file rules match that name what tests use
// (sinatra's test/test_helper.rb, sinatra-contrib's
// lib/sinatra/test_helpers.rb), not tests.
var testAidFiles = map[string]bool{"test_helper": true, "test_helpers": true, "spec_helper": true, "test_utils": true, "test_support": true}

// underTestDir reports whether file lies below a directory that holds
// tests (a test helper, a conftest.py), so it is no subject.
func underTestDir(file string) bool {
	dir, _ := split(file)
	return slices.ContainsFunc(strings.Split(dir, "/"), func(s string) bool {
		return s == "test" || s == "tests" || s == "__tests__" || s == "spec" || s == "specs"
	})
}

// famOf is the family of file's extension ("" when none).
func famOf(file string) string { return family[strings.ToLower(path.Ext(file))] }
