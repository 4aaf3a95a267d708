package resolve

import (
	"maps"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// rubyGroupCands keeps, of the candidates of a bare call made in an
// RSpec or minitest/spec example group of file srcID (a describe, it,
// let … block), what the example answers: the defs made in the file's
// blocks, the modules its groups include and the suite's RSpec.configure
// includes, and top-level defs. Anything else (a let's name, RSpec's
// matchers, a library method of the same name) binds nothing. A name
// the file's groups forward (def_delegators :subject, :x) is not decided.
func (ix *Index) rubyGroupCands(srcID string, cands []int32) ([]int32, bool) {
	fi, ok := ix.rubyFileOf(srcID)
	if !ok || len(cands) == 0 {
		return cands, ok
	}
	if slices.Contains(ix.rubyGroupFwd[fi], ix.cands[cands[0]].label) {
		return cands, false
	}
	keep := map[int32]bool{}
	for _, c := range ix.rubyAnswering(nil, cands, false) {
		keep[c] = true
	}
	for _, c := range cands {
		if ix.rubyInBlock[c] && ix.cands[c].file == fi {
			keep[c] = true
		}
	}
	add := func(f int32, paths []string) {
		for _, p := range paths {
			for _, c := range ix.rubyAnswering(ix.rubyDecls(extract.FileID(ix.files[f].path), p), cands, false) {
				keep[c] = true
			}
		}
	}
	add(fi, ix.rubyGroupMix[fi])
	// A shared group the file's groups include (include_context "x",
	// it_behaves_like "x"), defined in another file (under spec/support, say):
	// the defs and includes of that file's blocks answer too.
	for _, f := range ix.rubySharedFiles(fi) {
		for _, c := range cands {
			if ix.rubyInBlock[c] && ix.cands[c].file == f {
				keep[c] = true
			}
		}
		add(f, ix.rubyGroupMix[f])
	}
	// An example group is a subclass of the framework's: what the
	// repository adds to it by reopening it in a file the test loads
	// (rack's test/helper.rb reopens Minitest::Spec with deprecated,
	// capture_warnings) answers. sinatra's test/contest.rb reopens
	// Minitest::Test, which its RSpec specs never load.
	loaded := ix.rubyLoaded(fi)
	for _, p := range rubyGroupBases {
		decls := slices.DeleteFunc(ix.rubyDecls("", p), func(d int32) bool { return !slices.Contains(loaded, ix.cands[d].file) })
		for _, c := range ix.rubyAnswering(decls, cands, false) {
			keep[c] = true
		}
	}
	for _, f := range slices.Sorted(maps.Keys(ix.rubyGroupAll)) {
		add(f, ix.rubyGroupAll[f])
	}
	return slices.DeleteFunc(slices.Clone(cands), func(c int32) bool { return !keep[c] }), true
}

// rubyGroupBases are the classes the example groups of RSpec and
// minitest descend from, as absolute constant paths.
var rubyGroupBases = []string{"::Minitest::Spec", "::Minitest::Test", "::RSpec::Core::ExampleGroup"}

// rubyFileOf is the file an ID of a Ruby source lies in.
func (ix *Index) rubyFileOf(srcID string) (int32, bool) {
	rest := strings.TrimPrefix(srcID, extract.FileID(""))
	p, _, _ := strings.Cut(rest, "::")
	fi, ok := ix.fileIdx[p]
	return fi, ok
}

// rubySharedFiles are the other files, in index order, that define a
// shared group (shared_context, shared_examples) file fi's groups
// include by name.
func (ix *Index) rubySharedFiles(fi int32) []int32 {
	uses := ix.rubySharedUse[fi]
	if len(uses) == 0 {
		return nil
	}
	var out []int32
	for f, names := range ix.rubyShared {
		if f != fi && slices.ContainsFunc(names, func(n string) bool { return slices.Contains(uses, n) }) {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}
