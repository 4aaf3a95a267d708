package risk

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
)

const (
	// RingSize is how many learn observations a node keeps (the oldest
	// go first).
	RingSize = 256
	// DedupMillis: a second observation of a node within this interval is
	// the same event (one learn call naming a node twice, a retried call).
	DedupMillis = 1000
)

// Observation is one learn event on a node: when (Unix milliseconds) and
// the weight change it brought.
type Observation struct {
	At    int64   `json:"at"`
	Delta float64 `json:"delta"`
}

// Observations keeps the learn events of each node, at most RingSize per
// node. It is safe for concurrent use.
type Observations struct {
	mu  sync.Mutex
	per map[string][]Observation
}

// NewObservations returns an empty log.
func NewObservations() *Observations { return &Observations{per: map[string][]Observation{}} }

// Observe records an event on node; it reports false (and records
// nothing) within DedupMillis of the node's newest observation.
func (o *Observations) Observe(node string, at int64, delta float64) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	ring := o.per[node]
	if n := len(ring); n > 0 && at-ring[n-1].At < DedupMillis && at >= ring[n-1].At {
		return false
	}
	if len(ring) == RingSize {
		ring = slices.Delete(ring, 0, 1)
	}
	o.per[node] = append(ring, Observation{At: at, Delta: finite(delta)})
	return true
}

// Of returns a copy of node's observations, oldest first.
func (o *Observations) Of(node string) []Observation {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.per[node])
}

// Nodes lists the nodes with observations, sorted.
func (o *Observations) Nodes() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]string, 0, len(o.per))
	for n := range o.per {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

type observationsFile struct {
	Version int                      `json:"version"`
	Nodes   map[string][]Observation `json:"nodes"`
}

// MarshalJSON writes the log as tremor_state.json holds it.
func (o *Observations) MarshalJSON() ([]byte, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return json.Marshal(observationsFile{Version: 1, Nodes: o.per})
}

// UnmarshalJSON replaces the log with data's (each ring cut to RingSize).
func (o *Observations) UnmarshalJSON(data []byte) error {
	var f observationsFile
	if err := json.Unmarshal(data, &f); err != nil {
		return err
	}
	if f.Version != 1 {
		return fmt.Errorf("tremor state version %d (want 1)", f.Version)
	}
	per := map[string][]Observation{}
	for n, ring := range f.Nodes {
		if len(ring) > RingSize {
			ring = ring[len(ring)-RingSize:]
		}
		per[n] = ring
	}
	o.mu.Lock()
	o.per = per
	o.mu.Unlock()
	return nil
}

func finite(v float64) float64 {
	if v != v || v > 1e300 || v < -1e300 {
		return 0
	}
	return v
}
