package tools

import (
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// RuntimeHeat is what runtime spans said of one node (runtime_overlay
// paints it; impact reports it; docs/design.md#dynamics-and-reports).
type RuntimeHeat struct {
	Calls   int     `json:"calls"`
	Errors  int     `json:"errors"`
	MeanMs  float64 `json:"mean_ms"`
	MaxMs   float64 `json:"max_ms"`
	Heat    float64 `json:"heat" jsonschema:"0–1: share of the busiest node's calls and time."`
	Service string  `json:"service,omitempty"`
}

// RuntimeOverlay is the session's latest runtime overlay, by node id (ids
// outlive a re-ingest). It has its own lock; it is not persisted.
type RuntimeOverlay struct {
	mu    sync.RWMutex
	nodes map[string]RuntimeHeat
	at    time.Time
}

var runtimeKey = session.NewKey[*RuntimeOverlay]("runtime.overlay")

// Runtime is the session's runtime overlay (empty until runtime_overlay
// paints one).
func Runtime(s *session.State) *RuntimeOverlay {
	return session.Shared(s, runtimeKey, func() *RuntimeOverlay { return &RuntimeOverlay{} })
}

// Replace makes nodes the overlay (a new set of spans replaces the last).
func (o *RuntimeOverlay) Replace(nodes map[string]RuntimeHeat, at time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.nodes, o.at = nodes, at
}

// Heat returns what the overlay holds for a node id.
func (o *RuntimeOverlay) Heat(id string) (RuntimeHeat, bool) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	h, ok := o.nodes[id]
	return h, ok
}

// Len is the number of nodes painted.
func (o *RuntimeOverlay) Len() int {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return len(o.nodes)
}
