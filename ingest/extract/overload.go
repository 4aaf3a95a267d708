package extract

import (
	"strconv"
	"strings"
)

// overloadID is the ID for a definition of name under parent in a language
// with overloading: parent::name while that is free, so code without
// overloads keeps its IDs; for a later overload parent::name(sig), sig
// being its parameter types ("String,int"), readable and stable while
// overloads move around; parent::name(sig)#n where even that repeats
// (broken code, types differing only in their qualifiers). See
// docs/design.md#node-identity.
func (b *builder) overloadID(parent, name, sig string) string {
	id := ChildID(parent, name)
	if name == "" || !b.has(id) {
		return id
	}
	id += "(" + sig + ")"
	if !b.has(id) {
		return id
	}
	for n := 2; ; n++ {
		if alt := id + "#" + strconv.Itoa(n); !b.has(alt) {
			return alt
		}
	}
}

// maxSig bounds the parameter part of an overload's ID.
const maxSig = 120

// joinSig joins parameter types into the sig of overloadID, cut to maxSig
// bytes.
func joinSig(types []string) string {
	s := strings.Join(types, ",")
	if len(s) > maxSig {
		s = s[:maxSig]
	}
	return s
}

// sigType is the short form of a parameter type for an overload's ID:
// annotations and type arguments dropped (Java cannot overload on them),
// qualifiers dropped (java.util.List → List, std::string → string),
// whitespace collapsed; pointer, reference, array and variadic marks kept.
func sigType(s string) string {
	var out strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '<' || c == '(':
			depth++
		case c == '>' || c == ')':
			depth = max(depth-1, 0)
		case depth > 0:
		case c == '@':
			// An annotation: skip its name; its arguments are a
			// parenthesised group skipped above.
			for i+1 < len(s) && (isIdentByte(s[i+1]) || s[i+1] == '.') {
				i++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			out.WriteByte(' ')
		default:
			out.WriteByte(c)
		}
	}
	var words []string
	for _, w := range strings.Fields(out.String()) {
		if w == "final" {
			continue
		}
		w, dots := strings.CutSuffix(strings.ReplaceAll(w, "::", "."), "...")
		if j := strings.LastIndexByte(w, '.'); j >= 0 && j+1 < len(w) && isIdentByte(w[j+1]) {
			w = w[j+1:]
		}
		if dots {
			w += "..."
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
