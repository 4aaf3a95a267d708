package analysis

import (
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// consumerDirs are directories whose code uses the product rather than
// being part of it: an example app that imports the activated modules is
// not a gap in them.
var consumerDirs = map[string]bool{
	"examples": true, "example": true, "samples": true, "sample": true, "demo": true, "demos": true,
	"docs": true, "doc": true, "fixtures": true, "testdata": true, "vendor": true, "third_party": true,
	"benchmarks": true, "bench": true, "scripts": true, "_examples": true,
}

// candidate reports whether a unit can be a hole at all: production code
// (not a test, not an example or vendored copy) that has behaviour — at
// least one function. A module of type aliases or re-exports (typing.py,
// a package's __init__.py) neither needs tests nor misses dependencies.
func (h *holeRun) candidate(u graph.NodeID) bool {
	if h.isTest(u) || h.consumer(u) {
		return false
	}
	if b, ok := h.behaves[u]; ok {
		return b
	}
	b := h.g.Type(u) != graph.File || h.behaviour(u)
	h.behaves[u] = b
	return b
}

// reexportFiles are the files that gather a package's names.
var reexportFiles = map[string]bool{"__init__.py": true, "index.js": true, "index.ts": true, "mod.rs": true, "doc.go": true}

// behaviour: the file defines a function; defines only types and
// constants: none; defines nothing the graph knows (an unparsed file):
// unknown, so kept, unless it is a package's re-export file.
func (h *holeRun) behaviour(u graph.NodeID) bool {
	p := h.g.SourcePath(u)
	entities := 0
	for _, n := range h.g.NodesByPath(p) {
		switch h.g.Type(n) {
		case graph.Function:
			return true
		case graph.File, graph.Directory:
		default:
			entities++
		}
	}
	return entities == 0 && !reexportFiles[path.Base(p)]
}

// consumer reports a unit under an example, documentation, fixture or
// vendored directory.
func (h *holeRun) consumer(u graph.NodeID) bool {
	p := h.g.SourcePath(u)
	segs := strings.Split(p, "/")
	for _, s := range segs[:max(len(segs)-1, 0)] {
		if consumerDirs[strings.ToLower(s)] {
			return true
		}
	}
	return false
}

// layered reports whether t already depends on m: m not using t is then
// the layering, not a gap (sessions.py does not import the app.py that
// imports it).
func (h *holeRun) layered(m, t graph.NodeID) bool {
	n := h.neighbours(t)
	if n == nil {
		return true
	}
	for _, v := range n.uses {
		if v == m {
			return true
		}
	}
	return false
}

// alike reports whether m uses at least half of what most of its siblings
// use besides t (each unit used by 60 % of the members): the route that
// calls the framework and the database like its peers but skips the
// validator, not a small standalone module (config.py) that uses little
// of anything.
func (h *holeRun) alike(m, t graph.NodeID, users map[graph.NodeID][]graph.NodeID, members int) bool {
	n := h.neighbours(m)
	if n == nil {
		return false
	}
	common, shared := 0, 0
	for v, us := range users {
		if v == t || v == m || 5*len(us) < 3*members {
			continue
		}
		common++
		if _, ok := slices.BinarySearch(n.uses, v); ok {
			shared++
		}
	}
	return common > 0 && 2*shared >= common
}
