// Package docsgen renders the tool reference (docs/tools.md) from the live
// registry, so documentation cannot drift from what the server serves.
package docsgen

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/m1nd-go/m1nd/mcpserver/tools/system"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// Markdown returns the reference for every tool of r.
func Markdown(r *tools.Registry) string {
	var b strings.Builder
	all := r.All()
	fmt.Fprintf(&b, "# m1nd tool reference\n\n")
	fmt.Fprintf(&b, "Generated from the live registry by `make docs` (tools/cmd/m1nd-docs); do not edit by hand.\n")
	fmt.Fprintf(&b, "%d tools. Every tool requires `agent_id`. Names are bare (`activate`); `m1nd.activate`, `m1nd_activate` and dotted legacy names are accepted.\n\n", len(all))
	fmt.Fprintf(&b, "**Workflow.** %s\n\n", system.Workflow)
	fmt.Fprintf(&b, "| tool | class | summary |\n| --- | --- | --- |\n")
	for _, t := range all {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", t.Name, t.Name, t.Class, cell(system.FirstSentence(t.Description)))
	}
	for _, t := range all {
		fmt.Fprintf(&b, "\n## %s\n\n", t.Name)
		if t.Title != "" {
			fmt.Fprintf(&b, "*%s*\n\n", t.Title)
		}
		fmt.Fprintf(&b, "%s\n\n", t.Doc())
		fmt.Fprintf(&b, "Class: **%s** (%s)", t.Class, hints(t.Annotations()))
		if len(t.Aliases) > 0 {
			fmt.Fprintf(&b, " · aliases: %s", codeList(t.Aliases))
		}
		b.WriteString("\n\n| parameter | type | required | default | description |\n| --- | --- | --- | --- | --- |\n")
		for _, p := range t.AllParams() {
			req := ""
			if p.Required {
				req = "yes"
			}
			desc := p.Doc()
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
		resultTable(&b, t.OutputSchema())
	}
	return b.String()
}

// hints spells out a tool's MCP annotations.
func hints(h tools.Hints) string {
	var out []string
	switch {
	case h.ReadOnly:
		out = append(out, "read-only")
	case h.Destructive:
		out = append(out, "may replace state")
	default:
		out = append(out, "adds state")
	}
	if h.Idempotent {
		out = append(out, "idempotent")
	}
	if !h.OpenWorld {
		out = append(out, "closed world")
	}
	return strings.Join(out, ", ")
}

// resultTable lists the top-level fields of a tool's answer (its output
// schema; structuredContent and the text carry the same object).
func resultTable(b *strings.Builder, s *jsonschema.Schema) {
	if s == nil || len(s.Properties) == 0 {
		return
	}
	b.WriteString("\nResult (`structuredContent`, the same JSON as the text):\n\n| field | type | always | description |\n| --- | --- | --- | --- |\n")
	names := slices.Clone(s.PropertyOrder)
	for name := range s.Properties {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, name := range names {
		p := s.Properties[name]
		always := ""
		if slices.Contains(s.Required, name) {
			always = "yes"
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", name, typeName(p), always, cell(p.Description))
	}
}

// typeName names a schema's JSON type ("array of object", "string or null"
// shown as "string").
func typeName(s *jsonschema.Schema) string {
	types := slices.DeleteFunc(append([]string{s.Type}, s.Types...), func(t string) bool { return t == "" || t == "null" })
	switch {
	case len(types) == 0:
		return "any"
	case types[0] == "array" && s.Items != nil:
		return "array of " + typeName(s.Items)
	}
	return types[0]
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
