package analysis

import (
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// A re-export hub is a module that gathers other modules' names for its
// importers: a barrel (`export * from`, `export {x} from`, Python
// `from .m import a, b` gathered under `__all__`), whatever its name — a
// package __init__.py, an index.ts, immer's src/immer.ts. Importing one
// name through it takes in that name's module, not every module the hub
// gathers: "a depends on c" must not hold because a takes X (from b)
// from a barrel that also re-exports c. "Depends on" is the code's
// dependency (docs/design.md#analyses); the program does run the whole
// hub on import, so such a chain is left open (hub_chain, ×1), never
// made false.

// hubClaims are the claims whose dependency chain is read through hubs.
var hubClaims = map[ClaimType]bool{ClaimDependsOn: true, ClaimNoDependency: true, ClaimAffects: true}

// chainEvidence is the evidence of the dependency chain s found: its
// path, or, when the chain leaves a hub toward a module its importer
// takes nothing from, the shortest chain that follows the names used
// (or a hub_chain note when there is none within MaxHops).
func (h *hypo) chainEvidence(s search) Evidence {
	orig := h.pathEvidence(s, "depends on")
	if !h.d.fileLevel || !hubClaims[h.res.Claim.Type] {
		return orig
	}
	r := newHubReader(h.g, h.d)
	at, misbound := r.unfollowedHop(s.nodes)
	if at < 0 {
		return orig
	}
	found, expanded := r.search(s.nodes[0], s.nodes[len(s.nodes)-1], h.p.MaxHops, h.runtime)
	h.res.PathsExplored += expanded
	switch {
	case found == nil && misbound:
		return r.misboundChain(orig, at)
	case found == nil:
		return r.hubChain(orig, at)
	case misbound:
		return r.pathOf(found, "a misbound import")
	}
	return r.narrowedPath(found, orig, at)
}

// hubReader answers which modules an importer reaches through a hub.
type hubReader struct {
	g *graph.Graph
	d *DepGraph
	// uses[u]: what unit u's code names in other units.
	uses map[graph.NodeID]unitUses
	hubs map[graph.NodeID]bool
	// misbinds[u]: the units u links to by misbound imports alone.
	misbinds map[graph.NodeID]map[graph.NodeID]bool
}

// unitUses is what a unit's code names: by the unit that holds each node
// (the unit itself for a whole-module import), and the nodes it imports
// by name.
type unitUses struct {
	byUnit   map[graph.NodeID][]graph.NodeID
	imported []graph.NodeID
}

func newHubReader(g *graph.Graph, d *DepGraph) *hubReader {
	return &hubReader{g: g, d: d, uses: map[graph.NodeID]unitUses{}, hubs: map[graph.NodeID]bool{}, misbinds: map[graph.NodeID]map[graph.NodeID]bool{}}
}

func (r *hubReader) name(v graph.NodeID) string {
	return strings.TrimPrefix(r.g.ExternalID(v), "file::")
}

func isImportRel(rel string) bool {
	base, _, _ := strings.Cut(strings.ToLower(rel), "::")
	return base == "imports"
}
