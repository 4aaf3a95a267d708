package toolset

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// wrongValue returns a value of the wrong JSON type for a parameter.
func wrongValue(p tools.Param) any {
	switch p.Type {
	case tools.String:
		return 12345
	case tools.Integer, tools.Number:
		return "not a number"
	case tools.Boolean:
		return "yes"
	case tools.StringArray:
		return 7
	case tools.ObjectArray:
		return "x"
	case tools.Object:
		return []int{1}
	}
	return nil
}

// TestEveryToolRejectsBadInput calls every registered tool with {}, with
// each required parameter missing, and with each parameter of the wrong
// type: each is a teaching error (error + hint), nothing changes, and the
// server still answers health.
func TestEveryToolRejectsBadInput(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	nodes := tooltest.MustCall(t, d, "health", map[string]any{"agent_id": "t"})["node_count"]
	check := func(name string, args map[string]any, why string) {
		t.Helper()
		out, isErr := tooltest.Call(t, d, name, args)
		if !isErr {
			t.Errorf("%s %s: accepted, got %v", name, why, out)
			return
		}
		if out["error"] == "" || out["hint"] == nil || out["hint"] == "" {
			t.Errorf("%s %s: error lacks error/hint: %v", name, why, out)
		}
	}
	for _, tool := range d.Registry.All() {
		check(tool.Name, map[string]any{}, "with {}")
		// A complete, valid-looking argument set from the example.
		base := map[string]any{}
		for k, v := range tool.Example {
			base[k] = v
		}
		base["agent_id"] = "t"
		for _, p := range tool.AllParams() {
			if p.Required {
				args := clone(base)
				delete(args, p.Name)
				check(tool.Name, args, "without "+p.Name)
			}
			if v := wrongValue(p); v != nil {
				args := clone(base)
				args[p.Name] = v
				check(tool.Name, args, fmt.Sprintf("with %s=%v", p.Name, v))
			}
		}
	}
	h := tooltest.MustCall(t, d, "health", map[string]any{"agent_id": "t"})
	if h["node_count"] != nodes {
		t.Errorf("bad input changed the graph: %v -> %v nodes", nodes, h["node_count"])
	}
}

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func TestArgumentsShape(t *testing.T) {
	t.Parallel()
	d := tooltest.NewDispatcher(t, tooltest.SessionConfigMemory())
	for _, raw := range []string{`[1,2]`, `"x"`, `{"agent_id":`, `42`} {
		res := d.Call(context.Background(), "health", json.RawMessage(raw), nil)
		if !res.IsError || !strings.Contains(res.Text(), "arguments") {
			t.Errorf("arguments %s: %s", raw, res.Text())
		}
	}
	// null arguments count as {}: agent_id is missing.
	res := d.Call(context.Background(), "health", json.RawMessage(`null`), nil)
	if !res.IsError || !strings.Contains(res.Text(), "agent_id") {
		t.Errorf("null arguments: %s", res.Text())
	}
	if out, isErr := tooltest.Call(t, d, "health", map[string]any{"agent_id": "   "}); !isErr {
		t.Errorf("blank agent_id accepted: %v", out)
	}
}

func TestToolNames(t *testing.T) {
	t.Parallel()
	d := tooltest.NewDispatcher(t, tooltest.SessionConfigMemory())
	for _, name := range []string{"health", "m1nd.health", "m1nd_health", "M1ND.HEALTH", "mcp__m1nd__health"} {
		if _, isErr := tooltest.Call(t, d, name, map[string]any{"agent_id": "t"}); isErr {
			t.Errorf("%s not accepted", name)
		}
	}
	if d.Registry.Canonical("graph.persist") != "persist" {
		t.Error("legacy dotted alias graph.persist not normalised")
	}
	out, isErr := tooltest.Call(t, d, "actvate", map[string]any{"agent_id": "t"})
	if !isErr || !strings.Contains(fmt.Sprint(out["hint"]), "activate") {
		t.Errorf("unknown tool: %v", out)
	}
	details, _ := out["details"].(map[string]any)
	if cl, _ := details["closest_tools"].([]any); len(cl) == 0 || cl[0] != "activate" {
		t.Errorf("closest tools %v", details)
	}
}

func TestSchemasAreStrictClientFriendly(t *testing.T) {
	t.Parallel()
	for _, tool := range Builtin().All() {
		s := tool.InputSchema()
		if s["type"] != "object" {
			t.Errorf("%s: schema type %v", tool.Name, s["type"])
		}
		props := s["properties"].(map[string]any)
		for name, p := range props {
			ps := p.(map[string]any)
			typ, ok := ps["type"]
			if !ok {
				continue // Any: described, not typed
			}
			if _, isList := typ.([]any); isList {
				t.Errorf("%s.%s: union type %v", tool.Name, name, typ)
			}
			if typ == "array" && ps["items"] == nil {
				t.Errorf("%s.%s: array without items", tool.Name, name)
			}
		}
		req, _ := s["required"].([]string)
		if len(req) == 0 || req[0] != "agent_id" {
			t.Errorf("%s: agent_id not required first: %v", tool.Name, req)
		}
		if tool.Description == "" || tool.Example == nil || tool.WhenToUse == "" {
			t.Errorf("%s: missing description/example/when_to_use", tool.Name)
		}
		// The example must itself be a valid call shape.
		if err := tool.Decode(mustJSON(tool.Example), reflect.New(tool.Input).Interface()); err != nil {
			t.Errorf("%s: example arguments invalid: %v", tool.Name, err)
		}
	}
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// TestHandlerPanicIsContained registers a tool that panics: the caller
// gets an internal-error result and the dispatcher keeps working.
func TestHandlerPanicIsContained(t *testing.T) {
	t.Parallel()
	d := tooltest.NewDispatcher(t, tooltest.SessionConfigMemory())
	tools.Add(d.Registry, tools.Tool{Name: "boom", Title: "boom", Description: "panics", Example: map[string]any{"agent_id": "t"}, WhenToUse: "never"},
		func(*tools.Call, struct{}) (struct{}, error) { panic("kaboom") })
	out, isErr := tooltest.Call(t, d, "boom", map[string]any{"agent_id": "t"})
	if !isErr || !strings.Contains(fmt.Sprint(out["error"]), "kaboom") {
		t.Fatalf("panic result: %v", out)
	}
	tooltest.MustCall(t, d, "health", map[string]any{"agent_id": "t"})
}

// TestConcurrentLoad runs reads, learning and a re-ingest at once (-race).
func TestConcurrentLoad(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	var wg sync.WaitGroup
	queries := []string{"authentication", "session expiry", "payments charge", "password hashing"}
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 6; i++ {
				q := queries[(w+i)%len(queries)]
				switch (w + i) % 5 {
				case 0:
					tooltest.Call(t, d, "activate", map[string]any{"agent_id": fmt.Sprint("a", w), "query": q, "top_k": 5})
				case 1:
					tooltest.Call(t, d, "impact", map[string]any{"agent_id": "b", "node_id": "file::backend/session.py", "direction": "both"})
				case 2:
					tooltest.Call(t, d, "learn", map[string]any{"agent_id": "c", "query": q, "feedback": "correct", "node_ids": []string{"file::backend/auth.py"}})
				case 3:
					tooltest.Call(t, d, "why", map[string]any{"agent_id": "d", "source": "file::backend/payments.py", "target": "file::backend/session.py"})
				default:
					tooltest.Call(t, d, "health", map[string]any{"agent_id": "e"})
				}
			}
		}(w)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		tooltest.Call(t, d, "ingest", map[string]any{"agent_id": "f", "path": dir, "incremental": true})
	}()
	wg.Wait()
	h := tooltest.MustCall(t, d, "health", map[string]any{"agent_id": "t"})
	if h["node_count"].(float64) == 0 {
		t.Fatal("graph lost under load")
	}
	if n := len(h["active_sessions"].([]any)); n < 8 {
		t.Errorf("active_sessions %d, want every agent", n)
	}
}
