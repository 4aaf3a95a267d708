package tools

import (
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// userRelations are the edges by which one file uses another.
// A type-only import (imports::type) is a use: changing the type breaks
// the importer's type check.
var UserRelations = []string{"imports", "imports::type", "calls", "references", "inherits", "implements", "tests", "decorated_by", "member_of"}

// usersOf lists the files that use a file, by the graph: the sources of
// dependency edges into it or into any node of it, and of imports of its
// directory (a Go package); for a Go file, the other files of its
// package too (they use its names without any import).
func UsersOf(bd *session.Bundle, p string) []string {
	g := bd.Graph
	gf := BundleGraphFiles(bd)
	i, ok := gf.ByPath[p]
	if !ok {
		return nil
	}
	f := gf.Files[i]
	seen := map[string]bool{p: true}
	var out []string
	add := func(q string) {
		if q != "" && !seen[q] {
			seen[q] = true
			out = append(out, q)
		}
	}
	into := func(id graph.NodeID, rels ...string) {
		ilo, ihi := g.InRange(id)
		for k := ilo; k < ihi; k++ {
			if slices.Contains(rels, g.RelationName(g.InEdge(k))) {
				add(g.SourcePath(FileOf(g, g.InSource(k))))
			}
		}
	}
	ids := slices.Clone(f.Nodes)
	if f.Node != graph.NoNode {
		ids = append(ids, f.Node)
		for _, n := range g.Neighbors(f.Node) {
			if n.Incoming && n.Relation == "contains" && g.Type(n.Node) == graph.Directory {
				into(n.Node, "imports")
			}
		}
	}
	for _, id := range ids {
		into(id, UserRelations...)
	}
	if strings.HasSuffix(p, ".go") {
		dir, prefix := path.Dir(p), path.Dir(p)+"/"
		if dir == "." {
			prefix = ""
		}
		j, _ := slices.BinarySearchFunc(gf.Files, prefix, func(f GraphFile, t string) int { return strings.Compare(f.Path, t) })
		for ; j < len(gf.Files) && strings.HasPrefix(gf.Files[j].Path, prefix); j++ {
			if q := gf.Files[j].Path; path.Dir(q) == dir && strings.HasSuffix(q, ".go") {
				add(q)
			}
		}
	}
	slices.Sort(out)
	return out
}

func ReadBounded(p string, max int64) ([]byte, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%s is larger than %d bytes", p, max)
	}
	return os.ReadFile(p)
}
