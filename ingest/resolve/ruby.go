package resolve

import (
	"maps"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

// rubyConstant narrows the candidates of a Ruby constant reference
// ("UploadedFile", "Multipart::UploadedFile", "::Rack::Request", as
// `X.new` names it) to the class the constant path names, the way Ruby
// looks a constant up: in the lexical nesting of the reference, innermost
// first, then at the top level. A module found first names no class
// (`Sinatra.new` calls the module's own new): none. A class reopened in
// several files is one class: the reopenings that declare its
// constructor come first. A qualified path may also name a class the
// index holds under a shorter path (a compact `class A::B` is indexed as
// B under A's last segment): the longest path both end with. What
// matches nothing is no class of the repository (Rack::Request in
// sinatra, stdlib's Logger): no candidate rather than a same-named class
// elsewhere.
func (ix *Index) rubyConstant(srcID, name string, cands []int32) []int32 {
	return ix.rubyConstantN(srcID, name, cands, 0)
}

// rubyAliasDepth bounds how many constant aliases one lookup follows
// (A = B; B = A must end).
const rubyAliasDepth = 4

// rubyConstantN is rubyConstant having followed depth aliases: a scope
// of the nesting may hold the constant as an alias (`Stream =
// Sinatra::Helpers::Stream`), which names what its target names, looked
// up from where the alias is declared.
func (ix *Index) rubyConstantN(srcID, name string, cands []int32, depth int) []int32 {
	abs := strings.HasPrefix(name, "::")
	name = strings.TrimPrefix(name, "::")
	types := slices.DeleteFunc(slices.Clone(cands), func(c int32) bool { return !isType(ix.cands[c].typ) })
	nest := rubyNesting(srcID)
	if abs {
		nest = nil
	}
	for _, p := range append(nest, "") {
		want := name
		if p != "" {
			want = p + "::" + name
		}
		if in := ix.withQualName(types, func(q string) bool { return q == want }); len(in) > 0 {
			return ix.rubyClass(in)
		}
		if as, ok := ix.rubyAliases[want]; ok && depth < rubyAliasDepth {
			return ix.rubyAliasTarget(want, as, depth+1)
		}
	}
	if abs || !strings.Contains(name, "::") {
		return nil
	}
	return ix.rubyClass(ix.withQualName(types, func(q string) bool { return pathSuffix(q, name) || pathSuffix(name, q) }))
}

// rubyClass keeps, of the declarations of one constant, the classes
// (none when it is a module), those declaring a constructor first.
func (ix *Index) rubyClass(in []int32) []int32 {
	in = slices.DeleteFunc(in, func(c int32) bool { return ix.cands[c].typ != graph.Class })
	if len(in) < 2 {
		return in
	}
	if with := slices.DeleteFunc(slices.Clone(in), func(c int32) bool { return len(ix.ownConstructors(c)) == 0 }); len(with) > 0 {
		return with
	}
	return in
}

// withQualName keeps the candidates whose path inside their file
// ("Rack::Multipart::UploadedFile") satisfies ok.
func (ix *Index) withQualName(cands []int32, ok func(string) bool) []int32 {
	var out []int32
	for _, c := range cands {
		cd := &ix.cands[c]
		q := strings.TrimPrefix(cd.id, extract.FileID(ix.files[cd.file].path)+"::")
		if ok(q) {
			out = append(out, c)
		}
	}
	return out
}

// pathSuffix reports whether constant path a ends with path b, segment
// by segment ("Rack::Multipart::X" ends with "Multipart::X", not "ipart::X").
func pathSuffix(a, b string) bool {
	return a == b || strings.HasSuffix(a, "::"+b)
}

// rubyNesting lists the lexical scopes of a reference from its source's
// ID, innermost first: "file::lib/a.rb::Rack::Other::make" gives
// "Rack::Other::make", "Rack::Other", "Rack". (A method's own name is no
// module; taking it as one finds nothing.)
func rubyNesting(srcID string) []string {
	rest, ok := strings.CutPrefix(srcID, extract.FileID(""))
	if !ok {
		return nil
	}
	// The file's path holds no "::"; what follows it is the nesting.
	_, inner, ok := strings.Cut(rest, "::")
	if !ok {
		return nil
	}
	var out []string
	for s := inner; s != ""; {
		out = append(out, s)
		i := strings.LastIndex(s, "::")
		if i < 0 {
			break
		}
		s = s[:i]
	}
	return out
}

// isConstantName reports whether a Ruby name is a constant (an upper-case
// initial): only a constant path names a class.
func isConstantName(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

// addRubyBase records a superclass or mixin path class id names (ids:
// the file's candidates by ID). A mixin once replaced the superclass
// here, and with it the constructor a subclass inherits.
func (ix *Index) addRubyBase(ids map[string]int32, id, path string) {
	c, ok := ids[id]
	if !ok {
		return
	}
	if ix.rubyBases == nil {
		ix.rubyBases = map[int32][]string{}
	}
	if !slices.Contains(ix.rubyBases[c], path) {
		ix.rubyBases[c] = append(ix.rubyBases[c], path)
	}
}

// rubyBase is the class Ruby class c's superclass path names, looked up
// from where c is declared, or -1 when no single class of the repository
// is that one (a gem's class, or several alike).
func (ix *Index) rubyBase(c int32, path string) int32 {
	var types []int32
	for _, b := range ix.byLabel[lastName(path)] {
		if b != c && isType(ix.cands[b].typ) && ix.files[ix.cands[b].file].fam == "ruby" {
			types = append(types, b)
		}
	}
	found := ix.rubyConstant(ix.cands[c].id, path, types)
	if len(found) != 1 {
		return -1
	}
	return found[0]
}

// rubyAlias is a constant alias: the file declaring it and the constant
// path it names.
type rubyAlias struct {
	file   int32
	target string
}

// rubyAliasTarget is the class alias path names: the first of its
// declarations (in file order) whose target names one.
func (ix *Index) rubyAliasTarget(path string, as []rubyAlias, depth int) []int32 {
	scope, _ := split(strings.ReplaceAll(path, "::", "/")) // the alias's own scope
	scope = strings.ReplaceAll(scope, "/", "::")
	for _, a := range as {
		src := extract.FileID(ix.files[a.file].path)
		if scope != "" {
			src += "::" + scope
		}
		cands := ix.sameFamily(ix.byLabel[lastName(a.target)], "ruby")
		if in := ix.rubyConstantN(src, a.target, cands, depth); len(in) > 0 {
			return in
		}
	}
	return nil
}

// addRubyAliases indexes file fi's constant aliases (a Ruby file's
// Reexports).
func (ix *Index) addRubyAliases(fi int32, reexps []extract.Reexport) {
	for _, re := range reexps {
		if re.Module != "" {
			continue
		}
		if ix.rubyAliases == nil {
			ix.rubyAliases = map[string][]rubyAlias{}
		}
		list := append(ix.rubyAliases[re.Name], rubyAlias{file: fi, target: re.Target})
		slices.SortStableFunc(list, func(a, b rubyAlias) int { return strings.Compare(ix.files[a.file].path, ix.files[b.file].path) })
		ix.rubyAliases[re.Name] = list
	}
}

// dropRubyAliases takes file fi's aliases out again.
func (ix *Index) dropRubyAliases(fi int32) {
	for _, re := range ix.fileReexps[fi] {
		list := slices.DeleteFunc(ix.rubyAliases[re.Name], func(a rubyAlias) bool { return a.file == fi })
		if len(list) == 0 {
			delete(ix.rubyAliases, re.Name)
		} else {
			ix.rubyAliases[re.Name] = list
		}
	}
}

// RubyAliasesOf lists, sorted, the last names of the constant aliases
// whose target reaches a name stale reports (by last name, through
// chains), and which stale does not report itself: `Short = Plain` makes
// `Short.new` bind Plain's initialize, so when Plain's file changes a
// reference named Short may bind differently though nothing named Short
// moved. Which alias of a name is followed is not decided here: any
// might be.
func (ix *Index) RubyAliasesOf(stale func(string) bool) []string {
	added := map[string]bool{}
	reached := func(n string) bool { return stale(n) || added[n] }
	for grew := true; grew; {
		grew = false
		for path, as := range ix.rubyAliases {
			l := lastName(path)
			if reached(l) {
				continue
			}
			if slices.ContainsFunc(as, func(a rubyAlias) bool { return reached(lastName(a.target)) }) {
				added[l], grew = true, true
			}
		}
	}
	return slices.Sorted(maps.Keys(added))
}

// notRubyClassMethods drops the class methods from cands.
func (ix *Index) notRubyClassMethods(cands []int32) []int32 {
	if len(ix.rubyStatic) == 0 {
		return cands
	}
	var out []int32
	for _, c := range cands {
		if !ix.rubyStatic[c] {
			out = append(out, c)
		}
	}
	return out
}
