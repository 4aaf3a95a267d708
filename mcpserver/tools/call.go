package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// Progress reports long work (ingest, batches) to the client when it asked
// for progress notifications; calling it is always safe.
type Progress func(done, total float64, message string)

// Call is one validated invocation of a tool.
type Call struct {
	Ctx      context.Context
	Tool     *Tool
	AgentID  string
	Session  *session.State
	Progress Progress
	// Registry is the registry the tool was dispatched from (for guidance
	// that must only name tools this build serves).
	Registry *Registry
	// args are the checked arguments; only Bind reads them, into the
	// tool's input struct (no handler reads an argument by name).
	args map[string]json.RawMessage
}

// parseArgs validates raw arguments against the tool's declaration.
func parseArgs(t *Tool, raw json.RawMessage) (map[string]json.RawMessage, *Error) {
	args := map[string]json.RawMessage{}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && !bytes.Equal(trimmed, []byte("null")) {
		if trimmed[0] != '{' {
			return nil, Errorf("Tool arguments are a JSON object of named parameters.", "arguments must be a JSON object, got %s", Clip(string(trimmed)))
		}
		if err := json.Unmarshal(trimmed, &args); err != nil {
			return nil, Errorf("Tool arguments are a JSON object of named parameters.", "arguments are not valid JSON: %v", err)
		}
	}
	for k, v := range args {
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			delete(args, k)
		}
	}
	if err := unknownArgs(t, args); err != nil {
		return nil, err
	}
	for _, p := range t.AllParams() {
		v, ok := args[p.Name]
		if !ok {
			if p.Required {
				return nil, missing(t, p)
			}
			continue
		}
		if err := checkType(p, v); err != nil {
			return nil, err
		}
	}
	return args, nil
}

// unknownArgs refuses a parameter the tool does not declare: a typo such
// as "topk" would otherwise be dropped and the call answered with the
// default, as if the caller had asked for it.
func unknownArgs(t *Tool, args map[string]json.RawMessage) *Error {
	var bad []string
	for k := range args {
		if _, ok := t.Param(k); !ok {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	slices.Sort(bad)
	var names []string
	for _, p := range t.AllParams() {
		names = append(names, p.Name)
	}
	hint := fmt.Sprintf("%s takes: %s.", t.Name, strings.Join(names, ", "))
	if near := nearestParam(names, bad[0]); near != "" {
		hint = fmt.Sprintf("Did you mean %q? ", near) + hint
	}
	e := Errorf(hint, "unknown parameter %q for %s", bad[0], t.Name)
	if len(bad) > 1 {
		e.Message = fmt.Sprintf("unknown parameters %s for %s", strings.Join(quoteAll(bad), ", "), t.Name)
	}
	return e
}

// nearestParam is the declared name a mistyped one most likely meant: the
// same letters without separators or case, or at most two edits away.
func nearestParam(names []string, bad string) string {
	squash := func(s string) string { return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(s)) }
	best, bestD := "", 3
	for _, n := range names {
		if squash(n) == squash(bad) {
			return n
		}
		if d := EditDistance(n, bad); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

func missing(t *Tool, p Param) *Error {
	e := Errorf(fmt.Sprintf("%s (%s) is required: %s", p.Name, p.Type, p.Doc()), "missing required parameter %q for %s", p.Name, t.Name)
	if p.Name == "agent_id" {
		e.Hint = "Every m1nd tool needs agent_id, a free-form name for the calling agent, e.g. \"agent_id\": \"claude\"."
	}
	return e
}

func Clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

func typeErr(p Param, v json.RawMessage) *Error {
	want := string(p.Type)
	switch p.Type {
	case StringArray:
		want = "an array of strings"
	case ObjectArray:
		want = "an array of objects"
	}
	return Errorf(fmt.Sprintf("%s: %s", p.Name, p.Doc()), "parameter %q must be %s, got %s", p.Name, want, Clip(string(v)))
}

func checkType(p Param, v json.RawMessage) *Error {
	v = bytes.TrimSpace(v)
	switch p.Type {
	case String:
		var s string
		if json.Unmarshal(v, &s) != nil {
			return typeErr(p, v)
		}
		if err := checkLen(p, s); err != nil {
			return err
		}
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, s) {
			return Errorf(fmt.Sprintf("%s: %s", p.Name, p.Doc()), "parameter %q must be one of %s, got %q", p.Name, strings.Join(p.Enum, ", "), s)
		}
	case Integer, Number:
		var f float64
		if json.Unmarshal(v, &f) != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return typeErr(p, v)
		}
		if p.Type == Integer && f != math.Trunc(f) {
			return Errorf(fmt.Sprintf("%s: %s", p.Name, p.Doc()), "parameter %q must be a whole number, got %v", p.Name, f)
		}
		if p.Min != nil && f < *p.Min {
			return Errorf(fmt.Sprintf("%s: %s", p.Name, p.Doc()), "parameter %q must be >= %v, got %v", p.Name, *p.Min, f)
		}
		if p.Max != nil && f > *p.Max {
			return Errorf(fmt.Sprintf("%s: %s", p.Name, p.Doc()), "parameter %q must be <= %v, got %v", p.Name, *p.Max, f)
		}
	case Boolean:
		var b bool
		if json.Unmarshal(v, &b) != nil {
			return typeErr(p, v)
		}
	case StringArray:
		var one string
		var many []string
		if json.Unmarshal(v, &one) != nil && json.Unmarshal(v, &many) != nil {
			return typeErr(p, v)
		}
		if max := orDefault(p.MaxItems, DefaultMaxItems); len(many) > max {
			return Errorf(fmt.Sprintf("%s takes at most %d items; split the call.", p.Name, max), "parameter %q has %d items, over the limit of %d", p.Name, len(many), max)
		}
		for _, s := range append(many, one) {
			if err := checkLen(p, s); err != nil {
				return err
			}
		}
		if len(p.Enum) > 0 {
			if many == nil {
				many = []string{one}
			}
			for _, s := range many {
				if !slices.Contains(p.Enum, s) {
					return Errorf(fmt.Sprintf("%s: %s", p.Name, p.Doc()), "parameter %q accepts only %s, got %q", p.Name, strings.Join(p.Enum, ", "), s)
				}
			}
		}
	case ObjectArray:
		var many []map[string]json.RawMessage
		if json.Unmarshal(v, &many) != nil {
			return typeErr(p, v)
		}
		if max := orDefault(p.MaxItems, DefaultMaxItems); len(many) > max {
			return Errorf(fmt.Sprintf("%s takes at most %d items; split the call.", p.Name, max), "parameter %q has %d items, over the limit of %d", p.Name, len(many), max)
		}
	case Object:
		var m map[string]json.RawMessage
		if json.Unmarshal(v, &m) != nil {
			return typeErr(p, v)
		}
	}
	return nil
}

// checkLen refuses a string over the parameter's bound, and an agent_id
// with control characters (it names the agent in responses and state).
func checkLen(p Param, s string) *Error {
	if max := orDefault(p.MaxLen, DefaultMaxStringLen); len(s) > max {
		return Errorf(fmt.Sprintf("%s takes at most %d bytes; shorten it (a query needs its key words, not a whole document).", p.Name, max),
			"parameter %q is %d bytes, over the limit of %d", p.Name, len(s), max)
	}
	if p.Name == AgentIDParam.Name && strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return Errorf("agent_id names the calling agent: printable characters, e.g. \"claude\".", "agent_id contains control characters")
	}
	return nil
}

func orDefault(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// Bound returns a pointer to f for Param.Min / Param.Max.
func Bound(f float64) *float64 { return &f }
