package plasticity

import (
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/internal/finite"
)

// WarmupParams configures temporary priming boosts.
type WarmupParams struct {
	// QueryDecay multiplies every boost at each Tick (one query). (0, 1].
	QueryDecay float32
	// HalfLife halves every boost per elapsed HalfLife of wall time. > 0.
	HalfLife time.Duration
	// MinBoost: boosts below it are dropped. (0, 1).
	MinBoost float32
	// MaxNodes caps the nodes one Prime call boosts (the strongest first).
	MaxNodes int
}

// DefaultWarmupParams: a boost loses 15 % per query and half of itself every
// 15 minutes, and disappears below 0.005.
func DefaultWarmupParams() WarmupParams {
	return WarmupParams{QueryDecay: 0.85, HalfLife: 15 * time.Minute, MinBoost: 0.005, MaxNodes: 50}
}

// Validate reports the first invalid field.
func (p WarmupParams) Validate() error {
	if _, err := finite.UnitInterval("query_decay", p.QueryDecay); err != nil {
		return err
	}
	if p.HalfLife <= 0 {
		return fmt.Errorf("half_life must be > 0, got %v", p.HalfLife)
	}
	if !graph.IsFinite(p.MinBoost) || p.MinBoost <= 0 || p.MinBoost >= 1 {
		return fmt.Errorf("min_boost must be in (0, 1), got %v", p.MinBoost)
	}
	if p.MaxNodes < 1 {
		return fmt.Errorf("max_nodes must be ≥ 1, got %d", p.MaxNodes)
	}
	return nil
}

// Warmup holds temporary per-node boosts (the warmup tool). Boosts decay
// per query (Tick) and with time, and are never persisted: they live only
// in this value. Keys are external IDs, so boosts survive a graph swap.
// Safe for concurrent use.
type Warmup struct {
	mu     sync.Mutex
	p      WarmupParams
	boosts map[string]boost
	now    func() time.Time
}

type boost struct {
	v  float32
	at time.Time // time v was last brought up to date
}

// NewWarmup returns an empty Warmup.
func NewWarmup(p WarmupParams) (*Warmup, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Warmup{p: p, boosts: map[string]boost{}, now: time.Now}, nil
}

// SetClock replaces the clock (tests). Nil restores time.Now.
func (w *Warmup) SetClock(now func() time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if now == nil {
		now = time.Now
	}
	w.now = now
}

// current is b decayed to time t.
func (w *Warmup) current(b boost, t time.Time) float32 {
	dt := t.Sub(b.at)
	if dt <= 0 {
		return b.v
	}
	return b.v * float32(math.Exp2(-float64(dt)/float64(w.p.HalfLife)))
}

// Prime boosts nodes in proportion to their scores: the strongest gets
// strength, the others strength·score/max. At most MaxNodes nodes (the
// strongest; ties by NodeID) are boosted; a node already boosted keeps the
// larger boost. It returns the boosts applied, strongest first.
func (w *Warmup) Prime(g *graph.Graph, nodes []graph.Scored, strength float32) ([]graph.Scored, error) {
	if g == nil {
		return nil, fmt.Errorf("warmup: nil graph")
	}
	if !graph.IsFinite(strength) || strength < 0 || strength > 1 {
		return nil, fmt.Errorf("boost_strength must be in [0, 1], got %v", strength)
	}
	list := make([]graph.Scored, 0, len(nodes))
	for _, s := range nodes {
		if !g.Valid(s.Node) {
			return nil, fmt.Errorf("%w: %d", ErrBadNode, s.Node)
		}
		if v := graph.Finite(s.Score); v > 0 {
			list = append(list, graph.Scored{Node: s.Node, Score: v})
		}
	}
	graph.SortScored(list)
	if len(list) > w.p.MaxNodes {
		list = list[:w.p.MaxNodes]
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	out := make([]graph.Scored, 0, len(list))
	for _, s := range list {
		v := strength * s.Score / list[0].Score
		if v < w.p.MinBoost {
			continue
		}
		k := g.ExternalID(s.Node)
		if b, ok := w.boosts[k]; ok {
			v = max(v, w.current(b, now))
		}
		w.boosts[k] = boost{v: v, at: now}
		out = append(out, graph.Scored{Node: s.Node, Score: v})
	}
	graph.SortScored(out)
	return out, nil
}

// Tick records that one query ran: every boost is multiplied by QueryDecay
// and boosts that fell below MinBoost are dropped.
func (w *Warmup) Tick() {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	for k, b := range w.boosts {
		v := w.current(b, now) * w.p.QueryDecay
		if v < w.p.MinBoost {
			delete(w.boosts, k)
			continue
		}
		w.boosts[k] = boost{v: v, at: now}
	}
}

// Boosts returns the current boosts of nodes present in g, strongest first.
func (w *Warmup) Boosts(g *graph.Graph) []graph.Scored {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	out := make([]graph.Scored, 0, len(w.boosts))
	for k, b := range w.boosts {
		v := w.current(b, now)
		if v < w.p.MinBoost {
			delete(w.boosts, k)
			continue
		}
		if id, ok := g.Lookup(k); ok {
			out = append(out, graph.Scored{Node: id, Score: v})
		}
	}
	graph.SortScored(out)
	return out
}

// Len is the number of live boosts (including expired ones not yet swept).
func (w *Warmup) Len() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.boosts)
}

// Clear drops every boost.
func (w *Warmup) Clear() {
	w.mu.Lock()
	defer w.mu.Unlock()
	clear(w.boosts)
}
