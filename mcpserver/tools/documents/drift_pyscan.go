package documents

import (
	"regexp"
	"strings"
)

// A small reader of Python's layout, enough to find a def or a class by
// its qualified name and read its surface (decorators, signature,
// docstring, class-level statements) in today's text and in the text
// the file had when a document was last written.

// pyLine is one logical line: physical lines first..last (1-based)
// joined while a bracket or a triple-quoted string is open, comments cut.
type pyLine struct {
	first, last int
	indent      int
	text        string
}

// pyDef is one def or class: its qualified name (Outer.name), its
// first decorator line, its def line, the logical line of its header
// and the last line of its body.
type pyDef struct {
	name       string
	class      bool
	start, def int
	head       int // index of the header in the logical lines
	end        int
	indent     int
	overload   bool // a typing.overload stub, not the implementation
}

var pyHeadRe = regexp.MustCompile(`^(async\s+)?(def|class)\s+(\w+)`)

// pyLines splits Python text into logical lines.
func pyLines(text string) []pyLine {
	phys := strings.Split(text, "\n")
	var out []pyLine
	var b strings.Builder
	depth, first := 0, 0
	quote := "" // an open triple-quoted string
	for i, l := range phys {
		if first == 0 {
			if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
				continue
			}
			first = i + 1
		} else {
			b.WriteByte(' ')
		}
		var cont bool
		quote, depth, cont = scanPyLine(l, quote, depth, &b)
		if quote != "" || depth > 0 || cont {
			continue
		}
		lead := phys[first-1]
		out = append(out, pyLine{first: first, last: i + 1, indent: len(lead) - len(strings.TrimLeft(lead, " \t")), text: strings.TrimSpace(b.String())})
		b.Reset()
		first, depth = 0, 0
	}
	if first != 0 {
		lead := phys[first-1]
		out = append(out, pyLine{first: first, last: len(phys), indent: len(lead) - len(strings.TrimLeft(lead, " \t")), text: strings.TrimSpace(b.String())})
	}
	return out
}

// scanPyLine copies one physical line into b without its comment,
// tracking an open triple quote and the bracket depth; cont is a
// trailing backslash.
func scanPyLine(l, quote string, depth int, b *strings.Builder) (string, int, bool) {
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case quote != "":
			if c == '\\' && i+1 < len(l) {
				b.WriteString(l[i : i+2])
				i++
				continue
			}
			if strings.HasPrefix(l[i:], quote) {
				b.WriteString(quote)
				i += len(quote) - 1
				quote = ""
				continue
			}
		case c == '#':
			return quote, depth, false
		case c == '"' || c == '\'':
			q := string(c)
			if strings.HasPrefix(l[i:], strings.Repeat(q, 3)) {
				q = strings.Repeat(q, 3)
			}
			b.WriteString(q)
			i += len(q) - 1
			quote = q
			if len(q) == 1 { // a one-line string: copy it whole
				j := i + 1
				for ; j < len(l) && l[j] != c; j++ {
					if l[j] == '\\' {
						j++
					}
				}
				b.WriteString(l[i+1 : min(j+1, len(l))])
				i, quote = j, ""
			}
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		}
		b.WriteByte(c)
	}
	return quote, depth, quote == "" && strings.HasSuffix(strings.TrimRight(l, " \t"), "\\")
}

// pyOutline lists the defs and classes of logical lines, outermost
// first, each with its decorators and body extent.
func pyOutline(ls []pyLine) []pyDef {
	var out []pyDef
	var open []int // indices into out
	deco, overload := 0, false
	for i, l := range ls {
		for len(open) > 0 && out[open[len(open)-1]].indent >= l.indent {
			open = open[:len(open)-1]
		}
		if strings.HasPrefix(l.text, "@") {
			if deco == 0 {
				deco, overload = l.first, false
			}
			overload = overload || strings.HasSuffix(strings.TrimSpace(l.text), "overload")
			continue
		}
		m := pyHeadRe.FindStringSubmatch(l.text)
		if m == nil {
			deco = 0
			for _, k := range open {
				out[k].end = l.last
			}
			continue
		}
		name := m[3]
		if len(open) > 0 {
			name = out[open[len(open)-1]].name + "." + name
		}
		d := pyDef{name: name, class: m[2] == "class", start: l.first, def: l.first, head: i, end: l.last, indent: l.indent}
		if deco != 0 {
			d.start, d.overload = deco, overload
		}
		deco = 0
		for _, k := range open {
			out[k].end = l.last
		}
		out = append(out, d)
		open = append(open, len(out)-1)
	}
	return out
}

// findDef is the def or class named qual in an outline: the
// implementation, not its typing.overload stubs.
func findDef(defs []pyDef, qual string) (pyDef, bool) {
	var stub *pyDef
	for i, d := range defs {
		if d.name == qual && !d.overload {
			return d, true
		}
		if d.name == qual && stub == nil {
			stub = &defs[i]
		}
	}
	if stub != nil {
		return *stub, true
	}
	return pyDef{}, false
}

// splitTop splits s at sep outside brackets and string literals.
func splitTop(s string, sep byte) []string {
	var out []string
	start := 0
	scanBrackets(s, 0, func(i, depth int) bool {
		if s[i] == sep && depth == 0 {
			out = append(out, s[start:i])
			start = i + 1
		}
		return true
	})
	return append(out, s[start:])
}

// closeOf is the index of the bracket closing the one opened at s[i]
// (len(s) when it is not closed).
func closeOf(s string, i int) int {
	at := len(s)
	scanBrackets(s, i, func(j, depth int) bool {
		if depth == 0 && strings.IndexByte(")]}", s[j]) >= 0 {
			at = j
			return false
		}
		return true
	})
	return at
}

// scanBrackets calls f with each index of s from i that lies outside a
// string literal, and the bracket depth there (a bracket counted at its
// own index), until f returns false.
func scanBrackets(s string, i int, f func(j, depth int) bool) {
	depth := 0
	var q byte
	for j := i; j < len(s); j++ {
		c := s[j]
		switch {
		case q != 0:
			if c == '\\' {
				j++
			} else if c == q {
				q = 0
			}
			continue
		case c == '"' || c == '\'':
			q = c
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		}
		if !f(j, depth) {
			return
		}
	}
}
