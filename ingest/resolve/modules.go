package resolve

import (
	"path"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/ingest/workspace"
)

// module maps an import path, as the language of the importing file writes
// it, to locations in the repository. known is false when the path cannot
// be interpreted (the hint is then ignored); known with no locations means
// the module is outside the repository.
func (ix *Index) module(from fileInfo, mod string) (locs []location, known bool) {
	switch from.lang {
	case "python":
		return ix.pythonModule(from, mod), true
	case "javascript", "typescript", "tsx", "jsx", "vue", "svelte":
		return ix.jsModule(from, mod)
	case "go":
		return ix.goModule(mod), true
	case "java", "kotlin", "scala", "groovy":
		return ix.jvmModule(mod), true
	case "rust":
		return ix.rustModule(from, mod), true
	case "c", "cpp", "objc", "cuda":
		return ix.includeModule(from, mod), true
	case "ruby":
		return ix.rubyModule(from, mod), true
	case "php":
		return ix.phpModule(mod), true
	case "csharp", "fsharp", "vb":
		// Namespaces do not map to paths.
		return nil, false
	}
	locs = ix.genericModule(from, mod)
	return locs, len(locs) > 0
}

func (ix *Index) isFile(p string) bool { _, ok := ix.fileIdx[p]; return ok }

// --- Python -----------------------------------------------------------------

func (ix *Index) pythonModule(from fileInfo, mod string) []location {
	if strings.HasPrefix(mod, ".") {
		dots := len(mod) - len(strings.TrimLeft(mod, "."))
		base := from.dir
		for i := 1; i < dots; i++ {
			if base == "" {
				return nil // above the root: not ours
			}
			base, _ = split(base)
		}
		rest := strings.ReplaceAll(mod[dots:], ".", "/")
		return ix.pyPath(joinDir(base, rest), pyStubFirst(from))
	}
	files := ix.pyMods[mod]
	if len(files) == 0 {
		return nil
	}
	// Several files answer the module name (src layouts, vendored copies,
	// same-named modules in sibling projects). Prefer those whose import
	// root is an ancestor of the importing file, nearest first.
	depth := len(strings.Split(mod, "."))
	var best []location
	bestRoot := -1
	for _, f := range files {
		l := pyLocation(f)
		d := l.file
		if l.dir != "" {
			d = l.dir
		}
		segs := strings.Split(strings.TrimSuffix(strings.TrimSuffix(d, ".pyi"), ".py"), "/")
		root := strings.Join(segs[:max(len(segs)-depth, 0)], "/")
		if root != "" && (ix.isFile(root+"/__init__.py") || ix.isFile(root+"/__init__.pyi")) {
			// pkg/json.py is "pkg.json": inside a package it is never
			// the top-level "json" (that one is the standard library's).
			continue
		}
		r := -1
		if root == "" || from.dir == root || strings.HasPrefix(from.dir+"/", root+"/") {
			r = strings.Count(root, "/") + 1
			if root == "" {
				r = 0
			}
		}
		switch {
		case r > bestRoot:
			best, bestRoot = []location{l}, r
		case r == bestRoot:
			best = append(best, l)
		}
	}
	return pickStubOrSource(best, pyStubFirst(from))
}

// pyStubFirst: a stub (.pyi) imports what type checkers read, other stubs;
// a module imports what Python runs, sources.
func pyStubFirst(from fileInfo) bool { return strings.HasSuffix(from.path, ".pyi") }

// pickStubOrSource keeps, of a module found both as x.py and x.pyi (or
// pkg/__init__.py and .pyi), the one the importer reads.
func pickStubOrSource(locs []location, stub bool) []location {
	if len(locs) < 2 {
		return locs
	}
	want := ".py"
	if stub {
		want = ".pyi"
	}
	byStem := map[string]int{}
	var out []location
	for _, l := range locs {
		stem := strings.TrimSuffix(strings.TrimSuffix(l.file, ".pyi"), ".py")
		if i, ok := byStem[stem]; ok && l.file != "" {
			if strings.HasSuffix(l.file, want) {
				out[i] = l
			}
			continue
		}
		byStem[stem] = len(out)
		out = append(out, l)
	}
	return out
}

// pyPath locates a module path without extension: a module file or a
// package directory.
func (ix *Index) pyPath(p string, stubFirst bool) []location {
	exts := []string{".py", ".pyi"}
	if stubFirst {
		exts = []string{".pyi", ".py"}
	}
	var out []location
	for _, ext := range exts {
		if p != "" && ix.isFile(p+ext) {
			out = append(out, location{file: p + ext})
			break
		}
	}
	for _, ext := range exts {
		if init := joinDir(p, "__init__"+ext); ix.isFile(init) {
			out = append(out, location{file: init, dir: p, tree: true})
			break
		}
	}
	if len(out) == 0 && ix.dirs[p] && p != "" {
		out = append(out, location{dir: p, tree: true}) // namespace package
	}
	return out
}

// ownPackage reports whether every location is the __init__.py(i) of a
// package the importer belongs to: its own directory or an ancestor,
// with a package (an __init__) at every level between. Python imports
// those packages before the importer, so importing them runs nothing.
func (ix *Index) ownPackage(from fileInfo, locs []location) bool {
	if len(locs) == 0 {
		return false
	}
	for _, l := range locs {
		if l.file == "" || !l.tree || !ix.packageChain(from.dir, l.dir) {
			return false
		}
	}
	return true
}

// packageChain reports whether dir is pkg or below it with an __init__
// in every directory from dir up to pkg.
func (ix *Index) packageChain(dir, pkg string) bool {
	for {
		if !ix.isFile(joinDir(dir, "__init__.py")) && !ix.isFile(joinDir(dir, "__init__.pyi")) {
			return false
		}
		if dir == pkg {
			return true
		}
		if dir == "" || dir == "." {
			return false
		}
		dir, _ = split(dir)
	}
}

func pyLocation(f string) location {
	if dir, base := split(f); strings.HasPrefix(base, "__init__.") {
		return location{file: f, dir: dir, tree: true}
	}
	return location{file: f}
}

// --- JavaScript / TypeScript --------------------------------------------------

var jsExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".vue", ".svelte", ".json"}

func (ix *Index) jsModule(from fileInfo, mod string) ([]location, bool) {
	switch {
	case strings.HasPrefix(mod, "./") || strings.HasPrefix(mod, "../") || mod == "." || mod == "..":
		p := path.Clean(path.Join(from.dir, mod))
		if strings.HasPrefix(p, "../") || p == ".." {
			return nil, true
		}
		if p == "." {
			p = ""
		}
		l := ix.jsProbe(p)
		if len(l) > 0 && l[0].file != p && strings.HasPrefix(l[0].file, joinDir(p, "index.")) {
			l[0].dir, l[0].tree = path.Dir(l[0].file), true // "./lib" is lib/index.*, which re-exports lib
		}
		return l, true
	}
	// A tsconfig "paths" alias wins over packages, as in tsc.
	if l, ok := ix.jsAlias(from, mod, false); ok {
		return l, true
	}
	if strings.HasPrefix(mod, "@/") || strings.HasPrefix(mod, "~/") || strings.HasPrefix(mod, "#") {
		return nil, false // an alias of no config read here (a bundler's, package "imports")
	}
	name, rest := mod, ""
	if strings.HasPrefix(mod, "@") {
		if i := strings.IndexByte(mod, '/'); i > 0 {
			if j := strings.IndexByte(mod[i+1:], '/'); j >= 0 {
				name, rest = mod[:i+1+j], mod[i+2+j:]
			}
		}
	} else if i := strings.IndexByte(mod, '/'); i >= 0 {
		name, rest = mod[:i], mod[i+1:]
	}
	pkg := ix.ws.NpmPackage(name)
	if pkg == nil {
		if l, ok := ix.jsAlias(from, mod, true); ok {
			return l, true // under the config's baseUrl
		}
		return nil, true // node_modules or a builtin
	}
	sub := "."
	if rest != "" {
		sub = "./" + rest
	}
	if l := ix.jsEntry(pkg.Entries[sub]); len(l) > 0 {
		// An entry re-exports from the files below it (export * from …).
		dir := pkg.Dir
		if rest != "" {
			dir = path.Dir(l[0].file)
		}
		return []location{{file: l[0].file, dir: dir, tree: true}}, true
	}
	if rest != "" {
		for _, base := range []string{joinDir(pkg.Dir, rest), joinDir(pkg.Dir, "src/"+rest)} {
			if l := ix.jsProbe(base); len(l) > 0 {
				if _, b := split(l[0].file); strings.HasPrefix(b, "index.") {
					l[0].dir, l[0].tree = path.Dir(l[0].file), true // a directory's index re-exports it
				}
				return l, true
			}
		}
		// A subpath the package does not have is not the package itself.
		return nil, true
	}
	locs := []location{{dir: pkg.Dir, tree: true}}
	for _, base := range []string{joinDir(pkg.Dir, "index"), joinDir(pkg.Dir, "src/index")} {
		if l := ix.jsProbe(base); len(l) > 0 {
			locs[0].file = l[0].file
			break
		}
	}
	return locs, true
}

// jsAlias resolves mod through the tsconfig nearest the importer: its
// "paths" targets, and with base its baseUrl too (workspace.TSAlias).
func (ix *Index) jsAlias(from fileInfo, mod string, base bool) ([]location, bool) {
	for _, p := range ix.ws.TSAlias(from.dir, mod, base) {
		if strings.HasPrefix(p, "../") {
			continue
		}
		if l := ix.jsProbe(p); len(l) > 0 {
			if l[0].file != p && strings.HasPrefix(l[0].file, joinDir(p, "index.")) {
				l[0].dir, l[0].tree = path.Dir(l[0].file), true // a directory's index re-exports it
			}
			return l, true
		}
	}
	return nil, false
}

// jsEntry locates the first package.json entry that exists in the tree: the
// file itself (or its source: a .js naming a .ts), or — entries usually
// name the build — the same path under src/ instead of dist/, lib/,
// build/, esm/ or cjs/.
func (ix *Index) jsEntry(targets []string) []location {
	for _, t := range targets {
		if strings.HasSuffix(t, ".d.ts") || strings.HasSuffix(t, ".d.cts") || strings.HasSuffix(t, ".d.mts") {
			t = t[:strings.LastIndex(t, ".d.")]
		}
		if l := ix.jsProbe(t); len(l) > 0 {
			return l
		}
	}
	for _, t := range targets {
		dir, _ := split(t)
		for d := dir; d != ""; d, _ = split(d) {
			parent, b := split(d)
			switch b {
			case "dist", "lib", "build", "esm", "cjs", "out":
				src := joinDir(joinDir(parent, "src"), strings.TrimPrefix(t, d+"/"))
				if i := strings.LastIndex(src, ".d."); i > 0 {
					src = src[:i]
				}
				if l := ix.jsProbe(src); len(l) > 0 {
					return l
				}
			}
		}
	}
	return nil
}

// jsProbe resolves a path the way bundlers do: the file itself, with an
// extension, a .js specifier naming a .ts source, or an index file.
func (ix *Index) jsProbe(p string) []location {
	if p != "" && ix.isFile(p) {
		return []location{{file: p}}
	}
	stem := p
	for _, e := range []string{".js", ".jsx", ".mjs", ".cjs"} {
		if strings.HasSuffix(p, e) {
			stem = strings.TrimSuffix(p, e)
			break
		}
	}
	for _, base := range []string{stem, joinDir(p, "index")} {
		if base == "" {
			continue
		}
		for _, e := range jsExts {
			if ix.isFile(base + e) {
				return []location{{file: base + e}}
			}
		}
	}
	return nil
}

// --- Go -----------------------------------------------------------------------

func (ix *Index) goModule(ipath string) []location {
	if dir, ok, known := ix.ws.GoModule(ipath); known {
		if ok && ix.dirs[dir] {
			return []location{{dir: dir}}
		}
		return nil
	}
	// No go.mod anywhere: a GOPATH-style tree, where the import path is a
	// directory path below some src/ root.
	if ix.dirs[ipath] {
		return []location{{dir: ipath}}
	}
	var out []location
	_, base := split(ipath)
	for _, d := range ix.dirBase[base] {
		if strings.HasSuffix(d, "/"+ipath) {
			out = append(out, location{dir: d})
		}
	}
	return out
}

// --- JVM --------------------------------------------------------------------

var jvmExts = []string{".java", ".kt", ".scala", ".groovy"}

// jvmModule maps a package or class name: "com.acme.Repo" is a file
// .../com/acme/Repo.java, "com.acme" a package directory .../com/acme.
func (ix *Index) jvmModule(mod string) []location {
	mod = strings.TrimSuffix(strings.TrimSuffix(mod, ".*"), ".")
	p := strings.ReplaceAll(mod, ".", "/")
	var out []location
	for _, e := range jvmExts {
		for _, f := range ix.suffixFiles(p + e) {
			out = append(out, location{file: f})
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, d := range ix.suffixDirs(p) {
		out = append(out, location{dir: d})
	}
	return out
}

// --- Rust -------------------------------------------------------------------

var rustExternal = map[string]bool{"std": true, "core": true, "alloc": true, "proc_macro": true, "test": true}

func (ix *Index) rustModule(from fileInfo, mod string) []location {
	segs := strings.Split(mod, "::")
	if len(segs) > 0 && segs[0] == "" { // "::name" (2015 edition global path)
		segs = segs[1:]
	}
	if len(segs) == 0 {
		return nil
	}
	var dir string
	switch segs[0] {
	case "crate":
		dir = ix.crateSrc(from.dir)
		segs = segs[1:]
	case "self", "super":
		dir = rustModDir(from.path)
		for len(segs) > 0 && (segs[0] == "self" || segs[0] == "super") {
			if segs[0] == "super" {
				dir, _ = split(dir)
			}
			segs = segs[1:]
		}
	default:
		if rustExternal[segs[0]] {
			return nil
		}
		if child := joinDir(rustModDir(from.path), segs[0]); ix.isFile(child+".rs") || ix.isFile(joinDir(child, "mod.rs")) {
			// `mod arg; pub use arg::Arg;`: since the 2018 edition a path
			// may start with a child module, without self::.
			dir = rustModDir(from.path)
			break
		}
		c := ix.ws.Crate(segs[0])
		if c == nil {
			return nil
		}
		dir = c.Dir
		if ix.dirs[joinDir(dir, "src")] {
			dir = joinDir(dir, "src")
		}
		segs = segs[1:]
	}
	// Trailing segments may be items rather than modules: try the longest
	// module path first.
	for k := len(segs); k >= 0; k-- {
		p := joinDir(dir, strings.Join(segs[:k], "/"))
		if k == 0 {
			for _, root := range []string{"lib.rs", "main.rs", "mod.rs"} {
				if f := joinDir(p, root); ix.isFile(f) {
					return []location{{file: f, dir: p, tree: true}}
				}
			}
			if ix.dirs[p] {
				return []location{{dir: p, tree: true}}
			}
			return nil
		}
		if ix.isFile(p + ".rs") {
			return []location{{file: p + ".rs", dir: p, tree: true}}
		}
		if f := joinDir(p, "mod.rs"); ix.isFile(f) {
			return []location{{file: f, dir: p, tree: true}}
		}
	}
	return nil
}

// crateSrc returns the source directory of the crate enclosing dir.
func (ix *Index) crateSrc(dir string) string {
	for d := dir; ; d, _ = split(d) {
		for _, p := range ix.ws.Packages {
			if p.Ecosystem == workspace.Cargo && !p.External && p.Dir == d {
				if ix.dirs[joinDir(d, "src")] {
					return joinDir(d, "src")
				}
				return d
			}
		}
		if d == "" {
			break
		}
	}
	// No Cargo.toml: assume the nearest src/ above.
	for d := dir; d != ""; d, _ = split(d) {
		if _, b := split(d); b == "src" {
			return d
		}
	}
	return dir
}

// rustModDir is the directory holding a module's children: the file's
// directory for mod.rs/lib.rs/main.rs, else dir/stem.
func rustModDir(file string) string {
	dir, base := split(file)
	switch base {
	case "mod.rs", "lib.rs", "main.rs":
		return dir
	}
	return joinDir(dir, strings.TrimSuffix(base, ".rs"))
}

// --- C / C++, Ruby, PHP, others ------------------------------------------------

func (ix *Index) includeModule(from fileInfo, mod string) []location {
	mod = strings.Trim(mod, "<>\"")
	if p := path.Clean(path.Join(from.dir, mod)); ix.isFile(p) {
		return []location{{file: p}}
	}
	var out []location
	for _, f := range ix.suffixFiles(mod) {
		out = append(out, location{file: f})
	}
	return out
}

func (ix *Index) rubyModule(from fileInfo, mod string) []location {
	if !strings.HasSuffix(mod, ".rb") {
		mod += ".rb"
	}
	if strings.HasPrefix(mod, "./") || strings.HasPrefix(mod, "../") {
		if p := path.Clean(path.Join(from.dir, mod)); ix.isFile(p) {
			return []location{{file: p}}
		}
		return nil
	}
	if p := path.Clean(path.Join(from.dir, mod)); ix.isFile(p) { // require_relative without ./
		return []location{{file: p}}
	}
	var out []location
	for _, f := range ix.suffixFiles(mod) {
		if onRubyLoadPath(f, mod) {
			out = append(out, location{file: f})
		}
	}
	return out
}

// onRubyLoadPath reports whether Ruby's require of mod can load the file
// f: require searches the load path, which holds the project's root and
// its lib, spec and test directories, so the path must be mod below one of
// them. A deeper file whose name merely ends like it is not what Ruby
// loads: rack-protection's `require 'logger'` is the standard library,
// not sinatra's lib/sinatra/middleware/logger.rb.
func onRubyLoadPath(f, mod string) bool {
	prefix := strings.TrimSuffix(f, mod)
	if prefix == "" {
		return true
	}
	switch path.Base(strings.TrimSuffix(prefix, "/")) {
	case "lib", "spec", "test":
		return true
	}
	return false
}

// phpModule maps a namespaced class to a PSR-4 style path, allowing the
// vendor prefix ("App\") to be mapped to any directory.
func (ix *Index) phpModule(mod string) []location {
	segs := strings.Split(strings.Trim(mod, "\\"), "\\")
	for start := 0; start < len(segs) && (start == 0 || len(segs)-start >= 2); start++ {
		var out []location
		for _, f := range ix.suffixFiles(strings.Join(segs[start:], "/") + ".php") {
			out = append(out, location{file: f})
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// genericModule treats the module as a path with the importing file's
// extension (Lua "a.b", shell "source lib/x.sh", ...).
func (ix *Index) genericModule(from fileInfo, mod string) []location {
	p := strings.NewReplacer("::", "/", "\\", "/").Replace(strings.Trim(mod, "\"'<>"))
	ext := path.Ext(from.path)
	tries := []string{p}
	if !strings.Contains(p, "/") && strings.Contains(p, ".") && path.Ext(p) != ext {
		tries = append(tries, strings.ReplaceAll(p, ".", "/"))
	}
	for _, t := range tries {
		for _, cand := range []string{path.Clean(path.Join(from.dir, t)), path.Clean(path.Join(from.dir, t)) + ext} {
			if ix.isFile(cand) {
				return []location{{file: cand}}
			}
		}
		var out []location
		for _, f := range ix.suffixFiles(t) {
			out = append(out, location{file: f})
		}
		if ext != "" && !strings.HasSuffix(t, ext) {
			for _, f := range ix.suffixFiles(t + ext) {
				out = append(out, location{file: f})
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// suffixFiles lists the files whose path is p or ends with "/"+p.
func (ix *Index) suffixFiles(p string) []string { return withSuffix(ix.byBase, p) }

// suffixDirs lists the directories whose path is p or ends with "/"+p.
func (ix *Index) suffixDirs(p string) []string { return withSuffix(ix.dirBase, p) }

// withSuffix lists, sorted, the paths of byBase (base name → paths) that
// are p or end with "/"+p.
func withSuffix(byBase map[string][]string, p string) []string {
	_, base := split(p)
	var out []string
	for _, f := range byBase[base] {
		if f == p || strings.HasSuffix(f, "/"+p) {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}

func joinDir(dir, rest string) string {
	switch {
	case dir == "":
		return rest
	case rest == "":
		return dir
	}
	return dir + "/" + rest
}
