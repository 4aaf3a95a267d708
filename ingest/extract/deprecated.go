package extract

import (
	"bytes"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// TagDeprecated marks a declaration its language's own convention says is
// deprecated, so that a name shared with its replacement resolves to the
// replacement.
const TagDeprecated = "deprecated"

// markDeprecated tags the declarations of res that carry their language's
// deprecation marker: Java/Kotlin/Scala @Deprecated (and Java's javadoc
// @deprecated), C# [Obsolete], a Go doc paragraph "Deprecated:", a JS/TS
// JSDoc @deprecated, Rust #[deprecated], Python @deprecated or a
// warnings.warn(…, DeprecationWarning) opening the body. It reads the
// source text around the nodes the extractor emitted: markers are rare,
// so a file without one costs a byte search.
func markDeprecated(res *Result, src []byte) {
	style, ok := deprecationStyles[res.Language]
	if !ok || len(res.Nodes) < 2 || !bytes.Contains(src, []byte(style.needle)) {
		return
	}
	d := deprecations{res: res, lines: strings.Split(string(src), "\n"), style: style}
	d.byLine = make([]int, 0, len(res.Nodes)-1)
	for i := 1; i < len(res.Nodes); i++ {
		d.byLine = append(d.byLine, i)
	}
	slices.SortStableFunc(d.byLine, func(a, b int) int { return int(res.Nodes[a].Line) - int(res.Nodes[b].Line) })
	for m, l := range d.lines {
		end, ok := style.marker(d.lines, m, strings.TrimSpace(l))
		switch {
		case !ok:
		case res.Language == "python":
			d.pythonDecorated(end)
		case res.Language == "go" && d.goGroup(end):
		default:
			d.attach(m, end)
		}
	}
	if res.Language == "python" {
		d.pythonWarnings()
	}
}

// deprecationStyle is one language's marker: needle is a substring every
// marker contains; marker reports whether line m (trimmed: t) holds one
// and the last line of the construct it belongs to (a comment block, an
// attribute spanning lines).
type deprecationStyle struct {
	needle string
	marker func(lines []string, m int, t string) (end int, ok bool)
	// adjacent: the declaration follows the construct with no blank line
	// (a Go doc comment).
	adjacent bool
}

var deprecationStyles = map[string]deprecationStyle{
	"java":       {needle: "eprecated", marker: jvmOrDocMarker},
	"kotlin":     {needle: "Deprecated", marker: annotationMarker("@Deprecated", "@kotlin.Deprecated")},
	"scala":      {needle: "eprecated", marker: annotationMarker("@deprecated", "@Deprecated", "@scala.deprecated")},
	"csharp":     {needle: "Obsolete", marker: csharpMarker},
	"go":         {needle: "Deprecated:", marker: goMarker, adjacent: true},
	"javascript": {needle: "@deprecated", marker: jsdocMarker},
	"typescript": {needle: "@deprecated", marker: jsdocMarker},
	"tsx":        {needle: "@deprecated", marker: jsdocMarker},
	"rust":       {needle: "deprecated", marker: rustMarker},
	"python":     {needle: "eprecat", marker: pythonDecoratorMarker},
}

type deprecations struct {
	res    *Result
	lines  []string
	style  deprecationStyle
	byLine []int // node indexes (the file excepted) by first line
}

// attach tags the declaration a marker on line m (0-based; its construct
// ends on line end) belongs to: the node whose head holds the marker (Java
// and C# annotations are part of the declaration), else the next node,
// when only comments, attributes and annotations stand between.
func (d *deprecations) attach(m, end int) {
	nodes := d.res.Nodes
	for _, i := range d.byLine {
		l := int(nodes[i].Line) - 1
		switch {
		case l < m:
			if l >= m-12 && int(nodes[i].EndLine)-1 > end && d.preamble(l, m) {
				d.tag(l)
				return
			}
		case l == m || d.preamble(end+1, l):
			d.tag(l)
			return
		default:
			return
		}
	}
}

// goGroup tags every declaration of a const, var or type group whose doc
// comment, ending on line end, is deprecated (staticcheck reads
// it so); it reports whether line end+1 opens such a group.
func (d *deprecations) goGroup(end int) bool {
	if end+1 >= len(d.lines) {
		return false
	}
	t := strings.TrimSpace(d.lines[end+1])
	if !strings.HasSuffix(t, "(") || !strings.HasPrefix(t, "const ") && !strings.HasPrefix(t, "var ") && !strings.HasPrefix(t, "type ") {
		return false
	}
	last := attributeEnd(d.lines, end+1)
	for _, i := range d.byLine {
		if l := int(d.res.Nodes[i].Line) - 1; l > end+1 && l <= last {
			d.tagNode(i)
		}
	}
	return true
}

// tag tags every node starting on line l (0-based): `int a, b;` declares
// two.
func (d *deprecations) tag(l int) {
	for _, i := range d.byLine {
		n := &d.res.Nodes[i]
		if int(n.Line)-1 == l && !slices.Contains(n.Tags, TagDeprecated) {
			n.Tags = append(n.Tags, TagDeprecated)
		}
	}
}

// preamble reports whether lines [from, to) hold only what may stand
// between a marker and its declaration: comments, annotations, attributes,
// decorators (with their bracketed continuation lines) and, but in Go,
// blank lines.
func (d *deprecations) preamble(from, to int) bool {
	depth := 0
	for k := from; k < to; k++ {
		t := strings.TrimSpace(d.lines[k])
		switch {
		case depth > 0:
		case t == "":
			if d.style.adjacent {
				return false
			}
			continue
		case strings.HasPrefix(t, "//"), strings.HasPrefix(t, "/*"), strings.HasPrefix(t, "*"),
			strings.HasPrefix(t, "@"), strings.HasPrefix(t, "#["), strings.HasPrefix(t, "["),
			d.res.Language == "python" && strings.HasPrefix(t, "#"):
		default:
			return false
		}
		depth = max(0, depth+bracketBalance(t))
	}
	return true
}

// bracketBalance is the count of opening minus closing brackets of a line.
func bracketBalance(t string) int {
	n := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '(', '[', '{':
			n++
		case ')', ']', '}':
			n--
		}
	}
	return n
}

// hasWord reports whether t contains w not followed by an identifier
// character ("@Deprecated" but not "@DeprecatedSince").
func hasWord(t, w string) bool {
	for off := 0; ; {
		i := strings.Index(t[off:], w)
		if i < 0 {
			return false
		}
		j := off + i + len(w)
		if j == len(t) || !isIdentByte(t[j]) {
			return true
		}
		off = j
	}
}

// attributeEnd is the last line of a bracketed construct opening on m.
func attributeEnd(lines []string, m int) int {
	depth := 0
	for k := m; k < len(lines) && k < m+20; k++ {
		depth += bracketBalance(lines[k])
		if depth <= 0 {
			return k
		}
	}
	return m
}

// annotationMarker matches an annotation line naming one of names.
func annotationMarker(names ...string) func([]string, int, string) (int, bool) {
	return func(lines []string, m int, t string) (int, bool) {
		if !strings.HasPrefix(t, "@") {
			return 0, false
		}
		for _, n := range names {
			if hasWord(t, n) {
				return attributeEnd(lines, m), true
			}
		}
		return 0, false
	}
}

var javaAnnotation = annotationMarker("@Deprecated", "@java.lang.Deprecated")

// jvmOrDocMarker is Java's @Deprecated or a javadoc @deprecated tag.
func jvmOrDocMarker(lines []string, m int, t string) (int, bool) {
	if end, ok := javaAnnotation(lines, m, t); ok {
		return end, true
	}
	return jsdocMarker(lines, m, t)
}

// jsdocMarker matches an @deprecated tag inside a /** … */ comment; the
// construct ends with the comment.
func jsdocMarker(lines []string, m int, t string) (int, bool) {
	if !strings.HasPrefix(t, "*") && !strings.HasPrefix(t, "/**") || !hasWord(t, "@deprecated") {
		return 0, false
	}
	for k := m; k < len(lines) && k < m+200; k++ {
		if strings.Contains(lines[k], "*/") {
			return k, true
		}
	}
	return 0, false
}

// csharpMarker matches an attribute list holding Obsolete.
func csharpMarker(lines []string, m int, t string) (int, bool) {
	if !strings.HasPrefix(t, "[") {
		return 0, false
	}
	for _, w := range []string{"[Obsolete", "[System.Obsolete", " Obsolete", ",Obsolete"} {
		if hasWord(t, w) {
			return attributeEnd(lines, m), true
		}
	}
	return 0, false
}

// rustMarker matches #[deprecated], #[deprecated = "…"], #[deprecated(…)].
func rustMarker(lines []string, m int, t string) (int, bool) {
	if !strings.HasPrefix(t, "#[deprecated") || !hasWord(t, "#[deprecated") {
		return 0, false
	}
	return attributeEnd(lines, m), true
}

// goMarker matches a doc comment paragraph opening with "Deprecated:"; the
// construct is the rest of the comment block.
func goMarker(lines []string, m int, t string) (int, bool) {
	body, ok := strings.CutPrefix(t, "//")
	if !ok || !strings.HasPrefix(strings.TrimSpace(body), "Deprecated:") {
		return 0, false
	}
	if m > 0 {
		prev := strings.TrimSpace(lines[m-1])
		if p, ok := strings.CutPrefix(prev, "//"); ok && strings.TrimSpace(p) != "" {
			return 0, false // mid-paragraph
		}
	}
	end := m
	for end+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[end+1]), "//") {
		end++
	}
	return end, true
}

// pythonDecoratorMarker matches @deprecated, @typing_extensions.deprecated,
// @warnings.deprecated (any dotted name ending in "deprecated").
func pythonDecoratorMarker(lines []string, m int, t string) (int, bool) {
	name, ok := strings.CutPrefix(t, "@")
	if !ok {
		return 0, false
	}
	if i := strings.IndexAny(name, "( #"); i >= 0 {
		name = name[:i]
	}
	if name != "deprecated" && !strings.HasSuffix(name, ".deprecated") {
		return 0, false
	}
	return attributeEnd(lines, m), true
}

// pythonDecorated tags the definition a decorator ending on line end
// decorates.
func (d *deprecations) pythonDecorated(end int) {
	for k := end + 1; k < len(d.lines) && k < end+20; k++ {
		if defName(d.lines[k]) != "" {
			if d.preamble(end+1, k) {
				d.tagNode(d.nodeForDef(k))
			}
			return
		}
	}
}

// pythonWarnings tags the functions whose body opens (after the
// docstring) with warnings.warn(…, DeprecationWarning), and the module
// when such a call stands at its top level before any def or class.
func (d *deprecations) pythonWarnings() {
	for m, l := range d.lines {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "warnings.warn(") && !strings.HasPrefix(t, "warn(") {
			continue
		}
		end := attributeEnd(d.lines, m)
		if !strings.Contains(strings.Join(d.lines[m:end+1], "\n"), "DeprecationWarning") {
			continue
		}
		switch def := d.defLine(m); {
		case def >= 0:
			if d.opensBody(def, m) {
				d.tagNode(d.nodeForDef(def))
			}
		case l == t && d.beforeDefs(m):
			d.tagNode(0)
		}
	}
}

func (d *deprecations) tagNode(i int) {
	if i < 0 {
		return
	}
	if n := &d.res.Nodes[i]; !slices.Contains(n.Tags, TagDeprecated) {
		n.Tags = append(n.Tags, TagDeprecated)
	}
}

// defName is the name a def or class line defines, or "".
func defName(line string) string {
	t := strings.TrimSpace(line)
	t = strings.TrimPrefix(t, "async ")
	rest, ok := strings.CutPrefix(t, "def ")
	if !ok {
		if rest, ok = strings.CutPrefix(t, "class "); !ok {
			return ""
		}
	}
	if i := strings.IndexAny(rest, "([: "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

func indentOf(line string) int { return len(line) - len(strings.TrimLeft(line, " \t")) }

// defLine is the line of the def whose body holds line m, or -1 when the
// first line above indented less is not a def (m is nested in a block).
func (d *deprecations) defLine(m int) int {
	in := indentOf(d.lines[m])
	for k := m - 1; k >= 0 && in > 0; k-- {
		t := strings.TrimSpace(d.lines[k])
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, ")") || indentOf(d.lines[k]) >= in {
			continue // a signature's closing line is indented as its def
		}
		if n := defName(t); n != "" && !strings.HasPrefix(t, "class ") {
			return k
		}
		return -1
	}
	return -1
}

// nodeForDef is the node of the definition on line l: the node starting
// there, else (an overload or a property setter, merged into the first
// definition of its name) the last node of that name and indentation
// above it; -1 when none.
func (d *deprecations) nodeForDef(l int) int {
	name, in, found := defName(d.lines[l]), indentOf(d.lines[l]), -1
	for _, i := range d.byLine {
		n := d.res.Nodes[i]
		nl := int(n.Line) - 1
		switch {
		case nl == l:
			return i
		case nl < l && n.Label == name && indentOf(d.lines[nl]) == in:
			found = i
		}
	}
	return found
}

// opensBody reports whether only the signature, a docstring, comments,
// blank lines and imports (werkzeug imports warnings there) come before
// line m in the function defined on line def.
func (d *deprecations) opensBody(def, m int) bool {
	k, depth := def, 0
	for ; k < m; k++ {
		t := strings.TrimSpace(d.lines[k])
		depth += bracketBalance(t)
		if depth <= 0 && strings.HasSuffix(codeOf(t), ":") {
			break
		}
	}
	quote := ""
	for k++; k < m; k++ {
		t := strings.TrimSpace(d.lines[k])
		switch {
		case quote != "":
			if strings.Contains(t, quote) {
				quote = ""
			}
		case t == "" || strings.HasPrefix(t, "#"), strings.HasPrefix(t, "import "), strings.HasPrefix(t, "from ") && strings.Contains(t, " import "):
		default:
			q := docQuote(t)
			if q == "" {
				return false
			}
			if rest := strings.TrimLeft(t, "rRuUbB")[len(q):]; !strings.Contains(rest, q) {
				quote = q
			}
		}
	}
	return quote == ""
}

// docQuote is the quote a docstring line opens with, or "".
func docQuote(t string) string {
	t = strings.TrimLeft(t, "rRuUbB")
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(t, q) {
			return q
		}
	}
	return ""
}

// codeOf drops a trailing comment from a line (roughly: a # outside quotes
// is not told apart, which a signature line rarely holds).
func codeOf(t string) string {
	if i := strings.Index(t, " #"); i >= 0 {
		t = t[:i]
	}
	return strings.TrimSpace(t)
}

// beforeDefs reports whether no def or class starts before line m.
func (d *deprecations) beforeDefs(m int) bool {
	for _, i := range d.byLine {
		n := d.res.Nodes[i]
		if int(n.Line)-1 >= m {
			return true
		}
		if n.Type == graph.Function || n.Type == graph.Class {
			return false
		}
	}
	return true
}
