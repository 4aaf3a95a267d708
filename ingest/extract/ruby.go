package extract

import "strings"

// rubyHook records a construction, `X.new(…)` or `A::B.new(…)`, as a call
// of the class its receiver names (the constant path as written, with
// its argument count): Ruby has no `new` keyword, and a call of `new`
// itself could never be bound (every class answers it). The resolver
// follows the constant path through the module nesting and binds the
// class's initialize. Other calls go on to the table's rules.
func rubyHook(x *tableExtract, i int32, s *tScope) bool {
	t := x.t
	if t.g.kindName(t.n[i].kind) != "call" {
		return false
	}
	m := t.child(i, x.field("method"))
	recv := t.child(i, x.field("receiver"))
	if m < 0 || recv < 0 || t.text(m) != "new" {
		return false
	}
	switch t.g.kindName(t.n[recv].kind) {
	case "constant", "scope_resolution":
	default:
		return false // x.new, self.class.new: no class named
	}
	path := strings.Join(strings.Fields(t.text(recv)), "")
	if len(path) > 200 || strings.ContainsAny(path, "(.[") {
		return false // Foo::bar(x)::Baz: not a constant path
	}
	n := 0
	if a := t.child(i, t.g.field("arguments")); a >= 0 { // not a field the table reads
		n = countArgs(t, a)
	}
	x.b.ref(s.id, path, RelCalls, t.line(i), RefHint{Args: argsHint(n)})
	return false // its arguments and block hold calls too
}

// constantPath is a base named by a qualified constant path ("A::B",
// "::A::B" as "A::B") in a language whose bases keep their path
// (tableLang.basePaths).
func (x *tableExtract) constantPath(name string) (string, bool) {
	name = strings.TrimPrefix(name, "::")
	if !x.l.basePaths || !strings.Contains(name, "::") {
		return "", false
	}
	for _, seg := range strings.Split(name, "::") {
		if !isIdent(seg) {
			return "", false
		}
	}
	return name, true
}
