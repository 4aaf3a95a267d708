// Package scan finds the structural patterns of the scan tool
// (docs/design.md#tool-families) — error_handling, resource_cleanup,
// api_surface, state_mutation, concurrency, auth_boundary, test_coverage
// and dependency_injection — in Go, Python, JavaScript/TypeScript, Java
// and Rust source. Each rule is a tree-sitter query that finds candidates
// plus a check in Go that looks at the surrounding code (the enclosing
// function, the file's declarations) before it reports, so a finding is a
// claim a reader can verify at the line it names. Graph validation
// (callers, tests, dependents) is the caller's business: a Finding names
// its Subject so the caller can find the node.
//
// A file is scanned on its own; the package keeps no state between files
// except compiled queries, and File is safe for concurrent use.
package scan

import (
	"errors"
	"fmt"
	"path"
	"runtime/debug"
	"slices"
	"strings"
)

// The built-in patterns, by the names the scan tool takes.
const (
	ErrorHandling       = "error_handling"
	ResourceCleanup     = "resource_cleanup"
	APISurface          = "api_surface"
	StateMutation       = "state_mutation"
	Concurrency         = "concurrency"
	AuthBoundary        = "auth_boundary"
	TestCoverage        = "test_coverage"
	DependencyInjection = "dependency_injection"
	// Custom is the pattern name of findings of a custom query.
	Custom = "custom"
)

var patternOrder = []string{ErrorHandling, ResourceCleanup, APISurface, StateMutation, Concurrency, AuthBoundary, TestCoverage, DependencyInjection}

var patternAbout = map[string]string{
	ErrorHandling:       "errors ignored or swallowed: Go errors discarded to _ or never checked, empty `if err != nil {}`, Python bare `except:` and `except Exception: pass`, empty JS/Java catch blocks, promise chains without a rejection handler, Rust unwrap",
	ResourceCleanup:     "resources acquired and not released on every path: files and connections opened without Close/with, locks held across a return or never unlocked, context cancel functions discarded, tickers never stopped",
	APISurface:          "the exported surface: exported functions and types without documentation, exported functions returning unexported types, TypeScript exports typed any",
	StateMutation:       "shared mutable state: package/module-level variables written from functions, Python `global` and mutable default arguments, Java static non-final fields, Rust static mut",
	Concurrency:         "concurrency hazards: goroutines capturing loop variables (before Go 1.22) or writing captured variables without a lock, WaitGroup.Add inside the goroutine, locks copied by value, asyncio tasks dropped, blocking calls in async functions, forEach(async …)",
	AuthBoundary:        "HTTP route handlers without an authentication/authorization check while other routes of the same file have one",
	TestCoverage:        "exported/public functions and methods that no test reaches (decided by the graph's tests and calls edges)",
	DependencyInjection: "hard-wired collaborators: functions that build their own clients, connections and services or read the environment instead of receiving them",
}

// Patterns returns the built-in pattern names in the order of
// docs/design.md#tool-families.
func Patterns() []string { return slices.Clone(patternOrder) }

// Describe says what a pattern finds ("" for an unknown one).
func Describe(pattern string) string { return patternAbout[pattern] }

// Known reports whether name is a built-in pattern.
func Known(name string) bool { return patternAbout[name] != "" }

// Finding is one match that passed its rule's check.
type Finding struct {
	Pattern string `json:"pattern"`
	// Rule names the check within the pattern ("go/discarded-error").
	Rule string `json:"rule"`
	File string `json:"file"`
	// Line and Column (1-based; columns count bytes) start the flagged
	// code, EndLine and EndColumn end it (exclusive column).
	Line      int     `json:"line"`
	Column    int     `json:"column"`
	EndLine   int     `json:"end_line"`
	EndColumn int     `json:"end_column"`
	Severity  float64 `json:"severity"`
	Message   string  `json:"message"`
	// Snippet is the first line of the flagged code, trimmed and clipped
	// to SnippetMax bytes.
	Snippet string `json:"snippet"`
	// Subject names what the finding is about when that is not simply the
	// code at Line: the function declared there (test_coverage,
	// api_surface), the global written (state_mutation), the route
	// (auth_boundary).
	Subject string `json:"subject,omitempty"`
	// Handler names the function a route registration hands requests to
	// (auth_boundary), when it is named rather than written inline.
	Handler string `json:"handler,omitempty"`
	// InTest is set for findings in test files (their severity is halved).
	InTest bool `json:"in_test,omitempty"`
}

// SnippetMax bounds Finding.Snippet.
const SnippetMax = 160

// MaxFileSize is the largest file scanned; bigger ones are generated or
// minified code whose findings nobody will act on.
const MaxFileSize = 2 << 20

// ErrTooLarge is returned for files over MaxFileSize.
var ErrTooLarge = errors.New("file too large to scan")

// ErrUnsupported is returned for files of a language without rules.
var ErrUnsupported = errors.New("no scan rules for this language")

// Level names a severity: info (< 0.3), warning (< 0.6), error (< 0.8),
// critical.
func Level(sev float64) string {
	switch {
	case sev >= 0.8:
		return "critical"
	case sev >= 0.6:
		return "error"
	case sev >= 0.3:
		return "warning"
	}
	return "info"
}

// Options select what File looks for.
type Options struct {
	// Patterns to run (nil: all built-in patterns).
	Patterns []string
	// Query is a compiled custom query; its matches are reported as
	// pattern "custom". It runs in addition to Patterns; set Patterns to
	// an empty non-nil slice to run it alone.
	Query *Query
	// GoVersion is the go directive of the module a Go file belongs to
	// ("1.21"; "" when unknown): loop variables are per iteration from
	// 1.22 on.
	GoVersion string
}

// Language returns the language scan rules exist for at p ("" if none).
func Language(p string) string {
	base := strings.ToLower(path.Base(p))
	switch path.Ext(base) {
	case ".go":
		return "go"
	case ".py":
		return "python"
	case ".js", ".jsx", ".mjs", ".cjs":
		if strings.HasSuffix(base, ".min.js") {
			return ""
		}
		return "javascript"
	case ".ts", ".mts", ".cts":
		if strings.HasSuffix(base, ".d.ts") {
			return ""
		}
		return "typescript"
	case ".tsx":
		return "tsx"
	case ".java":
		return "java"
	case ".rs":
		return "rust"
	}
	return ""
}

// IsTestFile reports whether p is a test file by its language's naming
// conventions (x_test.go, test_x.py, x.spec.ts, src/test/java, tests/…).
func IsTestFile(p string) bool {
	p = strings.ToLower(path.Clean("/" + p))
	base := path.Base(p)
	switch {
	case strings.HasSuffix(base, "_test.go"),
		strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py"),
		strings.HasSuffix(base, "_test.py"), base == "conftest.py",
		strings.Contains(base, ".test."), strings.Contains(base, ".spec."),
		strings.HasSuffix(base, "test.java"), strings.HasSuffix(base, "tests.java"):
		return true
	}
	for _, d := range []string{"/tests/", "/test/", "/__tests__/", "/testdata/"} {
		if strings.Contains(path.Dir(p)+"/", d) {
			return true
		}
	}
	return false
}

// File scans one file. Findings come sorted by line, column, pattern and
// rule. Files in a language without rules give ErrUnsupported; a parse
// with syntax errors still reports what the rules find in the rest.
func File(relPath string, src []byte, opt Options) (out []Finding, err error) {
	l := languageFor(Language(relPath))
	if l == nil {
		return nil, ErrUnsupported
	}
	if len(src) > MaxFileSize {
		return nil, ErrTooLarge
	}
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("scan %s: internal error: %v\n%s", relPath, r, debug.Stack())
		}
	}()
	mask, err := maskOf(opt.Patterns)
	if err != nil {
		return nil, err
	}
	return l.scan(relPath, src, mask, opt)
}

// maskOf turns pattern names into a bit set (nil: all).
func maskOf(names []string) (uint16, error) {
	if names == nil {
		return 1<<len(patternOrder) - 1, nil
	}
	var m uint16
	for _, n := range names {
		i := slices.Index(patternOrder, n)
		if i < 0 {
			return 0, fmt.Errorf("unknown pattern %q (known: %s)", n, strings.Join(patternOrder, ", "))
		}
		m |= 1 << i
	}
	return m, nil
}

func patternBit(name string) uint16 {
	return 1 << slices.Index(patternOrder, name)
}
