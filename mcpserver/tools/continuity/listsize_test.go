package continuity

import (
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// tools/list carries every tool's description and input schema to every
// agent before its first question, so the continuity tools publish short
// ones: a description says what the tool answers and when to reach for it,
// a parameter's is a phrase. The long forms are Details and the help tags,
// which help and the docs show.
const (
	maxToolDescription  = 160
	maxParamDescription = 80
)

func TestPublishedDescriptionsAreShort(t *testing.T) {
	r := tools.NewRegistry()
	Register(r)
	for _, tl := range r.All() {
		if n := len(tl.Description); n == 0 || n > maxToolDescription {
			t.Errorf("%s: published description is %d bytes (1–%d; the long form goes in Details): %q", tl.Name, n, maxToolDescription, tl.Description)
		}
		if tl.Details != "" && len(tl.Details) <= len(tl.Description) {
			t.Errorf("%s: Details (%d bytes) is no longer than the description it expands (%d)", tl.Name, len(tl.Details), len(tl.Description))
		}
		props, _ := tl.InputSchema()["properties"].(map[string]any)
		for name, s := range props {
			d, _ := s.(map[string]any)["description"].(string)
			if len(d) > maxParamDescription {
				t.Errorf("%s.%s: published description is %d bytes (at most %d; the long form goes in a help tag): %q", tl.Name, name, len(d), maxParamDescription, d)
			}
		}
	}
}
