package edit

import (
	"path"
	"regexp"
	"strings"
)

// overloading are the languages where one class may declare several
// methods of one name that differ by their parameters.
var overloading = map[string]bool{".java": true, ".kt": true, ".cs": true}

// Params is the removed method's parameter types, as the declaration
// wrote them without generics or qualifiers (known false: not read).
func (s Symbol) Params() (types []string, known bool) { return s.params, s.paramsKnown }

// Signature is Qualified with its parameter types when the removal was of
// one overload among several (Options.addOption(String,String)).
func (s Symbol) Signature() string {
	if !s.overload {
		return s.Qualified
	}
	return s.Qualified + "(" + strings.Join(s.params, ",") + ")"
}

var (
	paramAnnotation = regexp.MustCompile(`@[\w.]+(\s*\([^()]*\))?`)
	paramModifier   = regexp.MustCompile(`\b(final|ref|out|in|this|params|vararg|noinline|crossinline|scoped)\s+`)
	typeArgs        = regexp.MustCompile(`<[^<>]*>`)
)

// ParamTypes reads the parameter types of the declaration of method name
// in decl (its text from the name on, or whole lines holding it): Java's
// and C#'s `Type name`, Kotlin's `name: Type`; varargs as arrays, generics
// and package qualifiers dropped. ok false when no parameter list follows
// the name.
func ParamTypes(decl, name, ext string) (types []string, ok bool) {
	loc := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\s*(<[^(]*>\s*)?\(`).FindStringIndex(decl)
	if loc == nil {
		return nil, false
	}
	open := loc[1] - 1
	end := MatchParen(decl, open)
	if end < 0 {
		return nil, false
	}
	list := strings.TrimSpace(decl[open+1 : end])
	for typeArgs.MatchString(list) {
		list = typeArgs.ReplaceAllString(list, "")
	}
	if list == "" {
		return []string{}, true
	}
	for _, p := range strings.Split(list, ",") {
		p = paramModifier.ReplaceAllString(paramAnnotation.ReplaceAllString(p, " "), "")
		if e, _, cut := strings.Cut(p, "="); cut {
			p = e // a default value (Kotlin, C#)
		}
		p = strings.TrimSpace(p)
		var ty string
		if ext == ".kt" {
			_, ty, _ = strings.Cut(p, ":")
		} else if i := strings.LastIndexAny(p, " \t\n"); i >= 0 {
			ty = p[:i]
		}
		types = append(types, simpleType(ty))
	}
	return types, true
}

// simpleType drops whitespace and package qualifiers: java.util.List → List,
// String... → String[].
func simpleType(ty string) string {
	ty = strings.Join(strings.Fields(ty), "")
	ty = strings.ReplaceAll(ty, "...", "[]")
	if i := strings.LastIndexByte(strings.TrimRight(ty, "[]?"), '.'); i >= 0 {
		ty = ty[i+1:]
	}
	return ty
}

// MatchParen is the index of the parenthesis closing the one at open, -1
// when it is not closed.
func MatchParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// SameParams tells whether two parameter lists may declare the same
// method: equal arity and, position by position, the same type or a
// type parameter (T, K, V: the implementer writes the concrete one).
// Unknown lists fit anything.
func SameParams(a []string, aKnown bool, b []string, bKnown bool) bool {
	if !aKnown || !bKnown {
		return true
	}
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !typeParam(a[i]) && !typeParam(b[i]) {
			return false
		}
	}
	return true
}

// typeParam: a name written like a type parameter (T, E, K2).
func typeParam(t string) bool {
	t = strings.TrimRight(t, "[]?")
	return t != "" && len(t) <= 2 && t[0] >= 'A' && t[0] <= 'Z'
}

// withParams gives each method symbol of an overloading language the
// parameter types its declaration in src writes.
func withParams(rel string, src []byte, syms map[string]Symbol) {
	ext := strings.ToLower(path.Ext(rel))
	if !overloading[ext] {
		return
	}
	lines := strings.Split(string(src), "\n")
	for id, s := range syms {
		if !s.Member || s.Line < 1 || s.Line > len(lines) {
			continue
		}
		s.params, s.paramsKnown = ParamTypes(strings.Join(lines[s.Line-1:min(len(lines), s.Line+20)], "\n"), s.Name, ext)
		syms[id] = s
	}
}
