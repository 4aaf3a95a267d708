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
	switch t.g.kindName(t.n[i].kind) {
	case "call":
	case "assignment":
		rubyAlias(x, i, s)
		return false
	default:
		return false
	}
	m := t.child(i, x.field("method"))
	recv := t.child(i, x.field("receiver"))
	if m >= 0 && recv < 0 && !s.inFunc {
		switch t.text(m) {
		case "include", "extend", "prepend":
			rubyMixin(x, i, s)
			return false
		}
	}
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

// rubyAlias records a constant alias of a class or module body (or the
// top level), `Stream = Sinatra::Helpers::Stream`, as a Reexport: Name is
// the alias's path inside the file ("StreamingTest::Stream"), Target the
// constant path as written. The resolver looks the alias up like any
// constant and follows it from where it is declared: `Stream.new` then
// constructs Sinatra::Helpers::Stream (sinatra's streaming tests).
// Inside a method a constant cannot be assigned.
func rubyAlias(x *tableExtract, i int32, s *tScope) {
	t := x.t
	l, r := t.child(i, t.g.field("left")), t.child(i, t.g.field("right"))
	if s.inFunc || l < 0 || r < 0 || t.g.kindName(t.n[l].kind) != "constant" {
		return
	}
	switch t.g.kindName(t.n[r].kind) {
	case "constant", "scope_resolution":
	default:
		return // a value, a call: no class
	}
	target := strings.Join(strings.Fields(t.text(r)), "")
	if len(target) > 200 || strings.ContainsAny(target, "(.[") {
		return
	}
	name := t.text(l)
	if scope, ok := strings.CutPrefix(s.id, x.b.fileID+"::"); ok {
		name = scope + "::" + name
	}
	x.b.res.Reexports = append(x.b.res.Reexports, Reexport{Name: name, Target: target})
}

// rubyClassMethod reports whether the method at i is a class method:
// `def self.x`, or a def inside `class << self` (sinatra's DSL: get,
// delete, set). The resolver does not bind a call on a local value
// (`options.delete(:host)`, a Hash) to one of them.
func rubyClassMethod(t *tree, i int32) bool {
	if t.g.kindName(t.n[i].kind) == "singleton_method" {
		return true
	}
	for p := t.n[i].parent; p >= 0; p = t.n[p].parent {
		switch t.g.kindName(t.n[p].kind) {
		case "singleton_class":
			return true
		case "class", "module", "method", "singleton_method":
			return false
		}
	}
	return false
}

// rubyMixin records `include Helpers`, `extend Delegator`, `prepend
// Mod` in a class or module body as an inherits edge to each module
// named (its constant path as written): the module's methods become the
// includer's, as a base class's do (sinatra's Base includes Helpers and
// Templates).
func rubyMixin(x *tableExtract, i int32, s *tScope) {
	t := x.t
	args := t.child(i, t.g.field("arguments"))
	if args < 0 {
		return
	}
	for c := t.first(args); c >= 0; c = t.n[c].next {
		switch t.g.kindName(t.n[c].kind) {
		case "constant", "scope_resolution":
		default:
			continue
		}
		path := strings.TrimPrefix(strings.Join(strings.Fields(t.text(c)), ""), "::")
		if len(path) > 200 || strings.ContainsAny(path, "(.[") {
			continue
		}
		x.b.ref(s.id, path, RelInherits, t.line(c), RefHint{})
	}
}
