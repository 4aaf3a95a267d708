package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/toolset"
)

// TestToolsetsChangeTheList: with the default toolsets tools/list offers
// those families only, without output schemas; the toolsets tool enables
// live, the client is told the list changed, and lists daemon_start; a
// tool that is not listed can still be called.
func TestToolsetsChangeTheList(t *testing.T) {
	cfg := session.DefaultConfig()
	cfg.AllowRoots = []string{os.TempDir()}
	st, err := session.Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	reg := toolset.Builtin()
	enabled, err := toolset.Resolve(reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	st.SetToolsets(enabled)
	d := &tools.Dispatcher{Registry: reg, Session: st}

	ctx := context.Background()
	ct, sst := mcp.NewInMemoryTransports()
	if _, err := NewMCPServer(d, nil).Connect(ctx, sst, nil); err != nil {
		t.Fatal(err)
	}
	changed := make(chan struct{}, 8)
	client := mcp.NewClient(&mcp.Implementation{Name: "toolsets-test", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	names := func() []string {
		t.Helper()
		list, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, lt := range list.Tools {
			if lt.OutputSchema != nil {
				t.Errorf("%s lists an output schema though output_schemas is off", lt.Name)
			}
			out = append(out, lt.Name)
		}
		return out
	}
	before := names()
	for _, want := range []string{"health", "ingest", "seek", "impact", "apply_batch", "learn", "toolsets"} {
		if !slices.Contains(before, want) {
			t.Errorf("the default list lacks %s: %v", want, before)
		}
	}
	for _, not := range []string{"daemon_start", "cross_verify", "document_drift"} {
		if slices.Contains(before, not) {
			t.Errorf("the default list offers %s", not)
		}
	}
	// Not listed, still callable.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "daemon_status", Arguments: map[string]any{"agent_id": "t"}})
	if err != nil || res.IsError {
		t.Fatalf("calling an unlisted tool: %v %v", err, res)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "toolsets", Arguments: map[string]any{"agent_id": "t", "enable": []string{"live"}}})
	if err != nil || res.IsError {
		t.Fatalf("toolsets: %v %v", err, res)
	}
	var out struct {
		Listed  []string `json:"listed"`
		Changed bool     `json:"changed"`
	}
	json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out)
	if !out.Changed || !slices.Contains(out.Listed, "live") {
		t.Fatalf("toolsets answered %+v", out)
	}
	select {
	case <-changed:
	case <-time.After(time.Minute): // hang guard only
		t.Fatal("no notifications/tools/list_changed after enabling live")
	}
	after := names()
	if !slices.Contains(after, "daemon_start") || len(after) <= len(before) {
		t.Fatalf("after enabling live the list has %d tools (before %d), daemon_start listed: %v", len(after), len(before), slices.Contains(after, "daemon_start"))
	}
	// Unknown family: a teaching error, nothing changes.
	res, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "toolsets", Arguments: map[string]any{"agent_id": "t", "enable": []string{"nope"}}})
	if !res.IsError {
		t.Fatalf("an unknown toolset was accepted")
	}
	if got := names(); !slices.Equal(got, after) {
		t.Fatalf("a refused toolsets call changed the list")
	}
}

// TestToolsetsFlagRefusesUnknownNames: --toolsets with a name that is no
// family stops the start with a message naming the families.
func TestToolsetsFlagRefusesUnknownNames(t *testing.T) {
	_, err := toolset.Resolve(toolset.Builtin(), []string{"query", "sharks"})
	if err == nil {
		t.Fatal("unknown toolset accepted")
	}
	for _, want := range []string{"sharks", "query", "all", "--toolsets"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}
