package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

// Two repositories merged into one graph through the real binary: files
// with the same path stay two (namespaced), each resolves to its own
// root, nodes are accepted by absolute path, answers are compact JSON, and
// query memory outlives a restart.
func TestMergedRootsThroughTheBinary(t *testing.T) {
	a := fixture.Write(t)
	b := filepath.Join(t.TempDir(), "billing")
	os.MkdirAll(filepath.Join(b, "backend"), 0o755)
	os.WriteFile(filepath.Join(b, "README.md"), []byte("# Billing\n\nInvoices and refunds.\n"), 0o644)
	os.WriteFile(filepath.Join(b, "backend", "auth.py"), []byte("def sign_invoice(invoice):\n    return invoice\n"), 0o644)
	rt := t.TempDir()

	p := start(t, nil, "--runtime-dir", rt, "--ingest", a)
	p.initialize(transport.Line)
	if _, isErr := p.tool(transport.Line, "ingest", map[string]any{"agent_id": "e2e", "path": b, "mode": "merge"}); isErr {
		t.Fatal("merge failed")
	}
	nsA := filepath.Base(a)
	for ns, want := range map[string]string{nsA: "Fixture backend", "billing": "Invoices and refunds"} {
		v, isErr := p.tool(transport.Line, "view", map[string]any{"agent_id": "e2e", "file_path": ns + "/README.md"})
		if isErr || !strings.Contains(toJSON(v), want) {
			t.Errorf("view %s/README.md: %v", ns, v)
		}
	}
	im, isErr := p.tool(transport.Line, "impact", map[string]any{"agent_id": "e2e", "node_id": filepath.Join(a, "backend", "session.py")})
	if isErr || !strings.Contains(toJSON(im), nsA+"::file::backend/auth.py") {
		t.Errorf("impact by absolute path: %v", im)
	}
	p.tool(transport.Line, "activate", map[string]any{"agent_id": "e2e", "query": "session login"})

	// The raw text of an answer is compact JSON.
	p.nextID++
	p.send(transport.Line, map[string]any{"jsonrpc": "2.0", "id": p.nextID, "method": "tools/call", "params": map[string]any{"name": "health", "arguments": map[string]any{"agent_id": "e2e"}}})
	raw, _ := p.recv()
	text := raw["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string)
	if strings.Contains(text, "\n") || regexp.MustCompile(`": `).MatchString(text) {
		t.Errorf("answer text is not compact JSON: %.200s", text)
	}
	if err := p.closeAndWait(); err != nil {
		t.Fatal(err)
	}

	r := start(t, nil, "--runtime-dir", rt)
	r.initialize(transport.Line)
	h, _ := r.tool(transport.Line, "health", map[string]any{"agent_id": "e2e"})
	qm := h["plasticity"].(map[string]any)["query_memory"].(map[string]any)
	if qm["records"].(float64) < 1 {
		t.Errorf("query memory did not survive the restart: %v", qm)
	}
	if roots := h["ingest_roots"].([]any); len(roots) != 2 {
		t.Errorf("after the restart %d roots, want 2: %v", len(roots), roots)
	}
	r.closeAndWait()
}

// What the binary tells a client — instructions, tool descriptions and
// schemas — names no tool it does not serve.
func TestGuidanceThroughTheBinary(t *testing.T) {
	p := start(t, nil)
	init := p.initialize(transport.Line)
	list := p.request(transport.Line, "tools/list", map[string]any{})
	text := toJSON(init) + toJSON(list)
	served := map[string]bool{}
	for _, tl := range list["result"].(map[string]any)["tools"].([]any) {
		served[tl.(map[string]any)["name"].(string)] = true
	}
	for _, name := range []string{"batch_view", "validate_plan", "surgical_context", "perspective_start", "trail_save", "lock_create", "predict", "apply_batch", "counterfactual"} {
		if !served[name] && regexp.MustCompile(`\b`+name+`\b`).MatchString(text) {
			t.Errorf("the server names %s, which it does not serve", name)
		}
	}
	p.closeAndWait()
}
