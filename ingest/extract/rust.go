package extract

import (
	"bytes"
	"strings"
	"sync"
	"unicode"

	"github.com/m1nd-go/m1nd/core/graph"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
)

var rustGrammar = newGrammar("rust", tsrust.Language)

const (
	rsNone uint8 = iota
	rsSourceFile
	rsUseDecl
	rsScopedUseList
	rsUseList
	rsUseAs
	rsUseWildcard
	rsScopedIdent
	rsIdent
	rsFunction
	rsFunctionSig
	rsStruct
	rsEnum
	rsUnion
	rsTrait
	rsImpl
	rsTypeItem
	rsConst
	rsStatic
	rsMod
	rsMacroDef
	rsMacroCall
	rsCall
	rsField
	rsAttrItem
	rsAttr
	rsInnerAttr
	rsDeclList
	rsFieldDeclList
	rsFieldDecl
	rsParam
	rsSelfParam
	rsLet
	rsStructExpr
	rsGenericType
	rsScopedTypeIdent
	rsTypeIdent
	rsReferenceType
	rsVisibility
	rsTraitBounds
	rsGenericFunction
	rsTokenTree
	rsCrate
	rsSelf
	rsSuper
	rsParameters
	rsLineComment
	rsBlockComment
	rsExternCrate
	rsPrimitiveType
	rsRefExpr
	rsPointerType
	rsAssociatedType
	rsTypeParam
	rsWhereClause
	rsWherePredicate
	rsAbstractType
	rsDynamicType
)

var rsKindNames = []string{
	"source_file", "use_declaration", "scoped_use_list", "use_list", "use_as_clause",
	"use_wildcard", "scoped_identifier", "identifier", "function_item", "function_signature_item",
	"struct_item", "enum_item", "union_item", "trait_item", "impl_item", "type_item", "const_item",
	"static_item", "mod_item", "macro_definition", "macro_invocation", "call_expression",
	"field_expression", "attribute_item", "attribute", "inner_attribute_item", "declaration_list",
	"field_declaration_list", "field_declaration", "parameter", "self_parameter", "let_declaration",
	"struct_expression", "generic_type", "scoped_type_identifier", "type_identifier",
	"reference_type", "visibility_modifier", "trait_bounds", "generic_function", "token_tree",
	"crate", "self", "super", "parameters", "line_comment", "block_comment",
	"extern_crate_declaration", "primitive_type", "reference_expression", "pointer_type",
	"associated_type", "type_parameter", "where_clause", "where_predicate", "abstract_type",
	"dynamic_type",
}

type rsTables struct {
	codes                                             []uint8
	fName, fBody, fParams, fReturn, fType, fTrait     uint16
	fArgument, fPath, fList, fAlias, fFunction, fArgs uint16
	fValue, fField, fMacro, fPattern, fBounds         uint16
	fTypeParams, fLeft                                uint16
}

// rsTablesGet builds the grammar's kind and field tables on first use.
var rsTablesGet = sync.OnceValue(func() *rsTables {
	g := rustGrammar
	return &rsTables{
		codes: g.codes(rsKindNames...),
		fName: g.field("name"), fBody: g.field("body"), fParams: g.field("parameters"),
		fReturn: g.field("return_type"), fType: g.field("type"), fTrait: g.field("trait"),
		fArgument: g.field("argument"), fPath: g.field("path"), fList: g.field("list"),
		fAlias: g.field("alias"), fFunction: g.field("function"), fArgs: g.field("arguments"),
		fValue: g.field("value"), fField: g.field("field"), fMacro: g.field("macro"),
		fPattern: g.field("pattern"), fBounds: g.field("bounds"),
		fTypeParams: g.field("type_parameters"), fLeft: g.field("left"),
	}
})

type rustExtractor struct{}

func (rustExtractor) Language() string     { return "rust" }
func (rustExtractor) Extensions() []string { return []string{".rs"} }

type rsExtract struct {
	t       *tree
	k       *rsTables
	b       *builder
	imports map[string]binding           // local name → use path
	types   map[string]string            // type declared in this file → node ID
	fields  map[string]map[string]string // struct → field → type
}

type rsScope struct {
	id      string
	selfTy  string // the impl or trait type (Self)
	vars    map[string]string
	inTests bool
	// generics maps the generic parameters in scope to the trait that
	// types their values (see genericBounds).
	generics map[string]string
}

// rsAttrs are the facts read from #[…] attributes preceding an item.
type rsAttrs struct {
	test    bool
	cfgTest bool
	derives []string
	line    uint32
}

func (rustExtractor) Extract(relPath string, src []byte) (*Result, error) {
	t, err := rustGrammar.parse(src)
	if err != nil {
		return tooLargeOr(relPath, "rust", src, err)
	}
	t = rsUnwrapItemMacros(t)
	if t.errors > 0 {
		t = reparse(rustGrammar, t, t.src, rsSpaceRawBorrows)
	}
	defer t.release()
	x := &rsExtract{
		t: t, k: rsTablesGet(), b: newTreeBuilder(relPath, "rust", t),
		imports: map[string]binding{}, types: map[string]string{}, fields: map[string]map[string]string{},
	}
	x.b.file(countLines(src), x.innerDoc(), markGenerated(src, []string{"rust"})...)
	if len(t.n) > 0 {
		x.prepass(0, x.b.fileID)
		x.items(0, &rsScope{id: x.b.fileID, vars: map[string]string{}})
	}
	return x.b.finish(t.errors), nil
}

// rsUnwrapItemMacros returns the tree of src with the wrappers of its
// item-level macro calls written with braces blanked out (tokio's
// cfg_rt! { pub fn spawn … }, nested ones too), so that the items inside
// parse as items of the enclosing module or impl. Offsets and lines do not
// move. A macro whose body does not start like an item (lazy_static's
// static ref) is kept, and so is t when the unwrapped text parses worse.
func rsUnwrapItemMacros(t *tree) *tree {
	for round := 0; round < 4; round++ {
		src, ok := rsBlankItemMacros(t)
		if !ok {
			return t
		}
		u, err := rustGrammar.parse(src)
		if err != nil {
			return t
		}
		if u.errors > t.errors {
			u.release()
			return t
		}
		t.release()
		t = u
	}
	return t
}

// rsBlankItemMacros copies t's source with each item-level brace macro's
// `name! {` and closing `}` turned into spaces; false when there is none.
func rsBlankItemMacros(t *tree) ([]byte, bool) {
	k := rsTablesGet()
	var out []byte
	for i := range t.n {
		if code(k.codes, t.n[i].kind) != rsMacroCall || t.n[i].parent < 0 {
			continue
		}
		if pk := code(k.codes, t.n[t.n[i].parent].kind); pk != rsSourceFile && pk != rsDeclList {
			continue
		}
		tt := t.childKind(int32(i), k.codes, rsTokenTree)
		if tt < 0 {
			continue
		}
		lo, hi := int(t.n[tt].start), int(t.n[tt].end)
		if hi-lo < 2 || t.src[lo] != '{' || t.src[hi-1] != '}' || !rsStartsLikeItem(t.src[lo+1:hi-1]) {
			continue
		}
		if out == nil {
			out = bytes.Clone(t.src)
		}
		for j := int(t.n[i].start); j <= lo; j++ {
			if out[j] != '\n' {
				out[j] = ' '
			}
		}
		out[hi-1] = ' '
	}
	return out, out != nil
}

// rsStartsLikeItem tells whether a macro body starts with an item: after
// attributes and a visibility, a keyword that opens an item, or a nested
// macro call.
func rsStartsLikeItem(b []byte) bool {
	s := strings.TrimSpace(string(b))
	for strings.HasPrefix(s, "#[") || strings.HasPrefix(s, "///") || strings.HasPrefix(s, "//") {
		if strings.HasPrefix(s, "#[") {
			end := strings.Index(s, "]\n")
			if end < 0 {
				return false
			}
			s = strings.TrimSpace(s[end+1:])
			continue
		}
		nl := strings.IndexByte(s, '\n')
		if nl < 0 {
			return false
		}
		s = strings.TrimSpace(s[nl+1:])
	}
	if rest, ok := strings.CutPrefix(s, "pub"); ok {
		if strings.HasPrefix(rest, "(") {
			if end := strings.IndexByte(rest, ')'); end > 0 {
				rest = rest[end+1:]
			}
		}
		s = strings.TrimSpace(rest)
	}
	word := s
	if i := strings.IndexFunc(s, func(r rune) bool { return !(r == '_' || r == '!' || unicode.IsLetter(r) || unicode.IsDigit(r)) }); i >= 0 {
		word = s[:i]
	}
	switch word {
	case "fn", "struct", "enum", "union", "trait", "impl", "mod", "use", "const", "type", "async", "unsafe", "extern":
		return true
	case "static":
		return !strings.HasPrefix(strings.TrimSpace(s[len(word):]), "ref ")
	}
	return strings.HasSuffix(word, "!") && len(word) > 1
}

func (x *rsExtract) code(i int32) uint8 {
	if i < 0 {
		return rsNone
	}
	return code(x.k.codes, x.t.n[i].kind)
}

// innerDoc returns the first line of the crate/module doc (//! …).
func (x *rsExtract) innerDoc() string {
	t := x.t
	for c := t.first(0); c >= 0; c = t.n[c].next {
		switch x.code(c) {
		case rsLineComment, rsBlockComment:
			if s := t.text(c); strings.HasPrefix(s, "//!") || strings.HasPrefix(s, "/*!") {
				return docLine(s)
			}
			continue
		case rsInnerAttr:
			continue
		}
		break
	}
	return ""
}

// prepass records the types declared in the file (also inside inline
// modules, under their nested IDs) and the field types of structs.
func (x *rsExtract) prepass(list int32, parent string) {
	t, k := x.t, x.k
	for c := t.first(list); c >= 0; c = t.n[c].next {
		switch x.code(c) {
		case rsStruct, rsEnum, rsUnion, rsTrait, rsTypeItem:
			name := t.text(t.child(c, k.fName))
			if name == "" {
				continue
			}
			if _, seen := x.types[name]; !seen {
				x.types[name] = ChildID(parent, name)
			}
			if body := t.child(c, k.fBody); body >= 0 && x.code(body) == rsFieldDeclList {
				fs := map[string]string{}
				for f := t.first(body); f >= 0; f = t.n[f].next {
					if x.code(f) == rsFieldDecl {
						if tn := x.typeName(t.child(f, k.fType)); tn != "" {
							fs[t.text(t.child(f, k.fName))] = tn
						}
					}
				}
				x.fields[name] = fs
			}
		case rsMod:
			name := t.text(t.child(c, k.fName))
			if body := t.child(c, k.fBody); body >= 0 {
				x.prepass(body, ChildID(parent, name))
			} else if name != "" {
				// `mod codec;` makes codec::f paths resolve to self::codec.
				x.imports[name] = binding{module: "self", name: name}
			}
		case rsUseDecl:
			x.useDecl(c)
		}
	}
}

func rsVis(x *rsExtract, item int32) string {
	v := x.t.childKind(item, x.k.codes, rsVisibility)
	if v < 0 {
		return VisPrivate
	}
	if s := x.t.text(v); s == "pub" {
		return VisPublic
	}
	return VisInternal // pub(crate), pub(super), pub(in …)
}

// items visits the items of a source file, module body or block.
func (x *rsExtract) items(list int32, s *rsScope) {
	t := x.t
	var attrs rsAttrs
	for c := t.first(list); c >= 0; c = t.n[c].next {
		if x.code(c) == rsAttrItem {
			x.attribute(c, &attrs)
			continue
		}
		if t.kindIsComment(c) {
			continue
		}
		x.item(c, s, attrs)
		attrs = rsAttrs{}
	}
}

// attribute reads #[test], #[tokio::test], #[bench], #[cfg(test)] and
// #[derive(…)].
func (x *rsExtract) attribute(i int32, a *rsAttrs) {
	t, k := x.t, x.k
	attr := t.childKind(i, k.codes, rsAttr)
	if attr < 0 {
		return
	}
	a.line = t.line(i)
	head := t.first(attr)
	name := compactDots(t.text(head))
	switch {
	case name == "test" || name == "bench" || strings.HasSuffix(name, "::test") || name == "rstest" || name == "quickcheck":
		a.test = true
	case name == "cfg":
		args := t.child(attr, k.fArgs)
		if args >= 0 && strings.Contains(t.text(args), "test") {
			a.cfgTest = true
		}
	case name == "derive":
		args := t.child(attr, k.fArgs)
		if args < 0 {
			return
		}
		end := t.end(args)
		for j := args + 1; j < end; j++ {
			switch x.code(j) {
			case rsIdent:
				a.derives = append(a.derives, t.text(j))
			}
		}
	}
}

func (x *rsExtract) item(c int32, s *rsScope, attrs rsAttrs) {
	t, k := x.t, x.k
	switch x.code(c) {
	case rsFunction, rsFunctionSig:
		x.function(c, s, s.id, "", attrs)
	case rsStruct, rsUnion:
		name := t.text(t.child(c, k.fName))
		if name == "" {
			return
		}
		tags := []string{"rust", KindStruct, rsVis(x, c)}
		if x.code(c) == rsUnion {
			tags = append(tags, "union")
		}
		id, _ := x.b.entity(s.id, name, graph.Struct, t.line(c), t.endLine(c), excerpt(t.bytes(c)), tags...)
		x.derives(id, attrs)
		if body := t.child(c, k.fBody); body >= 0 {
			x.typeRefs(id, body, s)
		}
	case rsEnum:
		name := t.text(t.child(c, k.fName))
		if name == "" {
			return
		}
		id, _ := x.b.entity(s.id, name, graph.Enum, t.line(c), t.endLine(c), excerpt(t.bytes(c)), "rust", KindEnum, rsVis(x, c))
		x.derives(id, attrs)
		if body := t.child(c, k.fBody); body >= 0 {
			x.typeRefs(id, body, s)
		}
	case rsTrait:
		x.trait(c, s)
	case rsImpl:
		x.impl(c, s)
	case rsTypeItem:
		name := t.text(t.child(c, k.fName))
		if name == "" {
			return
		}
		id, _ := x.b.entity(s.id, name, graph.Type, t.line(c), t.endLine(c), excerpt(t.bytes(c)), "rust", KindTypeAlias, rsVis(x, c))
		x.typeRefs(id, t.child(c, k.fType), s)
	case rsConst, rsStatic:
		name := t.text(t.child(c, k.fName))
		if name == "" {
			return
		}
		kind := KindConstant
		if x.code(c) == rsStatic {
			kind = KindVariable
		}
		id, _ := x.b.entity(s.id, name, graph.Reference, t.line(c), t.endLine(c), excerpt(t.bytes(c)), "rust", kind, rsVis(x, c))
		x.typeRefs(id, t.child(c, k.fType), s)
		if v := t.child(c, k.fValue); v >= 0 {
			x.expr(v, &rsScope{id: id, selfTy: s.selfTy, vars: map[string]string{}})
		}
	case rsMod:
		name := t.text(t.child(c, k.fName))
		if name == "" {
			return
		}
		body := t.child(c, k.fBody)
		if body < 0 {
			// `mod foo;` pulls in foo.rs or foo/mod.rs.
			x.b.imp(Import{Module: "self::" + name, Line: t.line(c)})
			x.b.ref(x.b.fileID, name, RelImports, t.line(c), RefHint{Module: "self::" + name})
			return
		}
		tags := []string{"rust", KindModule, rsVis(x, c)}
		if attrs.cfgTest || (s.inTests && name == "tests") {
			tags = append(tags, KindTest)
		}
		id, _ := x.b.entity(s.id, name, graph.Module, t.line(c), t.endLine(c), excerpt(t.bytes(c)), tags...)
		x.items(body, &rsScope{id: id, vars: map[string]string{}, inTests: attrs.cfgTest || s.inTests})
	case rsMacroDef:
		name := t.text(t.child(c, k.fName))
		if name != "" {
			x.b.entity(s.id, name, graph.Function, t.line(c), t.endLine(c), excerpt(t.bytes(c)), "rust", "macro", VisPublic)
		}
	case rsUseDecl:
		// Recorded by the prepass, which sees every module body.
	case rsExternCrate:
		name := t.text(t.child(c, k.fName))
		if name != "" {
			x.b.imp(Import{Module: name, Alias: t.text(t.child(c, k.fAlias)), Line: t.line(c)})
			x.b.ref(x.b.fileID, name, RelImports, t.line(c), RefHint{Module: name})
		}
	case rsMacroCall:
		x.macro(c, s)
	default:
		x.expr(c, s)
	}
}

func (x *rsExtract) derives(id string, a rsAttrs) {
	for _, d := range a.derives {
		x.b.ref(id, d, RelImplements, a.line, RefHint{})
	}
}

// function adds a function (or, with selfTy set, a method) and walks it.
// parent is the node that contains it; id nesting follows idParent.
func (x *rsExtract) function(c int32, s *rsScope, parent, selfTy string, attrs rsAttrs) {
	x.functionVis(c, s, parent, selfTy, attrs, "")
}

// functionVis is function with a forced visibility ("" to read it from the
// item): methods of trait impls are as visible as the trait.
func (x *rsExtract) functionVis(c int32, s *rsScope, parent, selfTy string, attrs rsAttrs, vis string) {
	t, k := x.t, x.k
	name := t.text(t.child(c, k.fName))
	if name == "" {
		return
	}
	kind := KindFunction
	if selfTy != "" {
		kind = KindMethod
	}
	if vis == "" {
		vis = rsVis(x, c)
	}
	tags := []string{"rust", kind, vis}
	if mods := string(t.bytes(c)); strings.HasPrefix(strings.TrimPrefix(strings.TrimPrefix(mods, "pub "), "pub(crate) "), "async") {
		tags = append(tags, "async")
	}
	if x.code(c) == rsFunctionSig {
		tags = append(tags, "abstract")
	}
	if attrs.test {
		tags = append(tags, KindTest)
	}
	var id string
	if selfTy != "" {
		// Methods nest under their type: file::p::Type::method, contained
		// by the type when it is declared here, by the file otherwise.
		typeID, local := x.types[selfTy]
		if !local {
			typeID = ChildID(parent, selfTy)
		}
		cont := parent
		if local {
			cont = typeID
		}
		id, _ = x.b.entityAt(ChildID(typeID, name), cont, name, graph.Function, t.line(c), t.endLine(c), excerpt(t.bytes(c)), tags...)
		if !local {
			x.b.ref(id, selfTy, RelMemberOf, t.line(c), RefHint{})
		}
	} else {
		id, _ = x.b.entity(parent, name, graph.Function, t.line(c), t.endLine(c), excerpt(t.bytes(c)), tags...)
	}
	fs := &rsScope{id: id, selfTy: selfTy, vars: map[string]string{}, inTests: s.inTests, generics: x.genericBounds(c, s.generics)}
	if params := t.child(c, k.fParams); params >= 0 {
		for p := t.first(params); p >= 0; p = t.n[p].next {
			if x.code(p) != rsParam {
				continue
			}
			ty := t.child(p, k.fType)
			x.typeRefs(id, ty, fs)
			if pat := t.child(p, k.fPattern); x.code(pat) == rsIdent {
				if tn := fs.concrete(x.typeName(ty)); tn != "" {
					fs.vars[t.text(pat)] = tn
				}
			}
		}
	}
	x.typeRefs(id, t.child(c, k.fReturn), fs)
	if body := t.child(c, k.fBody); body >= 0 {
		x.expr(body, fs)
	}
}

func (x *rsExtract) trait(c int32, s *rsScope) {
	t, k := x.t, x.k
	name := t.text(t.child(c, k.fName))
	if name == "" {
		return
	}
	id, _ := x.b.entity(s.id, name, graph.Type, t.line(c), t.endLine(c), excerpt(t.bytes(c)), "rust", KindTrait, rsVis(x, c))
	if b := t.child(c, k.fBounds); b >= 0 {
		for ty := t.first(b); ty >= 0; ty = t.n[ty].next {
			if tn := x.typeName(ty); tn != "" {
				x.b.ref(id, tn, RelInherits, t.line(ty), x.pathHint(ty))
			}
		}
	}
	ts := &rsScope{id: s.id, selfTy: s.selfTy, vars: s.vars, inTests: s.inTests, generics: x.genericBounds(c, s.generics)}
	x.members(c, func(m int32, attrs rsAttrs) {
		switch x.code(m) {
		case rsFunction, rsFunctionSig:
			x.functionIn(m, ts, id, name, attrs)
		case rsAssociatedType:
			if n := t.text(t.child(m, k.fName)); n != "" {
				x.b.entity(id, n, graph.Type, t.line(m), t.endLine(m), excerpt(t.bytes(m)), "rust", KindTypeAlias, "associated")
			}
		}
	})
}

// members calls each with every item of c's body (a trait's or an impl's)
// and the attributes written right above it.
func (x *rsExtract) members(c int32, each func(m int32, attrs rsAttrs)) {
	t := x.t
	body := t.child(c, x.k.fBody)
	if body < 0 {
		return
	}
	var attrs rsAttrs
	for m := t.first(body); m >= 0; m = t.n[m].next {
		if x.code(m) == rsAttrItem {
			x.attribute(m, &attrs)
			continue
		}
		each(m, attrs)
		attrs = rsAttrs{}
	}
}

// functionIn adds a method nested directly under an already-emitted
// container node (trait methods).
func (x *rsExtract) functionIn(m int32, s *rsScope, containerID, selfTy string, attrs rsAttrs) {
	t, k := x.t, x.k
	name := t.text(t.child(m, k.fName))
	if name == "" {
		return
	}
	tags := []string{"rust", KindMethod, VisPublic}
	if x.code(m) == rsFunctionSig {
		tags = append(tags, "abstract")
	}
	if attrs.test {
		tags = append(tags, KindTest)
	}
	id, _ := x.b.entity(containerID, name, graph.Function, t.line(m), t.endLine(m), excerpt(t.bytes(m)), tags...)
	fs := &rsScope{id: id, selfTy: selfTy, vars: map[string]string{}, generics: x.genericBounds(m, s.generics)}
	if params := t.child(m, k.fParams); params >= 0 {
		x.typeRefs(id, params, fs)
	}
	x.typeRefs(id, t.child(m, k.fReturn), fs)
	if body := t.child(m, k.fBody); body >= 0 {
		x.expr(body, fs)
	}
}

func (x *rsExtract) impl(c int32, s *rsScope) {
	t, k := x.t, x.k
	tyNode := t.child(c, k.fType)
	selfTy := x.typeName(tyNode)
	if selfTy == "" {
		return
	}
	vis := ""
	if tr := t.child(c, k.fTrait); tr >= 0 {
		vis = VisPublic
		if trait := x.typeName(tr); trait != "" {
			h := x.pathHint(tr)
			if typeID, local := x.types[selfTy]; local {
				x.b.ref(typeID, trait, RelImplements, t.line(c), h)
			} else {
				// The type lives elsewhere: record the impl on the scope
				// with the type as hint.
				h.ReceiverType = selfTy
				x.b.ref(s.id, trait, RelImplements, t.line(c), h)
			}
		}
	}
	is := &rsScope{id: s.id, selfTy: s.selfTy, vars: s.vars, inTests: s.inTests, generics: x.genericBounds(c, s.generics)}
	x.members(c, func(m int32, attrs rsAttrs) {
		switch x.code(m) {
		case rsFunction, rsFunctionSig:
			x.functionVis(m, is, s.id, selfTy, attrs, vis)
		case rsConst:
			x.item(m, &rsScope{id: s.id, selfTy: selfTy, vars: map[string]string{}}, attrs)
		case rsMacroCall:
			x.macro(m, s)
		}
	})
}

// typeName returns the principal named type of a type node: Foo for Foo,
// &Foo, &mut Foo, Foo<T>, a::b::Foo; "" for primitives and std wrappers.
func (x *rsExtract) typeName(ty int32) string {
	t, k := x.t, x.k
	for depth := 0; ty >= 0 && depth < 8; depth++ {
		switch x.code(ty) {
		case rsTypeIdent:
			name := t.text(ty)
			if rsStdTypes[name] {
				return ""
			}
			return name
		case rsReferenceType, rsPointerType:
			ty = t.child(ty, k.fType)
		case rsAbstractType, rsDynamicType:
			ty = t.child(ty, k.fTrait) // impl Trait, dyn Trait: typed by the trait
		case rsGenericType:
			ty = t.child(ty, k.fType)
		case rsScopedTypeIdent:
			return t.text(t.child(ty, k.fName))
		case rsIdent:
			return t.text(ty)
		default:
			return ""
		}
	}
	return ""
}

// pathHint returns the Module hint of a possibly qualified type or path.
func (x *rsExtract) pathHint(ty int32) RefHint {
	t, k := x.t, x.k
	for depth := 0; ty >= 0 && depth < 8; depth++ {
		switch x.code(ty) {
		case rsGenericType:
			ty = t.child(ty, k.fType)
		case rsScopedTypeIdent, rsScopedIdent:
			return RefHint{Module: x.modulePath(compactDots(t.text(t.child(ty, k.fPath))))}
		case rsTypeIdent, rsIdent:
			if b, ok := x.imports[t.text(ty)]; ok {
				return RefHint{Module: b.module}
			}
			return RefHint{}
		default:
			return RefHint{}
		}
	}
	return RefHint{}
}

// modulePath expands the first segment of a path through the use
// declarations: with `use std::collections;`, "collections::hash_map" →
// "std::collections::hash_map".
func (x *rsExtract) modulePath(p string) string {
	root, rest, _ := strings.Cut(p, "::")
	if b, ok := x.imports[root]; ok {
		full := b.module + "::" + b.name
		if b.name == "" {
			full = b.module
		}
		if rest != "" {
			return full + "::" + rest
		}
		return full
	}
	return p
}

// typeRefs adds references edges for every user type under ty.
func (x *rsExtract) typeRefs(src string, ty int32, s *rsScope) {
	t, k := x.t, x.k
	t.typeNames(ty, k.codes, rsTypeIdent, rsScopedTypeIdent, func(j int32) {
		name := t.text(j)
		if name == "Self" && s != nil && s.selfTy != "" || rsStdTypes[name] || isTypeParamName(name) {
			return
		}
		h := RefHint{}
		if b, ok := x.imports[name]; ok {
			h.Module = b.module
		}
		x.b.ref(src, name, RelReferences, t.line(j), h)
	}, func(j int32) {
		if name := t.text(t.child(j, k.fName)); name != "" && !rsStdTypes[name] {
			x.b.ref(src, name, RelReferences, t.line(j), RefHint{Module: x.modulePath(compactDots(t.text(t.child(j, k.fPath))))})
		}
	})
}

// useDecl flattens a use tree into imports: `use a::b::{c, d as e, f::*}`
// gives (a::b, c), (a::b, d as e), (a::b::f, *).
func (x *rsExtract) useDecl(i int32) {
	t, k := x.t, x.k
	line := t.line(i)
	// `pub use a::b as c` makes c a name of this module, as JS's export
	// from does: imports of c from here reach a's b.
	public := t.childKind(i, k.codes, rsVisibility) >= 0
	var walk func(n int32, prefix string)
	add := func(module, name, alias string) {
		if name == "" {
			return
		}
		im := Import{Module: module, Alias: alias, Line: line}
		if name == "*" || name != "self" {
			im.Names = []string{name}
		}
		if name == "self" {
			// use a::b::{self} imports the module b itself.
			module, name = splitLast(module, "::")
			im = Import{Module: module, Names: []string{name}, Alias: alias, Line: line}
		}
		x.b.imp(im)
		local := name
		if alias != "" {
			local = alias
		}
		if name != "*" && local != "_" {
			x.imports[local] = binding{module: module, name: name}
			if public && name != "self" && module != "" {
				x.b.res.Reexports = append(x.b.res.Reexports, Reexport{Name: local, Module: module, Target: name})
			}
		}
		target := name
		if name == "*" {
			_, target = splitLast(module, "::")
		}
		x.b.ref(x.b.fileID, target, RelImports, line, RefHint{Module: module})
	}
	join := func(a, b string) string {
		if a == "" {
			return b
		}
		return a + "::" + b
	}
	walk = func(n int32, prefix string) {
		switch x.code(n) {
		case rsIdent, rsCrate, rsSelf, rsSuper:
			add(prefix, t.text(n), "")
		case rsScopedIdent:
			full := join(prefix, compactDots(t.text(n)))
			mod, name := splitLast(full, "::")
			add(mod, name, "")
		case rsUseAs:
			full := join(prefix, compactDots(t.text(t.child(n, k.fPath))))
			mod, name := splitLast(full, "::")
			add(mod, name, t.text(t.child(n, k.fAlias)))
		case rsUseWildcard:
			p := strings.TrimSuffix(compactDots(t.text(n)), "::*")
			if p == "*" {
				p = ""
			}
			add(join(prefix, p), "*", "")
		case rsScopedUseList:
			p := join(prefix, compactDots(t.text(t.child(n, k.fPath))))
			if l := t.child(n, k.fList); l >= 0 {
				walk(l, p)
			}
		case rsUseList:
			for c := t.first(n); c >= 0; c = t.n[c].next {
				walk(c, prefix)
			}
		}
	}
	if arg := t.child(i, k.fArgument); arg >= 0 {
		walk(arg, "")
	}
}

// expr walks a body for calls, macro calls, typed lets and nested items.
func (x *rsExtract) expr(i int32, s *rsScope) {
	t, k := x.t, x.k
	switch x.code(i) {
	case rsCall:
		x.call(i, s)
		return
	case rsMacroCall:
		x.macro(i, s)
		return
	case rsLet:
		pat := t.child(i, k.fPattern)
		if x.code(pat) == rsIdent {
			name := t.text(pat)
			if tn := s.concrete(x.typeName(t.child(i, k.fType))); tn != "" {
				s.vars[name] = tn
			} else if tn := x.valueType(t.child(i, k.fValue), s); tn != "" {
				s.vars[name] = tn
			}
		}
	case rsUseDecl:
		// `use tokio::sync::Barrier;` in a body: read like the file's
		// uses (a later same-named use elsewhere in the file wins).
		x.useDecl(i)
		return
	case rsFunction, rsStruct, rsEnum, rsTrait, rsImpl, rsMod, rsConst, rsStatic, rsTypeItem, rsUnion:
		// Items nested in a function body belong to the function.
		x.item(i, s, rsAttrs{})
		return
	}
	for c := t.first(i); c >= 0; c = t.n[c].next {
		x.expr(c, s)
	}
}

// valueType infers the type of `let x = …`: Foo { … }, Foo::new(…) and
// other Foo::ctor(…) calls, &Foo { … }.
func (x *rsExtract) valueType(v int32, s *rsScope) string {
	t, k := x.t, x.k
	for depth := 0; v >= 0 && depth < 4; depth++ {
		switch x.code(v) {
		case rsStructExpr:
			n := t.child(v, k.fName)
			if tn := x.typeName(n); tn != "" {
				if tn == "Self" {
					return s.selfTy
				}
				return tn
			}
			return ""
		case rsRefExpr:
			v = t.child(v, k.fValue)
		case rsCall:
			fn := t.child(v, k.fFunction)
			if x.code(fn) == rsGenericFunction {
				fn = t.child(fn, k.fFunction)
			}
			if x.code(fn) != rsScopedIdent {
				return ""
			}
			p := compactDots(t.text(t.child(fn, k.fPath)))
			_, last := splitLast(p, "::")
			if last == "Self" {
				return s.selfTy
			}
			if isUpperStart(last) && !rsStdTypes[last] {
				if b, ok := x.imports[last]; ok && b.name != "" && b.name != "*" {
					return b.name
				}
				return last
			}
			return ""
		default:
			return ""
		}
	}
	return ""
}

func (x *rsExtract) call(i int32, s *rsScope) {
	t, k := x.t, x.k
	fn := t.child(i, k.fFunction)
	if x.code(fn) == rsGenericFunction {
		fn = t.child(fn, k.fFunction)
	}
	line := t.line(i)
	switch x.code(fn) {
	case rsIdent:
		name := t.text(fn)
		h := RefHint{}
		if b, ok := x.imports[name]; ok {
			h.Module = b.module
			name = b.name
		}
		if !rsPreludeFuncs[name] {
			x.b.ref(s.id, name, RelCalls, line, h)
		}
	case rsScopedIdent:
		p := compactDots(t.text(t.child(fn, k.fPath)))
		x.pathCall(s, p, t.text(t.child(fn, k.fName)), line)
	case rsField:
		recvNode := t.child(fn, k.fValue)
		name := t.text(t.child(fn, k.fField))
		x.b.ref(s.id, name, RelCalls, line, x.methodHint(compactDots(t.text(recvNode)), s))
		if recvNode >= 0 && x.code(recvNode) != rsIdent && x.code(recvNode) != rsSelf {
			x.expr(recvNode, s)
		}
	default:
		if fn >= 0 {
			x.expr(fn, s)
		}
	}
	if args := t.child(i, k.fArgs); args >= 0 {
		x.expr(args, s)
	}
}

// genericBounds returns outer extended with the generic parameters that
// item c (a function, impl or trait) declares, each mapped to the trait
// its values are typed by: the first bound of the parameter list or the
// where clause that is not a std marker trait (Clone, Debug, Send, …), else
// the first bound, else "". Outer is returned as is when c declares none.
func (x *rsExtract) genericBounds(c int32, outer map[string]string) map[string]string {
	t, k := x.t, x.k
	tps, wc := t.child(c, k.fTypeParams), t.childKind(c, k.codes, rsWhereClause)
	if tps < 0 && wc < 0 {
		return outer
	}
	g := make(map[string]string, len(outer)+2)
	for n, b := range outer {
		g[n] = b
	}
	for p := t.first(tps); tps >= 0 && p >= 0; p = t.n[p].next {
		if x.code(p) == rsTypeParam {
			if n := t.text(t.child(p, k.fName)); n != "" {
				g[n] = x.boundTrait(t.child(p, k.fBounds), "")
			}
		}
	}
	for p := t.first(wc); wc >= 0 && p >= 0; p = t.n[p].next {
		left := t.child(p, k.fLeft)
		if x.code(p) != rsWherePredicate || x.code(left) != rsTypeIdent {
			continue
		}
		if cur, ok := g[t.text(left)]; ok {
			g[t.text(left)] = x.boundTrait(t.child(p, k.fBounds), cur)
		}
	}
	return g
}

// boundTrait picks the trait of a bound list that types a value: the first
// that is not a std marker trait; cur (a bound already read) or the first
// marker trait otherwise.
func (x *rsExtract) boundTrait(bounds int32, cur string) string {
	if cur != "" && !rsMarkerTraits[cur] {
		return cur
	}
	if bounds < 0 {
		return cur
	}
	for b := x.t.first(bounds); b >= 0; b = x.t.n[b].next {
		tn := x.typeName(b)
		if tn != "" && !rsMarkerTraits[tn] {
			return tn
		}
		if cur == "" {
			cur = tn
		}
	}
	return cur
}

// isGeneric tells whether name is a generic parameter in scope.
func (s *rsScope) isGeneric(name string) bool {
	_, ok := s.generics[name]
	return ok
}

// concrete maps a type name to the one that types its values: a generic
// parameter's bound trait, any other name itself.
func (s *rsScope) concrete(name string) string {
	if b, ok := s.generics[name]; ok {
		return b
	}
	return name
}

// rsMarkerTraits are std traits that say little about what a generic value
// is for, so another bound types it when there is one.
var rsMarkerTraits = map[string]bool{
	"Sized": true, "Send": true, "Sync": true, "Unpin": true, "Copy": true, "Clone": true,
	"Debug": true, "Display": true, "Default": true, "Eq": true, "PartialEq": true, "Ord": true,
	"PartialOrd": true, "Hash": true, "Any": true,
}

// pathCall records the call p::name(…): Self::f, Type::f (a std type's
// associated functions are skipped), module::f.
func (x *rsExtract) pathCall(s *rsScope, p, name string, line uint32) {
	if i := strings.Index(p, "::<"); i > 0 && strings.HasSuffix(p, ">") {
		p = p[:i] // Harness::<T, S>::from_raw is Harness's from_raw
	}
	h := RefHint{Receiver: trimReceiver(p)}
	_, last := splitLast(p, "::")
	switch {
	case last == "Self" && s.selfTy != "":
		h.ReceiverType = s.selfTy
	case p == last && s.isGeneric(last):
		h.ReceiverType = s.concrete(last) // T::f(…): the bound trait's f
		x.viaImport(&h)
	case isUpperStart(last):
		h.ReceiverType = last
		if rest, _ := splitLast(p, "::"); rest != "" {
			h.Module = x.modulePath(rest)
		} else if b, ok := x.imports[last]; ok {
			h.Module = b.module
			h.ReceiverType = b.name // through `use … as Alias`
		}
	default:
		h.Module = x.modulePath(p)
	}
	if !(rsStdTypes[h.ReceiverType] && h.ReceiverType != "") {
		x.b.ref(s.id, name, RelCalls, line, h)
	}
}

// methodHint types the receiver recv of recv.m(…): self, a field of self,
// a parameter or local of known type.
func (x *rsExtract) methodHint(recv string, s *rsScope) RefHint {
	h := RefHint{Receiver: trimReceiver(recv)}
	switch {
	case recv == "self":
		h.ReceiverType = s.selfTy
	case strings.HasPrefix(recv, "self.") && !strings.ContainsAny(recv[5:], ".()[]"):
		h.ReceiverType = x.fields[s.selfTy][recv[5:]]
	default:
		h.ReceiverType = s.vars[recv]
	}
	x.viaImport(&h)
	return h
}

// viaImport qualifies a receiver type that a use declaration brings in
// (and no local type shadows) with its module.
func (x *rsExtract) viaImport(h *RefHint) {
	if _, local := x.types[h.ReceiverType]; !local {
		if b, ok := x.imports[h.ReceiverType]; ok {
			h.Module = b.module
			h.ReceiverType = b.name
		}
	}
}

// macro records calls to user macros (std ones are skipped) and scans the
// token tree for calls written inside common macros (format args, vec!).
func (x *rsExtract) macro(i int32, s *rsScope) {
	t, k := x.t, x.k
	m := t.child(i, k.fMacro)
	name := compactDots(t.text(m))
	if _, last := splitLast(name, "::"); !rsStdMacros[last] && last != "" {
		x.b.ref(s.id, last, RelCalls, t.line(i), RefHint{})
	}
	// Token trees are unparsed; calls inside them (println!("{}", f(x)))
	// show up as identifier followed by a token tree.
	tt := t.childKind(i, k.codes, rsTokenTree)
	if tt < 0 {
		return
	}
	end := t.end(tt)
	for j := tt + 1; j < end; j++ {
		if x.code(j) != rsIdent {
			continue
		}
		nx := t.n[j].next
		if nx >= 0 && x.code(nx) == rsTokenTree && t.n[nx].start == t.n[j].end && len(t.src) > int(t.n[nx].start) && t.src[t.n[nx].start] == '(' {
			x.tokenCall(s, j, int(t.n[tt].start))
		}
	}
}

// tokenCall records the call whose name is identifier j of a macro's token
// tree starting at byte lo. The tree is not parsed, so the receiver or path
// before the name is read back from the source: tri!(value.serialize(x))
// is a method call on value, not a call of a function serialize.
func (x *rsExtract) tokenCall(s *rsScope, j int32, lo int) {
	t := x.t
	name, line := t.text(j), t.line(j)
	at := skipSpaceBack(t.src, lo, int(t.n[j].start))
	switch {
	case at > lo && t.src[at-1] == '.':
		if recv := rsOperandBack(t.src, lo, at-1); recv != "" {
			x.b.ref(s.id, name, RelCalls, line, x.methodHint(compactDots(recv), s))
		}
	case at > lo+1 && t.src[at-1] == ':' && t.src[at-2] == ':':
		if p := rsPathBack(t.src, lo, at-2); p != "" {
			x.pathCall(s, p, name, line)
		}
	case !rsPreludeFuncs[name] && !isUpperStart(name):
		x.b.ref(s.id, name, RelCalls, line, RefHint{})
	}
}

// skipSpaceBack returns the offset after the last non-space byte of
// src[lo:end].
func skipSpaceBack(src []byte, lo, end int) int {
	for end > lo && (src[end-1] == ' ' || src[end-1] == '\t' || src[end-1] == '\n' || src[end-1] == '\r') {
		end--
	}
	return end
}

// rsPathBack reads the path a::b ending at src[end] (exclusive) backwards.
func rsPathBack(src []byte, lo, end int) string {
	i := end
	for i > lo && (isIdentByte(src[i-1]) || src[i-1] == ':') && src[i-1] != '$' {
		i--
	}
	return strings.Trim(string(src[i:end]), ":")
}

// rsOperandBack reads the receiver ending at src[end] (exclusive)
// backwards: identifiers, field accesses, calls and indexes (self.a.b(),
// v[0]); "" when it is something else (a literal, a closing brace).
func rsOperandBack(src []byte, lo, end int) string {
	i, depth := skipSpaceBack(src, lo, end), 0
	end = i
	for i > lo {
		c := src[i-1]
		switch {
		case c == ')' || c == ']':
			depth++
		case c == '(' || c == '[':
			if depth == 0 {
				return rsOperand(src[i:end])
			}
			depth--
		case depth > 0 || isIdentByte(c) && c != '$' || c == '.' || c == ':':
		default:
			return rsOperand(src[i:end])
		}
		i--
	}
	return rsOperand(src[i:end])
}

// rsOperand keeps a receiver that starts with a name.
func rsOperand(b []byte) string {
	if len(b) == 0 || !isIdentByte(b[0]) || b[0] >= '0' && b[0] <= '9' {
		return ""
	}
	return string(b)
}

var rsStdTypes = map[string]bool{
	"Option": true, "Result": true, "Vec": true, "Box": true, "String": true, "Rc": true,
	"Arc": true, "RefCell": true, "Cell": true, "HashMap": true, "HashSet": true,
	"BTreeMap": true, "BTreeSet": true, "VecDeque": true, "Mutex": true, "RwLock": true,
	"Cow": true, "PhantomData": true, "Pin": true, "Self": true, "str": true,
}

var rsPreludeFuncs = map[string]bool{
	"Some": true, "None": true, "Ok": true, "Err": true, "drop": true, "Box": true,
}

var rsStdMacros = map[string]bool{
	"println": true, "print": true, "eprintln": true, "eprint": true, "format": true,
	"write": true, "writeln": true, "vec": true, "panic": true, "assert": true,
	"assert_eq": true, "assert_ne": true, "debug_assert": true, "debug_assert_eq": true,
	"debug_assert_ne": true, "unreachable": true, "unimplemented": true, "todo": true,
	"matches": true, "format_args": true, "concat": true, "stringify": true, "include_str": true,
	"include_bytes": true, "env": true, "cfg": true, "dbg": true, "line": true, "file": true,
	"column": true, "module_path": true, "compile_error": true, "include": true, "thread_local": true,
}
