package tools

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/mcpserver/pathguard"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/textsearch"
)

// graphFile is one file the graph knows by its source path.
type GraphFile struct {
	Path string       // provenance source path (root-relative, forward slashes)
	Node graph.NodeID // the File node, or graph.NoNode
	// Nodes are every other node whose provenance names this file, in
	// NodeID order (entities with line ranges).
	Nodes []graph.NodeID
}

// graphFiles lists the files of a graph, sorted by path. A source path
// counts as a file when a File node carries it or a node has a line range
// in it; directory and package nodes (whose source path is a directory)
// do not make it a file.
type GraphFiles struct {
	Files  []GraphFile
	ByPath map[string]int
}

func buildGraphFiles(g *graph.Graph) *GraphFiles {
	byPath := map[string]*GraphFile{}
	for i := 0; i < g.NumNodes(); i++ {
		id := graph.NodeID(i)
		t := g.Type(id)
		if t == graph.Directory {
			continue
		}
		p := g.Provenance(id)
		if p.SourcePath == "" || (t != graph.File && p.LineStart == 0) {
			continue
		}
		f := byPath[p.SourcePath]
		if f == nil {
			f = &GraphFile{Path: p.SourcePath, Node: graph.NoNode}
			byPath[p.SourcePath] = f
		}
		if t == graph.File && f.Node == graph.NoNode {
			f.Node = id
		} else {
			f.Nodes = append(f.Nodes, id)
		}
	}
	out := &GraphFiles{ByPath: make(map[string]int, len(byPath))}
	for _, f := range byPath {
		out.Files = append(out.Files, *f)
	}
	slices.SortFunc(out.Files, func(a, b GraphFile) int { return strings.Compare(a.Path, b.Path) })
	for i, f := range out.Files {
		out.ByPath[f.Path] = i
	}
	return out
}

// Keys of the file lists and helpers the kit derives from a bundle.
var (
	graphFilesKey = session.NewKey[*GraphFiles]("files.graph")
	rootSpaceKey  = session.NewKey[*RootSpace]("files.space")
	guardKey      = session.NewKey[*pathguard.Guard]("files.guard")
	diskFilesKey  = session.NewKey[*diskFiles]("files.disk")
	contentKey    = session.NewKey[*textsearch.Cache]("files.cache")
)

func BundleGraphFiles(b *session.Bundle) *GraphFiles {
	gf, _ := session.Derive(b, graphFilesKey, func(g *graph.Graph) (*GraphFiles, error) { return buildGraphFiles(g), nil })
	return gf
}

// rootSpace maps between graph paths and disk for a bundle whose code
// roots are namespaced (see namespace.go): graph path "ns/src/a.py" is
// src/a.py under the root named ns, file node "ns::file::src/a.py". With
// one bare root it is the identity.
type RootSpace struct {
	RootOf map[string]string // namespace → root path
	nsOf   map[string]string // root path → namespace
}

func BundleSpace(b *session.Bundle) *RootSpace {
	rs, _ := session.Derive(b, rootSpaceKey, func(*graph.Graph) (*RootSpace, error) {
		rs := &RootSpace{RootOf: map[string]string{}, nsOf: map[string]string{}}
		for _, r := range b.Roots {
			if r.Adapter == "code" && r.Namespace != "" {
				rs.RootOf[r.Namespace], rs.nsOf[r.Path] = r.Path, r.Namespace
			}
		}
		return rs, nil
	})
	return rs
}

// diskPath turns a graph path into what the guard resolves: an absolute
// path under its namespace's root, or the path itself.
func (rs *RootSpace) DiskPath(p string) string {
	ns, rest, ok := strings.Cut(p, "/")
	if root := rs.RootOf[ns]; ok && root != "" {
		return filepath.Join(root, filepath.FromSlash(rest))
	}
	if root := rs.RootOf[p]; root != "" {
		return root
	}
	return p
}

// graphPath is the graph's name of a resolved root-relative path.
func (rs *RootSpace) GraphPath(root, rel string) string {
	if ns := rs.nsOf[root]; ns != "" {
		return path.Join(ns, rel)
	}
	return rel
}

// fileID is the file node ID of a graph path.
func (rs *RootSpace) FileID(p string) string {
	ns, rest, ok := strings.Cut(p, "/")
	if ok && rs.RootOf[ns] != "" {
		return ns + "::" + extract.FileID(rest)
	}
	return extract.FileID(p)
}

// namespaceOf is the namespace of root ("" for a bare root).
func (rs *RootSpace) NamespaceOf(root string) string { return rs.nsOf[root] }

// resolve judges a user's path (graph path, root-relative or absolute) and
// returns it resolved, with the graph's name for it (and for a symlink's
// target).
func (rs *RootSpace) Resolve(g *pathguard.Guard, raw string) (res pathguard.Resolved, gpath, greal string, err error) {
	res, err = g.Resolve(rs.DiskPath(raw))
	if err != nil {
		return res, "", "", err
	}
	gpath = rs.GraphPath(res.Root, res.Rel)
	if res.RealRel != "" {
		greal = rs.GraphPath(res.Root, res.RealRel)
	}
	return res, gpath, greal, nil
}

// bundleGuard is the path guard over the bundle's ingest roots.
func BundleGuard(b *session.Bundle) *pathguard.Guard {
	guard, _ := session.Derive(b, guardKey, func(*graph.Graph) (*pathguard.Guard, error) {
		// Code roots first: a relative path that exists, or could be
		// created, under a code root and a document root alike is the
		// code root's (see pathguard.Resolve's tie rule).
		roots := make([]string, 0, len(b.Roots))
		for _, code := range []bool{true, false} {
			for _, r := range b.Roots {
				if (r.Adapter == "code") == code {
					roots = append(roots, r.Path)
				}
			}
		}
		return pathguard.New(roots...), nil
	})
	return guard
}

// diskFiles are the graph's files that exist on disk inside the roots,
// aligned with graphFiles.Files (Abs "" when not readable).
type diskFiles struct {
	Abs []string
	// Refused counts source paths the guard refused (outside the roots,
	// symlinks out); Missing those that no longer exist.
	Refused, Missing int
}

func BundleDiskFiles(b *session.Bundle) *diskFiles {
	df, _ := session.Derive(b, diskFilesKey, func(*graph.Graph) (*diskFiles, error) {
		gf := BundleGraphFiles(b)
		batch := BundleGuard(b).NewBatch()
		rs := BundleSpace(b)
		d := &diskFiles{Abs: make([]string, len(gf.Files))}
		for i, f := range gf.Files {
			r, err := batch.Resolve(rs.DiskPath(f.Path))
			switch {
			case err != nil:
				d.Refused++
			case !r.Exists:
				d.Missing++
			default:
				d.Abs[i] = r.Real
			}
		}
		return d, nil
	})
	return df
}

// contentCacheLimit is the byte budget of each bundle's search content
// cache: M1ND_SEARCH_CACHE_MB (0 disables), default 128 MiB — enough for
// the Go standard library (~88 MB of source).
func contentCacheLimit() int64 {
	if v := os.Getenv("M1ND_SEARCH_CACHE_MB"); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
			return n << 20
		}
	}
	return 128 << 20
}

// bundleCache is the bundle's content cache (nil when disabled).
func BundleCache(b *session.Bundle) *textsearch.Cache {
	c, _ := session.Derive(b, contentKey, func(*graph.Graph) (*textsearch.Cache, error) {
		if l := contentCacheLimit(); l > 0 {
			return textsearch.NewCache(l), nil
		}
		return nil, nil
	})
	return c
}

// needRoots fails with "ingest first" when nothing is ingested.
func NeedRoots(b *session.Bundle) error {
	if len(b.Roots) == 0 {
		e := EmptyGraphErr()
		if b.Graph.NumNodes() > 0 {
			e.Message = "the graph has no ingest roots, so no file on disk may be read"
			e.Hint = "The loaded graph does not record which directory it came from; ingest the repository again so its files can be read."
		}
		return e
	}
	return nil
}

// guardError turns a path guard refusal into a teaching tool error.
func GuardError(err error, param string) error {
	var pe *pathguard.Error
	if !errors.As(err, &pe) {
		return err
	}
	e := Errorf(pe.Hint, "%s: %s", param, pe.Msg)
	if errors.Is(err, pathguard.ErrNoRoots) {
		return EmptyGraphErr()
	}
	if len(pe.Roots) > 0 {
		e.Extra = map[string]any{"allowed_roots": pe.Roots}
	}
	e.SuggestedNextStep = "Use glob to list the files that can be read, then retry with one of their paths."
	return e
}

// scopeFilter is a normalised scope: a path prefix, or a glob when it has
// glob metacharacters.
type ScopeFilter struct {
	raw    string
	prefix string
	glob   *GlobMatcher
}

// parseScope normalises a user scope against the roots: "./" and a leading
// root path are stripped; ".." escapes and absolute paths outside the
// roots are refused.
func ParseScope(b *session.Bundle, raw string) (*ScopeFilter, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return nil, nil
	}
	sf := &ScopeFilter{raw: raw}
	if strings.ContainsAny(s, "*?[{") {
		gm, err := CompileGlob(strings.TrimPrefix(s, "./"))
		if err != nil {
			return nil, Errorf("A scope is a path prefix (\"src/auth/\") or a glob (\"src/**/*.py\").", "scope %q is not a valid glob: %v", raw, err)
		}
		sf.glob = gm
		return sf, nil
	}
	if path.IsAbs(s) || strings.HasPrefix(s, "..") || strings.Contains(s, "/../") {
		_, gpath, _, err := BundleSpace(b).Resolve(BundleGuard(b), s)
		if err != nil {
			return nil, GuardError(err, "scope")
		}
		sf.prefix = gpath
		if strings.HasSuffix(s, "/") && sf.prefix != "" {
			sf.prefix += "/"
		}
		return sf, nil
	}
	p := strings.TrimPrefix(s, "./")
	if p == "." {
		p = ""
	}
	sf.prefix = p
	return sf, nil
}

// match reports whether a root-relative file path is in scope.
func (s *ScopeFilter) Match(p string) bool {
	if s == nil {
		return true
	}
	if s.glob != nil {
		return s.glob.Match(p)
	}
	return strings.HasPrefix(p, s.prefix)
}

func (s *ScopeFilter) String() string {
	if s == nil {
		return ""
	}
	if s.glob != nil {
		return s.raw
	}
	return s.prefix
}

// sameBase suggests indexed files with the same base name as p.
func sameBase(gf *GraphFiles, p string, n int) []string {
	base := path.Base(p)
	var out []string
	for _, f := range gf.Files {
		if path.Base(f.Path) == base {
			out = append(out, f.Path)
			if len(out) == n {
				break
			}
		}
	}
	return out
}

// fmtLines renders "file:line" for hints.
func FmtLines(p string, line int) string {
	if line <= 0 {
		return p
	}
	return fmt.Sprintf("%s:%d", p, line)
}
