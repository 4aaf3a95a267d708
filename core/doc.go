// Package core is m1nd's graph engine as a library: a weighted property
// graph of a code base (or of anything else), the queries that answer
// structural questions about it, the learning that adapts it to feedback,
// and its persistence. It imports no other m1nd module, no cgo and, besides
// the standard library, only golang.org/x/sync, so any Go program can embed
// it without an MCP server in the process.
//
// This package holds no code; the engine is its subpackages, used in this
// order:
//
//	graph       build: AddNode, AddEdge, then Finalize (CSR, PageRank)
//	   ↓
//	engine      query: Activate (spreading activation over four
//	            dimensions, merged and ranked), Learn (feedback)
//	   ↓
//	snapshot    persist: Save/Load (binary or JSON v3), atomically
//
// A program builds a graph.Graph from its own data — nodes with stable
// external IDs ("file::src/auth.py::login"), typed edges ("imports",
// "calls", …) with weights — and calls Finalize. engine.New indexes the
// finalized graph once; engine.Engine.Activate then turns a text query into
// a ranked, explained answer, and engine.Engine.Learn feeds back which
// answers were right. snapshot.Save writes the graph (learned weights
// included) so the next process starts from it. See the package Example.
//
// The other packages are the engine's parts, usable on their own:
//
//	analysis     impact (what breaks if X changes), why (paths between two
//	             nodes), structural holes, ghost edges
//	seek         find code by intent or from a pasted stack trace
//	plasticity   Hebbian learning, feedback and query memory
//	seed         query text → seed nodes
//	activation   structural and causal spreading, the merge of dimensions
//	semantic     trigram TF-IDF, co-occurrence, synonyms
//	temporal     recency, change frequency, co-change
//	xlr          noise cancellation of hubs
//	resonance    standing waves and harmonics
//	graph/graphtest  deterministic graphs for tests and benchmarks
//
// Concurrency: build and Finalize a graph from one goroutine; a finalized
// graph and an engine.Engine may then be used from many at once (reads
// share the graph; plasticity changes edge weights with atomic
// compare-and-swap). Every score and weight is finite.
//
// Repositories are turned into graphs by the module
// github.com/m1nd-go/m1nd/ingest (tree-sitter, git history; it needs cgo),
// and served to coding agents by github.com/m1nd-go/m1nd/mcpserver; a
// program that has its own data needs neither.
//
// Versions: core is versioned on its own (tags core/vX.Y.Z; see CHANGELOG.md
// at the repository root). Before v1 a minor version may change the API.
package core
