package seek

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/testcorpus"
)

// TestLeadDocKept: a class whose body has more distinct words than an
// entity document keeps (48) still carries the words of its doc
// comment's first lines, each said once, even when the comment is longer
// than the 30 lines read above a declaration — a Java class documented
// as javapoet's NameAllocator is ("Assigns Java identifier names to avoid
// collisions"), and a Python class whose docstring opens its body. Before,
// the cut kept only the most frequent words: the body's identifiers.
func TestLeadDocKept(t *testing.T) {
	var body strings.Builder
	for i := range 60 { // 60 distinct words, each used three times
		w := string(rune('a'+i/26)) + string(rune('a'+i%26)) + "zork"
		fmt.Fprintf(&body, "    int %[1]s = %[1]s(%[1]s);\n", w)
	}
	javaDoc := "/**\n * Assigns identifier names to avoid collisions and clashes.\n *\n" + strings.Repeat(" * More prose about allocation.\n", 40) + " */\n"
	java := "package p;\n\n" + javaDoc + "public final class Allocator {\n" + body.String() + "}\n"
	py := "class Registry:\n    \"\"\"Keeps plugins in topological order.\"\"\"\n\n" + strings.ReplaceAll(body.String(), "int ", "") + "\n"
	jl := strings.Count(java, "\n")
	files := map[string]string{"p/Allocator.java": java, "p/registry.py": py}
	ents := map[string][]testcorpus.Entity{
		"p/Allocator.java": {{Name: "Allocator", Kind: "class", Start: 3 + 43, End: jl}},
		"p/registry.py":    {{Name: "Registry", Kind: "class", Start: 1, End: strings.Count(py, "\n")}},
	}
	g, read := fixtureGraphOf(t, files, ents)
	o := DefaultOptions()
	o.ReadFile = read
	x, err := Build(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"avoid collisions clashes":     "file::p/Allocator.java::Allocator",
		"plugins in topological order": "file::p/registry.py::Registry",
	} {
		r := x.SearchText(q, Params{Types: []graph.NodeType{graph.Class}})
		if len(r.Hits) == 0 || g.ExternalID(r.Hits[0].Node) != want {
			t.Errorf("%q: top %v, want %s", q, ids(g, r.Hits), want)
			continue
		}
		if h := r.Hits[0]; !slices.Contains(h.Matched, "topological") && !slices.Contains(h.Matched, "collision") {
			t.Errorf("%q: %s matched only %v", q, want, h.Matched)
		}
	}
}
