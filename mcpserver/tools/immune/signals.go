package immune

import (
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// moduleOf is the module a node's signals are kept under: its file.
func moduleOf(g *graph.Graph, id graph.NodeID) graph.NodeID { return history.FileOf(g, id) }

// matchesFilter: a node filter is a substring of the external id or path.
func matchesFilter(g *graph.Graph, id graph.NodeID, filter string) bool {
	if filter == "" {
		return true
	}
	return strings.Contains(g.ExternalID(id), filter) || strings.Contains(g.SourcePath(id), filter)
}

// isDoc: documents (tagged doc by ingest) change with every fix — a
// changelog most of all — and hold no code to be fragile.
func isDoc(g *graph.Graph, id graph.NodeID) bool { return g.HasTag(id, "doc") }

// holdsNoCode: a document, or a file declaring no function or type (a fuzz
// corpus entry, go.mod, a fixture): its history says nothing of defects,
// so trust and tremor read it only when include_docs asks for it.
func holdsNoCode(g *graph.Graph, id graph.NodeID) bool {
	return isDoc(g, id) || g.Type(id) == graph.File && !tools.HoldsCode(g, id)
}
