package session

import (
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// StalenessOf is StalenessNow told which paths (absolute) may have changed
// — a file watcher's events — and that nothing else did: it stats those
// files and the directories that may have gained one, instead of every
// file of the graph. ok is false when the paths cannot say it alone (a
// root or a known directory gone or renamed, a file in a directory the
// graph does not know: what came with a new directory only a walk of it
// finds; a path under no root); the caller then runs the full check. The
// result lists what StalenessNow would, in the same order, for the files
// the paths name.
func (s *State) StalenessOf(b *Bundle, paths []string) (st Staleness, ok bool) {
	st = Staleness{Checked: time.Now().UTC()}
	rels := make([][]string, len(b.Files))
	bases := make([][2]string, len(b.Files))
	for i, r := range b.Files {
		bases[i] = [2]string{r.Root, realPath(r.Root)}
	}
	for _, p := range paths {
		i, rel, ok := rootOf(bases, p)
		if !ok {
			return st, false
		}
		rels[i] = append(rels[i], rel)
	}
	for i, r := range b.Files {
		st.Known = true
		if !checkPaths(r, rels[i], &st) {
			return st, false
		}
	}
	slices.Sort(st.Added)
	return st, true
}

// rootOf finds the root p lies under, by the root's path or, as a watcher
// reports paths, with its symbolic links resolved (bases holds both); it
// returns the root's index and p relative to it. The root itself is under
// none.
func rootOf(bases [][2]string, p string) (int, string, bool) {
	for i, r := range bases {
		for _, base := range r {
			rel, err := filepath.Rel(base, p)
			if err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return i, filepath.ToSlash(rel), true
			}
		}
	}
	return 0, "", false
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// checkPaths adds to st what changed among r's paths rels (root-relative):
// files of the graph stat'ed as statRun does, and the directories an
// unknown path lies in checked for new files as checkFiles does.
func checkPaths(r RootFiles, rels []string, st *Staleness) bool {
	slices.Sort(rels)
	dirs := map[string]bool{}
	for _, rel := range slices.Compact(rels) {
		if i, ok := slices.BinarySearchFunc(r.Files, rel, cmpRel); ok {
			c := statRun(r, r.Files[i:i+1])
			st.Modified = append(st.Modified, c.modified...)
			st.Deleted = append(st.Deleted, c.deleted...)
			if len(c.deleted) > 0 {
				dirs[path.Dir(rel)] = true // its entries changed
			}
			for id, f := range c.restat {
				if st.Restat == nil {
					st.Restat = map[string]FileStamp{}
				}
				st.Restat[id] = f
			}
			continue
		}
		if _, ok := slices.BinarySearchFunc(r.Dirs, rel, cmpRel); ok {
			dirs[rel] = true // its entries may have changed
			continue
		}
		fi, err := os.Lstat(filepath.Join(r.Root, filepath.FromSlash(rel)))
		switch {
		case err != nil:
			// Came and went, or a directory the graph never held
			// files of: either way no file of the graph.
		case fi.IsDir():
			return false // a new directory: what it holds is for a walk
		default:
			dirs[path.Dir(rel)] = true
		}
	}
	return checkDirs(r, dirs, st)
}

// checkDirs stats the directories and lists the files new in those whose
// entries changed, as checkFiles does; a directory the graph does not
// know, or one gone, is left to the full check.
func checkDirs(r RootFiles, dirs map[string]bool, st *Staleness) bool {
	var known, knownDirs map[string]bool
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		i, ok := slices.BinarySearchFunc(r.Dirs, d, cmpRel)
		if !ok {
			return false
		}
		fi, err := os.Stat(filepath.Join(r.Root, filepath.FromSlash(d)))
		if err != nil {
			return false // its files went with it
		}
		if fi.ModTime().UnixNano() == r.Dirs[i].MTimeNS {
			continue
		}
		st.DirsMoved = true
		if known == nil {
			known, knownDirs = relSet(r.Files), relSet(r.Dirs)
		}
		added, newDirs := addedIn(r.Root, d, known, knownDirs, maxNewFiles-len(st.Added))
		for _, rel := range added {
			st.Added = append(st.Added, r.Prefix+rel)
		}
		st.NewDirs = st.NewDirs || newDirs
	}
	return true
}

func cmpRel(f FileStamp, rel string) int { return strings.Compare(f.Rel, rel) }

func relSet(stamps []FileStamp) map[string]bool {
	m := make(map[string]bool, len(stamps))
	for _, f := range stamps {
		m[f.Rel] = true
	}
	return m
}
