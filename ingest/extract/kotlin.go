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
		return x.chainedCall(i, s)
	}
	if !s.classLike {
		return false
	}
	switch kind {
	case "primary_constructor":
		x.kotlinCtor(i, s, "")
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
			item := name + ":" + kotlinTypeKind(ty)
			switch {
			case vararg || strings.Contains(t.text(p), "vararg "):
				item += "*" // may take no argument
			case dflt:
				item += "?" // has a default
			}
			items = append(items, item)
			vararg = false
		}
	}
	return strings.Join(items, ",")
}

// kotlinTypeKind is the one kind of literal a parameter type takes
// ("s", "i", "d", "b", "c", "l" for a function type), "_" for a type a
// value of any kind may be (Any, a class, a type parameter). Kotlin
// converts no number literal to another kind (1 is no Double).
func kotlinTypeKind(ty string) string {
	ty = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(ty), "?"))
	if strings.HasPrefix(ty, "(") || strings.HasPrefix(ty, "suspend") || strings.Contains(ty, "->") {
		return "l"
	}
	if j := strings.IndexByte(ty, '<'); j >= 0 {
		ty = ty[:j]
	}
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
	}
	return "_"
}

// kotlinArgKinds tells what the arguments of call_expression i evidently
// are (RefHint.ArgKinds): literals, lambdas, named arguments and a
// trailing lambda; "" when none is evident.
func kotlinArgKinds(x *tableExtract, i int32) string {
	t := x.t
	var items []string
	evident := false
	for c := t.first(i); c >= 0; c = t.n[c].next {
		switch t.g.kindName(t.n[c].kind) {
		case "value_arguments":
			for v := t.first(c); v >= 0; v = t.n[v].next {
				if t.g.kindName(t.n[v].kind) != "value_argument" {
					continue
				}
				item := kotlinArgKind(x, v)
				evident = evident || item != "_"
				items = append(items, item)
			}
		case "annotated_lambda":
			items, evident = append(items, "$l"), true
		}
	}
	if p := t.n[i].parent; p >= 0 && t.first(p) == i && t.g.kindName(t.n[p].kind) == "call_expression" {
		// f(x) { … }: the lambda is in the call wrapping this one.
		if n, _ := lambdas(x, p); n > 0 {
			items, evident = append(items, "$l"), true
		}
	}
	if !evident {
		return ""
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
		return t.text(first) + "=" + kotlinExprKind(t.g.kindName(t.n[next].kind), t.text(next))
	}
	return kotlinExprKind(t.g.kindName(t.n[first].kind), t.text(first))
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
