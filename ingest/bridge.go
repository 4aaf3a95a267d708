package ingest

import (
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// bridgeReferences links the file-reference nodes of memory graphs
// ("memory:reference" tag, label = a path) to the code file nodes of the
// same path, so activation can travel from notes to code — whichever of the
// two was ingested first. A path
// matches a file node whose path equals it or ends with "/"+path; several
// matches are all linked only when there are at most three (a bare "mod.rs"
// mentioned in a note names nothing in particular). It returns the number
// of edges added.
//
// csrNodes is how many nodes the merged graph's CSR covers (the existing
// graph's count); only among those can an earlier bridge already exist.
func bridgeReferences(merged *graph.Graph, csrNodes int) int {
	var refs []graph.NodeID
	for i := 0; i < merged.NumNodes(); i++ {
		id := graph.NodeID(i)
		if merged.Type(id) == graph.Reference && merged.HasTag(id, "memory:reference") {
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
	for _, src := range refs {
		label := strings.TrimPrefix(merged.Label(src), "./")
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
			if int(src) < csrNodes && int(f) < csrNodes {
				if _, ok := merged.FindEdgeByName(src, f, "references"); ok {
					continue // bridged by an earlier merge
				}
			}
			if merged.AddEdge(graph.Edge{Source: src, Target: f, Relation: "references", Weight: 1, CausalStrength: 0.3}) == nil {
				n++
			}
		}
	}
	return n
}
