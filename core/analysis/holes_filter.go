package analysis

import (
	"cmp"
	"fmt"
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
	p := h.g.SourcePath(u)
	if p == "" {
		p = h.g.Label(u)
	}
	// A Makefile's targets are functions too, yet nothing tests them.
	// A stub or .d.ts declares behaviour that lives elsewhere.
	b := h.g.Type(u) != graph.File || !Untestable(p) && h.behaviour(u)
	h.behaves[u] = b
	return b
}

// notCode reports a file that holds no code: no extension (Makefile,
// LICENSE) or one that is not a programming language's (docs,
// configuration, lock and build files such as flake.nix). It neither
// needs tests nor misses dependencies.
func notCode(p string) bool {
	return !codeExts[strings.ToLower(path.Ext(p))]
}

// codeExts are the source file extensions of the languages ingested.
var codeExts = map[string]bool{
	".py": true, ".pyi": true, ".go": true, ".js": true, ".mjs": true, ".cjs": true, ".jsx": true, ".ts": true, ".tsx": true,
	".mts": true, ".cts": true, ".java": true, ".kt": true, ".scala": true, ".cs": true, ".rb": true, ".rs": true, ".c": true,
	".h": true, ".cc": true, ".cpp": true, ".hpp": true, ".php": true, ".swift": true, ".m": true, ".lua": true, ".ex": true,
	".exs": true, ".erl": true, ".hs": true, ".ml": true, ".mli": true, ".clj": true, ".dart": true, ".vue": true, ".svelte": true,
	".sh": true, ".bash": true, ".zsh": true, ".cxx": true, ".hh": true, ".hxx": true, ".rake": true, ".groovy": true, ".kts": true,
	".sc": true, ".jl": true, ".zig": true, ".r": true,
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

// A hub is a unit that at least hubShare of the production units use
// (and at least hubMinUsers): flask's globals.py, werkzeug's http.py. A
// query lights it whatever its topic, so a module beside it is not shown
// to belong to the topic by it; and a hub lies below the modules that use
// it, so its not using what they use is layering, not a gap.
const (
	hubShare    = 0.2
	hubMinUsers = 4
	// strongLit: a hub this lit (relative to the strongest unit) is the
	// topic itself (ctx.py for "request context") and counts as evidence.
	strongLit = 0.8
)

// hub reports whether u is a hub (see hubShare).
func (h *holeRun) hub(u graph.NodeID) bool {
	if b, ok := h.hubs[u]; ok {
		return b
	}
	users := 0
	if n := h.neighbours(u); n != nil {
		for _, v := range n.usedBy {
			if !h.isTest(v) && !h.consumer(v) {
				users++
			}
		}
	}
	b := users >= hubMinUsers && float64(users) >= hubShare*float64(h.productionUnits())
	h.hubs[u] = b
	return b
}

// productionUnits counts the graph's files that are production code.
func (h *holeRun) productionUnits() int {
	if h.production >= 0 {
		return h.production
	}
	h.production = 0
	for i := range h.g.NumNodes() {
		u := graph.NodeID(i)
		if h.g.Type(u) == graph.File && !h.isTest(u) && !h.consumer(u) {
			h.production++
		}
	}
	return h.production
}

// topical keeps the lit neighbours that say a bridge belongs to the
// topic: any but a hub, and a hub only when it is among the strongest.
func (h *holeRun) topical(lit []graph.NodeID) []graph.NodeID {
	var out []graph.NodeID
	for _, u := range lit {
		if h.act[u] >= strongLit || !h.hub(u) {
			out = append(out, u)
		}
	}
	return out
}

// below reports whether m lies under the units in us: two of them use
// it (a base module such as werkzeug's datastructures/mixins.py), or it
// is a hub. What the modules above it use is theirs to use.
func (h *holeRun) below(m graph.NodeID, us []graph.NodeID) bool {
	n := h.neighbours(m)
	if n == nil {
		return true
	}
	users := 0
	for _, u := range us {
		if _, ok := slices.BinarySearch(n.usedBy, u); ok {
			users++
		}
	}
	return users >= 2 || h.hub(m)
}

// spans reports whether a bridge candidate v is in the topic's middle by
// its topical lit neighbours: at least MinNeighbors of them, and one it
// uses. A module the topic's code merely uses (werkzeug's etag.py under
// the cookie code) is a dependency of the topic, not a gap in it.
func (h *holeRun) spans(v graph.NodeID, topical []graph.NodeID) bool {
	if len(topical) < h.p.MinNeighbors {
		return false // lit mostly by hubs: any query lights those
	}
	n := h.neighbours(v)
	if n == nil {
		return false
	}
	for _, u := range topical {
		if _, ok := slices.BinarySearch(n.uses, u); ok {
			return true
		}
	}
	return false
}

// topicUnits folds the text relevance onto units, relative to the most
// relevant unit (tests and consumers do not set the scale).
func (h *holeRun) topicUnits(topic map[graph.NodeID]float32) error {
	if topic == nil {
		return nil
	}
	h.topic = map[graph.NodeID]float32{}
	top := float32(0)
	for _, n := range sortedKeys(topic) {
		if !h.g.Valid(n) {
			return fmt.Errorf("analysis: topic node %d out of range (graph has %d nodes)", n, h.g.NumNodes())
		}
		if isContainer(h.g, n) {
			continue
		}
		u := h.u.of(n)
		v := topic[n] // any scale: only ratios and ranks are used
		if !graph.IsFinite(v) || v < 0 {
			return fmt.Errorf("analysis: topic relevance of node %d must be finite and ≥ 0, got %v", n, v)
		}
		h.topic[u] = max(h.topic[u], v)
		if !h.isTest(u) && !h.consumer(u) {
			top = max(top, v)
		}
	}
	for u, v := range h.topic {
		if top > 0 {
			h.topic[u] = min(v/top, 1)
		}
	}
	// Rank the production files by relevance (ties by NodeID).
	var files []graph.NodeID
	for _, u := range sortedKeys(h.topic) {
		if h.g.Type(u) == graph.File && !h.isTest(u) && !h.consumer(u) {
			files = append(files, u)
		}
	}
	slices.SortStableFunc(files, func(a, b graph.NodeID) int { return cmp.Compare(h.topic[b], h.topic[a]) })
	h.topicRank = make(map[graph.NodeID]int, len(files))
	for i, u := range files {
		h.topicRank[u] = i + 1
	}
	return nil
}

// relevantText reports whether a unit's text relevance reaches MinTopic
// (always, when no text relevance was given).
func (h *holeRun) relevantText(v graph.NodeID) bool {
	return h.topic == nil || h.topic[v] >= h.p.MinTopic && h.topic[v] > 0
}

// aboutTopic reports whether a bridge candidate is about the query by its
// own words: relevant (MinTopic) and among the first files a search for
// the topic shows (MaxTopicRank). Always, when no text relevance was given.
func (h *holeRun) aboutTopic(v graph.NodeID) bool {
	if h.topic == nil {
		return true
	}
	r, ok := h.topicRank[v]
	return ok && r <= h.p.MaxTopicRank && h.relevantText(v)
}

// testedThroughUsers reports whether every production module that uses u
// (one at least) is tested: u's code then runs in their tests, as
// werkzeug's routing/matcher.py runs in every test of the Map that uses
// it. Still real test-file edges, one module further.
func (h *holeRun) testedThroughUsers(u graph.NodeID) bool {
	n := h.neighbours(u)
	if n == nil {
		return false
	}
	users := 0
	for _, v := range n.usedBy {
		if h.isTest(v) || h.consumer(v) {
			continue
		}
		if !h.tested(v) {
			return false
		}
		users++
	}
	return users > 0
}

// covered reports whether u's code runs in some test: a test depends on
// it, its production users are all tested, or a test reaches it through
// modules without behaviour of their own.
func (h *holeRun) covered(u graph.NodeID) bool {
	return h.tested(u) || h.testedThroughUsers(u) || h.reachedThroughData(u)
}

// testReachHops bounds a test's path to a module through modules without
// behaviour: test → package __init__.py → data module → module.
const testReachHops = 3

// reachedThroughData reports whether a test reaches u within
// testReachHops dependency edges through production modules without a
// function (re-export files, data modules). Importing one runs what it is
// built from: rich's test_palette.py imports _palettes.py, whose palettes
// are palette.py's Palette objects. A module with behaviour in between is
// not enough: its tests test it, and would reach all it calls (the files
// of a Go package call each other), not the module's own code.
func (h *holeRun) reachedThroughData(u graph.NodeID) bool {
	seen := map[graph.NodeID]bool{u: true}
	frontier := []graph.NodeID{u}
	for range testReachHops {
		var next []graph.NodeID
		for _, x := range frontier {
			n := h.neighbours(x)
			if n == nil {
				return false
			}
			for _, v := range n.usedBy {
				switch {
				case seen[v]:
				case h.isTest(v):
					return true
				case h.passThrough(v):
					next = append(next, v)
				}
				seen[v] = true
			}
		}
		frontier = next
	}
	return false
}

// passThrough reports a production code file without a function: a
// re-export file or a module of constants and types.
func (h *holeRun) passThrough(v graph.NodeID) bool {
	p := h.g.SourcePath(v)
	if h.g.Type(v) != graph.File || h.consumer(v) || notCode(p) {
		return false
	}
	return !h.behaviour(v)
}
