package extract

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// flatResult is a parse's flat nodes and counts, compared whole.
type flatResult struct {
	Nodes       []fnode
	Errors, Cut int
}

// freshFlat parses src from nothing on a worker of its own.
func freshFlat(t testing.TB, g *grammar, src []byte) flatResult {
	t.Helper()
	if err := g.init(); err != nil {
		t.Fatal(err)
	}
	p, err := newParser(g.ptr())
	if err != nil {
		t.Fatal(err)
	}
	defer deleteParser(p)
	w := &worker{parser: p, lang: g.ptr()}
	nodes, errs, cut, ok := w.parseFlat(src, g.named)
	if !ok {
		t.Fatal("no tree")
	}
	return flatResult{slices.Clone(nodes), errs, cut}
}

// keptFlat parses src as the file path through k, as ExtractFileKept
// does: from the tree kept for path, keeping the new one.
func keptFlat(t testing.TB, k *Keeper, g *grammar, path string, src []byte) flatResult {
	t.Helper()
	var tr *tree
	var err error
	if len(src) == 0 {
		tr, err = g.parse(src)
	} else {
		withKeep(k, path, src, func() { tr, err = g.parse(src) })
	}
	if err != nil {
		t.Fatal(err)
	}
	defer tr.release()
	return flatResult{slices.Clone(tr.n), tr.errors, tr.cut}
}

// cmpFnode compares flat nodes field by field.
var cmpFnode = cmp.Comparer(func(a, b fnode) bool { return a == b })

// checkChain parses each version of a file in turn through one Keeper
// and fails when a kept parse differs from a parse from nothing.
func checkChain(t testing.TB, g *grammar, name string, versions ...[]byte) {
	t.Helper()
	k := NewKeeper(DefaultKeepBytes, DefaultKeepTrees)
	defer k.Clear()
	if len(versions) > 0 && len(versions[0]) > 0 {
		keptFlat(t, k, g, name, versions[0]) // seen: the chain's parses keep trees
	}
	for i, v := range versions {
		got := keptFlat(t, k, g, name, v)
		want := freshFlat(t, g, v)
		if want.Errors == got.Errors && want.Cut == got.Cut && slices.Equal(want.Nodes, got.Nodes) {
			continue
		}
		if d := cmp.Diff(want, got, cmpFnode); d != "" {
			t.Errorf("%s (%s) version %d: kept parse differs from a fresh one (-fresh +kept):\n%.300s", name, g.name, i, d)
			return
		}
	}
}

// edits are the changes TestKeptParseEqualsFresh applies to each file.
var edits = []struct {
	name string
	fn   func(src []byte) []byte
}{
	{"insert at start", func(s []byte) []byte { return append([]byte("// m1nd\n\n"), s...) }},
	{"delete at start", func(s []byte) []byte { return s[min(len(s), 7):] }},
	{"insert in middle", func(s []byte) []byte { return splice(s, len(s)/2, 0, "\n\nx y z = 1\n") }},
	{"delete in middle", func(s []byte) []byte { return splice(s, len(s)/3, min(40, len(s)/3), "") }},
	{"replace a line in middle", func(s []byte) []byte {
		i := bytes.IndexByte(s[len(s)/2:], '\n')
		if i < 0 {
			return s
		}
		at := len(s)/2 + i + 1
		j := bytes.IndexByte(s[at:], '\n')
		if j < 0 {
			j = len(s) - at
		}
		return splice(s, at, j, "  return helper(a, b) // changed")
	}},
	{"append at end", func(s []byte) []byte { return append(slices.Clone(s), "\n\nfunction m1nd() {}\n"...) }},
	{"cut the end", func(s []byte) []byte { return s[:len(s)*3/4] }},
	{"whole file replaced", func(s []byte) []byte { return []byte("entirely different\ncontent ( [ {\n") }},
	{"multi-byte inserted", func(s []byte) []byte {
		return splice(s, lineStart(s, len(s)/2), 0, "// héllo wörld 日本語 🎉\n")
	}},
	{"multi-byte changed", func(s []byte) []byte {
		return bytes.Replace(splice(s, lineStart(s, len(s)/2), 0, "// é\n"), []byte("é"), []byte("è"), 1)
	}},
	{"to CRLF", func(s []byte) []byte { return bytes.ReplaceAll(s, []byte("\n"), []byte("\r\n")) }},
	{"empty", func(s []byte) []byte { return nil }},
}

// splice returns s with n bytes at i replaced by ins (a new slice).
func splice(s []byte, i, n int, ins string) []byte {
	out := slices.Clone(s[:i])
	out = append(out, ins...)
	return append(out, s[i+n:]...)
}

// lineStart returns the start of the line holding offset i.
func lineStart(s []byte, i int) int { return bytes.LastIndexByte(s[:i], '\n') + 1 }

// testFiles returns the test files of every grammar, by path.
func testFiles(t testing.TB) map[string][]byte {
	files := map[string][]byte{}
	filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".json") || grammarOf(p) == nil {
			return nil
		}
		if src, err := os.ReadFile(p); err == nil && len(src) > 0 {
			files[p] = src
		}
		return nil
	})
	if len(files) < 30 {
		t.Fatalf("only %d test files", len(files))
	}
	return files
}

// TestKeptParseEqualsFresh: on every test file of every grammar, a parse
// that starts from the kept tree of the file's previous version yields
// the nodes (kinds, fields, byte and row spans, links) and error counts
// of a parse from nothing, for edits at the start, middle and end, a
// whole file replaced, multi-byte text and CRLF line ends, each applied
// alone and then chained with the following edit (and the same edit
// applied to the CRLF copy).
func TestKeptParseEqualsFresh(t *testing.T) {
	grammars := map[string]bool{}
	files := testFiles(t)
	for _, p := range slices.Sorted(maps.Keys(files)) {
		src := files[p]
		g := grammarOf(p)
		grammars[g.name] = true
		crlf := bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))
		for i, e := range edits {
			next := edits[(i+1)%len(edits)]
			checkChain(t, g, p+": "+e.name, src, e.fn(src), next.fn(e.fn(src)))
			checkChain(t, g, p+" (CRLF): "+e.name, crlf, e.fn(crlf))
		}
	}
	if len(grammars) < 20 {
		t.Fatalf("only %d grammars covered: %v", len(grammars), grammars)
	}
	t.Logf("%d files, %d grammars", len(files), len(grammars))
	if dir := os.Getenv("M1ND_KEPT_CORPUS"); dir != "" {
		checkKeptCorpus(t, dir)
	}
}

// checkKeptCorpus runs three chained edits (middle, multi-byte, cut end)
// on every parseable file under dir (M1ND_KEPT_CORPUS).
func checkKeptCorpus(t *testing.T, dir string) {
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		g := grammarOf(p)
		if err != nil || d.IsDir() || g == nil {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil || len(src) == 0 || len(src) > maxParseBytes {
			return nil
		}
		n++
		v1 := edits[2].fn(src)
		v2 := edits[8].fn(v1)
		checkChain(t, g, p, src, v1, v2, edits[6].fn(v2))
		return nil
	})
	t.Logf("%s: %d files", dir, n)
}

// TestEditSpan: the edit's byte offsets and points (rows by '\n' only,
// columns in bytes) for the changes tree-sitter has to be told about.
func TestEditSpan(t *testing.T) {
	p := func(r, c uint32) point { return point{r, c} }
	for _, c := range []struct {
		name, old, new string
		want           edit
	}{
		{"equal", "ab\ncd", "ab\ncd", edit{5, 5, 5, p(1, 2), p(1, 2), p(1, 2)}},
		{"insert at start", "ab", "xab", edit{0, 0, 1, p(0, 0), p(0, 0), p(0, 1)}},
		{"append", "ab\n", "ab\ncd\n", edit{3, 3, 6, p(1, 0), p(1, 0), p(2, 0)}},
		{"delete a line", "a\nbb\nc\n", "a\nc\n", edit{2, 5, 2, p(1, 0), p(2, 0), p(1, 0)}},
		{"repeated text", "aaaa", "aaaaaa", edit{4, 4, 6, p(0, 4), p(0, 4), p(0, 6)}},
		{"CRLF: a CR is a column", "a\r\nb\r\n", "a\r\nbX\r\n", edit{4, 4, 5, p(1, 1), p(1, 1), p(1, 2)}},
		{"to CRLF", "a\nb\n", "a\r\nb\r\n", edit{1, 3, 5, p(0, 1), p(1, 1), p(1, 2)}},
		// é is C3 A9, è is C3 A8: the edit starts at the character.
		{"multi-byte: shared lead byte", "x é y", "x è y", edit{2, 4, 4, p(0, 2), p(0, 4), p(0, 4)}},
		// 日 E6 97 A5, 旦 E6 97 A6; the suffix shares the following bytes.
		{"multi-byte columns in bytes", "日\n日x", "日\n旦x", edit{4, 7, 7, p(1, 0), p(1, 3), p(1, 3)}},
		{"multi-byte: shared trail bytes", "\xc3\xa9", "\xc4\xa9", edit{0, 2, 2, p(0, 0), p(0, 2), p(0, 2)}},
		{"emptied", "ab\nc", "", edit{0, 4, 0, p(0, 0), p(1, 1), p(0, 0)}},
	} {
		if got := editSpan([]byte(c.old), []byte(c.new)); got != c.want {
			t.Errorf("%s: editSpan(%q, %q) = %+v, want %+v", c.name, c.old, c.new, got, c.want)
		}
	}
}

// TestKeeperBounds: the keeper evicts the least recently kept trees past
// its count and byte bounds, frees what it replaces, drops and clears,
// and leaves no tree alive after Clear.
func TestKeeperBounds(t *testing.T) {
	live0 := KeptTrees()
	src := []byte("package p\n\nfunc f() { g() }\n")
	k := NewKeeper(1<<30, 3)
	for _, path := range []string{"a.go", "b.go", "c.go", "d.go", "b.go"} {
		keptFlat(t, k, goGrammar, path, src) // a file keeps a tree from its second parse
		keptFlat(t, k, goGrammar, path, src)
	}
	if n, _ := k.Stats(); n != 3 {
		t.Fatalf("%d trees kept, want 3", n)
	}
	if got := KeptTrees() - live0; got != 3 {
		t.Fatalf("%d trees alive, want 3 (evicted and replaced ones freed)", got)
	}
	// a.go went first (oldest); b.go was kept again, so it is the newest.
	for path, want := range map[string]bool{"a.go": false, "b.go": true, "c.go": true, "d.go": true} {
		if kt := k.take(keepKey{goGrammar, path}); (kt != nil) != want {
			t.Errorf("%s kept: %v, want %v", path, kt != nil, want)
		} else if kt != nil {
			k.put(kt.key, kt.tree, kt.src, 1, 0)
		}
	}
	k.drop(keepKey{goGrammar, "c.go"})
	if n, _ := k.Stats(); n != 2 || KeptTrees()-live0 != 2 {
		t.Fatalf("after drop: %d kept, %d alive, want 2", n, KeptTrees()-live0)
	}
	small := NewKeeper(int64(len(src))+2*treeNodeBytes, 100)
	keptFlat(t, small, goGrammar, "a.go", src)
	keptFlat(t, small, goGrammar, "a.go", src)
	if n, b := small.Stats(); n != 0 || b != 0 {
		t.Errorf("a tree over the byte bound was kept (%d trees, %d bytes)", n, b)
	}
	k.Clear()
	small.Clear()
	if n, b := k.Stats(); n != 0 || b != 0 || KeptTrees() != live0 {
		t.Fatalf("after Clear: %d kept (%d bytes), %d alive", n, b, KeptTrees()-live0)
	}
}

// TestFirstParseKeepsNothing: a file parsed through a Keeper for the first
// time is parsed in an arena and keeps no tree; from its second parse it
// keeps one, and every parse equals a fresh one. The Keeper forgets a file
// parsed once after two generations of other files (seenPerTree×maxTrees
// each), and remembers the files it saw across Clear.
func TestFirstParseKeepsNothing(t *testing.T) {
	live0 := KeptTrees()
	src := []byte("package p\n\nfunc f() { g() }\n")
	k := NewKeeper(1<<30, 2)
	defer k.Clear()
	parsed := func() int { _, _, _, n := arenaStats(); return n }
	for i, c := range []struct {
		path        string
		arena, kept int // parses in an arena, trees kept after
		edit        string
	}{
		{"x.go", 1, 0, ""},
		{"x.go", 0, 1, "\nfunc h() {}\n"},
		{"x.go", 0, 1, "\nfunc h2() {}\n"},
		{"y.go", 1, 1, ""},
	} {
		v := append(slices.Clone(src), c.edit...)
		before := parsed()
		got := keptFlat(t, k, goGrammar, c.path, v)
		if n := parsed() - before; n != c.arena {
			t.Errorf("parse %d (%s): %d parses in an arena, want %d", i, c.path, n, c.arena)
		}
		if d := cmp.Diff(freshFlat(t, goGrammar, v), got, cmpFnode); d != "" {
			t.Fatalf("parse %d (%s) differs from a fresh one:\n%.300s", i, c.path, d)
		}
		if n, _ := k.Stats(); n != c.kept || KeptTrees()-live0 != int64(c.kept) {
			t.Errorf("parse %d (%s): %d trees kept (%d alive), want %d", i, c.path, n, KeptTrees()-live0, c.kept)
		}
	}
	keptFlat(t, k, goGrammar, "z.go", src)
	for i := range 2 * seenPerTree * 2 {
		keptFlat(t, k, goGrammar, fmt.Sprintf("other%d.go", i), src)
	}
	keptFlat(t, k, goGrammar, "z.go", src)
	if n, _ := k.Stats(); n != 1 {
		t.Errorf("z.go parsed again after %d other files: %d trees kept, want 1 (x.go's)", 2*seenPerTree*2, n)
	}
	k.Clear()
	keptFlat(t, k, goGrammar, "z.go", src)
	if n, _ := k.Stats(); n != 1 {
		t.Errorf("z.go parsed a third time after Clear: %d trees kept, want 1", n)
	}
}

// TestRepairKeepsNothing: a file whose tree a repair replaced keeps no
// tree; its next parse starts from nothing and equals a fresh one.
func TestRepairKeepsNothing(t *testing.T) {
	src := []byte("package p\n\nfunc f() *int64 { return new(int64(300)) }\n")
	k := NewKeeper(DefaultKeepBytes, DefaultKeepTrees)
	defer k.Clear()
	clean := []byte("package p\n\nfunc f() int { return 3 }\n")
	if _, err := ExtractFileKept(k, "a.go", clean); err != nil { // seen: its next parse keeps a tree
		t.Fatal(err)
	}
	res, err := ExtractFileKept(k, "a.go", src)
	if err != nil || res == nil {
		t.Fatal(err)
	}
	if n, _ := k.Stats(); n != 0 {
		t.Fatalf("%d trees kept after a repaired parse, want 0", n)
	}
	if _, err := ExtractFileKept(k, "a.go", clean); err != nil {
		t.Fatal(err)
	}
	if n, _ := k.Stats(); n != 1 {
		t.Fatalf("%d trees kept after a clean parse, want 1", n)
	}
}

// TestExtractFileKeptEqualsExtractFile: every test file's result through
// a Keeper, edited twice, equals ExtractFile's.
func TestExtractFileKeptEqualsExtractFile(t *testing.T) {
	k := NewKeeper(DefaultKeepBytes, DefaultKeepTrees)
	defer k.Clear()
	files := testFiles(t)
	for _, p := range slices.Sorted(maps.Keys(files)) {
		rel := filepath.ToSlash(strings.TrimPrefix(p, "testdata/"))
		for _, src := range [][]byte{files[p], edits[2].fn(files[p]), edits[8].fn(edits[2].fn(files[p]))} {
			got, gerr := ExtractFileKept(k, rel, src)
			want, werr := ExtractFile(rel, src)
			if (gerr == nil) != (werr == nil) {
				t.Fatalf("%s: error %v, ExtractFile's %v", rel, gerr, werr)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("%s: kept extraction differs (-fresh +kept):\n%.2000s", rel, d)
			}
		}
	}
	if n, _ := k.Stats(); n < len(files)/2 {
		t.Errorf("only %d of %d files kept", n, len(files))
	}
}

// FuzzKeptParse: random edits to a test file; the kept parse of each
// version equals a fresh parse.
func FuzzKeptParse(f *testing.F) {
	files := testFiles(f)
	paths := slices.Sorted(maps.Keys(files))
	f.Add(uint16(0), uint32(10), uint8(3), "x := 1\n", uint64(1))
	f.Add(uint16(7), uint32(100), uint8(0), "é\r\n日本", uint64(2))
	f.Add(uint16(13), uint32(0), uint8(200), "", uint64(3))
	f.Add(uint16(21), uint32(1<<20), uint8(1), "}}}", uint64(4))
	f.Fuzz(func(t *testing.T, file uint16, at uint32, del uint8, ins string, seed uint64) {
		p := paths[int(file)%len(paths)]
		src := files[p]
		versions := [][]byte{src}
		r := rand.New(rand.NewPCG(seed, uint64(at)))
		for range 3 {
			cur := versions[len(versions)-1]
			i := int(at) % (len(cur) + 1)
			n := min(int(del), len(cur)-i)
			versions = append(versions, splice(cur, i, n, ins))
			at = uint32(r.IntN(len(cur) + 1))
			del = uint8(r.IntN(32))
		}
		checkChain(t, grammarOf(p), p, versions...)
	})
}

// BenchmarkKeptParse parses 64 go-std files (every 131st Go file), each
// with a function appended that alternates between two names, from
// nothing (fresh) and from the trees the previous round kept (kept): the
// parse a daemon tick pays for an agent's 64 working files.
func BenchmarkKeptParse(b *testing.B) {
	corpus, _ := loadCorpus(b, "go-std")
	var files []corpusFile
	for i, f := range corpus {
		if strings.HasSuffix(f.rel, ".go") && i%131 == 0 && len(files) < 64 {
			files = append(files, f)
		}
	}
	versions := func(f corpusFile) [2][]byte {
		return [2][]byte{append(slices.Clone(f.src), "\nfunc M1ndA() {}\n"...), append(slices.Clone(f.src), "\nfunc M1ndBB() {}\n"...)}
	}
	for _, kept := range []bool{false, true} {
		name := map[bool]string{false: "fresh", true: "kept"}[kept]
		b.Run(name, func(b *testing.B) {
			k := NewKeeper(DefaultKeepBytes, DefaultKeepTrees)
			defer k.Clear()
			vs := make([][2][]byte, len(files))
			for i, f := range files {
				vs[i] = versions(f)
				keptFlat(b, k, goGrammar, f.rel, vs[i][0]) // seen
				keptFlat(b, k, goGrammar, f.rel, vs[i][1]) // kept
			}
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				for i, f := range files {
					if kept {
						keptFlat(b, k, goGrammar, f.rel, vs[i][n%2])
					} else if tr, err := goGrammar.parse(vs[i][n%2]); err == nil {
						_ = slices.Clone(tr.n)
						tr.release()
					}
				}
			}
			_, bytes := k.Stats()
			b.ReportMetric(float64(bytes)/1e6, "kept-MB")
		})
	}
}
