// Package workspace recognises the package structure of a repository from
// its manifests: Go modules and go.work, Cargo crates and workspaces,
// package.json packages and workspaces, Python distributions (pyproject.toml)
// and import packages (directories with __init__.py). Ingest turns what it
// finds into package nodes with contains and depends_on edges, and the
// resolver uses it to map import paths to directories.
package workspace

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// Ecosystems.
const (
	Go    = "go"
	Cargo = "cargo"
	Npm   = "npm"
	// Python is the ecosystem of import packages: directories with
	// __init__.py.
	Python = "python"
	// PyPI is the ecosystem of distributions: pyproject.toml projects and
	// their requirements.
	PyPI = "pypi"
)

// Package is one package of the repository, or (External) a dependency
// declared by one.
type Package struct {
	Ecosystem string
	// Name: Go module path, crate name, npm package name, Python
	// distribution or top-level import package name.
	Name    string
	Version string
	// Dir is the root-relative directory ("" for the root); empty for
	// external packages.
	Dir string
	// Manifest is the root-relative path of the manifest ("" for Python
	// import packages and external packages).
	Manifest string
	Deps     []Dep
	External bool
	// ID is the graph external ID: "package::{ecosystem}::{name}", with
	// "@{dir}" appended when two packages of the repository share a name.
	ID string
	// Entries maps an npm package's subpaths ("." and "./sub") to the
	// root-relative files its package.json names for them — "exports"
	// targets with source conditions first, then "source", "module",
	// "main", "types" for "." — in the order a resolver should try them.
	Entries map[string][]string
}

// Dep is a declared dependency.
type Dep struct {
	Name string
	// Path is the root-relative directory of a local (path) dependency.
	Path string
	// Kind is "" (normal), "dev", "build", "peer" or "optional".
	Kind string
}

// Workspace groups packages (a Cargo [workspace], go.work, package.json
// "workspaces", pnpm-workspace.yaml).
type Workspace struct {
	Ecosystem string
	Dir       string
	Manifest  string
	// Members are the root-relative directories of member packages.
	Members []string
	// ID is "workspace::{ecosystem}::{dir}" ("." for the root).
	ID string
}

// Info is the package structure of a repository.
type Info struct {
	Packages   []*Package // in-repo first (by Dir, Ecosystem), then external
	Workspaces []*Workspace
	// Problems lists manifests that could not be read, with the reason; the
	// rest of the structure is still usable.
	Problems []string
	// TSConfigs are the tsconfig.json / jsconfig.json files that alias
	// module names (tsconfig.go), by directory.
	TSConfigs []*TSConfig

	root string // where Detect read the files (extends chains)

	byDir   map[string][]*Package
	goMods  []*Package // sorted by module path length, longest first
	npmName map[string]*Package
	crates  map[string]*Package
}

// manifestReaders are the manifests Detect reads, by file name, with what
// adds each to the Info.
var manifestReaders = map[string]func(in *Info, f, dir string, data []byte){
	"go.mod":              (*Info).addGoMod,
	"go.work":             (*Info).addGoWork,
	"Cargo.toml":          (*Info).addCargo,
	"package.json":        (*Info).addNpm,
	"pnpm-workspace.yaml": (*Info).addPnpm,
	"pyproject.toml":      (*Info).addPyproject,
	"tsconfig.json":       (*Info).addTSConfig,
	"jsconfig.json":       (*Info).addTSConfig,
}

// Detect reads the manifests among files (root-relative paths, forward
// slashes) under root. Manifests inside testdata directories are fixtures,
// not packages, and are ignored.
func Detect(root string, files []string) *Info {
	in := &Info{root: root, byDir: map[string][]*Package{}, npmName: map[string]*Package{}, crates: map[string]*Package{}}
	inits := map[string]bool{}
	for _, f := range files {
		if isFixture(f) {
			continue
		}
		dir, base := splitPath(f)
		if base == "__init__.py" {
			inits[dir] = true
			continue
		}
		add, ok := manifestReaders[base]
		if !ok {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			in.Problems = append(in.Problems, fmt.Sprintf("%s: %v", f, err))
			continue
		}
		add(in, f, dir, data)
	}
	// Top-level import packages: __init__.py directories whose parent is
	// not a package.
	var tops []string
	for d := range inits {
		if parent, _ := splitPath(d); d != "" && !inits[parent] {
			tops = append(tops, d)
		}
	}
	slices.Sort(tops)
	for _, d := range tops {
		_, name := splitPath(d)
		in.add(&Package{Ecosystem: Python, Name: name, Dir: d})
	}
	in.finish()
	return in
}

func isFixture(f string) bool {
	return strings.HasPrefix(f, "testdata/") || strings.Contains(f, "/testdata/")
}

func splitPath(p string) (dir, base string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", p
	}
	return p[:i], p[i+1:]
}

func (in *Info) add(p *Package) { in.Packages = append(in.Packages, p) }

// --- Go -------------------------------------------------------------------

// goModLines yields the directives of a go.mod/go.work file with block
// forms ("require ( ... )") flattened to "require x v".
func goModLines(data []byte) [][]string {
	var out [][]string
	block := ""
	for _, line := range strings.Split(string(data), "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if block != "" {
			if f[0] == ")" {
				block = ""
				continue
			}
			out = append(out, append([]string{block}, f...))
			continue
		}
		if len(f) == 2 && f[1] == "(" {
			block = f[0]
			continue
		}
		out = append(out, f)
	}
	return out
}

func unquote(s string) string { return strings.Trim(s, "\"`") }

func (in *Info) addGoMod(f, dir string, data []byte) {
	p := &Package{Ecosystem: Go, Dir: dir, Manifest: f}
	local := map[string]string{} // module path → replacement dir
	for _, d := range goModLines(data) {
		switch {
		case d[0] == "module" && len(d) >= 2:
			p.Name = unquote(d[1])
		case d[0] == "require" && len(d) >= 2:
			p.Deps = append(p.Deps, Dep{Name: unquote(d[1])})
		case d[0] == "replace":
			// replace old [v] => new [v]; only local directories matter here.
			if i := slices.Index(d, "=>"); i > 1 && i+1 < len(d) {
				target := unquote(d[i+1])
				if strings.HasPrefix(target, "./") || strings.HasPrefix(target, "../") {
					local[unquote(d[1])] = cleanJoin(dir, target)
				}
			}
		}
	}
	if p.Name == "" {
		in.Problems = append(in.Problems, f+": no module directive")
		return
	}
	for i := range p.Deps {
		p.Deps[i].Path = local[p.Deps[i].Name]
	}
	in.add(p)
}

func (in *Info) addGoWork(f, dir string, data []byte) {
	w := &Workspace{Ecosystem: Go, Dir: dir, Manifest: f}
	for _, d := range goModLines(data) {
		if d[0] == "use" && len(d) >= 2 {
			w.Members = append(w.Members, cleanJoin(dir, unquote(d[1])))
		}
	}
	in.Workspaces = append(in.Workspaces, w)
}

// cleanJoin joins a root-relative dir and a relative path; "" is the root.
func cleanJoin(dir, rel string) string {
	p := path.Clean(path.Join("/", dir, rel))
	return strings.TrimPrefix(p, "/")
}

// --- Cargo ----------------------------------------------------------------

type cargoManifest struct {
	Package *struct {
		Name    string `toml:"name"`
		Version any    `toml:"version"`
	} `toml:"package"`
	Workspace *struct {
		Members      []string       `toml:"members"`
		Exclude      []string       `toml:"exclude"`
		Dependencies map[string]any `toml:"dependencies"`
	} `toml:"workspace"`
	Dependencies      map[string]any `toml:"dependencies"`
	DevDependencies   map[string]any `toml:"dev-dependencies"`
	BuildDependencies map[string]any `toml:"build-dependencies"`
}

func (in *Info) addCargo(f, dir string, data []byte) {
	var m cargoManifest
	if _, err := toml.Decode(string(data), &m); err != nil {
		in.Problems = append(in.Problems, fmt.Sprintf("%s: %v", f, err))
		return
	}
	if m.Workspace != nil {
		w := &Workspace{Ecosystem: Cargo, Dir: dir, Manifest: f}
		for _, mem := range m.Workspace.Members {
			w.Members = append(w.Members, cleanJoin(dir, mem)) // globs expanded in finish
		}
		in.Workspaces = append(in.Workspaces, w)
	}
	if m.Package == nil || m.Package.Name == "" {
		return // a virtual workspace manifest
	}
	p := &Package{Ecosystem: Cargo, Name: m.Package.Name, Dir: dir, Manifest: f}
	if v, ok := m.Package.Version.(string); ok {
		p.Version = v
	}
	for _, set := range []struct {
		deps map[string]any
		kind string
	}{{m.Dependencies, ""}, {m.DevDependencies, "dev"}, {m.BuildDependencies, "build"}} {
		for _, name := range sortedKeys(set.deps) {
			d := Dep{Name: name, Kind: set.kind}
			if t, ok := set.deps[name].(map[string]any); ok {
				if pk, ok := t["package"].(string); ok {
					d.Name = pk // renamed dependency
				}
				if pp, ok := t["path"].(string); ok {
					d.Path = cleanJoin(dir, pp)
				}
			}
			p.Deps = append(p.Deps, d)
		}
	}
	in.add(p)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// --- npm ------------------------------------------------------------------

type npmManifest struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Dependencies         map[string]string `json:"dependencies"`
	DevDependencies      map[string]string `json:"devDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	Workspaces           json.RawMessage   `json:"workspaces"`
	Main                 string            `json:"main"`
	Module               string            `json:"module"`
	Source               string            `json:"source"`
	Types                string            `json:"types"`
	Typings              string            `json:"typings"`
	Exports              json.RawMessage   `json:"exports"`
}

// npmEntries maps subpaths to entry files: "exports" (a string, a
// conditions object, or a map of "./subpath" to either) and, for ".", the
// legacy fields. Condition order puts what points at sources first —
// custom conditions such as "@zod/source" or "source", then "import",
// "module", "default", "require", "types" — since a repository holds the
// sources, not the build.
func npmEntries(m *npmManifest, dir string) map[string][]string {
	out := map[string][]string{}
	add := func(sub, target string) {
		if target == "" || strings.Contains(target, "*") {
			return
		}
		t := cleanJoin(dir, target)
		if !slices.Contains(out[sub], t) {
			out[sub] = append(out[sub], t)
		}
	}
	var exp any
	if len(m.Exports) > 0 && json.Unmarshal(m.Exports, &exp) == nil {
		switch v := exp.(type) {
		case string:
			add(".", v)
		case map[string]any:
			subpaths := false
			for k := range v {
				if strings.HasPrefix(k, ".") {
					subpaths = true
				}
			}
			if !subpaths {
				v = map[string]any{".": v}
			}
			for _, k := range sortedKeys(v) {
				if strings.HasPrefix(k, ".") {
					for _, t := range conditionTargets(v[k], 0) {
						add(k, t)
					}
				}
			}
		}
	}
	for _, t := range []string{m.Source, m.Module, m.Main, m.Types, m.Typings} {
		add(".", t)
	}
	return out
}

// conditionTargets flattens an exports value (a path, a conditions object
// or an array of fallbacks) into paths, source-like conditions first.
func conditionTargets(v any, depth int) []string {
	if depth > 8 {
		return nil
	}
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			out = append(out, conditionTargets(x, depth+1)...)
		}
		return out
	case map[string]any:
		rank := func(c string) int {
			switch c {
			case "import":
				return 1
			case "module":
				return 2
			case "default":
				return 3
			case "node":
				return 4
			case "require":
				return 5
			case "types", "typings":
				return 6
			}
			if strings.Contains(c, "source") || strings.HasPrefix(c, "@") || c == "development" {
				return 0
			}
			return 4
		}
		keys := sortedKeys(t)
		slices.SortStableFunc(keys, func(a, b string) int { return rank(a) - rank(b) })
		var out []string
		for _, k := range keys {
			out = append(out, conditionTargets(t[k], depth+1)...)
		}
		return out
	}
	return nil
}

func (in *Info) addNpm(f, dir string, data []byte) {
	var m npmManifest
	if err := json.Unmarshal(data, &m); err != nil {
		in.Problems = append(in.Problems, fmt.Sprintf("%s: %v", f, err))
		return
	}
	if len(m.Workspaces) > 0 {
		var globs []string
		if json.Unmarshal(m.Workspaces, &globs) != nil {
			var obj struct {
				Packages []string `json:"packages"`
			}
			if json.Unmarshal(m.Workspaces, &obj) == nil {
				globs = obj.Packages
			}
		}
		if len(globs) > 0 {
			w := &Workspace{Ecosystem: Npm, Dir: dir, Manifest: f}
			for _, g := range globs {
				w.Members = append(w.Members, cleanJoin(dir, g))
			}
			in.Workspaces = append(in.Workspaces, w)
		}
	}
	if m.Name == "" {
		return // a private workspace root without a name
	}
	p := &Package{Ecosystem: Npm, Name: m.Name, Version: m.Version, Dir: dir, Manifest: f, Entries: npmEntries(&m, dir)}
	for _, set := range []struct {
		deps map[string]string
		kind string
	}{{m.Dependencies, ""}, {m.DevDependencies, "dev"}, {m.PeerDependencies, "peer"}, {m.OptionalDependencies, "optional"}} {
		for _, name := range sortedKeys(set.deps) {
			d := Dep{Name: name, Kind: set.kind}
			spec := set.deps[name]
			if rest, ok := strings.CutPrefix(spec, "file:"); ok {
				d.Path = cleanJoin(dir, rest)
			}
			p.Deps = append(p.Deps, d)
		}
	}
	in.add(p)
}

// addPnpm reads the "packages:" list of pnpm-workspace.yaml — a flat list of
// globs, simple enough not to need a YAML parser.
func (in *Info) addPnpm(f, dir string, data []byte) {
	w := &Workspace{Ecosystem: Npm, Dir: dir, Manifest: f}
	inList := false
	for _, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "#") || t == "" {
			continue
		}
		if !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "-") {
			inList = strings.HasPrefix(t, "packages:")
			continue
		}
		if inList && strings.HasPrefix(t, "-") {
			g := strings.Trim(strings.TrimSpace(t[1:]), "'\"")
			if g != "" && !strings.HasPrefix(g, "!") {
				w.Members = append(w.Members, cleanJoin(dir, g))
			}
		}
	}
	if len(w.Members) > 0 {
		in.Workspaces = append(in.Workspaces, w)
	}
}

// --- Python ---------------------------------------------------------------

type pyproject struct {
	Project *struct {
		Name                 string              `toml:"name"`
		Version              string              `toml:"version"`
		Dependencies         []string            `toml:"dependencies"`
		OptionalDependencies map[string][]string `toml:"optional-dependencies"`
	} `toml:"project"`
	Tool struct {
		Poetry *struct {
			Name            string         `toml:"name"`
			Version         string         `toml:"version"`
			Dependencies    map[string]any `toml:"dependencies"`
			DevDependencies map[string]any `toml:"dev-dependencies"`
		} `toml:"poetry"`
	} `toml:"tool"`
}

func (in *Info) addPyproject(f, dir string, data []byte) {
	var m pyproject
	if _, err := toml.Decode(string(data), &m); err != nil {
		in.Problems = append(in.Problems, fmt.Sprintf("%s: %v", f, err))
		return
	}
	p := &Package{Ecosystem: PyPI, Dir: dir, Manifest: f}
	if m.Project != nil {
		p.Name, p.Version = m.Project.Name, m.Project.Version
		for _, req := range m.Project.Dependencies {
			if n := pep508Name(req); n != "" {
				p.Deps = append(p.Deps, Dep{Name: n})
			}
		}
		for _, extra := range sortedKeys(m.Project.OptionalDependencies) {
			for _, req := range m.Project.OptionalDependencies[extra] {
				if n := pep508Name(req); n != "" {
					p.Deps = append(p.Deps, Dep{Name: n, Kind: "optional"})
				}
			}
		}
	}
	if po := m.Tool.Poetry; po != nil {
		if p.Name == "" {
			p.Name, p.Version = po.Name, po.Version
		}
		for _, set := range []struct {
			deps map[string]any
			kind string
		}{{po.Dependencies, ""}, {po.DevDependencies, "dev"}} {
			for _, name := range sortedKeys(set.deps) {
				if strings.EqualFold(name, "python") {
					continue
				}
				d := Dep{Name: name, Kind: set.kind}
				if t, ok := set.deps[name].(map[string]any); ok {
					if pp, ok := t["path"].(string); ok {
						d.Path = cleanJoin(dir, pp)
					}
				}
				p.Deps = append(p.Deps, d)
			}
		}
	}
	if p.Name == "" {
		return // a tool-configuration-only pyproject
	}
	in.add(p)
}

// pep508Name extracts the distribution name of a requirement such as
// "requests[socks]>=2.0; python_version>'3.8'".
func pep508Name(req string) string {
	req = strings.TrimSpace(req)
	end := strings.IndexFunc(req, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	})
	if end >= 0 {
		req = req[:end]
	}
	return req
}

// --- assembly ---------------------------------------------------------------

// ecoOrder ranks ecosystems when several manifests share a directory.
var ecoOrder = map[string]int{Cargo: 0, Go: 1, Npm: 2, PyPI: 3, Python: 4}

func (in *Info) finish() {
	slices.SortStableFunc(in.Packages, func(a, b *Package) int {
		if c := strings.Compare(a.Dir, b.Dir); c != 0 {
			return c
		}
		return ecoOrder[a.Ecosystem] - ecoOrder[b.Ecosystem]
	})
	// IDs: a name shared by two packages of one ecosystem gets its dir.
	count := map[string]int{}
	for _, p := range in.Packages {
		count[p.Ecosystem+"\x00"+p.Name]++
	}
	for _, p := range in.Packages {
		p.ID = "package::" + p.Ecosystem + "::" + p.Name
		if count[p.Ecosystem+"\x00"+p.Name] > 1 {
			p.ID += "@" + dirName(p.Dir)
		}
		in.byDir[p.Dir] = append(in.byDir[p.Dir], p)
		switch p.Ecosystem {
		case Go:
			in.goMods = append(in.goMods, p)
		case Npm:
			if in.npmName[p.Name] == nil {
				in.npmName[p.Name] = p
			}
		case Cargo:
			n := strings.ReplaceAll(p.Name, "-", "_")
			if in.crates[n] == nil {
				in.crates[n] = p
			}
		}
	}
	slices.SortStableFunc(in.goMods, func(a, b *Package) int { return len(b.Name) - len(a.Name) })

	// Expand member globs against the package directories found.
	for _, w := range in.Workspaces {
		w.ID = "workspace::" + w.Ecosystem + "::" + dirName(w.Dir)
		var members []string
		for _, m := range w.Members {
			for _, p := range in.Packages {
				if ecoCompatible(w.Ecosystem, p.Ecosystem) && (p.Dir == m || globDir(m, p.Dir)) {
					members = append(members, p.Dir)
				}
			}
		}
		slices.Sort(members)
		w.Members = slices.Compact(members)
	}
	slices.SortFunc(in.Workspaces, func(a, b *Workspace) int { return strings.Compare(a.ID, b.ID) })

	// External dependencies: one node per distinct (ecosystem, name) that no
	// package of the repository provides.
	ext := map[string]*Package{}
	for _, p := range in.Packages {
		for _, d := range p.Deps {
			if in.Local(p.Ecosystem, d) != nil {
				continue
			}
			key := p.Ecosystem + "\x00" + d.Name
			if ext[key] == nil {
				ext[key] = &Package{Ecosystem: p.Ecosystem, Name: d.Name, External: true, ID: "package::" + p.Ecosystem + "::" + d.Name}
			}
		}
	}
	for _, k := range sortedKeys(ext) {
		in.Packages = append(in.Packages, ext[k])
	}
}

func ecoCompatible(ws, pkg string) bool { return ws == pkg }

func globDir(pattern, dir string) bool {
	if !strings.ContainsAny(pattern, "*?[") {
		return false
	}
	if strings.HasSuffix(pattern, "/**") {
		prefix := strings.TrimSuffix(pattern, "/**")
		return strings.HasPrefix(dir, prefix+"/")
	}
	ok, err := path.Match(pattern, dir)
	return err == nil && ok
}

func dirName(d string) string {
	if d == "" {
		return "."
	}
	return d
}

// Local returns the in-repo package a dependency of an ecosystem names: by
// path for local path dependencies, else by name.
func (in *Info) Local(eco string, d Dep) *Package {
	if d.Path != "" || eco == Go {
		for _, p := range in.byDir[d.Path] {
			if p.Ecosystem == eco && (d.Path != "" || p.Name == d.Name) {
				return p
			}
		}
	}
	for _, p := range in.Packages {
		if p.Ecosystem == eco && !p.External && p.Name == d.Name {
			return p
		}
	}
	return nil
}

// langEcosystems maps a language to the ecosystems whose packages may own
// its files; other files (docs, configuration) belong to any package.
var langEcosystems = map[string][]string{
	"go":         {Go},
	"rust":       {Cargo},
	"javascript": {Npm},
	"typescript": {Npm},
	"python":     {Python, PyPI},
}

// Owner returns the package that owns a root-relative file of a language:
// the nearest enclosing package of the language's ecosystem (a Go module
// does not own the Python scripts next to it), or of any ecosystem for
// files of other languages. It returns nil when none encloses it.
func (in *Info) Owner(file, lang string) *Package {
	dir, _ := splitPath(file)
	return in.OwnerOfDir(dir, langEcosystems[lang]...)
}

// OwnerOfDir returns the package of one of ecos (any when none is given)
// whose directory is dir or most closely encloses it, or nil.
func (in *Info) OwnerOfDir(dir string, ecos ...string) *Package {
	for {
		for _, p := range in.byDir[dir] {
			if len(ecos) == 0 || slices.Contains(ecos, p.Ecosystem) {
				return p
			}
		}
		if dir == "" {
			return nil
		}
		dir, _ = splitPath(dir)
	}
}

// GoModule maps a Go import path to the root-relative directory of its
// package when a module of the repository provides it. The standard
// library's own modules ("std", "cmd") have import paths without a module
// prefix. known is false when no go.mod was found at all, so callers cannot
// tell external from local.
func (in *Info) GoModule(importPath string) (dir string, ok, known bool) {
	if len(in.goMods) == 0 {
		return "", false, false
	}
	for _, m := range in.goMods {
		switch {
		case importPath == m.Name:
			return m.Dir, true, true
		case strings.HasPrefix(importPath, m.Name+"/"):
			return cleanJoin(m.Dir, importPath[len(m.Name)+1:]), true, true
		}
	}
	first, _, _ := strings.Cut(importPath, "/")
	if !strings.Contains(first, ".") {
		for _, m := range in.goMods {
			if m.Name == "std" {
				return cleanJoin(m.Dir, importPath), true, true
			}
		}
	}
	return "", false, true
}

// NpmPackage returns the in-repo package.json package named name.
func (in *Info) NpmPackage(name string) *Package { return in.npmName[name] }

// Crate returns the in-repo crate named name (dashes and underscores are
// the same, as in Rust paths).
func (in *Info) Crate(name string) *Package {
	return in.crates[strings.ReplaceAll(name, "-", "_")]
}

// HasGo reports whether any go.mod was found.
func (in *Info) HasGo() bool { return len(in.goMods) > 0 }

// SameLayout reports whether a and b lay out the repository's own packages
// alike: the same in-repo packages (ecosystem, name, directory, manifest,
// ID, entry points), workspaces (members included) and module aliases
// (tsconfig paths), in the same order.
// That is everything resolution and file ownership read of the structure;
// two such Infos may still differ in versions, declared dependencies and
// so the external packages.
func SameLayout(a, b *Info) bool {
	if a == nil || b == nil {
		return a == b
	}
	la, lb := a.local(), b.local()
	return slices.EqualFunc(la, lb, samePackage) && slices.EqualFunc(a.Workspaces, b.Workspaces, sameWorkspace) &&
		slices.EqualFunc(a.TSConfigs, b.TSConfigs, sameTSConfig)
}

// local lists the in-repo packages (they come before the external ones).
func (in *Info) local() []*Package {
	n := 0
	for n < len(in.Packages) && !in.Packages[n].External {
		n++
	}
	return in.Packages[:n]
}

func samePackage(p, q *Package) bool {
	if p.Ecosystem != q.Ecosystem || p.Name != q.Name || p.Dir != q.Dir || p.Manifest != q.Manifest || p.ID != q.ID ||
		len(p.Entries) != len(q.Entries) {
		return false
	}
	for k, v := range p.Entries {
		if w, ok := q.Entries[k]; !ok || !slices.Equal(v, w) {
			return false
		}
	}
	return true
}

func sameTSConfig(c, d *TSConfig) bool {
	return c.Dir == d.Dir && c.BaseURL == d.BaseURL && c.HasBase == d.HasBase &&
		slices.EqualFunc(c.Paths, d.Paths, func(p, q TSPath) bool { return p.Pattern == q.Pattern && slices.Equal(p.Targets, q.Targets) })
}

func sameWorkspace(v, w *Workspace) bool {
	return v.Ecosystem == w.Ecosystem && v.Dir == w.Dir && v.Manifest == w.Manifest && v.ID == w.ID &&
		slices.Equal(v.Members, w.Members)
}
