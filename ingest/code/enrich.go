package code

import (
	"path/filepath"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/gitmeta"
	"github.com/m1nd-go/m1nd/ingest/walk"
	"github.com/m1nd-go/m1nd/ingest/workspace"
)

// Relations added by enrichment.
const (
	RelTests     = "tests"
	RelDependsOn = "depends_on"
)

// derived adds the derived edges (test links, declarations, Go interface
// satisfaction) of the included files; skels are their goSkeletons, all
// interface satisfaction reads of them (the patch path reads the same).
func (r *run) derived(skels []*extract.Result) {
	files := make([]fileFacts, len(r.included))
	for i := range r.included {
		f := &r.included[i]
		files[i] = fileFacts{path: f.path, lang: f.lang, imports: f.imports, res: skels[i]}
	}
	for _, e := range derivedEdges(files, r.ws, r.readSource, nil) {
		s, ok1 := r.b.g.Lookup(e.src)
		d, ok2 := r.b.g.Lookup(e.dst)
		if !ok1 || !ok2 {
			continue
		}
		r.b.edge(s, d, e.rel, WeightCertain)
		if e.rel == RelTests {
			r.st.TestLinks++
		}
	}
}

// readSource reads a walked file by its root-relative path.
func (r *run) readSource(rel string) ([]byte, error) {
	return walk.ReadFile(filepath.Join(r.wr.Root, filepath.FromSlash(rel)), 0)
}

// packages adds the package nodes: in-repo ones contain the files they own
// (the nearest enclosing manifest or package directory) and take their
// latest change; external ones stand for dependencies.
func (r *run) packages() map[*workspace.Package]graph.NodeID {
	pkgNode := map[*workspace.Package]graph.NodeID{}
	aggs := map[*workspace.Package]*span{}
	for _, p := range r.ws.Packages {
		id, ok := r.b.addNode(packageNode(p))
		if !ok {
			continue
		}
		pkgNode[p] = id
		aggs[p] = &span{}
		r.st.Packages++
	}
	for i := range r.included {
		f := &r.included[i]
		p := r.ws.Owner(f.path, f.lang)
		if p == nil {
			continue
		}
		if id, ok := pkgNode[p]; ok {
			r.b.edge(id, f.fileID, extract.RelContains, WeightCertain)
			aggs[p].fold(f.time, f.freq)
		}
	}
	for p, a := range aggs {
		if !p.External {
			r.b.g.SetLastModified(pkgNode[p], a.t)
			r.b.g.SetChangeFrequency(pkgNode[p], a.f)
		}
	}
	return pkgNode
}

func packageNode(p *workspace.Package) graph.Node {
	tags := []string{"package", p.Ecosystem}
	src := p.Manifest
	if p.External {
		tags = append(tags, "external")
	} else if p.Manifest == "" {
		tags = append(tags, "import-package")
		src = p.Dir
	}
	return graph.Node{
		ExternalID:      p.ID,
		Label:           p.Name,
		Type:            graph.Module,
		Tags:            tags,
		ChangeFrequency: gitmeta.NotGitFrequency,
		Provenance:      graph.Provenance{SourcePath: src, Namespace: NamespaceCode, Excerpt: p.Version},
	}
}

// workspaces adds the workspace nodes, containing their member packages.
func (r *run) workspaces(pkgNode map[*workspace.Package]graph.NodeID) {
	ws := r.ws
	for _, w := range ws.Workspaces {
		id, ok := r.b.addNode(workspaceNode(w))
		if !ok {
			continue
		}
		for _, m := range w.Members {
			for _, p := range ws.Packages {
				if !p.External && p.Dir == m && p.Ecosystem == w.Ecosystem {
					if pid, ok := pkgNode[p]; ok {
						r.b.edge(id, pid, extract.RelContains, WeightCertain)
					}
				}
			}
		}
	}
}

func workspaceNode(w *workspace.Workspace) graph.Node {
	return graph.Node{
		ExternalID:      w.ID,
		Label:           dirLabel(w.Dir),
		Type:            graph.Module,
		Tags:            []string{"workspace", w.Ecosystem},
		ChangeFrequency: gitmeta.NotGitFrequency,
		Provenance:      graph.Provenance{SourcePath: w.Manifest, Namespace: NamespaceCode},
	}
}

// packageTail lists the nodes packages and workspaces add after every
// file's, in order; false when two share an ID (then build dropped one).
func packageTail(ws *workspace.Info) ([]graph.Node, bool) {
	out := make([]graph.Node, 0, len(ws.Packages)+len(ws.Workspaces))
	ids := make(map[string]bool, cap(out))
	for _, p := range ws.Packages {
		out = append(out, packageNode(p))
	}
	for _, w := range ws.Workspaces {
		out = append(out, workspaceNode(w))
	}
	for _, n := range out {
		if ids[n.ExternalID] {
			return nil, false
		}
		ids[n.ExternalID] = true
	}
	return out, true
}

// dependsOn links packages to the packages they depend on.
func (r *run) dependsOn(pkgNode map[*workspace.Package]graph.NodeID) {
	files := make([]importsOf, len(r.included))
	for i := range r.included {
		f := &r.included[i]
		files[i] = importsOf{f.path, f.lang, f.imports}
	}
	has := func(p *workspace.Package) bool { _, ok := pkgNode[p]; return ok }
	for _, d := range packageDeps(r.ws, has, files) {
		r.b.edge(pkgNode[d[0]], pkgNode[d[1]], RelDependsOn, WeightCertain)
	}
}

// importsOf is what package dependencies need to know of a file.
type importsOf struct {
	path, lang string
	imports    []string // source paths its import edges were bound to
}

// packageDeps lists the depends_on pairs between packages that have nodes:
// what manifests declare, and file imports that cross packages (Python
// packages have no manifest edges), once each in a stable order.
func packageDeps(ws *workspace.Info, has func(*workspace.Package) bool, files []importsOf) [][2]*workspace.Package {
	seen := map[[2]*workspace.Package]bool{}
	var out [][2]*workspace.Package
	add := func(a, b *workspace.Package) {
		if k := [2]*workspace.Package{a, b}; a != b && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, p := range ws.Packages {
		if p.External || !has(p) {
			continue
		}
		for _, d := range p.Deps {
			target := ws.Local(p.Ecosystem, d)
			if target == nil {
				for _, q := range ws.Packages {
					if q.External && q.Ecosystem == p.Ecosystem && q.Name == d.Name {
						target = q
						break
					}
				}
			}
			if target != nil && has(target) {
				add(p, target)
			}
		}
	}
	for _, f := range files {
		from := ws.Owner(f.path, f.lang)
		if from == nil || !has(from) {
			continue
		}
		for _, e := range f.imports {
			if to := ws.Owner(e, f.lang); to != nil && has(to) {
				add(from, to)
			}
		}
	}
	return out
}

func dirLabel(d string) string {
	if d == "" {
		return "."
	}
	return d
}
