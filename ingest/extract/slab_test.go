package extract

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// slabSources are files of several extractors, extracted one after the
// other as a worker of a wide extraction does.
func slabSources() map[string]string {
	var many strings.Builder
	many.WriteString("package many\n\n")
	for i := range 300 {
		fmt.Fprintf(&many, "func f%d(a T) U { return g%d(a.x, h(a)) }\n", i, i)
	}
	return map[string]string{
		"a/a.go":      "package a\n\nimport \"fmt\"\n\ntype T struct{ n int }\n\nfunc (t *T) Get() int { fmt.Println(t.n); return helper(t) }\n\nfunc helper(t *T) int { return t.n }\n",
		"a/many.go":   many.String(),
		"b/mod.py":    "import os\nfrom x import y\n\nclass C(Base):\n    def m(self):\n        return os.path.join(y(), self.n())\n\n    def n(self):\n        return 1\n",
		"c/App.java":  "package c;\n\nimport java.util.List;\n\npublic class App extends Base {\n  List<String> xs;\n  void run() { helper(xs.size()); }\n  void helper(int n) {}\n}\n",
		"d/index.ts":  "import { f } from './f';\nexport class K { go(): number { return f(1) + this.h(); } h() { return 2; } }\n",
		"e/lib.rs":    "use std::fmt;\npub struct S;\nimpl S { pub fn go(&self) -> u8 { helper() } }\nfn helper() -> u8 { 1 }\n",
		"f/empty.go":  "package f\n",
		"g/other.rb":  "class R < Base\n  def go\n    helper(1)\n  end\nend\n",
		"h/other2.go": "package h\n\nfunc Z() { Y() }\n\nfunc Y() {}\n",
	}
}

// TestWideExtractionEdgesKeepTheirPlace extracts the same files with and
// without WideArenas: the results are equal, and in the wide run every
// file's edges are capped at their length, so appending to one file's
// edges, as a later phase may, changes no other file's.
func TestWideExtractionEdgesKeepTheirPlace(t *testing.T) {
	src := slabSources()
	paths := slices.Sorted(maps.Keys(src))
	extractAll := func() []*Result {
		var out []*Result
		for _, p := range paths {
			r, err := ExtractFile(p, []byte(src[p]))
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			out = append(out, r)
		}
		return out
	}
	want := extractAll()
	release := WideArenas()
	got := extractAll()
	release()
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("wide extraction differs (-narrow +wide):\n%s", d)
	}
	for i, r := range got {
		if len(r.Edges) != cap(r.Edges) {
			t.Errorf("%s: %d edges in a slice of capacity %d: an append would write over the next file's", r.Path, len(r.Edges), cap(r.Edges))
		}
		own := r.Edges
		r.Edges = append(r.Edges, Edge{Source: "x", Target: "y", Relation: RelCalls})
		for j, o := range got {
			if j != i && !cmp.Equal(o.Edges, want[j].Edges) {
				t.Fatalf("appending to %s's edges changed %s's", r.Path, o.Path)
			}
		}
		r.Edges = own
	}
}

// TestSlabKeep follows one slab through a file that fits its tail and one
// that outgrows it.
func TestSlabKeep(t *testing.T) {
	s := &edgeSlab{tail: make([]Edge, 0, 4)}
	base := &s.tail[:1][0]
	e := s.tail
	e = append(e, Edge{Source: "a"}, Edge{Source: "b"})
	kept := s.keep(e)
	if len(kept) != 2 || cap(kept) != 2 || &kept[0] != base {
		t.Fatalf("a fitting file: len %d cap %d, in place %v; want 2, 2, true", len(kept), cap(kept), &kept[0] == base)
	}
	if cap(s.tail) != 2 || len(s.tail) != 0 {
		t.Fatalf("the tail after a fitting file: len %d cap %d, want 0, 2", len(s.tail), cap(s.tail))
	}
	e = s.tail
	for _, n := range []string{"c", "d", "e"} {
		e = append(e, Edge{Source: n})
	}
	grown := s.keep(e)
	if got := []string{grown[0].Source, grown[1].Source, grown[2].Source}; !slices.Equal(got, []string{"c", "d", "e"}) || len(grown) != 3 {
		t.Fatalf("an outgrowing file kept %v", grown)
	}
	if &grown[0] == &s.tail[:1][0] {
		t.Fatal("an outgrowing file's edges are in the slab")
	}
	for _, x := range s.tail[:cap(s.tail)] {
		if x != (Edge{}) {
			t.Fatalf("the tail still holds %+v after a file outgrew it", x)
		}
	}
	if kept[0].Source != "a" || kept[1].Source != "b" {
		t.Fatalf("the first file's edges changed: %+v", kept)
	}
	if s.keep(s.tail[:0]) != nil {
		t.Fatal("a file without edges kept a non-nil slice")
	}
}
