package tools

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSearchAfterSymlinkSwap: a file that became a symlink to a secret
// outside the roots after the first search (a checkout, a hostile tree)
// is not read by search — cached or not — nor by view.
func TestSearchAfterSymlinkSwap(t *testing.T) {
	d, root := ingestedFixture(t)
	secretDir := t.TempDir()
	secret := filepath.Join(secretDir, "key.txt")
	if err := os.WriteFile(secret, []byte("TOPSECRET value\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := func(extra map[string]any) map[string]any {
		m := map[string]any{"agent_id": "t"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	first := mustCall(t, d, "search", a(map[string]any{"query": "SessionStore", "exact_counts": true}))
	if first["content_matches"].(float64) == 0 {
		t.Fatalf("fixture search found nothing: %v", first)
	}
	target := filepath.Join(root, "backend/session.py")
	if err := os.Remove(target); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, target); err != nil {
		t.Skipf("symlinks unsupported: %v", err)
	}
	for _, mode := range []string{"literal", "regex"} {
		out := mustCall(t, d, "search", a(map[string]any{"query": "TOPSECRET", "mode": mode, "exact_counts": true}))
		if out["content_matches"].(float64) != 0 {
			t.Errorf("%s search read the file outside the roots: %v", mode, out)
		}
	}
	if out, isErr := call(t, d, "view", a(map[string]any{"file_path": "backend/session.py"})); !isErr {
		t.Errorf("view followed the swapped symlink: %v", out)
	}
}
