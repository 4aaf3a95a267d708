package documents

import (
	"regexp"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// A page that writes out what a callable takes makes a claim a reader can
// check against the def: starlette's staticfiles.md said
// "Signature: `StaticFiles(directory=None, packages=None, check_dir=True, …)`"
// long after the def had gained html (fixed by bc90057 on the history
// harness). A quote is checked only where every argument reads as a
// parameter (a name, name=default, *args, **kwargs), so example calls
// with literals are left to the example checker.

// sigQuote is one hand-written signature in a page.
type sigQuote struct {
	line   int
	text   string   // as written, cut to maxCallText
	name   string   // the callable's dotted name as written
	params []string // parameter names in order, without * and / markers
	named  []bool   // params[i] was written name=value: a keyword, not a placeholder
	defs   []string // the default written for params[i], "" for none
	star   bool     // *args or **kwargs quoted
	// full: the page presents it as the whole signature (a "Signature:"
	// line, a reST function/class directive, a quoted def), so a
	// parameter it leaves out is a claim too.
	full bool
	// stub: a stub def of a Python block, compared only when it shares a
	// parameter with the def (else it is the reader's namesake function).
	stub bool
	// scope: the module a directive quote is filed under (.. module::), "" for none.
	scope string
	// method: a method directive, whose bare name is relative to a class.
	method bool
}

var (
	// `Name(params)` or ``Name(params)`` inline, or "def name(params)".
	inlineSigRe = regexp.MustCompile("``?(?:(?:async\\s+)?def\\s+)?([A-Za-z_][\\w.]*)\\(([^`()]*)\\)(?:\\s*->[^`]*)?``?")
	// .. function:: name(params), .. py:class:: Name(params), .. method::
	directiveSigRe = regexp.MustCompile(`^\s*\.\.\s+(?:py:)?(function|class|method|classmethod|staticmethod|decorator)::\s+([A-Za-z_][\w.]*)\((.*)\)\s*(?:->.*)?$`)
	// sameAsRe: a directive whose body says it is another object's twin
	// quotes a placeholder, not parameters: attrs' ".. function::
	// mutable(same_as_define)" / "Same as `attrs.define`" (the lead's run).
	sameAsRe     = regexp.MustCompile(`(?i)^(?:same as|an? alias (?:of|for)|alias (?:of|for)|identical to|equivalent to)\b`)
	quoteParamRe = regexp.MustCompile(`^(\*{0,2})([A-Za-z_]\w*)\s*(?::[^=]+)?(?:=.+)?$`)
	signatureRe  = regexp.MustCompile(`(?i)\bsignature\s*:?\s*$`)
)

// quotedSignatures finds the hand-written signatures of a page's lines.
func quotedSignatures(lines []string) []sigQuote {
	var out []sigQuote
	scopes := moduleScopes(lines)
	for i, l := range lines {
		if m := directiveSigRe.FindStringSubmatch(l); m != nil {
			if q, ok := readQuote(i+1, strings.TrimSpace(l), m[2], m[3], true); ok && !sameAs(lines, i, q) {
				q.scope, q.method = scopes[i], strings.HasSuffix(m[1], "method")
				out = append(out, q)
			}
			continue
		}
		for _, at := range inlineSigRe.FindAllStringSubmatchIndex(l, -1) {
			m := l[at[0]:at[1]]
			// Whole only right after "Signature:" (starlette's "with a
			// signature like `func(request)`" names the reader's function
			// in the same line as `app.add_route(path, func)`) or a def.
			full := signatureRe.MatchString(l[:at[0]]) || strings.Contains(m, "def ")
			if q, ok := readQuote(i+1, m, l[at[2]:at[3]], l[at[4]:at[5]], full); ok {
				out = append(out, q)
			}
		}
	}
	return out
}

// sameAs: the directive at lines[i] is a placeholder for another
// object — its one parameter is spelled same_as_…, or its body's first
// line says "Same as …" / "Alias for …".
func sameAs(lines []string, i int, q sigQuote) bool {
	if len(q.params) == 1 && strings.HasPrefix(q.params[0], "same_as") {
		return true
	}
	for _, l := range lines[i+1:] {
		t := strings.TrimSpace(l)
		switch {
		case t == "" || strings.HasPrefix(t, ":"):
			continue // a blank line or a directive option
		case len(l)-len(strings.TrimLeft(l, " \t")) == 0:
			return false // the body ended
		}
		// "Identical to jwt.decode except for the return value" (pyjwt)
		// quotes its own list: a claim, compared.
		return sameAsRe.MatchString(t) && !exceptRe.MatchString(t)
	}
	return false
}

var exceptRe = regexp.MustCompile(`(?i)\b(?:except|but|apart from|other than)\b`)

// readQuote reads a quote's parameter list; false when some argument is
// not parameter-like (a literal, a call, an expression) or none is given.
func readQuote(line int, text, name, args string, full bool) (sigQuote, bool) {
	q := sigQuote{line: line, text: text, name: name, full: full}
	if len(q.text) > maxCallText {
		q.text = q.text[:maxCallText]
	}
	for _, a := range splitTop(args, ',') {
		a = strings.TrimSpace(a)
		if a == "*" || a == "/" || a == "" || a == "..." {
			q.star = q.star || a == "..."
			continue
		}
		m := quoteParamRe.FindStringSubmatch(a)
		if m == nil || strings.ContainsAny(a, "\"'") && !strings.Contains(a, "=") {
			return sigQuote{}, false
		}
		if m[1] != "" {
			q.star = true
			continue
		}
		if m[2] == "self" || m[2] == "cls" {
			continue // a method's own parameter, not the caller's
		}
		q.params = append(q.params, m[2])
		q.named = append(q.named, strings.Contains(a, "="))
		q.defs = append(q.defs, defaultOf(a))
	}
	return q, len(q.params) > 0
}

// mismatch says how a quote disagrees with the def's signature: a name
// the def does not take, or (for a whole signature) a parameter the def
// has and the quote leaves out. "" when it agrees.
func (q sigQuote) mismatch(s pySig) string {
	var unknown, left []string
	for i, p := range q.params {
		// In a quote that is not the whole signature a bare name may be
		// the reader's variable ("connect(server)"); a keyword is a name.
		if !q.full && !q.named[i] {
			continue
		}
		if !slices.ContainsFunc(s.params, func(sp sigParam) bool { return sp.name == p }) && !s.varKw {
			unknown = append(unknown, "`"+p+"`")
		}
	}
	if q.full && !q.star {
		for _, sp := range s.params {
			if !slices.Contains(q.params, sp.name) && !private(sp.name) {
				left = append(left, "`"+sp.name+"`")
			}
		}
	}
	var why []string
	if d := q.defaultsDiffer(s); len(d) > 0 {
		why = append(why, "gives "+strings.Join(d, ", "))
	}
	if len(unknown) > 0 {
		why = append(why, "names "+strings.Join(unknown, ", ")+", which the def does not take")
	}
	if len(left) > 0 {
		why = append(why, "leaves out "+strings.Join(left, ", ")+", which the def takes")
	}
	return strings.Join(why, "; ")
}

// defaultsDiffer lists the defaults a quote writes that the def gives
// otherwise ("`ttl=3600`, the def's 600"). Only a whole signature writes
// defaults: inline, `Word(printables, exclude_chars='.')` is a call whose
// keyword takes a value (pyparsing, seen on split10). A stub def is the
// reader's code, whose defaults are its own.
func (q sigQuote) defaultsDiffer(s pySig) []string {
	if q.stub || !q.full {
		return nil
	}
	var out []string
	for i, p := range q.params {
		j := slices.IndexFunc(s.params, func(sp sigParam) bool { return sp.name == p })
		if j >= 0 && q.defs[i] != "" && s.params[j].def != "" && defaultDiffers(q.defs[i], s.params[j].def) {
			out = append(out, "`"+p+"="+q.defs[i]+"`, where the def's default is `"+s.params[j].def+"`")
		}
	}
	return out
}

// signatureFindings compares each hand-written signature of a page with
// the def it names, resolved uniquely (a dotted name through the
// package's modules and re-exports, a bare one as the page's bindings
// resolve it).
func signatureFindings(b *session.Bundle, src *driftSources, d *document.DocDrift, lines []string) []document.Finding {
	x := docIndex(b)
	var fs []document.Finding
	qs := append(quotedSignatures(lines), stubSignatures(pyExamples(strings.Join(lines, "\n")))...)
	for _, q := range qs {
		k, ok := callable{}, false
		if q.scope != "" {
			k, ok = scopedCallable(b, src, x, scopedName(q.scope, q.name))
		}
		if !ok {
			k, ok = quotedCallable(b, src, x, q.name)
			// A module's alias (scoped above) may be a method; so may the
			// namesake of a directive filed under a module that lacks the
			// name (pyjwt's decode_complete, a real finding on tune).
			// A module that is not the project's (bottle's
			// `.. currentmodule:: stpl`, its template language) exempts nothing.
			ok = ok && (projectModule(x, q.scope) || !bareMethod(b.Graph, q, k))
		}
		if !ok || operatorDunder(q.name) {
			continue
		}
		why := q.mismatch(k.sig)
		if why == "" || q.stub && !sharesParam(q, k.sig) {
			continue
		}
		left := src.lastFit(k.path, k.sigAt, quoteFits(q))
		fs = append(fs, document.Finding{Kind: document.DriftCodeChanged, Section: sectionAt(b.Graph, d, q.line), Target: k.node, File: x.FileOf(k.node),
			Mention: document.Mention{Kind: document.MentionCode, Text: q.text}, Line: q.line, CodeChanged: src.changed(x.FileOf(k.node)), Commit: left.commit,
			Detail: "the page's signature " + why + " (" + k.path + ": " + defNameSig(k) + ")" + left.describe("the def fitted the page")})
	}
	return fs
}

// defNameSig is the def's name and parameters, then the alias followed
// to it.
func defNameSig(k callable) string {
	via := k.via
	k.via = ""
	s := defName(k) + sigText(k.sig)
	if via != "" {
		s += ", through " + via
	}
	return s
}

// sigText lists a signature's parameter names, "(a, b, *, c)".
func sigText(s pySig) string {
	var ps []string
	kw := false
	for _, p := range s.params {
		if p.kwOnly && !kw && !s.varPos {
			ps = append(ps, "*")
		}
		kw = kw || p.kwOnly
		ps = append(ps, p.name)
	}
	if s.varKw {
		ps = append(ps, "**")
	}
	return "(" + strings.Join(ps, ", ") + ")"
}

// quotedCallable resolves a quoted name to one def or class of the
// project and reads what it accepts. A method quoted through its class
// is compared without its instance parameter.
func quotedCallable(b *session.Bundle, src *driftSources, x *document.Index, name string) (callable, bool) {
	g := b.Graph
	var ids []graph.NodeID
	kind := document.MentionIdent
	if strings.Contains(name, ".") {
		ids, kind = x.PythonName(name), document.MentionQualified
	}
	if len(ids) == 0 {
		for _, c := range x.Resolve(document.Mention{Kind: kind, Text: name}) {
			ids = append(ids, c.Node)
		}
	}
	if len(ids) != 1 {
		return callable{}, false
	}
	switch g.Type(ids[0]) {
	case graph.Function:
		return defCallable(g, src, ids[0], ids[0], false)
	case graph.Class:
		k, ok := classCallable(g, src, x, ids[0])
		return k, ok && k.def != graph.NoNode // no __init__ found: nothing to compare
	}
	return callable{}, false
}

// bareMethod: a quote that names a function by a bare name (a
// `.. function::` directive, a top-level def in a block, an inline
// quote) resolved to a method of some class. A method is quoted through
// its class or under a method directive; the bare name is another
// object's: falcon's responder stub `def on_put(self, req, resp, name)`
// met falcon/bench's ItemResource.on_put, bottle's template built-in
// `.. function:: setdefault(name, default)` met ConfigDict.setdefault
// (3 false findings of split6's held-out).
func bareMethod(g *graph.Graph, q sigQuote, k callable) bool {
	return !q.method && !strings.Contains(q.name, ".") && g.Type(k.node) == graph.Function && strings.Contains(k.qual, ".")
}

// projectModule: scope names a module of the project.
func projectModule(x *document.Index, scope string) bool {
	if scope == "" {
		return false
	}
	_, known := x.PythonModuleFiles(scope)
	return known
}

// sharesParam: some parameter the quote names is one the def takes.
func sharesParam(q sigQuote, s pySig) bool {
	return slices.ContainsFunc(q.params, func(p string) bool {
		return slices.ContainsFunc(s.params, func(sp sigParam) bool { return sp.name == p })
	})
}

// operatorDunder: a quoted URL.__truediv__(url) is reached as url / x;
// its parameter's name is nothing a reader writes (yarl's api.rst).
func operatorDunder(name string) bool {
	last := name[strings.LastIndex(name, ".")+1:]
	return strings.HasPrefix(last, "__") && strings.HasSuffix(last, "__") && last != "__init__" && last != "__new__" && last != "__call__"
}
