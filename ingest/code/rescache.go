package code

import (
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/resolve"
)

// resolveCacheKey keys the resolution outcomes kept in a cache store.
const resolveCacheKey = "code.resolve"

// resolveCache remembers how every reference of the previous (complete)
// ingest of a root was resolved, so an incremental ingest re-resolves only
// the references a change can affect. A reference's outcome depends on the
// candidates carrying its name, the receiver types' ancestry, the module
// layout (which files and directories exist) and the workspace manifests;
// stale tells which of these moved.
type resolveCache struct {
	root  string
	files map[string]*fileResolution
	// ix is the resolver index over the run's results, kept for the next
	// incremental run to update in place (nil when none was built).
	ix *resolve.Index
}

type fileResolution struct {
	hash cache.Hash
	// labels of the file's entities, sorted and unique.
	labels []string
	// parents are the "type>base" pairs of its inheritance edges.
	parents []string
	// star is set when the file has star imports: its plain names then
	// depend on which files answer those modules.
	star bool
	// out holds one outcome per ref:: edge, in edge order.
	out []resolve.Result
}

// manifests change the package structure the resolver maps modules with.
var manifests = map[string]bool{
	"go.mod": true, "go.work": true, "Cargo.toml": true, "package.json": true,
	"pnpm-workspace.yaml": true, "pyproject.toml": true, "__init__.py": true,
}

func fileLabels(r *extract.Result) (labels, parents []string) {
	fid := extract.FileID(r.Path)
	byID := map[string]string{}
	for _, n := range r.Nodes {
		if n.ID != fid {
			labels = append(labels, n.Label)
			byID[n.ID] = n.Label
		}
	}
	for _, e := range r.Edges {
		if e.Relation == extract.RelInherits || e.Relation == extract.RelImplements {
			parents = append(parents, byID[e.Source]+">"+e.Target)
		}
	}
	slices.Sort(labels)
	slices.Sort(parents)
	return slices.Compact(labels), slices.Compact(parents)
}

// staleness says what changed since the cached run.
type staleness struct {
	all     bool            // no usable cache, or manifests changed
	labels  map[string]bool // names whose candidates may differ
	modules bool            // files appeared or vanished: module layout moved
	types   bool            // inheritance changed: receiver-type lookups moved
	changed map[string]bool // files whose own references must be redone
}

// diff compares the included files with the cached run.
func (c *resolveCache) diff(root string, inc []included) (*staleness, map[string]*fileResolution) {
	s := &staleness{labels: map[string]bool{}, changed: map[string]bool{}}
	now := make(map[string]*fileResolution, len(inc))
	usable := c != nil && c.root == root
	for i := range inc {
		r := inc[i].fr.res
		h := inc[i].fr.entry.Hash
		if usable {
			if old := c.files[r.Path]; old != nil && old.hash == h && h != (cache.Hash{}) {
				// Same content, same definitions: no need to list them again.
				now[r.Path] = &fileResolution{hash: h, labels: old.labels, parents: old.parents, star: old.star}
				continue
			}
		}
		l, p := fileLabels(r)
		now[r.Path] = &fileResolution{hash: h, labels: l, parents: p, star: hasStar(r)}
	}
	if !usable {
		s.all = true
		return s, now
	}
	for p, cur := range now {
		old := c.files[p]
		switch {
		case old == nil:
			s.modules = true
			s.mark(nil, cur, p)
		case old.hash != cur.hash || cur.hash == (cache.Hash{}):
			s.mark(old, cur, p)
		}
	}
	for p, old := range c.files {
		if now[p] == nil {
			s.modules = true
			s.mark(old, nil, p)
		}
	}
	if s.modules {
		// Files appearing or vanishing can change which file answers a
		// star-imported module.
		for p, cur := range now {
			if cur.star {
				s.changed[p] = true
			}
		}
	}
	return s, now
}

// mark records that file p went from old to cur (either may be nil): its
// own references are redone, names it defined or defines may bind
// differently, a changed manifest or inheritance moves more.
func (s *staleness) mark(old, cur *fileResolution, p string) {
	s.changed[p] = true
	if manifests[path.Base(p)] {
		s.all = true
	}
	var op, cp []string
	for _, f := range []*fileResolution{old, cur} {
		if f == nil {
			continue
		}
		for _, l := range f.labels {
			s.labels[l] = true
		}
	}
	if old != nil {
		op = old.parents
	}
	if cur != nil {
		cp = cur.parents
	}
	if !slices.Equal(op, cp) {
		s.types = true
	}
}

func hasStar(r *extract.Result) bool {
	for _, im := range r.Imports {
		if im.Alias == "" && slices.Contains(im.Names, "*") {
			return true
		}
	}
	return false
}

// reuse reports whether the cached outcome of a reference still holds.
func (s *staleness) reuse(e *extract.Edge, name string) bool {
	if s.all {
		return false
	}
	if s.labels[name] || s.labels[lastName(name)] {
		return false
	}
	if s.modules && e.Hint.Module != "" {
		return false
	}
	if s.types && (e.Hint.ReceiverType != "" || strings.HasSuffix(e.Hint.Receiver, ")")) {
		return false
	}
	return true
}

// lastName mirrors the resolver's fallback from a qualified name to its
// last part.
func lastName(s string) string {
	s = strings.TrimLeft(s, "*&")
	if i := strings.LastIndexAny(s, ".:\\/"); i >= 0 && i < len(s)-1 {
		return s[i+1:]
	}
	return s
}
