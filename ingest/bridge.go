package ingest

import (
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// bridgeReferences links the file-reference nodes of a merged-in memory
// graph ("memory:reference" tag, label = a path) to the code file nodes of
// the same path, so activation can travel from notes to code. A path
// matches a file node whose path equals it or ends with "/"+path; several
// matches are all linked only when there are at most three (a bare "mod.rs"
// mentioned in a note names nothing in particular). It returns the number
// of edges added.
func bridgeReferences(merged, added *graph.Graph) int {
	var refs []graph.NodeID
	for i := 0; i < added.NumNodes(); i++ {
		id := graph.NodeID(i)
		if added.Type(id) == graph.Reference && added.HasTag(id, "memory:reference") {
			refs = append(refs, id)
		}
	}
	if len(refs) == 0 {
		return 0
	}
	byBase := map[string][]graph.NodeID{}
	for i := 0; i < merged.NumNodes(); i++ {
		id := graph.NodeID(i)
		if merged.Type(id) != graph.File {
			continue
		}
		p, ok := strings.CutPrefix(merged.ExternalID(id), "file::")
		if !ok {
			continue
		}
		byBase[p[strings.LastIndexByte(p, '/')+1:]] = append(byBase[p[strings.LastIndexByte(p, '/')+1:]], id)
	}
	n := 0
	for _, r := range refs {
		label := strings.TrimPrefix(added.Label(r), "./")
		src, ok := merged.Lookup(added.ExternalID(r))
		if !ok {
			continue
		}
		var hits []graph.NodeID
		for _, f := range byBase[label[strings.LastIndexByte(label, '/')+1:]] {
			p := strings.TrimPrefix(merged.ExternalID(f), "file::")
			if p == label || strings.HasSuffix(p, "/"+label) {
				hits = append(hits, f)
			}
		}
		if len(hits) == 0 || len(hits) > 3 {
			continue
		}
		for _, f := range hits {
			if merged.AddEdge(graph.Edge{Source: src, Target: f, Relation: "references", Weight: 1, CausalStrength: 0.3}) == nil {
				n++
			}
		}
	}
	return n
}
