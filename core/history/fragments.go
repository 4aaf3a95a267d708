package history

import (
	"path"
	"slices"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Fragment directories hold files that are written once and never changed
// again: release-note fragments (reno, towncrier, changesets), database
// migrations, changelog entries. Co-change with such a file says that the
// next change adds a new file beside it, not that the old one needs a
// change: an old release note is never a file a plan is missing.
const (
	// minFragments is how many written-once files, added by as many
	// distinct commits, make a directory a fragment directory (one commit
	// that imports a whole tree writes many files once, and is not a
	// convention).
	minFragments = 3
	// fragmentShare is the share of a directory's files with history that
	// must be written once.
	fragmentShare = 0.8
)

// IsFragment reports whether file was changed by exactly one commit and
// lies in a fragment directory (see FragmentDir).
func (x *Index) IsFragment(file graph.NodeID) bool {
	if len(x.byFile[file]) != 1 {
		return false
	}
	return x.FragmentDir(path.Dir(x.g.SourcePath(file)))
}

// FragmentDir reports whether dir's files are written once each: at least
// minFragments of them changed by a single commit, those commits
// distinct, and at least fragmentShare of the files the history knows.
func (x *Index) FragmentDir(dir string) bool {
	x.fragOnce.Do(x.findFragmentDirs)
	return x.fragDirs[dir]
}

func (x *Index) findFragmentDirs() {
	x.buildFileIndexes()
	x.fragDirs = map[string]bool{}
	for dir, files := range x.byDir {
		known, once := 0, 0
		var adders []int32
		for _, f := range files {
			cs := x.byFile[f]
			if len(cs) > 0 {
				known++
			}
			if len(cs) == 1 {
				once++
				adders = append(adders, cs[0])
			}
		}
		slices.Sort(adders)
		if len(slices.Compact(adders)) >= minFragments && float64(once) >= fragmentShare*float64(known) {
			x.fragDirs[dir] = true
		}
	}
}

// FragmentAdds counts, per fragment directory, the commits of file that
// also wrote a fragment there (the commit that added it, since a fragment
// has one commit): "13 of wait.py's 48 commits added a release note".
// Directories are keyed as path.Dir gives them.
func (x *Index) FragmentAdds(file graph.NodeID) map[string]int {
	adds := map[string]int{}
	for _, ci := range x.byFile[file] {
		seen := map[string]bool{}
		for _, f := range x.files[ci] {
			if f == file || !x.IsFragment(f) {
				continue
			}
			if d := path.Dir(x.g.SourcePath(f)); !seen[d] {
				seen[d] = true
				adds[d]++
			}
		}
	}
	return adds
}
