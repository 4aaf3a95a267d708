package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Add declares a tool in its one typed form: its arguments decode into In,
// its answer is Out. Everything else a client or a person sees is derived
// from these two types — the input schema and the checks the dispatcher
// makes before run is called (from In's fields and tags, see paramsOf),
// the output schema (from Out), help, the generated docs and the CLI's
// flags. No parameter is written twice and no handler reads an argument
// by name (docs/design.md#declaring-a-tool).
//
// meta carries what the types cannot say: name, title, descriptions,
// class, hints, guidance and an example. Its Params, Input, Output and
// Run must be empty.
func Add[In, Out any](r *Registry, meta Tool, run func(*Call, In) (Out, error)) {
	if meta.Params != nil || meta.Input != nil || meta.Output != nil || meta.Run != nil {
		panic("tools: " + meta.Name + ": Add derives Params, Input, Output and Run; declare only the meta")
	}
	in := reflect.TypeFor[In]()
	params, err := paramsOf(in)
	if err != nil {
		panic("tools: " + meta.Name + ": " + err.Error())
	}
	meta.Params, meta.Input, meta.Output = params, in, reflect.TypeFor[Out]()
	meta.Run = func(c *Call) (any, error) {
		var v In
		if err := c.Bind(&v); err != nil {
			return nil, err
		}
		out, err := run(c, v)
		if err != nil {
			return nil, err
		}
		return out, nil
	}
	r.register(&meta)
}

// paramsOf derives a tool's parameters from its input struct, in field
// order (embedded structs are flattened in place). Each exported field
// with a JSON name is a parameter:
//
//	Query string `json:"query" jsonschema:"what the code does" tool:"required,maxlen=65536"`
//	TopK  int    `json:"top_k" jsonschema:"how many results" tool:"default=10,min=1,max=100"`
//
// A help tag holds the long form of the description, for help and the
// docs (the input schema every agent receives carries the short one).
// The JSON type follows the Go type (string, integer for int kinds,
// number for floats, boolean, string[] for []string, object[] for a slice
// of structs or maps, object for a struct or map, any JSON value for
// json.RawMessage or any); a pointer marks a parameter whose absence the
// handler tells from its zero value. The jsonschema tag is the
// description (as the go-sdk reads it); the tool tag holds the rest,
// comma-separated: required, default=V, min=N, max=N, enum=a|b|c,
// maxlen=N (bytes of a string, or of each string of an array),
// maxitems=N. A []string default or enum lists its items with '|'.
func paramsOf(t reflect.Type) ([]Param, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("input type %s is not a struct", t)
	}
	var out []Param
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			inner, err := paramsOf(f.Type)
			if err != nil {
				return nil, err
			}
			out = append(out, inner...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || name == "" {
			continue
		}
		if name == AgentIDParam.Name {
			return nil, fmt.Errorf("%s: agent_id is added to every tool; do not declare it", t)
		}
		p := Param{Name: name, Description: f.Tag.Get("jsonschema"), Help: f.Tag.Get("help")}
		var err error
		if p.Type, err = jsonTypeOf(f.Type); err != nil {
			return nil, fmt.Errorf("%s.%s: %w", t, f.Name, err)
		}
		if err := p.applyTag(f.Tag.Get("tool")); err != nil {
			return nil, fmt.Errorf("%s.%s: %w", t, f.Name, err)
		}
		out = append(out, p)
	}
	return out, nil
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// jsonTypeOf is the parameter type of a Go field type.
func jsonTypeOf(t reflect.Type) (Type, error) {
	if t == rawMessageType || t.Kind() == reflect.Interface {
		return Any, nil
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return String, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return Integer, nil
	case reflect.Float32, reflect.Float64:
		return Number, nil
	case reflect.Bool:
		return Boolean, nil
	case reflect.Struct, reflect.Map:
		return Object, nil
	case reflect.Slice:
		e := t.Elem()
		if e.Kind() == reflect.Pointer {
			e = e.Elem()
		}
		switch e.Kind() {
		case reflect.String:
			return StringArray, nil
		case reflect.Struct, reflect.Map:
			return ObjectArray, nil
		}
	}
	return "", fmt.Errorf("type %s has no parameter type (string, int, float64, bool, []string, a struct, a slice of structs, json.RawMessage)", t)
}

// applyTag reads a field's tool tag into p.
func (p *Param) applyTag(tag string) error {
	if tag == "" {
		return nil
	}
	for _, item := range strings.Split(tag, ",") {
		key, val, hasVal := strings.Cut(strings.TrimSpace(item), "=")
		num := func() (float64, error) {
			f, err := strconv.ParseFloat(val, 64)
			if err != nil || !hasVal {
				return 0, fmt.Errorf("tool tag %s=%q is not a number", key, val)
			}
			return f, nil
		}
		switch key {
		case "required":
			p.Required = true
		case "default":
			d, err := p.parseDefault(val)
			if err != nil {
				return err
			}
			p.Default = d
		case "min", "max":
			f, err := num()
			if err != nil {
				return err
			}
			if key == "min" {
				p.Min = Bound(f)
			} else {
				p.Max = Bound(f)
			}
		case "maxlen", "maxitems":
			f, err := num()
			if err != nil || f < 1 || f != float64(int(f)) {
				return fmt.Errorf("tool tag %s=%q is not a positive whole number", key, val)
			}
			if key == "maxlen" {
				p.MaxLen = int(f)
			} else {
				p.MaxItems = int(f)
			}
		case "enum":
			p.Enum = strings.Split(val, "|")
		default:
			return fmt.Errorf("tool tag has an unknown key %q (required, default, min, max, enum, maxlen, maxitems)", key)
		}
	}
	return nil
}

// parseDefault reads a default written in a tag, in the parameter's type.
func (p *Param) parseDefault(v string) (any, error) {
	switch p.Type {
	case String:
		return v, nil
	case Integer:
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("default %q of integer %s: %w", v, p.Name, err)
		}
		return n, nil
	case Number:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, fmt.Errorf("default %q of number %s: %w", v, p.Name, err)
		}
		return f, nil
	case Boolean:
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("default %q of boolean %s: %w", v, p.Name, err)
		}
		return b, nil
	case StringArray:
		if v == "" {
			return []string{}, nil
		}
		return strings.Split(v, "|"), nil
	}
	return nil, fmt.Errorf("parameter %s of type %s takes no default in a tag", p.Name, p.Type)
}

// ParamsOf derives the parameters of an input struct type as Add does (a
// test holds every registered tool to it).
func ParamsOf(in reflect.Type) ([]Param, error) { return paramsOf(in) }
