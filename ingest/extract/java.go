package extract

import (
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
)

var javaGrammar = newGrammar("java", tsjava.Language)

const (
	jvNone uint8 = iota
	jvProgram
	jvPackage
	jvImport
	jvClass
	jvInterface
	jvEnum
	jvRecord
	jvAnnotationType
	jvMethod
	jvConstructor
	jvCompactConstructor
	jvField
	jvLocalVar
	jvDeclarator
	jvInvocation
	jvNew
	jvSuperclass
	jvSuperInterfaces
	jvExtendsInterfaces
	jvTypeList
	jvModifiers
	jvMarkerAnnotation
	jvAnnotation
	jvFormalParams
	jvFormalParam
	jvSpreadParam
	jvGenericType
	jvScopedTypeIdent
	jvTypeIdent
	jvIdent
	jvScopedIdent
	jvFieldAccess
	jvThis
	jvSuper
	jvExplicitCtor
	jvClassBody
	jvInterfaceBody
	jvEnumBody
	jvEnumBodyDecls
	jvAsterisk
	jvBlockComment
	jvLineComment
	jvConstantDecl
	jvArrayType
	jvAnnotationTypeBody
	jvEnumConstant
	jvEnhancedFor
	jvResource
	jvCatchParam
	jvCatchType
	jvMethodRef
	jvLambda
)

var jvKindNames = []string{
	"program", "package_declaration", "import_declaration", "class_declaration",
	"interface_declaration", "enum_declaration", "record_declaration",
	"annotation_type_declaration", "method_declaration", "constructor_declaration",
	"compact_constructor_declaration", "field_declaration", "local_variable_declaration",
	"variable_declarator", "method_invocation", "object_creation_expression", "superclass",
	"super_interfaces", "extends_interfaces", "type_list", "modifiers", "marker_annotation",
	"annotation", "formal_parameters", "formal_parameter", "spread_parameter", "generic_type",
	"scoped_type_identifier", "type_identifier", "identifier", "scoped_identifier", "field_access",
	"this", "super", "explicit_constructor_invocation", "class_body", "interface_body",
	"enum_body", "enum_body_declarations", "asterisk", "block_comment", "line_comment",
	"constant_declaration", "array_type", "annotation_type_body", "enum_constant",
	"enhanced_for_statement", "resource", "catch_formal_parameter", "catch_type",
	"method_reference", "lambda_expression",
}

type jvTables struct {
	codes                                                 []uint8
	fName, fBody, fParams, fType, fDeclarator, fValue     uint16
	fObject, fArgs, fField, fInterfaces, fSuperclass      uint16
	fConstructor, fElement, fScope, fTypeArgs, fArguments uint16
	fDimensions                                           uint16
}

// jvTablesGet builds the grammar's kind and field tables on first use.
var jvTablesGet = sync.OnceValue(func() *jvTables {
	g := javaGrammar
	return &jvTables{
		codes: g.codes(jvKindNames...),
		fName: g.field("name"), fBody: g.field("body"), fParams: g.field("parameters"),
		fType: g.field("type"), fDeclarator: g.field("declarator"), fValue: g.field("value"),
		fObject: g.field("object"), fArgs: g.field("arguments"), fField: g.field("field"),
		fInterfaces: g.field("interfaces"), fSuperclass: g.field("superclass"),
		fConstructor: g.field("constructor"), fElement: g.field("element"), fScope: g.field("scope"),
		fTypeArgs: g.field("type_arguments"), fArguments: g.field("arguments"),
		fDimensions: g.field("dimensions"),
	}
})

type javaExtractor struct{}

func (javaExtractor) Language() string     { return "java" }
func (javaExtractor) Extensions() []string { return []string{".java"} }

type jvClassInfo struct {
	name  string
	id    string
	super string
	attrs map[string]string
	// kinds are the argument kinds of the fields by their declared
	// types (javaTypeKind), String and primitives included.
	kinds map[string]string
	outer *jvClassInfo
	// anon: an anonymous class's body, where this is no name's instance.
	anon bool
}

type jvScope struct {
	id    string
	class *jvClassInfo
	vars  map[string]string
	// kinds are the argument kinds (RefHint.ArgKinds) of the method's
	// parameters and locals by their declared types, String and
	// primitives included, which vars leaves out.
	kinds map[string]string
}

// setKind records the kind of a parameter or local declared with type
// text ty; one declared var or untyped (a lambda's) is "_", which still
// hides a field of that name.
func (s *jvScope) setKind(name, ty string) {
	s.setKindTo(name, javaTypeKind(ty))
}

// setKindTo records that name holds a value of kind k.
func (s *jvScope) setKindTo(name, k string) {
	if name == "" {
		return
	}
	if s.kinds == nil {
		s.kinds = map[string]string{}
	}
	s.kinds[name] = k
}

type jvExtract struct {
	t       *tree
	k       *jvTables
	b       *builder
	imports map[string]binding // simple name → import
	isTest  bool
	// wildcard: the file imports a package's every class (import a.b.*).
	wildcard bool
}

func (javaExtractor) Extract(relPath string, src []byte) (*Result, error) {
	t, err := javaGrammar.parse(src)
	if err != nil {
		return tooLargeOr(relPath, "java", src, err)
	}
	defer t.release()
	base := path.Base(relPath)
	stem := strings.TrimSuffix(base, ".java")
	x := &jvExtract{
		t: t, k: jvTablesGet(), b: newTreeBuilder(relPath, "java", t), imports: map[string]binding{},
		isTest: strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests") ||
			strings.HasPrefix(stem, "Test") || strings.HasSuffix(stem, "IT"),
	}
	tags := []string{"java"}
	if x.isTest {
		tags = append(tags, KindTest)
	}
	x.b.file(countLines(src), x.leadingDoc(), markGenerated(src, tags)...)
	if len(t.n) > 0 {
		s := &jvScope{id: x.b.fileID, vars: map[string]string{}}
		for c := t.first(0); c >= 0; c = t.n[c].next {
			x.top(c, s)
		}
	}
	return x.b.finish(t.errors), nil
}

func (x *jvExtract) code(i int32) uint8 {
	if i < 0 {
		return jvNone
	}
	return code(x.k.codes, x.t.n[i].kind)
}

// leadingDoc returns the first line of the first block comment of the file
// when it is a doc comment or precedes the package declaration.
func (x *jvExtract) leadingDoc() string {
	t := x.t
	if c := t.first(0); c >= 0 && (x.code(c) == jvBlockComment || x.code(c) == jvLineComment) {
		d := docLine(t.text(c))
		if !strings.HasPrefix(strings.ToLower(d), "copyright") && !strings.Contains(strings.ToLower(d), "license") {
			return d
		}
	}
	return ""
}

func (x *jvExtract) top(c int32, s *jvScope) {
	t := x.t
	switch x.code(c) {
	case jvPackage:
		for n := t.first(c); n >= 0; n = t.n[n].next {
			if code := x.code(n); code == jvScopedIdent || code == jvIdent {
				x.b.res.Package = compactDots(t.text(n))
			}
		}
	case jvImport:
		x.importDecl(c)
	default:
		x.member(c, s)
	}
}

func (x *jvExtract) importDecl(i int32) {
	t := x.t
	text := strings.TrimSpace(t.text(i))
	text = strings.TrimPrefix(text, "import")
	text = strings.TrimSuffix(strings.TrimSpace(text), ";")
	text = strings.TrimSpace(text)
	static := false
	if rest, ok := strings.CutPrefix(text, "static"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n') {
		static = true
		text = strings.TrimSpace(rest)
	}
	text = compactDots(text)
	if text == "" {
		return
	}
	line := t.line(i)
	mod, name := splitLast(text, ".")
	im := Import{Module: mod, Names: []string{name}, Line: line}
	if static {
		im.Alias = "static"
	}
	x.b.imp(im)
	if name == "*" {
		x.wildcard = x.wildcard || !static
		_, pkg := splitLast(mod, ".")
		x.b.ref(x.b.fileID, pkg, RelImports, line, RefHint{Module: mod})
		return
	}
	x.imports[name] = binding{module: mod, name: name}
	x.b.ref(x.b.fileID, name, RelImports, line, RefHint{Module: mod})
}

// member handles a declaration inside a class body (or at top level).
func (x *jvExtract) member(c int32, s *jvScope) {
	switch x.code(c) {
	case jvClass, jvInterface, jvEnum, jvRecord, jvAnnotationType:
		x.typeDecl(c, s)
	case jvMethod, jvConstructor, jvCompactConstructor:
		x.method(c, s)
	case jvField, jvConstantDecl:
		x.field(c, s)
	default:
		x.body(c, s)
	}
}

// modifierInfo is what the modifiers node says about a declaration.
type modifierInfo struct {
	vis      string
	static   bool
	abstract bool
	test     bool
	tags     []string
	annots   []int32 // annotations that become decorated_by edges
}

func (x *jvExtract) modifiers(decl int32, defaultVis string) modifierInfo {
	t := x.t
	mi := modifierInfo{vis: defaultVis}
	m := t.childKind(decl, x.k.codes, jvModifiers)
	if m < 0 {
		return mi
	}
	for a := t.first(m); a >= 0; a = t.n[a].next {
		switch x.code(a) {
		case jvMarkerAnnotation, jvAnnotation:
			name := compactDots(t.text(t.child(a, x.k.fName)))
			_, simple := splitLast(name, ".")
			switch simple {
			case "Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate", "Property":
				mi.test = true
			case "Override":
				mi.tags = append(mi.tags, "override")
				continue
			case "Deprecated":
				mi.tags = append(mi.tags, "deprecated")
				continue
			case "SuppressWarnings", "FunctionalInterface", "SafeVarargs":
				continue
			}
			mi.annots = append(mi.annots, a)
		}
	}
	// Keywords are anonymous tokens inside the modifiers node: read them
	// from its text.
	for _, w := range strings.Fields(string(t.bytes(m))) {
		switch w {
		case "public":
			mi.vis = VisPublic
		case "private":
			mi.vis = VisPrivate
		case "protected":
			mi.vis = VisProtect
		case "static":
			mi.static = true
			mi.tags = append(mi.tags, "static")
		case "abstract":
			mi.abstract = true
			mi.tags = append(mi.tags, "abstract")
		case "final", "synchronized", "default", "sealed":
			mi.tags = append(mi.tags, w)
		}
	}
	return mi
}

func (x *jvExtract) annotations(id string, mi modifierInfo) {
	t := x.t
	for _, a := range mi.annots {
		name := compactDots(t.text(t.child(a, x.k.fName)))
		mod, simple := splitLast(name, ".")
		h := RefHint{Module: mod}
		if b, ok := x.imports[simple]; ok && mod == "" {
			h.Module = b.module
		}
		x.b.ref(id, simple, RelDecoratedBy, t.line(a), h)
	}
}

func (x *jvExtract) typeDecl(c int32, s *jvScope) {
	t, k := x.t, x.k
	name := t.text(t.child(c, k.fName))
	if name == "" {
		return
	}
	defVis := VisPackage
	if s.class != nil && x.code(c) == jvInterface {
		defVis = VisPublic
	}
	mi := x.modifiers(c, defVis)
	typ, kind := graph.Class, KindClass
	var extra []string
	switch x.code(c) {
	case jvInterface:
		typ, kind = graph.Type, KindInterface
	case jvAnnotationType:
		typ, kind = graph.Type, KindInterface
		extra = append(extra, "annotation")
	case jvEnum:
		typ, kind = graph.Enum, KindEnum
	case jvRecord:
		extra = append(extra, "record")
	}
	tags := append([]string{"java", kind, mi.vis}, mi.tags...)
	tags = append(tags, extra...)
	if x.isTest && s.class == nil && (strings.HasSuffix(name, "Test") || strings.HasSuffix(name, "Tests") || strings.HasPrefix(name, "Test")) {
		tags = append(tags, KindTest)
	}
	id, _ := x.b.entity(s.id, name, typ, t.line(c), t.endLine(c), sigExcerpt(t.bytes(c)), tags...)
	x.annotations(id, mi)
	ci := &jvClassInfo{name: name, id: id, attrs: map[string]string{}, kinds: map[string]string{}, outer: s.class}
	if sc := t.child(c, k.fSuperclass); sc >= 0 {
		for ty := t.first(sc); ty >= 0; ty = t.n[ty].next {
			if n := x.typeName(ty); n != "" {
				ci.super = n
				x.b.ref(id, n, RelInherits, t.line(ty), x.typeHint(ty))
				x.typeArgRefs(id, ty)
			}
		}
	}
	for h := t.first(c); h >= 0; h = t.n[h].next {
		rel := ""
		switch x.code(h) {
		case jvSuperInterfaces:
			rel = RelImplements
			if x.code(c) == jvInterface {
				rel = RelInherits
			}
		case jvExtendsInterfaces:
			rel = RelInherits
		default:
			continue
		}
		tl := t.childKind(h, k.codes, jvTypeList)
		for ty := t.first(tl); tl >= 0 && ty >= 0; ty = t.n[ty].next {
			if n := x.typeName(ty); n != "" {
				x.b.ref(id, n, rel, t.line(ty), x.typeHint(ty))
				x.typeArgRefs(id, ty)
			}
		}
	}
	cs := &jvScope{id: id, class: ci, vars: map[string]string{}}
	if x.code(c) == jvRecord {
		// Record components are fields and constructor parameters.
		if pl := t.child(c, k.fParams); pl >= 0 {
			x.params(pl, cs, id)
			for v, ty := range cs.vars {
				ci.attrs[v] = ty
			}
			for v, k := range cs.kinds {
				ci.kinds[v] = k
			}
		}
	}
	body := t.child(c, k.fBody)
	if body < 0 {
		return
	}
	// Fields first, so this.field receivers are typed in every method
	// whatever the declaration order.
	for m := t.first(body); m >= 0; m = t.n[m].next {
		if x.code(m) == jvField {
			x.fieldTypes(m, ci)
		}
	}
	for m := t.first(body); m >= 0; m = t.n[m].next {
		switch x.code(m) {
		case jvEnumBodyDecls:
			for d := t.first(m); d >= 0; d = t.n[d].next {
				if x.code(d) == jvField {
					x.fieldTypes(d, ci)
				}
			}
			for d := t.first(m); d >= 0; d = t.n[d].next {
				x.member(d, cs)
			}
		case jvEnumConstant:
			if args := t.child(m, k.fArguments); args >= 0 {
				x.body(args, cs)
			}
		default:
			x.member(m, cs)
		}
	}
}

// fieldTypes records the declared type of each field of a class, and
// its kind.
func (x *jvExtract) fieldTypes(f int32, ci *jvClassInfo) {
	t, k := x.t, x.k
	ty := t.child(f, k.fType)
	tn, kind := x.typeName(ty), javaTypeKind(t.text(ty))
	for d := t.first(f); d >= 0; d = t.n[d].next {
		if x.code(d) != jvDeclarator {
			continue
		}
		name := t.text(t.child(d, k.fName))
		ci.kinds[name] = x.declKind(kind, d)
		if tn != "" {
			ci.attrs[name] = tn
		}
	}
}

func (x *jvExtract) method(c int32, s *jvScope) {
	t, k := x.t, x.k
	name := t.text(t.child(c, k.fName))
	if name == "" {
		return
	}
	defVis := VisPackage
	if s.class != nil && x.isInterfaceID(s) {
		defVis = VisPublic
	}
	mi := x.modifiers(c, defVis)
	tags := append([]string{"java", KindMethod, mi.vis}, mi.tags...)
	if x.code(c) != jvMethod {
		tags = append(tags, "constructor")
	}
	if t.child(c, k.fBody) < 0 && x.code(c) == jvMethod && !slices.Contains(tags, "abstract") {
		tags = append(tags, "abstract")
	}
	if mi.test || (x.isTest && strings.HasPrefix(name, "test") && mi.vis == VisPublic) {
		tags = append(tags, KindTest)
		if s.class != nil {
			x.b.tag(s.class.id, KindTest)
		}
	}
	pl := t.child(c, k.fParams)
	sig, qsig, ar := x.signature(pl)
	ar.Kinds = x.paramKinds(pl)
	id, _ := x.b.entityAt(x.b.distinctID(s.id, name, sig, qsig), s.id, name, graph.Function, t.line(c), t.endLine(c), sigExcerpt(t.bytes(c)), tags...)
	x.b.overloadArity(s.id, name, id, ar)
	// Every method's arity, not an overload's only: a call whose count
	// no declaration of its name accepts is another's (a library's).
	if x.b.res.Arity == nil {
		x.b.res.Arity = map[string]Arity{}
	}
	x.b.res.Arity[id] = ar
	x.annotations(id, mi)
	ms := &jvScope{id: id, class: s.class, vars: map[string]string{}}
	if pl >= 0 {
		x.params(pl, ms, id)
	}
	if rt := t.child(c, k.fType); rt >= 0 {
		x.typeRefs(id, rt)
		x.returns(id, rt)
	}
	if body := t.child(c, k.fBody); body >= 0 {
		x.body(body, ms)
	}
}

// returns records the class a method returns, so that the resolver can
// type a call's receiver when it is a call: getTestClass().getName(). A
// type written without an import is of the file's own package, unless a
// wildcard import may have brought it (then its package is left open).
func (x *jvExtract) returns(id string, rt int32) {
	tn := x.typeName(rt)
	if tn == "" || isTypeParamName(tn) {
		return
	}
	mod := x.typeHint(rt).Module
	if mod == "" && !x.wildcard {
		mod = x.b.res.Package
	}
	if x.b.res.Returns == nil {
		x.b.res.Returns = map[string]TypeRef{}
	}
	x.b.res.Returns[id] = TypeRef{Name: tn, Module: mod}
}

// signature is the parameter types of a formal parameter list, for an
// overload's ID, with simple and with qualified type names, and its arity.
func (x *jvExtract) signature(pl int32) (sig, qsig string, a Arity) {
	t, k := x.t, x.k
	var types []int32
	for p := t.first(pl); pl >= 0 && p >= 0; p = t.n[p].next {
		switch x.code(p) {
		case jvFormalParam:
			types = append(types, t.child(p, k.fType))
		case jvSpreadParam:
			for c := t.first(p); c >= 0; c = t.n[c].next {
				if code := x.code(c); code != jvModifiers && code != jvDeclarator {
					types = append(types, c)
					a.Variadic = true
					break
				}
			}
		}
	}
	short, long := make([]string, len(types)), make([]string, len(types))
	for i, ty := range types {
		short[i], long[i] = sigType(t.text(ty)), sigTypeQ(t.text(ty), true)
	}
	if a.Variadic {
		short[len(types)-1] += "..."
		long[len(types)-1] += "..."
	}
	a.Params = uint8(min(len(types), 255))
	return joinSig(short), joinSig(long), a
}

// isInterfaceID reports whether the enclosing type is an interface (its
// members are public by default).
func (x *jvExtract) isInterfaceID(s *jvScope) bool {
	if i, ok := x.b.nodes[s.class.id]; ok {
		return slices.Contains(x.b.res.Nodes[i].Tags, KindInterface)
	}
	return false
}

func (x *jvExtract) params(pl int32, s *jvScope, src string) {
	t, k := x.t, x.k
	for p := t.first(pl); p >= 0; p = t.n[p].next {
		switch x.code(p) {
		case jvFormalParam:
			ty := t.child(p, k.fType)
			x.typeRefs(src, ty)
			if tn := x.typeName(ty); tn != "" {
				s.vars[t.text(t.child(p, k.fName))] = tn
			}
			s.setKind(t.text(t.child(p, k.fName)), t.text(ty))
		case jvSpreadParam:
			for c := t.first(p); c >= 0; c = t.n[c].next {
				if code := x.code(c); code == jvTypeIdent || code == jvGenericType || code == jvScopedTypeIdent {
					x.typeRefs(src, c)
				}
			}
			s.setKindTo(x.spreadName(p), "a")
		}
	}
}

// spreadName is the name a varargs parameter declares.
func (x *jvExtract) spreadName(p int32) string {
	for c := x.t.first(p); c >= 0; c = x.t.n[c].next {
		if x.code(c) == jvDeclarator {
			return x.t.text(x.t.child(c, x.k.fName))
		}
	}
	return ""
}

func (x *jvExtract) field(c int32, s *jvScope) {
	t, k := x.t, x.k
	src := s.id
	ty := t.child(c, k.fType)
	mi := x.modifiers(c, VisPackage)
	// static final fields are constants: give them nodes.
	if (mi.static && slices.Contains(mi.tags, "final")) || x.code(c) == jvConstantDecl {
		for d := t.first(c); d >= 0; d = t.n[d].next {
			if x.code(d) != jvDeclarator {
				continue
			}
			name := t.text(t.child(d, k.fName))
			if name == "" {
				continue
			}
			id, _ := x.b.entity(s.id, name, graph.Reference, t.line(c), t.endLine(c), sigExcerpt(t.bytes(c)),
				"java", KindConstant, mi.vis)
			if v := t.child(d, k.fValue); v >= 0 {
				x.body(v, &jvScope{id: id, class: s.class, vars: map[string]string{}})
			}
		}
		x.typeRefs(src, ty)
		return
	}
	x.typeRefs(src, ty)
	x.annotations(src, mi)
	for d := t.first(c); d >= 0; d = t.n[d].next {
		if x.code(d) == jvDeclarator {
			if v := t.child(d, k.fValue); v >= 0 {
				x.body(v, s)
			}
		}
	}
}

// typeName returns the simple name of a class type: Foo for Foo,
// a.b.Foo, Foo<Bar>, Foo[]; "" for primitives and java.lang basics.
func (x *jvExtract) typeName(ty int32) string {
	t, k := x.t, x.k
	for depth := 0; ty >= 0 && depth < 8; depth++ {
		switch x.code(ty) {
		case jvTypeIdent:
			n := t.text(ty)
			if jvLangTypes[n] || n == "var" {
				return ""
			}
			return n
		case jvGenericType:
			ty = t.first(ty)
		case jvScopedTypeIdent:
			ty = t.lastChild(ty)
		case jvArrayType:
			ty = t.child(ty, k.fElement)
		default:
			return ""
		}
	}
	return ""
}

// typeHint returns the Module hint of a type: its import, or the qualifier
// written in place (a.b.Foo → a.b).
func (x *jvExtract) typeHint(ty int32) RefHint {
	t := x.t
	if x.code(ty) == jvGenericType {
		ty = t.first(ty)
	}
	if x.code(ty) == jvScopedTypeIdent {
		mod, _ := splitLast(compactDots(t.text(ty)), ".")
		return RefHint{Module: mod}
	}
	if b, ok := x.imports[t.text(ty)]; ok {
		return RefHint{Module: b.module}
	}
	return RefHint{}
}

// typeArgRefs adds references for the type arguments of a generic base.
func (x *jvExtract) typeArgRefs(src string, ty int32) {
	if x.code(ty) != jvGenericType {
		return
	}
	for c := x.t.first(ty); c >= 0; c = x.t.n[c].next {
		if x.t.n[c].field == x.k.fTypeArgs || x.code(c) != jvTypeIdent {
			x.typeRefs(src, c)
		}
	}
}

// typeRefs adds references edges to every class type under ty.
func (x *jvExtract) typeRefs(src string, ty int32) {
	t := x.t
	t.typeNames(ty, x.k.codes, jvTypeIdent, jvScopedTypeIdent, func(j int32) {
		if name := t.text(j); !jvLangTypes[name] && name != "var" && !isTypeParamName(name) {
			x.b.ref(src, name, RelReferences, t.line(j), x.typeHint(j))
		}
	}, func(j int32) {
		_, name := splitLast(compactDots(t.text(j)), ".")
		if name = typeHead(name); name != "" && !jvLangTypes[name] {
			x.b.ref(src, name, RelReferences, t.line(j), x.typeHint(j))
		}
	})
}

// body walks statements and expressions for calls, creations, typed locals
// and local/anonymous classes.
func (x *jvExtract) body(i int32, s *jvScope) {
	t, k := x.t, x.k
	switch x.code(i) {
	case jvInvocation:
		x.invocation(i, s)
		return
	case jvNew:
		x.creation(i, s)
		return
	case jvLocalVar:
		ty := t.child(i, k.fType)
		tn := x.typeName(ty)
		x.typeRefs(s.id, ty)
		for d := t.first(i); d >= 0; d = t.n[d].next {
			if x.code(d) != jvDeclarator {
				continue
			}
			name := t.text(t.child(d, k.fName))
			v := t.child(d, k.fValue)
			kind := x.declKind(javaTypeKind(t.text(ty)), d)
			if t.text(ty) == "var" && v >= 0 {
				kind = x.argKind(v, s) // var x = new Foo()
			}
			s.setKindTo(name, kind)
			switch {
			case tn != "":
				s.vars[name] = tn
			case x.code(v) == jvNew:
				s.vars[name] = x.typeName(t.child(v, k.fType))
			}
			if v >= 0 {
				x.body(v, s)
			}
		}
		return
	case jvEnhancedFor, jvResource:
		// for (T v : xs) and try (T v = …) declare a typed local as a
		// local variable declaration does; calls on v are calls on a T.
		ty := t.child(i, k.fType)
		x.typeRefs(s.id, ty)
		if tn := x.typeName(ty); tn != "" {
			s.vars[t.text(t.child(i, k.fName))] = tn
		}
		s.setKind(t.text(t.child(i, k.fName)), t.text(ty))
	case jvLambda:
		x.lambdaParams(i, s)
	case jvCatchParam:
		// catch (T e) types e; catch (A | B e) names two types and types
		// nothing, since the calls on e may be either's.
		var types []int32
		for c := t.first(i); c >= 0; c = t.n[c].next {
			if x.code(c) != jvCatchType {
				continue
			}
			for ty := t.first(c); ty >= 0; ty = t.n[ty].next {
				x.typeRefs(s.id, ty)
				types = append(types, ty)
			}
		}
		kind := ""
		if len(types) == 1 {
			if tn := x.typeName(types[0]); tn != "" {
				s.vars[t.text(t.child(i, k.fName))] = tn
			}
			kind = t.text(types[0])
		}
		s.setKind(t.text(t.child(i, k.fName)), kind)
		return
	case jvClass, jvInterface, jvEnum, jvRecord:
		x.typeDecl(i, s)
		return
	case jvExplicitCtor:
		ctor := t.child(i, k.fConstructor)
		switch {
		case ctor < 0 || s.class == nil:
		case x.code(ctor) == jvSuper && s.class.super != "":
			// super(…): the base's constructor, by its arguments.
			h := RefHint{ReceiverType: s.class.super}
			if args := t.child(i, k.fArgs); args >= 0 {
				h.Args, h.ArgKinds = argsHint(countArgs(t, args)), x.argKinds(args, s)
			}
			x.b.ref(s.id, s.class.super, RelCalls, t.line(i), h)
		case x.code(ctor) == jvThis:
			// this(…): another constructor of the class, by its arguments.
			h := RefHint{ReceiverType: s.class.name}
			if args := t.child(i, k.fArgs); args >= 0 {
				h.Args, h.ArgKinds = argsHint(countArgs(t, args)), x.argKinds(args, s)
			}
			x.b.ref(s.id, s.class.name, RelCalls, t.line(i), h)
		}
	case jvMethodRef:
		x.methodRef(i, s)
	}
	for c := t.first(i); c >= 0; c = t.n[c].next {
		x.body(c, s)
	}
}

func (x *jvExtract) invocation(i int32, s *jvScope) {
	t, k := x.t, x.k
	name := t.text(t.child(i, k.fName))
	obj := t.child(i, k.fObject)
	line := t.line(i)
	h := RefHint{}
	if obj < 0 {
		// Unqualified: a method of this class (or an outer one), or a
		// static import.
		if b, ok := x.imports[name]; ok {
			h.Module = b.module
		} else if s.class != nil {
			h.ReceiverType = s.class.name
		}
	} else {
		recv := compactDots(t.text(obj))
		h.Receiver = trimReceiver(recv)
		switch x.code(obj) {
		case jvThis, jvSuper:
			h.ReceiverType = x.selfType(obj, s)
		case jvIdent:
			h.ReceiverType = x.varType(recv, s)
			if h.ReceiverType == "" && isUpperStart(recv) && !isAllUpper(recv) {
				h.ReceiverType = recv // static call Foo.bar()
			}
		case jvNew:
			// new Foo(…).bar(): the receiver is a Foo.
			h.ReceiverType = x.typeName(t.child(obj, k.fType))
			x.body(obj, s)
		case jvFieldAccess:
			if o := t.child(obj, k.fObject); x.code(o) == jvThis && s.class != nil {
				h.ReceiverType = s.class.attrs[t.text(t.child(obj, k.fField))]
			} else if mod, cls := splitLast(recv, "."); isUpperStart(cls) && !strings.ContainsAny(recv, "()") && strings.ToLower(mod) == mod {
				// a.b.Foo.bar(): fully qualified static call.
				h.ReceiverType, h.Module = cls, mod
			}
			x.body(obj, s)
		default:
			x.body(obj, s)
		}
		if h.Module == "" && h.ReceiverType != "" {
			if b, ok := x.imports[h.ReceiverType]; ok {
				h.Module = b.module
			}
		}
	}
	args := t.child(i, k.fArgs)
	h.Args = argsHint(countArgs(t, args))
	h.ArgKinds = x.argKinds(args, s)
	x.b.ref(s.id, name, RelCalls, line, h)
	if args >= 0 {
		x.body(args, s)
	}
}

// varType types a receiver: a local or parameter, then a field of the
// enclosing classes.
func (x *jvExtract) varType(name string, s *jvScope) string {
	if ty, ok := s.vars[name]; ok {
		return ty
	}
	for c := s.class; c != nil; c = c.outer {
		if ty, ok := c.attrs[name]; ok {
			return ty
		}
	}
	return ""
}

// selfType is the class this (or super, node c) names in scope s; "" out
// of a class.
func (x *jvExtract) selfType(c int32, s *jvScope) string {
	switch {
	case s.class == nil:
		return ""
	case x.code(c) == jvSuper:
		return s.class.super
	}
	return s.class.name
}

// methodRef records a method reference — Foo::bar, this::bar, x::bar,
// Foo::new — as a call: passing a method on is using it (javapoet's
// CodeBlock.joining hands CodeBlockJoiner::add, ::merge and ::join to a
// Collector, their only callers). Its arity is not known: every overload
// stays.
func (x *jvExtract) methodRef(i int32, s *jvScope) {
	t := x.t
	recv, name := t.first(i), int32(-1)
	for c := recv; c >= 0; c = t.n[c].next {
		if c != recv && x.code(c) == jvIdent {
			name = c
		}
	}
	if recv < 0 {
		return
	}
	r := compactDots(t.text(recv))
	typ := x.typeName(recv)
	if _, last := splitLast(r, "."); typ == "" && isUpperStart(last) && !isAllUpper(last) {
		typ = last // Foo::bar, Map.Entry::getKey: a type's method
	}
	if name < 0 { // Foo::new
		if typ != "" {
			x.b.ref(s.id, typ, RelCalls, t.line(i), RefHint{ReceiverType: typ})
		}
		return
	}
	h := RefHint{}
	switch x.code(recv) {
	case jvThis, jvSuper:
		h.ReceiverType = x.selfType(recv, s)
	case jvIdent:
		h.Receiver, h.ReceiverType = trimReceiver(r), x.varType(r, s)
		if h.ReceiverType == "" && typ != "" {
			h.Receiver, h.ReceiverType = "", typ
		}
	default:
		h.ReceiverType = typ
	}
	if h.ReceiverType != "" {
		if b, ok := x.imports[h.ReceiverType]; ok {
			h.Module = b.module
		}
	}
	x.b.ref(s.id, t.text(name), RelCalls, t.line(i), h)
}

func (x *jvExtract) creation(i int32, s *jvScope) {
	t, k := x.t, x.k
	ty := t.child(i, k.fType)
	tn := x.typeName(ty)
	if tn != "" {
		// The argument count picks the constructor among overloads.
		h := x.typeHint(ty)
		if args := t.child(i, k.fArgs); args >= 0 {
			h.Args = argsHint(countArgs(t, args))
			h.ArgKinds = x.argKinds(args, s)
		}
		x.b.ref(s.id, tn, RelCalls, t.line(i), h)
	}
	for c := t.first(i); c >= 0; c = t.n[c].next {
		switch {
		case c == ty:
		case x.code(c) == jvClassBody:
			// Anonymous class: its methods' calls belong to the enclosing
			// method, but its super is the type created: super.m() there
			// calls the created type's m.
			anon := s
			if tn != "" {
				ci := &jvClassInfo{super: tn, anon: true}
				if s.class != nil {
					cp := *s.class
					cp.super, cp.anon = tn, true
					ci = &cp
				}
				anon = &jvScope{id: s.id, class: ci, vars: s.vars, kinds: s.kinds}
			}
			for m := t.first(c); m >= 0; m = t.n[m].next {
				x.paramKindsOf(t.child(m, k.fParams), anon)
				if body := t.child(m, k.fBody); body >= 0 {
					x.body(body, anon)
				}
			}
		default:
			x.body(c, s)
		}
	}
}

// jvLangTypes are java.lang types, boxed primitives and the core
// collection interfaces: references to them never resolve inside a project
// and would only add noise.
var jvLangTypes = map[string]bool{
	"String": true, "Object": true, "Integer": true, "Long": true, "Short": true, "Byte": true,
	"Double": true, "Float": true, "Boolean": true, "Character": true, "Void": true,
	"Number": true, "Class": true, "Exception": true, "RuntimeException": true,
	"Throwable": true, "Error": true, "Iterable": true, "Comparable": true, "Runnable": true,
	"StringBuilder": true, "CharSequence": true, "Enum": true, "Record": true,
	"List": true, "Map": true, "Set": true, "Collection": true, "Optional": true,
	"ArrayList": true, "HashMap": true, "HashSet": true, "Override": true,
}

// paramKinds lists a method's parameters as "name:k" items (Arity.Kinds,
// k as javaTypeKind), "*" after a varargs one, so that the resolver can
// drop overloads whose parameters cannot take a call's arguments.
func (x *jvExtract) paramKinds(pl int32) string {
	t, k := x.t, x.k
	var items []string
	for p := t.first(pl); pl >= 0 && p >= 0; p = t.n[p].next {
		switch x.code(p) {
		case jvFormalParam:
			items = append(items, t.text(t.child(p, k.fName))+":"+javaTypeKind(t.text(t.child(p, k.fType))))
		case jvSpreadParam:
			kind, name := "_", ""
			for c := t.first(p); c >= 0; c = t.n[c].next {
				switch code := x.code(c); {
				case code == jvDeclarator:
					name = t.text(t.child(c, k.fName))
				case code != jvModifiers && kind == "_" && !t.kindIsComment(c) && t.g.kindName(t.n[c].kind) != "...":
					kind = javaTypeKind(t.text(c))
				}
			}
			items = append(items, name+":"+kind+"*")
		}
	}
	return strings.Join(items, ",")
}

// javaTypeKind is the kind of argument a parameter or variable of type ty
// evidently takes or holds: "s" String, "i" an integral type (int, long,
// Integer…), "b" boolean, "c" char, "a" an array, "o" and the simple name
// for any other class ("oOption": no literal is one; a lambda may be, by
// a functional interface; the resolver knows which classes a value of
// another may be), "_" where a value of any kind may fit — Object,
// Number, CharSequence, a type parameter, and float/double, which an int
// literal widens to.
func javaTypeKind(ty string) string {
	ty = sigType(ty)
	if strings.HasSuffix(ty, "]") || strings.HasSuffix(ty, "...") {
		return "a"
	}
	switch ty {
	case "String":
		return "s"
	case "int", "long", "short", "byte", "Integer", "Long", "Short", "Byte":
		return "i"
	case "boolean", "Boolean":
		return "b"
	case "char", "Character":
		return "c"
	case "", "var", "double", "float", "Double", "Float", "Object", "Number", "CharSequence",
		"Comparable", "Serializable", "Constable":
		return "_"
	}
	if isTypeParamName(ty) {
		return "_"
	}
	for i := 0; i < len(ty); i++ {
		if !isIdentByte(ty[i]) {
			return "o" // ? extends T, a union: no one name
		}
	}
	return "o" + ty
}

// argKinds tells what the arguments of argument list args evidently are
// (RefHint.ArgKinds), "" for none.
func (x *jvExtract) argKinds(args int32, s *jvScope) string {
	t := x.t
	var items []string
	for c := t.first(args); args >= 0 && c >= 0; c = t.n[c].next {
		if !t.kindIsComment(c) {
			items = append(items, x.argKind(c, s))
		}
	}
	return strings.Join(items, ",")
}

// argKind is the kind of argument expression e: a literal's, a lambda's,
// this's class, a construction's or a cast's type's, a parameter's,
// local's or field's declared type's; "_" when none of them tells. A char
// value is "C", which widens to an integral parameter too.
func (x *jvExtract) argKind(e int32, s *jvScope) string {
	if k := x.valueKind(e, s); k != "c" {
		return k
	}
	return "C"
}

// valueKind is argKind, "c" for a char variable.
func (x *jvExtract) valueKind(e int32, s *jvScope) string {
	t := x.t
	switch t.g.kindName(t.n[e].kind) {
	case "character_literal":
		return "C"
	case "parenthesized_expression":
		if c := t.first(e); c >= 0 {
			return x.argKind(c, s)
		}
	case "cast_expression":
		var types []int32
		for c := t.first(e); c >= 0; c = t.n[c].next {
			if t.n[c].field == x.k.fType {
				types = append(types, c)
			}
		}
		if len(types) == 1 { // (T) v, not (A & B) v
			return javaTypeKind(t.text(types[0]))
		}
	case "class_literal":
		return "oClass"
	case "field_access":
		if o := t.child(e, x.k.fObject); x.code(o) == jvThis && s.class != nil && !s.class.anon {
			if k, ok := s.class.kinds[t.text(t.child(e, x.k.fField))]; ok {
				return k
			}
		}
	case "string_literal", "text_block":
		return "s"
	case "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal":
		return "i"
	case "decimal_floating_point_literal", "hex_floating_point_literal":
		return "d"
	case "true", "false":
		return "b"
	case "lambda_expression", "method_reference":
		return "l"
	case "array_creation_expression":
		return "a"
	case "this":
		if s.class != nil && !s.class.anon {
			return "o" + s.class.name
		}
		return "o"
	case "object_creation_expression":
		return javaTypeKind(t.text(t.child(e, x.k.fType)))
	case "method_invocation":
		return x.callKind(e, s)
	case "identifier":
		return x.nameKind(t.text(e), s)
	case "binary_expression":
		// "a" + x is a String whatever x is.
		for c := t.first(e); c >= 0; c = t.n[c].next {
			if k := t.g.kindName(t.n[c].kind); k == "string_literal" && strings.Contains(t.text(e), "+") {
				return "s"
			}
		}
	}
	return "_"
}

// declKind is the kind of a variable of declarator d whose type's kind is
// k: an array when the declarator adds dimensions (int x[]).
func (x *jvExtract) declKind(k string, d int32) string {
	if x.t.child(d, x.k.fDimensions) >= 0 {
		return "a"
	}
	return k
}

// paramKindsOf records the kinds of the formal parameters of list pl
// (an anonymous class's method's) in s.
func (x *jvExtract) paramKindsOf(pl int32, s *jvScope) {
	t := x.t
	for p := t.first(pl); pl >= 0 && p >= 0; p = t.n[p].next {
		switch x.code(p) {
		case jvFormalParam:
			s.setKind(t.text(t.child(p, x.k.fName)), t.text(t.child(p, x.k.fType)))
		case jvSpreadParam:
			s.setKindTo(x.spreadName(p), "a")
		}
	}
}

// lambdaParams records a lambda's parameters in s: typed ones by their
// type, inferred ones as "_" — either way they hide a field of that name
// (for the rest of the method: a lambda cannot shadow a local).
func (x *jvExtract) lambdaParams(l int32, s *jvScope) {
	t := x.t
	ps := t.child(l, x.k.fParams)
	switch x.code(ps) {
	case jvIdent:
		s.setKind(t.text(ps), "")
	case jvFormalParams:
		x.paramKindsOf(ps, s)
	default: // inferred_parameters: (a, b)
		for c := t.first(ps); ps >= 0 && c >= 0; c = t.n[c].next {
			if x.code(c) == jvIdent {
				s.setKind(t.text(c), "")
			}
		}
	}
}

// nameKind is the kind of the variable name in scope s: a parameter's or
// local's, else a field's of the enclosing classes; "_" when unknown.
func (x *jvExtract) nameKind(name string, s *jvScope) string {
	if k, ok := s.kinds[name]; ok {
		return k
	}
	for c := s.class; c != nil; c = c.outer {
		if k, ok := c.kinds[name]; ok {
			return k
		}
	}
	return "_"
}

// callKind is the kind of a call's result as an argument, left for the
// resolver to read off the callee's declared result type (RefHint.ArgKinds):
// "^name" for name(…), a method of the calling class or its bases;
// "^T.name" for x.name(…) with x of declared type T (a static T.name(…),
// this.name(…)); "_" for other receivers, whose type is not known. The
// JDK's String makers (toString(), String.valueOf, format, join) are "s":
// no declaration here tells their result.
func (x *jvExtract) callKind(e int32, s *jvScope) string {
	t := x.t
	name := t.text(t.child(e, x.k.fName))
	obj := t.child(e, x.k.fObject)
	if !isIdent(name) {
		return "_"
	}
	if name == "toString" && countArgs(t, t.child(e, x.k.fArgs)) == 0 ||
		t.text(obj) == "String" && (name == "valueOf" || name == "format" || name == "join") {
		return "s"
	}
	typ := ""
	switch x.code(obj) {
	case jvNone:
		if _, static := x.imports[name]; static {
			return "_"
		}
		return "^" + name
	case jvThis:
		return "^" + name
	case jvIdent:
		recv := t.text(obj)
		if typ = x.varType(recv, s); typ == "" && isUpperStart(recv) && !isAllUpper(recv) {
			typ = recv // a static call
		}
	case jvNew:
		typ = x.typeName(t.child(obj, x.k.fType))
	}
	if typ == "" {
		return "_"
	}
	return "^" + typ + "." + name
}
