// Package history is a repository's commit history laid over a graph:
// which file nodes each commit changed, when and by whom. It answers the
// questions asked of history — what usually changes with a file (co-change
// partners), what a file's recent life looks like (FileCommits), and, with
// the graph's structure, what else a change will need (Predict).
//
// Time is always relative to the history's newest commit, never the wall
// clock: an old checkout is read as it was when it was current.
package history

import (
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Commit is one non-merge commit.
type Commit struct {
	Hash string `json:"hash"`
	// Time is the author time, Unix seconds.
	Time    int64  `json:"time"`
	Author  string `json:"author,omitempty"`
	Subject string `json:"subject,omitempty"`
	// Files are the external IDs of the file nodes the commit changed
	// ("file::path"), sorted.
	Files []string `json:"files"`
}

// Groups returns the files of each commit, in order (the co-change
// matrix's input).
func Groups(cs []Commit) [][]string {
	out := make([][]string, len(cs))
	for i, c := range cs {
		out[i] = c.Files
	}
	return out
}

// Index is a history bound to one graph. It is immutable and safe for
// concurrent use.
type Index struct {
	g       *graph.Graph
	commits []Commit
	// files[i] are commit i's files that are nodes of g, ascending.
	files [][]graph.NodeID
	// byFile lists, per file node, the indexes of the commits that changed
	// it, newest first.
	byFile map[graph.NodeID][]int32
	head   int64

	dirOnce sync.Once
	byDir   map[string][]graph.NodeID // file nodes per directory ("." for the root)
	byStem  map[string][]graph.NodeID // file nodes per name stem

	fragOnce sync.Once
	fragDirs map[string]bool // fragment directories (see FragmentDir)
}

// NewIndex binds commits (newest first, as ingest produces them) to g.
// Files that are not nodes of g (deleted, skipped) are left out; commits
// keep their position so indexes stay aligned with commits.
func NewIndex(g *graph.Graph, commits []Commit) *Index {
	x := &Index{g: g, commits: commits, files: make([][]graph.NodeID, len(commits)), byFile: map[graph.NodeID][]int32{}}
	for i, c := range commits {
		x.head = max(x.head, c.Time)
		ids := make([]graph.NodeID, 0, len(c.Files))
		for _, f := range c.Files {
			if id, ok := g.Lookup(f); ok {
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
		x.files[i] = ids
		for _, id := range ids {
			x.byFile[id] = append(x.byFile[id], int32(i))
		}
	}
	return x
}

// Graph is the graph the index is bound to.
func (x *Index) Graph() *graph.Graph { return x.g }

// Len is the number of commits.
func (x *Index) Len() int { return len(x.commits) }

// Commit returns commit i (0 is the newest).
func (x *Index) Commit(i int) Commit { return x.commits[i] }

// CommitFiles returns the file nodes commit i changed (ascending; do not
// modify).
func (x *Index) CommitFiles(i int) []graph.NodeID { return x.files[i] }

// Head is the newest commit's time (Unix seconds; 0 without history): the
// "now" of every age this package computes.
func (x *Index) Head() int64 { return x.head }

// FileCommits returns the indexes of the commits that changed file,
// newest first (do not modify).
func (x *Index) FileCommits(file graph.NodeID) []int32 { return x.byFile[file] }

// DirFiles lists the file nodes in dir ("." for the root), ascending (do
// not modify). Built on first use.
func (x *Index) DirFiles(dir string) []graph.NodeID {
	x.buildFileIndexes()
	return x.byDir[dir]
}

// maxStemFiles bounds a useful stem: a name shared by more files (mod.rs,
// index.ts, __init__.py) relates none of them.
const maxStemFiles = 6

// StemFiles lists the file nodes whose name has stem (see Stem),
// ascending (do not modify); none when more than a handful share it.
func (x *Index) StemFiles(stem string) []graph.NodeID {
	x.buildFileIndexes()
	if fs := x.byStem[stem]; len(fs) <= maxStemFiles {
		return fs
	}
	return nil
}

func (x *Index) buildFileIndexes() {
	x.dirOnce.Do(func() {
		x.byDir, x.byStem = map[string][]graph.NodeID{}, map[string][]graph.NodeID{}
		g := x.g
		for id := graph.NodeID(0); int(id) < g.NumNodes(); id++ {
			if g.Type(id) == graph.File {
				if p := g.SourcePath(id); p != "" {
					d := path.Dir(p)
					x.byDir[d] = append(x.byDir[d], id)
					if st := Stem(p); st != "" {
						x.byStem[st] = append(x.byStem[st], id)
					}
				}
			}
		}
	})
}

// Stem is a file name reduced to what it is about: the base name without
// extensions, lower case, without test affixes — foo.go, foo_test.go,
// test_foo.py, FooTest.java and foo.spec.ts all have stem "foo". Names
// of fewer than three letters have none.
func Stem(p string) string {
	b := strings.ToLower(path.Base(p))
	if i := strings.IndexByte(b[min(1, len(b)):], '.'); i >= 0 {
		b = b[:i+min(1, len(b))]
	}
	for _, a := range []string{"test_", "tests_", "spec_"} {
		b = strings.TrimPrefix(b, a)
	}
	for _, a := range []string{"_test", "_tests", "_spec", "tests", "test", "spec"} {
		if len(b) > len(a) {
			b = strings.TrimSuffix(b, a)
		}
	}
	b = strings.Trim(b, "_-.")
	if len(b) < 3 {
		return ""
	}
	return b
}

// Partner is a file that changed together with another.
type Partner struct {
	Node graph.NodeID `json:"node"`
	// Times counts the commits in which both changed.
	Times int `json:"times"`
	// Coupling is Times over the commits of the file asked about, in [0, 1].
	Coupling float64 `json:"coupling"`
	// Last is the newest joint commit's time.
	Last int64 `json:"last"`
}

// Partners returns the files that changed together with file in commits
// at or after since (Unix seconds; 0 for all), strongest first (ties by
// node ID), at most limit (0: all). Commits of more than maxGroup files
// (0: no bound) are left out: a sweeping rename says little about
// coupling.
func (x *Index) Partners(file graph.NodeID, since int64, maxGroup, limit int) []Partner {
	byNode := map[graph.NodeID]*Partner{}
	total := 0
	for _, ci := range x.byFile[file] {
		c := &x.commits[ci]
		if c.Time < since {
			continue
		}
		fs := x.files[ci]
		if maxGroup > 0 && len(fs) > maxGroup {
			continue
		}
		total++
		for _, o := range fs {
			if o == file {
				continue
			}
			p := byNode[o]
			if p == nil {
				p = &Partner{Node: o}
				byNode[o] = p
			}
			p.Times++
			p.Last = max(p.Last, c.Time)
		}
	}
	out := make([]Partner, 0, len(byNode))
	for _, p := range byNode {
		p.Coupling = float64(p.Times) / float64(total)
		out = append(out, *p)
	}
	slices.SortFunc(out, func(a, b Partner) int {
		if a.Times != b.Times {
			return b.Times - a.Times
		}
		return int(a.Node) - int(b.Node)
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}
