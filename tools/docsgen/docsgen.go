// Package docsgen renders the tool reference (docs/tools.md) from the live
// registry, so documentation cannot drift from what the server serves.
package docsgen

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// Markdown returns the reference for every tool of r.
func Markdown(r *tools.Registry) string {
	var b strings.Builder
	all := r.All()
	fmt.Fprintf(&b, "# m1nd tool reference\n\n")
	fmt.Fprintf(&b, "Generated from the live registry by `make docs` (tools/cmd/m1nd-docs); do not edit by hand.\n")
	fmt.Fprintf(&b, "%d tools. Every tool requires `agent_id`. Names are bare (`activate`); `m1nd.activate`, `m1nd_activate` and dotted legacy names are accepted.\n\n", len(all))
	fmt.Fprintf(&b, "**Workflow.** %s\n\n", tools.Workflow)
	fmt.Fprintf(&b, "| tool | class | summary |\n| --- | --- | --- |\n")
	for _, t := range all {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", t.Name, t.Name, t.Class, cell(tools.FirstSentence(t.Description)))
	}
	for _, t := range all {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n", t.Name, t.Description)
		fmt.Fprintf(&b, "Class: **%s**", t.Class)
		if len(t.Aliases) > 0 {
			fmt.Fprintf(&b, " · aliases: %s", codeList(t.Aliases))
		}
		b.WriteString("\n\n| parameter | type | required | default | description |\n| --- | --- | --- | --- | --- |\n")
		for _, p := range t.AllParams() {
			req := ""
			if p.Required {
				req = "yes"
			}
			desc := p.Description
			if len(p.Enum) > 0 {
				desc += " One of: " + codeList(p.Enum) + "."
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", p.Name, p.Type, req, defaultCell(p.Default), cell(desc))
		}
		if t.WhenToUse != "" {
			fmt.Fprintf(&b, "\n**When to use.** %s\n", t.WhenToUse)
		}
		if t.AvoidWhen != "" {
			fmt.Fprintf(&b, "\n**Avoid when.** %s\n", t.AvoidWhen)
		}
		if len(t.Next) > 0 {
			fmt.Fprintf(&b, "\n**Next.** %s\n", codeList(t.Next))
		}
		ex, _ := json.MarshalIndent(map[string]any{"name": t.Name, "arguments": sortedMap(t.Example)}, "", "  ")
		fmt.Fprintf(&b, "\nExample call (`tools/call` params):\n\n```json\n%s\n```\n", ex)
	}
	return b.String()
}

func cell(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ") }

func codeList(xs []string) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = "`" + x + "`"
	}
	return strings.Join(out, ", ")
}

func defaultCell(v any) string {
	if v == nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return "`" + cell(string(b)) + "`"
}

// sortedMap is a map whose JSON keys come out sorted (encoding/json sorts
// map keys already; this keeps a nil example as {}).
func sortedMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]any, len(m))
	for _, k := range keys {
		out[k] = m[k]
	}
	return out
}
