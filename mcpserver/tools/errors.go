package tools

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// Error is a tool failure that teaches: what was wrong, how to fix it, a
// valid call, and what to do next. Dispatch renders it as the JSON text of
// an isError result.
type Error struct {
	Message string `json:"error"`
	Hint    string `json:"hint,omitempty"`
	// Example is a valid call: {"name": tool, "arguments": {...}}.
	Example           map[string]any `json:"example,omitempty"`
	SuggestedNextStep string         `json:"suggested_next_step,omitempty"`
	// Extra carries tool-specific context (e.g. close matches).
	Extra map[string]any `json:"details,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// Errorf builds an Error with a message and a hint.
func Errorf(hint, format string, args ...any) *Error {
	return &Error{Message: fmt.Sprintf(format, args...), Hint: hint}
}

// WithNext sets the suggested next step.
func (e *Error) WithNext(step string) *Error {
	e.SuggestedNextStep = step
	return e
}

// WithExample sets a valid example call's arguments (the tool name is filled
// in by Dispatch).
func (e *Error) WithExample(args map[string]any) *Error {
	e.Example = map[string]any{"arguments": args}
	return e
}

// WithCall sets an example call of another tool (the call the error
// teaches to make first, such as ingest before a tool that needs its
// graph), so the example's arguments are never shown under the failing
// tool's name.
func (e *Error) WithCall(tool string, args map[string]any) *Error {
	e.Example = map[string]any{"name": tool, "arguments": args}
	return e
}

// asToolError converts any handler error into a teaching Error for tool t.
func asToolError(t *Tool, err error) *Error {
	var te *Error
	if !errors.As(err, &te) {
		te = &Error{Message: err.Error()}
	}
	out := *te
	if out.Example == nil && t != nil && t.Example != nil {
		out.Example = map[string]any{"name": t.Name, "arguments": t.Example}
	} else if out.Example != nil && t != nil {
		if _, ok := out.Example["name"]; !ok {
			ex := map[string]any{"name": t.Name}
			for k, v := range out.Example {
				ex[k] = v
			}
			out.Example = ex
		}
	}
	if testing.Testing() && t != nil {
		mustFitTool(t, out.Example)
	}
	if out.Hint == "" && t != nil {
		out.Hint = fmt.Sprintf("Check the arguments of %s: `help` with tool_name=%q lists its parameters.", t.Name, t.Name)
	}
	if out.SuggestedNextStep == "" && t != nil {
		out.SuggestedNextStep = fmt.Sprintf("Fix the arguments and call %s again.", t.Name)
	}
	return &out
}

// mustFitTool fails a test run whose error example, shown as a call of t,
// passes an argument t does not take: an agent that copies the example
// would be refused (WithCall names the tool an example belongs to).
func mustFitTool(t *Tool, ex map[string]any) {
	if name, _ := ex["name"].(string); name != t.Name {
		return
	}
	args, _ := ex["arguments"].(map[string]any)
	var bad []string
	for k := range args {
		if _, ok := t.Param(k); !ok {
			bad = append(bad, k)
		}
	}
	if len(bad) > 0 {
		slices.Sort(bad)
		panic(fmt.Sprintf("%s's error example passes %v, which %s does not take: use WithCall with the tool they belong to", t.Name, bad, t.Name))
	}
}
