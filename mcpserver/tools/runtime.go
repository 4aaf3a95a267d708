package tools

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/core/snapshot"
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
// outlive a re-ingest). It has its own lock. It is kept beside the graph
// (runtimeOverlayFile, written atomically) and read back on restart.
type RuntimeOverlay struct {
	mu    sync.RWMutex
	nodes map[string]RuntimeHeat
	at    time.Time
	path  string // "" for a memory-only session
}

// runtimeOverlayFile is the overlay's file in the runtime directory.
const runtimeOverlayFile = "runtime_overlay.json"

// overlayFile is runtime_overlay.json.
type overlayFile struct {
	At    time.Time              `json:"at"`
	Nodes map[string]RuntimeHeat `json:"nodes"`
}

var runtimeKey = session.NewKey[*RuntimeOverlay]("runtime.overlay")

// Runtime is the session's runtime overlay (empty until runtime_overlay
// paints one, or what the last session left).
func Runtime(s *session.State) *RuntimeOverlay {
	return session.Shared(s, runtimeKey, func() *RuntimeOverlay {
		o := &RuntimeOverlay{path: s.RuntimePath(runtimeOverlayFile)}
		if err := o.load(); err != nil {
			s.Logf("runtime overlay: %v (starting empty)", err)
		}
		return o
	})
}

func (o *RuntimeOverlay) load() error {
	if o.path == "" {
		return nil
	}
	data, err := os.ReadFile(o.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var f overlayFile
	if err == nil {
		err = json.Unmarshal(data, &f)
	}
	if err != nil {
		return err
	}
	o.nodes, o.at = f.Nodes, f.At
	return nil
}

// Replace makes nodes the overlay (a new set of spans replaces the last)
// and saves it.
func (o *RuntimeOverlay) Replace(nodes map[string]RuntimeHeat, at time.Time) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.nodes, o.at = nodes, at
	if o.path == "" {
		return nil
	}
	return snapshot.WriteFileAtomic(o.path, 0o644, func(w io.Writer) error {
		return json.NewEncoder(w).Encode(overlayFile{At: at, Nodes: nodes})
	})
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
