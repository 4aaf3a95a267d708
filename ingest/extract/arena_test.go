package extract

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestArenaParseEqualsLibc: on every test file of every grammar and on a
// generated Go file past the arena's kept bytes, a parse in an arena yields
// the flat nodes and counts of a parse whose tree libc holds. One arena
// serves them all in turn and keeps at most arenaKeep bytes between files;
// ReleaseParserMemory frees it.
func TestArenaParseEqualsLibc(t *testing.T) {
	freeIdleArenas()
	files := testFiles(t)
	var big bytes.Buffer
	big.WriteString("package big\n\n")
	for i := range 4000 {
		fmt.Fprintf(&big, "func f%d(a, b int) int {\n\tif a > b {\n\t\treturn a - b\n\t}\n\treturn f%d(b, a) + %d\n}\n", i, i, i)
	}
	files["testdata/big.go"] = big.Bytes()
	paths := slices.Sorted(maps.Keys(files))
	for _, p := range paths {
		g := grammarOf(p)
		if err := g.init(); err != nil {
			t.Fatal(err)
		}
		pr, err := newParser(g.ptr())
		if err != nil {
			t.Fatal(err)
		}
		w := &worker{parser: pr, lang: g.ptr()}
		nodes, errs, cut, ok := w.parseFlat(files[p], g.named)
		got := flatResult{slices.Clone(nodes), errs, cut}
		nodes, errs, cut, tr, ok2 := w.parseFlatFrom(files[p], g.named, nil, true)
		want := flatResult{slices.Clone(nodes), errs, cut}
		if tr != nil {
			freeTree(tr)
		}
		deleteParser(pr)
		if !ok || !ok2 {
			t.Fatalf("%s: no tree (arena %v, libc %v)", p, ok, ok2)
		}
		if d := cmp.Diff(want, got, cmpFnode); d != "" {
			t.Fatalf("%s: arena parse differs (-libc +arena):\n%.2000s", p, d)
		}
	}
	count, held, peak, parsed := arenaStats()
	if count != 1 || parsed != len(paths) {
		t.Errorf("%d arenas parsed %d files, want 1 arena for all %d", count, parsed, len(paths))
	}
	if held > arenaKeep {
		t.Errorf("the idle arena holds %d bytes, more than its bound %d", held, arenaKeep)
	}
	if peak <= arenaKeep {
		t.Errorf("the largest parse took %d bytes, not past the kept bound %d: big.go no longer tests it", peak, arenaKeep)
	}
	ReleaseParserMemory()
	if count, _, _, _ := arenaStats(); count != 0 {
		t.Errorf("%d arenas left after ReleaseParserMemory", count)
	}
}

// TestWideArenasKeepMoreUntilReleased: while WideArenas is held an arena
// keeps a large file's chunks between files (up to wideKeep); after the
// release the idle arena and one given back later hold at most arenaKeep.
func TestWideArenasKeepMoreUntilReleased(t *testing.T) {
	freeIdleArenas()
	defer freeIdleArenas()
	var big bytes.Buffer
	big.WriteString("package big\n\n")
	for i := range 4000 {
		fmt.Fprintf(&big, "func f%d(a, b int) int {\n\treturn f%d(b, a) + %d\n}\n", i, i, i)
	}
	g := grammarOf("big.go")
	parse := func() { freshFlat(t, g, big.Bytes()) }

	release := WideArenas()
	parse()
	_, held, peak, _ := arenaStats()
	if peak <= arenaKeep {
		t.Fatalf("the parse took %d bytes, not past %d: the file no longer tests the bound", peak, arenaKeep)
	}
	if held <= arenaKeep || held > wideKeep {
		t.Errorf("a wide arena holds %d bytes after a %d-byte parse, want more than %d and at most %d", held, peak, arenaKeep, wideKeep)
	}
	a := takeArena() // busy while the release runs: the next parse makes a second arena
	parse()
	release()
	release() // a second call changes nothing
	if count, held, _, _ := arenaStats(); count != 1 || held > arenaKeep {
		t.Errorf("after the release %d idle arenas hold %d bytes, want 1 holding at most %d", count, held, arenaKeep)
	}
	giveArena(a)
	if count, held, _, _ := arenaStats(); count != 2 || held > 2*arenaKeep {
		t.Errorf("with the busy arena given back %d idle arenas hold %d bytes, want 2 holding at most %d each", count, held, arenaKeep)
	}
	freeIdleArenas()
	parse()
	if _, held, _, _ := arenaStats(); held > arenaKeep {
		t.Errorf("after the release a parse leaves %d bytes, more than %d", held, arenaKeep)
	}
}
