package documents

import (
	"regexp"
	"strings"
)

// A document that names a Python class describes its surface, not every
// line of it: the header, decorators, docstring and class attributes,
// each public or dunder method's signature, and the whole of __call__
// (what an instance does when an ASGI server or a caller runs it). A
// method's body or docstring alone does not date the class after its
// guide: constructor bodies that only store their arguments differently
// and method docstring fixes were most of the false findings on the tune
// split (benchmarks/results/drift-class.md, drift-heldout3.md).
var (
	memberDefRe = regexp.MustCompile(`^(\s*)(async\s+)?def\s+(\w+)`)
	wholeBodies = map[string]bool{"__call__": true}
)

// classSurface is the line ranges (1-based, inclusive) of the class at
// lines lo..hi of a Python file's text that date it; the whole class
// when its body cannot be read.
func classSurface(text []byte, lo, hi int) [][2]int {
	lines := strings.Split(string(text), "\n")
	if lo < 1 || hi > len(lines) || hi <= lo {
		return [][2]int{{lo, hi}}
	}
	body := bodyIndent(lines, lo, hi)
	if body == "" {
		return [][2]int{{lo, hi}}
	}
	var out [][2]int
	start := lo // the open run of lines that date the class
	for i := lo + 1; i <= hi; i++ {
		l := lines[i-1]
		if !strings.HasPrefix(l, body) || len(l) > len(body) && (l[len(body)] == ' ' || l[len(body)] == '\t') {
			continue // blank, deeper or a continuation: part of what is open
		}
		if !strings.HasPrefix(strings.TrimSpace(l), "@") && !memberDefRe.MatchString(l) {
			if start == 0 {
				start = i // a class attribute after a member
			}
			continue
		}
		if start != 0 {
			out = append(out, [2]int{start, i - 1})
			start = 0
		}
		def := i
		for def <= hi && !memberDefRe.MatchString(lines[def-1]) {
			def++ // past the decorators
		}
		if def > hi {
			break
		}
		end := memberEnd(lines, def, hi, body)
		name := memberDefRe.FindStringSubmatch(lines[def-1])[3]
		switch {
		case wholeBodies[name]:
			out = append(out, [2]int{i, end})
		case !strings.HasPrefix(name, "_") || strings.HasSuffix(name, "__"):
			out = append(out, [2]int{i, min(end, signatureClose(lines, def, end))})
		}
		i = end
	}
	if start != 0 {
		out = append(out, [2]int{start, hi})
	}
	return out
}

// bodyIndent is the indentation of the class body's first statement.
func bodyIndent(lines []string, lo, hi int) string {
	head := lines[lo-1]
	outer := len(head) - len(strings.TrimLeft(head, " \t"))
	for i := lo + 1; i <= hi; i++ {
		l := lines[i-1]
		t := strings.TrimLeft(l, " \t")
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if n := len(l) - len(t); n > outer {
			return l[:n]
		}
	}
	return ""
}

// memberEnd is the last line of the member defined at def: before the
// next line at the class body's indentation, or hi.
func memberEnd(lines []string, def, hi int, body string) int {
	end := signatureClose(lines, def, hi)
	for i := end + 1; i <= hi; i++ {
		l := lines[i-1]
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if strings.HasPrefix(l, body) && len(l) > len(body) && l[len(body)] != ' ' && l[len(body)] != '\t' {
			break
		}
		end = i
	}
	return end
}

// signatureClose is the line closing the signature of the def at def:
// its brackets closed and the line ending in ":" (or end).
func signatureClose(lines []string, def, end int) int {
	depth := 0
	for i := def; i <= end; i++ {
		code := stripComment(lines[i-1])
		depth += strings.Count(code, "(") + strings.Count(code, "[") - strings.Count(code, ")") - strings.Count(code, "]")
		if depth <= 0 && strings.HasSuffix(strings.TrimSpace(code), ":") {
			return i
		}
	}
	return end
}
