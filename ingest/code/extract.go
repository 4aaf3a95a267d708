package code

import (
	"cmp"
	"context"
	"errors"
	"path"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/walk"
)

// fileResult is what extraction produced for one walked file.
type fileResult struct {
	file walk.File
	// res is nil for skipped files, and for a reused file of a store that
	// spills until result reads it back (spilled).
	res  *extract.Result
	kind cache.Kind
	// spilled is the store holding the reused result on disk, until
	// result reads it.
	spilled *cache.Store
	// entry is the manifest record (filled when a cache is in use).
	entry cache.Entry
	// outcome of an incremental ingest for this file.
	reused, changed, added, rehashed bool
	failed                           bool
	prepared                         bool // extracted ahead (Prepare)
	timedOut                         bool
	readErr                          error
	// resolution is the file's resolution record, made in the parse
	// worker of an ingest with a store (resolveCache.diff and a patch's
	// restale take it): beside the parse on both cores rather than alone
	// after it.
	resolution *fileResolution
}

// extractor runs the parallel extraction phase.
type extractor struct {
	req         *adapter.Request
	store       *cache.Store
	incremental bool
	deadline    time.Time
	prog        *progress
	// bytes counts the source bytes parsed, for trimming the C heap.
	bytes atomic.Int64
}

// trimEvery is how many parsed source bytes make the C heap worth
// trimming during extraction: glibc keeps what tree-sitter freed, and as
// the largest files are parsed first, without a trim their trees' memory
// stayed resident under the results of every file after them (go-std:
// peak RSS reached during extraction).
const trimEvery = 16 << 20

// parsed counts a parsed file's bytes and trims the C heap each time
// the count passes a multiple of trimEvery.
func (x *extractor) parsed(size int64) {
	n := x.bytes.Add(size)
	if n/trimEvery != (n-size)/trimEvery {
		extract.ReleaseParserMemory()
	}
}

// run extracts every file, reusing cached results where an incremental
// ingest allows. Results are indexed like files, so the build phase sees
// them in path order whatever the scheduling was.
func (x *extractor) run(ctx context.Context, files []walk.File) ([]fileResult, error) {
	out := make([]fileResult, len(files))
	if !x.incremental && x.store != nil {
		x.store.Trees().Clear() // the graph is replaced whole
	}
	n := x.req.Parallelism
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	var done atomic.Int64
	total := len(files)
	order := x.reuseUnchanged(files, out)
	if reused := total - len(order); reused > 0 {
		x.prog.report(adapter.PhaseExtract, int(done.Add(int64(reused))), total)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(n)
	// Largest first: a file's parse cannot be split, so a large one started
	// last would run alone after the rest (a 64-file change holding one
	// 850 KB generated file took the sum of both halves instead of the
	// larger one). Results keep the files' order.
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(files[b].Size, files[a].Size) })
	for _, i := range order {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			fr := &out[i]
			fr.file = files[i]
			if time.Now().After(x.deadline) {
				fr.timedOut = true
				return nil
			}
			x.one(fr)
			if fr.res != nil && !fr.reused {
				x.parsed(fr.file.Size)
			}
			x.prog.report(adapter.PhaseExtract, int(done.Add(1)), total)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// reuseUnchanged reuses, in one pass under the store's lock, every file
// whose size and mtime are its manifest entry's, when the store spills (a
// server's: such a result is read back only if a phase asks for it, so
// reusing it is bookkeeping). It returns the indices of the files left to
// extract, in order. A one-file tick on go-std spent ≈ 10 ms of CPU
// starting a goroutine and taking three locks for each unchanged file.
func (x *extractor) reuseUnchanged(files []walk.File, out []fileResult) []int {
	rest := make([]int, 0, len(files))
	if !x.incremental || !x.store.Spills() {
		for i := range files {
			rest = append(rest, i)
		}
		return rest
	}
	x.store.Entries(len(files), func(i int) string { return files[i].Rel }, func(i int, e cache.Entry, ok bool) {
		f := files[i]
		if !ok || e.Size != f.Size || e.MTimeNS != f.ModTimeNS {
			rest = append(rest, i)
			return
		}
		fr := &out[i]
		fr.file = f
		if e.Kind == cache.Text {
			fr.spilled = x.store
		}
		fr.kind, fr.entry, fr.reused, fr.failed = e.Kind, e, true, e.Failed
	})
	return rest
}

// one extracts (or reuses) a single file.
func (x *extractor) one(fr *fileResult) {
	f := fr.file
	var prev cache.Entry
	var havePrev bool
	if x.incremental {
		prev, havePrev = x.store.Entry(f.Rel)
		if havePrev && prev.Size == f.Size && prev.MTimeNS == f.ModTimeNS {
			if x.reuse(fr, prev) {
				return
			}
		}
	}
	data, err := walk.ReadFile(f.Abs, 0)
	if err != nil {
		// Vanished, unreadable, grown past the limit or no longer a
		// regular file since the walk: not part of this graph.
		fr.readErr = err
		return
	}
	var h cache.Hash
	if x.store != nil {
		h = cache.HashOf(data)
	}
	if havePrev && prev.Hash == h {
		// Touched but unchanged: keep the result, record the new mtime.
		prev.Size, prev.MTimeNS = f.Size, f.ModTimeNS
		if x.reuse(fr, prev) {
			fr.rehashed = true
			return
		}
	}
	fr.changed = havePrev
	fr.added = x.incremental && !havePrev
	fr.entry = cache.Entry{Size: f.Size, MTimeNS: f.ModTimeNS, Hash: h}
	switch walk.Classify(data) {
	case walk.Binary:
		fr.kind, fr.entry.Kind = cache.Binary, cache.Binary
		x.source(f, data, nil)
		return
	case walk.Undecodable:
		fr.kind, fr.entry.Kind = cache.Undecodable, cache.Undecodable
		x.source(f, data, nil)
		return
	}
	res, err := x.extractData(fr, h, data)
	if res != nil {
		x.source(f, data, res)
	}
	if err != nil {
		fr.failed = true
		fr.entry.Failed, fr.entry.Err = true, err.Error()
	}
	if res == nil {
		// Even the generic fallback failed: treat like a failed read.
		fr.readErr = err
		return
	}
	fr.res = res
	if x.store != nil {
		fr.resolution = newResolution(res, h)
		if err := x.store.Put(f.Rel, h, res); err != nil {
			// The graph does not depend on the cache; the next incremental
			// ingest simply re-extracts this file.
			fr.entry = cache.Entry{}
		}
	}
}

// source hands a file read to Request.OnSource, with its entities' lines.
func (x *extractor) source(f walk.File, data []byte, res *extract.Result) {
	if x.req.OnSource == nil {
		return
	}
	src := adapter.Source{Rel: f.Rel, Size: f.Size, MTimeNS: f.ModTimeNS, Data: data}
	if res != nil {
		src.Lines = make([][2]uint32, 0, len(res.Nodes))
		for _, n := range res.Nodes {
			if n.Type != graph.File {
				src.Lines = append(src.Lines, [2]uint32{n.Line, n.EndLine})
			}
		}
	}
	x.req.OnSource(src)
}

// reuse takes a file's result from the cache; false when the cached result
// cannot be read (the caller then extracts afresh).
// extractData extracts a file's contents, or takes the extraction prepared
// for them (Prepare).
func (x *extractor) extractData(fr *fileResult, h cache.Hash, data []byte) (*extract.Result, error) {
	rel := fr.file.Rel
	if x.store != nil {
		if p, ok := x.store.TakePrepared(rel, h); ok {
			fr.prepared = true
			if p.Err != "" {
				return p.Result, errors.New(p.Err)
			}
			return p.Result, nil
		}
	}
	if fr.changed && x.store != nil {
		// A file parsed again: from its kept tree, if any, keeping the new.
		return extract.ExtractFileKept(x.store.Trees(), rel, data)
	}
	return extract.ExtractFile(rel, data)
}

// Prepare extracts data, the contents rel (root-relative) is about to
// have, and keeps the result in store for the next ingest of the root that
// reads exactly these contents: a caller that writes files (apply_batch)
// extracts them while the write's fsyncs wait, and the ingest after it does
// not parse them again. Binary and undecodable contents are not prepared
// (the ingest classifies them itself).
func Prepare(store *cache.Store, rel string, data []byte) {
	if store == nil || walk.Classify(data) != walk.Text {
		return
	}
	// The file an edit tool writes is one an agent works on: its tree is
	// kept for its next version.
	res, err := extract.ExtractFileKept(store.Trees(), rel, data)
	if res == nil {
		return
	}
	p := cache.Prepared{Result: res}
	if err != nil {
		p.Err = err.Error()
	}
	store.Prepare(rel, cache.HashOf(data), p)
}

func (x *extractor) reuse(fr *fileResult, e cache.Entry) bool {
	switch {
	case e.Kind != cache.Text:
	case x.store.Spills() && x.store.Has(fr.file.Rel, e):
		// Read back when a phase needs it: a patch reads the few files a
		// change can affect, not every unchanged one.
		fr.spilled = x.store
	default:
		r, err := x.store.Result(fr.file.Rel, e)
		if err != nil {
			return false
		}
		fr.res = r
	}
	fr.kind, fr.entry, fr.reused, fr.failed = e.Kind, e, true, e.Failed
	return true
}

// hasResult says whether the file has an extraction (in hand or spilled),
// without reading a spilled one.
func (fr *fileResult) hasResult() bool { return fr.res != nil || fr.spilled != nil }

// result returns the file's extraction (nil for a skipped file), reading a
// spilled one back on first use. Each file's result is asked for by one
// goroutine at a time (phases that run files in parallel give each its
// own), so the read needs no lock.
func (fr *fileResult) result() *extract.Result {
	if fr.spilled != nil {
		fr.res, fr.spilled = readBack(fr.spilled, fr), nil
	}
	return fr.res
}

// readBack reads a spilled result. A blob that cannot be read (removed,
// torn) is extracted again from the file, which has the size and mtime
// the manifest recorded, as the extraction phase would have done had it
// seen the blob missing.
func readBack(store *cache.Store, fr *fileResult) *extract.Result {
	if r, err := store.Result(fr.file.Rel, fr.entry); err == nil {
		return r
	}
	data, err := walk.ReadFile(fr.file.Abs, 0)
	if err != nil {
		data = nil
	}
	res, _ := extract.ExtractFile(fr.file.Rel, data)
	if res == nil {
		// Vanished since the walk: the file keeps its node and loses its
		// facts until the next ingest.
		res = &extract.Result{Path: fr.file.Rel, Nodes: []extract.Node{{ID: extract.FileID(fr.file.Rel), Label: path.Base(fr.file.Rel), Type: graph.File}}}
	}
	return res
}

// progress throttles progress reports to about ten per second, plus the
// last one of each phase, and serialises the callback.
type progress struct {
	fn   func(adapter.Progress)
	mu   sync.Mutex
	last time.Time
}

func (p *progress) report(ph adapter.Phase, done, total int) {
	if p == nil || p.fn == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if done < total && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	p.fn(adapter.Progress{Phase: ph, Done: done, Total: total})
}

// phase reports the start or end of a phase unthrottled.
func (p *progress) phase(ph adapter.Phase, done, total int) {
	if p == nil || p.fn == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.last = time.Now()
	p.fn(adapter.Progress{Phase: ph, Done: done, Total: total})
}
