package federation_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/toolset"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The registry of this package's tests holds every family, as toolset
// builds it.
func init() { tooltest.Register = toolset.RegisterAll }

// threeRepos writes lib (a Go module), widgets (an npm package) and app,
// which imports the first from Go and the second from JavaScript, side by
// side in one directory.
func threeRepos(t *testing.T) (parent, lib, widgets, app string) {
	t.Helper()
	parent = t.TempDir()
	write := func(repo string, files map[string]string) string { return writeRepo(t, parent, repo, files) }
	lib = write("lib", map[string]string{
		"go.mod":       "module example.com/lib\n\ngo 1.22\n",
		"util/util.go": "package util\n\n// Clamp bounds v to [lo, hi].\nfunc Clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }\n",
		"util/doc.go":  "// Package util holds small helpers.\npackage util\n",
		"cmd/tool.go":  "package main\n\nfunc main() {}\n",
	})
	widgets = write("widgets", map[string]string{
		"package.json": `{"name": "@acme/widgets", "main": "index.js"}`,
		"index.js":     "export function button(label) { return `<button>${label}</button>`; }\n",
	})
	app = write("app", map[string]string{
		"go.mod":           "module example.com/app\n\ngo 1.22\n\nrequire example.com/lib v0.1.0\n\nreplace example.com/lib => ../lib\n",
		"main.go":          "package main\n\nimport \"example.com/lib/util\"\n\nfunc main() { println(util.Clamp(5, 0, 3)) }\n",
		"web/package.json": `{"name": "web", "dependencies": {"@acme/widgets": "1.0.0"}}`,
		"web/index.js":     "import { button } from \"@acme/widgets\";\nexport const page = () => button(\"ok\");\n",
	})
	return
}

func edgeSet(out map[string]any) []string {
	var s []string
	for _, e := range out["cross_repo_edges"].([]any) {
		m := e.(map[string]any)
		s = append(s, m["source_node"].(string)+" -"+m["relation"].(string)+"-> "+m["target_node"].(string))
	}
	return s
}

// Three repositories in one graph: the Go import and the npm import
// between them become edges, exactly these; impact on the library names
// its user in the other repository; a scoped seek stays in one.
func TestFederateLinksThreeRepositories(t *testing.T) {
	parent, lib, widgets, app := threeRepos(t)
	cfg := tooltest.TestConfig()
	cfg.AllowRoots = append(cfg.AllowRoots, parent)
	d := tooltest.NewDispatcher(t, cfg)
	out := tooltest.MustCall(t, d, "federate", map[string]any{"agent_id": "t", "repos": []any{
		map[string]any{"name": "app", "path": app},
		map[string]any{"name": "lib", "path": lib},
		map[string]any{"name": "widgets", "path": widgets},
	}})
	want := []string{
		"app::file::main.go -imports-> lib::file::util/doc.go",
		"app::file::main.go -imports-> lib::file::util/util.go",
		"app::file::web/index.js -imports-> widgets::file::index.js",
		"app::package::go::example.com/app -depends_on-> lib::package::go::example.com/lib",
		"app::package::npm::web -depends_on-> widgets::package::npm::@acme/widgets",
	}
	if got := edgeSet(out); !slices.Equal(got, want) {
		t.Errorf("cross-repo edges:\n got %q\nwant %q", got, want)
	}
	if n := out["cross_repo_edge_count"].(float64); int(n) != len(want) {
		t.Errorf("cross_repo_edge_count %v", n)
	}
	for _, r := range out["repos_ingested"].([]any) {
		m := r.(map[string]any)
		if m["namespace"] != m["name"] || m["node_count"].(float64) == 0 {
			t.Errorf("repo %v", m)
		}
	}

	imp := tooltest.MustCall(t, d, "impact", map[string]any{"agent_id": "t", "node_id": "lib::file::util/util.go"})
	if !strings.Contains(tooltest.ToText(imp), "app::file::main.go") {
		t.Errorf("impact on lib's util.go does not name app's main.go: %s", tooltest.ToText(imp))
	}
	// Scoped queries stay inside one repository: seek, and impact and
	// activate, whose walks still cross into the others.
	inApp := func(tool string, out map[string]any, list string) {
		t.Helper()
		rs := out[list].([]any)
		if len(rs) == 0 {
			t.Errorf("%s scoped to app/ answered nothing: %v", tool, out)
		}
		for _, r := range rs {
			if id := r.(map[string]any)["node_id"].(string); !strings.HasPrefix(id, "app::") {
				t.Errorf("%s scoped to app/ answered %s", tool, id)
			}
		}
	}
	inApp("seek", tooltest.MustCall(t, d, "seek", map[string]any{"agent_id": "t", "query": "clamp bounds", "scope": "app/"}), "results")
	inApp("impact", tooltest.MustCall(t, d, "impact", map[string]any{"agent_id": "t", "node_id": "lib::file::util/util.go", "scope": "app/"}), "blast_radius")
	inApp("activate", tooltest.MustCall(t, d, "activate", map[string]any{"agent_id": "t", "query": "clamp bounds", "scope": "app/"}), "activated")
	if out, isErr := tooltest.Call(t, d, "impact", map[string]any{"agent_id": "t", "node_id": "lib::file::util/util.go", "scope": "app/[x"}); !isErr || out["hint"] == nil {
		t.Errorf("a bad scope glob: %v", out)
	}

	// federate_auto from app alone finds lib (go.mod's replace and the
	// import) and widgets (the npm dependency), and federates them.
	d2 := tooltest.NewDispatcher(t, cfg)
	tooltest.MustCall(t, d2, "ingest", map[string]any{"agent_id": "t", "path": app})
	auto := tooltest.MustCall(t, d2, "federate_auto", map[string]any{"agent_id": "t", "execute": true})
	var found []string
	for _, r := range auto["discovered_repos"].([]any) {
		m := r.(map[string]any)
		found = append(found, filepath.Base(m["repo_root"].(string))+":"+strings.Join(toStrings(m["evidence_types"]), "+"))
	}
	if !slices.Equal(found, []string{"lib:package_match+path_reference", "widgets:package_match"}) {
		t.Errorf("discovered %v", found)
	}
	if auto["executed"] != true || got(auto) != len(want) {
		t.Errorf("federate_auto execute: %v, %d edges", auto["executed"], got(auto))
	}
}

func got(auto map[string]any) int {
	fr, _ := auto["federate_result"].(map[string]any)
	n, _ := fr["cross_repo_edge_count"].(float64)
	return int(n)
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// Bad repositories are refused before anything changes.
func TestFederateRefusesBadRepos(t *testing.T) {
	_, lib, _, app := threeRepos(t)
	d := tooltest.NewDispatcher(t, tooltest.TestConfig())
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": app})
	before := d.Session.Current().Graph.NumNodes()
	for _, repos := range [][]any{
		{},
		{map[string]any{"name": "a b", "path": app}},
		{map[string]any{"name": "x", "path": app}, map[string]any{"name": "x", "path": lib}},
		{map[string]any{"name": "x", "path": app}, map[string]any{"name": "y", "path": "/no/such/dir"}},
		{map[string]any{"name": "x", "path": app, "adapter": "memory"}},
	} {
		out, isErr := tooltest.Call(t, d, "federate", map[string]any{"agent_id": "t", "repos": repos})
		if !isErr || out["hint"] == nil {
			t.Errorf("repos %v: %v", repos, out)
		}
	}
	if d.Session.Current().Graph.NumNodes() != before {
		t.Error("a refused federate changed the graph")
	}
}
