package code

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/resolve"
)

// refCounts counts references by how they were resolved.
type refCounts struct{ resolved, ambiguous, unresolved int }

// bound counts a reference bound with status s and returns the weight of
// its edge: an ambiguous binding is a best guess, trusted half as much.
func (c *refCounts) bound(s resolve.Status) float32 {
	c.resolved++
	if s == resolve.Ambiguous {
		c.ambiguous++
	}
	return statusWeight(s)
}

// statusWeight is the weight of an edge a reference of status s binds
// (also to another platform's declaration of its target, Result.Also).
func statusWeight(s resolve.Status) float32 {
	if s == resolve.Ambiguous {
		return WeightAmbiguous
	}
	return WeightCertain
}

// importPath is what a file's import of a node at source path p of type t
// records for package dependencies ("" for none).
func importPath(p string, t graph.NodeType) string {
	if p != "" && t == graph.Directory {
		return p + "/" // a package directory, not a file
	}
	return p
}

// fileRefs resolves the references of one file, in edge order. Where the
// previous run's outcome old[j] still holds (see staleness.reuse), it is
// kept; the others are resolved again. The full and the patch path both
// resolve through it.
type fileRefs struct {
	ix    *resolve.Index
	fi    int32 // the file's index in the resolver's results
	file  string
	old   []resolve.Result // nil: resolve every reference again
	stale *staleness
	// memo shares outcomes between references that resolve alike.
	memo map[memoKey]resolve.Result
}

// memoKey identifies references that resolve alike within one file: the
// outcome depends on the file, the name, the relation and the hint (and on
// the source node only when it is itself a candidate, see resolve).
type memoKey struct {
	name, rel string
	hint      extract.RefHint
}

func newFileRefs(ix *resolve.Index, fi int, file string, old []resolve.Result, stale *staleness) *fileRefs {
	memo, _ := memos.Get().(map[memoKey]resolve.Result)
	if memo == nil {
		memo = map[memoKey]resolve.Result{}
	}
	return &fileRefs{ix: ix, fi: int32(fi), file: file, old: old, stale: stale, memo: memo}
}

// memos recycles the per-file memo maps: go-std's files made 117 MB of
// them, garbage that drove the resolve phase's heap to the peak of the
// whole ingest.
var memos sync.Pool

// release gives the memo back for the next file; f is not used after.
func (f *fileRefs) release() {
	clear(f.memo)
	memos.Put(f.memo)
	f.memo = nil
}

// outcome is the outcome of the file's j-th reference, e naming name; fresh
// reports that it was resolved again.
func (f *fileRefs) outcome(j int, e *extract.Edge, name string) (r resolve.Result, fresh bool) {
	if j < len(f.old) && f.stale.reuse(e, name) {
		return f.old[j], false
	}
	return f.resolve(e, name), true
}

func (f *fileRefs) resolve(e *extract.Edge, name string) resolve.Result {
	// A node never binds to itself (except by calling itself), so a source
	// named like the reference must not share another source's outcome.
	key := memoKey{name, e.Relation, e.Hint}
	selfNamed := strings.HasSuffix(e.Source, "::"+name) || strings.HasSuffix(e.Source, "::"+lastName(name))
	if !selfNamed {
		if r, ok := f.memo[key]; ok {
			return r
		}
	}
	r := f.ix.ResolveIn(f.fi, resolve.Source{ID: e.Source, File: f.file}, name, extract.BindAs(e.Relation), e.Hint)
	if !selfNamed {
		f.memo[key] = r
	}
	return r
}

// forEachFile calls fn(i) for i in [0, n), in chunks that one worker a
// core (the calling goroutine one of them) takes in turn, until ctx ends.
// Why workers and not a goroutine a chunk: each chunk then waited for the
// dispatching goroutine to be woken and to start the next one, and on a
// 2-core VM a wake may take a millisecond; a worker that finds the next
// chunk by an atomic counter never waits, and the calling goroutine works
// through the chunks alone if the other core starts late.
func forEachFile(ctx context.Context, n int, fn func(i int)) error {
	procs := max(1, runtimeProcs())
	chunk := fileChunk(n, procs)
	chunks := (n + chunk - 1) / chunk
	var next atomic.Int64
	work := func() error {
		for k := int(next.Add(1)) - 1; k < chunks; k = int(next.Add(1)) - 1 {
			for i := k * chunk; i < min((k+1)*chunk, n); i++ {
				if err := ctx.Err(); err != nil {
					return err
				}
				fn(i)
			}
		}
		return nil
	}
	var g errgroup.Group
	for range min(procs, chunks) - 1 {
		g.Go(work)
	}
	err := work()
	if werr := g.Wait(); err == nil {
		err = werr
	}
	return err
}

// fileChunk is how many files forEachFile hands a worker at a time: 64,
// or fewer so that each core takes at least 16 chunks, since the pass
// waits for its slowest chunk (py-335's 335 files made 6 chunks on two
// cores, the last one run alone after the ingest's parse).
func fileChunk(n, procs int) int {
	return min(64, max(4, n/(16*procs)))
}

// resolved is the outcome of one reference of the full path: 12 bytes, as
// go-std holds half a million of them between resolution and binding.
type resolved struct {
	src graph.NodeID
	dst graph.NodeID // NoNode: the target is not in the graph
	// rel indexes the file's relations (fileBinds.rels): bind must not
	// read the extraction's edges, so that it need not outlive the
	// parallel pass (issue 29: go-std's edge slices are 80 MB).
	rel    uint16
	status resolve.Status
	// variant: an edge to another platform's declaration (Result.Also)
	variant bool
}

// fileBinds is what binding one file's references needs: their outcomes
// and the few distinct relations they name.
type fileBinds struct {
	list []resolved
	rels []string
}

// relIndex returns rel's index in f.rels, adding it first if new (a file
// names a handful of relations: a scan beats a map).
func (f *fileBinds) relIndex(rel string) uint16 {
	for i, r := range f.rels {
		if r == rel {
			return uint16(i)
		}
	}
	f.rels = append(f.rels, rel)
	return uint16(len(f.rels) - 1)
}

// beforeBind runs between the parallel pass and bind and returns what to
// run after bind: a test seam (the extractions' edges are withheld there
// to check bind does not read them).
var beforeBind = func(*run) func() { return func() {} }

// resolveAll resolves every ref:: edge, in parallel per file (the index is
// read-only), then adds the edges sequentially in file order so the graph
// does not depend on scheduling. A file's pass is the last to read its
// extraction: it keeps the few facts the layout and enrich need
// (keepFacts) and lets the extraction go, so bind grows the graph where
// the extractions were (go-std: ≈ 140 MB of the ≈ 300 MB live heap at the
// end of the pass, the ingest's peak; issue 29). With a cache of the
// previous run's outcomes (incremental ingests), references no change can
// affect keep their outcome and only the others are resolved again.
// Without a cache store no run comes next, so no outcome is kept.
func (r *run) resolveAll(prev *resolveCache) (*resolveCache, error) {
	root := r.wr.Root
	var stale *staleness
	var now map[string]*fileResolution
	if r.store != nil {
		stale, now = prev.diff(root, r.included)
	} else {
		stale = &staleness{all: true}
	}
	var ix *resolve.Index
	if stale.all || len(stale.changed) > 0 {
		ix = resolve.New(resultsOf(r.included), r.ws)
	}
	if !stale.all {
		stale.markRubyAliases(ix, now)
	}
	out := make([]fileBinds, len(r.included))
	err := forEachFile(r.ctx, len(r.included), func(i int) {
		path := r.included[i].fr.res.Path
		var old []resolve.Result
		if !stale.all && !stale.changed[path] {
			old = prev.files[path].out.unpack()
		}
		refs := newFileRefs(ix, i, path, old, stale)
		out[i] = r.resolveFile(i, refs, now[path])
		refs.release()
		r.included[i].keepFacts()
		r.included[i].fr.release(r.store)
	})
	if err != nil {
		return nil, err
	}
	r.release() // the files not included, and the collection
	after := beforeBind(r)
	r.bind(out)
	after()
	if r.store == nil {
		return nil, nil
	}
	if ix == nil && prev != nil {
		ix, prev.ix = prev.ix, nil // nothing changed: the index still holds
	}
	return &resolveCache{root: root, files: now, ix: ix}, nil
}

// markRubyAliases marks, once the changes and the subclasses of stale
// classes are marked, the Ruby constant aliases of stale names (ix: an
// index holding every alias of the files that did not change; nil when
// nothing changed), and then the subclasses of those, until nothing more
// is reached: `Short = Plain` elsewhere, `Short.new` binds what Plain
// declares, and `class Sub < Short` inherits it.
func (s *staleness) markRubyAliases(ix *resolve.Index, files map[string]*fileResolution) {
	for ix != nil && len(s.labels) > 0 {
		added := ix.RubyAliasesOf(func(l string) bool { return s.labels[l] })
		if len(added) == 0 {
			return
		}
		for _, l := range added {
			s.labels[l] = true
		}
		s.markSubclasses(files)
	}
}

func resultsOf(inc []included) []*extract.Result {
	out := make([]*extract.Result, len(inc))
	for i, f := range inc {
		out[i] = f.fr.res
	}
	return out
}

// resolveFile resolves the references of included file i, recording every
// outcome in fr (nil: none kept), and returns those whose source node is
// in the graph. Nodes are not added while files resolve in parallel, so
// looking targets up here is a read of the graph only.
func (r *run) resolveFile(i int, refs *fileRefs, fr *fileResolution) fileBinds {
	res := r.included[i].fr.res
	var out *outcomeWriter
	if fr != nil {
		out = newOutcomes(refCount(res))
	}
	var fb fileBinds
	lastSrc, srcID := "", graph.NoNode
	j := 0 // the reference's index among the file's references
	for k := range res.Edges {
		e := &res.Edges[k]
		name, ok := strings.CutPrefix(e.Target, extract.RefPrefix)
		if !ok {
			continue
		}
		o, fresh := refs.outcome(j, e, name)
		if out != nil {
			out.set(j, o)
		}
		j++
		if e.Source != lastSrc {
			lastSrc = e.Source
			if id, ok := r.b.g.Lookup(e.Source); ok {
				srcID = id
			} else {
				srcID = graph.NoNode
			}
		}
		if srcID == graph.NoNode {
			continue
		}
		rel := fb.relIndex(e.Relation)
		fb.list = append(fb.list, resolved{src: srcID, dst: r.target(o.Target, r.handle(o, fresh), o.Status), rel: rel, status: o.Status})
		for _, id := range o.Also {
			fb.list = append(fb.list, resolved{src: srcID, dst: r.target(id, graph.NoNode, o.Status), rel: rel, status: o.Status, variant: true})
		}
	}
	if out != nil {
		fr.out = out.done()
	}
	return fb
}

// refCount counts r's ref:: edges (its outcomes).
func refCount(r *extract.Result) int {
	n := 0
	for k := range r.Edges {
		if strings.HasPrefix(r.Edges[k].Target, extract.RefPrefix) {
			n++
		}
	}
	return n
}

// target is the node an outcome binds: h when known, else the node with
// external ID id (NoNode for an unresolved outcome or an unknown ID).
func (r *run) target(id string, h graph.NodeID, s resolve.Status) graph.NodeID {
	if s == resolve.Unresolved || h != graph.NoNode {
		return h
	}
	if d, ok := r.b.g.Lookup(id); ok {
		return d
	}
	return graph.NoNode
}

// handle is the node a fresh outcome names, found without a lookup by ID
// (NoNode when unknown: a kept outcome's indexes refer to the previous run).
func (r *run) handle(o resolve.Result, fresh bool) graph.NodeID {
	if fresh && o.Status != resolve.Unresolved && o.File >= 0 && int(o.File) < len(r.included) {
		if ns := r.included[o.File].nodes; int(o.Node) < len(ns) {
			return ns[o.Node]
		}
	}
	return graph.NoNode
}

// bind adds the edges of the resolved references, file by file, and counts
// them. It reads no extraction (see resolved.rel).
func (r *run) bind(out []fileBinds) {
	b := r.b
	for i, fb := range out {
		rc := &r.included[i].refs
		for _, o := range fb.list {
			if o.status == resolve.Unresolved {
				rc.unresolved++
				continue
			}
			dst, rel := o.dst, fb.rels[o.rel]
			if o.variant {
				// Another platform's declaration of what the reference
				// bound: an edge, not a reference of its own.
				if dst != graph.NoNode && dst != o.src {
					b.edge(o.src, dst, rel, statusWeight(o.status))
				}
				continue
			}
			if dst == graph.NoNode || dst == o.src {
				rc.unresolved++
				continue
			}
			b.edge(o.src, dst, rel, rc.bound(o.status))
			if rel == extract.RelImports {
				if p := importPath(b.g.SourcePath(dst), b.g.Type(dst)); p != "" {
					r.included[i].imports = append(r.included[i].imports, p)
				}
			}
		}
		out[i] = fileBinds{} // bound: its memory goes back before the next file's
		r.st.ReferencesResolved += rc.resolved
		r.st.ReferencesAmbiguous += rc.ambiguous
		r.st.ReferencesUnresolved += rc.unresolved
		r.prog.report(adapter.PhaseResolve, i+1, len(out))
	}
}
