package seek

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/m1nd-go/m1nd/core/graph"
)

// maxSummary bounds an intent summary in bytes.
const maxSummary = 160

// maxDocBlock bounds the walk up a doc comment to its first line.
const maxDocBlock = 400

// Summaries returns, for each node, a one-line statement of its intent:
// the first sentence of its doc comment or docstring (for files, of the
// file's leading comment). It reads each distinct file once through
// Options.ReadFile; nodes without source lines, or an index built without
// ReadFile, get "".
//
// Files are taken one at a time (nodes grouped by file) and split into
// one reused slice of lines. Why: a seek's summaries split each hit's
// whole file (24 bytes a line, kept until the answer), and after a large
// ingest every byte a seek allocates is paid for in collection assists:
// the server's heap sits at its goal while the work behind the answer
// runs (indexes-ready.md, issue 29).
func (x *Index) Summaries(nodes []graph.NodeID) []string {
	out := make([]string, len(nodes))
	if x.opts.ReadFile == nil {
		return out
	}
	order := make([]int, 0, len(nodes))
	for i, n := range nodes {
		if int(n) < x.n && x.g.SourcePath(n) != "" && x.g.Type(n) != graph.Directory {
			order = append(order, i)
		}
	}
	srcOf := func(i int) string { return x.g.SourcePath(nodes[i]) }
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(srcOf(a), srcOf(b)) })
	var lines [][]byte
	for k := 0; k < len(order); {
		src := srcOf(order[k])
		lines = lines[:0]
		if data, err := x.opts.ReadFile(src); err == nil && (x.opts.MaxFileBytes <= 0 || len(data) <= x.opts.MaxFileBytes) {
			lines = splitLines(lines, data)
		}
		for ; k < len(order) && srcOf(order[k]) == src; k++ {
			if len(lines) > 0 {
				out[order[k]] = x.summary(nodes[order[k]], lines)
			}
		}
	}
	return out
}

// summary is one node's summary from its file's lines.
func (x *Index) summary(n graph.NodeID, lines [][]byte) string {
	if x.g.Type(n) == graph.File {
		return fileSummary(lines)
	}
	ls := int(x.g.Provenance(n).LineStart)
	if ls <= 0 || ls > len(lines) {
		return ""
	}
	return entitySummary(lines, ls-1)
}

// splitLines appends to lines what bytes.Split(data, "\n") returns,
// growing lines at most once.
func splitLines(lines [][]byte, data []byte) [][]byte {
	lines = slices.Grow(lines, bytes.Count(data, []byte("\n"))+1)
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return append(lines, data)
		}
		lines = append(lines, data[:i:i])
		data = data[i+1:]
	}
}

// entitySummary reads the doc comment above line decl (0-based), or the
// docstring right below it.
func entitySummary(lines [][]byte, decl int) string {
	// The whole block is walked, not only its last lines: a long doc
	// comment's first sentence is at its top (a block cut at 30 lines
	// summarised viper's Viper struct as "2.", from its numbered list).
	var above []string
	for l := decl - 1; l >= 0 && decl-l <= maxDocBlock; l-- {
		t := bytes.TrimSpace(lines[l])
		if len(t) == 0 {
			break
		}
		if t[0] == '@' { // decorators and annotations sit between
			continue
		}
		if isDirective(t) {
			continue
		}
		c, ok := commentText(t)
		if !ok {
			break
		}
		above = append(above, c)
	}
	if len(above) > 0 {
		slices.Reverse(above)
		if s := firstSentence(xmlDocText(leadParagraph(above[:min(len(above), maxDocLines)]))); s != "" {
			return s
		}
	}
	// A docstring or leading comment within the first lines of the body
	// (the signature may span several lines). Only an indented body
	// (Python's ':') is documented from inside: the first comment in a
	// brace body documents its first member (PHP's Message class read as
	// its first method's "Returns the string representation …").
	opened := bodyOpens(lines[decl])
	for l := decl + 1; l < len(lines) && l <= decl+6; l++ {
		t := bytes.TrimSpace(lines[l])
		if len(t) == 0 {
			continue
		}
		if s, ok := docstring(lines, l); ok {
			return s
		}
		if c, ok := commentText(t); ok {
			if opened == 0 {
				// Inside a multi-line signature or a type literal a
				// comment documents a parameter or a field (jotai's
				// BuildingBlocks tuple read as "store state").
				continue
			}
			if opened == '{' {
				return ""
			}
			block := []string{c}
			for k := l + 1; k < len(lines) && k < l+maxDocLines; k++ {
				c, ok := commentText(bytes.TrimSpace(lines[k]))
				if !ok {
					break
				}
				block = append(block, c)
			}
			return firstSentence(leadParagraph(block))
		}
		if opened != 0 {
			return "" // code: the body has no leading documentation
		}
		opened = bodyOpens(lines[l])
	}
	return ""
}

// bodyOpens reports how a declaration line ends its signature: ':'
// (Python), '{', or 0 when it does not.
func bodyOpens(line []byte) byte {
	t := bytes.TrimSpace(line)
	if len(t) > 0 && (t[len(t)-1] == ':' || t[len(t)-1] == '{') {
		return t[len(t)-1]
	}
	return 0
}

// leadParagraph is a doc comment's first paragraph: its lines up to the
// first blank one or the first tag (@param, @return …: JSDoc, PHPDoc,
// Javadoc). Guzzle's ServerRequest read on into its second paragraph,
// a private method as "@param (string|int)[] $keys @return string[]".
func leadParagraph(lines []string) string {
	var out []string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		switch {
		case l == "" && len(out) == 0:
			continue
		case l == "", strings.HasPrefix(l, "@"):
			return strings.Join(out, " ")
		}
		out = append(out, l)
	}
	return strings.Join(out, " ")
}

// fileSummary reads a file's leading docstring or comment block, skipping
// shebangs, encoding lines and licence headers.
func fileSummary(lines [][]byte) string {
	for l := 0; l < len(lines) && l < 40; l++ {
		t := bytes.TrimSpace(lines[l])
		if len(t) == 0 || bytes.HasPrefix(t, []byte("#!")) || bytes.Contains(t, []byte("coding")) && t[0] == '#' || isDirective(t) {
			continue
		}
		if s, ok := docstring(lines, l); ok {
			return s
		}
		if _, ok := commentText(t); !ok {
			return ""
		}
		// A comment block: gather it, skip it if it is a licence.
		block, k := blockComment(lines, l)
		for ; block == nil && k < len(lines); k++ {
			c, ok := commentText(bytes.TrimSpace(lines[k]))
			if !ok || isDirective(bytes.TrimSpace(lines[k])) {
				break
			}
			block = append(block, c)
		}
		text := strings.Join(block, " ")
		low := strings.ToLower(text)
		if strings.Contains(low, "copyright") || strings.Contains(low, "license") || strings.Contains(low, "spdx") {
			l = k - 1
			continue
		}
		return firstSentence(leadParagraph(block))
	}
	return ""
}

var (
	// xmlDocEnd starts the parts of a C# XML doc comment after its summary.
	xmlDocEnd = regexp.MustCompile(`<(param|typeparam|returns|remarks|exception|example|value)\b`)
	// xmlDocRef is a reference written as an element: <see cref="Foo"/>.
	xmlDocRef = regexp.MustCompile(`<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword)="([^"]*)"\s*/>`)
	xmlDocTag = regexp.MustCompile(`</?[a-zA-Z][^<>]*>`)
)

// xmlDocText reads a C# XML doc comment as prose: the summary's text,
// references by their names ("<summary> Adds <see cref="Money"/>." →
// "Adds Money."). Text without tags is returned as it is.
func xmlDocText(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	if loc := xmlDocEnd.FindStringIndex(s); loc != nil && loc[0] > 0 {
		s = s[:loc[0]]
	}
	s = xmlDocRef.ReplaceAllString(s, "$1")
	return xmlDocTag.ReplaceAllString(s, "")
}

// directives are comment-shaped lines addressed to a tool, not a reader.
var directives = []string{"/// <reference", "/// <amd-", "// @ts-", "// eslint-", "/* eslint-", "//go:", "// +build", "// @flow", "// prettier-ignore", "# type:", "# noqa", "# pylint:",
	"# mypy:", "# flake8:", "# fmt:", "# isort:", "# frozen_string_literal:", "# typed:", "# rubocop:", "# encoding:", "# -*-", "# vim:",
	"#include", "#ifndef", "#ifdef", "#if ", "#if(", "#define", "#pragma", "#import", "#endif", "#undef", "#else", "#elif"}

// isDirective reports a compiler or linter directive (TypeScript's
// triple-slash reference, //go:build, eslint pragmas, Ruby's magic
// comments, the C preprocessor's lines): jotai's benchmark files were
// summarised as `<reference types="node" />`, every rack file as
// "frozen_string_literal: true", yaml-cpp's as "include <cassert>" or
// its include guard.
func isDirective(t []byte) bool {
	for _, d := range directives {
		if bytes.HasPrefix(t, []byte(d)) {
			return true
		}
	}
	return false
}

// blockComment reads a /* … */ comment opened on line l whose inner
// lines need not start with '*' (walkdir's lib.rs opens with "/*!" and
// writes plain prose: its summary was "!"): the text of each line, and
// the line after the one that closes it. A line that opens no block
// gives nil and l.
func blockComment(lines [][]byte, l int) ([]string, int) {
	t := bytes.TrimSpace(lines[l])
	if !bytes.HasPrefix(t, []byte("/*")) || bytes.Contains(t[2:], []byte("*/")) {
		return nil, l
	}
	block := []string{}
	for k := l; k < len(lines); k++ {
		t := bytes.TrimSpace(lines[k])
		end := bytes.Contains(t, []byte("*/"))
		if k == l {
			t = bytes.TrimLeft(t[2:], "*!")
		} else if c, ok := commentText(t); ok {
			t = []byte(c)
		}
		block = append(block, strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(string(t)), "*/")))
		if end {
			return block, k + 1
		}
	}
	return block, len(lines)
}

// commentText strips a comment line's markers; ok is false for code.
func commentText(t []byte) (string, bool) {
	for _, p := range []string{"///", "//!", "//", "##", "#", "/**", "/*", "*/", "*", "--", ";;"} {
		if bytes.HasPrefix(t, []byte(p)) {
			if p == "*" && len(t) > 1 && t[1] != ' ' && t[1] != '\t' {
				// A block comment's continuation is "* text" or a bare
				// "*"; "*," and "*args" are Python parameters (starlette's
				// keyword-only TestClient.post was summarised as ",").
				return "", false
			}
			s := strings.TrimSpace(string(t[len(p):]))
			s = strings.TrimSpace(strings.TrimSuffix(s, "*/"))
			return s, true
		}
	}
	return "", false
}

// docstring reads a Python-style docstring starting on line l.
func docstring(lines [][]byte, l int) (string, bool) {
	t := bytes.TrimSpace(lines[l])
	t = bytes.TrimLeft(t, "rRbBuU")
	var q []byte
	switch {
	case bytes.HasPrefix(t, []byte(`"""`)):
		q = []byte(`"""`)
	case bytes.HasPrefix(t, []byte(`'''`)):
		q = []byte(`'''`)
	default:
		return "", false
	}
	var parts []string
	rest := t[3:]
	for k := l; k < len(lines) && k < l+12; k++ {
		if k > l {
			rest = bytes.TrimSpace(lines[k])
		}
		if i := bytes.Index(rest, q); i >= 0 {
			parts = append(parts, string(bytes.TrimSpace(rest[:i])))
			break
		}
		if len(rest) == 0 && len(parts) > 0 {
			break // end of the first paragraph
		}
		parts = append(parts, string(rest))
	}
	s := firstSentence(strings.Join(parts, " "))
	return s, s != ""
}

// firstSentence returns text up to its first full stop (or all of it),
// whitespace-collapsed and cut to maxSummary bytes on a rune boundary.
func firstSentence(text string) string {
	s := strings.Join(strings.Fields(text), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	if len(s) > maxSummary {
		cut := maxSummary
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = strings.TrimSpace(s[:cut]) + "…"
	}
	return s
}
