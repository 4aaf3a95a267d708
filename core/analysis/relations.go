package analysis

import (
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// RelKind says what an edge means for the question "what depends on
// what". Impact follows dependency edges only; containment decides what a
// change to a node includes (its children) and is never a path of impact.
type RelKind uint8

const (
	// DependsOn: the source depends on the target (imports, calls,
	// references, inherits, implements, instantiates, decorated_by, tests,
	// member_of, uses). Relations nobody classified count as this, at a
	// lower strength (see relFactor): "A feeds B" reads best as A needing B.
	DependsOn RelKind = iota
	// DependedOnBy: the passive form, the target depends on the source
	// ("imported_by", "called_by", any relation ending in "_by").
	DependedOnBy
	// Contains: the source holds the target (directory → file, file →
	// function, class → method).
	Contains
	// Association: a link that is neither dependency nor containment —
	// derived co-change, similarity, narrative order. Impact ignores it.
	Association
	// Declares: the source declares the target's interface — a Python stub
	// (x.pyi declares x.py), a TypeScript declaration file. Changing the
	// declaration changes what every user of the target is checked
	// against, so impact's scope takes the target in; it is no dependency.
	Declares
)

// String names the kind.
func (k RelKind) String() string {
	switch k {
	case DependsOn:
		return "depends_on"
	case DependedOnBy:
		return "depended_on_by"
	case Contains:
		return "contains"
	case Declares:
		return "declares"
	}
	return "association"
}

// dependencyRelations are the code relations of the graph semantics table
// (ARCHITECTURE.md) and the extractors, with their strength: how surely a
// change of the target breaks the source. A call or an inheritance breaks
// on a signature change; an import of a name breaks on its removal; a
// type reference on its shape.
var dependencyRelations = map[string]float32{
	"calls":        1,
	"inherits":     1,
	"implements":   1,
	"instantiates": 1,
	"imports":      0.95,
	"member_of":    0.95,
	"decorated_by": 0.9,
	"references":   0.9,
	"uses":         0.9,
	"tests":        0.9,
	"depends_on":   0.8,
}

var associationRelations = map[string]bool{
	"co_changes": true, "co_change": true, "cochange": true, "similar_to": true,
	"relates_to": true, "related_to": true, "follows": true, "precedes": true,
	"same_as": true, "ghost": true,
	// The document lane: a document naming code is no dependency.
	"documents": true, "links_to": true, "cites": true, "mentions_entity": true,
	"same_orcid": true, "same_author": true, "shared_keyword": true,
}

// TypeImports is the relation of an import only a type checker reads:
// Python's under `if TYPE_CHECKING:`, TypeScript's `import type` (ingest
// extracts it). It is an "imports" edge for impact and rename — changing
// the type still breaks the importer's type check — but no dependency at
// run time: layers leaves it out of cycles and violations, why prefers a
// runtime path over it.
const TypeImports = "imports::type"

// IsTypeOnly reports whether a relation holds at type-check time only:
// its qualifier is "type" (imports::type).
func IsTypeOnly(rel string) bool {
	_, qual, ok := strings.Cut(rel, "::")
	return ok && strings.EqualFold(qual, "type")
}

// ClassifyRelation returns the kind of a relation name. Qualified names
// ("calls::cancel") are classified by their first segment.
func ClassifyRelation(rel string) RelKind {
	k, _ := classify(rel)
	return k
}

// classify returns the kind and the strength of a relation.
func classify(rel string) (RelKind, float32) {
	base := strings.ToLower(rel)
	if i := strings.Index(base, "::"); i > 0 {
		base = base[:i]
	}
	switch {
	case base == "contains" || base == "holds" || base == "defines":
		return Contains, 1
	case base == "declares" || base == "stubs":
		return Declares, 1
	case associationRelations[base]:
		return Association, 0
	}
	if f, ok := dependencyRelations[base]; ok {
		return DependsOn, f
	}
	if active, ok := strings.CutSuffix(base, "_by"); ok && active != "" {
		if base == "decorated_by" {
			return DependsOn, dependencyRelations[base]
		}
		f := dependencyRelations[activeForm(active)]
		if f == 0 {
			f = 0.8
		}
		return DependedOnBy, f
	}
	return DependsOn, 0.8
}

// activeForm maps a passive stem ("imported", "called") to the active
// relation name when it is a known one.
func activeForm(stem string) string {
	for rel := range dependencyRelations {
		if passiveStem(rel) == stem {
			return rel
		}
	}
	return stem
}

// passiveStem: "imports" → "imported", "calls" → "called", "tests" →
// "tested", "references" → "referenced", "uses" → "used".
func passiveStem(rel string) string {
	switch rel {
	case "member_of":
		return "has_member"
	case "decorated_by":
		return "decorates"
	case "depends_on":
		return "depended_on"
	}
	s := strings.TrimSuffix(rel, "s")
	if strings.HasSuffix(s, "e") {
		return s + "d"
	}
	return s + "ed"
}

// PassiveRelation is how a relation reads when a path walks it from target
// to source: "imports" → "imported_by", "calls" → "called_by", "contains"
// → "contained_in", "decorated_by" → "decorates", "imported_by" →
// "imports". Paths in the answers of impact and why use it for reversed
// hops, so every hop reads left to right.
func PassiveRelation(rel string) string {
	base, qual, _ := strings.Cut(rel, "::")
	if qual != "" {
		qual = "::" + qual
	}
	switch k, _ := classify(base); {
	case k == Contains:
		return "contained_in" + qual
	case k == Declares:
		return "declared_by" + qual
	case base == "decorated_by":
		return "decorates" + qual
	case base == "member_of":
		return "has_member" + qual
	case base == "depends_on":
		return "depended_on_by" + qual
	case k == DependedOnBy:
		if active := activeForm(strings.TrimSuffix(base, "_by")); active != strings.TrimSuffix(base, "_by") {
			return active + qual
		}
		return base + "_reversed" + qual
	case k == Association:
		return base + qual // symmetric in meaning
	}
	return passiveStem(base) + "_by" + qual
}

// relTable caches the classification of every relation string of one graph
// for one call (a few dozen distinct relations at most).
type relTable struct {
	g    *graph.Graph
	kind map[graph.Str]relInfo
	// near caches kind by the relation's low bits: a walk reads a few
	// relations once per edge, and an array read costs a fraction of a
	// map's.
	near [64]relSlot
}

type relSlot struct {
	s  graph.Str
	ri relInfo
	ok bool
}

type relInfo struct {
	kind     RelKind
	strength float32
}

func newRelTable(g *graph.Graph) *relTable {
	return &relTable{g: g, kind: make(map[graph.Str]relInfo, 16)}
}

func (t *relTable) of(e graph.EdgeIdx) relInfo {
	s := t.g.Relation(e)
	c := &t.near[s%graph.Str(len(t.near))]
	if c.ok && c.s == s {
		return c.ri
	}
	ri, ok := t.kind[s]
	if !ok {
		k, f := classify(t.g.Strings().String(s))
		ri = relInfo{k, f}
		t.kind[s] = ri
	}
	*c = relSlot{s, ri, true}
	return ri
}

// structuralWeight is an edge's weight as ingest set it (1 for a certain
// reference, less for a best guess), clamped to [0, 1]. Impact and why
// answer a structural question, so what agents taught the graph (learned
// weights, which activate and seek read) does not move them.
func structuralWeight(g *graph.Graph, e graph.EdgeIdx) float32 {
	if orig := g.EdgePlasticity().Original; int(e) < len(orig) {
		return finite.Clamp(orig[e], 0, 1)
	}
	return finite.Clamp(g.Weight(e), 0, 1)
}

// isContainer reports whether v only groups other nodes: a directory, a
// package or workspace node. Impact never passes through one (a package
// would make everything depend on everything) and never lists one.
func isContainer(g *graph.Graph, v graph.NodeID) bool {
	switch g.Type(v) {
	case graph.Directory:
		return true
	case graph.Module:
		return g.HasTag(v, "package") || g.HasTag(v, "workspace")
	}
	return false
}

// units maps a node to the file that holds it — its unit for file-level
// answers — found by walking containment upwards (memoised per call). A
// node no file holds (a directory, a memory note) is its own unit.
type units struct {
	g    *graph.Graph
	rels *relTable
	memo map[graph.NodeID]graph.NodeID
}

func newUnits(g *graph.Graph, rels *relTable) *units {
	return &units{g: g, rels: rels, memo: map[graph.NodeID]graph.NodeID{}}
}

func (x *units) of(v graph.NodeID) graph.NodeID {
	if f, ok := x.memo[v]; ok {
		return f
	}
	u := unitOf(x.g, x.rels, v)
	x.memo[v] = u
	return u
}

// unitOf is the file holding v, or v when no file holds it (units.of
// without the memo).
func unitOf(g *graph.Graph, rels *relTable, v graph.NodeID) graph.NodeID {
	u := v
	for depth := 0; depth < 32 && g.Type(u) != graph.File; depth++ {
		parent := graph.NoNode
		lo, hi := g.InRange(u)
		for pos := lo; pos < hi; pos++ {
			e := g.InEdge(pos)
			if !g.IsMirror(e) && rels.of(e).kind == Contains {
				parent = g.InSource(pos)
				break
			}
		}
		if parent == graph.NoNode || isContainer(g, parent) {
			return v
		}
		u = parent
	}
	return u
}
