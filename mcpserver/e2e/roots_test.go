package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

// healthOf starts a server with args, reads health and stops it.
func healthOf(t *testing.T, args ...string) map[string]any {
	t.Helper()
	p := start(t, nil, args...)
	p.initialize(transport.Line)
	h, _ := p.tool(transport.Line, "health", map[string]any{"agent_id": "check"})
	if err := p.closeAndWait(); err != nil {
		t.Fatalf("server exit: %v (stderr: %s)", err, p.stderr.String())
	}
	return h
}

func rootPaths(h map[string]any) []string {
	var out []string
	for _, r := range h["ingest_roots"].([]any) {
		out = append(out, r.(map[string]any)["path"].(string))
	}
	return out
}

// The wrong-repository trap: --ingest names the repository to serve, even
// when the runtime directory holds another one's graph.
func TestIngestFlagWinsOverAnotherRepositorysSnapshot(t *testing.T) {
	a, b := fixture.Write(t), frozenCopy(t, filepath.Join(repoRoot(t), "core", "seed"))
	rt := t.TempDir()
	ha := healthOf(t, "--runtime-dir", rt, "--ingest", a)
	if got := rootPaths(ha); !slices.Equal(got, []string{a}) {
		t.Fatalf("first start serves %v, want %s", got, a)
	}
	hb := healthOf(t, "--runtime-dir", rt, "--ingest", b)
	if got := rootPaths(hb); !slices.Equal(got, []string{b}) || hb["node_count"] == ha["node_count"] {
		t.Fatalf("second start with --ingest %s serves %v (%v nodes; A had %v)", b, got, hb["node_count"], ha["node_count"])
	}
	// Without --ingest the saved graph is served as it is.
	if got := rootPaths(healthOf(t, "--runtime-dir", rt)); !slices.Equal(got, []string{b}) {
		t.Fatalf("restart without --ingest serves %v, want %s", got, b)
	}
}

// Files deleted, rewritten or added while the server was down are named
// in health and flagged in answers that return them; --ingest refreshes.
func TestFilesChangedWhileDownAreFlaggedThenRefreshed(t *testing.T) {
	repo := fixture.Write(t)
	rt := t.TempDir()
	healthOf(t, "--runtime-dir", rt, "--ingest", repo)

	os.Remove(filepath.Join(repo, "backend", "payments.py"))
	os.WriteFile(filepath.Join(repo, "backend", "auth.py"), []byte("def login():\n    return None\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "backend", "audit.py"), []byte("def record(event):\n    return event\n"), 0o644)

	p := start(t, nil, "--runtime-dir", rt)
	p.initialize(transport.Line)
	h, _ := p.tool(transport.Line, "health", map[string]any{"agent_id": "check"})
	disk := h["files_on_disk"].(map[string]any)
	for key, want := range map[string]string{"modified": "file::backend/auth.py", "deleted": "file::backend/payments.py", "added": "file::backend/audit.py"} {
		if list, _ := disk[key].([]any); !slices.Contains(list, any(want)) {
			t.Errorf("health files_on_disk.%s = %v, want it to name %s", key, disk[key], want)
		}
	}
	if !strings.Contains(strings.Join(toStrings(h["warnings"]), " "), "changed on disk") || h["next_suggested_tool"] != "ingest" {
		t.Errorf("health does not warn about the changed files: %v / next %v", h["warnings"], h["next_suggested_tool"])
	}
	g, _ := p.tool(transport.Line, "glob", map[string]any{"agent_id": "check", "pattern": "backend/*.py"})
	stale, _ := g["stale_files"].(map[string]any)
	if stale == nil || !slices.Contains(stale["files"].([]any), any("file::backend/payments.py")) {
		t.Errorf("glob returned the deleted file without flagging it: %v", g)
	}
	p.closeAndWait()

	h2 := healthOf(t, "--runtime-dir", rt, "--ingest", repo)
	if disk := h2["files_on_disk"].(map[string]any); disk["stale"] != false {
		t.Fatalf("after --ingest the graph is still stale: %v", disk)
	}
	p = start(t, nil, "--runtime-dir", rt)
	p.initialize(transport.Line)
	g, _ = p.tool(transport.Line, "glob", map[string]any{"agent_id": "check", "pattern": "backend/*.py"})
	text := toJSON(g)
	if strings.Contains(text, "payments.py") || !strings.Contains(text, "audit.py") || g["stale_files"] != nil {
		t.Errorf("after the refresh glob answers %s", text)
	}
	p.closeAndWait()
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// A client that offers roots (MCP roots/list) and works elsewhere than the
// graph's root is told so by health.
func TestHealthWarnsWhenTheClientWorksElsewhere(t *testing.T) {
	repo, other := fixture.Write(t), t.TempDir()
	p := start(t, nil, "--ingest", repo)
	p.send(transport.Line, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{"roots": map[string]any{"listChanged": true}},
		"clientInfo": map[string]any{"name": "e2e", "version": "1"},
	}})
	if m, _ := p.recv(); m["id"] != float64(1) {
		t.Fatalf("initialize answer: %v", m)
	}
	p.send(transport.Line, map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	m, _ := p.recv()
	if m["method"] != "roots/list" {
		t.Fatalf("server did not ask for roots: %v", m)
	}
	p.send(transport.Line, map[string]any{"jsonrpc": "2.0", "id": m["id"], "result": map[string]any{
		"roots": []any{map[string]any{"uri": "file://" + other, "name": "other"}},
	}})
	// The roots arrive asynchronously: ask until health has them.
	p.nextID = 10
	for i := 0; ; i++ {
		h, _ := p.tool(transport.Line, "health", map[string]any{"agent_id": "check"})
		if strings.Contains(strings.Join(toStrings(h["warnings"]), " "), "your client works in "+other) {
			break
		}
		if i == 200 {
			t.Fatalf("health never warned about the client's root %s: %v", other, h["warnings"])
		}
	}
	p.closeAndWait()
}
