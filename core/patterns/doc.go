// Package patterns finds repeated and flowing structure in a code graph
// (docs/design.md#patterns):
//
//   - Twins: near-duplicate functions or classes, by the shape of their
//     bodies (identifiers renamed away) and the neighbourhood they
//     depend on. Candidate pairs come from locality-sensitive hashing of
//     a MinHash sketch, so the work is bounded, never all pairs.
//   - Cosine compares activation fingerprints (the fingerprint tool).
//   - Ghosts: file pairs that change together in history with no static
//     dependency between them.
//   - TypeTrace: where a type flows (constructors, parameters, returns,
//     fields, other uses), by a bounded walk over reference edges.
//   - Taint: source → sink paths over call edges, with the sanitisers
//     met on the way.
//
// Every walk and search here is bounded by caps given in its parameters;
// results are ordered deterministically (ties by NodeID).
package patterns
