package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func detect(t *testing.T, files map[string]string) *Info {
	t.Helper()
	dir := t.TempDir()
	var list []string
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		list = append(list, p)
	}
	slices.Sort(list)
	return Detect(dir, list)
}

type pkgView struct {
	ID, Dir, Version string
	Deps             []Dep
	External         bool
}

func view(in *Info) []pkgView {
	var out []pkgView
	for _, p := range in.Packages {
		out = append(out, pkgView{p.ID, p.Dir, p.Version, p.Deps, p.External})
	}
	return out
}

func TestCargoWorkspace(t *testing.T) {
	in := detect(t, map[string]string{
		"Cargo.toml":             "[workspace]\nmembers = [\"crates/*\"]\n",
		"crates/core/Cargo.toml": "[package]\nname = \"m-core\"\nversion = \"0.1.0\"\n[dependencies]\nserde = \"1\"\n",
		"crates/cli/Cargo.toml":  "[package]\nname = \"m-cli\"\nversion.workspace = true\n[dependencies]\nm-core = { path = \"../core\" }\nclap = { version = \"4\" }\n[dev-dependencies]\ntempfile = \"3\"\n",
		"crates/cli/src/main.rs": "fn main() {}\n",
		"testdata/Cargo.toml":    "[package]\nname = \"fixture\"\n",
	})
	want := []pkgView{
		{ID: "package::cargo::m-cli", Dir: "crates/cli", Deps: []Dep{{Name: "clap"}, {Name: "m-core", Path: "crates/core"}, {Name: "tempfile", Kind: "dev"}}},
		{ID: "package::cargo::m-core", Dir: "crates/core", Version: "0.1.0", Deps: []Dep{{Name: "serde"}}},
		{ID: "package::cargo::clap", External: true},
		{ID: "package::cargo::serde", External: true},
		{ID: "package::cargo::tempfile", External: true},
	}
	if diff := cmp.Diff(want, view(in)); diff != "" {
		t.Errorf("packages (-want +got):\n%s", diff)
	}
	if len(in.Workspaces) != 1 || in.Workspaces[0].ID != "workspace::cargo::." ||
		!slices.Equal(in.Workspaces[0].Members, []string{"crates/cli", "crates/core"}) {
		t.Errorf("workspaces: %+v", in.Workspaces[0])
	}
	if p := in.Owner("crates/cli/src/main.rs", "rust"); p == nil || p.Name != "m-cli" {
		t.Errorf("Owner = %+v", p)
	}
	if c := in.Crate("m_core"); c == nil || c.Dir != "crates/core" {
		t.Errorf("Crate(m_core) = %+v", c)
	}
}

func TestGoModules(t *testing.T) {
	in := detect(t, map[string]string{
		"go.work":    "go 1.22\n\nuse (\n\t./api\n\t./server // main\n)\n",
		"api/go.mod": "module example.com/api\n\ngo 1.22\n",
		"server/go.mod": "module example.com/server\n\nrequire (\n\texample.com/api v0.0.0\n\tgithub.com/lib/pq v1.10.0 // indirect\n)\n\n" +
			"replace example.com/api => ../api\n",
		"broken/go.mod": "go 1.22\n",
	})
	if len(in.Problems) != 1 || !strings.Contains(in.Problems[0], "broken/go.mod") {
		t.Errorf("problems: %v", in.Problems)
	}
	want := []pkgView{
		{ID: "package::go::example.com/api", Dir: "api"},
		{ID: "package::go::example.com/server", Dir: "server", Deps: []Dep{{Name: "example.com/api", Path: "api"}, {Name: "github.com/lib/pq"}}},
		{ID: "package::go::github.com/lib/pq", External: true},
	}
	if diff := cmp.Diff(want, view(in)); diff != "" {
		t.Errorf("packages (-want +got):\n%s", diff)
	}
	if w := in.Workspaces; len(w) != 1 || !slices.Equal(w[0].Members, []string{"api", "server"}) {
		t.Errorf("go.work: %+v", w)
	}
	for _, c := range []struct {
		ip       string
		dir      string
		ok, know bool
	}{
		{"example.com/api", "api", true, true},
		{"example.com/api/v1/x", "api/v1/x", true, true},
		{"fmt", "", false, true},
		{"example.com/apiary", "", false, true},
	} {
		dir, ok, known := in.GoModule(c.ip)
		if dir != c.dir || ok != c.ok || known != c.know {
			t.Errorf("GoModule(%q) = %q %v %v", c.ip, dir, ok, known)
		}
	}
	if _, _, known := Detect("", nil).GoModule("fmt"); known {
		t.Error("GoModule known without any go.mod")
	}
}

func TestNpmAndPython(t *testing.T) {
	in := detect(t, map[string]string{
		"package.json":               `{"private": true, "workspaces": ["packages/*"]}`,
		"packages/ui/package.json":   `{"name": "@acme/ui", "version": "1.0.0", "dependencies": {"react": "^18", "@acme/util": "workspace:*"}}`,
		"packages/util/package.json": `{"name": "@acme/util", "devDependencies": {"jest": "29"}}`,
		"bad/package.json":           `{"name": `,
		"pnpm-workspace.yaml":        "packages:\n  - 'apps/*'\n  - \"!apps/skip\"\n",
		"apps/web/package.json":      `{"name": "web"}`,
		"py/pyproject.toml":          "[project]\nname = \"acme\"\ndependencies = [\"requests[socks]>=2; python_version>'3.8'\", \"attrs\"]\n",
		"py/acme/__init__.py":        "",
		"py/acme/sub/__init__.py":    "",
		"py/acme/sub/mod.py":         "",
		"scripts/run.py":             "",
	})
	var ids []string
	for _, p := range in.Packages {
		ids = append(ids, p.ID)
	}
	want := []string{
		"package::npm::web", "package::npm::@acme/ui", "package::npm::@acme/util",
		"package::pypi::acme", "package::python::acme",
		"package::npm::jest", "package::npm::react", "package::pypi::attrs", "package::pypi::requests",
	}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	var wsIDs []string
	for _, w := range in.Workspaces {
		wsIDs = append(wsIDs, w.ID+"="+strings.Join(w.Members, ","))
	}
	if diff := cmp.Diff([]string{"workspace::npm::.=packages/ui,packages/util", "workspace::npm::.=apps/web"}, wsIDs); diff != "" {
		t.Errorf("workspaces (-want +got):\n%s", diff)
	}
	if len(in.Problems) != 1 || !strings.HasPrefix(in.Problems[0], "bad/package.json") {
		t.Errorf("problems: %v", in.Problems)
	}
	if p := in.Owner("py/acme/sub/mod.py", "python"); p == nil || p.Dir != "py/acme" {
		t.Errorf("Owner(py/acme/sub/mod.py) = %+v", p)
	}
	if p := in.Owner("scripts/run.py", "python"); p != nil {
		t.Errorf("Owner(scripts/run.py) = %+v, want nil", p)
	}
	if p := in.Owner("packages/ui/src/x.py", "python"); p != nil {
		t.Errorf("a Python file is owned by npm package %+v", p)
	}
	if p := in.Owner("packages/ui/README.md", "markdown"); p == nil || p.Name != "@acme/ui" {
		t.Errorf("Owner(packages/ui/README.md) = %+v", p)
	}
	if in.NpmPackage("@acme/util") == nil {
		t.Error("NpmPackage(@acme/util) = nil")
	}
}

// SameLayout tells apart changes that move the repository's own packages
// from those that only move versions and dependencies.
func TestSameLayout(t *testing.T) {
	base := map[string]string{
		"go.mod":           "module example.com/m\n\nrequire golang.org/x/text v0.3.0\n",
		"web/package.json": `{"name": "web", "main": "index.js", "dependencies": {"left-pad": "1.0.0"}}`,
		"lib/__init__.py":  "",
	}
	with := func(change map[string]string, drop ...string) map[string]string {
		out := map[string]string{}
		for k, v := range base {
			if !slices.Contains(drop, k) {
				out[k] = v
			}
		}
		for k, v := range change {
			out[k] = v
		}
		return out
	}
	for _, c := range []struct {
		name  string
		files map[string]string
		same  bool
	}{
		{"nothing changed", base, true},
		{"a dependency added", with(map[string]string{"go.mod": "module example.com/m\n\nrequire (\n\tgolang.org/x/text v0.3.0\n\tgolang.org/x/sync v0.1.0\n)\n"}), true},
		{"a version moved", with(map[string]string{"web/package.json": `{"name": "web", "version": "2.0.0", "main": "index.js", "dependencies": {"left-pad": "1.1.0"}}`}), true},
		{"a nested import package", with(map[string]string{"lib/sub/__init__.py": ""}), true},
		{"the module path moved", with(map[string]string{"go.mod": "module example.com/n\n"}), false},
		{"an entry point moved", with(map[string]string{"web/package.json": `{"name": "web", "main": "main.js"}`}), false},
		{"a new top-level import package", with(map[string]string{"app/__init__.py": ""}), false},
		{"a package removed", with(nil, "web/package.json"), false},
		{"a workspace added", with(map[string]string{"package.json": `{"name": "root", "workspaces": ["web"]}`}), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := SameLayout(detect(t, base), detect(t, c.files)); got != c.same {
				t.Fatalf("SameLayout = %v, want %v", got, c.same)
			}
		})
	}
	if !SameLayout(nil, nil) || SameLayout(detect(t, base), nil) {
		t.Fatal("nil Infos")
	}
}
