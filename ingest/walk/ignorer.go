package walk

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Ignorer tells whether a path lies where a walk of a root does not go:
// under a skipped directory name (node_modules, target, …) or excluded by
// .gitignore. A watcher asks it about each event, so that a build writing
// thousands of files into its output directory wakes nothing. Each
// directory's .gitignore is read once; an event on a .gitignore makes the
// Ignorer read them again. Files git tracks inside ignored directories
// are not told apart (the walk takes them): callers that must not miss
// them check their own file list first. It is safe for concurrent use.
type Ignorer struct {
	root, repoRoot, prefix string
	skipDirs               skipDirs
	noGitignore            bool

	mu   sync.Mutex
	sets map[string]ignoreSet // root-relative directory → patterns in force inside it
}

// NewIgnorer returns the Ignorer of a walk of root (an absolute directory)
// with opt's skip directories and .gitignore setting.
func NewIgnorer(root string, opt Options) *Ignorer {
	ig := &Ignorer{root: filepath.Clean(root), skipDirs: newSkipDirs(opt.SkipDirs), noGitignore: opt.NoGitignore}
	ig.repoRoot = FindRepoRoot(ig.root)
	return ig
}

// Ignored reports whether the walk of the root skips path (absolute). A
// path outside the root, and .gitignore files themselves, are not ignored.
func (ig *Ignorer) Ignored(path string) bool {
	rel, err := filepath.Rel(ig.root, path)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	if filepath.Base(path) == ".gitignore" {
		ig.mu.Lock()
		ig.sets = nil // the rules change: read them again
		ig.mu.Unlock()
		return false
	}
	segs := strings.Split(filepath.ToSlash(rel), "/")
	ig.mu.Lock()
	defer ig.mu.Unlock()
	ign := ig.set("")
	for i, seg := range segs {
		last := i == len(segs)-1
		isDir := !last
		if last {
			if st, err := os.Lstat(path); err == nil && st.IsDir() {
				isDir = true
			}
		}
		if isDir && ig.skipDirs.names[seg] && ig.skipDirs.skips(filepath.Join(ig.root, filepath.FromSlash(strings.Join(segs[:i], "/"))), seg) {
			return true
		}
		dir := strings.Join(segs[:i+1], "/")
		if ig.repoRoot != "" && !ig.noGitignore && ign.ignored(join(ig.prefix, dir), isDir) {
			return true
		}
		if !last {
			ign = ig.set(dir)
		}
	}
	return false
}

// set returns the patterns in force inside dir (root-relative, "" for the
// root), reading the .gitignore files on the way once. Caller holds mu.
func (ig *Ignorer) set(dir string) ignoreSet {
	if ig.sets == nil {
		ig.sets = map[string]ignoreSet{}
	}
	if s, ok := ig.sets[dir]; ok {
		return s
	}
	var s ignoreSet
	switch {
	case ig.repoRoot == "" || ig.noGitignore:
	case dir == "":
		ig.prefix, s = rootIgnores(ig.repoRoot, ig.root)
		s = s.with(filepath.Join(ig.root, ".gitignore"), ig.prefix)
	default:
		parent := ""
		if i := strings.LastIndexByte(dir, '/'); i >= 0 {
			parent = dir[:i]
		}
		s = ig.set(parent).with(filepath.Join(ig.root, filepath.FromSlash(dir), ".gitignore"), join(ig.prefix, dir))
	}
	ig.sets[dir] = s
	return s
}
