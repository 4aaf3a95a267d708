package toolset

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/system"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// specTools are the 97 tool names, built or planned: those of
// docs/design.md#tool-families and the 24 of docs/design.md#not-implemented.
// Guidance may name only those this build registers.
var specTools = strings.Fields(`activate alerts_ack alerts_list antibody_create antibody_list
antibody_scan apply apply_batch audit auto_ingest_start auto_ingest_status auto_ingest_stop
auto_ingest_tick batch_view boot_memory counterfactual coverage_session cross_verify
daemon_start daemon_status daemon_stop daemon_tick diagram differential diverge
document_bindings document_drift document_provider_health document_resolve drift edit_commit
edit_preview epidemic external_references federate federate_auto fingerprint flow_simulate
ghost_edges glob health help heuristics_surface hypothesize impact ingest layer_inspect layers
learn lock_create lock_diff lock_rebase lock_release lock_watch metrics missing panoramic
persist perspective_affinity perspective_back perspective_branch perspective_close
perspective_compare perspective_follow perspective_inspect perspective_list perspective_peek
perspective_routes perspective_start perspective_suggest predict refactor_plan report resonate
runtime_overlay savings scan scan_all search seek surgical_context surgical_context_v2
taint_trace timeline trace trail_list trail_merge trail_resume trail_save tremor trust twins
type_trace validate_plan view warmup why`)

// plainWords are tool names that are also ordinary English; free text
// may use them as words ("trace", "report"), structured guidance may not.
var plainWords = map[string]bool{"apply": true, "audit": true, "diagram": true, "differential": true,
	"layers": true, "metrics": true, "report": true, "savings": true, "scan": true, "timeline": true,
	"trace": true, "trust": true, "twins": true, "diverge": true}

// missingNames returns the names of unregistered tools that text mentions.
func missingNames(r *tools.Registry, text string, strict bool) []string {
	var out []string
	for _, name := range specTools {
		if _, ok := r.Lookup(name); ok || (!strict && plainWords[name]) {
			continue
		}
		for _, loc := range regexp.MustCompile(`\b`+name+`\b`).FindAllStringIndex(text, -1) {
			if !strings.HasPrefix(text[loc[1]:], `":`) { // a response field, not a tool
				out = append(out, name)
				break
			}
		}
	}
	return out
}

// Every surface that guides an agent — tool descriptions and schemas,
// help, the workflow, and what every tool answers (with its example, with
// no arguments, on an empty and on an ingested graph) — names only tools
// this build serves; next_suggested_tool always names a registered tool.
func TestGuidanceNamesOnlyRegisteredTools(t *testing.T) {
	t.Parallel()
	r := Builtin()
	check := func(where, text string) {
		t.Helper()
		if bad := missingNames(r, text, false); len(bad) > 0 {
			t.Errorf("%s names unregistered tools %v: %s", where, bad, tools.ClipText(text, 200))
		}
		for _, m := range regexp.MustCompile(`"next_suggested_tool":"([^"]*)"`).FindAllStringSubmatch(text, -1) {
			if _, ok := r.Lookup(m[1]); m[1] != "" && !ok {
				t.Errorf("%s suggests unregistered tool %q", where, m[1])
			}
		}
	}
	check("workflow", system.Workflow)
	// The server's instructions (mcpserver/instructions.md, embedded there).
	instr, err := os.ReadFile(filepath.Join("..", "..", "instructions.md"))
	if err != nil {
		t.Fatal(err)
	}
	check("instructions", string(instr))
	for _, tool := range r.All() {
		doc, _ := json.Marshal(system.ToolDoc(tool))
		check("help "+tool.Name, string(doc))
		schema, _ := json.Marshal(tool.InputSchema())
		check("schema "+tool.Name, tool.Description+string(schema))
		for _, n := range tool.Next {
			if _, ok := r.Lookup(n); !ok {
				t.Errorf("%s: next names unregistered tool %q", tool.Name, n)
			}
		}
	}
	empty := tooltest.NewDispatcher(t, tooltest.TestConfig())
	full, _ := tooltest.IngestedFixture(t)
	for _, d := range []*tools.Dispatcher{empty, full} {
		for _, tool := range r.All() {
			if tool.Class == tools.Exclusive {
				continue
			}
			for _, args := range []map[string]any{tool.Example, {"agent_id": "g"}} {
				raw, _ := json.Marshal(args)
				res := d.Call(context.Background(), tool.Name, raw, nil)
				check("answer of "+tool.Name, res.Text())
			}
		}
	}
	help := tooltest.MustCall(t, full, "help", map[string]any{"agent_id": "g"})
	text, _ := json.Marshal(help)
	check("help index", string(text))
}

// The filter is strict about names that are not ordinary words.
func TestMissingNamesFindsUnregisteredTools(t *testing.T) {
	t.Parallel()
	// Every tool of the design is served: the filter is checked on a registry
	// without the federation family.
	r := tools.NewRegistry()
	for _, f := range Families {
		if f.Name != "federation" {
			r.InFamily(f.Name, f.Register)
		}
	}
	got := missingNames(r, "then call federate or federate_auto; trace the call", false)
	if !slices.Equal(got, []string{"federate", "federate_auto"}) {
		t.Fatalf("missingNames = %v", got)
	}
}
