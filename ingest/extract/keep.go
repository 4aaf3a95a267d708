package extract

// Kept trees: a file that an agent edits is parsed again at every tick,
// and parsing is most of a tick that touches many files. A Keeper holds the
// tree-sitter tree of each file a patch parsed, with the source it was
// parsed from; the next parse of that file tells the old tree which bytes
// changed (tree-sitter's edit API) and tree-sitter reuses every subtree the
// change did not touch. The flat nodes are then the same as a parse from
// nothing (TestKeptParseEqualsFresh, FuzzKeptParse). A full ingest keeps
// nothing: go-std's trees would take gigabytes.
//
// A file parsed through a Keeper for the first time keeps no tree: most
// files a burst of ticks touches are touched once (a branch switch, a
// rewrite across a tree), and keeping their trees costs a libc parse
// instead of an arena one, a copy of the source and the eviction of other
// trees, all inside the tick. The Keeper remembers which files it saw; a
// file parsed again is one an agent works on, and keeps its tree from then.

import (
	"bytes"
	"container/list"
	"sync"
	"sync/atomic"
)

// Default bounds of a Keeper. A go-std file's tree costs 0.2–0.5 MB on
// average (treeNodeBytes a named node), so 32 MB holds the trees of the
// files an agent works on (64 go-std files: 14 MB); the trees
// are C memory on top of the server's peak (BenchmarkDaemonTickEdit:
// 64 MB kept raised it by about as much, and bought no more than 32).
// The count bounds trees of small files.
const (
	DefaultKeepBytes = 32 << 20
	DefaultKeepTrees = 256
)

// treeNodeBytes estimates the C memory of a tree per named node (its
// subtrees, hidden nodes and children arrays, with malloc's overhead):
// 3,000 go-std files' trees held 147–156 bytes of RSS a named node.
const treeNodeBytes = 150

// Keeper holds tree-sitter trees of files by (grammar, path), least
// recently kept evicted first, bounded in estimated bytes and in count.
// It is safe for concurrent use: a parse takes a file's tree out while it
// reparses from it, so no two parses share a tree. Clear frees every tree.
type Keeper struct {
	maxBytes int64
	maxTrees int

	mu    sync.Mutex
	byKey map[keepKey]*list.Element // value *kept
	lru   list.List                 // front: most recently kept
	bytes int64
	// seen holds the files parsed through the Keeper lately, in two
	// generations of at most seenPerTree×maxTrees keys each: when seen
	// fills, it becomes seenOld and the oldest generation is forgotten.
	seen, seenOld map[keepKey]struct{}
}

// seenPerTree sizes the memory of files parsed once (a generation of it)
// as a multiple of the trees kept: four times the working set an agent
// keeps, so a file edited again within a few bursts is recognised.
const seenPerTree = 4

type keepKey struct {
	g    *grammar
	path string
}

// kept is one file's tree and the exact bytes it was parsed from.
type kept struct {
	key  keepKey
	tree ctree
	src  []byte
	size int64
	// errors counts the ERROR and MISSING nodes of the tree.
	errors int
}

// NewKeeper returns an empty Keeper holding at most maxBytes (estimated)
// and maxTrees trees.
func NewKeeper(maxBytes int64, maxTrees int) *Keeper {
	return &Keeper{maxBytes: maxBytes, maxTrees: maxTrees, byKey: map[keepKey]*list.Element{}, seen: map[keepKey]struct{}{}}
}

// again reports whether key was parsed through k before (and not
// forgotten since), and remembers it as parsed now.
func (k *Keeper) again(key keepKey) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, ok := k.seen[key]; ok {
		return true
	}
	_, ok := k.seenOld[key]
	if len(k.seen) >= seenPerTree*max(k.maxTrees, 1) {
		k.seenOld, k.seen = k.seen, map[keepKey]struct{}{}
	}
	k.seen[key] = struct{}{}
	return ok
}

// liveTrees counts the trees kept by every Keeper or being reparsed from.
var liveTrees atomic.Int64

// KeptTrees returns how many tree-sitter trees are kept by all Keepers
// (and taken out by parses running now): zero once every Keeper is cleared.
func KeptTrees() int64 { return liveTrees.Load() }

func treeDeleted() { liveTrees.Add(-1) }

// Stats returns the number of trees kept and their estimated bytes.
func (k *Keeper) Stats() (trees int, bytes int64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.byKey), k.bytes
}

// take removes key's tree and returns it, or nil.
func (k *Keeper) take(key keepKey) *kept {
	k.mu.Lock()
	defer k.mu.Unlock()
	e, ok := k.byKey[key]
	if !ok {
		return nil
	}
	return k.remove(e)
}

func (k *Keeper) remove(e *list.Element) *kept {
	kt := k.lru.Remove(e).(*kept)
	delete(k.byKey, kt.key)
	k.bytes -= kt.size
	return kt
}

// put keeps t, the tree of src (copied), for key, replacing what was
// kept for it, and evicts the least recently kept trees past the bounds.
func (k *Keeper) put(key keepKey, t ctree, src []byte, nodes, errs int) {
	kt := &kept{key: key, tree: t, src: bytes.Clone(src), size: int64(len(src)) + int64(nodes)*treeNodeBytes, errors: errs}
	var freed []*kept
	k.mu.Lock()
	if e, ok := k.byKey[key]; ok {
		freed = append(freed, k.remove(e))
	}
	k.byKey[key] = k.lru.PushFront(kt)
	k.bytes += kt.size
	for len(k.byKey) > 0 && (k.bytes > k.maxBytes || len(k.byKey) > k.maxTrees) {
		freed = append(freed, k.remove(k.lru.Back()))
	}
	k.mu.Unlock()
	for _, f := range freed {
		deleteTree(f.tree)
	}
}

// drop frees key's tree, if kept.
func (k *Keeper) drop(key keepKey) {
	if kt := k.take(key); kt != nil {
		deleteTree(kt.tree)
	}
}

// Clear frees every kept tree (a graph replaced whole, a session closed).
// The Keeper stays usable and still knows the files it saw: a file an
// agent edited before a full ingest is as likely to be edited after it.
func (k *Keeper) Clear() {
	if k == nil {
		return
	}
	k.mu.Lock()
	var freed []*kept
	for k.lru.Len() > 0 {
		freed = append(freed, k.remove(k.lru.Back()))
	}
	k.mu.Unlock()
	for _, f := range freed {
		deleteTree(f.tree)
	}
}

// keepReq asks the parse of one source buffer to start from, and keep,
// the file's tree in k.
type keepReq struct {
	k    *Keeper
	path string
	n    int
}

// keepReqs maps a source buffer's first byte to its keepReq while
// ExtractFileKept runs: the extractors call parse with the source alone,
// and the buffer (alive and unique during the call) names the file.
// Repairs and macro blanking parse copies, which are neither taken from
// nor kept.
var (
	keepReqs sync.Map // *byte → *keepReq
	keepReqN atomic.Int32
)

// ExtractFileKept is ExtractFile for a file an incremental ingest parses
// again: the parse starts from the tree k kept for relPath and keeps the
// new one there. The result equals ExtractFile's.
func ExtractFileKept(k *Keeper, relPath string, src []byte) (*Result, error) {
	if k == nil || len(src) == 0 || len(src) > maxParseBytes {
		return ExtractFile(relPath, src)
	}
	var res *Result
	var err error
	withKeep(k, relPath, src, func() { res, err = ExtractFile(relPath, src) })
	return res, err
}

// withKeep runs fn with src registered as relPath's source in k.
func withKeep(k *Keeper, relPath string, src []byte, fn func()) {
	at := &src[0]
	keepReqs.Store(at, &keepReq{k: k, path: relPath, n: len(src)})
	keepReqN.Add(1)
	defer func() {
		keepReqs.Delete(at)
		keepReqN.Add(-1)
	}()
	fn()
}

// keepRequest returns the keepReq registered for src, or nil.
func keepRequest(src []byte) *keepReq {
	if keepReqN.Load() == 0 || len(src) == 0 {
		return nil
	}
	v, ok := keepReqs.Load(&src[0])
	if !ok || v.(*keepReq).n != len(src) {
		return nil
	}
	return v.(*keepReq)
}

// parseKept parses src, the file req names, on w: from the tree kept for
// it, if any, and keeps the new tree in its place. A file req.k has not
// seen before is parsed as if no Keeper asked (in an arena) and keeps
// nothing.
func (g *grammar) parseKept(w *worker, src []byte, req *keepReq) (nodes []fnode, errs, cut int, ok bool) {
	key := keepKey{g, req.path}
	old := req.k.take(key)
	if old == nil && !req.k.again(key) {
		return w.parseFlat(src, g.named)
	}
	if old != nil && old.errors > 0 {
		// Error recovery is not local: from a kept tree it may settle on
		// another reading than a parse from nothing (a Kotlin file cut in
		// the middle), so a tree with errors is no base, and a tree that
		// comes out with errors is read again from nothing.
		deleteTree(old.tree)
		old = nil
	}
	nodes, errs, cut, tr, ok := w.parseFlatFrom(src, g.named, old, true)
	if ok && old != nil && errs > 0 {
		if tr != nil {
			freeTree(tr)
		}
		nodes, errs, cut, tr, ok = w.parseFlatFrom(src, g.named, nil, true)
	}
	if tr != nil {
		liveTrees.Add(1)
		req.k.put(key, tr, src, len(nodes), errs)
	}
	return nodes, errs, cut, ok
}

// point is a tree-sitter position: rows count '\n' only (a '\r' is a
// column), columns count bytes.
type point struct{ row, col uint32 }

func pointAt(src []byte, off int) point {
	head := src[:off]
	return point{uint32(bytes.Count(head, []byte{'\n'})), uint32(off - (bytes.LastIndexByte(head, '\n') + 1))}
}

// edit is the change from one source to the next: bytes [start, oldEnd)
// of the old became [start, newEnd) of the new.
type edit struct {
	start, oldEnd, newEnd       int
	startPt, oldEndPt, newEndPt point
}

// editSpan returns the edit between old and src: everything between
// their common prefix and their common suffix (not overlapping it),
// both ends moved out to whole UTF-8 characters.
func editSpan(old, src []byte) edit {
	n := min(len(old), len(src))
	p := 0
	for p < n && old[p] == src[p] {
		p++
	}
	for p > 0 && (isUTF8Cont(old, p) || isUTF8Cont(src, p)) {
		p--
	}
	q := 0
	for q < n-p && old[len(old)-1-q] == src[len(src)-1-q] {
		q++
	}
	for q > 0 && (isUTF8Cont(old, len(old)-q) || isUTF8Cont(src, len(src)-q)) {
		q--
	}
	e := edit{start: p, oldEnd: len(old) - q, newEnd: len(src) - q}
	e.startPt = pointAt(src, e.start)
	e.oldEndPt = pointAt(old, e.oldEnd)
	e.newEndPt = pointAt(src, e.newEnd)
	return e
}

// isUTF8Cont reports whether b[i] continues a multi-byte character.
func isUTF8Cont(b []byte, i int) bool { return i < len(b) && b[i]&0xC0 == 0x80 }
