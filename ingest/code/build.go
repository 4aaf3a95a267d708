package code

import (
	"errors"
	"path"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/gitmeta"
	"github.com/m1nd-go/m1nd/ingest/resolve"
	"github.com/m1nd-go/m1nd/ingest/walk"
)

// Relation strengths (docs/design.md#edge-relations): contains and
// implements are bidirectional; everything else runs forward.
var causal = map[string]struct {
	strength float32
	dir      graph.Direction
}{
	"contains":   {0.8, graph.Bidirectional},
	"implements": {0.7, graph.Bidirectional},
	"imports":    {0.6, graph.Forward},
	// A type-only import (Python's if TYPE_CHECKING, TypeScript's import
	// type) spreads like any import: a change to the type still breaks
	// its importer; only run-time analyses (layers, why) tell it apart.
	"imports::type": {0.6, graph.Forward},
	"calls":         {0.5, graph.Forward},
	"references":    {0.3, graph.Forward},
}

// CausalStrength returns the causal strength and direction of a relation
// ("other" relations: 0.4, forward; docs/design.md#edge-relations).
func CausalStrength(relation string) (float32, graph.Direction) {
	if c, ok := causal[relation]; ok {
		return c.strength, c.dir
	}
	return 0.4, graph.Forward
}

// Edge weights. Structure the extractor saw is certain (1.0); a reference
// bound by a best guess among equally close candidates (ambiguous) starts
// at half weight so that activation trusts it less until plasticity says
// otherwise.
const (
	WeightCertain   = float32(1.0)
	WeightAmbiguous = float32(0.5)
)

// NamespaceCode is the provenance namespace of every code node.
const NamespaceCode = "code"

// included is a file whose nodes made it into the graph.
type included struct {
	fr *fileResult
	// path and lang are the extraction's, kept for enrich, which runs
	// after the extractions are released.
	path, lang string
	fileID     graph.NodeID
	time       float64
	freq       float32
	// imports are the source paths of the nodes this file's import edges
	// were bound to (for package depends_on edges).
	imports []string
	// nodes are the graph handles of the result's nodes (NoNode for a
	// node dropped as a duplicate).
	nodes []graph.NodeID
	// collisions counts the file's nodes dropped as duplicates.
	collisions int
	// refs counts the file's references by outcome.
	refs refCounts
	// goSkel and ownEdges are what the layout and enrich read of the
	// extraction (goSkeleton, ownEdges), taken in resolve's parallel pass
	// just before the extraction is released (issue 29).
	goSkel   *extract.Result
	ownEdges bool
}

// admit says whether the build takes fr in, counting the files it skips
// and marking the run partial once a budget ran out.
func (r *run) admit(fr *fileResult) bool {
	st := &r.st
	switch {
	case fr.timedOut:
		st.Partial, st.BudgetExhausted = true, "timeout"
	case fr.kind == cache.Binary:
		st.FilesSkippedBinary++
	case fr.kind == cache.Undecodable:
		st.FilesSkippedEncoding++
	case fr.res == nil, st.Partial:
	case r.b.g.NumNodes() >= r.maxNodes:
		st.Partial, st.BudgetExhausted = true, "max_nodes"
	case time.Now().After(r.deadline):
		st.Partial, st.BudgetExhausted = true, "timeout"
	default:
		return true
	}
	return false
}

// addFile adds the nodes of one file under its directory.
func (r *run) addFile(fr *fileResult) {
	b := r.b
	t, freq := fileTime(&fr.file, r.hist)
	dir := parentDir(fr.file.Rel)
	dirID, hasDir := b.ensureDir(dir)
	b.touchDir(dir, t, freq)
	fileNode := graph.NoNode
	res := fr.res
	handles := make([]graph.NodeID, len(res.Nodes))
	collisions := b.collisions
	for ni := range res.Nodes {
		n := &res.Nodes[ni]
		handles[ni] = graph.NoNode
		id, ok := b.addNode(nodeOf(res, n, t, freq))
		if !ok {
			continue
		}
		handles[ni] = id
		if n.Type == graph.File && n.ID == extract.FileID(res.Path) {
			fileNode = id
		}
	}
	if fileNode == graph.NoNode {
		// The extractor's file node was missing or taken: the file cannot
		// be addressed, so none of its edges can be either.
		return
	}
	if hasDir {
		b.edge(dirID, fileNode, extract.RelContains, WeightCertain)
	}
	countFile(&r.st, res.Language, fr.failed)
	r.included = append(r.included, included{fr: fr, path: res.Path, lang: res.Language, fileID: fileNode, time: t, freq: freq, nodes: handles, collisions: b.collisions - collisions})
}

// countFile counts a file of the graph in the statistics.
func countFile(st *adapter.Stats, lang string, failed bool) {
	if failed {
		st.FilesFailed++
	}
	if lang == "" {
		lang = "unknown"
	}
	st.Languages[lang]++
	st.FilesParsed++
}

// directEdges adds the edges whose both ends were extracted (contains,
// same-file links).
func (r *run) directEdges() {
	b := r.b
	for _, f := range r.included {
		for _, e := range f.fr.res.Edges {
			if strings.HasPrefix(e.Target, extract.RefPrefix) {
				continue
			}
			s, ok1 := b.g.Lookup(e.Source)
			d, ok2 := b.g.Lookup(e.Target)
			if ok1 && ok2 {
				b.edge(s, d, e.Relation, WeightCertain)
			}
		}
	}
}

// nodeOf is the graph node of an extracted node.
func nodeOf(res *extract.Result, n *extract.Node, t float64, freq float32) graph.Node {
	return graph.Node{
		ExternalID:      n.ID,
		Label:           n.Label,
		Type:            n.Type,
		Tags:            n.Tags,
		LastModified:    t,
		ChangeFrequency: freq,
		Provenance: graph.Provenance{
			SourcePath: res.Path,
			LineStart:  n.Line,
			LineEnd:    n.EndLine,
			Excerpt:    n.Excerpt,
			Namespace:  NamespaceCode,
		},
	}
}

// fileTime is a file's last change (last commit, else mtime) and change
// frequency.
func fileTime(f *walk.File, h *gitmeta.History) (float64, float32) {
	t, freq := f.ModTime(), gitmeta.NotGitFrequency
	if h != nil {
		fs := h.Files[f.Rel]
		freq = gitmeta.ChangeFrequency(fs.Commits)
		if fs.LastCommit > 0 {
			t = fs.LastCommit
		}
	}
	return t, freq
}

// builder owns the graph during the sequential build phase.
type builder struct {
	g          *graph.Graph
	collisions int
	dirs       map[string]graph.NodeID // root-relative dir → node
	// per-directory aggregates of the files below
	dirSpan spans
}

func newBuilder(nodes, edges int) *builder {
	return &builder{
		g:       graph.NewWithCapacity(nodes, edges),
		dirs:    map[string]graph.NodeID{},
		dirSpan: spans{},
	}
}

// addNode adds a node; a duplicate external ID is counted
// (label_collisions) and skipped, and the build goes on
// (docs/design.md#node-identity).
func (b *builder) addNode(n graph.Node) (graph.NodeID, bool) {
	id, err := b.g.AddNode(n)
	if err != nil {
		if errors.Is(err, graph.ErrDuplicateNode) {
			b.collisions++
		}
		return id, false
	}
	return id, true
}

// edge stages an edge with the relation's causal strength and direction.
func (b *builder) edge(src, dst graph.NodeID, rel string, w float32) {
	if src == dst {
		return
	}
	cs, dir := CausalStrength(rel)
	// Both IDs come from the graph and the values are constants, so
	// AddEdge cannot fail here.
	_ = b.g.AddEdge(graph.Edge{Source: src, Target: dst, Relation: rel, Weight: w, Direction: dir, CausalStrength: cs})
}

// ensureDir adds the directory node for dir and its ancestors (the root
// itself has no node: every top-level entry would hang off one hub),
// linking each to its parent with contains.
func (b *builder) ensureDir(dir string) (graph.NodeID, bool) {
	if dir == "" {
		return graph.NoNode, false
	}
	if id, ok := b.dirs[dir]; ok {
		return id, true
	}
	parent, name := path.Split(dir)
	parent = strings.TrimSuffix(parent, "/")
	pid, hasParent := b.ensureDir(parent)
	id, ok := b.addNode(graph.Node{
		ExternalID: resolve.DirID(dir),
		Label:      name,
		Type:       graph.Directory,
		Tags:       []string{"directory"},
		Provenance: graph.Provenance{SourcePath: dir, Namespace: NamespaceCode},
	})
	if !ok {
		return graph.NoNode, false
	}
	b.dirs[dir] = id
	if hasParent {
		b.edge(pid, id, extract.RelContains, WeightCertain)
	}
	return id, true
}

// touchDir folds a file's time and change frequency into its directories.
func (b *builder) touchDir(dir string, t float64, f float32) { b.dirSpan.foldDirs(dir, t, f) }

// finishDirs writes the aggregated times and frequencies on directory
// nodes: a directory changes when any file in it does.
func (b *builder) finishDirs() {
	for d, id := range b.dirs {
		a := b.dirSpan[d]
		b.g.SetLastModified(id, a.t)
		b.g.SetChangeFrequency(id, a.f)
	}
}

// span is the latest change and the highest change frequency among the
// files a directory or package holds.
type span struct {
	t float64
	f float32
}

func (a *span) fold(t float64, f float32) { a.t, a.f = max(a.t, t), max(a.f, f) }

// spans aggregates by directory.
type spans map[string]span

// foldDirs folds a file's time and frequency into dir and its ancestors.
func (m spans) foldDirs(dir string, t float64, f float32) {
	for d := dir; d != ""; d = parentDir(d) {
		a := m[d]
		a.fold(t, f)
		m[d] = a
	}
}

func parentDir(d string) string {
	i := strings.LastIndexByte(d, '/')
	if i < 0 {
		return ""
	}
	return d[:i]
}
