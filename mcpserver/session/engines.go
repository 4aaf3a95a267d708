package session

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/engine"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/core/xlr"
)

// EngineKey holds a bundle's query engine (Engine builds it; Built says
// whether it was).
var EngineKey = NewKey[*engine.Engine]("engine")

// Engine returns the query engine for a bundle's graph, building it on
// first use. It shares the session's plasticity engine (learning survives
// re-ingest) and warmup boosts, and replays the bundle's git commit groups
// into the co-change matrix.
func (s *State) Engine(b *Bundle) (*engine.Engine, error) {
	return Derive(b, EngineKey, func(g *graph.Graph) (*engine.Engine, error) {
		opts := engine.DefaultOptions()
		opts.Plasticity = s.Plasticity
		opts.Warmup = s.Warmup
		opts.Now = s.now
		if err := s.applyBudgets(&opts); err != nil {
			return nil, err
		}
		e, err := engine.New(g, opts)
		if err != nil {
			return nil, fmt.Errorf("build query engine: %w", err)
		}
		if len(b.Commits) > 0 {
			if _, _, err := e.ObserveExternal(history.Groups(b.Commits)); err != nil {
				s.logf("co-change history not applied: %v", err)
			}
		}
		return e, nil
	})
}

// applyBudgets sets the activation budgets the configuration overrides
// (ActivateMaxFired, XLRPulseBudget); zero leaves the engine's defaults.
func (s *State) applyBudgets(opts *engine.Options) error {
	cfg := s.Config()
	if cfg.ActivateMaxFired > 0 {
		opts.Activation.MaxFired = cfg.ActivateMaxFired
	}
	if cfg.XLRPulseBudget > 0 {
		p := xlr.DefaultParams()
		p.PulseBudget = cfg.XLRPulseBudget
		x, err := xlr.New(p)
		if err != nil {
			return fmt.Errorf("xlr_pulse_budget %d: %w", cfg.XLRPulseBudget, err)
		}
		opts.XLR = x
	}
	return nil
}
