package deptruth

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// DefaultGOOS are the systems the Go truth is the union over: files behind
// build constraints for one of them (terminal_windows.go) are analysed too.
var DefaultGOOS = []string{"linux", "darwin", "windows"}

// GoTruth loads every module of the repository at root (each tracked
// go.mod outside testdata and vendor) with go/packages, tests included,
// once per GOOS, and records file A → file B for every identifier of A
// whose object (TypesInfo.Uses) is declared in B. The target repository is
// never written: GOWORK=off, GOFLAGS=-mod=mod with -modfile pointing at a
// copy of go.mod/go.sum in a temp directory, GOTOOLCHAIN=local. Module
// dependencies are downloaded through the configured proxy.
func GoTruth(ctx context.Context, root string, tracked []string, o Options) (*Truth, error) {
	g, err := newGoRepo(root, tracked, o)
	if err != nil {
		return nil, err
	}
	if len(g.mods) == 0 {
		return nil, fmt.Errorf("%s: no go.mod tracked", g.root)
	}
	goos, rel := g.goos, g.rel
	deps := map[string]map[string]bool{}
	loaded := map[string]bool{}
	stats := map[string]any{"modules": len(g.mods)}
	var notes []string
	pkgCount, errCount, uses := 0, 0, 0
	mode := packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
		packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo
	err = g.load(ctx, mode, "go/packages", func(mod, sys string, pkgs []*packages.Package, err error) error {
		if err != nil {
			notes = append(notes, fmt.Sprintf("module %s GOOS=%s: %v", mod, sys, err))
			return nil
		}
		for _, p := range pkgs {
			pkgCount++
			for _, e := range p.Errors {
				errCount++
				if errCount <= 5 {
					notes = append(notes, fmt.Sprintf("GOOS=%s %s: %s", sys, p.ID, e.Msg))
				}
			}
			for _, f := range p.GoFiles {
				if r, ok := rel(f); ok {
					loaded[r] = true
				}
			}
			if p.TypesInfo == nil {
				continue
			}
			for id, obj := range p.TypesInfo.Uses {
				if obj == nil || obj.Pkg() == nil || !obj.Pos().IsValid() {
					continue // universe scope: int, len, error, nil…
				}
				a, ok := rel(p.Fset.Position(id.Pos()).Filename)
				if !ok {
					continue
				}
				b, ok := rel(p.Fset.Position(obj.Pos()).Filename)
				if !ok || a == b {
					continue
				}
				uses++
				if deps[a] == nil {
					deps[a] = map[string]bool{}
				}
				deps[a][b] = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var files []string
	skipped := map[string]string{}
	for _, f := range langFiles(Go, tracked) {
		if loaded[f] {
			files = append(files, f)
		} else {
			skipped[f] = "in no package loaded for GOOS " + strings.Join(goos, ", ") + " (testdata, build constraints, ignored or nested directory)"
		}
	}
	edges := map[string][]string{}
	for a, bs := range deps {
		for b := range bs {
			edges[a] = append(edges[a], b)
		}
	}
	t := NewTruth(Go, files, edges)
	if len(skipped) > 0 {
		t.Skipped = skipped
	}
	stats["packages"] = pkgCount
	stats["package_errors"] = errCount
	stats["cross_file_uses"] = uses
	stats["goos"] = strings.Join(goos, ",")
	t.Stats = stats
	sort.Strings(notes)
	t.Notes = notes
	return t, nil
}

// goRepo is what both Go truths (GoTruth, GoCallTruth) need of a
// repository: its root with symlinks resolved, its modules (each tracked
// go.mod outside the directories the go command skips), the GOOS values
// to load for, and rel, the tracked root-relative name of an absolute
// path.
type goRepo struct {
	root string
	mods []string
	goos []string
	rel  func(abs string) (string, bool)
	logf func(string, ...any)
}

func newGoRepo(root string, tracked []string, o Options) (*goRepo, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	g := &goRepo{root: root, goos: o.GOOS, logf: o.logf}
	if len(g.goos) == 0 {
		g.goos = DefaultGOOS
	}
	isTracked := map[string]bool{}
	for _, f := range tracked {
		isTracked[f] = true
		if path.Base(f) == "go.mod" && !skippedGoDir(path.Dir(f)) {
			g.mods = append(g.mods, path.Dir(f))
		}
	}
	g.rel = func(abs string) (string, bool) {
		r, err := filepath.Rel(root, abs)
		if err != nil || strings.HasPrefix(r, "..") {
			return "", false
		}
		r = filepath.ToSlash(r)
		return r, isTracked[r]
	}
	return g, nil
}

// load runs go/packages with mode (tests included) over every module for
// every GOOS and hands visit each load's packages or its error; an error
// visit returns stops the loads. The repository is never written: each
// load resolves modules in a temp copy of the module's go.mod and go.sum
// (see goEnv).
func (g *goRepo) load(ctx context.Context, mode packages.LoadMode, what string, visit func(mod, goos string, pkgs []*packages.Package, err error) error) error {
	for _, mod := range g.mods {
		dir := filepath.Join(g.root, filepath.FromSlash(mod))
		tmp, err := modFileCopy(dir)
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		for _, sys := range g.goos {
			g.logf("%s: module %s, GOOS=%s", what, mod, sys)
			pkgs, err := packages.Load(&packages.Config{Context: ctx, Mode: mode, Dir: dir, Tests: true, Env: goEnv(tmp, sys)}, "./...")
			if err := visit(mod, sys, pkgs, err); err != nil {
				return err
			}
		}
	}
	return nil
}

// modFileCopy copies dir's go.mod and go.sum (when there is one) into a
// new temp directory, which the caller removes.
func modFileCopy(dir string) (string, error) {
	tmp, err := os.MkdirTemp("", "deptruth-gomod-*")
	if err != nil {
		return "", err
	}
	for _, name := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			if name == "go.sum" && os.IsNotExist(err) {
				continue
			}
			os.RemoveAll(tmp)
			return "", err
		}
		if err := os.WriteFile(filepath.Join(tmp, name), b, 0o644); err != nil {
			os.RemoveAll(tmp)
			return "", err
		}
	}
	return tmp, nil
}

// skippedGoDir: directories the go command ignores.
func skippedGoDir(dir string) bool {
	for _, seg := range strings.Split(dir, "/") {
		if seg == "testdata" || seg == "vendor" || strings.HasPrefix(seg, "_") || (strings.HasPrefix(seg, ".") && seg != ".") {
			return true
		}
	}
	return false
}

// goEnv is the environment of a go/packages load: the caller's, with the
// workspace off, modules resolved (and go.sum completed) in modDir's copy
// of go.mod, and no toolchain switch.
func goEnv(modDir, goos string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOWORK", "GOFLAGS", "GOOS", "GOARCH", "GOTOOLCHAIN":
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"GOWORK=off",
		"GOFLAGS=-mod=mod -modfile="+filepath.Join(modDir, "go.mod"),
		"GOOS="+goos,
		"GOARCH=amd64",
		"GOTOOLCHAIN=local",
	)
}
