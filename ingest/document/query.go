package document

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// DocInfo is one document node of a graph.
type DocInfo struct {
	Node graph.NodeID
	// Path is the document's path in graph terms; Abs the file on disk
	// ("" when the node carries no base).
	Path      string
	Abs       string
	Format    Format
	Title     string
	Namespace string
}

// Catalog lists the document nodes of a finalized graph, by path then ID.
func Catalog(g *graph.Graph) []DocInfo {
	var out []DocInfo
	for _, id := range g.NodesByTag(TagDocument) {
		out = append(out, Info(g, id))
	}
	slices.SortFunc(out, func(a, b DocInfo) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(g.ExternalID(a.Node), g.ExternalID(b.Node))
	})
	return out
}

// Info describes a document node.
func Info(g *graph.Graph, id graph.NodeID) DocInfo {
	p := g.Provenance(id)
	d := DocInfo{Node: id, Path: p.SourcePath, Title: p.Excerpt, Namespace: p.Namespace}
	for _, t := range g.Tags(id) {
		switch {
		case strings.HasPrefix(t, TagBasePrefix):
			d.Abs = filepath.Join(t[len(TagBasePrefix):], filepath.FromSlash(d.Path))
		case strings.HasPrefix(t, "format:"):
			d.Format = Format(t[len("format:"):])
		}
	}
	return d
}

// DocumentOf returns the document node a lane node (document, section,
// block, table) belongs to.
func DocumentOf(g *graph.Graph, id graph.NodeID) (graph.NodeID, bool) {
	ext := g.ExternalID(id)
	if !IsDocID(ext) {
		return graph.NoNode, false
	}
	if g.HasTag(id, TagDocument) {
		return id, true
	}
	if i := strings.IndexByte(ext, '#'); i > 0 {
		if d, ok := g.Lookup(ext[:i]); ok && g.HasTag(d, TagDocument) {
			return d, true
		}
	}
	return graph.NoNode, false
}

// Sections returns a document's section nodes in document order (line,
// then ID).
func Sections(g *graph.Graph, doc graph.NodeID) []graph.NodeID {
	var out []graph.NodeID
	var walk func(n graph.NodeID, depth int)
	seen := map[graph.NodeID]bool{doc: true}
	walk = func(n graph.NodeID, depth int) {
		lo, hi := g.OutRange(n)
		for e := lo; e < hi; e++ {
			t := g.Target(e)
			if seen[t] || g.RelationName(e) != RelContains || !g.HasTag(t, TagSection) || depth > 12 {
				continue
			}
			seen[t] = true
			out = append(out, t)
			walk(t, depth+1)
		}
	}
	walk(doc, 0)
	slices.SortFunc(out, func(a, b graph.NodeID) int {
		if c := cmp.Compare(g.Provenance(a).LineStart, g.Provenance(b).LineStart); c != 0 {
			return c
		}
		return strings.Compare(g.ExternalID(a), g.ExternalID(b))
	})
	return out
}

// Owned reports whether node id belongs to one of the documents in docs
// (the document itself, its sections, blocks and tables).
func owned(ext string, docs map[string]bool) bool {
	if docs[ext] {
		return true
	}
	i := strings.IndexByte(ext, '#')
	return i > 0 && docs[ext[:i]]
}

// DropUnder returns g without the documents of namespace ns whose file
// lies at or under root (an absolute path) and whose format reads accepts
// (nil: any), nor their sections, blocks and tables: what a re-ingest of
// root by an adapter reading those formats replaces. It returns g itself and
// 0 when nothing matches.
func DropUnder(g *graph.Graph, root, ns string, reads func(Format) bool) (*graph.Graph, int, error) {
	return DropDocuments(g, func(d DocInfo) bool {
		if d.Abs == "" || (ns != "" && d.Namespace != ns) || reads != nil && !reads(d.Format) {
			return false
		}
		return d.Abs == root || strings.HasPrefix(d.Abs, root+string(filepath.Separator))
	})
}

// DropDocuments returns g without the documents drop selects (and their
// content nodes); g itself and 0 when none is selected.
func DropDocuments(g *graph.Graph, drop func(DocInfo) bool) (*graph.Graph, int, error) {
	docs := map[string]bool{}
	for _, d := range Catalog(g) {
		if drop(d) {
			docs[g.ExternalID(d.Node)] = true
		}
	}
	if len(docs) == 0 {
		return g, 0, nil
	}
	out, err := g.Rewritten(graph.Rewrite{Drop: func(id graph.NodeID) bool { return owned(g.ExternalID(id), docs) }})
	if err != nil {
		return nil, 0, err
	}
	return out, len(docs), nil
}
