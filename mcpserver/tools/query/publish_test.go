package query

import (
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// What tools/list publishes for this family stays short: every agent pays
// for it in tokens before its first question. The long forms live in
// Details and the help tags (help and the docs show them).
const (
	maxPublishedDescription = 160
	maxPublishedParam       = 80
)

func TestPublishedDescriptionsAreShort(t *testing.T) {
	r := tools.NewRegistry()
	Register(r)
	for _, tl := range r.All() {
		if n := len(tl.Description); n > maxPublishedDescription || n == 0 {
			t.Errorf("%s: description is %d bytes (1 to %d; the long form goes in Details): %q", tl.Name, n, maxPublishedDescription, tl.Description)
		}
		for _, p := range tl.Params {
			if n := len(p.Description); n > maxPublishedParam {
				t.Errorf("%s.%s: jsonschema description is %d bytes (at most %d; the long form goes in a help tag): %q", tl.Name, p.Name, n, maxPublishedParam, p.Description)
			}
			if p.Help != "" && len(p.Help) <= len(p.Description) {
				t.Errorf("%s.%s: the help tag is no longer than the description; drop it", tl.Name, p.Name)
			}
		}
		if tl.Details != "" && len(tl.Details) <= len(tl.Description) {
			t.Errorf("%s: Details is no longer than the description; drop it", tl.Name)
		}
	}
}
