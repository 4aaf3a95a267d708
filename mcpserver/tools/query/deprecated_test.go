package query

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestDeprecatedShown: view, surgical_context and seek say which nodes
// the code marks deprecated, and only those (the field is left out
// otherwise: answers stay small).
func TestDeprecatedShown(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.FixtureRepo(t, map[string]string{
		"parse/parse.go": "package parse\n\n// ParseOld parses a config.\n//\n// Deprecated: use ParseConfig.\nfunc ParseOld(s string) int { return ParseConfig(s) }\n\n// ParseConfig parses a config.\nfunc ParseConfig(s string) int { return len(s) }\n",
		"main.go":        "package main\n\nimport \"x/parse\"\n\nfunc main() { parse.ParseOld(\"a\") }\n",
		"go.mod":         "module x\n\ngo 1.22\n",
	})
	deprecated := func(list any) map[string]bool {
		out := map[string]bool{}
		for _, n := range list.([]any) {
			m := n.(map[string]any)
			id, _ := m["node_id"].(string)
			if id == "" {
				id, _ = m["label"].(string)
			}
			if m["deprecated"] == true {
				out[id] = true
			}
		}
		return out
	}
	want := map[string]bool{"file::parse/parse.go::ParseOld": true}
	view := tooltest.MustCall(t, d, "view", map[string]any{"agent_id": "t", "file_path": "parse/parse.go"})
	if diff := cmp.Diff(want, deprecated(view["nodes"])); diff != "" {
		t.Errorf("view nodes (-want +got):\n%s", diff)
	}
	sc := tooltest.MustCall(t, d, "surgical_context", map[string]any{"agent_id": "t", "file_path": "parse/parse.go"})
	if diff := cmp.Diff(want, deprecated(sc["symbols"])); diff != "" {
		t.Errorf("surgical_context symbols (-want +got):\n%s", diff)
	}
	main := tooltest.MustCall(t, d, "surgical_context", map[string]any{"agent_id": "t", "file_path": "main.go"})
	if diff := cmp.Diff(want, deprecated(main["callees"])); diff != "" {
		t.Errorf("surgical_context callees (-want +got):\n%s", diff)
	}
	seek := tooltest.MustCall(t, d, "seek", map[string]any{"agent_id": "t", "query": "parse a config"})
	if got := deprecated(seek["results"]); !got["file::parse/parse.go::ParseOld"] || got["file::parse/parse.go::ParseConfig"] {
		t.Errorf("seek marks %v deprecated, want ParseOld alone", got)
	}
}
