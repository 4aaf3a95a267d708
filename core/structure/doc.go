// Package structure reads a code graph's architecture: which files or
// packages form layers, which dependencies cut across them, how the files
// group into communities, and per-node size and coupling numbers.
//
// The unit graph (BuildUnits) is the file-level dependency view of
// analysis.DepGraph grouped into modules, files or directories. Layers
// (DetectLayers) orders it: strongly connected components (iterative
// Tarjan), a greedy feedback-arc order inside each component so that one
// stray import does not fuse a whole stack into a cycle, then
// longest-path levels, at most MaxLayers of them. Communities (Louvain)
// groups the same units by modularity. Every walk is iterative and bounded
// by the graph's size; results are deterministic (ties broken by index,
// and units are numbered by name).
//
// docs/design.md#structure-family describes the tools built on it.
package structure
