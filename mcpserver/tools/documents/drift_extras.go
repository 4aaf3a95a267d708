package documents

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// A page that tells the reader to "pip install kit[dev]" when the
// project's packaging metadata declares no extra "dev" sends them to a
// warning and a missing dependency (textual's "install with the dev
// switch", drift-prose.md's list of checkable misses). The metadata is
// the code that checks it: pyproject's [project.optional-dependencies]
// or [tool.poetry.extras], setup.cfg's [options.extras_require], or a
// literal extras_require dict in setup.py. When none of these can be
// read as a whole (dynamic metadata, a dict built in code) nothing is
// said.

// maxExtrasFindings bounds the findings per page.
const maxExtrasFindings = 3

var (
	// installLineRe: a command that installs packages.
	installLineRe = regexp.MustCompile(`(?i)\b(?:pip3?|uv\s+pip|uv|pipx|poetry|pdm)\s+(?:install|add)\b(.*)`)
	// extraReqRe: "name[extra1,extra2]" in an install command ("." is the
	// project in its own checkout).
	extraReqRe = regexp.MustCompile(`(?:^|[\s'"=])(\.|[A-Za-z0-9][A-Za-z0-9_.-]*)\[([A-Za-z0-9_.,\s-]+)\]`)
	tomlHeadRe = regexp.MustCompile(`^\s*\[([^\]]+)\]\s*$`)
	tomlKeyRe  = regexp.MustCompile(`^\s*["']?([A-Za-z0-9][A-Za-z0-9_.-]*)["']?\s*=`)
	cfgKeyRe   = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9_.-]*)\s*[=:]`)
	// setupExtrasRe: extras_require={...} or extras_require=NAME.
	setupExtrasRe = regexp.MustCompile(`extras_require\s*=\s*(\{|[A-Za-z_]\w*)`)
	dictKeyRe     = regexp.MustCompile(`["']([A-Za-z0-9][A-Za-z0-9_.-]*)["']\s*:`)
	setupNameRe   = regexp.MustCompile(`\bname\s*=\s*["']([A-Za-z0-9][A-Za-z0-9_.-]*)["']`)
	extraNormRe   = regexp.MustCompile(`[-_.]+`)
)

// packageExtras is what the project's metadata declares: its
// distribution name and extras (normalized), and the file read.
type packageExtras struct {
	name   string
	extras map[string]bool
	file   string
}

// normExtra normalizes a distribution or extra name (PEP 503/685).
func normExtra(s string) string {
	return extraNormRe.ReplaceAllString(strings.ToLower(strings.TrimSpace(s)), "-")
}

// projectExtras reads the extras the project declares; false when the
// metadata cannot say for sure.
func projectExtras(src *driftSources) (packageExtras, bool) {
	if t, ok := src.source("pyproject.toml"); ok {
		if pe, known := pyprojectExtras(string(t)); known {
			return pe, true
		}
	}
	if t, ok := src.source("setup.cfg"); ok {
		if pe, known := setupCfgExtras(string(t)); known {
			return pe, true
		}
	}
	if t, ok := src.source("setup.py"); ok {
		return setupPyExtras(string(t))
	}
	return packageExtras{}, false
}

// tomlTables splits a TOML text into its tables' key lines (top-level
// keys under "").
func tomlTables(text string) map[string][]string {
	out := map[string][]string{}
	cur := ""
	for _, l := range strings.Split(text, "\n") {
		if m := tomlHeadRe.FindStringSubmatch(l); m != nil {
			cur = strings.TrimSpace(m[1])
			if _, ok := out[cur]; !ok {
				out[cur] = nil
			}
			continue
		}
		out[cur] = append(out[cur], l)
	}
	return out
}

// tomlValue is the value of key in a table's lines ("" when absent).
func tomlValue(lines []string, key string) string {
	for _, l := range lines {
		if m := tomlKeyRe.FindStringSubmatch(l); m != nil && m[1] == key {
			_, v, _ := strings.Cut(l, "=")
			return strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return ""
}

// tomlKeys are the keys a table's lines define.
func tomlKeys(lines []string) map[string]bool {
	out := map[string]bool{}
	for _, l := range lines {
		if m := tomlKeyRe.FindStringSubmatch(l); m != nil {
			out[normExtra(m[1])] = true
		}
	}
	return out
}

// pyprojectExtras: [project] with a static name and no dynamic
// optional-dependencies, or [tool.poetry] with its extras table.
func pyprojectExtras(text string) (packageExtras, bool) {
	t := tomlTables(text)
	if proj, ok := t["project"]; ok {
		name := tomlValue(proj, "name")
		if name == "" || strings.Contains(strings.Join(proj, "\n"), "optional-dependencies\"") || strings.Contains(strings.Join(proj, "\n"), "optional-dependencies'") {
			return packageExtras{}, false // dynamic extras: setup.py or a plugin says
		}
		extras := tomlKeys(t["project.optional-dependencies"])
		for k := range tomlKeys(proj) { // dotted keys: optional-dependencies.dev = [...] (nox)
			if e, ok := strings.CutPrefix(k, "optional-dependencies-"); ok {
				extras[e] = true
			} else if k == "optional-dependencies" {
				return packageExtras{}, false // an inline table: not read here
			}
		}
		return packageExtras{name: normExtra(name), extras: extras, file: "pyproject.toml [project.optional-dependencies]"}, true
	}
	if poetry, ok := t["tool.poetry"]; ok && tomlValue(poetry, "name") != "" {
		return packageExtras{name: normExtra(tomlValue(poetry, "name")), extras: tomlKeys(t["tool.poetry.extras"]), file: "pyproject.toml [tool.poetry.extras]"}, true
	}
	return packageExtras{}, false
}

// setupCfgExtras: [metadata] name and [options.extras_require] keys.
func setupCfgExtras(text string) (packageExtras, bool) {
	t := tomlTables(text)
	name := tomlValue(t["metadata"], "name")
	if name == "" {
		return packageExtras{}, false
	}
	extras := map[string]bool{}
	for _, l := range t["options.extras_require"] {
		if m := cfgKeyRe.FindStringSubmatch(l); m != nil { // keys start the line; values are indented
			extras[normExtra(m[1])] = true
		}
	}
	return packageExtras{name: normExtra(name), extras: extras, file: "setup.cfg [options.extras_require]"}, true
}

// setupPyExtras: name= and a literal extras_require dict (inline or
// assigned to a module-level name); anything else is unknown.
func setupPyExtras(text string) (packageExtras, bool) {
	nm := setupNameRe.FindStringSubmatch(text)
	if nm == nil {
		return packageExtras{}, false
	}
	pe := packageExtras{name: normExtra(nm[1]), extras: map[string]bool{}, file: "setup.py extras_require"}
	m := setupExtrasRe.FindStringSubmatchIndex(text)
	if m == nil {
		return pe, !strings.Contains(text, "extras_require") // no extras at all
	}
	start := m[2]
	if text[m[2]:m[3]] != "{" {
		def := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(text[m[2]:m[3]]) + `\s*=\s*\{`).FindStringIndex(text)
		if def == nil {
			return packageExtras{}, false
		}
		start = def[1] - 1
	}
	end := closeOf(text, start)
	if end >= len(text) {
		return packageExtras{}, false
	}
	body := text[start+1 : end]
	if strings.Contains(body, " for ") || strings.Contains(body, "**") {
		return packageExtras{}, false // built in code
	}
	for _, k := range dictKeyRe.FindAllStringSubmatch(body, -1) {
		pe.extras[normExtra(k[1])] = true
	}
	if name := text[m[2]:m[3]]; name != "{" && filledInCode(text, name) {
		return packageExtras{}, false // dramatiq: EXTRAS[extra] = … in a loop
	}
	if name := text[m[2]:m[3]]; name != "{" { // EXTRAS["dev"] = … adds one (marshmallow)
		for _, k := range regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(name)+`\[["']([A-Za-z0-9][A-Za-z0-9_.-]*)["']\]\s*=`).FindAllStringSubmatch(text, -1) {
			pe.extras[normExtra(k[1])] = true
		}
	}
	return pe, true
}

// filledInCode: the dict bound to name gains keys the text does not
// spell — a subscript assignment whose key is not a string literal
// (EXTRAS[extra] = … in a loop, dramatiq's setup.py) or an update().
func filledInCode(text, name string) bool {
	q := regexp.QuoteMeta(name)
	return regexp.MustCompile(`(?m)^\s*`+q+`\[\s*[^"'\s]`).MatchString(text) || regexp.MustCompile(q+`\.(?:update|setdefault)\(`).MatchString(text)
}

// extrasFindings lists a page's install commands that ask the project
// for an extra its metadata does not declare.
func extrasFindings(b *session.Bundle, src *driftSources, d *document.DocDrift, text []byte) []document.Finding {
	pe, ok := projectExtras(src)
	if !ok {
		return nil
	}
	var fs []document.Finding
	seen := map[string]bool{}
	for i, l := range strings.Split(string(text), "\n") {
		for _, miss := range undeclaredExtras(pe, l) {
			if seen[miss] || len(fs) == maxExtrasFindings {
				continue
			}
			seen[miss] = true
			fs = append(fs, document.Finding{Kind: document.DriftMissing, Section: sectionAt(b.Graph, d, i+1),
				Mention: document.Mention{Kind: document.MentionCode, Text: miss}, Line: i + 1,
				Detail: fmt.Sprintf("the page installs %s, but %s declares no such extra (%s)", miss, pe.file, extrasList(pe.extras))})
		}
	}
	return fs
}

// undeclaredExtras: "name[extra]" of one line's install command that the
// project's metadata does not declare.
func undeclaredExtras(pe packageExtras, line string) []string {
	cmd := installLineRe.FindStringSubmatch(line)
	if cmd == nil {
		return nil
	}
	var out []string
	for _, m := range extraReqRe.FindAllStringSubmatch(cmd[1], -1) {
		if m[1] != "." && normExtra(m[1]) != pe.name {
			continue // another package's extras
		}
		for _, e := range strings.Split(m[2], ",") {
			if e = strings.TrimSpace(e); e != "" && !pe.extras[normExtra(e)] {
				out = append(out, m[1]+"["+e+"]")
			}
		}
	}
	return out
}

// extrasList names the declared extras, sorted, at most 8.
func extrasList(extras map[string]bool) string {
	if len(extras) == 0 {
		return "it declares none"
	}
	names := make([]string, 0, len(extras))
	for e := range extras {
		names = append(names, e)
	}
	sort.Strings(names)
	if len(names) > 8 {
		return "declared: " + strings.Join(names[:8], ", ") + fmt.Sprintf(", … %d more", len(names)-8)
	}
	return "declared: " + strings.Join(names, ", ")
}
