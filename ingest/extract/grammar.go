package extract

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// maxParseBytes is the largest file handed to tree-sitter. Bigger files are
// almost always generated or minified (bundles, data tables); they get a file
// node only, which keeps one pathological file from dominating an ingest.
const maxParseBytes = 8 << 20

// errTooLarge marks files above maxParseBytes.
var errTooLarge = errors.New("file too large to parse")

// grammar is one tree-sitter language: its handle, symbol and field lookups,
// and a pool of parsers. Parsers are not safe for concurrent use, so each
// extraction takes one from the pool and gives it back.
type grammar struct {
	name string
	ptr  func() unsafe.Pointer

	once   sync.Once
	lang   *ts.Language
	err    error
	kinds  []string // symbol id → node kind name
	named  []uint8  // symbol id → 1 if named (read by the C flattener)
	byName map[string][]uint16
	// comment marks the symbols that are comments (kinds named "comment",
	// "line_comment", "block_comment", …).
	comment []bool
	pool    sync.Pool
}

func newGrammar(name string, ptr func() unsafe.Pointer) *grammar {
	return &grammar{name: name, ptr: ptr}
}

// worker is a parser bound to one grammar plus the flatten buffers it reuses.
type worker struct {
	parser  cparser
	lang    unsafe.Pointer // the grammar's TSLanguage
	scratch flatScratch
	// cursorWalk flattens with a TSTreeCursor (m1_flatten): the reference
	// the subtree walk is tested against, never set in an ingest.
	cursorWalk bool
}

func (g *grammar) init() error {
	g.once.Do(func() {
		g.lang = ts.NewLanguage(g.ptr())
		n := int(g.lang.NodeKindCount())
		g.kinds = make([]string, n)
		g.named = make([]uint8, n+1) // +1: never empty
		g.byName = make(map[string][]uint16, n)
		g.comment = make([]bool, n)
		for i := 0; i < n; i++ {
			id := uint16(i)
			name := g.lang.NodeKindForId(id)
			g.kinds[i] = name
			if g.lang.NodeKindIsNamed(id) {
				g.named[i] = 1
				g.byName[name] = append(g.byName[name], id)
				g.comment[i] = strings.Contains(name, "comment")
			}
		}
		// Probe once so an ABI mismatch shows up as an error here rather
		// than as a nil tree later.
		p := ts.NewParser()
		defer p.Close()
		if err := p.SetLanguage(g.lang); err != nil {
			g.err = fmt.Errorf("%s grammar: %w", g.name, err)
		}
	})
	return g.err
}

// codes maps each named node kind in names to its 1-based position, giving a
// table indexed by symbol id that extractors switch on without comparing
// strings. Names absent from the grammar are ignored (missingKinds reports
// them in tests).
func (g *grammar) codes(names ...string) []uint8 {
	if len(names) > 255 {
		panic("extract: too many kind names for a code table")
	}
	if err := g.init(); err != nil {
		return nil
	}
	t := make([]uint8, len(g.kinds)+1)
	for i, name := range names {
		for _, id := range g.byName[name] {
			t[id] = uint8(i + 1)
		}
	}
	return t
}

// missingKinds returns the names that are not named node kinds of g.
func (g *grammar) missingKinds(names ...string) []string {
	if g.init() != nil {
		return names
	}
	var out []string
	for _, n := range names {
		if len(g.byName[n]) == 0 {
			out = append(out, n)
		}
	}
	return out
}

// field returns the id of a field name, 0 when the grammar has no such field.
func (g *grammar) field(name string) uint16 {
	if g.init() != nil {
		return 0
	}
	return g.lang.FieldIdForName(name)
}

// kindName returns the node kind name of a symbol id (for tests and errors).
func (g *grammar) kindName(id uint16) string {
	if int(id) < len(g.kinds) {
		return g.kinds[id]
	}
	if id == 0xFFFF {
		return "ERROR"
	}
	return fmt.Sprintf("kind(%d)", id)
}

func (g *grammar) get() (*worker, error) {
	if err := g.init(); err != nil {
		return nil, err
	}
	if w, ok := g.pool.Get().(*worker); ok {
		return w, nil
	}
	p, err := newParser(g.ptr())
	if err != nil {
		return nil, fmt.Errorf("%s grammar: %w", g.name, err)
	}
	w := &worker{parser: p, lang: g.ptr()}
	// sync.Pool may drop idle workers at any GC; the cleanup frees the C
	// parser when that happens.
	runtime.AddCleanup(w, deleteParser, p)
	return w, nil
}

// bigScratch is the node-buffer size above which a worker does not keep its
// buffers when returned to the pool, so one huge file does not pin memory.
// 64 K nodes (2 MB) covers all but the few hundred-kilobyte files, whose
// parse costs far more than allocating their buffer afresh.
const bigScratch = 1 << 16

func (g *grammar) put(w *worker) {
	if cap(w.scratch.nodes) > bigScratch {
		w.scratch.nodes, w.scratch.last = nil, nil
	}
	g.pool.Put(w)
}

// tree is a parsed file in flat form. It borrows the worker's buffers and is
// valid until release is called.
type tree struct {
	g      *grammar
	n      []fnode
	src    []byte
	errors int // ERROR and MISSING nodes
	cut    int // subtrees dropped by the depth limit
	w      *worker
	// keep is the Keeper holding this parse's tree-sitter tree, nil if none.
	keep *keepReq
}

// parse parses src and flattens the result. The tree-sitter tree is closed
// before parse returns (the flat copy is all the extractors need), unless
// src is a file ExtractFileKept extracts: its parse then starts from the
// tree kept for the file and keeps the new one.
func (g *grammar) parse(src []byte) (*tree, error) {
	if len(src) > maxParseBytes {
		return nil, errTooLarge
	}
	w, err := g.get()
	if err != nil {
		return nil, err
	}
	var nodes []fnode
	var errs, cut int
	var ok bool
	req := keepRequest(src)
	if req != nil {
		nodes, errs, cut, ok = g.parseKept(w, src, req)
	} else {
		nodes, errs, cut, ok = w.parseFlat(src, g.named)
	}
	if !ok {
		// The parser only returns nil when cancelled or without a language;
		// parseFlat reset it so the next file starts clean.
		g.put(w)
		return nil, fmt.Errorf("%s: parser returned no tree", g.name)
	}
	return &tree{g: g, n: nodes, src: src, errors: errs, cut: cut, w: w, keep: req}, nil
}

// unkeep frees the tree kept for t's file: a repair replaced t.
func (t *tree) unkeep() {
	if t.keep != nil {
		t.keep.k.drop(keepKey{t.g, t.keep.path})
		t.keep = nil
	}
}

// release returns the worker (and with it the node buffer) to the pool.
func (t *tree) release() {
	if t.w != nil {
		t.g.put(t.w)
		t.w = nil
		t.n = nil
	}
}

// first returns the first kept child of i, or -1.
func (t *tree) first(i int32) int32 {
	if j := i + 1; int(j) < len(t.n) && t.n[j].parent == i {
		return j
	}
	return -1
}

// child returns the first child of i in field f, or -1.
func (t *tree) child(i int32, f uint16) int32 {
	if f == 0 {
		return -1
	}
	for c := t.first(i); c >= 0; c = t.n[c].next {
		if t.n[c].field == f {
			return c
		}
	}
	return -1
}

// childKind returns the first child of i whose code in codes is want, or -1.
func (t *tree) childKind(i int32, codes []uint8, want uint8) int32 {
	for c := t.first(i); c >= 0; c = t.n[c].next {
		if code(codes, t.n[c].kind) == want {
			return c
		}
	}
	return -1
}

// text returns the source text of node i.
func (t *tree) text(i int32) string {
	if i < 0 {
		return ""
	}
	n := &t.n[i]
	if n.end > uint32(len(t.src)) || n.start > n.end {
		return ""
	}
	return string(t.src[n.start:n.end])
}

// bytes returns the source bytes of node i without copying.
func (t *tree) bytes(i int32) []byte {
	if i < 0 {
		return nil
	}
	n := &t.n[i]
	if n.end > uint32(len(t.src)) || n.start > n.end {
		return nil
	}
	return t.src[n.start:n.end]
}

// line and endLine are 1-based.
func (t *tree) line(i int32) uint32 { return t.n[i].row + 1 }
func (t *tree) endLine(i int32) uint32 {
	n := &t.n[i]
	// A node whose text ends with its newline (preprocessor lines, YAML
	// blocks, make rules) ends on the previous line, not at column 0 of
	// the next.
	if n.endRow > n.row && n.end > n.start && int(n.end) <= len(t.src) && t.src[n.end-1] == '\n' {
		return n.endRow
	}
	return n.endRow + 1
}

// code looks a symbol up in a code table; unknown symbols (including ERROR,
// 0xFFFF) map to 0.
func code(codes []uint8, kind uint16) uint8 {
	if int(kind) < len(codes) {
		return codes[kind]
	}
	return 0
}

// end returns the index just past the subtree of i: the descendants of i
// are exactly the nodes i+1 … end-1 (the array is in pre-order).
func (t *tree) end(i int32) int32 {
	for j := i; j >= 0; j = t.n[j].parent {
		if nx := t.n[j].next; nx >= 0 {
			return nx
		}
	}
	return int32(len(t.n))
}

// lastChild returns the last kept child of i, or -1.
func (t *tree) lastChild(i int32) int32 {
	c := t.first(i)
	if c < 0 {
		return -1
	}
	for t.n[c].next >= 0 {
		c = t.n[c].next
	}
	return c
}

// kindIsComment reports whether node i is a comment.
func (t *tree) kindIsComment(i int32) bool {
	k := int(t.n[i].kind)
	return k < len(t.g.comment) && t.g.comment[k]
}

// typeNames is the walk every typed language's typeRefs shares: under ty,
// each plain type identifier goes to plain unless it is part of a
// qualified one, and each qualified one goes to qual once, whole.
func (t *tree) typeNames(ty int32, codes []uint8, ident, qualified uint8, plain, qual func(j int32)) {
	if ty < 0 {
		return
	}
	end := t.end(ty)
	for j := ty; j < end; j++ {
		switch code(codes, t.n[j].kind) {
		case ident:
			if p := t.n[j].parent; p >= 0 && code(codes, t.n[p].kind) == qualified {
				continue
			}
			plain(j)
		case qualified:
			qual(j)
			j = t.end(j) - 1
		}
	}
}
