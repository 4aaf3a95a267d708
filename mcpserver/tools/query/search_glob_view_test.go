package query

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// fsNormalize makes a response comparable across runs: timings zeroed,
// the temporary root replaced by $ROOT.
func fsNormalize(v any, root string) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			if k == "elapsed_ms" {
				out[k] = 0.0
				continue
			}
			out[k] = fsNormalize(val, root)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = fsNormalize(val, root)
		}
		return out
	case string:
		return strings.ReplaceAll(x, root, "$ROOT")
	}
	return v
}

func TestSearchGlobViewGolden(t *testing.T) {
	t.Parallel()
	d, root := tooltest.FsSetup(t)
	cases := []struct {
		name string
		tool string
		args map[string]any
	}{
		{"search_literal", "search", map[string]any{"query": "login"}},
		{"search_literal_case_sensitive", "search", map[string]any{"query": "LOGIN", "case_sensitive": true, "context_lines": 1}},
		{"search_literal_metachars", "search", map[string]any{"query": "normalize(user)", "context_lines": 0}},
		{"search_literal_unicode", "search", map[string]any{"query": "école", "context_lines": 0}},
		{"search_regex", "search", map[string]any{"query": `def \w+\(self`, "mode": "regex", "case_sensitive": true, "context_lines": 1}},
		{"search_regex_crlf_anchor", "search", map[string]any{"query": `Login\(\):$`, "mode": "regex", "context_lines": 0}},
		{"search_regex_multiline", "search", map[string]any{"query": `def login.*\n.*digest`, "mode": "regex", "multiline": true, "context_lines": 0}},
		{"search_scope_glob_truncated", "search", map[string]any{"query": "return", "scope": "app/**/*.py", "top_k": 2, "context_lines": 0, "exact_counts": true}},
		{"search_scope_prefix", "search", map[string]any{"query": "login", "scope": "cmd/", "context_lines": 0}},
		{"search_count_only", "search", map[string]any{"query": "user", "count_only": true}},
		{"search_no_match", "search", map[string]any{"query": "zebra_crossing"}},
		{"search_semantic", "search", map[string]any{"query": "normalize user name", "mode": "semantic", "top_k": 3, "context_lines": 0}},
		{"glob_py", "glob", map[string]any{"pattern": "*.py"}},
		{"glob_braces_activation", "glob", map[string]any{"pattern": "{app,cmd}/**", "sort": "activation"}},
		{"glob_directory_limit", "glob", map[string]any{"pattern": "app", "top_k": 2}},
		{"glob_scope", "glob", map[string]any{"pattern": "**/*.py", "scope": "legacy/"}},
		{"glob_no_match", "glob", map[string]any{"pattern": "**/*.rs"}},
		{"view_range", "view", map[string]any{"file_path": "app/auth.py", "offset": 9, "limit": 5}},
		{"view_whole_crlf", "view", map[string]any{"file_path": "legacy/crlf.py"}},
		{"view_absolute_long_line", "view", map[string]any{"file_path": filepath.Join(root, "web/min.js")}},
		{"view_symlink_inside", "view", map[string]any{"file_path": "link_in.py", "auto_ingest": false}},
		{"view_empty_file", "view", map[string]any{"file_path": "app/__init__.py"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := tooltest.FsOK(t, d, tc.tool, tc.args)
			got := fsNormalize(out, root)
			tooltest.CheckGoldenFile(t, filepath.Join("testdata", "searchglobview", tc.name+".json"), got)
		})
	}
}

func TestSearchGlobViewBadInput(t *testing.T) {
	t.Parallel()
	d, root := tooltest.FsSetup(t)
	gen := d.Session.Current().Gen
	cases := []struct {
		tool  string
		args  map[string]any
		wants []string
	}{
		// search
		{"search", map[string]any{}, []string{"missing required parameter", "query"}},
		{"search", map[string]any{"query": ""}, []string{"query is empty", "glob", "seek"}},
		{"search", map[string]any{"query": "   "}, []string{"query is empty"}},
		{"search", map[string]any{"query": 42}, []string{"must be string"}},
		{"search", map[string]any{"query": "x", "mode": "fuzzy"}, []string{"literal, regex, semantic"}},
		{"search", map[string]any{"query": "x", "top_k": "ten"}, []string{"top_k", "integer"}},
		{"search", map[string]any{"query": "x", "top_k": 0}, []string{">= 1"}},
		{"search", map[string]any{"query": "x", "context_lines": 11}, []string{"<= 10"}},
		{"search", map[string]any{"query": "x", "case_sensitive": "yes"}, []string{"boolean"}},
		{"search", map[string]any{"query": "login(", "mode": "regex"}, []string{"missing closing )", `login\\(`, "literal"}},
		{"search", map[string]any{"query": "a[b", "mode": "regex"}, []string{"missing closing ]"}},
		{"search", map[string]any{"query": "(?=x)y", "mode": "regex"}, []string{"lookahead"}},
		{"search", map[string]any{"query": `(a)\1`, "mode": "regex"}, []string{"backreferences"}},
		{"search", map[string]any{"query": `a\nb`, "mode": "regex"}, []string{"multiline: true"}},
		{"search", map[string]any{"query": "x", "scope": "../outside"}, []string{"climbs out", "root"}},
		{"search", map[string]any{"query": "x", "scope": "/etc"}, []string{"outside every ingest root"}},
		{"search", map[string]any{"query": "x", "scope": "app/[a"}, []string{"not a valid glob"}},
		// glob
		{"glob", map[string]any{}, []string{"pattern"}},
		{"glob", map[string]any{"pattern": " "}, []string{"pattern is empty"}},
		{"glob", map[string]any{"pattern": "src/[a"}, []string{"invalid glob", "syntax error"}},
		{"glob", map[string]any{"pattern": "{a,b"}, []string{"unmatched '{'"}},
		{"glob", map[string]any{"pattern": "a}"}, []string{"unmatched '}'"}},
		{"glob", map[string]any{"pattern": "a//b"}, []string{"empty path segment"}},
		{"glob", map[string]any{"pattern": "*", "sort": "size"}, []string{"path, activation"}},
		{"glob", map[string]any{"pattern": "*", "top_k": -1}, []string{">= 1"}},
		{"glob", map[string]any{"pattern": 3}, []string{"must be string"}},
		// view
		{"view", map[string]any{}, []string{"file_path"}},
		{"view", map[string]any{"file_path": ""}, []string{"file_path is empty"}},
		{"view", map[string]any{"file_path": "../outside/secret.txt"}, []string{"climbs out"}},
		{"view", map[string]any{"file_path": "app/../../outside/secret.txt"}, []string{"climbs out"}},
		{"view", map[string]any{"file_path": "/etc/passwd"}, []string{"outside every ingest root", "allowed_roots"}},
		{"view", map[string]any{"file_path": root + "/../outside/secret.txt"}, []string{"\"..\""}},
		{"view", map[string]any{"file_path": "link_out.txt"}, []string{"symlink", "outside every ingest root"}},
		{"view", map[string]any{"file_path": "auth.py"}, []string{"does not exist", "app/auth.py"}},
		{"view", map[string]any{"file_path": "app"}, []string{"is a directory", "app/**"}},
		{"view", map[string]any{"file_path": "data/blob.bin"}, []string{"binary"}},
		{"view", map[string]any{"file_path": "app/util.py", "offset": 4}, []string{"past the end", "3 lines"}},
		{"view", map[string]any{"file_path": "app/util.py", "offset": 0}, []string{">= 1"}},
		{"view", map[string]any{"file_path": "app/util.py", "limit": "all"}, []string{"integer"}},
		{"view", map[string]any{"file_path": "app/util.py", "limit": 100000}, []string{"<= 5000"}},
		{"view", map[string]any{"file_path": "app/util.py", "auto_ingest": "no"}, []string{"boolean"}},
	}
	for _, tc := range cases {
		tooltest.FsErr(t, d, tc.tool, tc.args, tc.wants...)
	}
	if g := d.Session.Current().Gen; g != gen {
		t.Errorf("bad input changed the graph generation %d -> %d", gen, g)
	}
}

func TestNothingIngested(t *testing.T) {
	t.Parallel()
	st, err := session.Open(tooltest.TestConfig(), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d := &tools.Dispatcher{Registry: tooltest.Builtin(), Session: st}
	tooltest.FsErr(t, d, "view", map[string]any{"file_path": "a.py"}, "ingest")
	tooltest.FsErr(t, d, "search", map[string]any{"query": "x"}, "ingest")
	tooltest.FsErr(t, d, "glob", map[string]any{"pattern": "**"}, "ingest")
}

func TestViewAutoIngest(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FsSetup(t)
	before := d.Session.Current()

	// auto_ingest off: the file is shown, the graph is untouched.
	out := tooltest.FsOK(t, d, "view", map[string]any{"file_path": "notes/other.py", "auto_ingest": false})
	if out["in_graph"] != false || out["auto_ingested"] != false || d.Session.Current() != before {
		t.Fatalf("auto_ingest false changed something: %v", out)
	}

	out = tooltest.FsOK(t, d, "view", map[string]any{"file_path": "notes/new.py"})
	if out["auto_ingested"] != true || out["in_graph"] != true || out["file_node_id"] != "file::notes/new.py" {
		t.Fatalf("not auto-ingested: %v", out)
	}
	nodes, _ := out["nodes"].([]any)
	if len(nodes) != 1 || nodes[0].(map[string]any)["node_id"] != "file::notes/new.py::fresh" {
		t.Fatalf("nodes in range: %v", nodes)
	}
	after := d.Session.Current()
	if after.Gen != before.Gen+1 || len(after.Roots) != 1 {
		t.Fatalf("generation %d -> %d, roots %v", before.Gen, after.Gen, after.Roots)
	}
	g := after.Graph
	fresh, ok := g.Lookup("file::notes/new.py::fresh")
	norm, _ := g.Lookup("file::app/util.py::normalize")
	if !ok {
		t.Fatal("fresh not in the graph")
	}
	if _, ok := g.FindEdgeByName(fresh, norm, "calls"); !ok {
		t.Errorf("fresh → normalize call not bound; neighbours %+v", g.Neighbors(fresh))
	}
	// Its new directory got a node that contains it.
	dirID, ok := g.Lookup("dir::notes")
	fileID, _ := g.Lookup("file::notes/new.py")
	if !ok {
		t.Error("no dir::notes node")
	} else if _, ok := g.FindEdgeByName(dirID, fileID, "contains"); !ok {
		t.Error("dir::notes does not contain the new file")
	}
	// Everything that was there is still there.
	for i := 0; i < before.Graph.NumNodes(); i++ {
		if _, ok := g.Lookup(before.Graph.ExternalID(graph.NodeID(i))); !ok {
			t.Errorf("lost %s", before.Graph.ExternalID(graph.NodeID(i)))
		}
	}
	// The other tools see the new file at once.
	if gl := tooltest.FsOK(t, d, "glob", map[string]any{"pattern": "notes/*.py"}); gl["total_matches"] != 1.0 {
		t.Errorf("glob after auto_ingest: %v", gl)
	}
	if s := tooltest.FsOK(t, d, "search", map[string]any{"query": "fresh"}); s["label_matches"] != 1.0 || s["content_matches"] != 1.0 {
		t.Errorf("search after auto_ingest: %v", s)
	}
	// Viewing again does not ingest again.
	out = tooltest.FsOK(t, d, "view", map[string]any{"file_path": "notes/new.py"})
	if out["auto_ingested"] != false || d.Session.Current().Gen != after.Gen {
		t.Errorf("second view re-ingested: %v", out)
	}
	// Nested new directories get their chain.
	tooltest.FsOK(t, d, "view", map[string]any{"file_path": "lab/deep/x.py"})
	g2 := d.Session.Current().Graph
	lab, ok1 := g2.Lookup("dir::lab")
	deep, ok2 := g2.Lookup("dir::lab/deep")
	x, ok3 := g2.Lookup("file::lab/deep/x.py")
	if !ok1 || !ok2 || !ok3 {
		t.Fatalf("directory chain missing: %v %v %v", ok1, ok2, ok3)
	}
	if _, ok := g2.FindEdgeByName(lab, deep, "contains"); !ok {
		t.Error("dir::lab does not contain dir::lab/deep")
	}
	if _, ok := g2.FindEdgeByName(deep, x, "contains"); !ok {
		t.Error("dir::lab/deep does not contain x.py")
	}
}

func TestSearchCacheSeesEdits(t *testing.T) {
	t.Parallel()
	d, root := tooltest.FsSetup(t)
	q := map[string]any{"query": "brand_new_token", "context_lines": 0}
	if out := tooltest.FsOK(t, d, "search", q); out["content_matches"] != 0.0 {
		t.Fatalf("before the edit: %v", out)
	}
	if err := os.WriteFile(filepath.Join(root, "app/util.py"), []byte("def normalize(name):\n    return brand_new_token\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := tooltest.FsOK(t, d, "search", q)
	res, _ := out["results"].([]any)
	if out["content_matches"] != 1.0 || len(res) != 1 || res[0].(map[string]any)["line_number"] != 2.0 {
		t.Fatalf("edit not seen through the cache: %v", out)
	}
}

func TestSearchEarlyStopAndExactCounts(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FsSetup(t)
	exact := tooltest.FsOK(t, d, "search", map[string]any{"query": "e", "exact_counts": true, "top_k": 1, "context_lines": 0})
	if exact["total_matches_exact"] != true || exact["truncated"] != true || exact["returned"] != 1.0 {
		t.Fatalf("exact: %v", exact)
	}
	early := tooltest.FsOK(t, d, "search", map[string]any{"query": "e", "top_k": 1, "context_lines": 0})
	if early["returned"] != 1.0 || early["truncated"] != true {
		t.Fatalf("early: %v", early)
	}
	if early["content_matches"].(float64) > exact["content_matches"].(float64) {
		t.Errorf("early count %v above exact %v", early["content_matches"], exact["content_matches"])
	}
	// The first results do not depend on when the scan stopped.
	if cmp.Diff(exact["results"], early["results"]) != "" {
		t.Errorf("early-stop results differ from exact ones:\n%s", cmp.Diff(exact["results"], early["results"]))
	}
	counted := tooltest.FsOK(t, d, "search", map[string]any{"query": "e", "count_only": true})
	if counted["content_matches"] != exact["content_matches"] || counted["total_matches_exact"] != true || len(counted["results"].([]any)) != 0 {
		t.Errorf("count_only: %v", counted)
	}
}

func TestSearchGlobViewConcurrent(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FsSetup(t)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				switch (i + j) % 5 {
				case 0:
					tooltest.FsOK(t, d, "search", map[string]any{"query": "login"})
				case 1:
					tooltest.FsOK(t, d, "glob", map[string]any{"pattern": "**", "sort": "activation"})
				case 2:
					tooltest.FsOK(t, d, "view", map[string]any{"file_path": "app/auth.py"})
				case 3:
					tooltest.FsOK(t, d, "view", map[string]any{"file_path": "notes/other.py"}) // auto-ingests once
				case 4:
					// activate records firing (plasticity) while glob reads it
					tooltest.FsOK(t, d, "activate", map[string]any{"query": "login normalize", "top_k": 5})
				}
			}
		}(i)
	}
	wg.Wait()
	g := d.Session.Current().Graph
	if _, ok := g.Lookup("file::notes/other.py::other"); !ok {
		t.Error("concurrent auto_ingest lost the file")
	}
}

func TestGlobActivationFollowsRecentFiring(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FsSetup(t)
	first := func() string {
		out := tooltest.FsOK(t, d, "glob", map[string]any{"pattern": "**", "sort": "activation"})
		return out["files"].([]any)[0].(map[string]any)["file_path"].(string)
	}
	if got := first(); got != "app/auth.py" {
		t.Fatalf("by centrality alone the top file is %s, want app/auth.py", got)
	}
	// A query just lit up legacy/crlf.py::Login (plasticity's record).
	g := d.Session.Current().Graph
	id, _ := g.Lookup("file::legacy/crlf.py::Login")
	d.Session.Plasticity.Locked(func() { g.Nodes().Plasticity[id].LastFired = uint32(time.Now().Unix()) })
	if got := first(); got != "legacy/crlf.py" {
		t.Errorf("after a fresh activation the top file is %s, want legacy/crlf.py", got)
	}
	// Path order is untouched by activation.
	out := tooltest.FsOK(t, d, "glob", map[string]any{"pattern": "**"})
	if f := out["files"].([]any)[0].(map[string]any); f["file_path"] != "app/__init__.py" || f["activation"] != nil {
		t.Errorf("path order: %v", f)
	}
}

func TestGlobMatcher(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pattern string
		path    string
		want    bool
	}{
		{"*.py", "a.py", true},
		{"*.py", "deep/dir/a.py", true},
		{"*.py", "a.pyc", false},
		{"/*.py", "deep/a.py", false},
		{"/*.py", "a.py", true},
		{"src/*.go", "src/a.go", true},
		{"src/*.go", "src/sub/a.go", false},
		{"src/**/*.go", "src/a.go", true},
		{"src/**/*.go", "src/x/y/a.go", true},
		{"src/**", "src/x/y/a.go", true},
		{"src/", "src/x/a.go", true},
		{"src", "lib/src/a.go", true}, // a directory name matches at any depth
		{"**/test_*.py", "tests/test_auth.py", true},
		{"{cmd,internal}/**/*.go", "internal/x/a.go", true},
		{"{cmd,internal}/**/*.go", "pkg/a.go", false},
		{"*.{go,py}", "x/a.py", true},
		{"a?c.txt", "abc.txt", true},
		{"a?c.txt", "ac.txt", false},
		{"[!a]*.txt", "b.txt", true},
		{"[!a]*.txt", "a.txt", false},
		{"[a-c]x", "bx", true},
		{`\*.txt`, "*.txt", true},
		{`\*.txt`, "a.txt", false},
		{"src/a**b/*.go", "src/axxb/f.go", true},
		{"./app/*.py", "app/x.py", true},
		{"{a,{b,c}}.md", "c.md", true},
	}
	for _, tc := range cases {
		gm, err := tools.CompileGlob(tc.pattern)
		if err != nil {
			t.Fatalf("compileGlob(%q): %v", tc.pattern, err)
		}
		if got := gm.Match(tc.path); got != tc.want {
			t.Errorf("glob %q on %q = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
	for _, bad := range []string{"[a", "{a", "a}", "a//b", "{" + strings.Repeat("a,", 300) + "a}{" + strings.Repeat("b,", 10) + "b}"} {
		if _, err := tools.CompileGlob(bad); err == nil {
			t.Errorf("compileGlob(%q) accepted", bad)
		}
	}
}

// TestWithIngestedRepository runs the tools over a graph built by the real
// ingest pipeline rather than by hand.
func TestWithIngestedRepository(t *testing.T) {
	t.Parallel()
	d, root := tooltest.FsSetup(t)
	_, err := d.Session.Build("graph_replaced", func(old *session.Bundle) (*graph.Graph, []session.Root, error) {
		o, err := ingest.Run(context.Background(), ingest.Config{Root: root}, nil)
		if err != nil {
			return nil, nil, err
		}
		return o.Graph, old.Roots, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := tooltest.FsOK(t, d, "search", map[string]any{"query": "normalize", "context_lines": 0})
	var defLine bool
	for _, r := range out["results"].([]any) {
		r := r.(map[string]any)
		if r["file_path"] == "app/util.py" && r["line_number"] == 1.0 && slicesContains(r["matched_by"], "label") {
			defLine = true
		}
	}
	if !defLine {
		t.Errorf("the definition of normalize is not a label hit: %v", out["results"])
	}
	gl := tooltest.FsOK(t, d, "glob", map[string]any{"pattern": "app/*.py"})
	if gl["total_matches"].(float64) < 3 {
		t.Errorf("glob app/*.py over the ingested graph: %v", gl)
	}
	v := tooltest.FsOK(t, d, "view", map[string]any{"file_path": "app/auth.py", "offset": 7, "limit": 9, "auto_ingest": false})
	var labels []string
	for _, n := range v["nodes"].([]any) {
		labels = append(labels, n.(map[string]any)["label"].(string))
	}
	if !slicesContains(anySlice(labels), "AuthService") || !slicesContains(anySlice(labels), "login") {
		t.Errorf("nodes in lines 7-15 from the ingested graph: %v", labels)
	}
}

func slicesContains(v any, s string) bool {
	l, _ := v.([]any)
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
