package analysis

import "strings"

// IsDeclarationPath reports a declaration file: a Python stub (.pyi) or a
// TypeScript declaration file (.d.ts, .d.mts, .d.cts). It declares the
// types of code that lives elsewhere and holds no behaviour of its own,
// so no test can touch it: it is never "untested".
func IsDeclarationPath(p string) bool {
	p = strings.ToLower(p)
	for _, ext := range []string{".pyi", ".d.ts", ".d.mts", ".d.cts"} {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	return false
}

// Untestable reports a file no test exercises: a declaration file, or one
// holding no program code — a build description (Makefile, CMakeLists.txt,
// *.mk), configuration or documentation — whose targets the graph may
// still hold as functions. audit and missing read this one rule.
func Untestable(p string) bool { return notCode(p) || IsDeclarationPath(p) }
