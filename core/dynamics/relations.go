package dynamics

import (
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Transmission factors per relation (docs/design.md#dynamics-and-reports):
// how surely a defect on one end of an edge travels to the other.
// implements reads as inherits and instantiates as calls; any other
// dependency relation (uses, tests, decorated_by, …) spreads like a
// reference, the weakest dependency. Associations (co-change,
// similarity, documents) transmit nothing.
var transmission = map[string]float64{
	"imports":      0.8,
	"calls":        0.7,
	"instantiates": 0.7,
	"inherits":     0.6,
	"implements":   0.6,
	"references":   0.4,
	"contains":     0.3,
}

// otherDependency is the factor of a dependency relation not in the table.
const otherDependency = 0.4

// passive maps a passive relation ("imported_by") to its active form; the
// edge then reads the other way round.
var passive = map[string]string{
	"imported": "imports", "called": "calls", "inherited": "inherits", "implemented": "implements",
	"referenced": "references", "contained": "contains", "instantiated": "instantiates", "used": "uses",
	"tested": "tests",
}

var associations = map[string]bool{
	"co_changes": true, "co_change": true, "cochange": true, "similar_to": true, "relates_to": true,
	"related_to": true, "follows": true, "precedes": true, "same_as": true, "ghost": true, "documents": true,
	"links_to": true, "cites": true, "mentions_entity": true, "same_orcid": true, "same_author": true,
	"shared_keyword": true, "declares": true, "stubs": true,
}

// relInfo is what an edge's relation means to the models: its active
// name, its transmission factor, and whether the edge reads backwards
// (a passive form: the target is the dependent).
type relInfo struct {
	name     string
	factor   float64
	reversed bool
}

// relCache classifies each interned relation once.
type relCache map[graph.Str]relInfo

func (c relCache) of(g *graph.Graph, e graph.EdgeIdx) relInfo {
	s := g.Relation(e)
	if r, ok := c[s]; ok {
		return r
	}
	r := classify(g.Strings().String(s))
	c[s] = r
	return r
}

func classify(rel string) relInfo {
	base := strings.ToLower(rel)
	if i := strings.Index(base, "::"); i > 0 {
		base = base[:i]
	}
	if base == "holds" || base == "defines" {
		base = "contains"
	}
	r := relInfo{name: base}
	if stem, ok := strings.CutSuffix(base, "_by"); ok && base != "decorated_by" {
		if active, ok := passive[stem]; ok {
			r.name, r.reversed = active, true
		}
	}
	switch f, ok := transmission[r.name]; {
	case ok:
		r.factor = f
	case associations[r.name]:
	default:
		r.factor = otherDependency
	}
	return r
}

// container reports whether a node only groups others (a directory or a
// package): nothing travels through it as a node (contacts reads a
// dependency on it as one on what it holds).
func container(g *graph.Graph, n graph.NodeID) bool {
	t := g.Type(n)
	return t == graph.Directory || t == graph.Module
}
