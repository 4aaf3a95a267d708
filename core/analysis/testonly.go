package analysis

import (
	"fmt"

	"github.com/m1nd-go/m1nd/core/graph"
)

// testOnlyChain checks a dependency found from a directory: when its
// path starts in one of the directory's test files, the directory's own
// code is searched alone. A path from the code replaces it (the better
// evidence); none means only the tests depend on b, which a reader of
// "rack-protection depends on sinatra" should be told (its specs drive
// sinatra apps; its library does not load sinatra). ok is false when
// the found path stands as it is.
func (h *hypo) testOnlyChain(a, b graph.NodeID, s search) (Evidence, bool) {
	if h.g.Type(a) != graph.Directory || len(s.nodes) == 0 || !h.isTestUnit(s.nodes[0]) {
		return Evidence{}, false
	}
	from, _, _ := h.d.scopeUnits([]graph.NodeID{a})
	var code []graph.NodeID
	for _, u := range from {
		if !h.isTestUnit(u) {
			code = append(code, u)
		}
	}
	if len(code) == 0 {
		return Evidence{}, false // a test directory: its tests are its code
	}
	to, _, _ := h.d.scopeUnits([]graph.NodeID{b})
	if c := h.searchUnits(h.d, code, to); c.found {
		return h.chainEvidence(c), true
	}
	e := h.pathEvidence(s, "depends on")
	e.Type, e.LikelihoodFactor = "test_only_chain", 1
	e.Description = fmt.Sprintf("only %s's tests depend on it: %s; none of its %d code files reaches it within %d hops", h.name(a), e.Description, len(code), h.p.MaxHops)
	return e, true
}

// isTestUnit reports a unit of test code (a test file or an entity in one).
func (h *hypo) isTestUnit(u graph.NodeID) bool {
	return IsTestPath(h.g.SourcePath(fileUnit(h.g, u)))
}
