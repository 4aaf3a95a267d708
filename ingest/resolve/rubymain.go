package resolve

import (
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// rubyLoadDepth bounds how many requires deep main's extensions are
// looked for (a script requires sinatra, which requires sinatra/main).
const rubyLoadDepth = 6

// addRubyMain indexes what Ruby file fi gives main: the modules its top
// level extends main with, the methods its modules generate to forward
// to a constant, and what it requires (the files that see main's
// extension).
func (ix *Index) addRubyMain(fi int32, ids map[string]int32, prefix string, r *extract.Result) {
	for _, re := range r.Reexports {
		switch re.Module {
		case "&main":
			if ix.rubyMain == nil {
				ix.rubyMain = map[int32][]string{}
			}
			ix.rubyMain[fi] = append(ix.rubyMain[fi], re.Target)
		case "&group":
			if ix.rubyGroupMix == nil {
				ix.rubyGroupMix = map[int32][]string{}
			}
			ix.rubyGroupMix[fi] = append(ix.rubyGroupMix[fi], re.Target)
		case "&groupall":
			if ix.rubyGroupAll == nil {
				ix.rubyGroupAll = map[int32][]string{}
			}
			ix.rubyGroupAll[fi] = append(ix.rubyGroupAll[fi], re.Target)
		case "&groupfwd":
			if ix.rubyGroupFwd == nil {
				ix.rubyGroupFwd = map[int32][]string{}
			}
			ix.rubyGroupFwd[fi] = append(ix.rubyGroupFwd[fi], re.Name)
		case "&shareddef":
			if ix.rubyShared == nil {
				ix.rubyShared = map[int32][]string{}
			}
			ix.rubyShared[fi] = append(ix.rubyShared[fi], re.Name)
		case "&shareduse":
			if ix.rubySharedUse == nil {
				ix.rubySharedUse = map[int32][]string{}
			}
			ix.rubySharedUse[fi] = append(ix.rubySharedUse[fi], re.Name)
		case "&forward":
			i := strings.LastIndex(re.Name, "::")
			c, ok := ids[prefix+re.Name[:max(i, 0)]]
			if i < 0 || !ok {
				continue
			}
			if ix.rubyForward == nil {
				ix.rubyForward = map[int32]map[string]string{}
			}
			if ix.rubyForward[c] == nil {
				ix.rubyForward[c] = map[string]string{}
			}
			ix.rubyForward[c][re.Name[i+2:]] = re.Target
		}
	}
	for _, im := range r.Imports {
		if ix.rubyLoads == nil {
			ix.rubyLoads = map[int32][]string{}
		}
		ix.rubyLoads[fi] = append(ix.rubyLoads[fi], im.Module)
	}
}

// rubyMainCands keeps, of the candidates of a bare call at the top level
// of file srcID, what main answers: top-level defs (private methods of
// Object), the methods of the modules main is extended with in the files
// srcID loads (itself included), and what those modules' generated
// methods forward to: `require 'sinatra'; get '/' do` reaches
// Sinatra::Delegator's `get`, which sends to Application.
func (ix *Index) rubyMainCands(srcID string, cands []int32) []int32 {
	keep := map[int32]bool{}
	for _, c := range ix.rubyAnswering(nil, cands, false) {
		keep[c] = true
	}
	fi, ok := ix.fileIdx[strings.TrimPrefix(srcID, extract.FileID(""))]
	if ok && len(cands) > 0 && len(ix.rubyMain) > 0 {
		name := ix.cands[cands[0]].label
		for _, ext := range ix.rubyExtenders(fi) {
			for _, path := range ix.rubyMain[ext] {
				for _, c := range ix.rubyMainVia(extract.FileID(ix.files[ext].path), path, name, cands) {
					keep[c] = true
				}
			}
		}
	}
	return slices.DeleteFunc(slices.Clone(cands), func(c int32) bool { return !keep[c] })
}

// rubyMainVia is what main answers of cands (all named name) through
// the module path names, extended from scope: the module's own methods,
// or the constant its generated method name forwards to.
func (ix *Index) rubyMainVia(scope, path, name string, cands []int32) []int32 {
	decls := ix.rubyDecls(scope, path)
	out := ix.rubyAnswering(decls, cands, false)
	for _, d := range decls {
		if target, ok := ix.rubyForward[d][name]; ok {
			out = append(out, ix.rubyAnswering(ix.rubyDecls(ix.cands[d].id, target), cands, false)...)
		}
	}
	return out
}

// rubyExtenders are the files among fi and those it loads whose top
// level extends main, in path order.
func (ix *Index) rubyExtenders(fi int32) []int32 {
	var out []int32
	for _, f := range ix.rubyLoaded(fi) {
		if len(ix.rubyMain[f]) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// rubyLoaded are fi and the files it loads through require (rubyLoadDepth
// deep), in path order, cached by file (a script's every top-level call
// asks).
func (ix *Index) rubyLoaded(fi int32) []int32 {
	rc := ix.rubyCache
	if rc == nil {
		return nil // no Ruby file
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if out, ok := rc.loaded[fi]; ok {
		return out
	}
	if rc.loaded == nil {
		rc.loaded = map[int32][]int32{}
	}
	rc.loaded[fi] = ix.loadedFiles(fi)
	return rc.loaded[fi]
}

// loadedFiles computes rubyLoaded.
func (ix *Index) loadedFiles(fi int32) []int32 {
	seen := map[int32]bool{fi: true}
	level := []int32{fi}
	out := []int32{fi}
	for depth := 0; depth < rubyLoadDepth && len(level) > 0; depth++ {
		var next []int32
		for _, f := range level {
			for _, mod := range ix.rubyLoads[f] {
				for _, loc := range ix.rubyModule(ix.files[f], mod) {
					if g, ok := ix.fileIdx[loc.file]; ok && !seen[g] {
						seen[g] = true
						next = append(next, g)
					}
				}
			}
		}
		out = append(out, next...)
		level = next
	}
	slices.SortFunc(out, func(a, b int32) int { return strings.Compare(ix.files[a].path, ix.files[b].path) })
	return out
}
