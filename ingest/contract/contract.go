// Package contract reads the API contracts a source file takes part in:
// the HTTP routes a server declares (net/http, gin, echo, chi, gorilla,
// Flask, FastAPI, Express …), the requests a client makes to a path
// (fetch, axios, requests, httpx, net/http), the gRPC services a .proto
// file declares, and the generated clients and servers that name them.
// It reads text, not syntax trees: comments are blanked first, so a
// path that only appears in a comment is never a route or a request.
// federate matches one repository's requests to another's routes.
package contract

import (
	"regexp"
	"slices"
	"strings"
)

// Route is an HTTP route a server declares.
type Route struct {
	Method  string `json:"method,omitempty"` // upper case; "" for any
	Path    string `json:"path"`             // normalised (NormPath)
	Line    int    `json:"line"`
	Handler string `json:"handler,omitempty"` // the named handler function; "" inline
}

// Request is an HTTP request a client makes.
type Request struct {
	Method string `json:"method,omitempty"`
	Path   string `json:"path"`
	Line   int    `json:"line"`
}

// Facts are what one file declares and calls.
type Facts struct {
	Routes   []Route   `json:"routes,omitempty"`
	Requests []Request `json:"requests,omitempty"`
	Services []Service `json:"services,omitempty"`
	// Local are a router module's routes as written (not normalised),
	// for the file that mounts the module to prefix (Express).
	Local []Route `json:"local,omitempty"`
	// Mounts are the router modules this file mounts under a prefix.
	Mounts []Mount `json:"mounts,omitempty"`
}

// Mount is app.use("/api/users", require("./routes/users")): the routes
// of Module (a relative import, as written) answer under Prefix.
type Mount struct {
	Prefix string `json:"prefix"`
	Module string `json:"module"`
	Line   int    `json:"line"`
}

// Extract reads the routes, requests and protobuf services of one file.
// relPath picks the language by its extension; other files give nothing.
func Extract(relPath string, src []byte) Facts {
	l := langOf(relPath)
	if l == langNone {
		return Facts{}
	}
	t := newText(l, src)
	switch l {
	case langGo:
		return goFacts(t)
	case langJS:
		return jsFacts(t)
	case langPy:
		return pyFacts(t)
	}
	return Facts{Services: protoServices(t)}
}

// arg is one argument of a call as written (comments blanked).
type arg struct {
	start int
	text  string
}

// maxArgs bounds the bytes read for one call's arguments.
const maxArgs = 4096

// args splits the arguments of the call whose '(' is at open, and
// returns the offset just past its ')' (-1 when unbalanced).
func (t *text) args(open int) ([]arg, int) {
	var out []arg
	depth, from := 0, open+1
	for i := open + 1; i < len(t.src) && i < open+maxArgs; i++ {
		if t.inStr[i] {
			continue
		}
		switch t.src[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
				continue
			}
			if a := strings.TrimSpace(t.src[from:i]); a != "" {
				out = append(out, arg{from, a})
			}
			return out, i + 1
		case ',':
			if depth == 0 {
				out = append(out, arg{from, strings.TrimSpace(t.src[from:i])})
				from = i + 1
			}
		}
	}
	return nil, -1
}

// closeBrace is the offset of the '}' matching the '{' at open (-1 when
// unbalanced).
func (t *text) closeBrace(open int) int {
	depth := 0
	for i := open; i < len(t.src); i++ {
		if t.inStr[i] {
			continue
		}
		switch t.src[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// template reads an expression that builds a path into a template: the
// text of its string literals, a hole for every other operand and every
// hole of a literal (${x}, {x}, %d). ok is false without any literal.
func template(expr string, py bool) (string, bool) {
	var b strings.Builder
	pending, lit := false, false
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			if pending {
				b.WriteByte(hole)
				pending = false
			}
			i = literal(&b, expr, i, py)
			lit = true
		case c == '+' || c == ' ' || c == '\t' || c == '\n' || c == '(' || c == ')':
		case py && isStrPrefix(expr, i):
		default:
			pending = true
		}
	}
	if pending {
		b.WriteByte(hole)
	}
	s := printfVerb.ReplaceAllString(b.String(), string(hole))
	return s, lit
}

// isStrPrefix: expr[i] is a Python string prefix letter (f"…", rb'…').
func isStrPrefix(expr string, i int) bool {
	j := i
	for j < len(expr) && j-i < 2 && strings.IndexByte("rRbBfFuU", expr[j]) >= 0 {
		j++
	}
	return j > i && j < len(expr) && (expr[j] == '"' || expr[j] == '\'') && (i == 0 || !isIdent(expr[i-1]))
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// literal writes the content of the string literal opening at expr[i]
// with its holes and returns the offset of its closing quote.
func literal(b *strings.Builder, expr string, i int, py bool) int {
	q := expr[i]
	for j := i + 1; j < len(expr); j++ {
		c := expr[j]
		switch {
		case c == '\\' && q != '`' && j+1 < len(expr):
			j++
			b.WriteByte(expr[j])
		case c == q:
			return j
		case (c == '$' && q == '`' && j+1 < len(expr) && expr[j+1] == '{') || (c == '{' && py):
			end := strings.IndexByte(expr[j:], '}')
			if end < 0 {
				return len(expr)
			}
			b.WriteByte(hole)
			j += end
		default:
			b.WriteByte(c)
		}
	}
	return len(expr)
}

// path reads a path argument: its normalised form, or ok false.
func (t *text) path(a arg) (string, bool) {
	tmpl, ok := template(a.text, t.pyLike)
	if !ok {
		return "", false
	}
	return NormPath(tmpl)
}

// lookBack bounds how far before a call paths() looks for the
// assignments of a variable the call passes.
const lookBack = 3000

// paths reads a path argument, or when it is a variable and vars is
// set (the call surely makes a request), the paths the assignments to it
// shortly before the call build (url := base + "/x"; a switch assigning
// one of several).
func (t *text) paths(a arg, vars bool) []string {
	if p, ok := t.path(a); ok {
		return []string{p}
	}
	if !vars || !isName(a.text) {
		return nil
	}
	var out []string
	from := max(0, a.start-lookBack)
	for _, m := range assignRe(a.text).FindAllStringIndex(t.src[from:a.start], -1) {
		at := from + m[1]
		if t.inStr[at-1] || (at < len(t.src) && t.src[at] == '=') {
			continue
		}
		rhs := t.src[at:min(len(t.src), at+maxArgs)]
		if end := strings.IndexAny(rhs, ";\n"); end >= 0 {
			rhs = rhs[:end]
		}
		if p, ok := t.path(arg{at, strings.TrimSpace(rhs)}); ok && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// httpRecv: a receiver whose get(url) is surely a request; a map's
// get(key) with a key that looks like a path is not.
var httpRecv = regexp.MustCompile(`(?i)(api|client|http|request|session|axios|fetch)`)

// assignRe matches "name =" and "name :=" (not "name ==", not x.name).
func assignRe(name string) *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^\w.$])` + regexp.QuoteMeta(name) + `\s*:?=`)
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdent(s[i]) && s[i] != '$' {
			return false
		}
	}
	return true
}

// pureLiteral reports whether an argument is one string literal (a route
// is declared with one; a request path may be computed).
func pureLiteral(a string) bool {
	if len(a) < 2 {
		return false
	}
	q := a[0]
	return (q == '"' || q == '\'' || q == '`') && a[len(a)-1] == q && !strings.ContainsRune(a[1:len(a)-1], rune(q))
}

// unquote is the content of a pure literal.
func unquote(a string) string { return a[1 : len(a)-1] }

// handlerName is the function an argument names (h.listUsers →
// listUsers; http.HandlerFunc(f) → f), "" for an inline function.
func handlerName(a string) string {
	if strings.Contains(a, "func") || strings.Contains(a, "=>") || strings.Contains(a, "lambda") {
		return ""
	}
	if open := strings.LastIndexByte(a, '('); open >= 0 && strings.HasSuffix(a, ")") {
		a = a[open+1 : len(a)-1]
	}
	a = strings.TrimPrefix(strings.TrimSpace(a), "&")
	if i := strings.LastIndexByte(a, '.'); i >= 0 {
		a = a[i+1:]
	}
	for i := 0; i < len(a); i++ {
		if !isIdent(a[i]) {
			return ""
		}
	}
	return a
}

// callMatches finds the calls of the named functions as regexp's
// FindAllStringSubmatchIndex would for `(?:(recv)\.)?(name)\(`: [start,
// end, recvStart, recvEnd, nameStart, nameEnd] (recv -1 when absent).
// A scan for '(' is linear and many times faster than the regexp on
// large files. generics: TypeScript type arguments may follow the name.
func callMatches(t *text, names map[string]bool, generics bool) [][]int {
	var out [][]int
	s := t.src
	for open := strings.IndexByte(s, '('); open >= 0; {
		if m := t.callAt(open, names, generics); m != nil {
			out = append(out, m)
		}
		next := strings.IndexByte(s[open+1:], '(')
		if next < 0 {
			break
		}
		open += 1 + next
	}
	return out
}

func (t *text) callAt(open int, names map[string]bool, generics bool) []int {
	s := t.src
	if t.inStr[open] {
		return nil
	}
	end := open
	if generics && end > 0 && s[end-1] == '>' {
		end = typeArgsStart(s, end-1)
	}
	ns := end
	for ns > 0 && (isIdent(s[ns-1]) || s[ns-1] == '$') {
		ns--
	}
	if ns == end || !names[s[ns:end]] {
		return nil
	}
	m := []int{ns, open + 1, -1, -1, ns, end}
	if ns > 1 && s[ns-1] == '.' {
		rs := ns - 1
		for rs > 0 && (isIdent(s[rs-1]) || s[rs-1] == '.' || s[rs-1] == '$') {
			rs--
		}
		if rs < ns-1 && s[rs] != '.' {
			m[0], m[2], m[3] = rs, rs, ns-1
		}
	}
	return m
}

// typeArgsStart is the offset of the '<' opening the type arguments whose
// '>' is at gt (gt+1 when there is none within 200 bytes).
func typeArgsStart(s string, gt int) int {
	depth := 0
	for i := gt; i >= 0 && i > gt-200; i-- {
		switch s[i] {
		case '>':
			depth++
		case '<':
			depth--
			if depth == 0 {
				return i
			}
		case '(', ')', ';', '\n':
			return gt + 1
		}
	}
	return gt + 1
}

// nameSet is a set of function names.
func nameSet(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
