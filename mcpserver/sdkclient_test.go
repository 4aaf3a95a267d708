package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools/toolset"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// connectSDKClient serves d to an in-process go-sdk client over in-memory
// transports, the session forwarding its log messages as serveSession
// does; logs receives what the client is sent.
func connectSDKClient(t *testing.T, d *tools.Dispatcher) (*mcp.ClientSession, chan *mcp.LoggingMessageParams) {
	t.Helper()
	ctx := context.Background()
	log := NewLog(t.Logf)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := NewMCPServer(d, log).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(log.attach(ss))
	logs := make(chan *mcp.LoggingMessageParams, 64)
	client := mcp.NewClient(&mcp.Implementation{Name: "m1nd-sdk-test", Version: "1"}, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			select {
			case logs <- req.Params:
			default:
			}
		},
	})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, logs
}

func sdkDispatcher(t *testing.T) *tools.Dispatcher {
	t.Helper()
	cfg := session.DefaultConfig()
	cfg.AllowRoots = []string{os.TempDir()} // fixtures live there
	cfg.OutputSchemas = true
	st, err := session.Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &tools.Dispatcher{Registry: toolset.Builtin(), Session: st}
}

// The go-sdk client sees what the registry declares: every tool with a
// title, annotations, an object input schema and an output schema; every
// registry example, called on an ingested fixture, answers with
// structuredContent equal to its text and valid against the tool's output
// schema as listed; a failure carries no structuredContent.
func TestSDKClientToolsAndStructuredContent(t *testing.T) {
	d := sdkDispatcher(t)
	cs, _ := connectSDKClient(t, d)
	ctx := context.Background()
	init := cs.InitializeResult()
	if init.Instructions != instructions || !strings.Contains(instructions, "health") {
		t.Errorf("instructions: %q", init.Instructions)
	}
	if init.Capabilities.Logging == nil || init.Capabilities.Tools == nil {
		t.Errorf("capabilities: %+v", init.Capabilities)
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != len(d.Registry.All()) {
		t.Fatalf("tools/list has %d tools, the registry %d", len(list.Tools), len(d.Registry.All()))
	}
	schemas := map[string]*jsonschema.Resolved{}
	for _, lt := range list.Tools {
		schemas[lt.Name] = checkListed(t, d.Registry, lt)
	}
	repo := fixture.Write(t)
	call := func(name string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	call("ingest", map[string]any{"agent_id": "sdk", "path": repo})
	answered := 0
	for _, tool := range d.Registry.All() {
		args := map[string]any{}
		for k, v := range tool.Example {
			args[k] = v
		}
		if tool.Name == "ingest" {
			args["path"] = repo
		}
		res := call(tool.Name, args)
		if res.IsError {
			// Examples that act on state made by an earlier call (a trail,
			// a lock, a preview, an alert) meet none here: they must fail
			// as teaching errors. Their answers are checked against their
			// schemas in package tools, where the state is set up first.
			if res.StructuredContent != nil || !strings.Contains(text(res), `"hint"`) || !strings.Contains(text(res), `"example"`) {
				t.Errorf("%s example failed without teaching: %s", tool.Name, text(res))
			}
			continue
		}
		answered++
		checkStructured(t, tool.Name, res, schemas[tool.Name])
	}
	if n := len(d.Registry.All()); answered < n*2/3 {
		t.Errorf("only %d of %d examples answered on the fixture", answered, n)
	}
	bad := call("activate", map[string]any{"agent_id": "sdk"})
	if !bad.IsError || bad.StructuredContent != nil || !strings.Contains(text(bad), `"hint"`) {
		t.Errorf("a failed call: isError %v, structuredContent %v, text %s", bad.IsError, bad.StructuredContent, text(bad))
	}
}

// checkListed checks one tools/list entry against the registry and returns
// its output schema, resolved.
func checkListed(t *testing.T, r *tools.Registry, lt *mcp.Tool) *jsonschema.Resolved {
	t.Helper()
	tool, ok := r.Lookup(lt.Name)
	if !ok {
		t.Fatalf("tools/list names %s, not in the registry", lt.Name)
	}
	h := tool.Annotations()
	a := lt.Annotations
	switch {
	case lt.Title == "" || lt.Title != tool.Title:
		t.Errorf("%s: title %q", lt.Name, lt.Title)
	case a == nil || a.ReadOnlyHint != h.ReadOnly || a.OpenWorldHint == nil || *a.OpenWorldHint:
		t.Errorf("%s: annotations %+v, registry %+v", lt.Name, a, h)
	case !h.ReadOnly && ((a.DestructiveHint == nil || *a.DestructiveHint) != h.Destructive || a.IdempotentHint != h.Idempotent):
		// A write tool says the hints that differ from MCP's defaults
		// (destructive, not idempotent); an absent destructiveHint means
		// true. A read-only one needs neither.
		t.Errorf("%s: destructive %v, idempotent %v, registry %+v", lt.Name, a.DestructiveHint, a.IdempotentHint, h)
	}
	if in, _ := lt.InputSchema.(map[string]any); in["type"] != "object" {
		t.Errorf("%s: input schema %v", lt.Name, lt.InputSchema)
	}
	raw, _ := json.Marshal(lt.OutputSchema)
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil || s.Type != "object" {
		t.Fatalf("%s: output schema %s: %v", lt.Name, raw, err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: output schema: %v", lt.Name, err)
	}
	return rs
}

// checkStructured: structuredContent is the text's JSON object and is
// valid against the listed schema.
func checkStructured(t *testing.T, name string, res *mcp.CallToolResult, schema *jsonschema.Resolved) {
	t.Helper()
	if res.StructuredContent == nil {
		t.Errorf("%s: no structuredContent", name)
		return
	}
	var fromText any
	if err := json.Unmarshal([]byte(text(res)), &fromText); err != nil {
		t.Fatalf("%s: text is not JSON: %v", name, err)
	}
	if diff := cmp.Diff(fromText, res.StructuredContent); diff != "" {
		t.Errorf("%s: structuredContent differs from the text (-text +structured):\n%s", name, diff)
	}
	if err := schema.Validate(res.StructuredContent); err != nil {
		t.Errorf("%s: structuredContent does not match the output schema: %v", name, err)
	}
}

func text(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

// A client gets log messages once it sets a level, at that level: each
// tool call is logged at debug. The call made before setLevel sends none.
func TestSDKClientLogging(t *testing.T) {
	d := sdkDispatcher(t)
	cs, logs := connectSDKClient(t, d)
	ctx := context.Background()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "help", Arguments: map[string]any{"agent_id": "sdk"}}); err != nil {
		t.Fatal(err)
	}
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "health", Arguments: map[string]any{"agent_id": "sdk"}}); err != nil {
		t.Fatal(err)
	}
	// Delivery is asynchronous; the bound only keeps a broken build from
	// hanging the test, it measures nothing.
	select {
	case m := <-logs:
		data, _ := json.Marshal(m.Data)
		if m.Level != "debug" || m.Logger != "m1nd" || !strings.Contains(string(data), `"tool":"health"`) {
			t.Errorf("first log message: level %s, logger %s, data %s (want the health call's)", m.Level, m.Logger, data)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no log message after logging/setLevel debug")
	}
}
