package documents

import (
	"regexp"
	"strings"
)

// Type-only edits of Python (docs/design.md, document drift): a hunk
// whose removed and added lines read the same once annotations, comments,
// "typing." qualifiers, spacing and trailing commas are left out changes
// no behaviour a document describes ("-> Self", "typing.Any" → "Any",
// "Collection[str]"), so it does not date the code after the document.
var (
	// A statement or parameter line opening with "name: Type".
	annotatedRe = regexp.MustCompile(`^\s*\**[A-Za-z_][\w.]*\s*:[^=]`)
	defRe       = regexp.MustCompile(`^\s*(async\s+)?def\s`)
	loneParenRe = regexp.MustCompile(`\(("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\)`)
	qualifierRe = regexp.MustCompile(`\b(typing|typing_extensions|t|collections\.abc)\.`)
	// Keywords a one-line block opens with ("else: x = 1").
	blockWords = map[string]bool{"else": true, "try": true, "finally": true, "except": true, "lambda": true, "case": true, "match": true}
)

// pythonCosmetic is a gitmeta.Cosmetic for .py and .pyi files; other
// files' hunks are never cosmetic (a Go type change is a change).
func pythonCosmetic(path string, old, new []string) bool {
	if !isPython(path) {
		return false
	}
	return typeless(old) == typeless(new)
}

// typeless is lines without what only types or formatting say.
func typeless(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		l = qualifierRe.ReplaceAllString(stripComment(l), "")
		if defRe.MatchString(l) {
			l = stripDefTypes(l)
		} else {
			l = unwrapValue(stripReturn(stripLeadAnnotation(l)))
		}
		b.WriteString(l)
	}
	s := strings.Join(strings.Fields(b.String()), "")
	// A formatter's rewraps: a trailing comma, a message split into
	// adjacent literals ("a, " "b") or wrapped in parentheses.
	s = strings.NewReplacer(",)", ")", ",]", "]", `""`, "", "''", "").Replace(s)
	return loneParenRe.ReplaceAllString(s, "$1")
}

// unwrapValue drops parentheses around the whole value of an assignment
// ("x = (a if b else c)"), which formatters add and remove.
func unwrapValue(l string) string {
	depth := 0
	for e := 0; e < len(l); e++ {
		switch c := l[e]; {
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == '=' && depth <= 0 && (e+1 >= len(l) || l[e+1] != '=') && (e == 0 || !strings.ContainsRune("=!<>", rune(l[e-1]))):
			v := strings.TrimSpace(l[e+1:])
			if len(v) < 2 || v[0] != '(' || typeEnd(v, 1) != len(v)-1 {
				return l
			}
			return l[:e+1] + v[1:len(v)-1]
		}
	}
	return l
}

// stripComment cuts a "#" comment, minding quotes on the line.
func stripComment(l string) string {
	var q byte
	for i := 0; i < len(l); i++ {
		switch c := l[i]; {
		case q != 0 && c == '\\':
			i++
		case q != 0 && c == q:
			q = 0
		case q == 0 && (c == '"' || c == '\''):
			q = c
		case q == 0 && c == '#':
			return l[:i]
		}
	}
	return l
}

// stripLeadAnnotation drops the type of a line "name: Type[ = v][,]" (a
// parameter on its own line, an annotated attribute or variable).
func stripLeadAnnotation(l string) string {
	if !annotatedRe.MatchString(l) {
		return l
	}
	colon := strings.IndexByte(l, ':')
	if blockWords[strings.TrimLeft(strings.TrimSpace(l[:colon]), "*")] {
		return l
	}
	end := typeEnd(l, colon+1)
	if strings.TrimSpace(l[colon+1:end]) == "" {
		return l
	}
	return l[:colon] + l[end:]
}

// stripReturn drops "-> Type" before a line's closing ":".
func stripReturn(l string) string {
	i := strings.Index(l, "->")
	j := strings.LastIndexByte(l, ':')
	if i < 0 || j < i {
		return l
	}
	return l[:i] + l[j:]
}

// stripDefTypes drops a def line's parameter and return annotations.
func stripDefTypes(l string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == ':' && depth == 1:
			i = typeEnd(l, i+1) - 1
			continue
		case c == '-' && depth == 0 && strings.HasPrefix(l[i:], "->"):
			if j := strings.LastIndexByte(l, ':'); j > i {
				i = j - 1
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// typeEnd is where a type expression starting at i ends: the first ",",
// "=" or closing bracket outside its own brackets, or the line's end.
func typeEnd(l string, i int) int {
	depth := 0
	for ; i < len(l); i++ {
		switch l[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return i
			}
			depth--
		case ',', '=':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}
