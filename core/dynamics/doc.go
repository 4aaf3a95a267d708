// Package dynamics simulates how things move over a code graph: a defect
// spreading over dependencies (Epidemic, an SIR model with per-relation
// transmission factors) and execution flowing from entry points into
// shared mutable state (Flow, deterministic particles whose paths collide
// on module-level variables). Both read a finalized graph and never change
// it; both bound their work (iterations, steps, a context).
//
// The models and their constants are described in
// docs/design.md#dynamics-and-reports.
package dynamics
