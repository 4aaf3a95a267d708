package tools

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/core/plasticity"
	"github.com/m1nd-go/m1nd/ingest"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// codeIDPrefixes are the ID families a code ingest creates.
var codeIDPrefixes = []string{"file::", "dir::", "ref::", "package::"}

// ownedByBareRoot reports whether a node of a graph with one bare (not
// namespaced) code root belongs to that root.
func ownedByBareRoot(g *graph.Graph, id graph.NodeID) bool {
	ext := g.ExternalID(id)
	if !slices.ContainsFunc(codeIDPrefixes, func(p string) bool { return strings.HasPrefix(ext, p) }) {
		return false
	}
	return !strings.HasPrefix(ext, "package::") || !slices.Contains(g.Tags(id), "external")
}

// ownedByNamespace reports whether id belongs to the root namespaced ns.
func ownedByNamespace(g *graph.Graph, id graph.NodeID, ns string) bool {
	return strings.HasPrefix(g.ExternalID(id), ns+"::")
}

var nsUnsafe = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// newNamespace names a root after its directory, unique among taken.
func newNamespace(root string, taken []string) string {
	base := nsUnsafe.ReplaceAllString(filepath.Base(root), "-")
	if base == "" || base == "." || base == "-" {
		base = "repo"
	}
	ns := base
	for i := 2; slices.Contains(taken, ns); i++ {
		ns = fmt.Sprintf("%s-%d", base, i)
	}
	return ns
}

// namespaced renames owned nodes of g into ns: IDs get "ns::", source
// paths "ns/"; with drop, the nodes for which it is true go.
func namespaced(g *graph.Graph, ns string, owned func(graph.NodeID) bool, drop func(graph.NodeID) bool) (*graph.Graph, error) {
	return g.Rewritten(graph.Rewrite{
		Drop: drop,
		Rename: func(id graph.NodeID) (string, string) {
			if !owned(id) {
				return "", ""
			}
			src := g.Provenance(id).SourcePath
			if src != "" {
				src = path.Join(ns, src)
			}
			return ns + "::" + g.ExternalID(id), src
		},
	})
}

// mergePlan is how a code root joins a graph that holds others.
type mergePlan struct {
	// NS is the joining root's namespace ("" when it is the only code root).
	NS string
	// Bare is the namespace the graph's bare code root gets now ("" when
	// there is none to rename).
	Bare     string
	BareRoot string
}

// planMerge decides the namespaces for merging code root into old: the
// name a root asks for (want; the bare root's Name) when it is free, else
// its directory's name made unique.
func planMerge(old *session.Bundle, root, want string) mergePlan {
	var taken []string
	var others []session.Root
	own := ""
	for _, r := range old.Roots {
		if r.Adapter != "code" {
			continue
		}
		if r.Namespace != "" {
			taken = append(taken, r.Namespace)
		}
		if r.Path == root {
			own = r.Namespace
		} else {
			others = append(others, r)
		}
	}
	if len(others) == 0 {
		return mergePlan{NS: own}
	}
	p := mergePlan{NS: own}
	if len(others) == 1 && others[0].Namespace == "" {
		p.Bare, p.BareRoot = nameOrNew(others[0].Name, others[0].Path, taken), others[0].Path
		taken = append(taken, p.Bare)
	}
	if p.NS == "" {
		p.NS = nameOrNew(want, root, taken)
	}
	return p
}

// nameOrNew is want when it is a free namespace, else newNamespace.
func nameOrNew(want, root string, taken []string) string {
	if want != "" && !slices.Contains(taken, want) && !nsUnsafe.MatchString(want) {
		return want
	}
	return newNamespace(root, taken)
}

// renameState follows a rename of bare-root nodes into ns in what the
// session remembers by external ID: learned edge states (returned, to
// import onto the new graph), query and feedback memory.
func renameState(pe *plasticity.Engine, old *graph.Graph, ns string) []plasticity.SynapticState {
	rename := func(ext string) string {
		if id, ok := old.Lookup(ext); ok && ownedByBareRoot(old, id) {
			return ns + "::" + ext
		}
		return ext
	}
	states := pe.ExportState(old)
	for i := range states {
		states[i].SourceLabel, states[i].TargetLabel = rename(states[i].SourceLabel), rename(states[i].TargetLabel)
	}
	pe.RenameNodes(rename)
	return states
}

// mergeCodeRoot returns old with code root r (ingested alone as o) merged
// in, every code root namespaced once there are two: the graph's bare
// root is renamed (nodes, file stamps, commit groups, learned state and
// memories follow), a root merged again replaces its previous nodes.
func mergeCodeRoot(s *session.State, old *session.Bundle, o *ingest.Output, r session.Root, files *session.RootFiles) (*session.Bundle, error) {
	p := planMerge(old, r.Path, r.Name)
	again := slices.ContainsFunc(old.Roots, func(x session.Root) bool { return x.Path == r.Path })
	g := old.Graph
	drop := func(id graph.NodeID) bool {
		if !again {
			return false
		}
		if p.NS == "" || !slices.ContainsFunc(old.Roots, func(x session.Root) bool { return x.Path == r.Path && x.Namespace == p.NS }) {
			return ownedByBareRoot(g, id)
		}
		return ownedByNamespace(g, id, p.NS)
	}
	var base *graph.Graph
	var err error
	s.Plasticity.Locked(func() {
		owned := func(id graph.NodeID) bool { return p.Bare != "" && ownedByBareRoot(g, id) }
		base, err = namespaced(g, p.Bare, owned, drop)
	})
	if err != nil {
		return nil, err
	}
	add := o.Graph
	if p.NS != "" {
		if add, err = namespaced(o.Graph, p.NS, func(id graph.NodeID) bool { return ownedByBareRoot(o.Graph, id) }, nil); err != nil {
			return nil, err
		}
	}
	merged, _, err := ingest.MergeGraphs(base, add)
	if err != nil {
		return nil, err
	}
	if p.Bare != "" {
		if st, err := s.Plasticity.ImportState(merged, renameState(s.Plasticity, g, p.Bare)); err == nil {
			s.Logf("%s's nodes now live under namespace %q; %d learned edges followed them", p.BareRoot, p.Bare, st.Applied)
		}
	}
	r.Namespace = p.NS
	nb := &session.Bundle{Graph: merged}
	for _, x := range old.Roots {
		if x.Path == r.Path && x.Adapter == "code" {
			continue // a documents root at the same path stays
		}
		if x.Path == p.BareRoot {
			x.Namespace = p.Bare
		}
		nb.Roots = append(nb.Roots, x)
	}
	nb.Roots = append(nb.Roots, r)
	for _, f := range old.Files {
		if f.Root == r.Path {
			continue
		}
		if f.Root == p.BareRoot {
			f.Prefix = p.Bare + "::" + f.Prefix
		}
		nb.Files = append(nb.Files, f)
	}
	if files != nil {
		if p.NS != "" {
			files.Prefix = p.NS + "::" + files.Prefix
		}
		nb.Files = append(nb.Files, *files)
	}
	kept := old.Commits
	if again { // the root's earlier history is in o's again
		mine := "file::"
		if p.NS != "" && p.Bare == "" {
			mine = p.NS + "::file::"
		}
		kept = slices.DeleteFunc(slices.Clone(kept), func(c history.Commit) bool {
			return len(c.Files) > 0 && strings.HasPrefix(c.Files[0], mine)
		})
	}
	nb.Commits = append(prefixCommits(kept, p.Bare), prefixCommits(o.Commits, p.NS)...)
	return nb, nil
}

// prefixCommits puts the file IDs of commits under ns ("" keeps them).
func prefixCommits(commits []history.Commit, ns string) []history.Commit {
	if ns == "" {
		return slices.Clone(commits)
	}
	out := make([]history.Commit, len(commits))
	for i, c := range commits {
		c.Files = slices.Clone(c.Files)
		for j, id := range c.Files {
			if strings.HasPrefix(id, "file::") {
				c.Files[j] = ns + "::" + id
			}
		}
		out[i] = c
	}
	return out
}

// spaced names the nodes and paths of one root in graph terms: under its
// namespace, or as they are for a bare root ("").
type Spaced string

func (ns Spaced) Id(ext string) string {
	if ns == "" {
		return ext
	}
	return string(ns) + "::" + ext
}

func (ns Spaced) Path(p string) string {
	if ns == "" {
		return p
	}
	return path.Join(string(ns), p)
}

// unspaceState follows a root leaving its namespace — replaced alone, it
// is the only root again and its nodes lose the "ns::" prefix — in what
// the session remembers by external ID, like renameState; it returns the
// learned edge states renamed, to import onto the new graph.
func unspaceState(pe *plasticity.Engine, old *graph.Graph, ns string) []plasticity.SynapticState {
	strip := func(ext string) string { return strings.TrimPrefix(ext, ns+"::") }
	states := pe.ExportState(old)
	for i := range states {
		states[i].SourceLabel, states[i].TargetLabel = strip(states[i].SourceLabel), strip(states[i].TargetLabel)
	}
	pe.RenameNodes(strip)
	return states
}

// namespaceOfRoot is the namespace code root has in roots ("" when bare
// or absent).
func namespaceOfRoot(roots []session.Root, root string) string {
	for _, r := range roots {
		if r.Path == root && r.Adapter == "code" {
			return r.Namespace
		}
	}
	return ""
}
