package documents

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// Prose that says "you can pass ``ignore=True`` to ``.create()``" claims
// the method takes that keyword (sqlite-utils documented ignore= and
// replace= for a create() that never took them, fix 78264b7). The
// claim is checked against every def of that name in the project: it is
// stale only when none of them takes the keyword and none could take it
// through **kwargs or a decorator. "This method takes …" points at the
// last call of the example just above the paragraph.

// maxKeywordFindings bounds the findings per page.
const maxKeywordFindings = 3

var (
	// kwSpanRe: a code span holding one keyword with a literal value.
	kwSpanRe = regexp.MustCompile("`{1,2}([a-z_][a-z0-9_]*)=(True|False|None|-?\\d[\\d.]*|'[^'`]*'|\"[^\"`]*\"|\\(\\)|\\[\\]|\\{\\}|set\\(\\)|dict\\(\\)|list\\(\\))`{1,2}")
	// callRefRe: a callable the paragraph names — a role (:meth:`x.y`)
	// or a code span ending in "()" (``.insert()``, `table.insert()`).
	callRefRe = regexp.MustCompile(":(?:py:)?(?:meth|func):`[~!]?([A-Za-z_][\\w.]*?)(?:\\(\\))?`|`{1,2}\\.?([A-Za-z_][\\w.]*)\\(\\)`{1,2}")
	// thisCallableRe: the paragraph speaks of the example's callable.
	thisCallableRe = regexp.MustCompile(`(?i)\b(?:this|the above) (?:method|function)\b`)
	// exLastCallRe: the last call of an example line.
	exLastCallRe = regexp.MustCompile(`\.?([A-Za-z_]\w*)\s*\(`)
)

// kwClaim is one keyword a paragraph says a callable takes.
type kwClaim struct {
	callee, keyword, text string
	line                  int
}

// keywordClaims reads the claims of a page, sentence by sentence: a
// keyword span is bound to the one callable its sentence names when the
// sentence links them ("pass “ignore=True“ to “create()“", "call
// “insert()“ with “alter=True“"), or, in a paragraph about "this
// method", to the last call of the example block just above when the
// sentence passes it (the next paragraph, naming no callable, goes on
// about the same method: sqlite-utils' "This method takes …" then "You
// can pass “ignore=True“ …"). Naming both is not enough: textual's "set
// `recompose=True` on a reactive, then Textual will … call `compose()`"
// gives the keyword to reactive.
func keywordClaims(text string) []kwClaim {
	lines := strings.Split(text, "\n")
	var out []kwClaim
	carried := "" // "This method takes …" followed by a paragraph that goes on about it
	for _, p := range proseParagraphs(proseLines(text)) {
		joined := strings.Join(p.texts, " ")
		this := ""
		if thisCallableRe.MatchString(joined) {
			this = exampleCalleeAbove(lines, p.first)
		} else if !callRefRe.MatchString(joined) {
			this = carried
		}
		carried = this
		if !kwSpanRe.MatchString(joined) {
			continue
		}
		for _, sentence := range sentenceSplitRe.Split(joined, -1) {
			kws := kwSpanRe.FindAllStringSubmatch(sentence, -1)
			if len(kws) == 0 {
				continue
			}
			callee, refs := sentenceCallee(sentence)
			for _, k := range kws {
				c := ""
				switch {
				case callee != "" && slices.ContainsFunc(refs, func(r string) bool { return linksCall(sentence, k[0], r) }):
					c = callee
				case callee == "" && this != "" && passVerbRe.MatchString(sentence):
					c = this
				}
				if c != "" {
					out = append(out, kwClaim{callee: c, keyword: k[1], text: strings.Trim(k[0], "`"), line: p.lineOf(k[0])})
				}
			}
		}
	}
	return out
}

var (
	sentenceSplitRe = regexp.MustCompile(`[.;:!?]\s+`)
	passVerbRe      = regexp.MustCompile(`(?i)\b(?:pass(?:es|ing)?|takes?|accepts?)\b`)
)

// linksCall: the sentence passes kw to the callable written ref ("pass
// … kw … to … ref") or calls ref with it ("ref … with/takes/accepts … kw").
func linksCall(sentence, kw, ref string) bool {
	i, j := strings.Index(sentence, kw), strings.Index(sentence, ref)
	if i < 0 || j < 0 {
		return false
	}
	if i < j {
		return passVerbRe.MatchString(sentence[:i]) && strings.Contains(sentence[i:j], " to ")
	}
	return regexp.MustCompile(`(?i)\b(?:with|takes?|accepts?)\b`).MatchString(sentence[j:i])
}

// sentenceCallee is the last name of the one callable a sentence names,
// and each way it is written; "" when it names none or several.
func sentenceCallee(s string) (name string, refs []string) {
	for _, m := range callRefRe.FindAllStringSubmatch(s, -1) {
		q := m[1] + m[2]
		n := q[strings.LastIndexByte(q, '.')+1:]
		if name != "" && n != name {
			return "", nil
		}
		name, refs = n, append(refs, m[0])
	}
	return name, refs
}

// proseParagraph is a run of adjacent prose lines.
type proseParagraph struct {
	first int
	lines []int
	texts []string
}

func (p proseParagraph) lineOf(s string) int {
	for i, t := range p.texts {
		if strings.Contains(t, s) {
			return p.lines[i]
		}
	}
	return p.first
}

// proseParagraphs groups prose lines into paragraphs (a blank line or a
// gap in line numbers ends one).
func proseParagraphs(ls []exLine) []proseParagraph {
	var out []proseParagraph
	for i, l := range ls {
		if strings.TrimSpace(l.text) == "" {
			continue
		}
		if n := len(out); n > 0 && i > 0 && ls[i-1].line == l.line-1 && strings.TrimSpace(ls[i-1].text) != "" {
			out[n-1].lines = append(out[n-1].lines, l.line)
			out[n-1].texts = append(out[n-1].texts, l.text)
			continue
		}
		out = append(out, proseParagraph{first: l.line, lines: []int{l.line}, texts: []string{l.text}})
	}
	return out
}

// exampleCalleeAbove is the last call of the code block that ends just
// above line first (1-based; blank lines between are allowed, prose is
// not).
func exampleCalleeAbove(lines []string, first int) string {
	for i := first - 2; i >= 0 && i >= first-40; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" || l == "```" || strings.HasPrefix(l, "})") || l == ")" || l == "})" {
			continue
		}
		if !strings.HasPrefix(lines[i], " ") && !strings.HasPrefix(lines[i], "\t") {
			if callRefRe.MatchString(l) || adornmentRe.MatchString(l) || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "..") {
				return "" // another callable, a heading or a directive: not this example's method
			}
			continue // a paragraph between ("The first argument here is …", sqlite-utils)
		}
		for j := i; j >= 0 && j >= i-8; j-- {
			if ms := exLastCallRe.FindAllStringSubmatch(lines[j], -1); ms != nil {
				return ms[len(ms)-1][1]
			}
		}
		return ""
	}
	return ""
}

// keywordFindings checks each claim against the defs named like its
// callable.
func keywordFindings(b *session.Bundle, src *driftSources, d *document.DocDrift, text []byte) []document.Finding {
	var fs []document.Finding
	seen := map[string]bool{}
	for _, c := range keywordClaims(string(text)) {
		if seen[c.callee+"."+c.keyword] || len(fs) == maxKeywordFindings {
			continue
		}
		seen[c.callee+"."+c.keyword] = true
		defs, ok := namedDefs(b.Graph, src, c.callee)
		if !ok || len(defs) == 0 || takesKeyword(defs, c.keyword) {
			continue
		}
		left := src.keywordLeft(defs, c.keyword)
		fs = append(fs, document.Finding{Kind: document.DriftMissing, Section: sectionAt(b.Graph, d, c.line),
			Mention: document.Mention{Kind: document.MentionCode, Text: c.text}, Line: c.line, Param: c.keyword, Commit: left.commit,
			Detail: fmt.Sprintf("the page passes %s to %s(), but no def %s takes %s (%s)", c.text, c.callee, c.callee, c.keyword, describeDefs(defs)) +
				left.describe(c.callee+" took "+c.keyword)})
	}
	return fs
}

var adornmentRe = regexp.MustCompile(`^(?:={3,}|-{3,}|~{3,}|\^{3,}|"{3,}|'{3,}|#{3,}|\*{3,}|\+{3,})\s*$`) // a reST title underline

var exampleCodeRe = regexp.MustCompile(`(?:^|/)(?:docs?|examples?|snippets)/`)

// namedDef is one def of a name, with its signature.
type namedDef struct {
	path, qual string
	sig        pySig
}

// namedDefs reads every function or method of the project called name;
// false when one of them cannot be read surely (decorated, no source),
// so the claim is not judged.
func namedDefs(g *graph.Graph, src *driftSources, name string) ([]namedDef, bool) {
	var out []namedDef
	for _, id := range g.NodesByLabel(name) {
		if g.Type(id) != graph.Function {
			continue
		}
		p, segs, ok := document.CodeQual(g.ExternalID(id))
		if !ok || len(segs) == 0 || !strings.HasSuffix(p, ".py") || exampleCodeRe.MatchString(p) {
			continue // the docs' own snippets are not the API the prose claims
		}
		text, readable := src.source(p)
		if !readable {
			return nil, false
		}
		sig, _, ok := sigIn(string(text), strings.Join(segs, "."))
		if !ok {
			return nil, false
		}
		out = append(out, namedDef{path: p, qual: strings.Join(segs, "."), sig: sig})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path+out[i].qual < out[j].path+out[j].qual })
	return out, true
}

// takesKeyword: some def takes k by name, or may through **kwargs.
func takesKeyword(defs []namedDef, k string) bool {
	for _, d := range defs {
		if d.sig.varKw || d.sig.hasKeyword(k) {
			return true
		}
	}
	return false
}

// describeDefs names the first def and its parameters, and how many more.
func describeDefs(defs []namedDef) string {
	d := defs[0]
	var ps []string
	for _, p := range d.sig.params {
		ps = append(ps, p.name)
	}
	s := d.path + ": def " + d.qual + "(" + strings.Join(ps, ", ") + ")"
	if len(defs) > 1 {
		s += fmt.Sprintf(" and %d more", len(defs)-1)
	}
	return tools.ClipText(s, 160) // a long signature costs the agent bytes
}
