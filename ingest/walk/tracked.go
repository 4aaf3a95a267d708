package walk

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// tracked is the set of paths git tracks (the index), read on first need:
// .gitignore never hides a tracked file from git, so it must not hide it
// from the walk either (a package.json force-added under a "**/package.json"
// rule is the package's manifest). Paths are repository-relative and
// sorted; nil means no index could be read, and then ignore rules decide
// alone.
type tracked struct {
	repoRoot string
	loaded   bool
	paths    []string
}

func (t *tracked) load() {
	if t.loaded {
		return
	}
	t.loaded = true
	gd := gitDir(t.repoRoot)
	if gd == "" {
		return
	}
	f, err := os.Open(filepath.Join(gd, "index"))
	if err != nil {
		return
	}
	defer f.Close()
	var idx index.Index
	if err := index.NewDecoder(bufio.NewReader(f)).Decode(&idx); err != nil {
		return
	}
	t.paths = make([]string, 0, len(idx.Entries))
	for _, e := range idx.Entries {
		t.paths = append(t.paths, filepath.ToSlash(e.Name))
	}
	slices.Sort(t.paths)
}

// file reports whether git tracks the repository-relative path p.
func (t *tracked) file(p string) bool {
	t.load()
	_, ok := slices.BinarySearch(t.paths, p)
	return ok
}

// under reports whether git tracks any file below the directory p.
func (t *tracked) under(p string) bool {
	t.load()
	prefix := p + "/"
	i, _ := slices.BinarySearch(t.paths, prefix)
	return i < len(t.paths) && strings.HasPrefix(t.paths[i], prefix)
}
