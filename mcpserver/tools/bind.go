package tools

import (
	"encoding/json"
	"fmt"
)

// Bind decodes the call's arguments into v, a pointer to the tool's Input
// struct. Absent parameters take their declared defaults, a lone string
// given for a string array is its one element, and a whole number written
// 3.0 fills an integer field — what Str, Int, Strs and the others do one
// parameter at a time. The arguments were checked against the declaration
// before the handler runs, so an error means the struct and the
// declaration disagree.
func (c *Call) Bind(v any) error {
	vals := make(map[string]any, len(c.Tool.Params))
	for _, p := range c.Tool.Params {
		switch raw, ok := c.args[p.Name]; {
		case ok:
			vals[p.Name] = bindValue(p, raw)
		case p.Default != nil:
			vals[p.Name] = p.Default
		}
	}
	data, err := json.Marshal(vals)
	if err == nil {
		err = json.Unmarshal(data, v)
	}
	if err != nil {
		return &Error{
			Message:           fmt.Sprintf("internal error in %s: its arguments do not decode into %T: %v", c.Tool.Name, v, err),
			Hint:              "This is a bug in m1nd, not in your call.",
			SuggestedNextStep: "Call health to confirm the server state, then try a related tool.",
		}
	}
	return nil
}

// bindValue is a checked argument in the form its Input field decodes.
func bindValue(p Param, raw json.RawMessage) any {
	switch p.Type {
	case Integer:
		var f float64
		if json.Unmarshal(raw, &f) == nil {
			return int64(f)
		}
	case StringArray:
		var one string
		if json.Unmarshal(raw, &one) == nil {
			return []string{one}
		}
	}
	return raw
}

// Decode checks raw arguments against t's declaration, as the dispatcher
// does, and binds them into v, a pointer to t's input struct: what the
// tool's handler would be given. A teaching error when they do not pass.
func (t *Tool) Decode(raw json.RawMessage, v any) error {
	args, err := parseArgs(t, raw)
	if err != nil {
		return err
	}
	return (&Call{Tool: t, args: args}).Bind(v)
}
