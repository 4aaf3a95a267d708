package extract

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// overloadID is the ID for a definition of name under parent in a language
// with overloading: parent::name while that is free, so code without
// overloads keeps its IDs; for a later overload parent::name(sig), sig
// being its parameter types ("String,int"), readable and stable while
// overloads move around. A definition with the signature of one already
// emitted is that one again (a C++ prototype and its definition, a
// redefinition) and gets its ID. See docs/design.md#node-identity.
func (b *builder) overloadID(parent, name, sig string) string {
	id := ChildID(parent, name)
	if name == "" {
		return id
	}
	if s, seen := b.sigs[id]; b.has(id) && (!seen || s != sig) {
		id += "(" + sig + ")"
	}
	if b.sigs == nil {
		b.sigs = map[string]string{}
	}
	b.sigs[id] = sig
	return id
}

// distinctID is overloadID for languages without prototypes (Java), where
// two definitions are never one: sigs are tried in turn (simple type
// names, then qualified ones), then the last numbered, …(sig)#2.
func (b *builder) distinctID(parent, name string, sigs ...string) string {
	id := ChildID(parent, name)
	if name == "" || !b.has(id) {
		return id
	}
	for _, s := range sigs {
		if alt := id + "(" + s + ")"; !b.has(alt) {
			return alt
		}
	}
	for n := 2; ; n++ {
		if alt := id + "(" + sigs[len(sigs)-1] + ")#" + strconv.Itoa(n); !b.has(alt) {
			return alt
		}
	}
}

// overloadArity records the arity of function id, named name under
// parent, and once name has a second overload there, that of every
// overload in Result.Arity: the resolver tells calls apart by it.
func (b *builder) overloadArity(parent, name, id string, a Arity) {
	first := ChildID(parent, name)
	if b.arity == nil {
		b.arity = map[string]Arity{}
	}
	b.arity[id] = a
	if id == first {
		return
	}
	if b.res.Arity == nil {
		b.res.Arity = map[string]Arity{}
	}
	b.res.Arity[first] = b.arity[first]
	b.res.Arity[id] = a
}

// maxSig bounds the parameter part of an overload's ID.
const maxSig = 120

// joinSig joins parameter types into the sig of overloadID, cut to maxSig
// bytes.
func joinSig(types []string) string {
	s := strings.Join(types, ",")
	if len(s) > maxSig {
		cut := maxSig
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return s
}

// sigType is the short form of a parameter type for an overload's ID:
// annotations and type arguments dropped (Java cannot overload on them),
// qualifiers dropped (java.util.List → List, std::string → string),
// whitespace collapsed; pointer, reference, array and variadic marks kept.
func sigType(s string) string { return sigTypeQ(s, false) }

// sigTypeQ is sigType, with qualifiers kept when qual is set.
func sigTypeQ(s string, qual bool) string {
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
		if j := strings.LastIndexByte(w, '.'); !qual && j >= 0 && j+1 < len(w) && isIdentByte(w[j+1]) {
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

// signature is the parameter types of table definition i, for overloadID,
// and its arity.
func (x *tableExtract) signature(i int32) (string, Arity) {
	t := x.t
	list := int32(-1)
	for c := t.first(i); c >= 0 && list < 0; c = t.n[c].next {
		if code(x.tt.plist, t.n[c].kind) > 0 {
			list = c
		}
	}
	if d := t.child(i, x.field("declarator")); list < 0 && d >= 0 {
		// C++: under the declarator (pointer, reference, function).
		for j, end := d, t.end(d); j < end; j++ {
			if code(x.tt.plist, t.n[j].kind) > 0 {
				list = j
				break
			}
		}
	}
	var types []string
	var a Arity
	vararg := false // Kotlin: `vararg` is a sibling before its parameter
	for c := t.first(list); list >= 0 && c >= 0; c = t.n[c].next {
		switch {
		case t.g.kindName(t.n[c].kind) == "parameter_modifiers":
			vararg = strings.Contains(t.text(c), "vararg")
		case code(x.tt.param, t.n[c].kind) > 0:
			text := t.text(c)
			a.Variadic = a.Variadic || vararg
			ty, dflt := paramType(text)
			types = append(types, sigType(ty))
			if dflt {
				a.Optional++
			}
			// C++ `Args... args`, Scala `xs: Int*`, Kotlin `vararg`.
			a.Variadic = a.Variadic || strings.Contains(text, "...") || strings.HasSuffix(ty, "*") && strings.Contains(text, ":") ||
				strings.HasPrefix(strings.TrimSpace(text), "vararg")
		case t.n[c].field == x.field("type") && t.n[c].field != 0:
			// C# `params object[] items` sits in the list itself.
			types = append(types, "params "+sigType(t.text(c)))
			a.Variadic = true
		}
	}
	a.Params = uint8(min(len(types), 255))
	return joinSig(types), a
}

// paramType is the type part of a parameter's text: without a default
// value (dflt reports one), the type after "name:" (Kotlin, Scala), else
// the text without the trailing parameter name (C++, C#: "const
// std::string& s").
func paramType(p string) (ty string, dflt bool) {
	depth, colon := 0, -1
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '(' || c == '<' || c == '[' || c == '{':
			depth++
		case c == ')' || c == '>' || c == ']' || c == '}':
			depth = max(depth-1, 0)
		case depth > 0:
		case c == '=' && (i+1 >= len(p) || p[i+1] != '>'):
			p, dflt = p[:i], true
		case c == ':' && colon < 0 && (i+1 >= len(p) || p[i+1] != ':') && (i == 0 || p[i-1] != ':'):
			colon = i
		}
	}
	if colon >= 0 {
		return strings.TrimSpace(p[colon+1:]), dflt
	}
	p = strings.TrimSpace(p)
	j := len(p)
	for j > 0 && isIdentByte(p[j-1]) {
		j--
	}
	if rest := strings.TrimSpace(p[:j]); rest != "" && j < len(p) && !strings.HasSuffix(rest, ":") && !strings.HasSuffix(rest, ".") {
		p = rest
	}
	return strings.ReplaceAll(strings.ReplaceAll(p, " *", "*"), " &", "&"), dflt
}

// joinSignatures makes one node of a TypeScript overload group, signatures
// without bodies followed by the implementation: an agent editing it needs
// them all, so the node spans the first signature to the implementation and
// takes the implementation's excerpt and tags. id was just emitted (isNew)
// or met again; bodyless says the definition met is a signature.
func (b *builder) joinSignatures(id string, isNew, bodyless bool, end uint32, excerpt string, tags []string) {
	i, ok := b.nodes[id]
	switch {
	case !ok:
		return
	case isNew:
		if bodyless {
			if b.bodyless == nil {
				b.bodyless = map[string]bool{}
			}
			b.bodyless[id] = true
		}
		return
	case !b.bodyless[id]:
		return // a redefinition: merged as before
	}
	n := &b.res.Nodes[i]
	n.EndLine = max(n.EndLine, end)
	if !bodyless {
		n.Excerpt, n.Tags = excerpt, tags
		delete(b.bodyless, id)
	}
}

// countArgs counts the arguments of argument list args (0 when args < 0).
func countArgs(t *tree, args int32) int {
	n := 0
	for c := t.first(args); args >= 0 && c >= 0; c = t.n[c].next {
		if !t.kindIsComment(c) {
			n++
		}
	}
	return n
}
