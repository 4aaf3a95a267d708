package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

// TestHostileCallsThroughTheBinary: what the probe found, through
// the real server over stdio — ingest outside the allowed roots, a secret
// viewed into the index, a file swapped for a symlink to a secret,
// oversized arguments — is refused, and the server keeps answering.
func TestHostileCallsThroughTheBinary(t *testing.T) {
	repo := fixture.Write(t)
	outside := t.TempDir()
	secret := filepath.Join(outside, "key.txt")
	if err := os.WriteFile(secret, []byte("TOPSECRET-E2E\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Only the fixture is allowed: not the rest of the temporary directory.
	p := start(t, []string{"M1ND_ALLOW_ROOTS="}, "--allow-root", repo)
	p.initialize(transport.Line)
	if out, isErr := p.tool(transport.Line, "ingest", map[string]any{"agent_id": "h", "path": repo}); isErr {
		t.Fatalf("ingest of the allowed root: %v", out)
	}
	for _, path := range []string{outside, "/etc", "/proc"} {
		out, isErr := p.tool(transport.Line, "ingest", map[string]any{"agent_id": "h", "path": path})
		if !isErr {
			t.Errorf("ingest %s was accepted: %v", path, out)
		}
	}
	os.WriteFile(filepath.Join(repo, ".env"), []byte("TOKEN=TOPSECRET-E2E\n"), 0o600)
	p.tool(transport.Line, "view", map[string]any{"agent_id": "h", "file_path": ".env"})
	target := filepath.Join(repo, "backend/session.py")
	os.Remove(target)
	if err := os.Symlink(secret, target); err != nil {
		t.Skipf("symlinks: %v", err)
	}
	out, _ := p.tool(transport.Line, "search", map[string]any{"agent_id": "h", "query": "TOPSECRET-E2E", "exact_counts": true})
	if out["total_matches"] != 0.0 {
		t.Errorf("search found the secret (through .env or the swapped symlink): %v", out)
	}
	if out, isErr := p.tool(transport.Line, "view", map[string]any{"agent_id": "h", "file_path": "backend/session.py"}); !isErr {
		t.Errorf("view followed the symlink out: %v", out)
	}
	out, isErr := p.tool(transport.Line, "activate", map[string]any{"agent_id": strings.Repeat("x", 1<<20), "query": "q"})
	if !isErr || !strings.Contains(out["error"].(string), "limit") {
		t.Errorf("a 1 MiB agent_id: %v", out)
	}
	if h, isErr := p.tool(transport.Line, "health", map[string]any{"agent_id": "h"}); isErr || h["node_count"] == 0.0 {
		t.Errorf("health after the hostile calls: %v", h)
	}
	p.closeAndWait()
}
