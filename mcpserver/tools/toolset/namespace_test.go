package toolset

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func nodeIDs(t *testing.T, d *tools.Dispatcher) []string {
	t.Helper()
	var out []string
	g := d.Session.Current().Graph
	for i := 0; i < g.NumNodes(); i++ {
		out = append(out, g.ExternalID(graphNode(i)))
	}
	return out
}

// Merging a second repository keeps both: colliding paths become two
// nodes under two namespaces, files resolve to the right root, learning
// follows the renamed nodes, and merging a root again replaces it.
func TestMergedRootsKeepTheirFilesApart(t *testing.T) {
	t.Parallel()
	a := fixture.Write(t)
	b := tooltest.WriteRepo(t, "other", map[string]string{
		"README.md":       "# The other service\n\nRate limiting.\n",
		"backend/auth.py": "def rate_limit(request):\n    return request\n",
	})
	d := tooltest.NewDispatcher(t, tooltest.TestConfig())
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": a})
	tooltest.MustCall(t, d, "learn", map[string]any{"agent_id": "t", "query": "login", "feedback": "correct", "node_ids": []string{"file::backend/auth.py"}, "strength": 1})
	learnedBefore := d.Session.Plasticity.LearnedEdges(d.Session.Current().Graph)

	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": b, "mode": "merge"})
	nsA, nsB := filepath.Base(a), "other"
	ids := nodeIDs(t, d)
	for _, want := range []string{nsA + "::file::README.md", nsB + "::file::README.md", nsA + "::file::backend/auth.py", nsB + "::file::backend/auth.py"} {
		if !slices.Contains(ids, want) {
			t.Errorf("node %s missing after the merge", want)
		}
	}
	if slices.Contains(ids, "file::README.md") {
		t.Error("a bare file node survived the merge")
	}
	if got := d.Session.Plasticity.LearnedEdges(d.Session.Current().Graph); got < learnedBefore || learnedBefore == 0 {
		t.Errorf("learned edges %d after the merge, %d before", got, learnedBefore)
	}

	v := tooltest.MustCall(t, d, "view", map[string]any{"agent_id": "t", "file_path": nsB + "/README.md"})
	if v["file_path"] != nsB+"/README.md" || !strings.Contains(tooltest.ToText(v), "Rate limiting") || v["file_node_id"] != nsB+"::file::README.md" {
		t.Errorf("view of %s/README.md: %v", nsB, v)
	}
	v = tooltest.MustCall(t, d, "view", map[string]any{"agent_id": "t", "file_path": filepath.Join(a, "README.md")})
	if v["file_path"] != nsA+"/README.md" || !strings.Contains(tooltest.ToText(v), "Fixture backend") {
		t.Errorf("view by absolute path into %s: %v", a, v)
	}
	g := tooltest.MustCall(t, d, "glob", map[string]any{"agent_id": "t", "pattern": "**/README.md"})
	if text := tooltest.ToText(g); !strings.Contains(text, nsA+"/README.md") || !strings.Contains(text, nsB+"/README.md") {
		t.Errorf("glob **/README.md: %s", text)
	}
	s := tooltest.MustCall(t, d, "search", map[string]any{"agent_id": "t", "query": "Rate limiting"})
	if text := tooltest.ToText(s); !strings.Contains(text, nsB+"/README.md") {
		t.Errorf("search found %s", text)
	}
	im := tooltest.MustCall(t, d, "impact", map[string]any{"agent_id": "t", "node_id": filepath.Join(a, "backend", "session.py")})
	if text := tooltest.ToText(im); !strings.Contains(text, nsA+"::file::backend/auth.py") {
		t.Errorf("impact by absolute path in a namespaced root: %s", text)
	}

	before := len(nodeIDs(t, d))
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": b, "mode": "merge"})
	if after := len(nodeIDs(t, d)); after != before {
		t.Errorf("merging %s again: %d nodes, was %d", b, after, before)
	}
	h := tooltest.MustCall(t, d, "health", map[string]any{"agent_id": "t"})
	if text := tooltest.ToText(h); !strings.Contains(text, `"namespace":"`+nsA+`"`) || !strings.Contains(text, `"namespace":"`+nsB+`"`) {
		t.Errorf("health roots: %s", text)
	}

	// Replaced alone, A is the only root again: bare IDs, learning kept.
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": a})
	ids = nodeIDs(t, d)
	if !slices.Contains(ids, "file::backend/auth.py") || slices.ContainsFunc(ids, func(id string) bool { return strings.HasPrefix(id, nsA+"::") }) {
		t.Errorf("after replacing with %s alone, ids are not bare: %v", a, ids[:min(len(ids), 5)])
	}
	if got := d.Session.Plasticity.LearnedEdges(d.Session.Current().Graph); got < learnedBefore {
		t.Errorf("learned edges %d after leaving the namespace, %d before", got, learnedBefore)
	}
}

func graphNode(i int) graph.NodeID { return graph.NodeID(i) }

// Every tool that takes a node accepts the same references: an external
// ID, a root-relative path, an absolute path inside the root, and a
// qualified name (ambiguity is answered with candidates: see the
// resolveNode tests).
func TestNodeReferencesAreAcceptedEverywhere(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	refs := map[string]string{
		"external id":    "file::backend/auth.py",
		"relative path":  "backend/auth.py",
		"absolute path":  filepath.Join(dir, "backend", "auth.py"),
		"qualified name": "AuthService.login",
	}
	calls := map[string]func(ref string) map[string]any{
		"impact":   func(ref string) map[string]any { return map[string]any{"node_id": ref} },
		"why":      func(ref string) map[string]any { return map[string]any{"source": ref, "target": "backend/session.py"} },
		"resonate": func(ref string) map[string]any { return map[string]any{"node_id": ref} },
		"learn": func(ref string) map[string]any {
			return map[string]any{"query": "login", "feedback": "correct", "node_ids": []string{ref}}
		},
	}
	for tool, args := range calls {
		for form, ref := range refs {
			a := args(ref)
			a["agent_id"] = "t"
			if out, isErr := tooltest.Call(t, d, tool, a); isErr {
				t.Errorf("%s with %s %q: %v", tool, form, ref, out)
			}
		}
	}
}

// An ambiguous name is answered with the candidates to choose from, unless
// the other side of the call tells which one is meant: then the answer
// says which it took and lists the others.
func TestAmbiguousNodeReferenceListsCandidates(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	out, isErr := tooltest.Call(t, d, "why", map[string]any{"agent_id": "t", "source": "__init__", "target": "backend/config.py"})
	text := tooltest.ToText(out)
	if !isErr || !strings.Contains(text, "AuthService::__init__") || !strings.Contains(text, "SessionStore::__init__") {
		t.Fatalf("ambiguous __init__ with nothing to tell them apart: %s", text)
	}
	out, isErr = tooltest.Call(t, d, "why", map[string]any{"agent_id": "t", "source": "__init__", "target": "backend/session.py"})
	text = tooltest.ToText(out)
	if isErr || out["source"] != "file::backend/session.py::SessionStore::__init__" || !strings.Contains(text, `"alternatives":["file::backend/auth.py::AuthService::__init__"]`) {
		t.Fatalf("__init__ beside session.py: %s", text)
	}
}
