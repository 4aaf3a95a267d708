package tools

import (
	"context"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest"
	"github.com/m1nd-go/m1nd/ingest/document"
)

// routeAdapter resolves "auto"/"document" to "code" when the path is a
// source tree, so a code root ingested through the router is cached,
// tracked for staleness and merged like one ingested as "code".
func routeAdapter(ctx context.Context, name, root string) string {
	a, err := ingest.Adapters().Lookup(name)
	if err != nil || a.Name() != document.Router.Name() {
		return name
	}
	if g, err := document.DetectPath(ctx, root); err == nil && g.Format == document.Code {
		return "code"
	}
	return name
}

// replacedDocuments removes from g the documents a document adapter is
// about to ingest again from root (a merge would otherwise keep sections
// deleted since); other adapters leave g as it is.
func replacedDocuments(g *graph.Graph, root, adapterName, ns string) (*graph.Graph, error) {
	a, err := ingest.Adapters().Lookup(adapterName)
	da, ok := a.(document.Adapter)
	if err != nil || !ok || g == nil {
		return g, nil
	}
	if ns = strings.TrimSpace(ns); ns == "" {
		ns = document.DefaultNamespace
	}
	out, _, err := document.DropUnder(g, root, ns, da.Reads)
	return out, err
}
