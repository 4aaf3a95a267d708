package documents

import (
	"regexp"
	"strings"
)

// A page's Python block may quote a signature as a stub — a def whose
// body is only `...`, `pass` or a docstring ("```python\ndef run(func,
// *args, backend='asyncio'): ...\n```") — which claims what the def
// takes as a "Signature:" line does. A def with a real body is the
// reader's own code, even when it shares a name with the project's, so
// it is not read.

var stubDefRe = regexp.MustCompile(`^(?:async\s+)?def\s+([A-Za-z_]\w*)\((.*)\)\s*(?:->\s*[^:]+)?:\s*(.*)$`)
var stubClassRe = regexp.MustCompile(`^class\s+([A-Za-z_]\w*)\b`)

// stubSignatures reads the stub defs of a page's Python blocks as whole
// signatures; a stub method under a top-level class is named Class.name.
func stubSignatures(blocks [][]exLine) []sigQuote {
	var out []sigQuote
	for _, b := range blocks {
		texts := make([]string, len(b))
		for i, l := range b {
			texts[i] = l.text
		}
		lls := pyLines(strings.Join(texts, "\n"))
		class, classIndent := "", -1
		for i, ll := range lls {
			if m := stubClassRe.FindStringSubmatch(ll.text); m != nil {
				class, classIndent = m[1], ll.indent
				continue
			}
			if ll.indent <= classIndent {
				class, classIndent = "", -1
			}
			m := stubDefRe.FindStringSubmatch(ll.text)
			if m == nil || !stubBody(m[3], lls[i+1:], ll.indent) {
				continue
			}
			name := m[1]
			if class != "" {
				name = class + "." + name
			}
			line := b[min(ll.first, len(b))-1].line
			if q, ok := readQuote(line, "def "+name+"("+m[2]+")", name, m[2], true); ok {
				q.stub = true
				out = append(out, q)
			}
		}
	}
	return out
}

// stubBody: the def's body (after the colon on its line, or the deeper
// logical lines after it) holds nothing but `...`, `pass` and strings.
func stubBody(inline string, rest []pyLine, indent int) bool {
	if inline != "" {
		return stubStatement(inline)
	}
	for _, ll := range rest {
		if ll.indent <= indent {
			break
		}
		if !stubStatement(ll.text) {
			return false
		}
	}
	return true
}

func stubStatement(s string) bool {
	s = strings.TrimSpace(s)
	return s == "..." || s == "pass" || strings.HasPrefix(s, `"`) || strings.HasPrefix(s, "'")
}
