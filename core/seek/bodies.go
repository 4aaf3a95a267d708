package seek

import (
	"runtime"
	"slices"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Bodies are the body documents of a tree's files as a build can take
// them instead of reading and tokenising the files (BuildFrom): the last
// index's (Index.Bodies, taken by stamp) and those an ingest cut while it
// read the files (Collector, taken for the graph that ingest made). They
// hold no graph: a caller may keep them after it let go of the index.
type Bodies struct {
	opts  Options // the body options they were cut with
	terms *termIndex
	m     map[string]*fileBody // taken when the file's stamp matches
	// fresh were cut from the bytes the graph's own ingest read: taken
	// without a stamp (the graph's lines come from those bytes).
	fresh map[string]*fileBody
	// meta are the metadata shards of the last build by the hash of
	// their nodes' metadata (metaKey), their documents' nodes counted
	// from the chunk's first: a patch moves node IDs, not the chunks it
	// did not touch (metaChunks).
	meta map[uint64]*shard
}

// termIndex interns the terms of the body documents Bodies keep: a
// document names its terms by these IDs, four bytes each rather than a
// string per file and term. The IDs of one lineage of Bodies (each
// build's taken from the last one's) are shared; IDs only grow.
type termIndex struct {
	mu  sync.Mutex
	tab *strtab
}

// maxIndexTerms bounds a termIndex: past it the next build starts a new
// one (and reads every file again) rather than keep every term ever met.
const maxIndexTerms = 1 << 22

func newTermIndex() *termIndex { return &termIndex{tab: newStrtab(1 << 10)} }

// id interns term.
func (t *termIndex) id(term string) uint32 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tab.intern(term)
}

// view is the terms interned so far, to read with at and len only: a
// string's bytes never change once added, so a view stays valid while
// the index grows.
func (t *termIndex) view() strtab {
	t.mu.Lock()
	defer t.mu.Unlock()
	return *t.tab
}

func (t *termIndex) size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tab.len()
}

// global is the termIndex ID of the worker's interned term wid.
func (t *termTable) global(ix *termIndex, wid uint32) uint32 {
	if t.gidOf != ix {
		t.gidOf, t.gid = ix, t.gid[:0]
	}
	if int(wid) >= len(t.gid) {
		t.gid = append(t.gid, make([]uint32, int(wid)+1-len(t.gid))...)
	}
	if g := t.gid[wid]; g != 0 {
		return g - 1
	}
	g := ix.id(t.strs[wid])
	t.gid[wid] = g + 1
	return g
}

// span names the lines of a body document: start 0 is the file node's
// (every line), else an entity's first and last lines as its provenance
// gives them (last clipped to the file, never before first).
type span struct{ start, end uint32 }

// spanOf is the span of node id's body document in a file of nlines
// lines; false when it has none (a directory, no lines, or lines past the
// file's end).
func spanOf(g *graph.Graph, id graph.NodeID, nlines int) (span, bool) {
	switch g.Type(id) {
	case graph.Directory:
		return span{}, false
	case graph.File:
		return span{}, true
	}
	p := g.Provenance(id)
	return entitySpan(p.LineStart, p.LineEnd, nlines)
}

func entitySpan(first, last uint32, nlines int) (span, bool) {
	if first == 0 || int(first) > nlines {
		return span{}, false
	}
	return span{first, min(max(last, first), uint32(nlines))}, true
}

func cmpSpan(a, b span) int {
	if a.start != b.start {
		return int(a.start) - int(b.start)
	}
	return int(a.end) - int(b.end)
}

// fileBody is one file's body documents, one per span its nodes had
// (sorted, distinct), over the file's vocabulary in termIndex IDs (in
// first-seen order: a shard made of it is the one a read makes).
type fileBody struct {
	stamp   string
	skipped bool // unreadable, binary or too large
	bytes   int64
	nlines  uint32
	vocab   []uint32
	spans   []span
	length  []uint32 // per span: the document's length in terms
	off     []uint32 // per span, +1: its terms[off[k]:off[k+1]] (none: no document)
	// local term IDs: t16 when the vocabulary fits in 16 bits (nearly
	// every file), else t32
	t16 []uint16
	t32 []uint32
	tfs []uint16
}

// shard is the body shard of the file for a graph whose file has these
// nodes; nil when a node's span is not among the file's (read it again).
// Its terms are c's own (read only), not a copy: a document is the
// range of c's terms docLo..docHi, and two nodes with one span share it.
func (c *fileBody) shard(g *graph.Graph, nodes []graph.NodeID) *shard {
	s := &shard{}
	if c.skipped {
		s.filesSkipped = 1
		return s
	}
	s.filesRead, s.bodyBytes = 1, c.bytes
	s.ids, s.t16, s.terms, s.tfs = c.vocab, c.t16, c.t32, c.tfs
	for _, id := range nodes {
		sp, ok := spanOf(g, id, int(c.nlines))
		if !ok {
			continue
		}
		k, found := slices.BinarySearchFunc(c.spans, sp, cmpSpan)
		if !found {
			return nil
		}
		if c.off[k] == c.off[k+1] {
			continue
		}
		s.docNode = append(s.docNode, id)
		s.docField = append(s.docField, Body)
		s.docLen = append(s.docLen, c.length[k])
		s.docLo, s.docHi = append(s.docLo, c.off[k]), append(s.docHi, c.off[k+1])
	}
	return s
}

// newFileBody keeps shard s, the body shard of a file of nlines lines
// whose k-th document is the one of spans[docSpan[k]] (spans sorted and
// distinct; a span without a document has none in s), with its terms in
// ix's IDs by way of the writer's table.
func newFileBody(w *shardWriter, ix *termIndex, stamp string, s *shard, nlines int, spans []span, docSpan []int) *fileBody {
	c := &fileBody{stamp: stamp, bytes: s.bodyBytes, nlines: uint32(nlines), spans: slices.Clone(spans)}
	if s.filesSkipped > 0 {
		c.skipped = true
		return c
	}
	c.vocab = make([]uint32, len(w.wids))
	for i, wid := range w.wids {
		c.vocab[i] = w.terms.global(ix, wid)
	}
	c.length = make([]uint32, len(spans))
	c.off = make([]uint32, len(spans)+1)
	doc := make([]int, len(spans))
	for k := range doc {
		doc[k] = -1
	}
	for d, k := range docSpan {
		doc[k] = d
	}
	n := 0
	for _, d := range doc {
		if d >= 0 {
			n += int(s.docOff[d+1] - s.docOff[d])
		}
	}
	wide := len(w.wids) > 1<<16
	if wide {
		c.t32 = make([]uint32, 0, n)
	} else {
		c.t16 = make([]uint16, 0, n)
	}
	c.tfs = make([]uint16, 0, n)
	for k, d := range doc {
		if d >= 0 {
			ts := s.terms[s.docOff[d]:s.docOff[d+1]]
			if wide {
				c.t32 = append(c.t32, ts...)
			} else {
				for _, t := range ts {
					c.t16 = append(c.t16, uint16(t))
				}
			}
			c.tfs = append(c.tfs, s.tfs[s.docOff[d]:s.docOff[d+1]]...)
			c.length[k] = s.docLen[d]
		}
		c.off[k+1] = uint32(len(c.tfs))
	}
	return c
}

// Collector cuts the body documents of files while an ingest reads them,
// for the first index of the graph that ingest makes (Bodies, handed to
// BuildFrom): the ingest's workers hold each file's bytes, so the index
// reads and tokenises none of them again. Add is safe for concurrent use.
type Collector struct {
	opts  Options
	terms *termIndex
	mu    sync.Mutex
	m     map[string]*fileBody
	// free are the writers no Add uses: kept here, not in a sync.Pool,
	// which an ingest's many collections would empty (and every term and
	// identifier met so far would be tokenised again).
	free []*shardWriter
	// kept are files Add held uncut (KeepUpTo), room the bytes it may
	// still hold (-1 once a file did not fit: kept files are then cut
	// by the Adds that follow).
	kept []keptFile
	room int64
	held int // files ever held
	// cutting is held while Bodies cuts the kept files, so a second
	// Bodies sees them all; behind is CutBehind's goroutine.
	cutting sync.Mutex
	behind  sync.WaitGroup
}

// keptFile is a file Add held uncut.
type keptFile struct {
	p, stamp string
	data     []byte
	ents     []Lines
}

// Lines are an entity's first and last lines (1-based), as the graph's
// provenance will hold them.
type Lines struct{ First, Last uint32 }

// NewCollector collects for an index built with options o (their body
// bounds), after prev, the last index's Bodies (nil: none): documents
// name their terms by the IDs prev's use, so both can be taken.
func NewCollector(o Options, prev *Bodies) *Collector {
	c := &Collector{opts: o, m: map[string]*fileBody{}}
	c.opts.FileStamp, c.opts.ReadFile = nil, nil // no closures kept
	if prev != nil && prev.terms != nil && prev.terms.size() < maxIndexTerms {
		c.terms = prev.terms
	} else {
		c.terms = newTermIndex()
	}
	return c
}

// KeepUpTo lets Add hold files uncut, data and all, while their bytes
// add up to at most n: Bodies cuts them. For a small tree whose index is
// built after the ingest answers, the cut then leaves the answer's path
// (py-335: 0.14× its parse). The first file that does not fit ends it:
// from then on each Add also cuts held files, so a large tree's are cut
// in the ingest's workers as before. Call it before the first Add.
func (c *Collector) KeepUpTo(n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.room = n
}

// Add cuts the body documents of source path p (as the graph will name
// it) from data, its contents: the file node's and those of ents, the
// lines of its entities. stamp is what Options.FileStamp will say of these
// contents ("" when unknown): a later build takes them by it. Add keeps
// nothing of data, unless KeepUpTo allows it: then data must not change
// until Bodies.
func (c *Collector) Add(p, stamp string, data []byte, ents []Lines) {
	if c.hold(keptFile{p, stamp, data, ents}) {
		return
	}
	c.cut(p, stamp, data, ents)
	for k, ok := c.takeKept(); ok; k, ok = c.takeKept() {
		c.cut(k.p, k.stamp, k.data, k.ents)
	}
}

// hold keeps k uncut when it fits in the room left; once one does not,
// none is kept.
func (c *Collector) hold(k keptFile) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.room <= 0 {
		return false
	}
	if int64(len(k.data)) > c.room {
		c.room = -1
		return false
	}
	c.room -= int64(len(k.data))
	c.kept = append(c.kept, k)
	c.held++
	return true
}

// takeKept takes one held file to cut.
func (c *Collector) takeKept() (keptFile, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.kept)
	if n == 0 {
		return keptFile{}, false
	}
	k := c.kept[n-1]
	c.kept[n-1] = keptFile{}
	c.kept = c.kept[:n-1]
	return k, true
}

// Kept is the number of files held uncut (KeepUpTo).
func (c *Collector) Kept() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.kept)
}

// Held is the number of files Add held rather than cut, whether they
// were cut since or not.
func (c *Collector) Held() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.held
}

// CutBehind starts cutting the held files on one goroutine of its own:
// call it when the ingest's parallel work is over, so the cut takes the
// core its serial rest (finalize, the journal's fsync) leaves idle, and
// the build that calls Bodies finds less left to cut.
func (c *Collector) CutBehind() {
	if c.Kept() == 0 {
		return
	}
	c.behind.Go(func() {
		for k, ok := c.takeKept(); ok; k, ok = c.takeKept() {
			c.cut(k.p, k.stamp, k.data, k.ents)
		}
	})
}

// cutKept cuts the held files on up to Options.Parallelism goroutines
// (0: GOMAXPROCS), waits for CutBehind's, then lets go of the writers.
func (c *Collector) cutKept() {
	c.cutting.Lock()
	defer c.cutting.Unlock()
	workers := c.opts.Parallelism
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	for range min(workers, c.Kept()) {
		wg.Go(func() {
			for k, ok := c.takeKept(); ok; k, ok = c.takeKept() {
				c.cut(k.p, k.stamp, k.data, k.ents)
			}
		})
	}
	wg.Wait()
	c.behind.Wait()
	c.Done()
}

// cut cuts one file's body documents (Add without holding).
func (c *Collector) cut(p, stamp string, data []byte, ents []Lines) {
	w := c.writer()
	defer c.putWriter(w)
	s := w.start()
	nlines := 0
	if !c.opts.bodyReadable(data) {
		s.filesSkipped = 1
	} else {
		s.filesRead, s.bodyBytes = 1, int64(len(data))
		b := w.scan(data)
		nlines = b.nlines()
		w.spans = append(w.spans, span{})
		for _, e := range ents {
			if sp, ok := entitySpan(e.First, e.Last, nlines); ok {
				w.spans = append(w.spans, sp)
			}
		}
		slices.SortFunc(w.spans, cmpSpan)
		w.spans = slices.Compact(w.spans)
		for k, sp := range w.spans {
			if w.bodyDoc(&c.opts, &b, sp, graph.NodeID(k)) {
				w.docSpan = append(w.docSpan, sp)
			}
		}
	}
	fb := w.keep(c.terms, stamp, s, nlines)
	c.mu.Lock()
	c.m[p] = fb
	c.mu.Unlock()
}

// writer takes a free writer, or a new one.
func (c *Collector) writer() *shardWriter {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := len(c.free); n > 0 {
		w := c.free[n-1]
		c.free = c.free[:n-1]
		return w
	}
	w := newShardWriter()
	w.terms.maxIdents = collectorIdents
	return w
}

// collectorIdents bounds the identifiers a Collector's writer remembers
// (a quarter of go-std's: the frequent ones are met first).
const collectorIdents = 1 << 16

func (c *Collector) putWriter(w *shardWriter) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.free = append(c.free, w)
}

// Done lets go of the writers (their term tables and memos, tens of MB
// on a large tree): call it when no Add is to come.
func (c *Collector) Done() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, w := range c.free {
		w.terms.maxIdents = 0
		w.release()
	}
	c.free = nil
}

// Bodies are the documents collected, for BuildFrom of the ingest's graph
// (only: they are taken without a stamp); base, the last index's Bodies
// (or nil), serves the files the ingest did not read, by their stamps.
// It cuts the files Add held first (KeepUpTo).
func (c *Collector) Bodies(base *Bodies) *Bodies {
	c.cutKept()
	c.mu.Lock()
	defer c.mu.Unlock()
	b := &Bodies{opts: c.opts, terms: c.terms, fresh: c.m}
	if base != nil && base.terms == c.terms && sameBodyOptions(base.opts, c.opts) {
		b.m, b.meta = base.m, base.meta
	}
	return b
}
