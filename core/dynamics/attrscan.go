package dynamics

import (
	"strings"
	"unicode"
)

// access is one use of an attribute of a method's object, read from the
// method's source lines (docs/design.md#dynamics-and-reports).
type access struct {
	attr  string
	write bool
	line  int  // 1-based, in the file
	class bool // through the class itself (ClassName.x, cls.x): shared by every instance
}

// objRef is a name a method reaches its object (or class) by.
type objRef struct {
	name  string
	class bool // the class itself, not an instance
	// readOnly: writes through it change a copy (a Go value receiver).
	readOnly bool
}

// mutators are method names that change the container they are called on
// (self.items.append(x) writes items).
var mutators = map[string]bool{
	"append": true, "extend": true, "insert": true, "pop": true, "popitem": true, "remove": true, "clear": true,
	"update": true, "setdefault": true, "add": true, "discard": true, "sort": true, "reverse": true,
	"appendleft": true, "popleft": true, "push": true, "shift": true, "unshift": true, "splice": true,
	"set": true, "delete": true, "fill": true,
}

// assignOps are the operators that write their left side.
var assignOps = []string{"<<=", ">>=", "//=", "**=", "&^=", "??=", "||=", "&&=", "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=", "++", "--"}

// scanAccesses finds, in a method's lines (the first is line first of its
// file), each ref.attr it reads or writes: an assignment or
// augmented assignment to it or to an element of it, a mutating call on
// it, del/delete of it. Calls of the class's own methods (methods) are no
// state; attributes whose name is a lock word are reported as locked
// instead. Comments are skipped; strings are not parsed (a lexical
// reading: docs/design.md#dynamics-and-reports).
func scanAccesses(lines []string, first int, recvs []objRef, methods map[string]bool, comment string) (out []access, locked bool) {
	for i, raw := range lines {
		line := raw
		if c := strings.Index(line, comment); c >= 0 {
			line = line[:c]
		}
		for _, r := range recvs {
			for at := 0; ; {
				j := strings.Index(line[at:], r.name+".")
				if j < 0 {
					break
				}
				j += at
				at = j + len(r.name) + 1
				if j > 0 && (isIdent(rune(line[j-1])) || line[j-1] == '.') {
					continue
				}
				attr := identAt(line[at:])
				if attr == "" {
					continue
				}
				rest := line[at+len(attr):]
				if IsValve(attr) {
					locked = true
					continue
				}
				if strings.HasPrefix(strings.TrimSpace(rest), "(") && methods[attr] {
					continue
				}
				w := writes(line[:j], rest) && !r.readOnly
				out = append(out, access{attr: attr, write: w, line: first + i, class: r.class})
			}
		}
	}
	return out, locked
}

// writes reports whether the use of an attribute between before and rest
// changes it.
func writes(before, rest string) bool {
	b := strings.TrimRight(before, " \t")
	if strings.HasSuffix(b, "delete(") || b == "del" || strings.HasSuffix(b, " del") || strings.HasSuffix(b, "\tdel") {
		return true
	}
	r := strings.TrimLeft(rest, " \t")
	if strings.HasPrefix(r, "[") {
		if k := closing(r); k > 0 {
			r = strings.TrimLeft(r[k:], " \t")
		}
	}
	switch {
	case strings.HasPrefix(r, "=="), strings.HasPrefix(r, "=>"):
		return false
	case strings.HasPrefix(r, "="):
		return true
	case strings.HasPrefix(r, "."):
		m := identAt(r[1:])
		return mutators[m] && strings.HasPrefix(strings.TrimLeft(r[1+len(m):], " \t"), "(")
	}
	for _, op := range assignOps {
		if strings.HasPrefix(r, op) {
			return true
		}
	}
	return false
}

// closing is the index just past the bracket that closes s[0] ("[" …
// "]"), 0 when it does not close on the line.
func closing(s string) int {
	depth := 0
	for i, c := range s {
		switch c {
		case '[', '(', '{':
			depth++
		case ']', ')', '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return 0
}

func identAt(s string) string {
	end := 0
	for i, c := range s {
		if !isIdent(c) || i == 0 && unicode.IsDigit(c) {
			break
		}
		end = i + len(string(c))
	}
	return s[:end]
}

func isIdent(c rune) bool { return c == '_' || c == '$' || unicode.IsLetter(c) || unicode.IsDigit(c) }

// scanNames finds, in a Python function's lines, the uses of module-level
// names: a write is an element assignment, a mutating call or a del of
// one (registry[k] = v, registry.append(v)), or an assignment after
// `global name`. An identifier with a lock word marks the function
// locked.
func scanNames(lines []string, first int, names map[string]bool, comment string) (out []access, locked bool) {
	global := map[string]bool{}
	for _, raw := range lines {
		if t := strings.TrimSpace(raw); strings.HasPrefix(t, "global ") {
			for _, n := range strings.Split(t[len("global "):], ",") {
				global[strings.TrimSpace(n)] = true
			}
		}
	}
	for i, raw := range lines {
		line := raw
		if c := strings.Index(line, comment); c >= 0 {
			line = line[:c]
		}
		if strings.HasPrefix(strings.TrimSpace(line), "global ") {
			continue
		}
		for j := 0; j < len(line); {
			id := identAt(line[j:])
			if id == "" {
				j++
				continue
			}
			if IsValve(id) {
				locked = true
			}
			if names[id] && (j == 0 || line[j-1] != '.') {
				rest := strings.TrimLeft(line[j+len(id):], " \t")
				w := writes(line[:j], rest)
				if w && !global[id] && !strings.HasPrefix(rest, "[") && !strings.HasPrefix(rest, ".") && !strings.HasSuffix(strings.TrimSpace(line[:j]), "del") {
					w = false // a plain assignment without global binds a local
				}
				out = append(out, access{attr: id, write: w, line: first + i})
			}
			j += len(id)
		}
	}
	return out, locked
}
