package tools

// InputSchema returns the tool's JSON Schema: an object with one property
// per parameter. Every property has a concrete type (no `true` schemas, no
// nullable unions), so strict clients accept it.
func (t *Tool) InputSchema() map[string]any {
	props := map[string]any{}
	var required []string
	for _, p := range t.AllParams() {
		props[p.Name] = p.Schema()
		if p.Required {
			required = append(required, p.Name)
		}
	}
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// Schema returns the parameter's JSON Schema.
func (p Param) Schema() map[string]any {
	s := map[string]any{}
	switch p.Type {
	case StringArray:
		s["type"] = "array"
		items := map[string]any{"type": "string", "maxLength": orDefault(p.MaxLen, DefaultMaxStringLen)}
		if len(p.Enum) > 0 {
			items["enum"] = p.Enum
		}
		s["items"] = items
		s["maxItems"] = orDefault(p.MaxItems, DefaultMaxItems)
	case ObjectArray:
		s["type"] = "array"
		s["items"] = map[string]any{"type": "object"}
		s["maxItems"] = orDefault(p.MaxItems, DefaultMaxItems)
	case Any:
		// A value of any JSON type, described rather than typed.
		s["description"] = p.Description + " (any JSON value)"
	default:
		s["type"] = string(p.Type)
		if len(p.Enum) > 0 {
			s["enum"] = p.Enum
		}
		if p.Type == String {
			s["maxLength"] = orDefault(p.MaxLen, DefaultMaxStringLen)
		}
	}
	if _, ok := s["description"]; !ok && p.Description != "" {
		s["description"] = p.Description
	}
	if p.Default != nil {
		s["default"] = p.Default
	}
	if p.Min != nil {
		s["minimum"] = *p.Min
	}
	if p.Max != nil {
		s["maximum"] = *p.Max
	}
	return s
}
