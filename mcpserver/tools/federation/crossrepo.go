package federation

import (
	"bufio"
	"encoding/json"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// CrossEdge is an edge federate added between two repositories.
type CrossEdge struct {
	SourceRepo     string  `json:"source_repo"`
	TargetRepo     string  `json:"target_repo"`
	SourceNode     string  `json:"source_node"`
	TargetNode     string  `json:"target_node"`
	EdgeType       string  `json:"edge_type" jsonschema:"package_dep: an import or manifest dependency; api_contract: an HTTP route or gRPC service."`
	Relation       string  `json:"relation"`
	Weight         float32 `json:"weight"`
	CausalStrength float32 `json:"causal_strength"`
	Evidence       string  `json:"evidence,omitempty" jsonschema:"api_contract: the route or service (\"GET /api/users/{}\", \"grpc users.v1.Users\")."`
}

// Bounds of the scan: files read per federate, bytes read per file, and
// target files one import may link to (a Go package's files).
const (
	maxScannedFiles   = 50_000
	maxScannedBytes   = 256 << 10
	maxTargetsPerLink = 20
)

// repo is one federated code root as the scan sees it: its namespace,
// directory, and the files the graph holds for it (root-relative).
type repo struct {
	ns, dir string
	files   []string
}

// provider maps what other repositories import onto a repository's files.
type provider struct {
	goModules []goModule          // module path → directory
	npm       map[string]string   // package name → entry file
	python    map[string]string   // top-level module → its directory or file
	byDir     map[string][]string // directory → the Go files in it
	has       map[string]bool     // every file of the repository
}

type goModule struct{ path, dir string }

// linkRepos returns a copy of old's graph with the edges between its
// namespaced code roots, and those edges; nil when there are none.
func linkRepos(c *tools.Call, old *session.Bundle) (*graph.Graph, []CrossEdge, error) {
	repos := federated(old)
	edges, api, err := scanRepos(c, repos)
	if err != nil {
		return nil, nil, err
	}
	edges = append(edges, manifestEdges(old.Graph, repos)...)
	at := newLocator(old.Graph)
	api.mount()
	edges = append(edges, api.routeEdges(at)...)
	dirs := map[string]string{}
	for _, r := range repos {
		dirs[r.ns] = r.dir
	}
	edges = append(edges, api.serviceEdges(at, func(s site) []byte { return readSource(dirs[s.ns], s.file) })...)
	if len(edges) == 0 {
		return nil, nil, nil
	}
	slices.SortFunc(edges, func(a, b CrossEdge) int {
		return strings.Compare(a.SourceNode+"\x00"+a.TargetNode+"\x00"+a.Relation+"\x00"+a.Evidence, b.SourceNode+"\x00"+b.TargetNode+"\x00"+b.Relation+"\x00"+b.Evidence)
	})
	edges = compact(edges)
	var g *graph.Graph
	c.Session.Plasticity.Locked(func() { g = old.Graph.Clone() })
	for _, e := range edges {
		if err := g.AddEdgeByID(e.SourceNode, e.TargetNode, graph.Edge{Relation: e.Relation, Weight: e.Weight, CausalStrength: e.CausalStrength}); err != nil {
			return nil, nil, err
		}
	}
	g.Finalize()
	return g, edges, nil
}

// maxEvidence bounds the routes or services one edge names.
const maxEvidence = 4

// compact keeps one edge per source, target and relation (edges sorted),
// naming every route or service that made it: "grpc a.A; grpc a.B".
func compact(edges []CrossEdge) []CrossEdge {
	var out []CrossEdge
	n := 0 // evidences of the last edge kept
	for _, e := range edges {
		last := len(out) - 1
		if last < 0 || out[last].SourceNode != e.SourceNode || out[last].TargetNode != e.TargetNode || out[last].Relation != e.Relation {
			out, n = append(out, e), 1
			continue
		}
		if e.Evidence != "" && !slices.Contains(strings.Split(out[last].Evidence, "; "), e.Evidence) && n < maxEvidence {
			out[last].Evidence += "; " + e.Evidence
			n++
		}
	}
	return out
}

// scanRepos reads every repository's sources once: the imports of
// another repository's packages become edges, the routes, requests and
// services are collected for the api_contract edges.
func scanRepos(c *tools.Call, repos []repo) ([]CrossEdge, *contracts, error) {
	provides := map[string]*provider{}
	for _, r := range repos {
		provides[r.ns] = r.provider()
	}
	var edges []CrossEdge
	api := &contracts{}
	scanned := 0
	for _, r := range repos {
		for _, f := range r.files {
			if err := c.Ctx.Err(); err != nil {
				return nil, nil, err
			}
			if scanned == maxScannedFiles {
				break
			}
			src := readSource(r.dir, f)
			if src == nil {
				continue
			}
			scanned++
			api.add(r.ns, f, src)
			imports := importsOf(f, src)
			for _, other := range repos {
				if other.ns == r.ns {
					continue
				}
				for _, target := range provides[other.ns].resolve(f, imports) {
					edges = append(edges, CrossEdge{SourceRepo: r.ns, TargetRepo: other.ns, SourceNode: fileID(r.ns, f), TargetNode: fileID(other.ns, target), EdgeType: "package_dep", Relation: "imports", Weight: 1, CausalStrength: 0.8})
				}
			}
		}
	}
	return edges, api, nil
}

// federated lists the graph's namespaced code roots with their files, in
// namespace order.
func federated(b *session.Bundle) []repo {
	var repos []repo
	at := map[string]int{}
	for _, r := range b.Roots {
		if r.Adapter == "code" && r.Namespace != "" {
			at[r.Namespace] = len(repos)
			repos = append(repos, repo{ns: r.Namespace, dir: r.Path})
		}
	}
	g := b.Graph
	for n := range g.NumNodes() {
		ns, rest, ok := strings.Cut(g.ExternalID(nodeID(n)), "::file::")
		if i, known := at[ns]; ok && known && !strings.Contains(rest, "::") {
			repos[i].files = append(repos[i].files, rest)
		}
	}
	for i := range repos {
		slices.Sort(repos[i].files)
	}
	slices.SortFunc(repos, func(a, b repo) int { return strings.Compare(a.ns, b.ns) })
	return repos
}

// provider reads what r offers to importers: its Go modules, npm
// packages and top-level Python modules.
func (r repo) provider() *provider {
	p := &provider{npm: map[string]string{}, python: map[string]string{}, byDir: map[string][]string{}, has: map[string]bool{}}
	for _, f := range r.files {
		p.has[f] = true
		dir, base := path.Dir(f), path.Base(f)
		switch {
		case base == "go.mod":
			if mod := modulePath(filepath.Join(r.dir, filepath.FromSlash(f))); mod != "" {
				p.goModules = append(p.goModules, goModule{mod, dir})
			}
		case base == "package.json" && !strings.Contains(f, "node_modules/"):
			if name, entry := npmPackage(r, f); name != "" && entry != "" {
				p.npm[name] = entry
			}
		case strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go"):
			p.byDir[dir] = append(p.byDir[dir], f)
		case base == "__init__.py":
			// A package at the top (pkg/__init__.py) or under src/.
			if top := strings.TrimPrefix(dir, "src/"); !strings.Contains(top, "/") && top != "." && top != "tests" {
				p.python[top] = dir
			}
		}
	}
	return p
}

// resolve returns the files of p that the imports of file f (in another
// repository) name.
func (p *provider) resolve(f string, imports []string) []string {
	var out []string
	for _, imp := range imports {
		switch ext := path.Ext(f); ext {
		case ".go":
			for _, m := range p.goModules {
				if imp == m.path || strings.HasPrefix(imp, m.path+"/") {
					dir := path.Clean(path.Join(m.dir, strings.TrimPrefix(imp, m.path)))
					files := p.byDir[dir]
					out = append(out, files[:min(len(files), maxTargetsPerLink)]...)
				}
			}
		case ".py":
			top, sub, _ := strings.Cut(imp, ".")
			if dir, ok := p.python[top]; ok {
				out = append(out, p.pythonTarget(dir, sub))
			}
		default:
			for name, entry := range p.npm {
				if imp == name || strings.HasPrefix(imp, name+"/") {
					out = append(out, entry)
				}
			}
		}
	}
	return out
}

// pythonTarget is the file a Python import of pkg.sub names: the module
// (sub.py or sub/__init__.py) when the repository has it, else the
// package's __init__.py.
func (p *provider) pythonTarget(dir, sub string) string {
	if sub != "" {
		mod := dir + "/" + strings.ReplaceAll(sub, ".", "/")
		for _, f := range []string{mod + ".py", mod + "/__init__.py"} {
			if p.has[f] {
				return f
			}
		}
	}
	return dir + "/__init__.py"
}

var (
	moduleLine = regexp.MustCompile(`(?m)^module\s+"?([^\s"]+)"?`)
	jsImport   = regexp.MustCompile(`(?:from\s+|import\s*\(?\s*|require\(\s*)['"]([^'"]+)['"]`)
	pyImport   = regexp.MustCompile(`(?m)^\s*(?:from\s+([A-Za-z_][\w.]*)\s+import|import\s+([A-Za-z_][\w.]*))`)
)

// sourceExts are the files federate reads: the languages whose imports,
// routes and requests it links, and .proto files.
var sourceExts = []string{".go", ".py", ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".proto"}

// readSource reads a repository file federate links (nil: another kind
// of file, or unreadable).
func readSource(dir, rel string) []byte {
	if !slices.Contains(sourceExts, path.Ext(rel)) {
		return nil
	}
	src, err := readBounded(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return nil
	}
	return src
}

// importsOf reads a source file's imports (nil: none, or not a language
// whose imports federate links).
func importsOf(file string, src []byte) []string {
	ext := path.Ext(file)
	var out []string
	switch ext {
	case ".go":
		f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.ImportsOnly)
		if err != nil {
			return nil
		}
		for _, is := range f.Imports {
			out = append(out, strings.Trim(is.Path.Value, "\"`"))
		}
	case ".py":
		for _, m := range pyImport.FindAllStringSubmatch(string(src), -1) {
			out = append(out, m[1]+m[2])
		}
	default:
		for _, m := range jsImport.FindAllStringSubmatch(string(src), -1) {
			if !strings.HasPrefix(m[1], ".") {
				out = append(out, m[1])
			}
		}
	}
	return out
}

func readBounded(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(bufio.NewReader(f), maxScannedBytes))
}

func modulePath(gomod string) string {
	src, err := readBounded(gomod)
	if err != nil {
		return ""
	}
	if m := moduleLine.FindSubmatch(src); m != nil {
		return string(m[1])
	}
	return ""
}

// npmPackage reads a package.json's name and its entry file among r's
// files (main, module, else index.js/ts at the package's top or in src/).
func npmPackage(r repo, manifest string) (name, entry string) {
	src, err := readBounded(filepath.Join(r.dir, filepath.FromSlash(manifest)))
	if err != nil {
		return "", ""
	}
	var pkg struct {
		Name   string `json:"name"`
		Main   string `json:"main"`
		Module string `json:"module"`
	}
	if json.Unmarshal(src, &pkg) != nil || pkg.Name == "" {
		return "", ""
	}
	dir := path.Dir(manifest)
	for _, cand := range []string{pkg.Module, pkg.Main, "index.js", "index.ts", "src/index.js", "src/index.ts"} {
		if cand == "" {
			continue
		}
		f := path.Clean(path.Join(dir, cand))
		if _, ok := slices.BinarySearch(r.files, f); ok {
			return pkg.Name, f
		}
	}
	return pkg.Name, ""
}

// manifestEdges links a repository's package node that depends on
// another repository's package (an external package node of the same
// name) to that package's own node: depends_on.
func manifestEdges(g *graph.Graph, repos []repo) []CrossEdge {
	var out []CrossEdge
	for _, r := range repos {
		prefix := r.ns + "::package::"
		for n := range g.NumNodes() {
			id := nodeID(n)
			own, ok := strings.CutPrefix(g.ExternalID(id), prefix)
			if !ok {
				continue
			}
			ext, ok := g.Lookup("package::" + own)
			if !ok {
				continue
			}
			lo, hi := g.InRange(ext)
			for pos := lo; pos < hi; pos++ {
				src := g.InSource(pos)
				srcID := g.ExternalID(src)
				srcNS, _, _ := strings.Cut(srcID, "::")
				if srcNS != r.ns && g.RelationName(g.InEdge(pos)) == "depends_on" {
					out = append(out, CrossEdge{SourceRepo: srcNS, TargetRepo: r.ns, SourceNode: srcID, TargetNode: g.ExternalID(id), EdgeType: "package_dep", Relation: "depends_on", Weight: 1, CausalStrength: 0.6})
				}
			}
		}
	}
	return out
}

func fileID(ns, rel string) string { return ns + "::file::" + rel }

func nodeID(n int) graph.NodeID { return graph.NodeID(n) }

// namespaceOf is the namespace part of an external id ("" without one).
func namespaceOf(ext string) string {
	ns, _, ok := strings.Cut(ext, "::")
	if !ok {
		return ""
	}
	return ns
}
