package openclaw

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/toolset"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

func newBridge(t *testing.T) *Bridge {
	cfg := session.DefaultConfig()
	cfg.AllowRoots = []string{os.TempDir()} // the fixture lives there
	st, err := session.Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &Bridge{Dispatcher: &tools.Dispatcher{Registry: toolset.Builtin(), Session: st}}
}

func TestHandle(t *testing.T) {
	t.Parallel()
	b := newBridge(t)
	tests := []struct {
		line   string
		ok     bool
		inText string
	}{
		{`{"id":1,"tool":"health","arguments":{}}`, true, `"status"`},
		{`{"id":2,"tool":"m1nd.health"}`, true, `"openclaw"`},
		{`{"id":3,"tool":"health","arguments":{"agent_id":"me"}}`, true, `"me"`},
		{`{"id":4,"tool":"nope"}`, false, "unknown tool"},
		{`{"id":5}`, false, "no tool"},
		{`{"id":6,"tool":"health","arguments":[1]}`, false, "JSON object"},
		{`not json`, false, "invalid request"},
		{`{"id":7,"tool":"impact","arguments":{}}`, false, "node_id"},
	}
	for _, tc := range tests {
		resp := b.Handle(context.Background(), []byte(tc.line))
		body, _ := json.Marshal(resp)
		if resp.OK != tc.ok || !strings.Contains(string(body), tc.inText) {
			t.Errorf("%s → %s", tc.line, body)
		}
	}
}

func FuzzHandle(f *testing.F) {
	f.Add([]byte(`{"id":1,"tool":"health","arguments":{"agent_id":"x"}}`))
	f.Add([]byte(`{"id":[],"tool":{},"arguments":"x"}`))
	f.Add([]byte(`{"id":1e400,"tool":"health","arguments":{"a":` + strings.Repeat("[", 20000) + `}}`))
	cfg := session.DefaultConfig()
	cfg.AllowRoots = []string{os.TempDir()}
	st, err := session.Open(cfg, nil)
	if err != nil {
		f.Fatal(err)
	}
	b := &Bridge{Dispatcher: &tools.Dispatcher{Registry: toolset.Builtin(), Session: st}}
	f.Fuzz(func(t *testing.T, line []byte) {
		resp := b.Handle(context.Background(), line)
		if _, err := json.Marshal(resp); err != nil {
			t.Fatalf("unserialisable response: %v", err)
		}
	})
}
