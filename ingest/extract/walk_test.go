package extract

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// flatBoth flattens src with the subtree walk and with the cursor walk it
// replaced, on workers of their own.
func flatBoth(t *testing.T, g *grammar, src []byte) (walk, cursor []fnode, we, ce, wc, cc int) {
	t.Helper()
	if err := g.init(); err != nil {
		t.Fatal(err)
	}
	run := func(cursorWalk bool) ([]fnode, int, int) {
		p, err := newParser(g.ptr())
		if err != nil {
			t.Fatal(err)
		}
		defer deleteParser(p)
		w := &worker{parser: p, lang: g.ptr(), cursorWalk: cursorWalk}
		nodes, errs, cut, ok := w.parseFlat(src, g.named)
		if !ok {
			t.Fatal("no tree")
		}
		return slices.Clone(nodes), errs, cut
	}
	walk, we, wc = run(false)
	cursor, ce, cc = run(true)
	return walk, cursor, we, ce, wc, cc
}

// checkSame fails when the two walks differ on src, naming the first node.
func checkSame(t *testing.T, g *grammar, name string, src []byte) {
	t.Helper()
	walk, cursor, we, ce, wc, cc := flatBoth(t, g, src)
	if we != ce || wc != cc {
		t.Errorf("%s (%s): errors %d cut %d, cursor %d and %d", name, g.name, we, wc, ce, cc)
	}
	if len(walk) != len(cursor) {
		t.Errorf("%s (%s): %d nodes, cursor %d", name, g.name, len(walk), len(cursor))
	}
	for i := range min(len(walk), len(cursor)) {
		if walk[i] != cursor[i] {
			t.Errorf("%s (%s): node %d is %+v (%s), cursor %+v (%s)", name, g.name, i,
				walk[i], g.kindName(walk[i].kind), cursor[i], g.kindName(cursor[i].kind))
			return
		}
	}
}

// TestWalkMatchesCursor: the subtree walk yields exactly the records the
// TSTreeCursor walk did (kind with aliases, field through hidden nodes,
// spans, parent and sibling links, error and depth counts), on every
// test file of every language, broken and deeply nested input, and with
// M1ND_WALK_CORPUS=<dir> every file under dir.
func TestWalkMatchesCursor(t *testing.T) {
	files := 0
	check := func(root string) {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			g := grammarOf(p)
			if g == nil {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil || len(src) > maxParseBytes {
				return nil
			}
			files++
			checkSame(t, g, p, src)
			return nil
		})
	}
	check("testdata")
	if dir := os.Getenv("M1ND_WALK_CORPUS"); dir != "" {
		check(dir)
	}
	if files < 50 {
		t.Fatalf("only %d files checked", files)
	}
	t.Logf("%d files", files)

	deep := strings.Repeat("(", maxTreeDepth+40) + "1" + strings.Repeat(")", maxTreeDepth+40)
	for _, c := range []struct {
		g   *grammar
		src string
	}{
		{goGrammar, "package p\nfunc f() { x := " + deep + " }\n"},
		{pythonGrammar, "x = " + deep + "\n"},
		{pythonGrammar, "def f(:\n  return [1, 2\nclass C(\n"},
		{goGrammar, "package p\nfunc f( { if x { \n"},
		{javascriptGrammar, "function f() { return a ? b : ; }\nclass {"},
		{rustGrammar, "fn f() -> { let x = ; impl for {}"},
		{pythonGrammar, ""},
	} {
		checkSame(t, c.g, c.src[:min(len(c.src), 40)], []byte(c.src))
	}
}

// TestInternalHeadersMatchPinnedRuntime: include/ts_internal is a copy of
// go-tree-sitter v0.25.0's src headers; m1_walk reads the runtime's
// structs through it, so another pinned version needs a fresh copy.
func TestInternalHeadersMatchPinnedRuntime(t *testing.T) {
	mod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Skip(err)
	}
	if !strings.Contains(string(mod), "github.com/tree-sitter/go-tree-sitter v0.25.0\n") {
		t.Fatal("ingest/go.mod no longer pins go-tree-sitter v0.25.0: copy that version's src/*.h " +
			"over include/ts_internal (see include/README.md), update the README, then change this test")
	}
}
