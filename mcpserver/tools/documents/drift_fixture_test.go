package documents

import (
	"os"
	"path/filepath"
	"testing"
)

// rewriteAt writes text to the file rel of the repository dir and commits
// it alone at when with message msg.
func rewriteAt(t *testing.T, dir, when, rel, text, msg string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	gitAt(t, dir, when, "add", rel)
	gitAt(t, dir, when, "commit", "-qm", msg)
}

// evidenceRow is a finding as the evidence goldens record it.
type evidenceRow struct{ Kind, Mention, Evidence, Commit, Detail string }

// evidenceRows lists the findings v (a document's findings or
// lower_confidence) as evidenceRows.
func evidenceRows(v any) []evidenceRow {
	var rs []evidenceRow
	for _, f := range asList(v) {
		m := f.(map[string]any)
		c, _ := m["commit"].(string)
		rs = append(rs, evidenceRow{m["kind"].(string), m["mention"].(string), m["evidence"].(string), c, m["detail"].(string)})
	}
	return rs
}
