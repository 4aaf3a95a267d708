package dynamics

import (
	"bytes"

	coredyn "github.com/m1nd-go/m1nd/core/dynamics"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/pathguard"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// maxSourceFiles bounds the files one flow_simulate reads to find the
// attributes the reached methods write.
const maxSourceFiles = 2000

// methodSource reads a node's span from its file on disk, through the
// path guard, each file once per call (nil when the graph has no ingest
// roots: a graph loaded from JSON, say).
func methodSource(b *session.Bundle) coredyn.SourceFunc {
	if tools.NeedRoots(b) != nil {
		return nil
	}
	g := b.Graph
	space, guard := tools.BundleSpace(b), tools.BundleGuard(b)
	files := map[string][][]byte{}
	return func(n graph.NodeID) []string {
		p := g.SourcePath(n)
		lines, seen := files[p]
		if !seen {
			if len(files) == maxSourceFiles {
				return nil
			}
			lines = readLines(space, guard, p)
			files[p] = lines
		}
		pr := g.Provenance(n)
		lo, hi := int(pr.LineStart), int(pr.LineEnd)
		if lo < 1 || hi < lo || hi > len(lines) {
			return nil
		}
		out := make([]string, 0, hi-lo+1)
		for _, l := range lines[lo-1 : hi] {
			out = append(out, string(l))
		}
		return out
	}
}

func readLines(space *tools.RootSpace, guard *pathguard.Guard, p string) [][]byte {
	res, _, _, err := space.Resolve(guard, p)
	if err != nil || !res.Exists {
		return nil
	}
	data, _, err := tools.ReadGuarded(res, "file")
	if err != nil {
		return nil
	}
	return bytes.Split(data, []byte{'\n'})
}
