package code

import (
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/gitmeta"
	"github.com/m1nd-go/m1nd/ingest/testlink"
	"github.com/m1nd-go/m1nd/ingest/workspace"
)

// Relations added by enrichment.
const (
	RelTests     = "tests"
	RelDependsOn = "depends_on"
)

// enrich adds test links and the package structure.
func enrich(b *builder, inc []included, ws *workspace.Info, st *adapter.Stats) {
	paths := make([]string, len(inc))
	byPath := make(map[string]*included, len(inc))
	for i := range inc {
		paths[i] = inc[i].fr.res.Path
		byPath[paths[i]] = &inc[i]
	}

	for _, l := range testlink.Find(paths) {
		b.edge(byPath[l.Test].fileID, byPath[l.Subject].fileID, RelTests, WeightCertain)
		st.TestLinks++
	}

	// Packages: in-repo ones contain the files they own (the nearest
	// enclosing manifest or package directory) and depend on what their
	// manifests declare.
	pkgNode := map[*workspace.Package]graph.NodeID{}
	aggs := map[*workspace.Package]*span{}
	for _, p := range ws.Packages {
		tags := []string{"package", p.Ecosystem}
		src := p.Manifest
		if p.External {
			tags = append(tags, "external")
		} else if p.Manifest == "" {
			tags = append(tags, "import-package")
			src = p.Dir
		}
		id, ok := b.addNode(graph.Node{
			ExternalID:      p.ID,
			Label:           p.Name,
			Type:            graph.Module,
			Tags:            tags,
			ChangeFrequency: gitmeta.NotGitFrequency,
			Provenance:      graph.Provenance{SourcePath: src, Namespace: NamespaceCode, Excerpt: p.Version},
		})
		if !ok {
			continue
		}
		pkgNode[p] = id
		aggs[p] = &span{}
		st.Packages++
	}
	for i := range inc {
		f := &inc[i]
		p := ws.Owner(f.fr.res.Path, f.fr.res.Language)
		if p == nil {
			continue
		}
		if id, ok := pkgNode[p]; ok {
			b.edge(id, f.fileID, extract.RelContains, WeightCertain)
			aggs[p].fold(f.time, f.freq)
		}
	}
	for p, a := range aggs {
		if !p.External {
			b.g.SetLastModified(pkgNode[p], a.t)
			b.g.SetChangeFrequency(pkgNode[p], a.f)
		}
	}
	for _, w := range ws.Workspaces {
		id, ok := b.addNode(graph.Node{
			ExternalID:      w.ID,
			Label:           dirLabel(w.Dir),
			Type:            graph.Module,
			Tags:            []string{"workspace", w.Ecosystem},
			ChangeFrequency: gitmeta.NotGitFrequency,
			Provenance:      graph.Provenance{SourcePath: w.Manifest, Namespace: NamespaceCode},
		})
		if !ok {
			continue
		}
		for _, m := range w.Members {
			for _, p := range ws.Packages {
				if !p.External && p.Dir == m && p.Ecosystem == w.Ecosystem {
					if pid, ok := pkgNode[p]; ok {
						b.edge(id, pid, extract.RelContains, WeightCertain)
					}
				}
			}
		}
	}

	files := make([]importsOf, len(inc))
	for i := range inc {
		files[i] = importsOf{inc[i].fr.res.Path, inc[i].fr.res.Language, inc[i].imports}
	}
	for _, d := range packageDeps(ws, func(p *workspace.Package) bool { _, ok := pkgNode[p]; return ok }, files) {
		b.edge(pkgNode[d[0]], pkgNode[d[1]], RelDependsOn, WeightCertain)
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
