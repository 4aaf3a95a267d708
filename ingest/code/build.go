package code

import (
	"errors"
	"path"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/resolve"
)

// Relation strengths from the spec's table: contains and implements are
// bidirectional; everything else runs forward.
var causal = map[string]struct {
	strength float32
	dir      graph.Direction
}{
	"contains":   {0.8, graph.Bidirectional},
	"implements": {0.7, graph.Bidirectional},
	"imports":    {0.6, graph.Forward},
	"calls":      {0.5, graph.Forward},
	"references": {0.3, graph.Forward},
}

// CausalStrength returns the spec's causal strength and direction of a
// relation ("other" relations: 0.4, forward).
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

// addNode adds a node; a duplicate external ID is counted and skipped
// (spec: DuplicateNode → collision counter, continue).
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
