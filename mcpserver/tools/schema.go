package tools

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// InputSchema returns the tool's JSON Schema: an object with one property
// per parameter. Every property has a concrete type (no `true` schemas, no
// nullable unions), so strict clients accept it. The bounds every
// parameter has (DefaultMaxStringLen, DefaultMaxItems) are not repeated in
// each schema — the server's instructions state them once, and the
// dispatcher enforces them; a parameter's own bound is published.
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
		items := map[string]any{"type": "string"}
		if p.MaxLen > 0 && p.MaxLen != DefaultMaxStringLen {
			items["maxLength"] = p.MaxLen
		}
		if len(p.Enum) > 0 {
			items["enum"] = p.Enum
		}
		s["items"] = items
		if p.MaxItems > 0 && p.MaxItems != DefaultMaxItems {
			s["maxItems"] = p.MaxItems
		}
	case ObjectArray:
		s["type"] = "array"
		s["items"] = map[string]any{"type": "object"}
		if p.MaxItems > 0 && p.MaxItems != DefaultMaxItems {
			s["maxItems"] = p.MaxItems
		}
	case Any:
		// A value of any JSON type, described rather than typed.
		s["description"] = p.Description + " (any JSON value)"
	default:
		s["type"] = string(p.Type)
		if len(p.Enum) > 0 {
			s["enum"] = p.Enum
		}
		// agent_id's own bound (128 bytes) is stated once in the server's
		// instructions, not in all of the tools' schemas.
		if p.Type == String && p.MaxLen > 0 && p.MaxLen != DefaultMaxStringLen && p.Name != AgentIDParam.Name {
			s["maxLength"] = p.MaxLen
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

// StaleFiles is what the dispatcher adds to a read tool's answer that
// names files changed on disk since the graph was built (flagStale).
type StaleFiles struct {
	Files []string `json:"files" jsonschema:"External ids of the files this answer names that changed or were deleted on disk after the graph was built."`
	Hint  string   `json:"hint" jsonschema:"What that means for this answer and how to refresh the graph."`
}

// flagsStale reports whether the dispatcher may add stale_files to the
// tool's answers: every read tool but health, which lists them itself.
func (t *Tool) flagsStale() bool { return t.Class == Read && t.Name != "health" }

// OutputSchema returns the JSON Schema of the tool's answers (MCP
// outputSchema; structuredContent conforms to it), or nil when Output is
// not declared. Its objects list every field the tool answers with and do
// not forbid others, so a client that validates answers keeps working when
// a newer server adds a field; tests hold answers to the closed form
// (ClosedOutputSchema). Each call derives a new tree.
func (t *Tool) OutputSchema() *jsonschema.Schema {
	s, _ := t.outputSchema()
	if s != nil {
		openObjects(s)
	}
	return s
}

// ClosedOutputSchema is OutputSchema with every struct's object closed
// (additionalProperties: false): only the fields declared.
func (t *Tool) ClosedOutputSchema() *jsonschema.Schema {
	s, _ := t.outputSchema()
	return s
}

// OutputSchemaJSON is OutputSchema as JSON, as tools/list sends it; nil
// when Output is not declared.
func (t *Tool) OutputSchemaJSON() json.RawMessage { return t.outJSON }

// deriveOutputSchema checks that Output's schema derives and is an object,
// and keeps its published JSON.
func (t *Tool) deriveOutputSchema() error {
	s, err := t.outputSchema()
	if s == nil || err != nil {
		return err
	}
	openObjects(s)
	t.outJSON, err = json.Marshal(s)
	return err
}

// outputSchema derives the tool's closed output schema from Output with
// the SDK's jsonschema support; nil when Output is not declared.
func (t *Tool) outputSchema() (*jsonschema.Schema, error) {
	if t.Output == nil {
		return nil, nil
	}
	s, err := jsonschema.ForType(t.Output, nil)
	if err != nil {
		return nil, err
	}
	if s.Type != "object" {
		return nil, fmt.Errorf("output type %s is not a JSON object", t.Output)
	}
	if t.flagsStale() {
		sf, err := jsonschema.For[StaleFiles](nil)
		if err != nil {
			return nil, err
		}
		sf.Description = "Present when the answer names files changed on disk since the graph was built."
		if s.Properties == nil {
			s.Properties = map[string]*jsonschema.Schema{}
		}
		s.Properties["stale_files"] = sf
		s.PropertyOrder = append(s.PropertyOrder, "stale_files")
	}
	if _, err := s.Resolve(nil); err != nil {
		return nil, fmt.Errorf("output schema: %w", err)
	}
	return s, nil
}

// openObjects lets the objects derived from structs (which jsonschema.For
// closes with additionalProperties: false) carry fields they do not list.
func openObjects(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if s.Properties != nil && s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil {
		s.AdditionalProperties = nil
	}
	for _, p := range s.Properties {
		openObjects(p)
	}
	openObjects(s.Items)
	openObjects(s.AdditionalProperties)
}
