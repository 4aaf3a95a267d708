package continuity

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/m1nd-go/m1nd/mcpserver/continuity"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type bootMemoryParams struct {
	Action string `json:"action" help:"set, get, list or delete." tool:"required,enum=set|get|list|delete"`
	Key    string `json:"key" jsonschema:"For set, get, delete; e.g. \"task/current\"." help:"The key (required for set, get and delete), e.g. \"doctrine/review-rules\"." tool:"maxlen=128"`
	// Value holds the JSON given (a json.RawMessage; nil when absent), so
	// that the stored value keeps its key order and number spelling.
	Value any `json:"value" jsonschema:"For set." help:"The JSON value to store (set only): string, number, boolean, object or array."`
}

// UnmarshalJSON reads value as the JSON it is, not as Go maps and floats.
func (p *bootMemoryParams) UnmarshalJSON(data []byte) error {
	type fields bootMemoryParams
	var in struct {
		fields
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	*p = bootMemoryParams(in.fields)
	if in.Value != nil {
		p.Value = in.Value
	}
	return nil
}

// raw is the value given, nil when absent.
func (p bootMemoryParams) raw() json.RawMessage {
	v, _ := p.Value.(json.RawMessage)
	return v
}

func registerMemory(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "boot_memory",
		Title:       "Per-agent memory",
		Description: "Per-agent JSON values by key that survive restarts: what your sessions start with.",
		Details: fmt.Sprintf("Keep small canonical hot-state values next to the graph, per agent, surviving restarts: action set stores a JSON value under a key, get reads it, list shows your keys, delete removes one. "+
			"Limits per agent: %d keys, %d KiB per value, %d KiB in all. Keys: letters, digits and . _ - : /. Each agent sees only its own keys. agent_id: 1–64 letters, digits, '-', '_' or '.'.", continuity.MaxMemoryKeys, continuity.MaxMemoryValue>>10, continuity.MaxMemoryBytes>>10),
		Class:     tools.Write,
		WhenToUse: "Facts every session of this agent should start with: conventions, the current task, where work stopped.",
		AvoidWhen: "Investigation state with hypotheses and nodes (trail_save).",
		Next:      []string{"trail_list", "health"},
		Example:   map[string]any{"agent_id": "claude", "action": "set", "key": "task/current", "value": map[string]any{"goal": "harden session expiry", "branch": "fix/session"}},
	}, runBootMemory)
}

type bootMemoryOutput struct {
	Action string `json:"action"`
	Key    string `json:"key,omitempty"`
	// Found (get, delete) says whether the key existed; Existed (set)
	// whether a value was replaced.
	Found     *bool                  `json:"found,omitempty"`
	Existed   *bool                  `json:"existed,omitempty"`
	Value     any                    `json:"value,omitempty" jsonschema:"The stored value (get)."`
	UpdatedMs int64                  `json:"updated_at_ms,omitempty"`
	Keys      []continuity.MemoryKey `json:"keys,omitempty" jsonschema:"Your keys (list), sorted."`
	KeyCount  int                    `json:"key_count"`
	BytesUsed int                    `json:"bytes_used" jsonschema:"Bytes your keys and values take, against bytes_limit."`
	Limit     int                    `json:"bytes_limit"`
	Durable   bool                   `json:"durable" jsonschema:"Values are on disk and survive a restart (false in a memory-only session)."`
	Hint      string                 `json:"next_step_hint,omitempty"`
}

func runBootMemory(c *tools.Call, in bootMemoryParams) (bootMemoryOutput, error) {
	agent, err := contAgent(c)
	if err != nil {
		return bootMemoryOutput{}, err
	}
	value := in.raw()
	in.Key = strings.TrimSpace(in.Key)
	mem := c.Session.Continuity().Memory
	out := bootMemoryOutput{Action: in.Action, Key: in.Key, Limit: continuity.MaxMemoryBytes, Durable: c.Session.Continuity().Persistent()}
	if in.Action != "list" && in.Key == "" {
		return bootMemoryOutput{}, tools.Errorf(fmt.Sprintf("action %q needs key, e.g. \"task/current\"; action \"list\" shows your keys.", in.Action), "key is required for action %q", in.Action).
			WithExample(map[string]any{"agent_id": agent, "action": in.Action, "key": "task/current"})
	}
	if in.Action != "list" {
		if err := continuity.ValidateMemoryKey(in.Key); err != nil {
			return bootMemoryOutput{}, contErr(err)
		}
	}
	if in.Action != "set" && value != nil {
		return bootMemoryOutput{}, tools.Errorf("value is only taken by action \"set\".", "action %q takes no value", in.Action)
	}
	flag := func(b bool) *bool { return &b }
	switch in.Action {
	case "set":
		if value == nil {
			return bootMemoryOutput{}, tools.Errorf("action \"set\" stores value under key: pass any JSON value.", "value is required for action \"set\"").
				WithExample(map[string]any{"agent_id": agent, "action": "set", "key": in.Key, "value": map[string]any{"note": "..."}})
		}
		existed, err := mem.Set(agent, in.Key, value)
		if err != nil {
			return bootMemoryOutput{}, contErr(err)
		}
		out.Existed = flag(existed)
	case "get":
		e, ok := mem.Get(agent, in.Key)
		out.Found = flag(ok)
		if ok {
			out.Value, out.UpdatedMs = e.Value, e.UpdatedMs
		} else {
			out.Hint = "No such key: action \"list\" shows your keys."
		}
	case "delete":
		ok, err := mem.Delete(agent, in.Key)
		if err != nil {
			return bootMemoryOutput{}, contErr(err)
		}
		out.Found = flag(ok)
	case "list":
		out.Keys, _ = mem.List(agent)
	}
	keys, n := mem.List(agent)
	out.KeyCount, out.BytesUsed = len(keys), n
	return out, nil
}
