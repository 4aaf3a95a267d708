package session

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// An answer's stale_files are about the files the answer names, so the
// dispatcher stats those files, at the answer, instead of the whole tree:
// an ingest of go-std stamps 6,495 files, and statting them all made the
// first answer after every ingest 40–90 ms slower (issue 29). The rule:
// a file an answer names is flagged when its size or mtime differs from
// its stamp at the moment of that answer — with no cache, so an edit one
// moment after an ingest (or after any earlier answer) is flagged on the
// next answer that names the file. The whole-tree check (Staleness, for
// health and the audits) is unchanged.

// fileNames finds a bundle's stamped files by the names answers give
// them.
type fileNames struct{ roots []rootNames }

type rootNames struct {
	prefix string // of an external ID: "file::", "ns::file::"
	shown  string // of the path as answers show it (shownPath): "", "ns/"
	rels   map[string]int32
}

var fileNamesKey = NewKey[*fileNames]("stale-file-names")

func namesOf(b *Bundle) *fileNames {
	fn, _ := Derive(b, fileNamesKey, func(*graph.Graph) (*fileNames, error) {
		out := &fileNames{roots: make([]rootNames, len(b.Files))}
		for i, r := range b.Files {
			rels := make(map[string]int32, len(r.Files))
			for j, f := range r.Files {
				rels[f.Rel] = int32(j)
			}
			// The shown path of the ID prefix+"x" is shown+"x".
			shown := strings.TrimSuffix(shownPath(r.Prefix+"x"), "x")
			out.roots[i] = rootNames{prefix: r.Prefix, shown: shown, rels: rels}
		}
		return out, nil
	})
	return fn
}

// shownPath is how an answer may show the file whose external ID is
// id, besides the ID itself: root-relative ("file::a/b.go" → "a/b.go"),
// under its namespace for a namespaced root ("ns::file::a.go" → "ns/a.go").
func shownPath(id string) string {
	if ns, r, ok := strings.Cut(id, "::file::"); ok {
		return ns + "/" + r
	}
	return strings.TrimPrefix(id, "file::")
}

// NamedFiles collects the stamped files an answer names, then stats them.
type NamedFiles struct {
	b     *Bundle
	names *fileNames
	seen  map[[2]int32]bool
}

// NamedFiles starts a collection over b's stamped files, or returns nil
// when b has none (memory or json adapters): nothing can be flagged.
func (s *State) NamedFiles(b *Bundle) *NamedFiles {
	if b == nil || len(b.Files) == 0 {
		return nil
	}
	return &NamedFiles{b: b, names: namesOf(b)}
}

// Note records the file str names, if any: a file's external ID, an ID
// under it (an entity "file::a.go::F"), or its shown path exactly.
func (n *NamedFiles) Note(str []byte) {
	for i := range n.names.roots {
		r := &n.names.roots[i]
		if hasPrefix(str, r.prefix) {
			n.noteID(i, str[len(r.prefix):])
		}
		if hasPrefix(str, r.shown) {
			n.add(i, str[len(r.shown):])
		}
	}
}

// noteID adds the file rest (an ID past its prefix) names: the whole, or
// any part before a "::".
func (n *NamedFiles) noteID(root int, rest []byte) {
	n.add(root, rest)
	for i := 0; i+1 < len(rest); i++ {
		if rest[i] == ':' && rest[i+1] == ':' {
			n.add(root, rest[:i])
		}
	}
}

func (n *NamedFiles) add(root int, rel []byte) {
	j, ok := n.names.roots[root].rels[string(rel)]
	if !ok {
		return
	}
	if n.seen == nil {
		n.seen = map[[2]int32]bool{}
	}
	n.seen[[2]int32{int32(root), j}] = true
}

func hasPrefix(b []byte, p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }

// Stale stats the noted files now and returns the external IDs of those
// changed or deleted since their stamps: the modified, then the deleted,
// each in root and file order (the order StaleIDs gives them).
func (n *NamedFiles) Stale() []string {
	keys := slices.SortedFunc(maps.Keys(n.seen), func(a, b [2]int32) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	})
	var modified, deleted []string
	for len(keys) > 0 {
		root := keys[0][0]
		r := n.b.Files[root]
		sub := RootFiles{Root: r.Root, Prefix: r.Prefix}
		for len(keys) > 0 && keys[0][0] == root {
			sub.Files = append(sub.Files, r.Files[keys[0][1]])
			keys = keys[1:]
		}
		for _, c := range statFiles(sub) {
			modified = append(modified, c.modified...)
			deleted = append(deleted, c.deleted...)
		}
	}
	return append(modified, deleted...)
}
