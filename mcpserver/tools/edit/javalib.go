package edit

import (
	"regexp"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// javaLib looks up in the JDK the bases of Java code the graph does not
// hold (Path, AbstractList, Map.Entry): each name as the imports of the
// file naming it resolve it. nil for other languages.
type javaLib struct {
	jdk  *jdk   // nil: none found (why says so)
	why  string //
	src  string // the edited file
	file func(graph.NodeID) string
}

func newJavaLib(bd *session.Bundle, ext, src string) *javaLib {
	if ext != ".java" {
		return nil
	}
	j, why := findJDK()
	text := fileText(bd)
	return &javaLib{jdk: j, why: why, src: src, file: func(n graph.NodeID) string { return text(bd.Graph.SourcePath(n)) }}
}

// active: the JDK answers for library types (the hand list of standard
// interfaces does otherwise).
func (l *javaLib) active() bool { return l != nil && l.jdk != nil }

// textOf is the text of the file that named a base: the node's, or the
// edited file's for noNode.
func (l *javaLib) textOf(from graph.NodeID) string {
	if from == noNode {
		return l.src
	}
	return l.file(from)
}

// known tells a standard type a class header names, which the graph may
// leave out: the JDK's when it answers, else the hand list's.
func (l *javaLib) known(std map[string]map[string]bool, from graph.NodeID) func(string) bool {
	if !l.active() {
		return func(w string) bool { return std[w] != nil }
	}
	src := l.textOf(from)
	return func(w string) bool {
		_, ok := l.jdk.resolve(w, src)
		return ok
	}
}

// contract answers a base b the graph does not hold, named by from's file,
// from the JDK (ok false: no JDK, or b is not the JDK's).
func (l *javaLib) contract(b string, from graph.NodeID, sym method) (base string, supplied, unknown, ok bool) {
	if !l.active() {
		return "", false, false, false
	}
	t, ok := l.jdk.resolve(b, l.textOf(from))
	if !ok {
		return "", false, true, true
	}
	base, supplied, unknown = l.jdk.contract(t, sym)
	return base, supplied, unknown, true
}

// whyNot explains, in a warning, why library types were not read.
func (l *javaLib) whyNot() string {
	if l == nil || l.jdk != nil {
		return ""
	}
	return "; " + l.why
}

// unread is the first of the edited file's unknown bases that it imports
// from java.* or javax.* when no JDK could be read ("" otherwise): the
// class may no longer implement it, and nothing could tell.
func (l *javaLib) unread(unknown []string) string {
	if l == nil || l.jdk != nil {
		return ""
	}
	for _, b := range unknown {
		first, _, _ := strings.Cut(b, ".")
		for _, m := range javaImport.FindAllStringSubmatch(l.src, -1) {
			if m[1] == "" && m[3] == "" && (strings.HasPrefix(m[2], "java.") || strings.HasPrefix(m[2], "javax.")) && strings.HasSuffix(m[2], "."+first) {
				return m[2] + strings.TrimPrefix(b, first)
			}
		}
	}
	return ""
}

// ownBases are declaredBases, a simple name the edited Java file declares
// a type of bound to that file's: Token.StartTag extends Tag means
// Token.Tag, not another package's Tag.
func ownBases(rel, src, owner string) []string {
	bases := declaredBases(rel, []byte(src), owner)
	if !strings.HasSuffix(rel, ".java") {
		return bases
	}
	for i, b := range bases {
		if !strings.Contains(b, ".") && b != owner && regexp.MustCompile(`\b(?:class|interface|enum|record)\s+`+regexp.QuoteMeta(b)+`\b`).MatchString(src) {
			bases[i] = localType + rel + ":" + b
		}
	}
	return bases
}
