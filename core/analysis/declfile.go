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
