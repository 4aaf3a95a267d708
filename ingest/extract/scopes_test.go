package extract

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// goDecls is a Go file with n functions and n methods, each with
// parameters, locals and uses: every declaration fills scope maps.
func goDecls(n int) []byte {
	var b strings.Builder
	b.WriteString("package p\n\nimport \"fmt\"\n\ntype T struct{ a int }\n\n")
	for i := range n {
		fmt.Fprintf(&b, "func F%d(a int, t *T) int {\n\tx := a + t.a\n\tfor i := range x {\n\t\tfmt.Println(i, x)\n\t}\n\treturn G%d(x)\n}\n\n", i, i)
		fmt.Fprintf(&b, "func (t *T) M%d(s string) {\n\tv := len(s)\n\tt.a = v\n\tfmt.Println(t.a)\n}\n\n", i)
	}
	return []byte(b.String())
}

// TestGoScopesAndSetsReused: a declaration's scope maps serve the next
// declaration of the file, and a builder's sets the next file, so one
// more function and method cost few allocations; and whatever a file
// leaves in them, the next extraction of it is the same result.
func TestGoScopesAndSetsReused(t *testing.T) {
	small, large := goDecls(20), goDecls(40)
	a := testing.AllocsPerRun(10, func() { ExtractFile("a.go", small) })
	b := testing.AllocsPerRun(10, func() { ExtractFile("a.go", large) })
	// Before: 32 allocations a function and method; now 18.
	if per := (b - a) / 20; per > 24 {
		t.Errorf("%.1f allocations a function and method (%.0f for 20 of each, %.0f for 40), want at most 24", per, a, b)
	}

	// Files in turn, one with sets past maxPooledSet: each extracted
	// again gives its first result.
	var huge strings.Builder
	huge.WriteString("package p\n\nfunc H() {\n")
	for i := range maxPooledSet + 10 {
		fmt.Fprintf(&huge, "\tC%d()\n", i)
	}
	huge.WriteString("}\n")
	files := []struct {
		path string
		src  []byte
	}{
		{"a.go", small},
		{"b.go", large},
		{"a.go", large},
		{"h.go", []byte(huge.String())},
		{"c.py", []byte("import os\n\ndef f(x):\n    return os.path.join(x, g(x))\n")},
	}
	first := map[string]*Result{}
	for round := range 2 {
		for _, f := range files {
			key := fmt.Sprintf("%s/%d", f.path, len(f.src))
			res, err := ExtractFile(f.path, f.src)
			if err != nil {
				t.Fatalf("%s: %v", f.path, err)
			}
			if round == 0 {
				first[key] = res
				continue
			}
			if d := cmp.Diff(first[key], res); d != "" {
				t.Errorf("%s extracted again (-first +again):\n%s", key, d)
			}
		}
	}
}
