package tools

import (
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/textsearch"
)

// enclosing returns the innermost node of file f whose line range covers
// line.
func Enclosing(g *graph.Graph, f *GraphFile, line int) (graph.NodeID, bool) {
	best, bestSpan := graph.NoNode, uint32(1<<31)
	for _, id := range f.Nodes {
		p := g.Provenance(id)
		if p.LineStart == 0 || int(p.LineStart) > line || int(max(p.LineEnd, p.LineStart)) < line {
			continue
		}
		if span := max(p.LineEnd, p.LineStart) - p.LineStart; span < bestSpan {
			best, bestSpan = id, span
		}
	}
	return best, best != graph.NoNode
}

// contentLoader reads result files once per call (through the cache and
// the path guard).
type contentLoader struct {
	cache *textsearch.Cache
	open  textsearch.Opener
	Got   map[string][]byte
}

func NewContentLoader(c *textsearch.Cache, open textsearch.Opener) *contentLoader {
	return &contentLoader{cache: c, open: open, Got: map[string][]byte{}}
}

func (l *contentLoader) Load(abs string) []byte {
	if abs == "" {
		return nil
	}
	if d, ok := l.Got[abs]; ok {
		return d
	}
	d, err := l.cache.Load(abs, l.open)
	if err != nil || textsearch.IsBinary(d) {
		d = nil
	}
	l.Got[abs] = d
	return d
}
