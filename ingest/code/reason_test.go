package code

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/resolve"
	"github.com/m1nd-go/m1nd/ingest/workspace"
)

// patchEnv is a tree ingested once, incrementally, into a cache on disk;
// first is held like a server holds its graph.
type patchEnv struct {
	dir, cacheDir string
	store         *cache.Store
	req           adapter.Request
	first         *adapter.Output
	at            time.Time
}

func newPatchEnv(t *testing.T, tree map[string]string, opts func(*adapter.Request)) *patchEnv {
	t.Helper()
	e := &patchEnv{cacheDir: t.TempDir(), at: time.Now().Add(time.Hour)}
	if tree == nil {
		e.dir = newFixtureRepo(t).Dir
	} else {
		e.dir = t.TempDir()
		writeFiles(t, e.dir, tree)
	}
	e.store = cache.Open(e.cacheDir)
	e.req = adapter.Request{Root: e.dir, Incremental: true}
	if opts != nil {
		opts(&e.req)
	}
	e.first = e.ingest(t, e.req)
	return e
}

func (e *patchEnv) ingest(t *testing.T, req adapter.Request) *adapter.Output {
	t.Helper()
	req.Cache = e.store
	out, err := Ingest(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// edit rewrites files with a later mtime, so the edit is seen whatever the
// file system's timestamp granularity.
func (e *patchEnv) edit(t *testing.T, files map[string]string) {
	t.Helper()
	writeFiles(t, e.dir, files)
	for p := range files {
		touch(t, filepath.Join(e.dir, p), e.at)
	}
	e.at = e.at.Add(time.Minute)
}

// addDef appends a definition to fixture files.
func addDef(rels ...string) func(*testing.T, *patchEnv) {
	return func(t *testing.T, e *patchEnv) {
		files := map[string]string{}
		for _, rel := range rels {
			files[rel] = fixture[rel] + "\n\ndef added():\n    return 1\n"
		}
		e.edit(t, files)
	}
}

// decide runs the next incremental ingest. Without mutate it runs whole and
// returns the run; with mutate, the run stops at the patch decision, and
// mutate changes it between extract and the decision.
func (e *patchEnv) decide(t *testing.T, req adapter.Request, mutate func(*run)) (*run, *adapter.Output, *noPatch) {
	t.Helper()
	req.Cache = e.store
	r := newRun(context.Background(), req)
	if mutate == nil {
		out, err := r.ingest()
		if err != nil {
			t.Fatal(err)
		}
		return r, out, r.rebuild
	}
	if err := r.walk(); err != nil {
		t.Fatal(err)
	}
	defer r.unlock()
	if !r.incremental || r.unchanged() != nil {
		t.Fatalf("no patch decision to make (incremental %v)", r.incremental)
	}
	r.history()
	if err := r.extract(); err != nil {
		t.Fatal(err)
	}
	mutate(r)
	out, why := r.tryPatch()
	return r, out, why
}

// editResult replaces the extraction of rel in r with a copy that edit
// changes.
func editResult(t *testing.T, r *run, rel string, edit func(res *extract.Result)) {
	t.Helper()
	for i := range r.results {
		if fr := &r.results[i]; fr.file.Rel == rel {
			res := *fr.res
			res.Nodes, res.Edges = slices.Clone(res.Nodes), slices.Clone(res.Edges)
			edit(&res)
			fr.res = &res
			return
		}
	}
	t.Fatalf("%s not extracted", rel)
}

func manyFiles(n int) map[string]string {
	tree := map[string]string{}
	for i := range n {
		tree[fmt.Sprintf("m/f%02d.py", i)] = fmt.Sprintf("def f%d():\n    return %d\n", i, i)
	}
	return tree
}

// TestRebuildReasons brings about every case the patch path declines and
// matches the typed reason, and the text Stats report for it.
func TestRebuildReasons(t *testing.T) {
	cases := []struct {
		name   string
		tree   map[string]string           // default: the fixture repository
		opts   func(*adapter.Request)      // both runs' options
		change func(*testing.T, *patchEnv) // between the runs
		next   func(*adapter.Request)      // the second run's options
		mutate func(*testing.T, *run)      // the second run after extract
		want   RebuildReason               // 0: patched
		text   string
	}{
		{name: "a body edit patches", change: addDef("app/util.py")},
		{name: "a restarted process has no previous run", want: NoPreviousRun, text: "no previous complete run",
			change: func(t *testing.T, e *patchEnv) { addDef("app/util.py")(t, e); e.store = cache.Open(e.cacheDir) }},
		{name: "a restart kept the saved graph", want: RestoredGraph, text: "the graph was restored from its snapshot at start; the first change after a restart rebuilds it",
			change: func(t *testing.T, e *patchEnv) {
				req := e.req
				req.Previous = previousOf(e.store, e.first)
				e.store = cache.Open(e.cacheDir)
				if out := e.ingest(t, req); !out.Stats.Incremental.Restored || out.Graph != e.first.Graph {
					t.Fatalf("restart not restored: %+v", out.Stats.Incremental)
				}
				addDef("app/util.py")(t, e)
			}},
		{name: "a partial run is not kept", want: NoPreviousRun, text: "no previous complete run",
			opts: func(r *adapter.Request) { r.MaxNodes = 8 }, change: addDef("app/util.py")},
		{name: "the caller let go of the graph", want: PreviousGraphReleased, text: "previous graph released",
			change: func(t *testing.T, e *patchEnv) {
				addDef("app/util.py")(t, e)
				e.first = nil
				runtime.GC()
				runtime.GC()
			}},
		{name: "the graph was finalized again", want: PreviousGraphChanged, text: "previous graph changed since",
			change: func(t *testing.T, e *patchEnv) { addDef("app/util.py")(t, e); e.first.Graph.Finalize() }},
		{name: "an extractor attached edges elsewhere before", want: ForeignEdges, text: "an extractor attached edges to another file's nodes",
			change: func(t *testing.T, e *patchEnv) {
				addDef("app/util.py")(t, e)
				e.store.Extra(lastRunKey).(*lastRun).layout.ownSources = false
			}},
		{name: "an extractor attaches edges elsewhere now", want: ForeignEdges, text: "an extractor attached edges to another file's nodes",
			change: addDef("app/util.py"),
			mutate: func(t *testing.T, r *run) {
				editResult(t, r, "app/util.py", func(res *extract.Result) {
					res.Edges = append(res.Edges, extract.Edge{Source: "file::lib/util.py", Target: "file::app/util.py", Relation: extract.RelImports})
				})
			}},
		{name: "options changed", want: OptionsChanged, text: "options or root changed",
			change: addDef("app/util.py"), next: func(r *adapter.Request) { r.IncludeDotfiles = true }},
		{name: "the resolver index was taken", want: NoResolverIndex, text: "no resolver index kept",
			change: func(t *testing.T, e *patchEnv) {
				addDef("app/util.py")(t, e)
				e.store.Extra(resolveCacheKey).(*resolveCache).ix = nil
			}},
		{name: "the time budget ran out", want: FileUnreadable, text: "a file could not be read",
			change: addDef("app/util.py"), next: func(r *adapter.Request) { r.Timeout = time.Nanosecond }},
		{name: "a source file became binary: a patch that removes it",
			change: func(t *testing.T, e *patchEnv) { e.edit(t, map[string]string{"app/util.py": "x\x00y"}) }},
		{name: "a file appeared: a patch", change: func(t *testing.T, e *patchEnv) {
			e.edit(t, map[string]string{"app/new.py": "def fresh():\n    return 1\n"})
		}},
		{name: "a file vanished: a patch", change: func(t *testing.T, e *patchEnv) {
			if err := os.Remove(filepath.Join(e.dir, "lib/util.py")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "files come in another order", want: FilesReordered, text: "files came in another order",
			change: addDef("app/util.py"),
			mutate: func(t *testing.T, r *run) {
				var at []int
				for i := range r.results {
					if r.results[i].res != nil {
						at = append(at, i)
					}
				}
				r.results[at[0]], r.results[at[1]] = r.results[at[1]], r.results[at[0]]
			}},
		{name: "a lead holds a node that is no directory", want: DirectoriesMoved, text: "directory nodes do not line up",
			change: func(t *testing.T, e *patchEnv) {
				e.edit(t, map[string]string{"app/new.py": "def fresh():\n    return 1\n"})
				lay := e.store.Extra(lastRunKey).(*lastRun).layout
				lay.files[0].hi-- // its last node now looks like the next file's lead
			}},
		{name: "a result could not be stored", want: NoContentHash, text: "a file has no content hash",
			change: func(t *testing.T, e *patchEnv) {
				// A file where the results directory was: storing fails.
				results := filepath.Join(e.cacheDir, "results")
				if err := os.RemoveAll(results); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(results, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				addDef("app/util.py")(t, e)
			}},
		{name: "a manifest moved the packages", want: ManifestChanged, text: "a manifest moved the repository's packages",
			change: func(t *testing.T, e *patchEnv) {
				e.edit(t, map[string]string{"extra/__init__.py": "", "extra/x.py": "X = 1\n"})
			}},
		{name: "the package nodes are not where the layout says", want: PackagesOutOfPlace, text: "package nodes out of place",
			change: func(t *testing.T, e *patchEnv) {
				addDef("app/__init__.py")(t, e)
				lay := e.store.Extra(lastRunKey).(*lastRun).layout
				ws := *lay.ws
				ws.Packages = append(slices.Clone(ws.Packages), &workspace.Package{Ecosystem: workspace.PyPI, Name: "ghost", External: true, ID: "package::pypi::ghost"})
				lay.ws = &ws
			}},
		{name: "too many files changed", want: TooManyFiles, text: "70 files changed, came or went (a patch takes up to 64)",
			tree: manyFiles(70),
			change: func(t *testing.T, e *patchEnv) {
				files := manyFiles(70)
				for p, src := range files {
					files[p] = src + "\n# edited\n"
				}
				e.edit(t, files)
			}},
		{name: "a new node takes another file's ID", want: NodeIDTaken, text: "a new node's ID is taken by another file",
			change: addDef("app/util.py"),
			mutate: func(t *testing.T, r *run) {
				editResult(t, r, "app/util.py", func(res *extract.Result) {
					res.Nodes = append(res.Nodes, extract.Node{ID: "file::lib/util.py::helper", Label: "helper", Type: graph.Function})
				})
			}},
		{name: "a changed file lost its file node", want: FileNodeLost, text: "a changed file lost its file node",
			change: addDef("app/util.py"),
			mutate: func(t *testing.T, r *run) {
				editResult(t, r, "app/util.py", func(res *extract.Result) {
					res.Nodes = slices.DeleteFunc(res.Nodes, func(n extract.Node) bool { return n.Type == graph.File })
				})
			}},
		{name: "the node budget would run out", want: NodeBudget, text: "the node budget would run out",
			opts:   func(r *adapter.Request) { r.MaxNodes = fixtureNodes(t) },
			change: addDef("app/util.py")},
		{name: "the resolution cache lacks a file", want: ResolutionIncomplete, text: "resolution cache incomplete",
			change: func(t *testing.T, e *patchEnv) {
				addDef("app/util.py")(t, e)
				delete(e.store.Extra(resolveCacheKey).(*resolveCache).files, "lib/util.py")
			}},
		{name: "the resolver index lacks a changed file", want: ResolverIndexOutOfStep, text: "resolver index out of step",
			change: func(t *testing.T, e *patchEnv) {
				addDef("app/util.py")(t, e)
				e.store.Extra(resolveCacheKey).(*resolveCache).ix = resolve.New(nil, workspace.Detect(e.dir, nil))
			}},
		{name: "two packages share an ID", want: PackageIDCollision, text: "two packages share an ID",
			change: addDef("app/util.py"),
			mutate: func(t *testing.T, r *run) { r.ws.Packages = append(r.ws.Packages, r.ws.Packages[0]) }},
		{name: "the context ended", want: Cancelled, text: "cancelled: context canceled",
			change: addDef("app/util.py"),
			mutate: func(t *testing.T, r *run) {
				ctx, cancel := context.WithCancel(r.ctx)
				cancel()
				r.ctx = ctx
			}},
		{name: "the splice refused the change", want: SpliceFailed,
			text:   `splice: splice: duplicate external id "file::app/twice"`,
			change: addDef("app/util.py", "lib/util.py"),
			mutate: func(t *testing.T, r *run) {
				// Two changed files claim one new ID: each is new to the old
				// graph, so only the splice sees them collide.
				for _, rel := range []string{"app/util.py", "lib/util.py"} {
					editResult(t, r, rel, func(res *extract.Result) {
						res.Nodes = append(res.Nodes, extract.Node{ID: "file::app/twice", Label: "twice", Type: graph.Function})
					})
				}
			}},
	}
	covered := map[RebuildReason]bool{}
	for _, c := range cases {
		covered[c.want] = true
	}
	for r := NoPreviousRun; r <= SpliceFailed; r++ {
		if !covered[r] {
			t.Errorf("no case declines with %v", r)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newPatchEnv(t, c.tree, c.opts)
			c.change(t, e)
			req := e.req
			if c.next != nil {
				c.next(&req)
			}
			var mutate func(*run)
			if c.mutate != nil {
				mutate = func(r *run) { c.mutate(t, r) }
			}
			_, out, why := e.decide(t, req, mutate)
			got := RebuildReason(0)
			if why != nil {
				got = why.reason
			}
			if got != c.want {
				t.Fatalf("reason %v (%v), want %v", got, why, c.want)
			}
			if why != nil && why.String() != c.text {
				t.Errorf("text %q, want %q", why.String(), c.text)
			}
			if mutate != nil {
				return // the run stopped at the decision
			}
			checkDecisionReported(t, out, why)
			if !out.Stats.Partial && c.next == nil {
				equalToFull(t, e.dir, out)
			}
			runtime.KeepAlive(e.first)
		})
	}
}

// checkDecisionReported checks that the statistics say what was decided.
func checkDecisionReported(t *testing.T, out *adapter.Output, why *noPatch) {
	t.Helper()
	inc := out.Stats.Incremental
	switch {
	case why == nil && !inc.Patched:
		t.Errorf("not patched: %+v", inc)
	case why != nil && (inc.Patched || inc.RebuildReason != why.String()):
		t.Errorf("stats %+v, want rebuild reason %q", inc, why.String())
	}
}

// fixtureNodes is the node count of the fixture repository's graph.
func fixtureNodes(t *testing.T) int {
	t.Helper()
	return ingest(t, adapter.Request{Root: newFixtureRepo(t).Dir}).Graph.NumNodes()
}
