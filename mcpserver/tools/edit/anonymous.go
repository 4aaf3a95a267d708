package edit

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// anonClass is an anonymous class body in Java source: `new Type(…) { … }`.
type anonClass struct {
	typ     string // the type it extends or implements, "Outer.Inner" when nested
	line    int
	methods []method
}

var (
	anonNew = regexp.MustCompile(`\bnew\s+([A-Za-z_][\w.]*)\s*(?:<[^;{}()]*>)?\s*\(`)
	// A method declaration once nested blocks are emptied: name(params)
	// [throws …] {} — the name not after new, a dot or an @.
	anonMethod = regexp.MustCompile(`([\w$]+)\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)\s*(?:throws\s+[\w.,\s<>]+)?\{\}`)
	notMethod  = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true, "synchronized": true, "try": true}
)

// anonClasses lists the anonymous classes of Java source src in order,
// each with the methods its body declares.
func anonClasses(src string) []anonClass {
	code := codeOnly(src)
	var out []anonClass
	for _, loc := range anonNew.FindAllStringSubmatchIndex(code, -1) {
		end := matching(code, loc[1]-1, '(', ')')
		if end < 0 {
			continue
		}
		open := end + 1
		for open < len(code) && strings.ContainsRune(" \t\r\n", rune(code[open])) {
			open++
		}
		if open >= len(code) || code[open] != '{' {
			continue // a plain creation
		}
		closeAt := matching(code, open, '{', '}')
		if closeAt < 0 {
			continue
		}
		a := anonClass{typ: nestedName(strings.ReplaceAll(code[loc[2]:loc[3]], ".", "::"), ""), line: strings.Count(code[:loc[0]], "\n") + 1}
		out = append(out, withMethods(a, code[open+1:closeAt]))
	}
	return append(out, enumBodies(code)...)
}

// withMethods gives a the methods its body declares.
func withMethods(a anonClass, body string) anonClass {
	body = flatBlocks(body)
	for _, m := range anonMethod.FindAllStringSubmatchIndex(body, -1) {
		name := body[m[2]:m[3]]
		before := strings.TrimRight(body[:m[2]], " \t\r\n")
		if notMethod[name] || strings.HasSuffix(before, "new") || strings.HasSuffix(before, ".") || strings.HasSuffix(before, "@") {
			continue
		}
		ps, known := edit.ParamTypes(body[m[2]:m[1]], name, ".java")
		a.methods = append(a.methods, method{Name: name, params: ps, known: known})
	}
	return a
}

var enumDecl = regexp.MustCompile(`\benum\s+([\w$]+)[^{;]*\{`)

// enumBodies are the bodies of enum constants (`DATA { void read() {…} },`):
// anonymous classes of their enum, which must define its abstract methods.
// The enum is named as declared in this file (localType): enums of one
// simple name are many.
func enumBodies(code string) []anonClass {
	var out []anonClass
	for _, loc := range enumDecl.FindAllStringSubmatchIndex(code, -1) {
		end := matching(code, loc[1]-1, '{', '}')
		if end < 0 {
			continue
		}
		for i := loc[1]; i < end && code[i] != ';'; i++ {
			switch code[i] {
			case '(':
				if j := matching(code, i, '(', ')'); j > 0 {
					i = j
				}
			case '{':
				j := matching(code, i, '{', '}')
				if j < 0 {
					break
				}
				a := anonClass{typ: localType + code[loc[2]:loc[3]], line: strings.Count(code[:i], "\n") + 1}
				out = append(out, withMethods(a, code[i+1:j]))
				i = j
			}
		}
	}
	return out
}

// anonGone is a method an edit removed from an anonymous class (class:
// as the edit left it).
type anonGone struct {
	class anonClass
	m     method
}

// anonRemoved pairs the anonymous classes of old and next by type, in
// order (only where both have as many of that type: otherwise a class
// came or went and the pairing is a guess), and lists the methods a body
// lost.
func anonRemoved(old, next string) []anonGone {
	before, after := anonClasses(old), anonClasses(next)
	count := func(as []anonClass) map[string]int {
		m := map[string]int{}
		for _, a := range as {
			m[a.typ]++
		}
		return m
	}
	nb, na := count(before), count(after)
	var kept = map[string][]anonClass{}
	for _, a := range after {
		kept[a.typ] = append(kept[a.typ], a)
	}
	seen := map[string]int{}
	var out []anonGone
	for _, a := range before {
		k := seen[a.typ]
		seen[a.typ]++
		if nb[a.typ] != na[a.typ] {
			continue
		}
		now := kept[a.typ][k]
		for _, m := range a.methods {
			if !hasMethod(now.methods, m) {
				out = append(out, anonGone{now, m})
			}
		}
	}
	return out
}

func hasMethod(ms []method, m method) bool {
	for _, k := range ms {
		if k.Name == m.Name && (!k.known || !m.known || strings.Join(k.params, ",") == strings.Join(m.params, ",")) {
			return true
		}
	}
	return false
}

// anonContractBreaks is contractBreaks for the methods an edit removed
// from anonymous classes of a Java file, which the graph holds no node
// of: the body is read from the text, its type is the base.
func (b *batchRun) anonContractBreaks(rel string, old, next []byte) []edit.Finding {
	if !strings.HasSuffix(strings.ToLower(rel), ".java") {
		return nil
	}
	gone := anonRemoved(string(old), string(next))
	if len(gone) == 0 {
		return nil
	}
	std := stdContracts[".java"]
	var out []edit.Finding
	_ = b.c.Session.Read(b.c.Ctx, func(bd *session.Bundle) error {
		read, lib := sourceReader(bd), newJavaLib(bd, ".java", string(next))
		for _, g := range gone {
			typ := strings.Replace(g.class.typ, localType, localType+rel+":", 1)
			base, unknown, supplied := requiredBy(bd.Graph, []string{typ}, g.m, ".java", std, read, lib)
			if base == "" || supplied {
				continue
			}
			sev, how := "broken", "no longer implements it"
			if len(unknown) > 0 {
				sev, how = "warning", "may no longer implement it (a base the graph does not hold may supply it"+lib.whyNot()+")"
			}
			sym := "new " + g.class.typ + "() {…}." + g.m.Name
			if enum, ok := strings.CutPrefix(g.class.typ, localType); ok {
				sym = "a constant of enum " + enum + "." + g.m.Name
			}
			out = append(out, edit.Finding{File: rel, Line: g.class.line, Symbol: sym, Kind: "contract_broken", Severity: sev,
				Detail: fmt.Sprintf("%s was removed from the anonymous class at %s:%d, but %s declares %s without a body: the class %s", sym, rel, g.class.line, base, g.m.Name, how)})
		}
		return nil
	})
	return out
}

// codeOnly is src with comments and string and character literals blanked
// (newlines kept), so that braces and parentheses in them do not count.
func codeOnly(src string) string {
	b := []byte(src)
	blank := func(from, to int) {
		for i := from; i < to && i < len(b); i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	for i := 0; i < len(b); i++ {
		switch {
		case strings.HasPrefix(src[i:], "//"):
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				end = len(src) - i
			}
			blank(i, i+end)
			i += end
		case strings.HasPrefix(src[i:], "/*"), strings.HasPrefix(src[i:], `"""`):
			closer := map[bool]string{true: "*/", false: `"""`}[src[i] == '/']
			end := len(src)
			if j := strings.Index(src[i+len(closer):], closer); j >= 0 {
				end = i + 2*len(closer) + j
			}
			blank(i, end)
			i = end - 1
		case src[i] == '"' || src[i] == '\'':
			j := i + 1
			for j < len(src) && src[j] != src[i] && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			blank(i, j+1)
			i = j
		}
	}
	return string(b)
}

// matching is the index of the bracket closing the one at open (-1: none).
func matching(s string, open int, o, c byte) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case o:
			depth++
		case c:
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// flatBlocks empties every brace block of a class body ({…} → {}), so
// that what is left is the body's own declarations.
func flatBlocks(body string) string {
	var sb strings.Builder
	depth := 0
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '{':
			if depth == 0 {
				sb.WriteByte(c)
			}
			depth++
		case c == '}':
			if depth--; depth == 0 {
				sb.WriteByte(c)
			}
		case depth == 0:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}
