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
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include "tree_sitter/api.h"

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

static size_t m1_off_parent(void) { return offsetof(m1_node, parent); }
static size_t m1_off_kind(void) { return offsetof(m1_node, kind); }

// m1_use_libc_allocator points the tree-sitter runtime at libc directly.
// go-tree-sitter installs allocator hooks that call back into Go for every
// malloc/free (to let programs plug in their own allocator); with the default
// hooks they end in libc anyway, so this changes no ownership rule and only
// removes a C→Go→C round trip per allocation (~15% of parse time measured on
// the Go standard library).
static void m1_use_libc_allocator(void) {
	ts_set_allocator(malloc, calloc, realloc, free);
}
*/
import "C"

import (
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
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
	// ts.Node must be exactly a C TSNode: flatten passes its address to C.
	if unsafe.Sizeof(ts.Node{}) != C.sizeof_TSNode {
		panic("extract: go-tree-sitter Node is not a bare TSNode; check the pinned version")
	}
	C.m1_use_libc_allocator()
}

// flatScratch holds the buffers flatten reuses between files of one worker.
type flatScratch struct {
	nodes []fnode
	last  []int32
	anc   [maxTreeDepth]int32
}

// flatten copies the named nodes of tree into s.nodes and returns them with
// the number of syntax errors and depth-cut subtrees.
func (s *flatScratch) flatten(tree *ts.Tree, named []uint8) (nodes []fnode, errors, dropped int) {
	root := tree.RootNode()
	if root == nil {
		return nil, 0, 0
	}
	n := int(C.ts_node_descendant_count(*(*C.TSNode)(unsafe.Pointer(root))))
	if n <= 0 {
		return nil, 0, 0
	}
	if cap(s.nodes) < n {
		s.nodes = make([]fnode, n)
		s.last = make([]int32, n)
	}
	var errs, cut C.uint32_t
	got := C.m1_flatten((*C.TSNode)(unsafe.Pointer(root)),
		(*C.m1_node)(unsafe.Pointer(&s.nodes[0])), C.uint32_t(n),
		(*C.uint8_t)(unsafe.Pointer(&named[0])), C.uint32_t(len(named)),
		(*C.int32_t)(unsafe.Pointer(&s.anc[0])), (*C.int32_t)(unsafe.Pointer(&s.last[0])),
		C.uint32_t(maxTreeDepth), &errs, &cut)
	return s.nodes[:int(got)], int(errs), int(cut)
}
