package query

import (
	"bufio"
	"bytes"
	"encoding/json"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/stacktrace"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// installedIndex knows the package names the ingested project publishes
// under: Go module paths (go.mod) and npm package names (package.json),
// each with the graph directory it lives in. A stack frame from an
// installed copy of the project (the Go module cache, node_modules,
// site-packages) maps back to the ingested file through it.
type installedIndex struct {
	goModules map[string]string     // module path → graph directory ("" at the top)
	npm       map[string]npmPackage // package name → where and how it is built
	crates    map[string]string     // Cargo package name → graph directory
}

var installedIndexKey = session.NewKey[*installedIndex]("trace.installed")

// installedConfidence is a frame's match confidence when it maps through
// an installed copy: the package path is the project's, the version may
// differ from the checkout.
const installedConfidence = 0.9

// manifestLimit bounds how much of a manifest is read.
const manifestLimit = 1 << 20

func installedIndexOf(b *session.Bundle) *installedIndex {
	v, _ := session.Derive(b, installedIndexKey, func(g *graph.Graph) (*installedIndex, error) {
		x := &installedIndex{goModules: map[string]string{}, npm: map[string]npmPackage{}, crates: map[string]string{}}
		// Manifests are not always graph nodes (go.mod has no language):
		// look beside the graph's files, on disk, once per graph.
		for _, dir := range manifestDirs(g) {
			if mod := goModulePath(readManifest(b, path.Join(dir, "go.mod"))); mod != "" {
				x.goModules[mod] = dir
			}
			if name, pkg, ok := readNpmPackage(readManifest(b, path.Join(dir, "package.json")), dir); ok {
				x.npm[name] = pkg
			}
			if name := cargoPackageName(readManifest(b, path.Join(dir, "Cargo.toml"))); name != "" {
				x.crates[name] = dir
			}
		}
		return x, nil
	})
	return v
}

// manifestDirs are the graph directories holding files, outside installed
// and vendored trees, sorted.
func manifestDirs(g *graph.Graph) []string {
	seen := map[string]bool{}
	for i := range g.NumNodes() {
		if g.Type(graph.NodeID(i)) != graph.File {
			continue
		}
		p := g.SourcePath(graph.NodeID(i))
		if p == "" || stacktrace.IsExternalPath(p) {
			continue
		}
		seen[graphDir(p)] = true
	}
	dirs := make([]string, 0, len(seen))
	for d := range seen {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	return dirs
}

// readManifest reads a graph path through the path guard (nil when
// absent or refused).
func readManifest(b *session.Bundle, p string) []byte {
	res, _, _, err := tools.BundleSpace(b).Resolve(tools.BundleGuard(b), p)
	if err != nil || !res.Exists {
		return nil
	}
	data, _, err := tools.ReadGuarded(res, "path")
	if err != nil || len(data) > manifestLimit {
		return nil
	}
	return data
}

func graphDir(p string) string {
	if d := path.Dir(p); d != "." {
		return d
	}
	return ""
}

// goModulePath is the module line of a go.mod.
func goModulePath(src []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// cargoPackageName is the name of a Cargo.toml's [package] section.
func cargoPackageName(src []byte) string {
	in := false
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		t := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(t, "[") {
			in = t == "[package]"
			continue
		}
		if k, v, ok := strings.Cut(t, "="); in && ok && strings.TrimSpace(k) == "name" {
			return strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return ""
}

// cargoCrate splits a Cargo registry directory name, "walkdir-2.5.0",
// into the crate's name and true (a version starts with a digit).
func cargoCrate(dir string) (string, bool) {
	i := strings.LastIndex(dir, "-")
	for i > 0 && (i+1 >= len(dir) || dir[i+1] < '0' || dir[i+1] > '9') {
		i = strings.LastIndex(dir[:i], "-")
	}
	if i <= 0 {
		return "", false
	}
	return dir[:i], true
}

// installedCandidates turns a frame path inside an installed package into
// the graph paths the project's own copy of it would have, most specific
// first. A Go module cache path (.../pkg/mod/github.com/gin-gonic/gin@v1.9.1/tree.go)
// and a node_modules path need the project's published name; a
// site-packages path is matched by its import path (flask/app.py) as a
// suffix of the graph's files, an installed gem's or composer package's
// path by the path inside the package.
func (x *installedIndex) installedCandidates(p string) (exact []string, suffix string) {
	p = strings.ReplaceAll(p, "\\", "/")
	if _, rest, ok := strings.Cut(p, "/pkg/mod/"); ok {
		mod, rel, ok := strings.Cut(rest, "@")
		if _, rel, ok2 := strings.Cut(rel, "/"); ok && ok2 {
			// Subdirectories of a module are packages of the same module.
			mod = unescapeModule(mod)
			if dir, ok := x.goModules[mod]; ok {
				exact = append(exact, path.Join(dir, rel))
			}
		}
		return exact, ""
	}
	if _, rest, ok := strings.Cut(p, "/.cargo/registry/src/"); ok {
		// .../registry/src/<index>/walkdir-2.5.0/src/lib.rs: the crate's
		// files as its package directory holds them.
		if segs := strings.SplitN(rest, "/", 3); len(segs) == 3 {
			if name, ok := cargoCrate(segs[1]); ok {
				if dir, ok := x.crates[name]; ok {
					exact = append(exact, path.Join(dir, segs[2]))
				}
			}
		}
		return exact, ""
	}
	if i := strings.LastIndex(p, "node_modules/"); i >= 0 {
		rest := p[i+len("node_modules/"):]
		segs := strings.SplitN(rest, "/", 3)
		name, rel := segs[0], strings.Join(segs[1:], "/")
		if strings.HasPrefix(name, "@") && len(segs) == 3 {
			name, rel = segs[0]+"/"+segs[1], segs[2]
		}
		if pkg, ok := x.npm[name]; ok && rel != "" {
			exact = npmSources(pkg, rel)
		}
		return exact, ""
	}
	if i := strings.LastIndex(p, "/gems/"); i >= 0 {
		// An installed gem (.../gems/rack-3.1.8/lib/rack/utils.rb, or a
		// bundler git checkout .../bundler/gems/rack-1a2b3c/...) holds
		// the files as its repository does, under its name-version.
		if _, rel, ok := strings.Cut(p[i+len("/gems/"):], "/"); ok && strings.Contains(rel, "/") {
			return nil, rel
		}
		return nil, ""
	}
	if i := strings.LastIndex(p, "/vendor/"); i >= 0 && strings.HasSuffix(p, ".php") {
		// A composer package (vendor/guzzlehttp/psr7/src/Uri.php) holds
		// the files as its repository does, under vendor/name/package.
		if segs := strings.SplitN(p[i+len("/vendor/"):], "/", 3); len(segs) == 3 && strings.Contains(segs[2], "/") {
			return nil, segs[2]
		}
		return nil, ""
	}
	for _, m := range []string{"/site-packages/", "/dist-packages/"} {
		if i := strings.LastIndex(p, m); i >= 0 {
			rel := p[i+len(m):]
			// A package (flask/app.py), not a lone module a project of
			// any name could hold.
			if strings.Contains(rel, "/") {
				return nil, rel
			}
		}
	}
	return nil, ""
}

// npmSources are the checkout paths an installed npm file may be built
// from, likeliest first: the same path, then without the build directory
// (dist/, lib/, esm/, cjs/, build/, or the one the package.json's entry
// points name, as ky's distribution/) and under src/ or source/, each as
// written and with a compiled .js (.mjs, .cjs) read as its TypeScript
// source — zod's node_modules/zod/v4/classic/parse.js is
// packages/zod/src/v4/classic/parse.ts.
func npmSources(pkg npmPackage, rel string) []string {
	rels := []string{rel}
	if first, rest, ok := strings.Cut(rel, "/"); ok && (npmBuildDirs[first] || pkg.build[first]) {
		rels = append(rels, rest)
	}
	var out []string
	for _, r := range rels {
		for _, base := range []string{path.Join(pkg.dir, r), path.Join(pkg.dir, "src", r), path.Join(pkg.dir, "source", r)} {
			out = append(out, base)
			if ext := path.Ext(base); npmCompiled[ext] != nil {
				for _, to := range npmCompiled[ext] {
					out = append(out, strings.TrimSuffix(base, ext)+to)
				}
			}
		}
	}
	return out
}

// npmPackage is a package.json of the project: its graph directory and
// the top directories its entry points (main, module, types, exports)
// lie in, which hold built files.
type npmPackage struct {
	dir   string
	build map[string]bool
}

// readNpmPackage reads a package.json's name and entry points.
func readNpmPackage(src []byte, dir string) (string, npmPackage, bool) {
	var pj struct {
		Name    string          `json:"name"`
		Main    string          `json:"main"`
		Module  string          `json:"module"`
		Types   string          `json:"types"`
		Exports json.RawMessage `json:"exports"`
	}
	if src == nil || json.Unmarshal(src, &pj) != nil || pj.Name == "" {
		return "", npmPackage{}, false
	}
	pkg := npmPackage{dir: dir, build: map[string]bool{}}
	entries := []string{pj.Main, pj.Module, pj.Types}
	var exports any
	if json.Unmarshal(pj.Exports, &exports) == nil {
		entries = appendJSONStrings(entries, exports)
	}
	for _, e := range entries {
		if first, _, ok := strings.Cut(strings.TrimPrefix(e, "./"), "/"); ok && first != "" && first != ".." {
			pkg.build[first] = true
		}
	}
	return pj.Name, pkg, true
}

// appendJSONStrings appends every string value inside v (an exports map
// nests conditions).
func appendJSONStrings(out []string, v any) []string {
	switch v := v.(type) {
	case string:
		out = append(out, v)
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out = appendJSONStrings(out, v[k])
		}
	case []any:
		for _, e := range v {
			out = appendJSONStrings(out, e)
		}
	}
	return out
}

var (
	npmBuildDirs = map[string]bool{"dist": true, "lib": true, "esm": true, "cjs": true, "build": true, "out": true}
	npmCompiled  = map[string][]string{".js": {".ts", ".tsx"}, ".mjs": {".mts", ".ts"}, ".cjs": {".cts", ".ts"}}
)

// unescapeModule undoes the module cache's case encoding ("!b" is "B").
func unescapeModule(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '!' && i+1 < len(s) {
			i++
			sb.WriteString(strings.ToUpper(s[i : i+1]))
			continue
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// installedFile maps a frame from an installed copy of the project to the
// ingested file: an exact graph path from the package's manifest, else
// the one file whose path ends with the frame's import path (several:
// the shortest path, ties by path).
func (m *traceMapper) installedFile(p string) (graph.NodeID, bool) {
	exact, suffix := installedIndexOf(m.b).installedCandidates(p)
	for _, gp := range exact {
		if id, ok := m.g.Lookup(m.rs.FileID(gp)); ok {
			return id, true
		}
	}
	if suffix == "" {
		return graph.NoNode, false
	}
	var found []string
	byPath := map[string]graph.NodeID{}
	for _, id := range m.x.byBase[strings.ToLower(path.Base(suffix))] {
		gp := m.g.SourcePath(id)
		if (gp == suffix || strings.HasSuffix(gp, "/"+suffix)) && !strings.Contains(gp, "site-packages/") {
			found = append(found, gp)
			byPath[gp] = id
		}
	}
	if len(found) == 0 {
		return graph.NoNode, false
	}
	sort.Slice(found, func(i, j int) bool {
		return len(found[i]) < len(found[j]) || len(found[i]) == len(found[j]) && found[i] < found[j]
	})
	return byPath[found[0]], true
}

// installedEntity refines the entity of a frame from an installed copy:
// the installed version's lines may not be the checkout's, so the one
// entity of the file named like the frame's function wins over the
// entity at the line.
func installedEntity(g *graph.Graph, p string, f stacktrace.Frame, atLine graph.NodeID, note string) (graph.NodeID, string) {
	const installed = "an installed copy of the project, mapped by package path"
	const byName = installed + "; matched by function name (the installed version's lines differ from the checkout's)"
	if atLine != graph.NoNode && g.Label(atLine) == f.Function && f.Line > 0 && !holdsLine(g, atLine, f.Line) {
		return atLine, byName
	}
	if f.Function == "" || strings.HasPrefix(f.Function, "<") || atLine != graph.NoNode && g.Label(atLine) == f.Function {
		return atLine, installed
	}
	named := graph.NoNode
	for _, n := range g.NodesByPath(p) {
		if isCodeEntity(g.Type(n)) && g.Label(n) == f.Function {
			if named != graph.NoNode {
				return atLine, strings.TrimPrefix(note+"; "+installed, "; ")
			}
			named = n
		}
	}
	if named == graph.NoNode {
		return atLine, strings.TrimPrefix(note+"; "+installed, "; ")
	}
	return named, byName
}

// holdsLine reports whether line lies in n's line range.
func holdsLine(g *graph.Graph, n graph.NodeID, line int) bool {
	pv := g.Provenance(n)
	return int(pv.LineStart) <= line && line <= int(max(pv.LineEnd, pv.LineStart))
}
