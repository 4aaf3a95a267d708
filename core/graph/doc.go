// Package graph is the engine's data: a property graph of nodes and
// directed, weighted, typed edges, stored for fast traversal.
//
// # Building
//
// New returns an empty graph. AddNode adds a Node (its ExternalID is its
// identity and must be unique; Label, Type, Tags, times and Provenance
// describe it) and returns its NodeID, a dense index. AddEdge stages an Edge
// between two NodeIDs (AddEdgeByID takes external IDs) with a Relation
// ("imports", "calls", "contains", …), a Weight, a CausalStrength and a
// Direction. Finalize then builds the compressed sparse rows (forward and
// reverse adjacency), computes PageRank and the lookup indexes, and bumps
// the Generation. Adding more nodes or edges and calling Finalize again
// keeps every learned weight.
//
// # Reading
//
// After Finalize the structure is immutable and may be read from many
// goroutines: Lookup and FindNodes resolve references, Label, Type, Tags,
// Provenance and the other accessors read a node, Neighbors, OutRange/
// InRange and EdgesBetween walk edges, FindEdge finds one by (source,
// target, relation). Edge weights stay mutable under readers: UpdateWeight,
// AtomicMaxWeight and AtomicWriteWeight change them with compare-and-swap
// (that is how plasticity learns).
//
// Derived graphs: Clone copies, Merge folds one graph into another,
// Spliced replaces a range of nodes (an edited file) and Rewritten drops
// and renames nodes, each keeping learned state where nodes survive.
//
// # What an edge means
//
// An edge A → B has one direction and one meaning, so that analyses can
// answer questions a compiler could check:
//
//	contains                 A holds B (a file its functions); navigation only
//	imports                  A's module imports B's or a name defined in B
//	imports::type            the same, for the type checker only (Python's
//	                         if TYPE_CHECKING, TypeScript's import type):
//	                         a dependency, but none at run time
//	calls                    A's code calls B
//	references               A uses B's type, constant or variable
//	inherits, implements     A extends or satisfies B
//	tests                    test A exercises B
//	co_changes (derived)     A and B change in the same commits
//
// "What depends on X" follows these backwards (analysis.Impact); a
// program with its own data may add relations of its own.
//
// # Numbers
//
// Every weight and score is finite: AddEdge rejects NaN and ±Inf, AddNode
// replaces them with 0, and Finite, Finite64 and IsFinite are the checks the
// rest of the engine applies. Learning keeps weights within [WeightFloor,
// WeightCap]; 1 is a plain edge's weight.
//
// Scored pairs a NodeID with a score; SelectTop and SortScored order them
// (score descending, NodeID ascending: deterministic).
package graph
