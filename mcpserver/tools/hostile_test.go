package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/session"
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

// TestViewDoesNotIndexSecrets: viewing .env shows it (the agent asked) but
// does not put it into the graph, so search cannot find it afterwards.
func TestViewDoesNotIndexSecrets(t *testing.T) {
	d, root := ingestedFixture(t)
	if err := os.WriteFile(filepath.Join(root, ".env"), []byte("API_KEY=TOPSECRET123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := mustCall(t, d, "view", map[string]any{"agent_id": "t", "file_path": ".env"})
	if out["auto_ingested"] == true || out["in_graph"] == true {
		t.Fatalf("view indexed .env: %v", out)
	}
	if msg, _ := out["auto_ingest_error"].(string); !strings.Contains(msg, "credentials") {
		t.Errorf("auto_ingest_error = %q, want the reason", msg)
	}
	s := mustCall(t, d, "search", map[string]any{"agent_id": "t", "query": "TOPSECRET123", "exact_counts": true})
	if s["total_matches"].(float64) != 0 {
		t.Errorf("search found the secret: %v", s)
	}
}

// TestIngestOutsideAllowedRoots: ingest refuses a directory outside the
// allowed roots, says how to allow it, and changes nothing.
func TestIngestOutsideAllowedRoots(t *testing.T) {
	allowed := t.TempDir()
	cfg := session.DefaultConfig()
	cfg.AllowRoots = []string{allowed}
	st, err := session.Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d := &Dispatcher{Registry: Builtin(), Session: st}
	out, isErr := call(t, d, "ingest", map[string]any{"agent_id": "t", "path": "/etc"})
	if !isErr || !strings.Contains(out["hint"].(string), "--allow-root") {
		t.Fatalf("ingest /etc: %v", out)
	}
	if n := st.Current().Graph.NumNodes(); n != 0 {
		t.Errorf("a refused ingest left %d nodes", n)
	}
	if out, isErr := call(t, d, "view", map[string]any{"agent_id": "t", "file_path": "/etc/passwd"}); !isErr {
		t.Errorf("view /etc/passwd: %v", out)
	}
}
