package extract

// The tree-sitter Go bindings expose one cgo call per node operation, and a
// Go-side walk of every node costs about as much again as parsing itself
// (measured on the Go standard library: 8.2 s parse, +7.5 s to visit every
// node through the binding with 2 workers). The design target is extraction
// at ≤1.5× the bare parse, so the tree is copied into Go memory by one C call
// per file: flatten keeps every named node as a fixed-size record (kind,
// field, byte and row span, parent, next sibling) and the extractors work on
// that array with no further cgo traffic.

/*
#cgo CFLAGS: -I${SRCDIR}/include -std=c11
// mmap's MAP_ANONYMOUS (arena.h) is outside strict C11.
#define _DEFAULT_SOURCE
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include "tree_sitter/api.h"
#include "ts_internal/tree.h"
#include "ts_internal/language.h"
#include "arena.h"

typedef struct {
	uint32_t start, end;
	uint32_t row, end_row;
	int32_t parent, next;
	uint16_t kind, field;
} m1_node;

// m1_flatten writes the named nodes under root in pre-order. named[sym] says
// whether a symbol is named (precomputed in Go: one table lookup instead of
// two calls per node); nsym is its length. anc needs max_depth slots and last
// needs cap slots. Nodes deeper than max_depth are dropped (their subtree is
// skipped) so that pathological nesting cannot blow up recursion in the Go
// extractors. *errors receives the number of ERROR and MISSING nodes,
// *dropped the number of subtrees cut by the depth limit.
static uint32_t m1_flatten(const TSNode *root, m1_node *out, uint32_t cap,
		const uint8_t *named, uint32_t nsym,
		int32_t *anc, int32_t *last, uint32_t max_depth,
		uint32_t *errors, uint32_t *dropped) {
	TSTreeCursor c = ts_tree_cursor_new(*root);
	uint32_t n = 0, depth = 0, errs = 0, cut = 0;
	int32_t root_last = -1;
	// Error bookkeeping costs two calls per node; clean trees (the vast
	// majority) skip it.
	bool has_error = ts_node_has_error(*root);
	for (;;) {
		TSNode node = ts_tree_cursor_current_node(&c);
		TSSymbol sym = ts_node_symbol(node);
		int32_t parent = depth > 0 ? anc[depth - 1] : -1;
		int32_t self = parent;
		bool is_named;
		if (sym == (TSSymbol)-1) {
			errs++;
			is_named = true;
		} else {
			is_named = sym < nsym && named[sym];
			if (has_error && ts_node_is_missing(node)) {
				errs++;
			}
		}
		if (is_named && n < cap) {
			m1_node *o = &out[n];
			TSPoint sp = ts_node_start_point(node);
			TSPoint ep = ts_node_end_point(node);
			o->start = ts_node_start_byte(node);
			o->end = ts_node_end_byte(node);
			o->row = sp.row;
			o->end_row = ep.row;
			o->parent = parent;
			o->next = -1;
			o->kind = sym;
			o->field = ts_tree_cursor_current_field_id(&c);
			int32_t *lp = parent >= 0 ? &last[parent] : &root_last;
			if (*lp >= 0) {
				out[*lp].next = (int32_t)n;
			}
			*lp = (int32_t)n;
			last[n] = -1;
			self = (int32_t)n;
			n++;
		}
		anc[depth] = self;
		if (depth + 1 < max_depth) {
			if (ts_tree_cursor_goto_first_child(&c)) {
				depth++;
				continue;
			}
		} else if (ts_node_child_count(node) > 0) {
			cut++;
		}
		for (;;) {
			if (depth == 0) {
				goto done;
			}
			if (ts_tree_cursor_goto_next_sibling(&c)) {
				break;
			}
			if (!ts_tree_cursor_goto_parent(&c)) {
				goto done;
			}
			depth--;
		}
	}
done:
	ts_tree_cursor_delete(&c);
	*errors = errs;
	*dropped = cut;
	return n;
}

// m1_parse parses src with tree-sitter's string input: the buffer is read
// in place during the call and not kept by the tree. The binding's Parse
// goes through a Go callback that copies the rest of the file twice (into
// a Go string, then a C string) each time the lexer asks for text.
// old, when not NULL, is the edited tree of the file's previous version:
// tree-sitter reuses its unchanged subtrees, and old is deleted here.
// *count receives the root's descendant count (the flatten buffer size).
static TSTree *m1_parse(TSParser *p, TSTree *old, const char *src, uint32_t len, uint32_t *count) {
	TSTree *t = ts_parser_parse_string(p, old, src, len);
	if (old != NULL) {
		ts_tree_delete(old);
	}
	if (t != NULL) {
		*count = ts_node_descendant_count(ts_tree_root_node(t));
	}
	return t;
}

// m1_flatten_tree flattens t's root (see m1_flatten) and deletes t unless
// keep: the flat copy is all the extractors read.
static uint32_t m1_flatten_tree(TSTree *t, bool keep, m1_node *out, uint32_t cap,
		const uint8_t *named, uint32_t nsym,
		int32_t *anc, int32_t *last, uint32_t max_depth,
		uint32_t *errors, uint32_t *dropped) {
	TSNode root = ts_tree_root_node(t);
	uint32_t n = m1_flatten(&root, out, cap, named, nsym, anc, last, max_depth, errors, dropped);
	if (!keep) {
		ts_tree_delete(t);
	}
	return n;
}

// The walk below reads tree-sitter's subtrees directly (internal headers,
// include/ts_internal, pinned with go-tree-sitter's version) instead of
// moving a TSTreeCursor: the cursor re-derives a node's alias, visibility,
// position and field from its stack at every step (go-std: the cursor's
// moves were a quarter of the parse's CPU again), where one pass over each
// parent's children carries them along. It visits the same visible nodes
// in the same order and yields the same records as m1_flatten
// (TestWalkMatchesCursor checks every node of every test file).

// m1_frame is a parent whose children are being visited.
typedef struct {
	const Subtree *children;
	const TSSymbol *aliases; // the parent's alias sequence, NULL if none
	Length pos;              // position of child i (the cursor's entry position)
	uint32_t count, i, sidx; // children, next child, next structural index
	int32_t kept;            // nearest kept ancestor of the children, -1 none
	uint32_t depth;          // visible depth of the children
	uint16_t prod;           // the parent's production id (field map)
	uint16_t inh;            // field a child without a slot of its own takes (hidden parent)
} m1_frame;

// m1_field is the field of structural child sidx in production prod: the
// first non-inherited entry, as ts_tree_cursor_current_field_id reads it.
static inline uint16_t m1_field(const TSLanguage *l, uint16_t prod, uint32_t sidx) {
	const TSFieldMapEntry *m, *end;
	ts_language_field_map(l, prod, &m, &end);
	for (; m < end; m++) {
		if (!m->inherited && m->child_index == sidx) {
			return m->field_id;
		}
	}
	return 0;
}

typedef struct {
	m1_node *out;
	uint32_t cap, n, nsym, errs;
	const uint8_t *named;
	int32_t *last;
	int32_t root_last;
	bool has_error;
	const TSLanguage *lang;
} m1_sink;

// m1_emit records a visible node as m1_flatten does and returns the index
// its children name as their kept parent.
static inline int32_t m1_emit(m1_sink *k, Subtree s, Length pos, TSSymbol alias,
		uint16_t field, int32_t parent) {
	TSSymbol sym = ts_language_public_symbol(k->lang, alias ? alias : ts_subtree_symbol(s));
	bool is_named;
	if (sym == (TSSymbol)-1) {
		k->errs++;
		is_named = true;
	} else {
		is_named = sym < k->nsym && k->named[sym];
		if (k->has_error && ts_subtree_missing(s)) {
			k->errs++;
		}
	}
	if (!is_named || k->n >= k->cap) {
		return parent;
	}
	Length size = ts_subtree_size(s);
	uint32_t n = k->n;
	m1_node *o = &k->out[n];
	o->start = pos.bytes;
	o->end = pos.bytes + size.bytes;
	o->row = pos.extent.row;
	o->end_row = pos.extent.row + size.extent.row;
	o->parent = parent;
	o->next = -1;
	o->kind = sym;
	o->field = field;
	int32_t *lp = parent >= 0 ? &k->last[parent] : &k->root_last;
	if (*lp >= 0) {
		k->out[*lp].next = (int32_t)n;
	}
	*lp = (int32_t)n;
	k->last[n] = -1;
	k->n++;
	return (int32_t)n;
}

// m1_push opens s's children for the walk; the stack grows on the heap
// past its local frames (hidden nodes nest without a visible depth).
static inline bool m1_push(m1_frame **st, uint32_t *sp, uint32_t *scap, m1_frame *local,
		Subtree s, Length pos, int32_t kept, uint32_t depth, uint16_t inh) {
	if (*sp == *scap) {
		uint32_t ncap = *scap * 2;
		m1_frame *g = malloc(ncap * sizeof(m1_frame));
		if (g == NULL) {
			return false;
		}
		memcpy(g, *st, *sp * sizeof(m1_frame));
		if (*st != local) {
			free(*st);
		}
		*st = g;
		*scap = ncap;
	}
	m1_frame *f = &(*st)[(*sp)++];
	f->children = ts_subtree_children(s);
	f->count = s.ptr->child_count;
	f->prod = s.ptr->production_id;
	f->aliases = NULL;
	f->pos = pos;
	f->i = 0;
	f->sidx = 0;
	f->kept = kept;
	f->depth = depth;
	f->inh = inh;
	return true;
}

#define M1_LOCAL_FRAMES 128

// m1_walk is m1_flatten over the subtrees (same arguments, same result).
static uint32_t m1_walk(const TSTree *t, m1_node *out, uint32_t cap,
		const uint8_t *named, uint32_t nsym, int32_t *last, uint32_t max_depth,
		uint32_t *errors, uint32_t *dropped) {
	const TSLanguage *lang = t->language;
	m1_sink k = {out, cap, 0, nsym, 0, named, last, -1, false, lang};
	Subtree root = t->root;
	k.has_error = ts_subtree_error_cost(root) > 0;
	m1_frame local[M1_LOCAL_FRAMES];
	m1_frame *st = local;
	uint32_t sp = 0, scap = M1_LOCAL_FRAMES, cut = 0;
	Length pos = ts_subtree_padding(root);
	int32_t self = m1_emit(&k, root, pos, 0, 0, -1);
	if (1 < max_depth) {
		if (ts_subtree_child_count(root) > 0) {
			m1_push(&st, &sp, &scap, local, root, pos, self, 1, 0);
			st[sp - 1].aliases = ts_language_alias_sequence(lang, st[sp - 1].prod);
		}
	} else if (ts_subtree_visible_child_count(root) > 0) {
		cut++;
	}
	while (sp > 0) {
		m1_frame *f = &st[sp - 1];
		if (f->i == f->count) {
			sp--;
			continue;
		}
		// Advance as ts_tree_cursor_child_iterator_next does.
		Subtree child = f->children[f->i];
		Length at = f->pos;
		bool extra = ts_subtree_extra(child);
		bool visible = ts_subtree_visible(child);
		TSSymbol alias = 0;
		uint16_t field = 0;
		if (!extra) {
			if (f->aliases) {
				alias = f->aliases[f->sidx];
				visible |= alias != 0;
			}
			field = m1_field(lang, f->prod, f->sidx);
			if (field == 0) {
				field = f->inh;
			}
			f->sidx++;
		}
		f->pos = length_add(at, ts_subtree_size(child));
		f->i++;
		if (f->i < f->count) {
			f->pos = length_add(f->pos, ts_subtree_padding(f->children[f->i]));
		}
		int32_t kept = f->kept;
		uint32_t depth = f->depth;
		if (visible) {
			int32_t me = m1_emit(&k, child, at, alias, field, kept);
			if (depth + 1 < max_depth) {
				if (ts_subtree_child_count(child) > 0) {
					if (!m1_push(&st, &sp, &scap, local, child, at, me, depth + 1, 0)) {
						break;
					}
					st[sp - 1].aliases = ts_language_alias_sequence(lang, st[sp - 1].prod);
				}
			} else if (ts_subtree_visible_child_count(child) > 0) {
				cut++;
			}
		} else if (ts_subtree_visible_child_count(child) > 0) {
			// A hidden node: its children stand in its place; one without
			// a field slot of its own takes the hidden node's.
			if (!m1_push(&st, &sp, &scap, local, child, at, kept, depth, field)) {
				break;
			}
			st[sp - 1].aliases = ts_language_alias_sequence(lang, st[sp - 1].prod);
		}
	}
	if (st != local) {
		free(st);
	}
	*errors = k.errs;
	*dropped = cut;
	return k.n;
}

// m1_walk_tree walks t (m1_walk) and deletes it unless keep.
static uint32_t m1_walk_tree(TSTree *t, bool keep, m1_node *out, uint32_t cap,
		const uint8_t *named, uint32_t nsym, int32_t *last, uint32_t max_depth,
		uint32_t *errors, uint32_t *dropped) {
	uint32_t n = m1_walk(t, out, cap, named, nsym, last, max_depth, errors, dropped);
	if (!keep) {
		ts_tree_delete(t);
	}
	return n;
}

// m1_edit tells t that bytes [start, old_end) of its source became
// [start, new_end), with the rows and columns (in bytes) of those offsets.
static void m1_edit(TSTree *t, uint32_t start, uint32_t old_end, uint32_t new_end,
		uint32_t srow, uint32_t scol, uint32_t orow, uint32_t ocol,
		uint32_t nrow, uint32_t ncol) {
	TSInputEdit e = {start, old_end, new_end, {srow, scol}, {orow, ocol}, {nrow, ncol}};
	ts_tree_edit(t, &e);
}

// m1_arena_parse parses src with a parser of its own made in a: the
// parser, the tree and all the parse allocates live in the arena until
// m1_arena_done. *pp receives the parser.
static TSTree *m1_arena_parse(m1_arena *a, const TSLanguage *lang, const char *src,
		uint32_t len, uint32_t *count, TSParser **pp) {
	m1_cur = a;
	TSParser *p = ts_parser_new();
	TSTree *t = NULL;
	if (ts_parser_set_language(p, lang)) {
		t = ts_parser_parse_string(p, NULL, src, len);
		if (t != NULL) {
			*count = ts_node_descendant_count(ts_tree_root_node(t));
		}
	}
	m1_cur = NULL;
	*pp = p;
	return t;
}

// m1_arena_done deletes p (an external scanner may hold libc memory of its
// own; the arena's frees are no-ops) and takes the arena's memory back:
// the tree p parsed is gone with it.
static void m1_arena_done(m1_arena *a, TSParser *p) {
	m1_cur = a;
	ts_parser_delete(p);
	m1_cur = NULL;
	m1_arena_reset(a);
}

// m1_arena_walk walks t (m1_walk), then ends the arena's file (m1_arena_done).
static uint32_t m1_arena_walk(m1_arena *a, TSParser *p, const TSTree *t, m1_node *out, uint32_t cap,
		const uint8_t *named, uint32_t nsym, int32_t *last, uint32_t max_depth,
		uint32_t *errors, uint32_t *dropped) {
	uint32_t n = m1_walk(t, out, cap, named, nsym, last, max_depth, errors, dropped);
	m1_arena_done(a, p);
	return n;
}

static size_t m1_off_parent(void) { return offsetof(m1_node, parent); }
static size_t m1_off_kind(void) { return offsetof(m1_node, kind); }

// m1_use_libc_allocator points the tree-sitter runtime at libc directly.
// go-tree-sitter installs allocator hooks that call back into Go for every
// malloc/free (to let programs plug in their own allocator); with the default
// hooks they end in libc anyway, so this changes no ownership rule and only
// removes a C→Go→C round trip per allocation (~15% of parse time measured on
// the Go standard library). The hooks installed go to libc except inside an
// arena's calls (arena.h).
static void m1_use_libc_allocator(void) {
	ts_set_allocator(m1_malloc, m1_calloc, m1_realloc, m1_free);
}
*/
import "C"

import (
	"errors"
	"unsafe"
)

// fnode is one named syntax node, copied out of the C tree. Its layout must
// equal m1_node (checked in init).
type fnode struct {
	start, end  uint32 // byte offsets in the source
	row, endRow uint32 // 0-based rows
	parent      int32  // index of the nearest kept ancestor, -1 for the root
	next        int32  // index of the next kept sibling, -1 if none
	kind        uint16 // tree-sitter symbol (public id)
	field       uint16 // field id in the parent, 0 if none
}

// maxTreeDepth bounds the syntax depth kept by flatten. Real code stays far
// below it; fuzzed or generated input (thousands of nested brackets) is cut
// here instead of driving deep recursion in the extractors.
const maxTreeDepth = 512

func init() {
	if unsafe.Sizeof(fnode{}) != C.sizeof_m1_node ||
		unsafe.Offsetof(fnode{}.kind) != uintptr(C.m1_off_kind()) ||
		unsafe.Offsetof(fnode{}.parent) != uintptr(C.m1_off_parent()) {
		panic("extract: fnode layout differs from m1_node")
	}
	C.m1_use_libc_allocator()
}

// flatScratch holds the buffers flatten reuses between files of one worker.
type flatScratch struct {
	nodes []fnode
	last  []int32
	anc   [maxTreeDepth]int32
}

// reserve makes room for a tree of n nodes.
func (s *flatScratch) reserve(n int) {
	if cap(s.nodes) < n {
		s.nodes = make([]fnode, n)
		s.last = make([]int32, n)
	}
}

// cparser is a tree-sitter parser owned by a worker.
type cparser = *C.TSParser

// newParser returns a parser for the TSLanguage at lang, or an error when
// the grammar's ABI does not match the runtime's.
func newParser(lang unsafe.Pointer) (cparser, error) {
	p := C.ts_parser_new()
	if !C.ts_parser_set_language(p, (*C.TSLanguage)(lang)) {
		C.ts_parser_delete(p)
		return nil, errors.New("grammar ABI version not supported by the tree-sitter runtime")
	}
	return p, nil
}

func deleteParser(p cparser) { C.ts_parser_delete(p) }

// parseFlat parses src with w's parser and flattens the tree into w's
// scratch buffers; the C tree is freed before it returns. ok is false when
// the parser returned no tree (it has then been reset).
func (w *worker) parseFlat(src []byte, named []uint8) (nodes []fnode, errs, cut int, ok bool) {
	nodes, errs, cut, _, ok = w.parseFlatFrom(src, named, nil, false)
	return nodes, errs, cut, ok
}

// parseFlatFrom is parseFlat starting from old, the previous version's
// tree with its source (nil: a parse from nothing), which it consumes.
// With keep the new tree is returned instead of freed.
func (w *worker) parseFlatFrom(src []byte, named []uint8, old *kept, keep bool) (nodes []fnode, errs, cut int, tr ctree, ok bool) {
	if old == nil && !keep && !w.cursorWalk {
		nodes, errs, cut, ok = w.parseArena(src, named)
		return nodes, errs, cut, nil, ok
	}
	var count C.uint32_t
	var prev ctree
	if old != nil {
		prev = old.tree
		editTree(prev, old.src, src)
	}
	tr = C.m1_parse(w.parser, prev, srcPtr(src), C.uint32_t(len(src)), &count)
	if old != nil {
		treeDeleted()
	}
	if tr == nil {
		C.ts_parser_reset(w.parser)
		return nil, 0, 0, nil, false
	}
	s := &w.scratch
	n := int(count)
	if n <= 0 {
		C.ts_tree_delete(tr)
		return nil, 0, 0, nil, true
	}
	s.reserve(n)
	var e, c C.uint32_t
	var got C.uint32_t
	if w.cursorWalk {
		got = C.m1_flatten_tree(tr, C.bool(keep), (*C.m1_node)(unsafe.Pointer(&s.nodes[0])), C.uint32_t(n),
			(*C.uint8_t)(unsafe.Pointer(&named[0])), C.uint32_t(len(named)),
			(*C.int32_t)(unsafe.Pointer(&s.anc[0])), (*C.int32_t)(unsafe.Pointer(&s.last[0])),
			C.uint32_t(maxTreeDepth), &e, &c)
	} else {
		got = C.m1_walk_tree(tr, C.bool(keep), (*C.m1_node)(unsafe.Pointer(&s.nodes[0])), C.uint32_t(n),
			(*C.uint8_t)(unsafe.Pointer(&named[0])), C.uint32_t(len(named)),
			(*C.int32_t)(unsafe.Pointer(&s.last[0])), C.uint32_t(maxTreeDepth), &e, &c)
	}
	if !keep {
		tr = nil
	}
	return s.nodes[:int(got)], int(e), int(c), tr, true
}

// parseArena is parseFlat for a tree nobody keeps: the parse runs in an
// arena (arena.h), whose memory is taken back in one piece after the walk
// instead of subtree by subtree.
func (w *worker) parseArena(src []byte, named []uint8) (nodes []fnode, errs, cut int, ok bool) {
	a := takeArena()
	defer giveArena(a)
	var count C.uint32_t
	var p *C.TSParser
	tr := C.m1_arena_parse(a, (*C.TSLanguage)(w.lang), srcPtr(src), C.uint32_t(len(src)), &count, &p)
	n := int(count)
	if tr == nil || n <= 0 {
		C.m1_arena_done(a, p)
		return nil, 0, 0, tr != nil
	}
	s := &w.scratch
	s.reserve(n)
	var e, c C.uint32_t
	got := C.m1_arena_walk(a, p, tr, (*C.m1_node)(unsafe.Pointer(&s.nodes[0])), C.uint32_t(n),
		(*C.uint8_t)(unsafe.Pointer(&named[0])), C.uint32_t(len(named)),
		(*C.int32_t)(unsafe.Pointer(&s.last[0])), C.uint32_t(maxTreeDepth), &e, &c)
	return s.nodes[:int(got)], int(e), int(c), true
}

// ctree is a tree-sitter tree (kept between parses of a file).
type ctree = *C.TSTree

// deleteTree frees a kept tree.
func deleteTree(t ctree) {
	freeTree(t)
	treeDeleted()
}

// freeTree frees a tree no Keeper counts.
func freeTree(t ctree) { C.ts_tree_delete(t) }

// editTree tells t, the tree of old, that its source is now src: the
// bytes between their common prefix and common suffix changed (editSpan).
func editTree(t ctree, old, src []byte) {
	e := editSpan(old, src)
	C.m1_edit(t, C.uint32_t(e.start), C.uint32_t(e.oldEnd), C.uint32_t(e.newEnd),
		C.uint32_t(e.startPt.row), C.uint32_t(e.startPt.col),
		C.uint32_t(e.oldEndPt.row), C.uint32_t(e.oldEndPt.col),
		C.uint32_t(e.newEndPt.row), C.uint32_t(e.newEndPt.col))
}

// parseOnly parses src and frees the tree: the bare parse that the
// extraction benchmark compares against.
func (w *worker) parseOnly(src []byte) {
	var count C.uint32_t
	if tr := C.m1_parse(w.parser, nil, srcPtr(src), C.uint32_t(len(src)), &count); tr != nil {
		C.ts_tree_delete(tr)
	} else {
		C.ts_parser_reset(w.parser)
	}
}

// srcPtr is src's first byte for C, or an empty C string for no source.
func srcPtr(src []byte) *C.char {
	if len(src) == 0 {
		return emptySrc
	}
	return (*C.char)(unsafe.Pointer(&src[0]))
}

var emptySrc = C.CString("")
