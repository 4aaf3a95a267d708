package seek

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"hash/maphash"
	"math"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/freelist"
)

// Index is the seek index of one finalized graph.
type Index struct {
	g    *graph.Graph
	gen  graph.Generation
	opts Options
	n    int

	// vocab numbers the terms by their global IDs.
	vocab strtab
	// Postings of term t are pnode/psat[off[t]:off[t+1]], in NodeID
	// order. psat is the BM25F saturation tf~/(k1+tf~) of the term in the
	// node's document, scaled to 0..65535; the IDF is applied at query
	// time.
	off   []uint32
	pnode []graph.NodeID
	psat  []uint16

	// fileOf is, per node, the file node with the same source path
	// (NoNode when there is none).
	fileOf []graph.NodeID
	files  map[string]graph.NodeID
	// filePaths are the keys of files, sorted.
	filePaths []string
	// byBase maps a lower-case file name to the source paths that end in
	// it (sorted), for matching stack-trace paths.
	byBase map[string][]string
	// labelKeys/labelNodes are the nodes sorted by a hash of their compact
	// lower-case label, for exact symbol lookups.
	labelSeed  maphash.Seed
	labelKeys  []uint64
	labelNodes []graph.NodeID
	// prRank is each node's PageRank percentile, 0..255.
	prRank []uint8
	// kind holds each node's kind flags (kindTest, ...) for the prior.
	kind []uint8
	// fdf is, per term, how many files carry it (in a node of theirs).
	fdf []uint32
	// names maps terms to the files and directories they name (names.go).
	names nameIndex

	stats BuildStats
	// terms interns the build's terms (its Bodies' when it keeps them):
	// shards name their vocabularies by its IDs. Dropped after the build.
	terms *termIndex
	// pool holds per-search scratch buffers (see scratch) in a free list
	// that survives collections: a sync.Pool's were dropped every few
	// calls in a server that collects that often (issue 29). It keeps one
	// a processor (a search holds one; 5.8 MB each on go-std), and the
	// build puts the first in, so the first seek after an ingest does not
	// allocate and fault in its arrays (≈ 4 ms of its ≈ 10 ms of CPU on
	// go-std, seek-first4.md).
	pool        freelist.List[*scratch]
	scratchMade atomic.Int32 // scratches allocated (tests)
	metaReused  atomic.Int32 // metadata chunks taken from the last build (tests)
	// bodies keeps each file's body documents for the next build of the
	// same tree (BuildFrom; only with Options.FileStamp).
	bodies *Bodies
}

// Bodies returns the index's body documents for the next build (nil when
// it was built without Options.FileStamp).
func (x *Index) Bodies() *Bodies { return x.bodies }

// BuildStats describe a build.
type BuildStats struct {
	Nodes    int `json:"nodes"`
	Terms    int `json:"terms"`
	Postings int `json:"postings"`
	// FilesRead had their bodies indexed; FilesSkipped could not be read,
	// were binary or larger than MaxFileBytes.
	FilesRead    int   `json:"files_read"`
	FilesSkipped int   `json:"files_skipped"`
	BodyBytes    int64 `json:"body_bytes"`
	// FilesReused were neither read nor tokenised: their documents came
	// from the previous index (BuildFrom); they count in FilesRead or
	// FilesSkipped as they did there.
	FilesReused int           `json:"files_reused"`
	Elapsed     time.Duration `json:"elapsed"`
}

// Stats describe how the index was built.
func (x *Index) Stats() BuildStats { return x.stats }

// Graph is the graph the index describes.
func (x *Index) Graph() *graph.Graph { return x.g }

// Generation is the graph generation the index was built for.
func (x *Index) Generation() graph.Generation { return x.gen }

// HasBody reports whether source bodies were indexed.
func (x *Index) HasBody() bool { return x.opts.ReadFile != nil }

// shard is the output of one unit of tokenising work: documents (one field
// of one node each) over a local vocabulary, merged into the global one
// afterwards so workers never share a map.
type shard struct {
	// ids are the shard's vocabulary, local term ID → the build's
	// termIndex ID: merging vocabularies indexes an array by them rather
	// than hashing a string per shard and term.
	ids      []uint32
	docNode  []graph.NodeID
	docField []Field
	docLen   []uint32
	docOff   []uint32 // len(docs)+1
	terms    []uint32 // local term IDs
	tfs      []uint16
	// A shard taken from a fileBody shares its terms: t16 holds them when
	// they fit (else terms), and document d is [docLo[d], docHi[d]).
	t16          []uint16
	docLo, docHi []uint32

	filesRead, filesSkipped int
	bodyBytes               int64
}

// doc is the range of document d's terms and tfs.
func (s *shard) doc(d uint32) (lo, hi uint32) {
	if s.docLo != nil {
		return s.docLo[d], s.docHi[d]
	}
	return s.docOff[d], s.docOff[d+1]
}

// shardWriter builds a shard.
type shardWriter struct {
	s     *shard
	terms *termTable // local IDs by way of the worker's interned terms
	tok   tokenizer
	buf   []byte // text's bytes
	// counting scratch, indexed by local term ID
	cnt     []uint16
	touched []uint32
	// lead marks the open document's terms from its lead doc lines
	// (leadLines): kept first when the document is cut to its limit.
	lead  []bool
	leads []uint32
	order []uint32 // cut's scratch
	// wids are the shard's vocabulary as interned IDs; spans the lines
	// of a body shard's nodes, docSpan those of each document written
	// (docIdx: its index in the sorted spans), for the shard's cache entry.
	wids    []uint32
	spans   []span
	docSpan []span
	docIdx  []int
	// a body's tokens by line (lines), kept for the next file
	toks, lineOff []uint32
	lineStart     []int
}

// maxKeptToks bounds the token buffer a writer keeps between files.
const maxKeptToks = 1 << 20

// newShardWriter starts a shard; release gives its term table back.
func newShardWriter() *shardWriter {
	return &shardWriter{s: &shard{docOff: []uint32{0}}, terms: getTermTable()}
}

// start begins the next shard on the same term table and scratch, and
// returns it (the writer's scratch: finish copies it out).
func (w *shardWriter) start() *shard {
	if w.s == nil {
		w.s = &shard{}
	}
	s := w.s
	s.ids, s.docNode, s.docField, s.docLen = s.ids[:0], s.docNode[:0], s.docField[:0], s.docLen[:0]
	s.docOff, s.terms, s.tfs = append(s.docOff[:0], 0), s.terms[:0], s.tfs[:0]
	s.filesRead, s.filesSkipped, s.bodyBytes = 0, 0, 0
	w.wids, w.spans, w.docSpan = w.wids[:0], w.spans[:0], w.docSpan[:0]
	w.terms.nextShard()
	return s
}

// finish returns the shard written since start in slices of its exact
// size (the writer's scratch grows once per worker, not once per shard),
// its vocabulary in ix's IDs.
func (w *shardWriter) finish(ix *termIndex) *shard {
	s := *w.s
	s.ids = make([]uint32, len(w.wids))
	for i, wid := range w.wids {
		s.ids[i] = w.terms.global(ix, wid)
	}
	s.docNode, s.docField, s.docLen = slices.Clone(s.docNode), slices.Clone(s.docField), slices.Clone(s.docLen)
	s.docOff, s.terms, s.tfs = slices.Clone(s.docOff), slices.Clone(s.terms), slices.Clone(s.tfs)
	return &s
}

func (w *shardWriter) release() {
	putTermTable(w.terms)
	w.terms = nil
}

// id is term's local ID in the shard, given in first-seen order.
func (w *shardWriter) id(term []byte) uint32 {
	return w.local(w.terms.intern(term))
}

// local is the local ID of interned term wid, given in first-seen order.
func (w *shardWriter) local(wid uint32) uint32 {
	t := w.terms
	if t.gen[wid] == t.cur {
		return t.local[wid]
	}
	id := uint32(len(w.wids))
	t.gen[wid], t.local[wid] = t.cur, id
	w.wids = append(w.wids, wid)
	return id
}

// count adds one occurrence of local term id to the open document.
func (w *shardWriter) count(id uint32) {
	if int(id) >= len(w.cnt) {
		w.cnt = append(w.cnt, make([]uint16, int(id)+1-len(w.cnt)+256)...)
	}
	if w.cnt[id] == 0 {
		w.touched = append(w.touched, id)
	}
	if w.cnt[id] < math.MaxUint16 {
		w.cnt[id]++
	}
}

// text counts the terms of text into the open document and returns the
// number of terms.
func (w *shardWriter) text(s string) uint32 {
	var n uint32
	w.buf = append(w.buf[:0], s...) // (a conversion would allocate per call)
	forEachIdent(w.buf, func(id []byte) {
		for _, wid := range w.terms.identTerms(&w.tok, id) {
			w.count(w.local(wid))
			n++
		}
	})
	return n
}

// close emits the open document (keeping the limit most frequent terms
// when limit > 0) and resets the counters.
func (w *shardWriter) close(node graph.NodeID, f Field, length uint32, limit int) {
	if len(w.touched) == 0 {
		return
	}
	if limit > 0 && len(w.touched) > limit {
		w.cut(limit)
	}
	for _, t := range w.leads {
		w.lead[t] = false
	}
	w.leads = w.leads[:0]
	s := w.s
	for _, t := range w.touched {
		s.terms = append(s.terms, t)
		s.tfs = append(s.tfs, w.cnt[t])
		w.cnt[t] = 0
	}
	w.touched = w.touched[:0]
	s.docNode = append(s.docNode, node)
	s.docField = append(s.docField, f)
	s.docLen = append(s.docLen, length)
	s.docOff = append(s.docOff, uint32(len(s.terms)))
}

// Build indexes a finalized graph. With Options.ReadFile set it reads and
// tokenises every file node's source in parallel.
func Build(ctx context.Context, g *graph.Graph, o Options) (*Index, error) {
	return BuildFrom(ctx, g, o, nil)
}

// BuildFrom is Build for a graph that replaced the one prev's index was
// built on (the same tree after an incremental ingest): a file whose
// Options.FileStamp and whose nodes' lines are those prev holds keeps its
// body documents without being read again, which is most of a build. The
// index is the one Build makes. Without FileStamp (or prev) it is Build.
func BuildFrom(ctx context.Context, g *graph.Graph, o Options, prev *Bodies) (*Index, error) {
	start := time.Now()
	if g == nil {
		return nil, errors.New("seek: nil graph")
	}
	if !g.Finalized() {
		return nil, graph.ErrNotFinalized
	}
	if err := o.Validate(); err != nil {
		return nil, err
	}
	workers := o.Parallelism
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	n := g.NumNodes()
	x := &Index{g: g, gen: g.Generation(), opts: o, n: n, files: map[string]graph.NodeID{}, byBase: map[string][]string{}}
	if o.FileStamp == nil || o.ReadFile == nil {
		prev = nil
	} else if prev != nil && !sameBodyOptions(prev.opts, o) {
		prev = nil
	}
	x.terms = newTermIndex()
	if o.FileStamp != nil && o.ReadFile != nil {
		if prev != nil && prev.terms != nil && prev.terms.size() < maxIndexTerms {
			x.terms = prev.terms
		} else {
			prev = nil
		}
		x.bodies = &Bodies{opts: o, terms: x.terms, m: map[string]*fileBody{}, meta: map[uint64]*shard{}}
		x.bodies.opts.FileStamp, x.bodies.opts.ReadFile = nil, nil // no closures kept
	}
	x.indexFiles()
	// The query-time tables (symbol lookup, PageRank priors, kind flags)
	// read the graph only, and the jobs below do not read them: built
	// beside the jobs, which on a restart take most documents as saved
	// and leave a core idle (CPython's library: ≈ 0.3 s of the build).
	var tables sync.WaitGroup
	defer tables.Wait()
	tables.Go(x.indexLabels)
	tables.Go(func() { x.rankPageRank(); x.classify() })

	// Jobs: metadata of node ranges (metaJobs), then one job per source
	// file.
	jobs := x.metaJobs()
	if o.ReadFile != nil {
		for _, p := range x.filePaths {
			jobs = append(jobs, job{path: p})
		}
	}
	shards, bodies, metas, err := x.runJobs(ctx, jobs, workers, prev)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, s := range shards {
		x.stats.FilesRead += s.filesRead
		x.stats.FilesSkipped += s.filesSkipped
		x.stats.BodyBytes += s.bodyBytes
		if m := metas[i]; m != nil {
			x.bodies.meta[m.key] = m.s
		}
		if c := bodies[i]; c != nil {
			x.bodies.m[jobs[i].path] = c
			if p := jobs[i].path; prev != nil && (prev.m[p] == c || prev.fresh[p] == c) {
				x.stats.FilesReused++
			}
		}
	}
	x.assemble(shards, workers)
	x.countFileDF(workers)
	x.indexNames()
	x.terms = nil
	tables.Wait()
	x.stats.Nodes = n
	x.stats.Terms = x.vocab.len()
	x.stats.Postings = len(x.pnode)
	x.pool.SetKeep(runtime.GOMAXPROCS(0))
	x.pool.Put(x.newScratch())
	x.stats.Elapsed = time.Since(start)
	return x, nil
}

// job is one unit of tokenising work: the metadata of a node range, or
// the body of one source file.
type job struct {
	lo, hi int    // node range (metadata jobs)
	path   string // source file (body jobs)
}

// runJobs tokenises every job into its shard. Each of the workers keeps
// one shard writer (and so one term table and identifier memo) for all
// the jobs it takes: a file mostly repeats identifiers the worker met in
// earlier files. Which worker takes a job does not change its shard.
func (x *Index) runJobs(ctx context.Context, jobs []job, workers int, prev *Bodies) ([]*shard, []*fileBody, []*metaEntry, error) {
	shards := make([]*shard, len(jobs))
	bodies := make([]*fileBody, len(jobs))
	metas := make([]*metaEntry, len(jobs))
	var next atomic.Int64
	eg, ectx := errgroup.WithContext(ctx)
	for range min(workers, len(jobs)) {
		eg.Go(func() error {
			w := newShardWriter()
			defer w.release()
			for i := int(next.Add(1) - 1); i < len(jobs); i = int(next.Add(1) - 1) {
				if err := ectx.Err(); err != nil {
					return err
				}
				switch j := jobs[i]; {
				case j.path == "":
					shards[i], metas[i] = x.reusableMeta(w, j.lo, j.hi, prev)
				case x.opts.FileStamp != nil:
					shards[i], bodies[i] = x.reusableBody(w, j.path, prev)
				default:
					shards[i], _ = x.bodyShard(w, j.path, x.g.NodesByPath(j.path))
				}
			}
			return nil
		})
	}
	if err := eg.Wait(); err != nil {
		return nil, nil, nil, err
	}
	return shards, bodies, metas, ctx.Err()
}

// countFileDF counts the files behind each term's postings: a word all
// forty methods of one class carry is rare among files. Workers take
// ranges of terms of about equal postings.
func (x *Index) countFileDF(workers int) {
	nterms := len(x.off) - 1
	x.fdf = make([]uint32, nterms)
	workers = max(1, workers)
	bounds := make([]int, workers+1)
	for w, t := 1, 0; w < workers; w++ {
		for t < nterms && uint64(x.off[t])*uint64(workers) < uint64(len(x.pnode))*uint64(w) {
			t++
		}
		bounds[w] = t
	}
	bounds[workers] = nterms
	parallel(workers, func(w int) { x.countFileDFRange(bounds[w], bounds[w+1]) })
}

// countFileDFRange counts the file DFs of terms [lo, hi).
func (x *Index) countFileDFRange(lo, hi int) {
	seen := make([]uint32, x.n) // term+1 that last counted a file
	for t := lo; t < hi; t++ {
		for k := x.off[t]; k < x.off[t+1]; k++ {
			f := x.fileOf[x.pnode[k]]
			if f == graph.NoNode {
				f = x.pnode[k]
			}
			if seen[f] != uint32(t+1) {
				seen[f] = uint32(t + 1)
				x.fdf[t]++
			}
		}
	}
}

// indexFiles maps source paths to file nodes and every node to its file.
func (x *Index) indexFiles() {
	g := x.g
	for i := 0; i < x.n; i++ {
		id := graph.NodeID(i)
		if g.Type(id) != graph.File {
			continue
		}
		p := g.SourcePath(id)
		if p == "" {
			continue
		}
		if _, dup := x.files[p]; !dup {
			x.files[p] = id
			base := strings.ToLower(path.Base(p))
			x.byBase[base] = append(x.byBase[base], p)
		}
	}
	for _, ps := range x.byBase {
		slices.Sort(ps)
	}
	x.filePaths = make([]string, 0, len(x.files))
	for p := range x.files {
		x.filePaths = append(x.filePaths, p)
	}
	slices.Sort(x.filePaths)
	x.fileOf = make([]graph.NodeID, x.n)
	for i := range x.fileOf {
		x.fileOf[i] = graph.NoNode
		if p := g.SourcePath(graph.NodeID(i)); p != "" {
			if f, ok := x.files[p]; ok {
				x.fileOf[i] = f
			}
		}
	}
}

// Kind flags of a node, from its file: why a search for code would rather
// not return it.
const (
	kindTest    uint8 = 1 << iota // a test file or an entity in one
	kindNotCode                   // documentation, build, data or markup
	kindFixture                   // under testdata/, fixtures/
	kindDir                       // a directory
	kindStub                      // type declarations of code kept elsewhere (.d.ts, .pyi)
)

// codeExts are extensions of source code, for files ingest did not tag.
var codeExts = map[string]bool{
	".go": true, ".py": true, ".js": true, ".jsx": true, ".mjs": true, ".cjs": true, ".ts": true, ".tsx": true,
	".java": true, ".kt": true, ".scala": true, ".rs": true, ".c": true, ".h": true, ".cc": true, ".cpp": true,
	".hpp": true, ".cs": true, ".rb": true, ".php": true, ".swift": true, ".lua": true, ".sh": true, ".bash": true,
	".ex": true, ".exs": true, ".hs": true, ".ml": true, ".mli": true, ".jl": true, ".zig": true, ".r": true,
	".dart": true, ".m": true, ".sql": true, ".proto": true, ".pyi": true, ".vue": true, ".svelte": true,
}

// classify computes the kind flags of every node (entities take their
// file's).
func (x *Index) classify() {
	g := x.g
	x.kind = make([]uint8, x.n)
	fileKind := func(f graph.NodeID) uint8 {
		var k uint8
		p := g.SourcePath(f)
		low := strings.ToLower(p)
		if g.HasTag(f, "test") || isTestPath(low) {
			k |= kindTest
		}
		notCode := analysis.HasDataTag(g, f)
		if !notCode && !codeExts[path.Ext(low)] && len(g.TagStrs(f)) == 0 {
			notCode = true // untagged and not a known source extension
		}
		if notCode {
			k |= kindNotCode
		}
		if isStubPath(low) {
			k |= kindStub
		}
		if strings.HasPrefix(low, "testdata/") || strings.Contains(low, "/testdata/") || strings.Contains(low, "/fixtures/") || strings.HasPrefix(low, "fixtures/") {
			k |= kindFixture
		}
		return k
	}
	for i := 0; i < x.n; i++ {
		id := graph.NodeID(i)
		switch {
		case g.Type(id) == graph.Directory:
			x.kind[i] = kindDir
		case x.fileOf[i] != graph.NoNode:
			if f := x.fileOf[i]; f == id {
				x.kind[i] = fileKind(id)
			} else if int(f) < i {
				x.kind[i] = x.kind[f]
			} else {
				x.kind[i] = fileKind(f)
			}
		}
	}
}

// isStubPath recognises type-declaration files: they repeat every name
// of the code they describe, so they match whatever it matches.
func isStubPath(low string) bool {
	return strings.HasSuffix(low, ".pyi") || strings.HasSuffix(low, ".d.ts") || strings.HasSuffix(low, ".d.mts") || strings.HasSuffix(low, ".d.cts")
}

// isTestPath recognises test files by the naming conventions of the
// languages ingest reads (for graphs whose files carry no "test" tag).
func isTestPath(low string) bool {
	base := path.Base(low)
	stem := strings.TrimSuffix(base, path.Ext(base))
	switch {
	case strings.HasSuffix(stem, "_test"), strings.HasPrefix(stem, "test_"), strings.HasSuffix(stem, ".test"),
		strings.HasSuffix(stem, ".spec"), strings.HasSuffix(stem, "_spec"), stem == "conftest":
		return true
	}
	for _, seg := range strings.Split(path.Dir(low), "/") {
		if seg == "test" || seg == "tests" || seg == "__tests__" {
			return true
		}
	}
	return false
}

// rankPageRank stores each node's PageRank percentile (ties share the
// lowest rank of their group, so equal PageRanks get equal priors).
func (x *Index) rankPageRank() {
	x.prRank = make([]uint8, x.n)
	if x.n < 2 {
		return
	}
	ord := make([]graph.NodeID, x.n)
	for i := range ord {
		ord[i] = graph.NodeID(i)
	}
	pr := x.g.Nodes().PageRank
	slices.SortFunc(ord, func(a, b graph.NodeID) int {
		if c := cmp.Compare(pr[a], pr[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	first := 0
	for i, n := range ord {
		if i > 0 && pr[n] != pr[ord[i-1]] {
			first = i
		}
		x.prRank[n] = uint8(first * 255 / (x.n - 1))
	}
}

// indexLabels sorts the nodes by the hash of their compact label.
func (x *Index) indexLabels() {
	x.labelSeed = maphash.MakeSeed()
	type kv struct {
		k uint64
		n graph.NodeID
	}
	kvs := make([]kv, 0, x.n)
	for i := 0; i < x.n; i++ {
		id := graph.NodeID(i)
		c := x.labelKey(id)
		if len(c) < 2 {
			continue
		}
		kvs = append(kvs, kv{maphash.String(x.labelSeed, c), id})
	}
	slices.SortFunc(kvs, func(a, b kv) int {
		switch {
		case a.k < b.k:
			return -1
		case a.k > b.k:
			return 1
		}
		return int(a.n) - int(b.n)
	})
	x.labelKeys = make([]uint64, len(kvs))
	x.labelNodes = make([]graph.NodeID, len(kvs))
	for i, e := range kvs {
		x.labelKeys[i], x.labelNodes[i] = e.k, e.n
	}
}

// labelKey is a node's label as symbols are matched: compact, lower-case,
// and for files without the extension ("auth_handler.py" → "authhandler").
func (x *Index) labelKey(id graph.NodeID) string {
	l := x.g.Label(id)
	if x.g.Type(id) == graph.File {
		l = stem(l)
	}
	return compactLower(l)
}

// nodesNamed returns the nodes whose compact label is sym, in NodeID order.
func (x *Index) nodesNamed(sym string) []graph.NodeID {
	k := maphash.String(x.labelSeed, sym)
	i, _ := slices.BinarySearch(x.labelKeys, k)
	var out []graph.NodeID
	for ; i < len(x.labelKeys) && x.labelKeys[i] == k; i++ {
		if n := x.labelNodes[i]; x.labelKey(n) == sym {
			out = append(out, n)
		}
	}
	return out
}

// metaShard tokenises the label, path and excerpt of nodes [lo, hi).
func (x *Index) metaShard(w *shardWriter, lo, hi int) *shard {
	g := x.g
	w.start()
	var lastPath pathDoc
	for i := lo; i < hi; i++ {
		id := graph.NodeID(i)
		typ := g.Type(id)
		label := g.Label(id)
		src := g.SourcePath(id)
		if typ == graph.File {
			label = stem(label)
		}
		if n := w.text(label); n > 0 {
			w.close(id, Label, n, 0)
		}
		if src != "" {
			w.pathDoc(&lastPath, id, src, typ == graph.Directory)
		}
		n := w.qualifiers(g.ExternalID(id), src, label)
		if ex := g.Provenance(id).Excerpt; ex != "" {
			n += w.text(ex)
		}
		if n > 0 {
			w.close(id, Doc, n, 0)
		}
	}
	return w.finish(x.terms)
}

// pathDoc is the last path document a metadata shard wrote: a file's
// entities follow it in NodeID order and share its path, so their path
// documents are copied, not tokenised again (local IDs are the shard's:
// it lives for one shard).
type pathDoc struct {
	src   string
	dir   bool
	n     uint32
	terms []uint32
	tfs   []uint16
}

// pathDoc writes node id's path document, the segments of src (its base
// without the extension unless a directory's).
func (w *shardWriter) pathDoc(last *pathDoc, id graph.NodeID, src string, isDir bool) {
	s := w.s
	if last.n > 0 && last.src == src && last.dir == isDir {
		s.terms = append(s.terms, last.terms...)
		s.tfs = append(s.tfs, last.tfs...)
		s.docNode, s.docField, s.docLen = append(s.docNode, id), append(s.docField, Path), append(s.docLen, last.n)
		s.docOff = append(s.docOff, uint32(len(s.terms)))
		return
	}
	dir, base := path.Split(src)
	if !isDir {
		base = stem(base)
	}
	n := w.text(dir)
	n += w.text(base)
	*last = pathDoc{src: src, dir: isDir, n: n, terms: last.terms[:0], tfs: last.tfs[:0]}
	if n > 0 {
		from := len(s.terms)
		w.close(id, Path, n, 0)
		last.terms = append(last.terms, s.terms[from:]...)
		last.tfs = append(last.tfs, s.tfs[from:]...)
	}
}

// qualifiers counts into the open document the enclosing names an
// external ID carries between its file and its label
// ("file::csr.go::Graph::InRange" → "Graph"), so a method is found by its
// type's name too; it returns their number of terms. (It reads ext in
// place: a string built per node was a tenth of the metadata's cost.)
func (w *shardWriter) qualifiers(ext, src, label string) uint32 {
	rest, ok := strings.CutPrefix(ext, "file::")
	if ok {
		rest, ok = strings.CutPrefix(rest, src)
	}
	if ok {
		rest, ok = strings.CutPrefix(rest, "::")
	}
	if !ok {
		return 0
	}
	var n uint32
	for { // every part but the last, the node's own name
		i := strings.Index(rest, "::")
		if i < 0 {
			return n
		}
		p := rest[:i]
		rest = rest[i+2:]
		switch p {
		case "fn", "class", "method", "struct", "enum", "type", "module", "impl", "ref", label:
			continue
		}
		n += w.text(p)
	}
}

// cut keeps limit of the open document's terms: its lead terms first (up
// to half the limit, first seen first), then the most frequent (among
// equals, first seen first). The lead doc says what an entity is for in a
// few words each used once: by frequency alone a long class kept its
// identifiers and lost its own description (javapoet's NameAllocator,
// "avoid collisions", was not found by those words).
func (w *shardWriter) cut(limit int) {
	order := w.order[:0]
	for _, t := range w.touched {
		if len(order) < limit/2 && w.isLead(t) {
			order = append(order, t)
		}
	}
	kept := len(order)
	for _, t := range w.touched {
		if !(w.isLead(t) && slices.Contains(order[:kept], t)) {
			order = append(order, t)
		}
	}
	slices.SortStableFunc(order[kept:], func(a, b uint32) int { return int(w.cnt[b]) - int(w.cnt[a]) })
	for _, t := range order[limit:] {
		w.cnt[t] = 0
	}
	w.touched, w.order = append(w.touched[:0], order[:limit]...), order
}

func (w *shardWriter) isLead(t uint32) bool { return int(t) < len(w.lead) && w.lead[t] }

// maxDocLines is how far above a declaration its doc comment and
// decorators are looked for.
const maxDocLines = 30

// bodyShard reads one source file and emits the body documents of the
// file node and of every entity defined in it (nodes); the writer's spans
// and docSpan say which lines they cover. It returns the file's lines.
func (x *Index) bodyShard(w *shardWriter, src string, nodes []graph.NodeID) (*shard, int) {
	s := w.start()
	data, err := x.opts.ReadFile(src)
	if err != nil || !x.opts.bodyReadable(data) {
		s.filesSkipped = 1
		return w.finish(x.terms), 0
	}
	s.filesRead = 1
	s.bodyBytes = int64(len(data))
	b := w.scan(data)
	for _, id := range nodes {
		sp, ok := spanOf(x.g, id, b.nlines())
		if !ok {
			continue
		}
		w.spans = append(w.spans, sp)
		if w.bodyDoc(&x.opts, &b, sp, id) {
			w.docSpan = append(w.docSpan, sp)
		}
	}
	return w.finish(x.terms), b.nlines()
}

// bodyReadable reports whether data's body is indexed: not binary, not
// larger than MaxFileBytes.
func (o *Options) bodyReadable(data []byte) bool {
	return !(o.MaxFileBytes > 0 && len(data) > o.MaxFileBytes) && bytes.IndexByte(data[:min(len(data), 8000)], 0) < 0
}

// bodyText is a file tokenised line by line (shardWriter.scan).
type bodyText struct {
	data          []byte
	toks, lineOff []uint32
	lineStart     []int
}

func (b *bodyText) nlines() int { return len(b.lineOff) - 1 }

// line is 0-based line l's bytes.
func (b *bodyText) line(l int) []byte {
	e := len(b.data)
	if l+1 < len(b.lineStart) {
		e = b.lineStart[l+1]
	}
	return b.data[b.lineStart[l]:e]
}

// scan tokenises data (lines).
func (w *shardWriter) scan(data []byte) bodyText {
	toks, lineOff, lineStart := w.lines(data)
	return bodyText{data: data, toks: toks, lineOff: lineOff, lineStart: lineStart}
}

// bodyDoc emits node's body document, the lines of sp (an entity's with
// the doc comment and decorators above it), and reports whether it had a
// term (a document without one is not emitted).
func (w *shardWriter) bodyDoc(o *Options, b *bodyText, sp span, node graph.NodeID) bool {
	lo, hi, limit := 0, b.nlines()-1, o.MaxFileTerms
	if sp.start > 0 {
		lo, hi, limit = int(sp.start)-1, int(sp.end)-1, o.MaxEntityTerms
		for k := 0; k < maxDocLines && lo > 0 && isDocLine(b.line(lo-1)); k++ {
			lo--
		}
	}
	var length uint32
	if sp.start > 0 {
		length = w.markLead(b, lo, int(sp.start)-1, hi)
	}
	for _, t := range b.toks[b.lineOff[lo]:b.lineOff[hi+1]] {
		w.count(t)
		length++
	}
	n := len(w.s.docNode)
	w.close(node, Body, length, limit)
	return len(w.s.docNode) > n
}

// leadDocLines is how many lines make an entity's lead doc: the first
// sentence of its doc comment, or the declaration and the docstring below.
const leadDocLines = 4

// markLead marks the terms of the lead doc of the entity declared at line
// decl (0-based) whose body document starts at line lo: the top of the
// comment block above it (annotations skipped), found however long the
// block is, else the declaration's first lines (up to hi, its last).
// Lead lines above lo are not in the document's window: their terms are
// counted too, and their count returned.
func (w *shardWriter) markLead(b *bodyText, lo, decl, hi int) uint32 {
	top := lo
	for top > 0 && decl-top < maxDocBlock && isDocLine(b.line(top-1)) {
		top--
	}
	var n uint32
	taken := 0
	for l := top; l < decl && taken < leadDocLines; l++ {
		if t := bytes.TrimSpace(b.line(l)); len(t) > 0 && t[0] == '@' {
			continue
		}
		taken++
		n += w.markLine(b, l, l < lo)
	}
	for l := decl; taken == 0 && l <= min(decl+leadDocLines-1, hi); l++ {
		w.markLine(b, l, false)
	}
	return n
}

// markLine marks line l's terms as lead terms, counting them when count.
func (w *shardWriter) markLine(b *bodyText, l int, count bool) uint32 {
	toks := b.toks[b.lineOff[l]:b.lineOff[l+1]]
	for _, t := range toks {
		if count {
			w.count(t)
		}
		if int(t) >= len(w.lead) {
			w.lead = append(w.lead, make([]bool, int(t)+1-len(w.lead)+256)...)
		}
		if !w.lead[t] {
			w.lead[t] = true
			w.leads = append(w.leads, t)
		}
	}
	if count {
		return uint32(len(toks))
	}
	return 0
}

// keep is the cache entry of shard s, just written by w (bodyShard or a
// Collector's), over the writer's spans and docSpan.
func (w *shardWriter) keep(ix *termIndex, stamp string, s *shard, nlines int) *fileBody {
	slices.SortFunc(w.spans, cmpSpan)
	w.spans = slices.Compact(w.spans)
	w.docIdx = w.docIdx[:0]
	for _, sp := range w.docSpan {
		k, _ := slices.BinarySearchFunc(w.spans, sp, cmpSpan)
		w.docIdx = append(w.docIdx, k)
	}
	return newFileBody(w, ix, stamp, s, nlines, w.spans, w.docIdx)
}

// identMemo remembers the local term IDs of the identifiers one file
// repeats, so each distinct identifier is split, lower-cased and stemmed
// once per file rather than at every occurrence (most of a body build).
// It is an open-addressing table over the file's own bytes: one cheap
// hash per occurrence, no string header, reset by the slots it filled.
type identMemo struct {
	slots []memoSlot // len a power of two
	used  []uint32   // filled slots
	arena []uint32
}

// memoSlot is one identifier of the file and its term IDs, arena[from:to].
type memoSlot struct {
	hash     uint64 // 0: empty
	ident    []byte
	from, to uint32
}

var memoPool = sync.Pool{New: func() any { return &identMemo{slots: make([]memoSlot, 1024)} }}

// find returns id's slot, or the empty slot where it goes.
func (m *identMemo) find(id []byte, h uint64) uint32 {
	mask := uint64(len(m.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &m.slots[i]
		if s.hash == 0 || (s.hash == h && string(s.ident) == string(id)) {
			return uint32(i)
		}
	}
}

// insert fills slot k, id's empty slot (growing the table at half full).
func (m *identMemo) insert(k uint32, v memoSlot) {
	if 2*(len(m.used)+1) > len(m.slots) {
		old, slots := m.used, m.slots
		m.slots, m.used = make([]memoSlot, 2*len(slots)), make([]uint32, 0, 2*len(old))
		for _, o := range old {
			m.place(m.find(slots[o].ident, slots[o].hash), slots[o])
		}
		k = m.find(v.ident, v.hash)
	}
	m.place(k, v)
}

func (m *identMemo) place(k uint32, v memoSlot) {
	m.slots[k] = v
	m.used = append(m.used, k)
}

// reset empties the memo for the next file (dropping its bytes).
func (m *identMemo) reset() {
	if len(m.slots) > 1<<16 {
		m.slots = make([]memoSlot, 1024) // a huge file's table is not kept
	} else {
		for _, k := range m.used {
			m.slots[k] = memoSlot{}
		}
	}
	m.used, m.arena = m.used[:0], m.arena[:0]
}

// identHash hashes an identifier a word at a time; never 0.
func identHash(b []byte) uint64 {
	h := uint64(len(b)) * 0x9E3779B97F4A7C15
	for len(b) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(b)) * 0xff51afd7ed558ccd
		h ^= h >> 32
		b = b[8:]
	}
	var t uint64
	for i, c := range b {
		t |= uint64(c) << (8 * i)
	}
	h = (h ^ t) * 0xc4ceb9fe1a85ec53
	return (h ^ h>>29) | 1
}

// lines tokenises data line by line: toks[lineOff[l]:lineOff[l+1]] are
// line l's local term IDs (0-based lines), lineStart[l] its first byte.
// One pass over the bytes finds both the lines and the identifiers.
func (w *shardWriter) lines(data []byte) (toks, lineOff []uint32, lineStart []int) {
	nl := bytes.Count(data, []byte{'\n'}) + 1
	// The writer's buffers of the last file, when they fit: a file's
	// tokens are garbage once its documents are cut, and on a large tree
	// that garbage raised the collector's heap goal.
	toks, lineOff, lineStart = w.toks[:0], w.lineOff, w.lineStart
	if cap(toks) < len(data)/8 {
		toks = make([]uint32, 0, len(data)/8)
	}
	if cap(lineOff) < nl+1 || cap(lineStart) < nl {
		lineOff, lineStart = make([]uint32, 0, nl+1), make([]int, 0, nl)
	}
	lineOff, lineStart = append(lineOff[:0], 0), append(lineStart[:0], 0)
	defer func() {
		if cap(toks) <= maxKeptToks {
			w.toks, w.lineOff, w.lineStart = toks, lineOff, lineStart
		}
	}()
	m := memoPool.Get().(*identMemo)
	defer func() {
		m.reset()
		memoPool.Put(m)
	}()
	for i := 0; i < len(data); {
		c := data[i]
		if c == '\n' {
			lineOff = append(lineOff, uint32(len(toks)))
			lineStart = append(lineStart, i+1)
			i++
			continue
		}
		if !identByte[c] {
			i++
			continue
		}
		j := i + 1
		for j < len(data) && identByte[data[j]] {
			j++
		}
		toks = w.identTerms(m, toks, data[i:j])
		i = j
	}
	lineOff = append(lineOff, uint32(len(toks)))
	return toks, lineOff, lineStart
}

// identTerms appends the local term IDs of identifier id to toks, from
// the memo when the file had it before.
func (w *shardWriter) identTerms(m *identMemo, toks []uint32, id []byte) []uint32 {
	h := identHash(id)
	k := m.find(id, h)
	if s := &m.slots[k]; s.hash != 0 {
		return append(toks, m.arena[s.from:s.to]...)
	}
	from := uint32(len(m.arena))
	for _, wid := range w.terms.identTerms(&w.tok, id) {
		m.arena = append(m.arena, w.local(wid))
	}
	to := uint32(len(m.arena))
	m.insert(k, memoSlot{hash: h, ident: id, from: from, to: to})
	return append(toks, m.arena[from:to]...)
}

// reusableBody is the body shard of file src, taken from prev when its
// ingest cut it for this graph or the file's stamp is the one prev
// indexed (and its nodes' lines are among those prev cut), else built;
// and the entry the next build can take it from.
func (x *Index) reusableBody(w *shardWriter, src string, prev *Bodies) (*shard, *fileBody) {
	nodes := x.g.NodesByPath(src)
	if prev != nil {
		if c := prev.fresh[src]; c != nil {
			if s := c.shard(x.g, nodes); s != nil {
				return s, c
			}
		}
	}
	stamp, ok := x.opts.FileStamp(src)
	if ok && prev != nil {
		if c := prev.m[src]; c != nil && c.stamp == stamp {
			if s := c.shard(x.g, nodes); s != nil {
				return s, c
			}
		}
	}
	s, nlines := x.bodyShard(w, src, nodes)
	if !ok {
		return s, nil
	}
	return s, w.keep(x.bodies.terms, stamp, s, nlines)
}

// sameBodyOptions reports whether two indexes cut body documents alike.
func sameBodyOptions(a, b Options) bool {
	return a.MaxFileBytes == b.MaxFileBytes && a.MaxEntityTerms == b.MaxEntityTerms && a.MaxFileTerms == b.MaxFileTerms
}

// isDocLine recognises comment and decorator lines above a declaration.
func isDocLine(line []byte) bool {
	t := bytes.TrimSpace(line)
	if len(t) == 0 {
		return false
	}
	for _, p := range [][]byte{[]byte("//"), []byte("#"), []byte("/*"), []byte("*"), []byte("@"), []byte("--"), []byte(";;"), []byte("\"\"\""), []byte("'''")} {
		if bytes.HasPrefix(t, p) {
			return true
		}
	}
	return false
}
