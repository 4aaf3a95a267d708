package patterns

import (
	"cmp"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
)

// Resolution tiers of ResolveType, in the order they are tried.
const (
	TierExactID    = "exact_id"
	TierExactLabel = "exact_label"
	TierSegment    = "segment"
	TierSubstring  = "substring"
)

// maxSubstringScan bounds the candidates the substring tier collects.
const maxSubstringScan = 64

// IsTypeNode reports whether a node defines a type (struct, class, enum,
// type declaration) — preferred over impl blocks, files and functions of
// the same name.
func IsTypeNode(t graph.NodeType) bool {
	return t == graph.Struct || t == graph.Class || t == graph.Enum || t == graph.Type
}

// ResolveType finds the node ref names, in four tiers: exact external
// ID, exact label, segment (an ID ending with ref's "::"- or
// "."-separated segments, with or without the file's name: models.User,
// or http.Request for net/http/request.go's Request), substring of a
// type's label (case-insensitive).
// Within the first tier that matches, type-defining nodes come first,
// then the more central, then by NodeID. It returns the candidates in
// that order and the tier (none: "").
func ResolveType(g *graph.Graph, ref string) ([]graph.NodeID, string) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return nil, ""
	}
	if id, ok := g.Lookup(ref); ok {
		return []graph.NodeID{id}, TierExactID
	}
	if c := g.NodesByLabel(ref); len(c) > 0 {
		return rankTypes(g, c), TierExactLabel
	}
	if segs := segments(ref); len(segs) > 0 {
		suffix := "|" + strings.Join(segs, "|")
		var c []graph.NodeID
		for _, id := range g.NodesByLabel(segs[len(segs)-1]) {
			ext := g.ExternalID(id)
			// Also without the file's name: Go qualifies by package
			// (http.Request lives in net/http/request.go).
			pkg := ext
			if f, rest, ok := strings.Cut(strings.TrimPrefix(ext, "file::"), "::"); ok {
				pkg = path.Dir(f) + "::" + rest
			}
			if strings.HasSuffix("|"+strings.Join(segments(ext), "|"), suffix) || strings.HasSuffix("|"+strings.Join(segments(pkg), "|"), suffix) {
				c = append(c, id)
			}
		}
		if len(c) > 0 {
			return rankTypes(g, c), TierSegment
		}
	}
	low := strings.ToLower(ref)
	var c []graph.NodeID
	for i := 0; i < g.NumNodes() && len(c) < maxSubstringScan; i++ {
		id := graph.NodeID(i)
		if IsTypeNode(g.Type(id)) && strings.Contains(strings.ToLower(g.Label(id)), low) {
			c = append(c, id)
		}
	}
	if len(c) > 0 {
		return rankTypes(g, c), TierSubstring
	}
	return nil, ""
}

// sourceExt matches a source file's extension before "::" or the end.
var sourceExt = regexp.MustCompile(`\.(py|pyi|go|rs|ts|tsx|js|jsx|mjs|java|kt|rb|c|h|cc|cpp|hpp|cs|swift|php|scala)(::|$)`)

// segments splits a reference or an external ID into its names:
// "file::models.py::User", "models.User" and "models/User" all end in
// models, User.
func segments(s string) []string {
	s = sourceExt.ReplaceAllString(s, "$2")
	return strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == ':' || r == '/' })
}

func rankTypes(g *graph.Graph, c []graph.NodeID) []graph.NodeID {
	c = slices.Clone(c)
	typeFirst := func(id graph.NodeID) int {
		if IsTypeNode(g.Type(id)) {
			return 0
		}
		return 1
	}
	slices.SortFunc(c, func(a, b graph.NodeID) int {
		return cmp.Or(cmp.Compare(typeFirst(a), typeFirst(b)), cmp.Compare(g.PageRank(b), g.PageRank(a)), cmp.Compare(a, b))
	})
	return c
}

// Directions of TypeTrace.
const (
	// Forward: where the type goes — what uses it, then what uses those.
	Forward = "forward"
	// Reverse: what the type is made of — what it and its methods use.
	Reverse = "reverse"
	// Both directions.
	Both = "both"
)

// Defaults of TypeTraceParams.
const (
	DefaultTypeHops  = 2
	DefaultTypeNodes = 500
)

// TypeTraceParams configures TypeTrace.
type TypeTraceParams struct {
	Direction string // Forward (default), Reverse or Both
	// MaxHops bounds the walk (0: 2); MaxNodes the usages collected (0:
	// 500).
	MaxHops, MaxNodes int
}

// Usage is one node a type reaches.
type Usage struct {
	Node graph.NodeID
	// Hop is the distance from the type (a method of the type is hop 1);
	// Via the node it was reached from, Relation the edge's relation
	// ("method" for the type's own methods).
	Hop      int
	Via      graph.NodeID
	Relation string
	// Direction is Forward (Node uses the type) or Reverse (the type uses
	// Node).
	Direction string
}

// TypeTraceResult is TypeTrace's answer: usages by hop, then NodeID.
type TypeTraceResult struct {
	Usages    []Usage
	Truncated bool
}

// TypeTrace walks from a type along dependency edges (references, calls,
// inheritance, …; never containment except to the type's own methods),
// breadth first: forward to what depends on it, reverse to what it and
// its methods depend on.
func TypeTrace(g *graph.Graph, typ graph.NodeID, p TypeTraceParams) TypeTraceResult {
	p.MaxHops = cmp.Or(p.MaxHops, DefaultTypeHops)
	p.MaxNodes = cmp.Or(p.MaxNodes, DefaultTypeNodes)
	var res TypeTraceResult
	for _, dir := range []string{Forward, Reverse} {
		if p.Direction != dir && p.Direction != Both && !(p.Direction == "" && dir == Forward) {
			continue
		}
		seen := map[graph.NodeID]bool{typ: true}
		frontier := []graph.NodeID{typ}
		add := func(n, via graph.NodeID, rel string, hop int) {
			if seen[n] || len(res.Usages) >= p.MaxNodes {
				res.Truncated = res.Truncated || !seen[n]
				return
			}
			seen[n] = true
			res.Usages = append(res.Usages, Usage{Node: n, Hop: hop, Via: via, Relation: rel, Direction: dir})
		}
		for _, m := range methodsOf(g, typ) {
			add(m, typ, "method", 1)
		}
		frontier = append(frontier, methodsOf(g, typ)...)
		for hop := 1; hop <= p.MaxHops && len(frontier) > 0; hop++ {
			start := len(res.Usages)
			for _, n := range frontier {
				eachDependency(g, n, dir, func(m graph.NodeID, rel string) { add(m, n, rel, hop) })
			}
			frontier = frontier[:0]
			for _, u := range res.Usages[start:] {
				frontier = append(frontier, u.Node)
			}
		}
	}
	slices.SortStableFunc(res.Usages, func(a, b Usage) int {
		return cmp.Or(cmp.Compare(a.Hop, b.Hop), cmp.Compare(a.Direction, b.Direction), cmp.Compare(a.Node, b.Node))
	})
	return res
}

// methodsOf lists the functions a type contains.
func methodsOf(g *graph.Graph, typ graph.NodeID) []graph.NodeID {
	var out []graph.NodeID
	lo, hi := g.OutRange(typ)
	for e := lo; e < hi; e++ {
		if !g.IsMirror(e) && g.RelationName(e) == "contains" && g.Type(g.Target(e)) == graph.Function {
			out = append(out, g.Target(e))
		}
	}
	return out
}

// eachDependency calls f with the nodes that depend on n (Forward) or
// that n depends on (Reverse), through dependency relations.
func eachDependency(g *graph.Graph, n graph.NodeID, dir string, f func(graph.NodeID, string)) {
	if dir == Reverse {
		lo, hi := g.OutRange(n)
		for e := lo; e < hi; e++ {
			if !g.IsMirror(e) && analysis.ClassifyRelation(g.RelationName(e)) == analysis.DependsOn {
				f(g.Target(e), g.RelationName(e))
			}
		}
		return
	}
	lo, hi := g.InRange(n)
	for pos := lo; pos < hi; pos++ {
		e := g.InEdge(pos)
		if !g.IsMirror(e) && analysis.ClassifyRelation(g.RelationName(e)) == analysis.DependsOn {
			f(g.InSource(pos), g.RelationName(e))
		}
	}
}
