package documents

import (
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// gitOnlyRepo: getTokensEndLoc (a def) and dumps_all (a module-level
// alias, "dump_all = dumps_all = _write") exist when the page is written
// and go later, with no changelog line; neverThere and the reader… names,
// above them on the page, were never the project's (six of them: more
// than the bound on changelog-backed names); oldName the page itself
// says is gone.
var gitOnlyRepo = map[string]string{
	"src/kit/__init__.py": "",
	"src/kit/core.py": "def getTokensEndLoc(s):\n    return 0\n\n\ndef _write(x):\n    return x\n\n\n" +
		"dump_all = dumps_all = _write\n",
	"docs/api.md": "# API\n\nPass `neverThere`, `readerOne`, `readerTwo`, `readerThree`, `readerFour` or `readerFive` to taste.\n\n" +
		"Call `getTokensEndLoc()` for the end of the match.\n\n" +
		"Use `dumps_all` to write everything.\n\n`oldName` was removed in 2.0.\n",
}

// A code-span name no code spells now stands as removed_in_history when
// git shows the project's def or module-level binding of it removed, with
// no changelog line; one git never shows defined is dropped, not listed
// as lower confidence.
func TestDocumentDriftNameRemovedByGitOnly(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, gitOnlyRepo)
	commitAt(t, dir, "2023-02-01T00:00:00Z", "docs")
	rewriteAt(t, dir, "2023-06-01T00:00:00Z", "src/kit/core.py", "def _write(x):\n    return x\n\n\ndump_all = _write\n", "drop getTokensEndLoc and dumps_all")

	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	type row struct {
		Line                    float64
		Kind, Mention, Evidence string
		Detail                  string
	}
	var got []row
	for _, d := range asList(out["documents"]) {
		for _, f := range asList(d.(map[string]any)["findings"]) {
			m := f.(map[string]any)
			l, _ := m["line"].(float64)
			got = append(got, row{l, m["kind"].(string), m["mention"].(string), m["evidence"].(string), m["detail"].(string)})
		}
	}
	tooltest.CheckGoldenFile(t, filepath.Join("testdata", "drift_gitonly.json"), map[string]any{
		"total_findings": out["summary"].(map[string]any)["total_findings"], "findings": got})
}
