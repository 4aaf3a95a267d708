package audit

import (
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// TestPublishedDescriptionsAreShort: tools/list carries every tool's
// description and its parameters' descriptions to every agent before its
// first question, so they stay short — a tool's at most 160 bytes, a
// parameter's at most 80 (none where the name, default and bounds say it
// all); the long forms go to Details and the help tag, which help and the
// docs show, so every parameter has one or the other.
func TestPublishedDescriptionsAreShort(t *testing.T) {
	r := tools.NewRegistry()
	Register(r)
	for _, tl := range r.All() {
		if n := len(tl.Description); n == 0 || n > 160 {
			t.Errorf("%s: description of %d bytes (1 to 160; the long form goes to Details): %q", tl.Name, n, tl.Description)
		}
		for _, p := range tl.Params {
			if n := len(p.Description); n > 80 {
				t.Errorf("%s.%s: description of %d bytes (at most 80; the long form goes to the help tag): %q", tl.Name, p.Name, n, p.Description)
			}
			if p.Doc() == "" {
				t.Errorf("%s.%s: no description and no help: help and the docs have nothing to say of it", tl.Name, p.Name)
			}
		}
	}
}
