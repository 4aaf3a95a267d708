package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

var servingOn = regexp.MustCompile(`serving HTTP on (http://[0-9.]+:[0-9]+)`)

// httpURL waits for a serve-mode server to say where it listens.
func httpURL(t *testing.T, p *proc) string {
	t.Helper()
	for range 600 { // hang guard only: the address is logged before the graph is served
		if m := servingOn.FindStringSubmatch(p.stderr.String()); m != nil {
			return m[1]
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no HTTP address logged: %s", p.stderr.String())
	return ""
}

// rest calls a tool through POST /api/tools/{name}.
func rest(t *testing.T, base, name, body string) map[string]any {
	t.Helper()
	resp, err := http.Post(base+"/api/tools/"+name, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if resp.StatusCode != 200 || json.Unmarshal(b, &out) != nil {
		t.Fatalf("%s: %d %s", name, resp.StatusCode, b)
	}
	return out
}

// --serve --stdio: a stdio client and an HTTP client share one graph and
// its learning — what one learns moves the other's answer; the official
// TypeScript SDK connects by URL (StreamableHTTPClientTransport).
func TestServeModeSharesTheGraph(t *testing.T) {
	repo := fixture.Write(t)
	eventLog := filepath.Join(t.TempDir(), "events.jsonl")
	p := start(t, nil, "--serve", "--stdio", "--port", "0", "--runtime-dir", t.TempDir(), "--ingest", repo, "--event-log", eventLog)
	p.initialize(transport.Line)
	base := httpURL(t, p)

	q := map[string]any{"agent_id": "a", "query": "session expiry", "top_k": 10}
	first := func(out map[string]any) string {
		return out["activated"].([]any)[0].(map[string]any)["node_id"].(string)
	}
	qs, _ := json.Marshal(q)
	top := first(rest(t, base, "activate", string(qs)))
	if got, _ := p.tool(transport.Line, "activate", q); first(got) != top {
		t.Fatalf("stdio and HTTP disagree before learning: %s vs %s", first(got), top)
	}
	for range 3 {
		if _, isErr := p.tool(transport.Line, "learn", map[string]any{"agent_id": "a", "query": q["query"], "feedback": "wrong", "node_ids": []string{top}, "strength": 1}); isErr {
			t.Fatal("learn failed")
		}
	}
	if after := first(rest(t, base, "activate", string(qs))); after == top {
		t.Errorf("the HTTP client does not see what the stdio client learned: %s still first", top)
	}
	// --event-log holds the calls of both transports.
	logged, _ := os.ReadFile(eventLog)
	for _, want := range []string{`"transport":"rest"`, `"transport":"mcp"`, `"tool":"learn"`} {
		if !strings.Contains(string(logged), want) {
			t.Errorf("--event-log lacks %s:\n%s", want, logged)
		}
	}

	out := runNode(t, npmClient(t, "@modelcontextprotocol/sdk"), nil, "http.mjs", base+"/mcp")
	var sum struct {
		Server    map[string]any `json:"server"`
		ToolCount int            `json:"tool_count"`
		SeekTop   []string       `json:"seek_top"`
		BadIsErr  bool           `json:"bad_call_is_error"`
	}
	if err := json.Unmarshal(out, &sum); err != nil {
		t.Fatalf("client output %q: %v", out, err)
	}
	if sum.Server["name"] != "m1nd-mcp" || sum.ToolCount < 40 || !sum.BadIsErr || !slices.ContainsFunc(sum.SeekTop, func(id string) bool { return strings.Contains(id, "backend/crypto.py") }) {
		t.Errorf("TypeScript SDK over HTTP: %s", out)
	}
	if err := p.closeAndWait(); err != nil {
		t.Errorf("exit: %v (stderr: %s)", err, p.stderr.String())
	}
}

// --serve alone serves HTTP until stopped; a non-loopback bind without a
// token is refused before anything opens.
func TestServeModeFlags(t *testing.T) {
	p := start(t, nil, "--serve", "--bind", "0.0.0.0", "--port", "0")
	if err := p.cmd.Wait(); err == nil || !strings.Contains(p.stderr.String(), "token") {
		t.Errorf("0.0.0.0 without a token: %v, %s", err, p.stderr.String())
	}
	p = start(t, nil, "--port", "1337")
	if err := p.cmd.Wait(); err == nil || !strings.Contains(p.stderr.String(), "--serve") {
		t.Errorf("--port without --serve: %v, %s", err, p.stderr.String())
	}
	p = start(t, nil, "--serve", "--port", "0", "--runtime-dir", t.TempDir())
	base := httpURL(t, p)
	if out := rest(t, base, "health", "{}"); out["node_count"] == nil {
		t.Errorf("health over HTTP: %v", out)
	}
	p.in.Close() // stdin is not the client in HTTP-only mode
	time.Sleep(200 * time.Millisecond)
	if out := rest(t, base, "health", "{}"); out["node_count"] == nil {
		t.Errorf("after stdin closed: %v", out)
	}
	p.cmd.Process.Signal(os.Interrupt)
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("SIGINT: %v (stderr: %s)", err, p.stderr.String())
	}
}
