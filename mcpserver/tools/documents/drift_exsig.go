package documents

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// pySig is what a def accepts from a caller.
type pySig struct {
	params        []sigParam // in order, without *args and **kwargs
	varPos, varKw bool
	ret           string // the return annotation when it is a plain dotted name ("DateTime")
}

// retRe is a def header's plain return annotation, quoted or not.
var retRe = regexp.MustCompile(`^\s*->\s*["']?([A-Za-z_][\w.]*)["']?\s*:?\s*$`)

type sigParam struct {
	name            string
	posOnly, kwOnly bool
	required        bool   // no default
	def             string // the default as written, "" for none
}

// knownDecorators leave a def's or a class's call signature as written
// (the standard library's). Any other decorator may wrap the def in a
// function taking other arguments, so the def is not checked.
var knownDecorators = map[string]bool{
	"staticmethod": true, "classmethod": true, "contextmanager": true, "asynccontextmanager": true,
	"lru_cache": true, "cache": true, "wraps": true, "total_ordering": true, "final": true,
	"runtime_checkable": true, "override": true, "abstractmethod": true, "singledispatch": true,
}

// decoratorNames are the last names of the decorators above d
// ("@functools.lru_cache(maxsize=2)" → lru_cache).
func decoratorNames(ls []pyLine, d pyDef) []string {
	var out []string
	for i := d.head - 1; i >= 0 && ls[i].first >= d.start; i-- {
		t := strings.TrimPrefix(ls[i].text, "@")
		t, _, _ = strings.Cut(t, "(")
		if j := strings.LastIndexByte(t, '.'); j >= 0 {
			t = t[j+1:]
		}
		out = append(out, strings.TrimSpace(t))
	}
	return out
}

// plainDecorators: every decorator is a known one.
func plainDecorators(names []string) bool {
	for _, n := range names {
		if !knownDecorators[n] {
			return false
		}
	}
	return true
}

// sigIn reads the signature of the def qual in Python text. A method
// (a def inside a class) loses its first parameter unless it is a
// staticmethod. false when there is no such def, or it is decorated
// with something that may change what it accepts.
func sigIn(text, qual string) (pySig, []string, bool) {
	ls := pyLines(text)
	defs := pyOutline(ls)
	d, ok := findDef(defs, qual)
	if !ok || d.class {
		return pySig{}, nil, false
	}
	decs := decoratorNames(ls, d)
	if !plainDecorators(decs) {
		return pySig{}, decs, false
	}
	sig, ok := parseSig(ls[d.head].text)
	if !ok {
		return pySig{}, decs, false
	}
	inClass := false
	if i := strings.LastIndexByte(qual, '.'); i >= 0 {
		if o, ok := findDef(defs, qual[:i]); ok && o.class {
			inClass = true
		}
	}
	if inClass && !contains(decs, "staticmethod") {
		if len(sig.params) == 0 {
			return pySig{}, decs, false // self taken by *args: unknown
		}
		sig.params = sig.params[1:]
	}
	return sig, decs, true
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// parseSig reads a def header's parameters.
func parseSig(head string) (pySig, bool) {
	open := strings.IndexByte(head, '(')
	if open < 0 {
		return pySig{}, false
	}
	cl := closeOf(head, open)
	if cl >= len(head) {
		return pySig{}, false
	}
	var sig pySig
	kwOnly := false
	for _, p := range splitTop(head[open+1:cl], ',') {
		name := strings.TrimSpace(splitTop(splitTop(p, '=')[0], ':')[0])
		switch {
		case name == "":
		case name == "/":
			for i := range sig.params {
				sig.params[i].posOnly = true
			}
		case name == "*":
			kwOnly = true
		case strings.HasPrefix(name, "**"):
			sig.varKw = true
		case strings.HasPrefix(name, "*"):
			sig.varPos, kwOnly = true, true
		default:
			sig.params = append(sig.params, sigParam{name: name, kwOnly: kwOnly, required: len(splitTop(p, '=')) == 1, def: defaultOf(p)})
		}
	}
	if m := retRe.FindStringSubmatch(head[cl+1:]); m != nil {
		sig.ret = m[1]
	}
	return sig, true
}

// classDecorated: the class qual in text has a decorator that is not a
// known plain one (dataclass, attrs' define: they write __init__), or a
// metaclass, whose __call__ may take anything.
func classDecorated(text, qual string) bool {
	ls := pyLines(text)
	d, ok := findDef(pyOutline(ls), qual)
	if !ok || !d.class {
		return true
	}
	return !plainDecorators(decoratorNames(ls, d)) || strings.Contains(ls[d.head].text, "metaclass")
}

// rejects says why a call does not fit a signature: the first keyword
// it has no parameter for, or too many positional arguments. "" when
// it fits (or a star argument hides what it passes).
func (s pySig) rejects(c exCall) (param, why string) {
	if !s.varKw {
		for _, k := range c.kws {
			if !s.hasKeyword(k) {
				return k, "no parameter " + k
			}
		}
	}
	if !s.varPos && !c.starPos {
		n := 0
		for _, p := range s.params {
			if !p.kwOnly {
				n++
			}
		}
		if c.pos > n {
			return "", "takes " + strconv.Itoa(n) + " positional arguments, the example passes " + strconv.Itoa(c.pos)
		}
	}
	if p := s.leftOut(c); p != "" {
		return p, "requires " + p + ", which the example does not pass"
	}
	return "", ""
}

// leftOut is the first parameter without a default that the call passes
// neither by position nor by keyword (tenacity's example called
// retry_if_exception() without its predicate); "" when the call's stars
// may pass it.
func (s pySig) leftOut(c exCall) string {
	if c.starPos || c.starKw {
		return ""
	}
	pos := 0
	for _, p := range s.params {
		if !p.kwOnly && pos < c.pos {
			pos++
			continue
		}
		if p.required && !slices.Contains(c.kws, p.name) {
			return p.name
		}
	}
	return ""
}

func (s pySig) hasKeyword(k string) bool {
	for _, p := range s.params {
		if p.name == k && !p.posOnly {
			return true
		}
	}
	return false
}

// defaultOf is the default a parameter is written with ("ttl=600" →
// "600"), "" for none.
func defaultOf(param string) string {
	parts := splitTop(param, '=')
	if len(parts) < 2 {
		return ""
	}
	return strings.TrimSpace(strings.Join(parts[1:], "="))
}

// literalDefault normalizes a default that is a literal (a number, a
// string, True, False, None) or a dotted name, and says which it is;
// ok false for anything else (an expression, a call, a placeholder).
func literalDefault(v string) (norm string, literal, ok bool) {
	v = strings.TrimSpace(v)
	switch {
	case v == "True" || v == "False" || v == "None":
		return v, true, true
	case len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] && !strings.ContainsAny(v[1:len(v)-1], "'\""):
		return "'" + v[1:len(v)-1] + "'", true, true
	case dottedRe.MatchString(v):
		return v, false, true
	}
	if f, err := strconv.ParseFloat(strings.ReplaceAll(v, "_", ""), 64); err == nil {
		return strconv.FormatFloat(f, 'g', -1, 64), true, true
	}
	return "", false, false
}

// defaultDiffers: the page's default and the def's are both literals, or
// both names, and differ. A literal against a name (eol='\n' against
// eol=LF) is not compared: the name's value is not read. Nor is a private
// name, a sentinel for "not given" (pyparsing's nested_expr(…,
// ignore_expr=_NO_IGNORE_EXPR_GIVEN) still ignores quoted_string, as its
// page says).
func defaultDiffers(page, code string) bool {
	p, pl, ok1 := literalDefault(page)
	c, cl, ok2 := literalDefault(code)
	return ok1 && ok2 && pl == cl && p != c && !strings.HasPrefix(p, "_") && !strings.HasPrefix(c, "_")
}
