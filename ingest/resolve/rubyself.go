package resolve

import (
	"slices"
	"strings"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

// rubyCache holds what bare-call lookups share: the classes and modules
// that include each module, built on first use (resolution runs in
// parallel) and dropped when a Ruby file comes or goes.
type rubyCache struct {
	once      sync.Once
	includers map[int32][]int32
	// loaded caches rubyLoaded by file.
	mu     sync.Mutex
	loaded map[int32][]int32
}

// rubyFactDepth bounds how many methods' block facts one lookup follows.
const rubyFactDepth = 4

// addRubyFacts indexes the block facts of a Ruby file's methods (its
// Reexports with Module "&block"; ids: the file's candidates by ID).
func (ix *Index) addRubyFacts(ids map[string]int32, prefix string, reexps []extract.Reexport) {
	ix.rubyCache = &rubyCache{}
	for _, re := range reexps {
		c, ok := ids[prefix+re.Name]
		if re.Module == "&inblock" && ok {
			if ix.rubyInBlock == nil {
				ix.rubyInBlock = map[int32]bool{}
			}
			ix.rubyInBlock[c] = true
		}
		if re.Module != "&block" || !ok {
			continue
		}
		if ix.rubyFacts == nil {
			ix.rubyFacts = map[int32]string{}
		}
		ix.rubyFacts[c] = re.Target
	}
}

// rubySelfCands keeps, of the candidates of a bare Ruby call made in
// srcID, those self can answer: the methods of self's class, of the
// classes and modules it inherits or includes, and top-level defs (private
// methods of Object). spec is what self is there (extract.rubySelf).
// decided is false when self is not known well enough to narrow: then
// the candidates stand as they are (a block of a gem's method, RSpec's
// describe). A decided empty answer is a method none of them declares:
// Kernel's warn, a gem's DSL (Rack::Builder's use).
func (ix *Index) rubySelfCands(srcID string, cands []int32, spec string) ([]int32, bool) {
	spec, _, _ = strings.Cut(strings.TrimPrefix(spec, "&"), "@") // the scope is srcID's
	links := strings.Split(spec, "<")
	gem := false   // a block of a method no file here declares
	group := false // one of them RSpec's or minitest's (describe, it)
	for k, link := range links {
		if link == "G" || (group && link == "." && ix.rubyTopLevel(srcID)) {
			return ix.rubyGroupCands(srcID, cands)
		}
		if m, ok := strings.CutPrefix(link, "B:"); ok {
			// m is itself a bare call made where the block sits: bind
			// it by the links after this one, then read its fact.
			ms, decided := ix.rubySelfCands(srcID, ix.rubyMethods(m), strings.Join(links[k+1:], "<"))
			if !decided {
				return cands, false
			}
			if len(ms) == 0 {
				// A gem's (minitest's it, RSpec's context): most keep
				// self, RSpec's do not; a class's self is kept below,
				// the top level's (RSpec's files) decides nothing.
				gem = true
				group = group || extract.RubySpecDSL[m]
				continue
			}
			out, decided, next := ix.rubyFollow(srcID, ms, cands, 0)
			if !next {
				return out, decided
			}
			continue
		}
		if gem && (link == "." && ix.rubyTopLevel(srcID)) {
			return cands, false
		}
		out, decided, next := ix.rubyLink(srcID, srcID, link, cands, 0)
		if !next {
			return out, decided
		}
	}
	return cands, false
}

// rubyLink reads one link of a self chain (or a method's block fact),
// whose constant paths are looked up from scope; next says the block
// keeps the self of the link after it.
func (ix *Index) rubyLink(srcID, scope, link string, cands []int32, depth int) (out []int32, decided, next bool) {
	kind, path, _ := strings.Cut(link, ":")
	switch kind {
	case ".":
		out, decided = ix.rubyLexical(srcID, cands)
		return out, decided, false
	case "?":
		return nil, true, false
	case "C":
		return ix.rubyAnswering(ix.rubyDecls(scope, path), cands, false), true, false
	case "N":
		return ix.rubyNew(srcID, scope, path, cands, depth)
	case "B":
		return ix.rubyBlockOf(srcID, path, cands, depth)
	}
	return cands, false, false // "~" or unknown
}

// rubyNew is self inside `P.new do … end`: an instance of class P (a
// builder that evaluates its block), or, when P is a module with its own
// new (`Sinatra.new(base) do`), what that method does with its block.
func (ix *Index) rubyNew(srcID, scope, path string, cands []int32, depth int) ([]int32, bool, bool) {
	decls := ix.rubyDecls(scope, path)
	if len(decls) == 0 {
		return nil, true, false // a gem's builder (Rack::Builder): none of ours
	}
	own := "new" // a module's own new (Sinatra.new)
	if slices.ContainsFunc(decls, ix.isRubyClass) {
		own = "initialize" // one that stores and calls its block keeps self
	}
	var ms []int32
	for _, c := range ix.byLabel[own] {
		if slices.ContainsFunc(decls, func(d int32) bool { return ix.cands[d].id+"::"+own == ix.cands[c].id }) {
			ms = append(ms, c)
		}
	}
	if own == "initialize" && slices.ContainsFunc(ms, func(c int32) bool { return ix.rubyFacts[c] == "." }) {
		// initialize instance_evals its block (Rack::Builder's): self
		// is the new object, not the caller's.
		return ix.rubyAnswering(decls, cands, false), true, false
	}
	return ix.rubyFollow(srcID, ms, cands, depth)
}

// rubyBlockOf is self inside a block given to the bare method m, when
// m is named in a method's block fact ("B:m"): what m's declarations
// do with their block, when they agree. A method of a gem says nothing.
func (ix *Index) rubyBlockOf(srcID, m string, cands []int32, depth int) ([]int32, bool, bool) {
	ms := ix.rubyMethods(m)
	if len(ms) == 0 {
		return cands, false, false
	}
	return ix.rubyFollow(srcID, ms, cands, depth)
}

// rubyMethods are the Ruby methods named m.
func (ix *Index) rubyMethods(m string) []int32 {
	var out []int32
	for _, c := range ix.byLabel[m] {
		if !isType(ix.cands[c].typ) && ix.files[ix.cands[c].file].fam == "ruby" {
			out = append(out, c)
		}
	}
	return out
}

// rubyTopLevel reports whether srcID runs at a file's top level (or in
// a def made there, whose self is its caller's).
func (ix *Index) rubyTopLevel(srcID string) bool {
	switch len(rubyNesting(srcID)) {
	case 0:
		return true
	case 1:
		c := ix.rubyCandByID(srcID)
		return c < 0 || !isType(ix.cands[c].typ)
	}
	return false
}

// rubyFollow applies the block fact methods ms agree on (a method
// without one yields or calls its block, which keeps its caller's self:
// "."); facts that differ decide nothing (sinatra's configure yields,
// sinatra-contrib's Extension#configure instance_execs).
func (ix *Index) rubyFollow(srcID string, ms, cands []int32, depth int) ([]int32, bool, bool) {
	fact, from := "", int32(-1)
	for _, c := range ms {
		f, ok := ix.rubyFacts[c]
		if !ok {
			f = "."
		}
		if from >= 0 && f != fact {
			return cands, false, false
		}
		fact, from = f, c
	}
	if from < 0 || fact == "." {
		return nil, false, true
	}
	if depth >= rubyFactDepth {
		return cands, false, false
	}
	out, decided, next := ix.rubyLink(srcID, ix.cands[from].id, fact, cands, depth+1)
	return out, decided, next
}

// rubyLexical is self where no block changed it: the class or module
// srcID is (a class body) or holds (a method), or the top level's main
// object, which answers only top-level defs. A source the index does not
// hold is not decided.
func (ix *Index) rubyLexical(srcID string, cands []int32) ([]int32, bool) {
	if len(rubyNesting(srcID)) == 0 {
		return ix.rubyMainCands(srcID, cands), true // main
	}
	src := ix.rubyCandByID(srcID)
	if src < 0 || (!isType(ix.cands[src].typ) && len(rubyNesting(srcID)) == 1) {
		// A top-level def runs on whichever object calls it (it is a
		// private method of Object): its self is not known.
		return cands, false
	}
	self, instance := src, false
	if !isType(ix.cands[src].typ) {
		i := strings.LastIndex(srcID, "::")
		if self = ix.rubyCandByID(srcID[:i]); self < 0 {
			return cands, false
		}
		instance = !ix.rubyStatic[src]
	}
	q := strings.TrimPrefix(ix.cands[self].id, extract.FileID(ix.files[ix.cands[self].file].path)+"::")
	decls := ix.withQualName(ix.rubyTypes(ix.cands[self].label), func(s string) bool { return s == q })
	if !slices.ContainsFunc(decls, ix.isRubyClass) && !slices.ContainsFunc(decls, ix.rubyIncluded) && instance {
		// A module no class of the repository includes is mixed in at
		// run time (a Sinatra extension's helpers, register): which
		// class it serves is not known here.
		return cands, false
	}
	return ix.rubyAnswering(decls, cands, instance), true
}

// rubyAnswering keeps the candidates declared in decls (a class or
// module's declarations), their ancestry, and, for an instance method
// of a module, in the classes that include it and theirs; and the
// top-level defs.
func (ix *Index) rubyAnswering(decls, cands []int32, includers bool) []int32 {
	anc := ix.rubyAncestry(decls, includers)
	var out []int32
	for _, c := range cands {
		id := ix.cands[c].id
		i := strings.LastIndex(id, "::")
		if i < 0 || isType(ix.cands[c].typ) {
			continue
		}
		if anc[id[:i]] || (len(rubyNesting(id)) == 1 && !ix.rubyInBlock[c]) {
			out = append(out, c)
		}
	}
	return out
}

// rubyAncestry is the set of IDs of decls and of what they inherit or
// include (eight levels), with, when includers is set, the classes that
// include a module of the set (a module's method runs on their objects).
func (ix *Index) rubyAncestry(decls []int32, includers bool) map[string]bool {
	seen := map[int32]bool{}
	ids := map[string]bool{}
	level := decls
	for depth := 0; depth < 8 && len(level) > 0; depth++ {
		var next []int32
		for _, c := range level {
			if seen[c] {
				continue
			}
			seen[c], ids[ix.cands[c].id] = true, true
			for _, p := range ix.rubyBases[c] {
				next = append(next, ix.rubyDecls(ix.cands[c].id, p)...)
			}
			if includers && !ix.isRubyClass(c) {
				next = append(next, ix.rubyIncluders()[c]...)
			}
		}
		level = next
	}
	return ids
}

// rubyIncluders maps each module to the classes and modules naming it in
// include, extend or prepend (a mixin's path resolved as Ruby does).
func (ix *Index) rubyIncluders() map[int32][]int32 {
	rc := ix.rubyCache
	if rc == nil {
		return nil // no Ruby file
	}
	rc.once.Do(func() {
		rc.includers = map[int32][]int32{}
		keys := make([]int32, 0, len(ix.rubyBases))
		for c := range ix.rubyBases {
			keys = append(keys, c)
		}
		slices.Sort(keys) // deterministic lists
		for _, c := range keys {
			for _, p := range ix.rubyBases[c] {
				for _, m := range ix.rubyDecls(ix.cands[c].id, p) {
					if !ix.isRubyClass(m) {
						rc.includers[m] = append(rc.includers[m], c)
					}
				}
			}
		}
	})
	return rc.includers
}

// rubyDecls are the declarations (every reopening, classes and modules)
// of the constant path as Ruby looks it up from scope: the lexical
// nesting innermost first, then the top level; a qualified path also by
// its ending, as rubyConstant does.
func (ix *Index) rubyDecls(scope, path string) []int32 {
	abs := strings.HasPrefix(path, "::")
	path = strings.TrimPrefix(path, "::")
	types := ix.rubyTypes(lastName(path))
	nest := rubyNesting(scope)
	if abs {
		nest = nil
	}
	for _, p := range append(nest, "") {
		want := path
		if p != "" {
			want = p + "::" + path
		}
		if in := ix.withQualName(types, func(q string) bool { return q == want }); len(in) > 0 {
			return in
		}
	}
	if abs || !strings.Contains(path, "::") {
		return nil
	}
	return ix.withQualName(types, func(q string) bool { return pathSuffix(q, path) })
}

// rubyTypes are the Ruby classes and modules labelled label.
func (ix *Index) rubyTypes(label string) []int32 {
	var out []int32
	for _, c := range ix.byLabel[label] {
		if isType(ix.cands[c].typ) && ix.files[ix.cands[c].file].fam == "ruby" {
			out = append(out, c)
		}
	}
	return out
}

// rubyCandByID is the Ruby candidate whose ID is id, or -1.
func (ix *Index) rubyCandByID(id string) int32 {
	for _, c := range ix.byLabel[lastName(id)] {
		if ix.cands[c].id == id {
			return c
		}
	}
	return -1
}

// isRubyClass tells a class from a module.
func (ix *Index) isRubyClass(c int32) bool { return ix.cands[c].typ != graph.Module }

// rubyIncluded reports whether a class or module of the repository
// includes, extends or prepends module m.
func (ix *Index) rubyIncluded(m int32) bool { return len(ix.rubyIncluders()[m]) > 0 }
