package system

import (
	"fmt"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type toolsetsParams struct {
	Enable  []string `json:"enable" jsonschema:"Families to list, e.g. [\"live\"]; \"all\": every family." help:"Families to add to tools/list, e.g. [\"live\"]; \"all\" adds every family." tool:"maxitems=32"`
	Disable []string `json:"disable" jsonschema:"Families to unlist (system stays)." help:"Families to take out of tools/list (system stays)." tool:"maxitems=32"`
}

type toolsetFamily struct {
	Name    string   `json:"name"`
	Listed  bool     `json:"listed" jsonschema:"tools/list offers its tools."`
	Tools   []string `json:"tools"`
	Summary string   `json:"summary"`
}

type toolsetsOutput struct {
	Listed   []string        `json:"listed" jsonschema:"The families tools/list offers now."`
	Changed  bool            `json:"changed" jsonschema:"tools/list changed (clients were sent notifications/tools/list_changed)."`
	Families []toolsetFamily `json:"families"`
	tools.Guidance
}

// familySummaries say what each family is for, in the answer.
var familySummaries = map[string]string{
	"system":     "health, help, ingest, persist: start here.",
	"query":      "find and read code: seek, activate, search, glob, view, surgical_context, trace.",
	"change":     "what a change breaks and why: impact, why, predict, timeline, validate_plan, what-if.",
	"edit":       "write files safely: apply, apply_batch, edit_preview, edit_commit.",
	"continuity": "learning and memory across sessions: learn, drift, trails, locks, perspectives, boot_memory.",
	"live":       "watch the tree and documents: daemon_*, alerts_*, auto_ingest_*.",
	"audit":      "check the graph against the disk and code: audit, cross_verify, scan, graph_validate.",
	"documents":  "documents bound to code: document_resolve, document_bindings, document_drift.",
}

func registerToolsets(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "toolsets",
		Title:       "Toolsets",
		Description: "The tool families tools/list offers, or enable/disable them; unlisted tools stay callable.",
		Details:     "Lists the tool families and which tools/list offers; enable or disable families to change the list (clients get list_changed). Every tool can be called even when not listed.",
		Class:       tools.Write,
		Hints:       &tools.Hints{Idempotent: true},
		WhenToUse:   "You need a tool tools/list does not show (watchers, audits, documents), or want a shorter list.",
		AvoidWhen:   "The tool you need is listed already.",
		Next:        []string{"help"},
		Example:     map[string]any{"agent_id": "claude", "enable": []string{"live"}},
	}, runToolsets)
}

func runToolsets(c *tools.Call, in toolsetsParams) (toolsetsOutput, error) {
	known := c.Registry.Families()
	listed := c.Session.Toolsets()
	if listed == nil {
		listed = known
	}
	set := map[string]bool{}
	for _, f := range listed {
		set[f] = true
	}
	check := func(names []string, on bool) error {
		for _, n := range names {
			n = strings.ToLower(strings.TrimSpace(n))
			switch {
			case n == "all":
				for _, f := range known {
					set[f] = on || f == "system"
				}
			case slices.Contains(known, n):
				set[n] = on || n == "system"
			default:
				return tools.Errorf(fmt.Sprintf("The families are %s; \"all\" names every one.", strings.Join(known, ", ")), "unknown toolset %q", n).
					WithExample(map[string]any{"agent_id": "claude", "enable": []string{"live"}})
			}
		}
		return nil
	}
	if err := check(in.Enable, true); err != nil {
		return toolsetsOutput{}, err
	}
	if err := check(in.Disable, false); err != nil {
		return toolsetsOutput{}, err
	}
	var next []string
	for _, f := range known {
		if set[f] {
			next = append(next, f)
		}
	}
	out := toolsetsOutput{Listed: next}
	if len(in.Enable)+len(in.Disable) > 0 {
		out.Changed = c.Session.SetToolsets(next)
	}
	byFamily := map[string][]string{}
	for _, t := range c.Registry.All() {
		byFamily[t.Family] = append(byFamily[t.Family], t.Name)
	}
	for _, f := range known {
		out.Families = append(out.Families, toolsetFamily{Name: f, Listed: set[f], Tools: byFamily[f], Summary: familySummaries[f]})
	}
	out.Guidance = tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "help"),
		NextStepHint: "Call help with tool_name for any tool's parameters; tools that are not listed can still be called."}
	return out, nil
}
