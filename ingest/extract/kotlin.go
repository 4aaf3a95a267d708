package extract

import (
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// kotlinHook gives a Kotlin class its constructors, as Java's have them:
// nodes labelled with the class's name under the class, their parameters
// in the ID when overloaded and their arity, so that `X(a)` (a
// construction, no `new`) binds the one its argument count fits. The
// primary constructor (`class X(val a: Int)`) is one; so is each
// secondary `constructor(…)`, whose body is its calls' source; and a class
// with `init` blocks and neither has an implicit primary one, which they
// make. A class with none of these keeps its calls alone (the implicit
// constructor, as in Java).
func kotlinHook(x *tableExtract, i int32, s *tScope) bool {
	t := x.t
	kind := t.g.kindName(t.n[i].kind)
	if kind == "call_expression" {
		return x.chainedCall(i, s) || x.kotlinTypedCall(i, s)
	}
	if kind == "function_declaration" {
		return x.kotlinFunDecl(i, s)
	}
	if kind == "callable_reference" || kind == "navigation_expression" {
		x.kotlinFuncRef(i, s)
		return false
	}
	if !s.classLike {
		return false
	}
	switch kind {
	case "property_declaration":
		x.kotlinField(i, s)
		return false
	case "primary_constructor":
		x.kotlinCtor(i, s, "")
		x.kotlinParamFields(i, s)
		return false // default values: the class's calls
	case "secondary_constructor":
		id := x.kotlinCtor(i, s, "constructor")
		inner := &tScope{id: id, name: s.name, inFunc: true, nest: s.nest + 1, nameNode: -1}
		for c := t.first(i); c >= 0; c = t.n[c].next {
			x.walk(c, inner)
		}
		return true
	case "anonymous_initializer":
		if x.firstInitOnly(i) {
			x.kotlinCtor(i, s, "init")
		}
		return false
	}
	return false
}

// kotlinFuncRef records a callable reference — `::f`, `Foo::f`, `this::f`
// — as a call of f: passing a function on is using it (timber's
// `.let(::createStackElementTag)` was that function's only use, and impact
// said nothing depends on it). Its arity is not known: every overload
// stays. `X::class` names no function.
func (x *tableExtract) kotlinFuncRef(i int32, s *tScope) {
	t := x.t
	last := int32(-1)
	for c := t.first(i); c >= 0; c = t.n[c].next {
		last = c
	}
	if last < 0 || t.g.kindName(t.n[last].kind) != "identifier" {
		return
	}
	// "::" is no named node: it is read from the text before the name.
	n := t.text(last)
	head, ok := strings.CutSuffix(t.text(i), n)
	if !ok {
		return
	}
	head, ok = strings.CutSuffix(strings.TrimSpace(head), "::")
	if !ok || n == "class" || !isCallName(n) {
		return
	}
	var h RefHint
	switch r := compactDots(strings.TrimSpace(head)); {
	case r == "":
		h.Module = x.imported[n]
	case r == "this": // as the table reads this.f(): in an extension, the receiver's
		h.Receiver, h.ReceiverType = trimReceiver(r), x.enclosingClass(s)
	default:
		h.Receiver = trimReceiver(r)
		if isUpperStart(r) && isIdent(r) && !isAllUpper(r) {
			h.ReceiverType = r
		}
	}
	x.b.ref(s.id, n, RelCalls, t.line(i), h)
}

// chainedCall passes over the outer call of a chain, `a.f(x).g(y)`, and
// of a trailing lambda, `f(x) { … }` (the grammar wraps the call f(x) in
// a call with the lambda), and walks their parts: the table reads a callee
// up to its first parenthesis, so it would name f again, with other
// arguments, a second f that its argument count would keep apart from the
// real one. (kotlinArgs counts the trailing lambda with f's arguments.)
func (x *tableExtract) chainedCall(i int32, s *tScope) bool {
	t := x.t
	callee := t.first(i)
	if callee < 0 {
		return false
	}
	switch t.g.kindName(t.n[callee].kind) {
	case "call_expression":
	case "navigation_expression":
		if !strings.Contains(t.text(callee), "(") {
			return false
		}
	default:
		return false
	}
	for c := t.first(i); c >= 0; c = t.n[c].next {
		x.walk(c, s)
	}
	return true
}

// kotlinCtor emits a constructor of class scope s declared by node i, its
// excerpt's keyword kw ("" for a primary constructor: the class line).
func (x *tableExtract) kotlinCtor(i int32, s *tScope, kw string) string {
	t := x.t
	sig, ar := x.signature(i)
	ar.Kinds = kotlinParamKinds(x, i)
	ar = kotlinOptional(ar, ar.Kinds)
	id := x.b.overloadID(s.id, s.name, sig)
	ex := sigExcerpt(t.bytes(i))
	if kw == "" {
		ex = s.name + sigExcerpt(t.bytes(i))
	}
	id, _ = x.b.entityAt(id, s.id, s.name, graph.Function, t.line(i), t.endLine(i), ex, x.l.name, KindMethod, "constructor")
	x.b.overloadArity(s.id, s.name, id, ar)
	return id
}

// firstInitOnly reports whether init block i makes its class's implicit
// primary constructor: it is the class body's first, and the class
// declares no primary and no secondary constructor (their blocks run as
// part of those).
func (x *tableExtract) firstInitOnly(i int32) bool {
	t := x.t
	body := t.n[i].parent
	if body < 0 {
		return false
	}
	first := int32(-1)
	for c := t.first(body); c >= 0; c = t.n[c].next {
		switch t.g.kindName(t.n[c].kind) {
		case "secondary_constructor":
			return false
		case "anonymous_initializer":
			if first < 0 {
				first = c
			}
		}
	}
	if first != i {
		return false
	}
	if cls := t.n[body].parent; cls >= 0 {
		for c := t.first(cls); c >= 0; c = t.n[c].next {
			if t.g.kindName(t.n[c].kind) == "primary_constructor" {
				return false
			}
		}
	}
	return true
}

// kotlinArgs counts the arguments of call_expression i: its value
// arguments, and a trailing lambda (`run(a) { … }` passes two).
func kotlinArgs(x *tableExtract, i int32) (int, bool) {
	t := x.t
	n, ok := 0, false
	if p := t.n[i].parent; p >= 0 && t.first(p) == i && t.g.kindName(t.n[p].kind) == "call_expression" {
		// f(x) { … }: the lambda is in the call wrapping this one.
		n, ok = lambdas(x, p)
	}
	for c := t.first(i); c >= 0; c = t.n[c].next {
		switch t.g.kindName(t.n[c].kind) {
		case "value_arguments":
			ok = true
			for v := t.first(c); v >= 0; v = t.n[v].next {
				if t.g.kindName(t.n[v].kind) == "value_argument" {
					n++
				}
			}
		case "annotated_lambda":
			ok = true
			n++
		}
	}
	return n, ok
}

// noteImport records the name a single-name import (`import a.b.C`)
// brings in, in a language with importHints; a star or an aliased import
// (`import a.b.C as D`) names none.
func (x *tableExtract) noteImport(m string) {
	if !x.l.importHints || strings.ContainsAny(m, " *") {
		return
	}
	pkg, name := splitLast(m, ".")
	if pkg == "" || name == "" {
		return
	}
	if x.imported == nil {
		x.imported = map[string]string{}
	}
	x.imported[name] = pkg
}

// lambdas counts the trailing lambdas of call_expression i.
func lambdas(x *tableExtract, i int32) (int, bool) {
	t := x.t
	n := 0
	for c := t.first(i); c >= 0; c = t.n[c].next {
		if t.g.kindName(t.n[c].kind) == "annotated_lambda" {
			n++
		}
	}
	return n, n > 0
}

// kotlinParamKinds lists constructor i's parameters as "name:k" items
// (Arity.Kinds): what kind of argument each type evidently takes, "?"
// after one with a default, "*" after a vararg.
func kotlinParamKinds(x *tableExtract, i int32) string {
	t := x.t
	var items []string
	tparams := x.kotlinTypeParams(i)
	inherited := x.kotlinOverrides(i)
	for c := t.first(i); c >= 0; c = t.n[c].next {
		switch t.g.kindName(t.n[c].kind) {
		case "class_parameters", "function_value_parameters":
		default:
			continue
		}
		vararg := false // a `vararg` modifier may be a sibling before its parameter
		for p := t.first(c); p >= 0; p = t.n[p].next {
			switch t.g.kindName(t.n[p].kind) {
			case "class_parameter", "parameter":
			case "parameter_modifiers":
				vararg = strings.Contains(t.text(p), "vararg")
				continue
			default:
				continue
			}
			name := ""
			for q := t.first(p); q >= 0 && name == ""; q = t.n[q].next {
				if k := t.g.kindName(t.n[q].kind); k == "identifier" || k == "simple_identifier" {
					name = t.text(q)
				}
			}
			ty, dflt := paramType(t.text(p))
			dflt = dflt || kotlinSiblingDefault(x, p)
			k := kotlinTypeKind(ty)
			if k == "o" && tparams[kotlinBaseType(ty)] {
				k = "_" // a type parameter: any value
			}
			item := name + ":" + k
			switch {
			case vararg || strings.Contains(t.text(p), "vararg "):
				item += "*" // may take no argument
			case dflt || inherited:
				item += "?" // has a default
			}
			items = append(items, item)
			vararg = false
		}
	}
	return strings.Join(items, ",")
}

// kotlinSiblingDefault reports whether function parameter p has a
// default value: the grammar puts a function's `= value` beside the
// parameter, in the list, where a class parameter holds its own. The node after p is then an expression,
// neither the next parameter nor its modifiers.
func kotlinSiblingDefault(x *tableExtract, p int32) bool {
	t := x.t
	if t.g.kindName(t.n[p].kind) != "parameter" {
		return false
	}
	n := t.n[p].next
	for n >= 0 && t.kindIsComment(n) {
		n = t.n[n].next
	}
	if n < 0 {
		return false
	}
	switch t.g.kindName(t.n[n].kind) {
	case "parameter", "parameter_modifiers", "class_parameter":
		return false
	}
	return true
}

// kotlinOverrides reports whether declaration i is an `override`: its
// parameters take the defaults of the function it overrides, written
// elsewhere (kotlinpoet's `override fun copy(nullable: Boolean, …)` is
// called as `copy(nullable = true)`), so any of them may be left out.
func (x *tableExtract) kotlinOverrides(i int32) bool {
	t := x.t
	for c := t.first(i); c >= 0; c = t.n[c].next {
		if t.g.kindName(t.n[c].kind) == "modifiers" {
			return strings.Contains(t.text(c), "override")
		}
	}
	return false
}

// kotlinOptional fixes arity a by parameter kinds ("?" after a parameter
// with a default, "*" after a vararg: kotlinParamKinds): the table's
// signature reads a default inside the parameter's text only, and a
// function's is beside it, so `fun copy(nullable: Boolean = …, …)`
// counted none and its arity refused `copy(nullable = true)`. A vararg
// may take no argument, wherever it stands (`get(receiver: T? = null,
// vararg ps: P, returnType: R)` takes `get(returnType = r)`).
func kotlinOptional(a Arity, kinds string) Arity {
	n := 0
	for _, item := range strings.Split(kinds, ",") {
		if strings.HasSuffix(item, "?") || strings.HasSuffix(item, "*") {
			n++
		}
	}
	a.Optional = uint8(max(int(a.Optional), min(n, int(a.Params))))
	return a
}

// kotlinTypeKind is the one kind of literal a parameter type takes
// ("s", "i", "d", "b", "c", "l" for a function type, "a" an array), "o" for a class
// no literal is a value of (CodeBlock: a lambda may still be one, by a
// SAM conversion), "_" for a type a value of any kind may be (Any,
// Number, Comparable, a type parameter written in capitals). Kotlin
// converts no number literal to another kind (1 is no Double).
func kotlinTypeKind(ty string) string {
	ty = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(ty), "?"))
	if strings.HasPrefix(ty, "(") || strings.HasPrefix(ty, "suspend") || strings.Contains(ty, "->") {
		return "l"
	}
	ty = kotlinBaseType(ty)
	switch strings.TrimPrefix(ty, "kotlin.") {
	case "String", "CharSequence":
		return "s"
	case "Int", "Long", "Short", "Byte", "UInt", "ULong", "UShort", "UByte":
		return "i"
	case "Double", "Float":
		return "d"
	case "Boolean":
		return "b"
	case "Char":
		return "c"
	case "Array", "IntArray", "LongArray", "ShortArray", "ByteArray", "CharArray", "BooleanArray", "FloatArray", "DoubleArray":
		return "a"
	case "Any", "Number", "Comparable", "Serializable", "java.io.Serializable", "Nothing", "dynamic":
		return "_" // literals' supertypes
	}
	if last := lastSegment(ty, "."); isIdent(last) && isUpperStart(last) && !isAllUpper(last) {
		return "o"
	}
	return "_"
}

// kotlinBaseType is type ty without type arguments and nullability:
// `Foo<T>?` → Foo.
func kotlinBaseType(ty string) string {
	ty = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(ty), "?"))
	if j := strings.IndexByte(ty, '<'); j >= 0 {
		ty = strings.TrimSpace(ty[:j])
	}
	return ty
}

// kotlinTypeParams are the type parameter names declared by declaration
// i and the classes and functions around it (`fun <Item> f(x: Item)`):
// a parameter of such a type takes any value.
func (x *tableExtract) kotlinTypeParams(i int32) map[string]bool {
	t := x.t
	var out map[string]bool
	for n := i; n >= 0; n = t.n[n].parent {
		for c := t.first(n); c >= 0; c = t.n[c].next {
			if t.g.kindName(t.n[c].kind) != "type_parameters" {
				continue
			}
			for p := t.first(c); p >= 0; p = t.n[p].next {
				if t.g.kindName(t.n[p].kind) != "type_parameter" {
					continue
				}
				for id := t.first(p); id >= 0; id = t.n[id].next {
					if k := t.g.kindName(t.n[id].kind); k == "identifier" || k == "type_identifier" {
						if out == nil {
							out = map[string]bool{}
						}
						out[t.text(id)] = true
						break
					}
				}
			}
		}
	}
	return out
}

// kotlinArgKinds tells what the arguments of call_expression i evidently
// are (RefHint.ArgKinds): literals, lambdas, typed variables, named
// arguments and a trailing lambda, "_" for any other; "" for a call
// without arguments. All-"_" lists are kept: resolve.argsFit still
// checks that they leave no parameter without a default unfilled
// (Taggable's `tag(type.kotlin)` is no Builder's tag(type, tag)).
func kotlinArgKinds(x *tableExtract, i int32) string {
	t := x.t
	var items []string
	for c := t.first(i); c >= 0; c = t.n[c].next {
		switch t.g.kindName(t.n[c].kind) {
		case "value_arguments":
			for v := t.first(c); v >= 0; v = t.n[v].next {
				if t.g.kindName(t.n[v].kind) == "value_argument" {
					items = append(items, kotlinArgKind(x, v))
				}
			}
		case "annotated_lambda":
			items = append(items, "$l")
		}
	}
	if p := t.n[i].parent; p >= 0 && t.first(p) == i && t.g.kindName(t.n[p].kind) == "call_expression" {
		// f(x) { … }: the lambda is in the call wrapping this one.
		if n, _ := lambdas(x, p); n > 0 {
			items = append(items, "$l")
		}
	}
	return strings.Join(items, ",")
}

// kotlinArgKind is one value_argument's item: "k", or "name=k" for a
// named argument (a name, then its value: the grammar keeps no "=").
func kotlinArgKind(x *tableExtract, v int32) string {
	t := x.t
	first := t.first(v)
	if first < 0 {
		return "_"
	}
	if next := t.n[first].next; next >= 0 && t.g.kindName(t.n[first].kind) == "identifier" {
		return t.text(first) + "=" + kotlinValueKind(x, next)
	}
	return kotlinValueKind(x, first)
}

// kotlinValueKind is the kind of argument expression e: a literal's, or
// a variable's declared type's (`emitCode(receivers)` with `val
// receivers: CodeBlock` is no emitCode(String)); "_" when neither tells.
func kotlinValueKind(x *tableExtract, e int32) string {
	t := x.t
	kind, text := t.g.kindName(t.n[e].kind), t.text(e)
	k := kotlinExprKind(kind, text)
	if k != "_" || kind != "identifier" || !isIdent(text) {
		return k
	}
	ty := x.kotlinVarType(e, text, false)
	if ty == "" || strings.HasSuffix(ty, ")") || x.kotlinTypeParams(e)[ty] {
		return "_" // unknown, a call's result, a type parameter
	}
	return kotlinTypeKind(ty)
}

// kotlinArrayMakers are the standard functions that make an array
// (argument kind "a", parameter types kotlinTypeKind reads as "a").
var kotlinArrayMakers = map[string]bool{
	"arrayOf": true, "emptyArray": true, "arrayOfNulls": true, "intArrayOf": true, "longArrayOf": true,
	"shortArrayOf": true, "byteArrayOf": true, "charArrayOf": true, "booleanArrayOf": true,
	"floatArrayOf": true, "doubleArrayOf": true,
}

// kotlinCalleeName is the name a call's text starts with: `arrayOf<T>(…)`
// → arrayOf.
func kotlinCalleeName(text string) string {
	if j := strings.IndexAny(text, "<("); j > 0 {
		return strings.TrimSpace(text[:j])
	}
	return ""
}

// kotlinExprKind is the kind of an argument expression by its node kind.
func kotlinExprKind(kind, text string) string {
	switch kind {
	case "string_literal", "line_string_literal", "multi_line_string_literal":
		return "s"
	case "number_literal", "integer_literal", "long_literal", "hex_literal", "bin_literal", "unsigned_literal":
		return "i"
	case "float_literal", "real_literal":
		return "d"
	case "boolean_literal":
		return "b"
	case "identifier": // the grammar's true and false
		if text == "true" || text == "false" {
			return "b"
		}
	case "character_literal":
		return "c"
	case "lambda_literal", "annotated_lambda", "callable_reference", "anonymous_function":
		return "l"
	case "call_expression": // arrayOf(INT): an array, no List nor TypeName
		if kotlinArrayMakers[kotlinCalleeName(text)] {
			return "a"
		}
	case "prefix_expression", "unary_expression": // -1, -1.5
		if rest, ok := strings.CutPrefix(text, "-"); ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			if strings.ContainsAny(rest, ".eEfF") && !strings.HasPrefix(rest, "0x") {
				return "d"
			}
			return "i"
		}
	}
	return "_"
}

// kotlinTypedCall records `x.m(…)`, `x?.m(…)` or `this.x.m(…)` as the
// table would, with the receiver's type when x is a parameter, a local or
// a property declared with a type (`val x: Foo`) or a construction
// (`val x = Foo(…)`): m then binds Foo's m or an ancestor's, where an
// untyped receiver bound only a method of the calling file. It reports
// false, leaving the call to the table, for any other call.
func (x *tableExtract) kotlinTypedCall(i int32, s *tScope) bool {
	t := x.t
	callee := t.first(i)
	if callee < 0 || t.g.kindName(t.n[callee].kind) != "navigation_expression" {
		return false
	}
	text := strings.TrimSpace(t.text(callee))
	if len(text) > 200 || strings.ContainsAny(text, "<(!") {
		return false // generics, calls, !!: the table's reading
	}
	text = compactDots(text)
	j := strings.LastIndex(text, ".")
	if j <= 0 {
		return false
	}
	recv, name := text[:j], text[j+1:]
	if !isCallName(name) || x.l.ignoreCalls[name] {
		return false
	}
	v, member := strings.TrimSuffix(recv, "?"), false
	if rest, ok := strings.CutPrefix(v, "this."); ok {
		v, member = strings.TrimSuffix(rest, "?"), true
	}
	if !isIdent(v) || isUpperStart(v) {
		return false // Foo.m(): the table types it by its name
	}
	typ, found := x.kotlinVarLookup(i, v, member)
	if typ == "" && (found || v == "super" || v == "this" || !x.kotlinInherits(i, v)) {
		return false
	}
	h := RefHint{Receiver: trimReceiver(recv), ReceiverType: typ}
	if typ == "" {
		// Declared in no scope of this file around the call: a property
		// the class inherits, which the resolver looks up in its bases.
		h = RefHint{Receiver: "super." + v}
	} else if strings.HasSuffix(typ, ")") {
		// x holds a call's result: the resolver types the call form
		// with the callee's declared result.
		h = RefHint{Receiver: typ}
	}
	if n, ok := kotlinArgs(x, i); ok {
		h.Args = argsHint(n)
	}
	// Literal arguments tell a constructor's and a method's same-arity
	// overloads apart (resolve.byArgKinds).
	h.ArgKinds = kotlinArgKinds(x, i)
	x.b.ref(s.id, name, RelCalls, t.line(i), h)
	for c := t.first(i); c >= 0; c = t.n[c].next {
		x.walk(c, s)
	}
	return true
}

// kotlinVarType is the declared type of the variable name seen from node
// at, looked up lexically: the locals declared before at in each
// enclosing block, a lambda's or a function's parameters, the properties
// of the enclosing classes (a class parameter with val or var is one),
// the file's top-level properties. member: `this.name`, a property of the
// nearest class only. "" when unknown, when a for loop or an untyped
// lambda parameter shadows it, or when the declaring scope smart-casts it
// (`name is Bar`, `name as Bar`: its declared type would hide Bar's
// methods).
func (x *tableExtract) kotlinVarType(at int32, name string, member bool) string {
	ty, _ := x.kotlinVarLookup(at, name, member)
	return ty
}

// kotlinVarLookup is kotlinVarType, and whether any scope around node at
// declares name (found, of no known type: "", true).
func (x *tableExtract) kotlinVarLookup(at int32, name string, member bool) (string, bool) {
	t := x.t
	for child, n := at, t.n[at].parent; n >= 0; child, n = n, t.n[n].parent {
		ty, found := "", false
		switch t.g.kindName(t.n[n].kind) {
		case "class_declaration", "object_declaration", "companion_object":
			ty, found = x.kotlinMember(n, name)
			if member && !found {
				return "", false
			}
		case "class_body", "enum_class_body":
			continue // its properties: at the class
		case "function_declaration", "secondary_constructor", "lambda_literal", "for_statement", "catch_block":
			if !member {
				// A lambda's statements are its children: its locals
				// before the call, then its parameters.
				if ty, found = x.kotlinLocal(t.first(n), child, name); !found {
					ty, found = x.kotlinParam(n, name)
				}
			}
		case "source_file":
			ty, found = x.kotlinLocal(t.first(n), -1, name)
		default:
			if !member {
				ty, found = x.kotlinLocal(t.first(n), child, name)
			}
		}
		if found {
			if ty != "" && kotlinCasts(t.text(x.kotlinFunc(at, n)), name) {
				return "", true
			}
			return ty, true
		}
	}
	return "", false
}

// kotlinFunc is the innermost function around node at, or n (the scope
// that declares the variable) when n is nearer: where a smart cast of the
// variable would be written.
func (x *tableExtract) kotlinFunc(at, n int32) int32 {
	t := x.t
	for f := t.n[at].parent; f >= 0 && f != n; f = t.n[f].parent {
		if t.g.kindName(t.n[f].kind) == "function_declaration" {
			return f
		}
	}
	return n
}

// kotlinLocal looks for a property named name among the siblings from c
// up to (not including) stop (-1: all of them), the last one
// first: a later declaration shadows an earlier one.
func (x *tableExtract) kotlinLocal(c, stop int32, name string) (string, bool) {
	t := x.t
	ty, found := "", false
	for ; c >= 0 && c != stop; c = t.n[c].next {
		if t.g.kindName(t.n[c].kind) != "property_declaration" {
			continue
		}
		if got, ok := x.kotlinProperty(c, name); ok {
			ty, found = got, true
		}
	}
	return ty, found
}

// kotlinProperty reads property declaration p when it declares name: its
// type as written, else the class its initializer constructs.
func (x *tableExtract) kotlinProperty(p int32, name string) (string, bool) {
	t := x.t
	for c := t.first(p); c >= 0; c = t.n[c].next {
		if t.g.kindName(t.n[c].kind) != "variable_declaration" {
			continue
		}
		if !x.declares(c, name) {
			return "", false
		}
		if ty := x.kotlinTypeOf(c); ty != "" {
			return ty, true
		}
		return x.kotlinInitType(t.n[c].next), true
	}
	return "", false
}

// kotlinInitType types a property by its initializer e: the class a
// construction makes (`Foo(…)`), else a call's receiver form ("make()",
// "Foo.create()", "_.build()"; kotlinCallForm) that the resolver types
// with the called function's declared return type. A delegate `by lazy {
// … }` is read as its lambda's last expression. "" for anything else.
func (x *tableExtract) kotlinInitType(e int32) string {
	t := x.t
	if e >= 0 && t.g.kindName(t.n[e].kind) == "property_delegate" {
		e = x.kotlinLazyValue(t.first(e))
	}
	if ty := x.kotlinConstructs(e); ty != "" {
		return ty
	}
	return x.kotlinCallForm(e)
}

// kotlinLazyValue is the last statement of the lambda of `lazy { … }` or
// `lazy(mode) { … }` (call e): the value the delegate holds; -1 when e
// is another delegate (`by map`, `by Delegates.observable(…)`).
func (x *tableExtract) kotlinLazyValue(e int32) int32 {
	t := x.t
	if e < 0 || t.g.kindName(t.n[e].kind) != "call_expression" {
		return -1
	}
	callee := t.first(e)
	if callee >= 0 && t.g.kindName(t.n[callee].kind) == "call_expression" {
		callee = t.first(callee) // lazy(mode) { … }: the grammar wraps lazy(mode)
	}
	if callee < 0 || t.text(callee) != "lazy" {
		return -1
	}
	for c := t.first(e); c >= 0; c = t.n[c].next {
		if t.g.kindName(t.n[c].kind) != "annotated_lambda" {
			continue
		}
		lam := t.first(c)
		if lam < 0 || t.g.kindName(t.n[lam].kind) != "lambda_literal" {
			return -1
		}
		last := int32(-1)
		for st := t.first(lam); st >= 0; st = t.n[st].next {
			if k := t.g.kindName(t.n[st].kind); k != "lambda_parameters" && !t.kindIsComment(st) {
				last = st
			}
		}
		return last
	}
	return -1
}

// kotlinCallForm is call e as a call receiver the resolver types by the
// callee's declared result (ownCallResult, callResult): "make()" for a
// function of the class or the file, "Foo.create()" on a plain path,
// "_.build()" on anything else (a chain: only the last call's result
// counts, and callResult reads the name before the first parenthesis).
// A capitalised callee is a construction (kotlinConstructs) or a
// constant-like name, not typed here.
func (x *tableExtract) kotlinCallForm(e int32) string {
	t, callee := x.t, x.kotlinCallee(e)
	if callee < 0 {
		return ""
	}
	text := compactDots(strings.TrimSpace(t.text(callee)))
	if len(text) > 200 {
		return ""
	}
	switch t.g.kindName(t.n[callee].kind) {
	case "identifier":
		if isCallName(text) && !isUpperStart(text) {
			return text + "()"
		}
	case "navigation_expression":
		path, name := splitLast(text, ".")
		if !isCallName(name) || isUpperStart(name) || strings.HasSuffix(path, "?") {
			return "" // a?.f(): may be null, and so may x
		}
		if !isDotted(path) || len(path) > 60 {
			path = "_"
		}
		return path + "." + name + "()"
	}
	return ""
}

// isDotted reports whether s is a plain dotted path of identifiers.
func isDotted(s string) bool {
	for _, p := range strings.Split(s, ".") {
		if !isIdent(p) {
			return false
		}
	}
	return s != ""
}

// kotlinFunDecl lets the table define function declaration i, then
// records the type it declares it returns (Result.Returns), so that the
// resolver types `val x = make(); x.m()` and `make().m()` receivers. The
// table registers the function before walking its body, so the first
// node it adds is the function's.
func (x *tableExtract) kotlinFunDecl(i int32, s *tScope) bool {
	t := x.t
	r := code(x.tt.def, t.n[i].kind)
	if r == 0 {
		return false
	}
	n0 := len(x.b.res.Nodes)
	if !x.def(i, r-1, s) {
		return false // nothing defined: the walk goes on as without the hook
	}
	if n0 >= len(x.b.res.Nodes) {
		return true
	}
	n := x.b.res.Nodes[n0]
	if n.Type != graph.Function || n.Line != t.line(i) {
		return true
	}
	if ty := x.kotlinReturnType(i); ty != "" {
		if x.b.res.Returns == nil {
			x.b.res.Returns = map[string]TypeRef{}
		}
		x.b.res.Returns[n.ID] = TypeRef{Name: ty}
	}
	x.kotlinKinds(n.ID, kotlinParamKinds(x, i))
	return true
}

// kotlinKinds adds parameter kinds to function id's arity, where the
// table recorded it: same-arity overloads of a method (emitCode(String),
// emitCode(CodeBlock)) are then told apart by a call's literal
// arguments, as constructors are. The table copies an overload's arity
// to Result.Arity when the next overload comes, so both are set.
func (x *tableExtract) kotlinKinds(id, kinds string) {
	if a, ok := x.b.arity[id]; ok && kinds != "" {
		a.Kinds = kinds
		a = kotlinOptional(a, kinds)
		x.b.arity[id] = a
		if _, ok := x.b.res.Arity[id]; ok {
			x.b.res.Arity[id] = a
		}
	}
}

// kotlinReturnType is the class function declaration i returns: its
// declared type (after the parameters: a type before the name is an
// extension's receiver), else the class its expression body constructs
// (`fun f() = Foo()`).
func (x *tableExtract) kotlinReturnType(i int32) string {
	t := x.t
	params := false
	for c := t.first(i); c >= 0; c = t.n[c].next {
		switch t.g.kindName(t.n[c].kind) {
		case "function_value_parameters":
			params = true
		case "user_type", "nullable_type":
			if params {
				return x.kotlinTypeName(c)
			}
		case "function_body":
			if b := t.first(c); b >= 0 {
				return x.kotlinConstructs(b)
			}
		}
	}
	return ""
}

// kotlinParam looks for a parameter named name of function, constructor,
// lambda, for loop or catch clause n. A for loop's or a lambda's
// parameter without a type, and the implicit `it` of a lambda without
// parameters, hide the name: found, of no known type.
func (x *tableExtract) kotlinParam(n int32, name string) (string, bool) {
	t := x.t
	first := t.first(n)
	switch t.g.kindName(t.n[n].kind) {
	case "catch_block": // catch (e: IOException)
		if first >= 0 && t.text(first) == name {
			return x.kotlinTypeOf(n), true
		}
		return "", false
	case "for_statement": // for (x: Foo in xs)
		if first >= 0 && t.g.kindName(t.n[first].kind) == "variable_declaration" && x.declares(first, name) {
			return x.kotlinTypeOf(first), true
		}
		return "", false
	}
	params := false
	for c := first; c >= 0; c = t.n[c].next {
		switch t.g.kindName(t.n[c].kind) {
		case "function_value_parameters", "lambda_parameters":
			params = true
			for p := t.first(c); p >= 0; p = t.n[p].next {
				if x.declares(p, name) {
					return x.kotlinTypeOf(p), true
				}
			}
		}
	}
	if name == "it" && !params && t.g.kindName(t.n[n].kind) == "lambda_literal" {
		return "", true
	}
	return "", false
}

// declares reports whether declaration d (a parameter, a variable) is
// named name: its first child.
func (x *tableExtract) declares(d int32, name string) bool {
	id := x.t.first(d)
	return id >= 0 && x.t.g.kindName(x.t.n[id].kind) == "identifier" && x.t.text(id) == name
}

// kotlinMember looks for a property named name of class n: a class
// parameter declared with val or var, or a property of its body.
func (x *tableExtract) kotlinMember(n int32, name string) (string, bool) {
	t := x.t
	for c := t.first(n); c >= 0; c = t.n[c].next {
		switch t.g.kindName(t.n[c].kind) {
		case "primary_constructor":
			for ps := t.first(c); ps >= 0; ps = t.n[ps].next {
				if t.g.kindName(t.n[ps].kind) != "class_parameters" {
					continue
				}
				for p := t.first(ps); p >= 0; p = t.n[p].next {
					if x.kotlinClassParam(p, name) {
						return x.kotlinTypeOf(p), true
					}
				}
			}
		case "class_body", "enum_class_body":
			if ty, ok := x.kotlinLocal(t.first(c), -1, name); ok {
				return ty, true
			}
		}
	}
	return "", false
}

// kotlinClassParam reports whether class parameter p declares property
// name (with val or var; a bare parameter is no property).
func (x *tableExtract) kotlinClassParam(p int32, name string) bool {
	t := x.t
	if t.g.kindName(t.n[p].kind) != "class_parameter" {
		return false
	}
	for c := t.first(p); c >= 0; c = t.n[c].next {
		if t.g.kindName(t.n[c].kind) == "identifier" {
			if t.text(c) != name {
				return false
			}
			head := strings.Fields(strings.TrimSpace(string(t.bytes(p)[:t.n[c].start-t.n[p].start])))
			return len(head) > 0 && (head[len(head)-1] == "val" || head[len(head)-1] == "var")
		}
	}
	return false
}

// kotlinTypeOf is the class a declaration d's type names: `Foo`, `Foo?`,
// `a.b.Foo`, `Foo<T>` give Foo; a function type, a type parameter
// (all capitals: T, K) or no type give "".
func (x *tableExtract) kotlinTypeOf(d int32) string {
	t := x.t
	for c := t.first(d); c >= 0; c = t.n[c].next {
		switch t.g.kindName(t.n[c].kind) {
		case "user_type", "nullable_type":
			return x.kotlinTypeName(c)
		}
	}
	return ""
}

// kotlinTypeName is the class type node c (a user_type or a nullable
// one) names, as kotlinTypeOf reads it.
func (x *tableExtract) kotlinTypeName(c int32) string {
	t := x.t
	ut := c
	if t.g.kindName(t.n[c].kind) == "nullable_type" {
		ut = t.first(c)
	}
	if ut < 0 || t.g.kindName(t.n[ut].kind) != "user_type" {
		return ""
	}
	last := ""
	for id := t.first(ut); id >= 0; id = t.n[id].next {
		if t.g.kindName(t.n[id].kind) == "identifier" {
			last = t.text(id)
		}
	}
	if isUpperStart(last) && !isAllUpper(last) {
		return last
	}
	return ""
}

// kotlinCallee is the callee of call expression e, or -1 when e is no
// call.
func (x *tableExtract) kotlinCallee(e int32) int32 {
	t := x.t
	if e < 0 || t.g.kindName(t.n[e].kind) != "call_expression" {
		return -1
	}
	return t.first(e)
}

// kotlinConstructs is the class expression e constructs, `Foo(…)` or
// `a.b.Foo(…)` (a capitalised callee), or "".
func (x *tableExtract) kotlinConstructs(e int32) string {
	t, callee := x.t, x.kotlinCallee(e)
	if callee < 0 {
		return ""
	}
	switch t.g.kindName(t.n[callee].kind) {
	case "identifier", "navigation_expression":
	default:
		return ""
	}
	text := compactDots(strings.TrimSpace(t.text(callee)))
	last := lastSegment(text, ".")
	if strings.ContainsAny(text, "(<!?") || !isUpperStart(last) || isAllUpper(last) {
		return ""
	}
	return last
}

// kotlinCasts reports whether scope text smart-casts name (`name is
// Bar`, `name as Bar`, `when (name) { is Bar -> … }`).
func kotlinCasts(text, name string) bool {
	return strings.Contains(text, name+" is ") || strings.Contains(text, name+" !is ") ||
		strings.Contains(text, name+" as ") || strings.Contains(text, "when ("+name+")")
}

// kotlinInherits reports whether name, which no scope of the file
// around node at declares, may be a property the enclosing class
// inherits: the call sits in a class that names a base, and its
// function does not smart-cast name (`name is Bar`).
func (x *tableExtract) kotlinInherits(at int32, name string) bool {
	t := x.t
	for n := t.n[at].parent; n >= 0; n = t.n[n].parent {
		switch t.g.kindName(t.n[n].kind) {
		case "class_declaration", "object_declaration", "companion_object":
			return x.kotlinHasBase(n) && !kotlinCasts(t.text(x.kotlinFunc(at, n)), name)
		}
	}
	return false
}

// kotlinHasBase reports whether class declaration n names a supertype.
func (x *tableExtract) kotlinHasBase(n int32) bool {
	t := x.t
	for c := t.first(n); c >= 0; c = t.n[c].next {
		if k := t.g.kindName(t.n[c].kind); k == "delegation_specifiers" || k == "delegation_specifier" {
			return true
		}
	}
	return false
}

// kotlinField records property declaration p of class scope s with its
// type as written or the class its initializer constructs
// (Result.Fields "Class.name"): a subclass's `name.m()` is typed by it
// in the resolver (extract: Receiver "super.name").
func (x *tableExtract) kotlinField(p int32, s *tScope) {
	t := x.t
	for c := t.first(p); c >= 0; c = t.n[c].next {
		if t.g.kindName(t.n[c].kind) != "variable_declaration" {
			continue
		}
		id := t.first(c)
		if id < 0 || t.g.kindName(t.n[id].kind) != "identifier" {
			return
		}
		ty := x.kotlinTypeOf(c)
		if ty == "" {
			ty = x.kotlinConstructs(t.n[c].next)
		}
		x.kotlinAddField(s.name, t.text(id), ty)
		return
	}
}

// kotlinParamFields records the properties primary constructor i
// declares (`class X(val a: Foo)`), as kotlinField.
func (x *tableExtract) kotlinParamFields(i int32, s *tScope) {
	t := x.t
	for ps := t.first(i); ps >= 0; ps = t.n[ps].next {
		if t.g.kindName(t.n[ps].kind) != "class_parameters" {
			continue
		}
		for p := t.first(ps); p >= 0; p = t.n[p].next {
			id := t.first(p)
			for id >= 0 && t.g.kindName(t.n[id].kind) != "identifier" {
				id = t.n[id].next // modifiers first
			}
			if id >= 0 && x.kotlinClassParam(p, t.text(id)) {
				x.kotlinAddField(s.name, t.text(id), x.kotlinTypeOf(p))
			}
		}
	}
}

// kotlinAddField sets Result.Fields[class.name] when the type is known.
func (x *tableExtract) kotlinAddField(class, name, ty string) {
	if ty == "" || class == "" {
		return
	}
	if x.b.res.Fields == nil {
		x.b.res.Fields = map[string]TypeRef{}
	}
	x.b.res.Fields[class+"."+name] = TypeRef{Name: ty}
}
