package extract

import (
	"fmt"
	"strings"
	"testing"
)

// TestGoLocalUsesMakeNoStrings: a use of a local, a predeclared name, a
// builtin type or an imported package is looked up in the source itself;
// only a use of a package-level name becomes a string (and an edge).
func TestGoLocalUsesMakeNoStrings(t *testing.T) {
	src := func(stmts int) []byte {
		var b strings.Builder
		b.WriteString("package p\n\nimport \"strings\"\n\nfunc F(first, second int, name string) int {\n\tvar total int\n")
		for i := range stmts {
			fmt.Fprintf(&b, "\ttotal = int(first) + second*len(name) + total\n\tif total > %d && name != \"\" {\n\t\tname = strings.TrimSpace(name)\n\t}\n", i)
		}
		b.WriteString("\treturn total\n}\n")
		return []byte(b.String())
	}
	small, large := src(50), src(150)
	a := testing.AllocsPerRun(10, func() { ExtractFile("a.go", small) })
	b := testing.AllocsPerRun(10, func() { ExtractFile("a.go", large) })
	per := (b - a) / 100
	// Before: 10 a statement (each identifier's name); now 1.
	if per > 2 {
		t.Errorf("%.2f allocations a statement of locals (%.0f for 50, %.0f for 150), want at most 2", per, a, b)
	}
	res, err := ExtractFile("a.go", small)
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	for _, e := range res.Edges {
		if strings.HasPrefix(e.Target, RefPrefix) {
			refs = append(refs, e.Target+" "+e.Hint.Module)
		}
	}
	if want := "ref::strings strings,ref::TrimSpace strings"; strings.Join(refs, ",") != want {
		t.Errorf("references %q, want %q", refs, want)
	}
}
