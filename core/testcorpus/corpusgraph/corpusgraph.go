// Package corpusgraph builds the graph of testcorpus files by hand, from
// the corpus's declared entities and edges, so that tests of the engines
// (and golden answers over them) do not move with the extractors.
package corpusgraph

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/testcorpus"
)

// Of is Build with the corpus's own entities.
func Of(files map[string]string) (*graph.Graph, error) {
	return Build(files, testcorpus.Entities)
}

// Build returns the finalized graph of files: a node per directory
// ("dir::<dir>", none for the root), per file ("file::<path>", tagged with
// its language) and per entity of ents in a file present, each contained
// by its parent with weight 1, and testcorpus.Edges (weight 0.8) between
// the nodes present. Nodes are added in path order, entities in their
// file's order, so NodeIDs are stable.
func Build(files map[string]string, ents map[string][]testcorpus.Entity) (*graph.Graph, error) {
	g := graph.New()
	dirs := map[string]graph.NodeID{}
	contain := func(parent, child graph.NodeID) error {
		return g.AddEdge(graph.Edge{Source: parent, Target: child, Relation: "contains", Weight: 1})
	}
	for _, p := range testcorpus.Paths(files) {
		src := files[p]
		lines := strings.Split(src, "\n")
		dir := path.Dir(p)
		if _, ok := dirs[dir]; !ok && dir != "." {
			d, err := g.AddNode(graph.Node{ExternalID: "dir::" + dir, Label: dir, Type: graph.Directory,
				Provenance: graph.Provenance{SourcePath: dir}})
			if err != nil {
				return nil, err
			}
			dirs[dir] = d
		}
		file, err := g.AddNode(graph.Node{ExternalID: "file::" + p, Label: path.Base(p), Type: graph.File, Tags: tags(p),
			Provenance: graph.Provenance{SourcePath: p, LineStart: 1, LineEnd: uint32(strings.Count(src, "\n"))}})
		if err != nil {
			return nil, err
		}
		if d, ok := dirs[dir]; ok {
			if err := contain(d, file); err != nil {
				return nil, err
			}
		}
		for _, e := range ents[p] {
			if e.Start < 1 || e.End > len(lines) {
				return nil, errors.New("corpusgraph: " + e.ID(p) + " lies outside its file")
			}
			id, err := g.AddNode(graph.Node{ExternalID: e.ID(p), Label: e.Name, Type: nodeType(e.Kind),
				Provenance: graph.Provenance{SourcePath: p, LineStart: uint32(e.Start), LineEnd: uint32(e.End),
					Excerpt: strings.TrimSpace(lines[e.Start-1])}})
			if err != nil {
				return nil, err
			}
			if err := contain(file, id); err != nil {
				return nil, err
			}
		}
	}
	for _, e := range testcorpus.Edges {
		_, ok1 := g.Lookup(e.Source)
		_, ok2 := g.Lookup(e.Target)
		if !ok1 || !ok2 {
			continue // its file or entity was left out
		}
		if err := g.AddEdgeByID(e.Source, e.Target, graph.Edge{Relation: e.Relation, Weight: 0.8}); err != nil {
			return nil, err
		}
	}
	g.Finalize()
	return g, nil
}

// Reader reads files as a file system would: fs.ErrNotExist for a path
// not among them.
func Reader(files map[string]string) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		s, ok := files[p]
		if !ok {
			return nil, errors.Join(fs.ErrNotExist, errors.New(p))
		}
		return []byte(s), nil
	}
}

func nodeType(kind string) graph.NodeType {
	if kind == testcorpus.Class {
		return graph.Class
	}
	return graph.Function
}

// tags are the language tags ingest gives a file of this extension.
func tags(p string) []string {
	switch path.Ext(p) {
	case ".py":
		return []string{"python"}
	case ".go":
		return []string{"go"}
	case ".md":
		return []string{"markdown", "doc"}
	}
	return nil
}
