package toolset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestSearchAfterSymlinkSwap: a file that became a symlink to a secret
// outside the roots after the first search (a checkout, a hostile tree)
// is not read by search — cached or not — nor by view.
func TestSearchAfterSymlinkSwap(t *testing.T) {
	t.Parallel()
	d, root := tooltest.IngestedFixture(t)
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
	first := tooltest.MustCall(t, d, "search", a(map[string]any{"query": "SessionStore", "exact_counts": true}))
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
		out := tooltest.MustCall(t, d, "search", a(map[string]any{"query": "TOPSECRET", "mode": mode, "exact_counts": true}))
		if out["content_matches"].(float64) != 0 {
			t.Errorf("%s search read the file outside the roots: %v", mode, out)
		}
	}
	if out, isErr := tooltest.Call(t, d, "view", a(map[string]any{"file_path": "backend/session.py"})); !isErr {
		t.Errorf("view followed the swapped symlink: %v", out)
	}
}

// TestViewDoesNotIndexSecrets: viewing .env shows it (the agent asked) but
// does not put it into the graph, so search cannot find it afterwards.
func TestViewDoesNotIndexSecrets(t *testing.T) {
	t.Parallel()
	d, root := tooltest.IngestedFixture(t)
	if err := os.WriteFile(filepath.Join(root, ".env"), []byte("API_KEY=TOPSECRET123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := tooltest.MustCall(t, d, "view", map[string]any{"agent_id": "t", "file_path": ".env"})
	if out["auto_ingested"] == true || out["in_graph"] == true {
		t.Fatalf("view indexed .env: %v", out)
	}
	if msg, _ := out["auto_ingest_error"].(string); !strings.Contains(msg, "credentials") {
		t.Errorf("auto_ingest_error = %q, want the reason", msg)
	}
	s := tooltest.MustCall(t, d, "search", map[string]any{"agent_id": "t", "query": "TOPSECRET123", "exact_counts": true})
	if s["total_matches"].(float64) != 0 {
		t.Errorf("search found the secret: %v", s)
	}
}

// TestIngestOutsideAllowedRoots: ingest refuses a directory outside the
// allowed roots, says how to allow it, and changes nothing.
func TestIngestOutsideAllowedRoots(t *testing.T) {
	t.Parallel()
	allowed := t.TempDir()
	cfg := session.DefaultConfig()
	cfg.AllowRoots = []string{allowed}
	st, err := session.Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d := &tools.Dispatcher{Registry: Builtin(), Session: st}
	out, isErr := tooltest.Call(t, d, "ingest", map[string]any{"agent_id": "t", "path": "/etc"})
	if !isErr || !strings.Contains(out["hint"].(string), "--allow-root") {
		t.Fatalf("ingest /etc: %v", out)
	}
	if n := st.Current().Graph.NumNodes(); n != 0 {
		t.Errorf("a refused ingest left %d nodes", n)
	}
	if out, isErr := tooltest.Call(t, d, "view", map[string]any{"agent_id": "t", "file_path": "/etc/passwd"}); !isErr {
		t.Errorf("view /etc/passwd: %v", out)
	}
}

// TestArgumentBounds: oversized strings and arrays, and agent ids that
// are huge or carry control characters, are refused before any handler
// runs, with the limit named — for every tool.
func TestArgumentBounds(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	huge := strings.Repeat("session ", tools.DefaultMaxStringLen/8+1)
	cases := []struct {
		name string
		tool string
		args map[string]any
		want string
	}{
		{"query over 8 KiB", "learn", map[string]any{"agent_id": "t", "query": huge, "feedback": "correct", "node_ids": []string{"backend/auth.py"}}, "over the limit"},
		{"missing query", "missing", map[string]any{"agent_id": "t", "query": huge}, "over the limit"},
		{"agent_id of 10 KB", "health", map[string]any{"agent_id": strings.Repeat("a", 10<<10)}, "over the limit of 128"},
		{"agent_id with a newline", "health", map[string]any{"agent_id": "a\nb"}, "control characters"},
		{"5,000 node ids", "learn", map[string]any{"agent_id": "t", "query": "q", "feedback": "wrong", "node_ids": make([]string, 5000)}, "items"},
	}
	for _, c := range cases {
		out, isErr := tooltest.Call(t, d, c.tool, c.args)
		if !isErr || !strings.Contains(out["error"].(string), c.want) || out["hint"] == "" {
			t.Errorf("%s: %v", c.name, out)
		}
	}
	// Every registered tool applies the bound to its string parameters.
	for _, tool := range d.Registry.All() {
		for _, p := range tool.Params {
			if p.Type != tools.String || len(p.Enum) > 0 {
				continue
			}
			max := p.MaxLen
			if max == 0 {
				max = tools.DefaultMaxStringLen
			}
			args := map[string]any{}
			for k, v := range tool.Example {
				args[k] = v
			}
			args[p.Name] = strings.Repeat("x", max+1)
			out, isErr := tooltest.Call(t, d, tool.Name, args)
			if !isErr || !strings.Contains(out["error"].(string), "over the limit") {
				t.Errorf("%s.%s accepted %d bytes: %v", tool.Name, p.Name, max+1, out)
			}
		}
	}
}

// TestCallsHaveABudget: every call runs under a deadline — a read tool's
// shorter than an ingest's — so no call can hold the server without end.
func TestCallsHaveABudget(t *testing.T) {
	t.Parallel()
	r := Builtin()
	var seen time.Duration
	tools.Add(r, tools.Tool{Name: "zz_probe", Title: "probe", Description: "test probe", Class: tools.Read, Example: map[string]any{"agent_id": "t"}},
		func(c *tools.Call, _ struct{}) (struct{}, error) {
			dl, ok := c.Ctx.Deadline()
			if !ok {
				return struct{}{}, tools.Errorf("", "no deadline")
			}
			seen = time.Until(dl)
			return struct{}{}, nil
		})
	d := &tools.Dispatcher{Registry: r, Session: tooltest.NewDispatcher(t, tooltest.SessionConfigMemory()).Session}
	tooltest.MustCall(t, d, "zz_probe", map[string]any{"agent_id": "t"})
	if seen <= 0 || seen > tools.ReadBudget {
		t.Errorf("read call deadline in %v, want within %v", seen, tools.ReadBudget)
	}
	if tools.CallBudget(&tools.Tool{Class: tools.Exclusive}) <= tools.ReadBudget {
		t.Error("an ingest gets no more time than a read")
	}
}

// TestViewHugeOffset: an offset past any file is refused, not turned into
// negative line numbers.
func TestViewHugeOffset(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	out, isErr := tooltest.Call(t, d, "view", map[string]any{"agent_id": "t", "file_path": "backend/auth.py", "offset": 9.3e18})
	if !isErr || !strings.Contains(out["error"].(string), "offset") {
		t.Errorf("offset 2^63: %v", out)
	}
}
