package testlink

import (
	"path"
	"strings"
)

// PyFlagsOnly reports whether the Python test file test (source src) uses
// what it imports from subject only as a flag or a helper, not as the
// thing it tests: every use of the names its imports of subject bind is
// read in a condition (an if, elif or while test, a conditional
// expression, `not x`), in a decorator's arguments (a skipif), as a plain
// value outside any function (a module level constant), or not at all.
// attrs' tests import PY_3_13_PLUS from attr/_compat.py for their skips:
// they do not test _compat.py. A name that is called or applied anywhere
// (x(…), x.y(…), @x), or used otherwise in a function's body (passed,
// asserted on, assigned), is exercised. It reports false when no import
// statement of src names subject (the import was bound another way, so
// its names are unknown here). subjectSrc, the subject's source (nil when
// unknown), adds the names the test imports from the subject's package
// that the subject defines: typeguard's test_importhook imports
// OPTIMIZATION from _importhook.py but calls install_import_hook, which
// it imports from typeguard.
func PyFlagsOnly(src, subjectSrc []byte, test, subject string) bool {
	lines := pyLogicalLines(src)
	names := map[string]bool{}
	imports := map[int]bool{} // the import lines; true: of subject itself
	direct := 0
	pkg := path.Join(path.Dir(subject), "__init__.py")
	for i, l := range lines {
		bound, ok := pyImportOf(l.text, test, subject)
		if !ok {
			if via, ok := pyImportOf(l.text, test, pkg); ok && subjectSrc != nil {
				imports[i] = false // scanned for no use
				for _, b := range via {
					names[b] = names[b] || pyDefines(subjectSrc, b)
				}
			}
			continue
		}
		imports[i] = true
		direct++
		for _, b := range bound {
			names[b] = true
		}
	}
	if direct == 0 {
		return false
	}
	var defs []int // the indents of the enclosing defs and classes
	var inDef []bool
	for i, l := range lines {
		for len(defs) > 0 && l.indent <= defs[len(defs)-1] {
			defs, inDef = defs[:len(defs)-1], inDef[:len(inDef)-1]
		}
		body := len(inDef) > 0 && inDef[len(inDef)-1]
		if _, ok := imports[i]; ok {
			continue
		}
		for _, at := range pyNameUses(l.text, names) {
			if pyExercises(l.text, at, body) {
				return false
			}
		}
		if kw := pyFirstWord(l.text); kw == "def" || kw == "class" || kw == "async" {
			defs, inDef = append(defs, l.indent), append(inDef, kw != "class")
		}
	}
	return true
}

// pyDefines reports whether Python source src defines name at its top
// level (def, async def, class, an assignment).
func pyDefines(src []byte, name string) bool {
	for _, l := range pyLogicalLines(src) {
		if l.indent > 0 {
			continue
		}
		t := strings.TrimPrefix(strings.TrimPrefix(l.text, "async "), "def ")
		t = strings.TrimPrefix(t, "class ")
		if rest, ok := strings.CutPrefix(t, name); ok && rest != "" && strings.ContainsRune("(:= ", rune(rest[0])) {
			return true
		}
	}
	return false
}

// pyLine is a logical line: physical lines joined while a bracket is
// open or a line ends in a backslash, with comments dropped and string
// contents blanked (a name in a string is no use of it).
type pyLine struct {
	text   string
	indent int
}

// pyLogicalLines splits src into logical lines.
func pyLogicalLines(src []byte) []pyLine {
	var out []pyLine
	var b strings.Builder
	depth, indent, start := 0, 0, true
	quote := "" // the open string's delimiter
	flush := func() {
		if t := strings.TrimSpace(b.String()); t != "" {
			out = append(out, pyLine{t, indent})
		}
		b.Reset()
		start = true
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if start && quote == "" && depth == 0 {
			if c == ' ' || c == '\t' {
				indent++
				continue
			}
			if c == '\n' {
				indent = 0
				continue
			}
			start = false
		}
		switch {
		case quote != "":
			if c == '\\' {
				i++
			} else if strings.HasPrefix(string(src[i:min(i+3, len(src))]), quote) {
				b.WriteString(quote)
				i += len(quote) - 1
				quote = ""
			} else if c == '\n' && len(quote) == 1 {
				quote = "" // an unclosed string ends with its line
				i--
			}
			continue
		case c == '#':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
			continue
		case c == '"' || c == '\'':
			quote = string(c)
			if i+2 < len(src) && src[i+1] == c && src[i+2] == c {
				quote = strings.Repeat(string(c), 3)
			}
			b.WriteString(quote)
			i += len(quote) - 1
			continue
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			b.WriteByte(' ')
			i++
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth = max(depth-1, 0)
		case c == '\n':
			if depth == 0 {
				flush()
				indent = 0
				continue
			}
			c = ' '
		}
		b.WriteByte(c)
	}
	flush()
	return out
}

// pyImportOf returns the local names an import statement binds from
// subject ("from attr._compat import PY_3_13_PLUS as p" binds p), and
// whether the statement imports from subject at all.
func pyImportOf(line, test, subject string) ([]string, bool) {
	if rest, ok := strings.CutPrefix(line, "from "); ok {
		mod, list, ok := strings.Cut(rest, " import ")
		if !ok {
			return nil, false
		}
		mod = strings.TrimSpace(mod)
		var bound []string
		whole := pyModuleIs(mod, test, subject)
		for _, item := range strings.Split(strings.Trim(strings.TrimSpace(list), "()"), ",") {
			name, alias := pyAlias(item)
			if name == "" {
				continue
			}
			// from attr import _compat: the name is the module.
			if whole || pyModuleIs(pyJoin(mod, name), test, subject) {
				bound = append(bound, alias)
			}
		}
		return bound, len(bound) > 0
	}
	rest, ok := strings.CutPrefix(line, "import ")
	if !ok {
		return nil, false
	}
	var bound []string
	for _, item := range strings.Split(rest, ",") {
		name, alias := pyAlias(item)
		if name != "" && pyModuleIs(name, test, subject) {
			if alias == name { // import a.b binds a
				alias, _, _ = strings.Cut(name, ".")
			}
			bound = append(bound, alias)
		}
	}
	return bound, len(bound) > 0
}

// pyAlias splits "name as alias" (alias = name when there is none).
func pyAlias(item string) (name, alias string) {
	f := strings.Fields(item)
	switch {
	case len(f) == 1 && f[0] != "*":
		return f[0], f[0]
	case len(f) == 3 && f[1] == "as":
		return f[0], f[2]
	}
	return "", ""
}

// pyJoin appends name to a module path ("." + "x" is ".x").
func pyJoin(mod, name string) string {
	if strings.HasSuffix(mod, ".") {
		return mod + name
	}
	return mod + "." + name
}

// pyModuleIs reports whether module mod, as test imports it (absolute,
// or relative to test's package), is the file subject: x/y.py or
// x/y/__init__.py for a module x.y, found by the path's tail as the
// import resolver finds it under a source root.
func pyModuleIs(mod, test, subject string) bool {
	dots := len(mod) - len(strings.TrimLeft(mod, "."))
	p := strings.ReplaceAll(mod[dots:], ".", "/")
	if dots > 0 {
		dir := path.Dir(test)
		for range dots - 1 {
			dir = path.Dir(dir)
		}
		p = path.Join(dir, p)
	}
	s := strings.TrimSuffix(strings.TrimSuffix(subject, ".py"), "/__init__")
	if p == "" || p == "." {
		return false
	}
	return s == p || dots == 0 && strings.HasSuffix(s, "/"+p)
}

// pyNameUses returns the offsets in line of the identifiers that are
// names (not attributes after a dot, not parts of longer words).
func pyNameUses(line string, names map[string]bool) []int {
	var out []int
	for i := 0; i < len(line); {
		if !pyIdentByte(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && pyIdentByte(line[j]) {
			j++
		}
		if names[line[i:j]] && (i == 0 || line[i-1] != '.') && !(line[i] >= '0' && line[i] <= '9') {
			out = append(out, i)
		}
		i = j
	}
	return out
}

func pyIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// pyExercises reports whether the use of a name at offset at of line
// exercises it: called or applied (x(…), x.y.z(…), @x, class C(x)),
// or, in a function's body, anything but a condition.
func pyExercises(line string, at int, body bool) bool {
	rest := line[at:]
	end := 0
	for end < len(rest) && (pyIdentByte(rest[end]) || rest[end] == '.') {
		end++
	}
	after := strings.TrimLeft(rest[end:], " ")
	if strings.HasPrefix(after, "(") {
		return true
	}
	if strings.HasPrefix(line, "@") && at == 1 {
		return true // the decorator itself
	}
	if kw := pyFirstWord(line); kw == "class" || kw == "def" || kw == "async" {
		return true // a base, an annotation, a default
	}
	if body {
		return !pyInCondition(line, at)
	}
	// A decorator's argument or a module level value: a flag, unless it
	// is data handed to the tests (parametrize's [StatReload, …], a
	// fixture's params=(attr, attrs)).
	return pyInCollection(line, at)
}

// pyInCollection reports whether offset at of line lies inside a list,
// set, dict or tuple literal; a parenthesis that follows no name (nor a
// call's or subscript's close) is a tuple's when it holds a comma, else
// a group's, as in `not (a or b)`.
func pyInCollection(line string, at int) bool {
	var open []bool // per open bracket: a collection's
	for i := 0; i < at; i++ {
		switch c := line[i]; c {
		case '[', '{':
			open = append(open, true)
		case '(':
			prev := strings.TrimRight(line[:i], " ")
			w := prev[strings.LastIndexFunc(prev, func(r rune) bool { return r < 0x80 && !pyIdentByte(byte(r)) })+1:]
			call := prev != "" && (pyIdentByte(prev[len(prev)-1]) || strings.ContainsRune(")]", rune(prev[len(prev)-1]))) && !pyKeywords[w]
			open = append(open, !call && pyTuple(line[i:]))
		case ')', ']', '}':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		}
	}
	for _, c := range open {
		if c {
			return true
		}
	}
	return false
}

// pyKeywords are the words after which a parenthesis opens no call.
var pyKeywords = map[string]bool{"not": true, "in": true, "and": true, "or": true, "if": true, "else": true,
	"elif": true, "while": true, "return": true, "is": true, "lambda": true, "yield": true, "assert": true}

// pyTuple reports whether the parenthesis that opens s holds a comma
// of its own before it closes.
func pyTuple(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth--; depth == 0 {
				return false
			}
		case ',':
			if depth == 1 {
				return true
			}
		}
	}
	return false
}

// pyInCondition reports whether offset at of line lies in a condition:
// the test of an if/elif/while statement, of a conditional expression
// (a if x else b), or the operand of not.
func pyInCondition(line string, at int) bool {
	switch pyFirstWord(line) {
	case "if", "elif", "while":
		return true
	}
	before := line[:at]
	if strings.HasSuffix(strings.TrimRight(before, " "), " not") || strings.TrimRight(before, " ") == "not" {
		return true
	}
	return strings.Contains(before, " if ") && strings.Contains(line[at:], " else ")
}

// pyFirstWord is line's first word ("if" of "if x:").
func pyFirstWord(line string) string {
	i := 0
	for i < len(line) && pyIdentByte(line[i]) {
		i++
	}
	return line[:i]
}
