package documents

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestAmbiguousNameIsOneFinding: a tutorial that names its example file
// in every section gives one ambiguous_target, not one per section. It
// claims no staleness: listed after the page's claims, counted under
// ambiguous_targets and not in the findings totals.
func TestAmbiguousNameIsOneFinding(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.FixtureRepo(t, map[string]string{
		"examples/a/main.py": "def run():\n    return 1\n",
		"examples/b/main.py": "def run():\n    return 2\n",
		"examples/c/main.py": "def run():\n    return 3\n",
		"examples/d/main.py": "def run():\n    return 4\n",
		"examples/e/main.py": "def run():\n    return 5\n",
		"app/client.py":      "class Client:\n    def send(self):\n        return 1\n",
		"docs/tutorial.md":   "# Tutorial\n\n## First\n\nCreate `main.py` with a command.\n\n## Second\n\nRun `main.py` again.\n\n## Third\n\nEdit `main.py` once more, then call `Client.recv()`.\n",
	})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": filepath.Join(dir, "docs"), "adapter": "universal", "mode": "merge"})
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true, "path": "docs/tutorial.md"})
	if n := out["summary"].(map[string]any)["ambiguous_targets"]; n != 1.0 {
		t.Errorf("ambiguous_targets %v, want 1", n)
	}
	if n := out["summary"].(map[string]any)["total_findings"]; n != 1.0 {
		t.Errorf("total_findings %v, want 1 (Client.recv; the ambiguous name is no staleness claim)", n)
	}
	doc := out["documents"].([]any)[0].(map[string]any)
	if n := doc["findings_total"]; n != 1.0 {
		t.Errorf("findings_total %v, want 1", n)
	}
	var got, kinds []string
	for _, x := range doc["findings"].([]any) {
		f := x.(map[string]any)
		kinds = append(kinds, f["kind"].(string))
		if f["kind"] == "ambiguous_target" {
			got = append(got, f["mention"].(string)+": "+f["detail"].(string))
		}
	}
	want := "main.py: names 5 code nodes; qualify it (path or Owner.member) to bind it (named again in 2 later places)"
	if len(got) != 1 || got[0] != want {
		t.Errorf("ambiguous findings %q, want [%q]", got, want)
	}
	if wantKinds := []string{"missing_target", "ambiguous_target"}; !slices.Equal(kinds, wantKinds) {
		t.Errorf("finding kinds in order %q, want %q", kinds, wantKinds)
	}
}
