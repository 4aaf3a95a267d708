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
	case "method", "singleton_method":
		rubyBlockFact(x, i, s)
		return false
	default:
		return false
	}
	m := t.child(i, x.field("method"))
	recv := t.child(i, x.field("receiver"))
	if m >= 0 && !s.inFunc && (recv < 0 || t.text(recv) == "RSpec") {
		rubySharedGroup(x, i, t.text(m))
	}
	if m >= 0 && recv < 0 && !s.inFunc {
		switch t.text(m) {
		case "include", "extend", "prepend":
			rubyMixin(x, i, s)
			return false
		default:
			rubyGroupForwards(x, i, s, t.text(m))
			rubyDelegate(x, i, s, t.text(m))
		}
	}
	if m >= 0 && recv >= 0 && (t.text(m) == "include" || t.text(m) == "extend") && rubyInConfigure(t, i) {
		// RSpec.configure { |config| config.include Helpers }: every
		// example group of the suite answers Helpers' methods.
		rubyGroupMixins(x, i, "&groupall")
		return false
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
		if s.id == x.b.fileID && rubyInBlock(t, i) && t.text(t.child(i, x.field("method"))) != "prepend" {
			// `include Helpers` in a describe block: the file's example
			// groups answer Helpers' methods (resolve.rubyGroupCands).
			x.b.res.Reexports = append(x.b.res.Reexports, Reexport{Module: "&group", Target: path})
		}
		if s.id == x.b.fileID && t.text(t.child(i, x.field("method"))) != "prepend" && !rubyInBlock(t, i) {
			// `extend Sinatra::Delegator` at a file's top level gives
			// main (the self of every top-level call in the files that
			// load this one) the module's methods; a top-level include
			// gives them to every object, main too.
			x.b.res.Reexports = append(x.b.res.Reexports, Reexport{Module: "&main", Target: path})
		}
	}
}

// rubyEvals are the methods that run a block with their receiver as
// self: a bare call inside binds in the receiver's class.
var rubyEvals = setOf("instance_eval", "class_eval", "module_eval", "instance_exec", "class_exec", "module_exec")

// rubySelfLinks bounds the chain of blocks a bare call's self is read
// through (mock_app { helpers { x } } is two).
const rubySelfLinks = 4

// rubySelf describes, for a bare call at node i, what self is when it
// runs, as the resolver reads it (resolve.rubySelf): links from the
// innermost block out, joined by "<", each one of
//
//	"."      the lexical self (a method, a class body, the top level)
//	"C:P"    the class the constant path P names (Class.new(P) do,
//	         P.class_eval do)
//	"N:P"    what P.new does with a block (Rack::Builder.new do: self is
//	         the new builder; Sinatra.new do: what Sinatra's own new does)
//	"B:m"    what the method m, called bare, does with its block; when
//	         it runs it on its caller's self, the next link says
//	"?"      a receiver no constant names: nothing of the repository
//	"G"      an example group of RSpec (RSpec.describe do): its
//	         examples' self answers the test file's helpers only
//	"~"      not known (a block of a method of a constant)
//
// Ruby changes self only where a method evaluates its block on another
// object; the lexical self holds everywhere else (each, map, lambdas).
func rubySelf(x *tableExtract, i int32) string {
	t := x.t
	var links []string
	for p := t.n[i].parent; p >= 0 && len(links) < rubySelfLinks; p = t.n[p].parent {
		switch t.g.kindName(t.n[p].kind) {
		case "method", "singleton_method":
			if rubyInBlock(t, p) {
				// A def inside a block (RSpec's describe, included do):
				// whose method it becomes is that block's business.
				return strings.Join(append(links, "~"), "<")
			}
			return strings.Join(append(links, "."), "<")
		case "class", "module", "singleton_class", "program":
			return strings.Join(append(links, "."), "<")
		case "block", "do_block":
			l, last := rubyBlockLink(x, p)
			if l != "" {
				links = append(links, l)
			}
			if last {
				return strings.Join(links, "<")
			}
		}
	}
	return strings.Join(append(links, "~"), "<")
}

// rubyBlockLink is the link block b adds (none for a block that keeps
// self), and whether it ends the chain.
func rubyBlockLink(x *tableExtract, b int32) (string, bool) {
	t := x.t
	c := t.n[b].parent
	if c < 0 || t.g.kindName(t.n[c].kind) != "call" {
		return "", false // a lambda's block: self is kept
	}
	m := t.child(c, t.g.field("method"))
	if m < 0 {
		return "", false
	}
	return rubyTakesBlock(x, c, t.text(m), func(i int32) string { return rubyConstPath(t, i) })
}

// rubyTakesBlock says what call c, of method name m, does with a block
// it is given (a do … end or a &block): the link rubySelf adds and
// whether it ends the chain.
// val reads a receiver or argument as a constant path ("" when it is
// none).
func rubyTakesBlock(x *tableExtract, c int32, m string, val func(int32) string) (string, bool) {
	t := x.t
	recv := t.child(c, t.g.field("receiver"))
	path := ""
	if recv >= 0 {
		path = val(recv)
	}
	self := recv < 0 || t.text(recv) == "self"
	switch {
	case rubyEvals[m] && self:
		return "", false // self.instance_eval: self again
	case rubyEvals[m] && path != "":
		return "C:" + path, true
	case rubyEvals[m]:
		return "?", true
	case m == "new" && path == "Class":
		if a := rubyFirstArg(x, c); a >= 0 && val(a) != "" {
			return "C:" + val(a), true
		}
		return "?", true
	case m == "new" && (path == "Module" || path == "Struct" || path == "Data"):
		return "?", true
	case m == "new" && path != "":
		return "N:" + path, true
	case m == "new":
		return "~", true // klass.new do: which class is not known
	case self:
		return "B:" + m, false
	case path == "RSpec" && RubySpecDSL[m]:
		return "G", true // RSpec.describe: an example group
	case path != "":
		return "~", true // Rack::Builder.app: its own rules
	}
	return "", false // x.each do: an iterator keeps self
}

// rubyConstPath is the constant path node i spells ("Sinatra::Base"),
// or "" when it is no constant path.
func rubyConstPath(t *tree, i int32) string {
	switch t.g.kindName(t.n[i].kind) {
	case "constant", "scope_resolution":
	default:
		return ""
	}
	p := strings.Join(strings.Fields(t.text(i)), "")
	if len(p) > 200 || strings.ContainsAny(p, "(.[") {
		return ""
	}
	return p
}

// rubyFirstArg is the first argument of call c, or -1.
func rubyFirstArg(x *tableExtract, c int32) int32 {
	t := x.t
	a := t.child(c, t.g.field("arguments"))
	if a < 0 {
		return -1
	}
	for k := t.first(a); k >= 0; k = t.n[k].next {
		if !t.kindIsComment(k) {
			return k
		}
	}
	return -1
}

// rubyBlockFact records what method i does with its block parameter
// (`def mock_app(base = Sinatra::Base, &block)`) when it hands it to a
// call: the link rubySelf would write for that call (its receiver or
// class argument read through the method's parameter defaults and
// assignments), as a Reexport with Module "&block", Name the method's
// path in the file. A caller's `mock_app { get '/' }` then binds get in
// Sinatra::Base. A method that yields or calls its block records
// nothing: the block keeps its caller's self.
func rubyBlockFact(x *tableExtract, i int32, s *tScope) {
	t := x.t
	if rubyInBlock(t, i) {
		if name := t.child(i, t.g.field("name")); name >= 0 {
			// No top-level def: the resolver does not offer it to
			// every file's bare calls.
			x.b.res.Reexports = append(x.b.res.Reexports, Reexport{Name: rubyDefPath(x, s, t.text(name)), Module: "&inblock"})
		}
	}
	name, blk := t.child(i, t.g.field("name")), rubyBlockParam(x, i)
	if name < 0 || blk == "" {
		return
	}
	for k, end := i+1, t.end(i); k < end; k++ {
		if t.g.kindName(t.n[k].kind) != "block_argument" || strings.TrimPrefix(t.text(k), "&") != blk {
			continue
		}
		c := t.n[k].parent
		if c >= 0 && t.g.kindName(t.n[c].kind) == "argument_list" {
			c = t.n[c].parent
		}
		m := t.child(c, t.g.field("method"))
		if c < 0 || t.g.kindName(t.n[c].kind) != "call" || m < 0 {
			return
		}
		link, _ := rubyTakesBlock(x, c, t.text(m), func(j int32) string { return rubyValue(x, i, j, 0) })
		switch {
		case t.text(m) == "define_method" || link == "":
			link = "." // a method of self's class, or self again
		case link == "~":
			return
		}
		x.b.res.Reexports = append(x.b.res.Reexports, Reexport{Name: rubyDefPath(x, s, t.text(name)), Module: "&block", Target: link})
		return
	}
}

// rubyBlockParam is the name of method i's block parameter (&block), or "".
func rubyBlockParam(x *tableExtract, i int32) string {
	t := x.t
	ps := t.child(i, t.g.field("parameters"))
	if ps < 0 {
		return ""
	}
	for k := t.first(ps); k >= 0; k = t.n[k].next {
		if t.g.kindName(t.n[k].kind) == "block_parameter" {
			return strings.TrimSpace(strings.TrimPrefix(t.text(k), "&"))
		}
	}
	return ""
}

// rubyValue reads node j inside method fn as a constant path: a
// constant, or a local that a parameter default (`base = Base`) or an
// assignment (`base = Class.new(base)`) sets to one; "" otherwise.
func rubyValue(x *tableExtract, fn, j int32, depth int) string {
	t := x.t
	if p := rubyConstPath(t, j); p != "" || depth > 3 {
		return p
	}
	if t.g.kindName(t.n[j].kind) != "identifier" {
		return ""
	}
	v := t.text(j)
	for k, end := fn+1, t.end(fn); k < end && k < j; k++ {
		switch t.g.kindName(t.n[k].kind) {
		case "optional_parameter", "keyword_parameter":
			if n := t.child(k, t.g.field("name")); n >= 0 && t.text(n) == v {
				if d := t.child(k, t.g.field("value")); d >= 0 {
					return rubyValue(x, fn, d, depth+1)
				}
			}
		case "assignment":
			l, r := t.child(k, t.g.field("left")), t.child(k, t.g.field("right"))
			if l >= 0 && r >= 0 && t.text(l) == v && r != j {
				if p := rubyClassNew(x, fn, r, depth); p != "" {
					return p
				}
				return rubyValue(x, fn, r, depth+1)
			}
		}
	}
	return ""
}

// rubyClassNew reads `Class.new(P)` as P (a subclass of P answers what P
// answers), "" for anything else.
func rubyClassNew(x *tableExtract, fn, c int32, depth int) string {
	t := x.t
	if t.g.kindName(t.n[c].kind) != "call" {
		return ""
	}
	m, recv := t.child(c, t.g.field("method")), t.child(c, t.g.field("receiver"))
	if m < 0 || recv < 0 || t.text(m) != "new" || t.text(recv) != "Class" {
		return ""
	}
	if a := rubyFirstArg(x, c); a >= 0 {
		return rubyValue(x, fn, a, depth+1)
	}
	return ""
}

// rubyDefPath is the path in the file of a def named name in scope s.
func rubyDefPath(x *tableExtract, s *tScope, name string) string {
	if scope, ok := strings.CutPrefix(s.id, x.b.fileID+"::"); ok {
		return scope + "::" + name
	}
	return name
}

// rubyInBlock reports whether def i sits in a block before any class,
// module or method.
func rubyInBlock(t *tree, i int32) bool {
	for p := t.n[i].parent; p >= 0; p = t.n[p].parent {
		switch t.g.kindName(t.n[p].kind) {
		case "block", "do_block":
			return true
		case "class", "module", "singleton_class", "method", "singleton_method", "program":
			return false
		}
	}
	return false
}

// rubyDelegate records the methods a module body makes, with a call of
// one of its own class methods, that forward to a constant: sinatra's
// Delegator says `delegate :get, :post, …`, and its `def self.delegate`
// define_methods each name as `Delegator.target.send(name, …)`, with
// `self.target = Application` in the module body. Each name becomes a
// Reexport with Module "&forward": Name the generated method's path,
// Target the constant path. A top-level `get` in a file that loads the
// module's extender then binds Application's get (resolve.rubyMain).
// What a gem's delegate does (ActiveSupport's `to:`) is not read.
func rubyDelegate(x *tableExtract, i int32, s *tScope, m string) {
	t := x.t
	if s.id == x.b.fileID || rubyInBlock(t, i) {
		return
	}
	syms := rubySymbolArgs(t, i)
	owner := rubyOwner(t, i)
	if len(syms) == 0 || owner < 0 {
		return
	}
	gen := rubyGenerator(t, owner, m)
	if gen < 0 {
		return
	}
	target := rubyForwardTarget(t, owner, gen)
	if target == "" {
		return
	}
	for _, sym := range syms {
		x.b.res.Reexports = append(x.b.res.Reexports, Reexport{Name: rubyDefPath(x, s, sym), Module: "&forward", Target: target})
	}
}

// rubySymbolArgs are the names call c passes as symbols (`:get, :post`),
// none when any argument is something else (a hash of options).
func rubySymbolArgs(t *tree, c int32) []string {
	a := t.child(c, t.g.field("arguments"))
	if a < 0 {
		return nil
	}
	var out []string
	for k := t.first(a); k >= 0; k = t.n[k].next {
		switch {
		case t.kindIsComment(k):
		case t.g.kindName(t.n[k].kind) == "simple_symbol":
			out = append(out, strings.TrimPrefix(t.text(k), ":"))
		default:
			return nil
		}
	}
	return out
}

// rubyOwner is the class or module whose body holds node i, or -1.
func rubyOwner(t *tree, i int32) int32 {
	for p := t.n[i].parent; p >= 0; p = t.n[p].parent {
		switch t.g.kindName(t.n[p].kind) {
		case "class", "module":
			return p
		case "method", "singleton_method", "singleton_class", "block", "do_block", "program":
			return -1
		}
	}
	return -1
}

// rubyGenerator is the class method m of owner (`def self.m`, or a def
// in `class << self`) when its body calls define_method, or -1.
func rubyGenerator(t *tree, owner int32, m string) int32 {
	for k, end := owner+1, t.end(owner); k < end; k++ {
		switch t.g.kindName(t.n[k].kind) {
		case "method", "singleton_method":
		default:
			continue
		}
		if n := t.child(k, t.g.field("name")); n < 0 || t.text(n) != m || !rubyClassMethod(t, k) {
			continue
		}
		if rubyCallsIn(t, k, func(name string) bool { return name == "define_method" }) >= 0 {
			return k
		}
	}
	return -1
}

// rubyCallsIn is the first call inside node i whose method name is
// wanted, or -1.
func rubyCallsIn(t *tree, i int32, want func(string) bool) int32 {
	for k, end := i+1, t.end(i); k < end; k++ {
		if t.g.kindName(t.n[k].kind) != "call" {
			continue
		}
		if m := t.child(k, t.g.field("method")); m >= 0 && want(t.text(m)) {
			return k
		}
	}
	return -1
}

// rubySends are the methods that call a method by its name.
var rubySends = setOf("send", "public_send", "__send__")

// rubyForwardTarget is the constant generator gen's methods send to: the
// receiver of its send when that is a constant, or the constant owner's
// body assigns to the attribute the receiver reads (`Delegator.target`,
// `self.target = Application`); "" when neither.
func rubyForwardTarget(t *tree, owner, gen int32) string {
	c := rubyCallsIn(t, gen, func(name string) bool { return rubySends[name] })
	if c < 0 {
		return ""
	}
	r := t.child(c, t.g.field("receiver"))
	if r < 0 {
		return ""
	}
	if p := rubyConstPath(t, r); p != "" {
		return p
	}
	attr := t.text(r)
	if m := t.child(r, t.g.field("method")); m >= 0 && t.g.kindName(t.n[r].kind) == "call" {
		attr = t.text(m)
	}
	if !isIdent(attr) {
		return ""
	}
	for k, end := owner+1, t.end(owner); k < end; k++ {
		if t.g.kindName(t.n[k].kind) != "assignment" {
			continue
		}
		l, v := t.child(k, t.g.field("left")), t.child(k, t.g.field("right"))
		if l >= 0 && v >= 0 && strings.Join(strings.Fields(t.text(l)), "") == "self."+attr {
			return rubyConstPath(t, v)
		}
	}
	return ""
}

// RubySpecDSL are the methods of RSpec and minitest/spec that take a block
// making an example group or running in one of its examples (describe,
// it, let, before …). A bare call in such a block runs on the example:
// it answers the test file's helpers (defs in the file's blocks, included
// modules, top-level defs), never a library method of the same name
// (`expect(x).to all(be_a(String))` is RSpec's all). They count only when
// no file of the repository declares the method.
var RubySpecDSL = setOf("describe", "context", "feature", "shared_examples", "shared_examples_for",
	"shared_context", "example_group", "xdescribe", "fdescribe", "xcontext", "fcontext",
	"it", "specify", "example", "scenario", "its", "xit", "fit", "focus", "before", "after",
	"around", "let", "let!", "subject", "subject!")

// rubyInConfigure reports whether call i sits in the block of
// `RSpec.configure`.
func rubyInConfigure(t *tree, i int32) bool {
	for p := t.n[i].parent; p >= 0; p = t.n[p].parent {
		switch t.g.kindName(t.n[p].kind) {
		case "block", "do_block":
			c := t.n[p].parent
			if c < 0 || t.g.kindName(t.n[c].kind) != "call" {
				continue
			}
			r, m := t.child(c, t.g.field("receiver")), t.child(c, t.g.field("method"))
			if r >= 0 && m >= 0 && t.text(r) == "RSpec" && t.text(m) == "configure" {
				return true
			}
		case "class", "module", "method", "singleton_method":
			return false
		}
	}
	return false
}

// rubyGroupMixins records the modules call i (`config.include A, B`)
// names as Reexports with Module kind.
func rubyGroupMixins(x *tableExtract, i int32, kind string) {
	t := x.t
	args := t.child(i, t.g.field("arguments"))
	if args < 0 {
		return
	}
	for c := t.first(args); c >= 0; c = t.n[c].next {
		if p := rubyConstPath(t, c); p != "" {
			x.b.res.Reexports = append(x.b.res.Reexports, Reexport{Module: kind, Target: strings.TrimPrefix(p, "::")})
		}
	}
}

// rubyForwarders are Forwardable's and ActiveSupport's delegation calls.
var rubyForwarders = setOf("def_delegators", "def_delegator", "def_instance_delegators", "delegate")

// rubyGroupForwards records the names a Forwardable or ActiveSupport
// delegation in a block at a file's top level forwards (`def_delegators
// :subject, :content_for`, in an RSpec group), as Reexports with Module
// "&groupfwd": to what, a let or subject, is not known here, so a bare
// call of such a name in the file's examples is left undecided.
func rubyGroupForwards(x *tableExtract, i int32, s *tScope, m string) {
	t := x.t
	if !rubyForwarders[m] || s.id != x.b.fileID || !rubyInBlock(t, i) {
		return
	}
	a := t.child(i, t.g.field("arguments"))
	if a < 0 {
		return
	}
	for k := t.first(a); k >= 0; k = t.n[k].next {
		if t.g.kindName(t.n[k].kind) == "simple_symbol" {
			x.b.res.Reexports = append(x.b.res.Reexports, Reexport{Name: strings.TrimPrefix(t.text(k), ":"), Module: "&groupfwd"})
		}
	}
}

// rubySharedKinds are RSpec's calls that define a shared group by name
// ("&shareddef") and those that bring one into an example group
// ("&shareduse").
var rubySharedKinds = map[string]string{
	"shared_context": "&shareddef", "shared_examples": "&shareddef", "shared_examples_for": "&shareddef",
	"include_context": "&shareduse", "include_examples": "&shareduse", "it_behaves_like": "&shareduse",
	"it_should_behave_like": "&shareduse",
}

// rubySharedGroup records call i, `shared_context "name" do … end` or
// `include_context "name"` (bare or on RSpec), as a Reexport whose Name
// is the group's name: a group that includes a shared context defined
// in another file (under spec/support, say) answers the helpers defined in its
// block. A name that is no plain string or symbol is not recorded.
func rubySharedGroup(x *tableExtract, i int32, m string) {
	kind, ok := rubySharedKinds[m]
	if !ok {
		return
	}
	t := x.t
	a := t.child(i, t.g.field("arguments"))
	if a < 0 {
		return
	}
	k := t.first(a)
	if k < 0 {
		return
	}
	var name string
	switch txt := t.text(k); t.g.kindName(t.n[k].kind) {
	case "string":
		if len(txt) >= 2 && (txt[0] == '"' || txt[0] == '\'') && txt[len(txt)-1] == txt[0] && !strings.Contains(txt, "#{") {
			name = txt[1 : len(txt)-1]
		}
	case "simple_symbol":
		name = strings.TrimPrefix(txt, ":")
	}
	if name != "" {
		x.b.res.Reexports = append(x.b.res.Reexports, Reexport{Name: name, Module: kind})
	}
}
