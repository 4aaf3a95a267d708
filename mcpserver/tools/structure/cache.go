package structure

import (
	"strings"
	"sync"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
	core "github.com/m1nd-go/m1nd/core/structure"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// Per-bundle caches: a bundle is one graph generation, so a re-ingest
// (a new bundle) starts them afresh (docs/design.md#structure-family).
var (
	fileDepsKey = session.NewKey[*analysis.DepGraph]("structure.deps.file")
	layersKey   = session.NewKey[*layerCache]("structure.layers")
)

func fileDeps(b *session.Bundle) (*analysis.DepGraph, error) {
	return session.Derive(b, fileDepsKey, func(g *graph.Graph) (*analysis.DepGraph, error) {
		return analysis.NewDepGraph(g, true)
	})
}

// unitKey is what a layering depends on besides the graph.
type unitKey struct {
	gran         core.Granularity
	scope        string
	excludeTests bool
	// types: the node_type_filter's types, sorted, comma-joined; "" for
	// files alone.
	types string
	// runtime leaves out type-only dependencies (core.UnitOptions.Runtime).
	runtime bool
}

// layerCache holds the layerings computed for one bundle, one per unitKey.
type layerCache struct {
	mu sync.Mutex
	m  map[unitKey]*core.Layering
}

// layering returns the cached layering for k, computing it on first use;
// cached reports whether it was already there.
func layering(b *session.Bundle, k unitKey) (L *core.Layering, cached bool, err error) {
	k.runtime = true // layers order what runs: a type-only import closes no cycle
	lc, _ := session.Derive(b, layersKey, func(*graph.Graph) (*layerCache, error) {
		return &layerCache{m: map[unitKey]*core.Layering{}}, nil
	})
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if L := lc.m[k]; L != nil {
		return L, true, nil
	}
	u, err := units(b, k)
	if err != nil {
		return nil, false, err
	}
	L = core.DetectLayers(u, core.LayerOptions{})
	lc.m[k] = L
	return L, false, nil
}

// units builds the unit graph for k.
func units(b *session.Bundle, k unitKey) (*core.Units, error) {
	opt := core.UnitOptions{Granularity: k.gran, Scope: k.scope, Runtime: k.runtime}
	if k.excludeTests {
		opt.Exclude = tools.IsTestPath
	}
	if k.types != "" {
		d, err := entityDeps(b)
		if err != nil {
			return nil, err
		}
		var types []graph.NodeType
		for _, s := range strings.Split(k.types, ",") {
			t, _ := graph.ParseNodeType(s)
			types = append(types, t)
		}
		return core.BuildEntityUnits(d, types, opt), nil
	}
	d, err := fileDeps(b)
	if err != nil {
		return nil, err
	}
	return core.BuildUnits(d, opt), nil
}
