package toolset

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// FuzzTools calls every registered tool with arguments derived from the
// fuzz input through the real dispatch, on an ingested fixture. A call
// must answer — never panic (the dispatcher recovers, and says "internal
// error": that fails here), never run past its budget — with JSON, and
// every error must carry a hint. The seeds are each tool's example and
// classic hostile values.
func FuzzTools(f *testing.F) {
	dir := fixture.Write(f)
	cfg := session.DefaultConfig()
	cfg.AllowRoots = []string{dir}
	st, err := session.Open(cfg, func(string, ...any) {})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	d := &tools.Dispatcher{Registry: Builtin(), Session: st}
	ingest, _ := json.Marshal(map[string]any{"agent_id": "fuzz", "path": dir})
	if res := d.Call(context.Background(), "ingest", ingest, nil); res.IsError {
		f.Fatal(res.Text())
	}
	toolsList := d.Registry.All()
	for i, t := range toolsList {
		ex, _ := json.Marshal(t.Example)
		f.Add(uint8(i), string(ex))
		for _, p := range t.Params {
			for _, v := range []string{`""`, `null`, `-1`, `1e309`, `"\u0000"`, `[]`, `{}`, `"../../../../etc/passwd"`, `"` + strings.Repeat("a", 300) + `"`, `[[[[[[[[1]]]]]]]]`} {
				f.Add(uint8(i), `{"agent_id":"fuzz","`+p.Name+`":`+v+`}`)
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, args string) {
		tool := toolsList[int(which)%len(toolsList)]
		if tool.Name == "ingest" || tool.Name == "persist" {
			// Writes that replace the graph or touch disk: their argument
			// handling is still exercised, on a path that cannot exist.
			args = strings.ReplaceAll(args, dir, "/nonexistent")
		}
		ctx, cancel := context.WithTimeout(context.Background(), tools.CallBudget(tool)+time.Minute)
		defer cancel()
		res := d.Call(ctx, tool.Name, json.RawMessage(args), nil)
		if ctx.Err() != nil {
			t.Fatalf("%s(%s) ran past its budget", tool.Name, args)
		}
		var out map[string]any
		if err := json.Unmarshal([]byte(res.Text()), &out); err != nil {
			t.Fatalf("%s(%s) answered non-JSON %q", tool.Name, args, res.Text())
		}
		if res.IsError {
			if msg, _ := out["error"].(string); strings.HasPrefix(msg, "internal error") {
				t.Fatalf("%s(%s) panicked: %s", tool.Name, args, msg)
			}
			if h, _ := out["hint"].(string); h == "" {
				t.Fatalf("%s(%s) failed without a hint: %v", tool.Name, args, out)
			}
		}
	})
}
