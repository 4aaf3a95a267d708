package extract

import (
	"bytes"
	"go/build/constraint"
	"strconv"
	"strings"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
)

var goGrammar = newGrammar("go", tsgo.Language)

const (
	goNone uint8 = iota
	goSourceFile
	goPackageClause
	goImportDecl
	goImportSpec
	goFuncDecl
	goMethodDecl
	goTypeDecl
	goTypeSpec
	goTypeAlias
	goStructType
	goInterfaceType
	goFieldDeclList
	goFieldDecl
	goMethodElem
	goTypeElem
	goConstDecl
	goConstSpec
	goVarDecl
	goVarSpec
	goCall
	goSelector
	goShortVar
	goAssign
	goComposite
	goUnary
	goParamDecl
	goVariadicParam
	goPointerType
	goQualifiedType
	goGenericType
	goTypeIdent
	goIdent
	goFieldIdent
	goPackageIdent
	goExprList
	goFuncLiteral
	goParenExpr
	goInterpretedString
	goRawString
	goParamList
	goBlank
	goDot
	goComment
	goKeyedElement
	goLiteralElement
	goRangeClause
	goReceiveStmt
	goTypeSwitch
	goTypeParamDecl
	goSliceType
	goArrayType
	goMapType
	goIndexExpr
	goTypeAssert
	goTypeCase
)

var goKindNames = []string{
	"source_file", "package_clause", "import_declaration", "import_spec", "function_declaration",
	"method_declaration", "type_declaration", "type_spec", "type_alias", "struct_type",
	"interface_type", "field_declaration_list", "field_declaration", "method_elem", "type_elem",
	"const_declaration", "const_spec", "var_declaration", "var_spec", "call_expression",
	"selector_expression", "short_var_declaration", "assignment_statement", "composite_literal",
	"unary_expression", "parameter_declaration", "variadic_parameter_declaration", "pointer_type",
	"qualified_type", "generic_type", "type_identifier", "identifier", "field_identifier",
	"package_identifier", "expression_list", "func_literal", "parenthesized_expression",
	"interpreted_string_literal", "raw_string_literal", "parameter_list", "blank_identifier", "dot",
	"comment", "keyed_element", "literal_element", "range_clause", "receive_statement",
	"type_switch_statement", "type_parameter_declaration",
	"slice_type", "array_type", "map_type", "index_expression", "type_assertion_expression",
	"type_case",
}

type goTables struct {
	codes                                                  []uint8
	fName, fBody, fParams, fResult, fReceiver, fType       uint16
	fPath, fFunction, fArgs, fOperand, fField, fLeft       uint16
	fRight, fValue, fPackage, fTypeArgs, fTypeParams, fTag uint16
	fKey, fAlias, fElement, fIndex                         uint16
}

// goTablesGet builds the grammar's kind and field tables on first use.
var goTablesGet = sync.OnceValue(func() *goTables {
	g := goGrammar
	return &goTables{
		codes: g.codes(goKindNames...),
		fName: g.field("name"), fBody: g.field("body"), fParams: g.field("parameters"),
		fResult: g.field("result"), fReceiver: g.field("receiver"), fType: g.field("type"),
		fPath: g.field("path"), fFunction: g.field("function"), fArgs: g.field("arguments"),
		fOperand: g.field("operand"), fField: g.field("field"), fLeft: g.field("left"),
		fRight: g.field("right"), fValue: g.field("value"), fPackage: g.field("package"),
		fTypeArgs: g.field("type_arguments"), fTypeParams: g.field("type_parameters"), fTag: g.field("tag"),
		fKey: g.field("key"), fAlias: g.field("alias"), fElement: g.field("element"), fIndex: g.field("index"),
	}
})

type goExtractor struct{}

func (goExtractor) Language() string     { return "go" }
func (goExtractor) Extensions() []string { return []string{".go"} }

// goType is an inferred static type: its name and, for pkg.T, the import
// path of pkg.
// goType is a named type: name, the import path of its package when
// imported, and coll when the value is a slice, array or map of it.
type goType struct {
	name, module string
	coll         bool
}

type goExtract struct {
	t       *tree
	k       *goTables
	b       *builder
	imports map[string]string            // local package name → import path
	types   map[string]string            // type declared in this file → node ID
	fields  map[string]map[string]goType // struct type → field → type
	elems   map[string]goType            // named slice/array/map type → element type
	vars    map[string]goType            // package-level variables typed by this file
	// spare is a finished declaration's scope, its maps cleared, for the
	// next declaration (go-std: 90 MB of scope maps made and grown).
	spare  *goScope
	isTest bool
	// generated files ("// Code generated … DO NOT EDIT.") keep their
	// functions and types but not their constant and variable tables,
	// which in the Go tree alone are ~150K nodes of opcode and errno
	// lists nobody navigates by.
	generated bool
}

// goScope is the context inside a function body.
type goScope struct {
	id       string
	recv     string // receiver variable
	recvType string
	vars     map[string]goType
	// locals are the names declared inside the function (parameters,
	// results, := and var, range and type-switch variables, type
	// parameters): a use of one is not a use of a package-level name.
	locals map[string]bool
	// paths are locals whose type another file tells: a receiver path the
	// resolver evaluates (goPath).
	paths map[string]string
	// calls are locals bound to the result of a call whose type the file
	// does not tell (x := pkg.F()): "pkg.F()", the receiver the resolver
	// types from F's declared result.
	calls map[string]string
	// used are the (module, name) uses already recorded: a body names the
	// same things many times, and the builder hashes every edge it sees.
	used map[[2]string]struct{}
}

// newGoScope returns an empty scope; its maps are made on first write
// (most functions need few of them, and go-std has 100,000 functions).
func newGoScope(id string) *goScope { return &goScope{id: id} }

// scope is newGoScope on the spare scope's cleared maps when there is one.
// A scope given to done must not be used after.
func (x *goExtract) scope(id string) *goScope {
	s := x.spare
	if s == nil {
		return newGoScope(id)
	}
	x.spare = nil
	s.id = id
	return s
}

// maxScopeSet bounds the maps a spare scope keeps: clearing costs time in
// proportion to a map's room, which a large function's maps keep.
const maxScopeSet = 256

// done keeps s, emptied, as the spare scope.
func (x *goExtract) done(s *goScope) {
	s.id, s.recv, s.recvType = "", "", ""
	s.vars = emptied(s.vars)
	s.locals = emptied(s.locals)
	s.paths = emptied(s.paths)
	s.calls = emptied(s.calls)
	s.used = emptied(s.used)
	x.spare = s
}

// emptied returns m cleared, or nil when it grew past maxScopeSet.
func emptied[K comparable, V any](m map[K]V) map[K]V {
	if len(m) > maxScopeSet {
		return nil
	}
	clear(m)
	return m
}

func (s *goScope) local(name string) {
	if s.locals == nil {
		s.locals = map[string]bool{}
	}
	s.locals[name] = true
}

func (s *goScope) typed(name string, t goType) {
	if s.vars == nil {
		s.vars = map[string]goType{}
	}
	s.vars[name] = t
}

// pathed records that local name's type is the receiver path p, which the
// resolver evaluates.
func (s *goScope) pathed(name, p string) {
	if s.paths == nil {
		s.paths = map[string]string{}
	}
	s.paths[name] = p
}

// bound types local name: by ty when known, else by the receiver path p
// (neither: nothing).
func (s *goScope) bound(name string, ty goType, p string) {
	switch {
	case ty.name != "":
		s.typed(name, ty)
	case p != "":
		s.pathed(name, p)
	}
}

// use records that the scope uses name (from module, "" for the package
// itself), once.
func (x *goExtract) use(s *goScope, name, module string, line uint32) {
	k := [2]string{module, name}
	if _, dup := s.used[k]; dup {
		return
	}
	if s.used == nil {
		s.used = map[[2]string]struct{}{}
	}
	s.used[k] = struct{}{}
	x.b.ref(s.id, name, RelReferences, line, RefHint{Module: module})
}

func (goExtractor) Extract(relPath string, src []byte) (*Result, error) {
	t, err := goGrammar.parse(src)
	if err != nil {
		return tooLargeOr(relPath, "go", src, err)
	}
	if t.errors > 0 {
		t = reparse(goGrammar, t, src, goNewOfValue(t))
	}
	defer t.release()
	x := &goExtract{
		t: t, k: goTablesGet(), b: newTreeBuilder(relPath, "go", t),
		imports: map[string]string{}, types: map[string]string{},
		fields: map[string]map[string]goType{}, elems: map[string]goType{},
		isTest: strings.HasSuffix(relPath, "_test.go"),
	}
	tags := []string{"go"}
	if x.isTest {
		tags = append(tags, KindTest)
	}
	if len(t.n) > 0 {
		x.generated = x.isGenerated()
	}
	if x.generated {
		tags = append(tags, "generated")
	}
	x.b.file(countLines(src), x.packageDoc(), tags...)
	if len(t.n) > 0 {
		x.prepass()
		x.top()
	}
	res := x.b.finish(t.errors)
	res.BuildConstraint = goBuildLine(src)
	return res, nil
}

// goBuildLine returns the expression of a //go:build line in the header
// (before the package clause), "" when there is none. Without one, the
// legacy "// +build" lines count, as go/build reads them (all must hold):
// rs/zerolog still picks its JSON or CBOR encoder by them alone.
func goBuildLine(src []byte) string {
	var plus constraint.Expr
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimSpace(line)
		switch {
		case bytes.HasPrefix(line, []byte("//go:build ")):
			return string(bytes.TrimSpace(line[len("//go:build "):]))
		case constraint.IsPlusBuild(string(line)):
			if x, err := constraint.Parse(string(line)); err == nil {
				plus = andExpr(plus, x)
			}
		case bytes.HasPrefix(line, []byte("package ")):
			src = nil
		}
	}
	if plus == nil {
		return ""
	}
	return plus.String()
}

func andExpr(a, b constraint.Expr) constraint.Expr {
	if a == nil {
		return b
	}
	return &constraint.AndExpr{X: a, Y: b}
}

func (x *goExtract) code(i int32) uint8 { return code(x.k.codes, x.t.n[i].kind) }

// packageDoc returns the first line of the comment right above the package
// clause ("// Package foo does …").
func (x *goExtract) packageDoc() string {
	t := x.t
	doc := int32(-1)
	for c := t.first(0); c >= 0; c = t.n[c].next {
		switch x.code(c) {
		case goComment:
			if doc < 0 || t.n[c].row > t.n[doc].endRow+1 {
				doc = c
			}
			continue
		case goPackageClause:
			if doc >= 0 && t.n[doc].endRow+1 >= t.n[c].row {
				return docLine(t.text(doc))
			}
		}
		break
	}
	return ""
}

// isGenerated looks for the standard marker in the comments before the
// package clause.
func (x *goExtract) isGenerated() bool {
	t := x.t
	for c := t.first(0); c >= 0; c = t.n[c].next {
		if x.code(c) != goComment {
			return false
		}
		txt := t.bytes(c)
		if bytesHasPrefix(txt, "// Code generated ") && bytes.HasSuffix(bytes.TrimRight(txt, "\r"), []byte("DO NOT EDIT.")) {
			return true
		}
	}
	return false
}

// prepass records imports, the types declared in the file and struct field
// types, so that bodies visited later can type receivers regardless of
// declaration order.
func (x *goExtract) prepass() {
	t, k := x.t, x.k
	for c := t.first(0); c >= 0; c = t.n[c].next {
		switch x.code(c) {
		case goImportDecl:
			x.importDecl(c)
		case goVarDecl, goConstDecl:
			x.packageVars(c)
		case goTypeDecl:
			for s := t.first(c); s >= 0; s = t.n[s].next {
				if code := x.code(s); code != goTypeSpec && code != goTypeAlias {
					continue
				}
				name := t.text(t.child(s, k.fName))
				if name == "" {
					continue
				}
				x.types[name] = ChildID(x.b.fileID, name)
				if ty := t.child(s, k.fType); ty >= 0 && x.code(ty) == goStructType {
					x.fields[name] = x.structFields(ty)
					x.exportFields(name)
				} else if et := x.typeOrElem(ty); et.coll {
					x.elems[name] = goType{name: et.name, module: et.module}
					x.member(name+"[]", x.elems[name])
				}
			}
		}
	}
}

func (x *goExtract) structFields(st int32) map[string]goType {
	t, k := x.t, x.k
	out := map[string]goType{}
	list := t.childKind(st, k.codes, goFieldDeclList)
	if list < 0 {
		return out
	}
	for f := t.first(list); f >= 0; f = t.n[f].next {
		if x.code(f) != goFieldDecl {
			continue
		}
		ty := x.typeOrElem(t.child(f, k.fType))
		for n := t.first(f); n >= 0; n = t.n[n].next {
			if t.n[n].field == k.fName {
				out[t.text(n)] = ty
			}
		}
		if t.child(f, k.fName) < 0 && ty.name != "" && !ty.coll {
			// Embedded field: its name is the type name.
			out[ty.name] = ty
		}
	}
	return out
}

func (x *goExtract) importDecl(i int32) {
	t, k := x.t, x.k
	end := t.end(i)
	for s := i + 1; s < end; s++ {
		if x.code(s) != goImportSpec {
			continue
		}
		p := t.child(s, k.fPath)
		if p < 0 {
			continue
		}
		ipath := unquoteGo(t.text(p))
		if ipath == "" {
			continue
		}
		alias := ""
		if n := t.child(s, k.fName); n >= 0 {
			alias = t.text(n)
		}
		x.b.imp(Import{Module: ipath, Alias: alias, Line: t.line(s)})
		local := alias
		if local == "" {
			local = goPackageName(ipath)
		}
		if local != "_" && local != "." {
			x.imports[local] = ipath
		}
		// A dot import (import . "pkg") puts pkg's names in file scope:
		// the resolver treats it as a star import.
		x.b.ref(x.b.fileID, goPackageName(ipath), RelImports, t.line(s), RefHint{Module: ipath})
	}
}

// goPackageName guesses the package name of an import path the way goimports
// does: the last element, without a major-version suffix ("/v2", ".v3") or a
// "go-" prefix / "-go" suffix.
func goPackageName(ipath string) string {
	elems := strings.Split(ipath, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && len(name) >= 2 && name[0] == 'v' && isDigits(name[1:]) {
		name = elems[len(elems)-2]
	}
	if i := strings.LastIndex(name, ".v"); i > 0 && isDigits(name[i+2:]) {
		name = name[:i]
	}
	name = strings.TrimPrefix(name, "go-")
	name = strings.TrimSuffix(name, "-go")
	name = strings.TrimSuffix(name, ".go")
	return strings.ReplaceAll(name, "-", "_")
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func unquoteGo(s string) string {
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return strings.Trim(s, "\"`")
}

func goVisibility(name string) string {
	if isUpperStart(name) {
		return VisExported
	}
	return VisPrivate
}

func (x *goExtract) top() {
	t := x.t
	for c := t.first(0); c >= 0; c = t.n[c].next {
		switch x.code(c) {
		case goPackageClause:
			if p := t.first(c); p >= 0 {
				x.b.res.Package = t.text(p)
			}
		case goFuncDecl:
			x.function(c)
		case goMethodDecl:
			x.method(c)
		case goTypeDecl:
			x.typeDecl(c)
		case goConstDecl, goVarDecl:
			if !x.generated {
				x.valueDecl(c)
			}
		}
	}
}

func (x *goExtract) function(i int32) {
	t, k := x.t, x.k
	name := t.text(t.child(i, k.fName))
	if name == "" {
		return
	}
	tags := []string{"go", KindFunction, goVisibility(name)}
	if x.isTest && goIsTestName(name) {
		tags = append(tags, KindTest)
	}
	id, _ := x.b.entity(x.b.fileID, name, graph.Function, t.line(i), t.endLine(i), excerpt(t.bytes(i)), tags...)
	s := x.scope(id)
	x.typeParams(i, s)
	x.signature(i, s)
	x.returns(i, id)
	x.arity(i, id)
	if body := t.child(i, k.fBody); body >= 0 {
		x.body(body, s)
	}
	x.done(s)
}

// returns records the named type a function or method returns first.
func (x *goExtract) returns(i int32, id string) {
	t, k := x.t, x.k
	r := t.child(i, k.fResult)
	if r < 0 {
		return
	}
	if x.code(r) == goParamList {
		x.laterResults(r, id)
		p := t.first(r)
		for p >= 0 && x.code(p) != goParamDecl {
			p = t.n[p].next
		}
		if p < 0 {
			return
		}
		r = t.child(p, k.fType)
	}
	if gt := x.typeOf(r); gt.name != "" {
		if x.b.res.Returns == nil {
			x.b.res.Returns = map[string]TypeRef{}
		}
		x.b.res.Returns[id] = TypeRef{Name: gt.name, Module: gt.module}
	}
}

// arity records a method's parameter and result counts.
func (x *goExtract) arity(i int32, id string) {
	t, k := x.t, x.k
	a := Arity{Params: x.countParams(t.child(i, k.fParams))}
	if r := t.child(i, k.fResult); r >= 0 {
		if x.code(r) == goParamList {
			a.Results = x.countParams(r)
		} else {
			a.Results = 1
		}
	}
	if x.b.res.Arity == nil {
		x.b.res.Arity = map[string]Arity{}
	}
	x.b.res.Arity[id] = a
}

// countParams counts the parameters of a list: each name, or each
// declaration without names (func(int, string)).
func (x *goExtract) countParams(pl int32) uint8 {
	t, k := x.t, x.k
	if pl < 0 {
		return 0
	}
	n := 0
	for p := t.first(pl); p >= 0; p = t.n[p].next {
		if c := x.code(p); c != goParamDecl && c != goVariadicParam {
			continue
		}
		names := 0
		for c := t.first(p); c >= 0; c = t.n[c].next {
			if t.n[c].field == k.fName {
				names++
			}
		}
		n += max(names, 1)
	}
	return uint8(min(n, 255))
}

// goIsTestName reports whether a _test.go function is run by go test.
func goIsTestName(name string) bool {
	for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			if rest == "" || rest[0] == '_' || isUpperStart(rest) {
				return true
			}
		}
	}
	return false
}

func (x *goExtract) method(i int32) {
	t, k := x.t, x.k
	name := t.text(t.child(i, k.fName))
	if name == "" {
		return
	}
	s := x.scope("")
	defer x.done(s)
	if rl := t.child(i, k.fReceiver); rl >= 0 {
		for p := t.first(rl); p >= 0; p = t.n[p].next {
			if x.code(p) != goParamDecl {
				continue
			}
			rt := t.child(p, k.fType)
			s.recvType = x.typeOf(rt).name
			if n := t.child(p, k.fName); n >= 0 {
				s.recv = t.text(n)
				s.local(s.recv)
			}
			x.receiverTypeParams(rt, s)
			break
		}
	}
	recv := s.recvType
	if recv == "" {
		recv = "_"
	}
	id := ChildID(ChildID(x.b.fileID, recv), name)
	parent := x.b.fileID
	_, local := x.types[recv]
	if local {
		parent = x.types[recv]
	}
	tags := []string{"go", KindMethod, goVisibility(name)}
	id, _ = x.b.entityAt(id, parent, name, graph.Function, t.line(i), t.endLine(i), excerpt(t.bytes(i)), tags...)
	if !local && s.recvType != "" {
		x.b.ref(id, s.recvType, RelMemberOf, t.line(i), RefHint{})
	}
	s.id = id
	if s.recv != "" && s.recvType != "" {
		s.typed(s.recv, goType{name: s.recvType})
	}
	x.signature(i, s)
	x.returns(i, id)
	x.arity(i, id)
	if body := t.child(i, k.fBody); body >= 0 {
		x.body(body, s)
	}
}

// signature records parameter types (as variables and references edges) and
// result types.
func (x *goExtract) signature(i int32, s *goScope) {
	t, k := x.t, x.k
	if pl := t.child(i, k.fParams); pl >= 0 {
		x.params(pl, s, true)
	}
	if r := t.child(i, k.fResult); r >= 0 {
		if x.code(r) == goParamList {
			x.params(r, s, false)
		} else {
			x.scopedTypeRefs(r, s)
		}
	}
}

func (x *goExtract) params(pl int32, s *goScope, bind bool) {
	t, k := x.t, x.k
	for p := t.first(pl); p >= 0; p = t.n[p].next {
		if c := x.code(p); c != goParamDecl && c != goVariadicParam {
			continue
		}
		ty := t.child(p, k.fType)
		x.scopedTypeRefs(ty, s)
		for n := t.first(p); n >= 0; n = t.n[n].next {
			if t.n[n].field == k.fName {
				s.local(t.text(n)) // named results too
			}
		}
		if !bind {
			continue
		}
		gt := x.typeOrElem(ty)
		if gt.name == "" {
			continue
		}
		for n := t.first(p); n >= 0; n = t.n[n].next {
			if t.n[n].field == k.fName {
				s.typed(t.text(n), gt)
			}
		}
	}
}

// typeOf returns the named type of a type node: T, *T, pkg.T, T[A].
func (x *goExtract) typeOf(ty int32) goType {
	t, k := x.t, x.k
	for depth := 0; ty >= 0 && depth < 8; depth++ {
		switch x.code(ty) {
		case goTypeIdent:
			if goBuiltinTypes[string(t.bytes(ty))] {
				return goType{}
			}
			return goType{name: t.text(ty)}
		case goPointerType:
			ty = t.first(ty)
		case goGenericType:
			ty = t.child(ty, k.fType)
		case goQualifiedType:
			pkg := t.bytes(t.child(ty, k.fPackage))
			return goType{name: t.text(t.child(ty, k.fName)), module: x.imports[string(pkg)]}
		default:
			return goType{}
		}
	}
	return goType{}
}

// typeRefs adds references edges from src to every named type in ty
// (including element types of slices, maps, channels and type arguments).
// Anonymous struct and interface types inside a signature still
// reference their field types: the walk goes through them.
func (x *goExtract) typeRefs(src string, ty int32) {
	t, k := x.t, x.k
	t.typeNames(ty, k.codes, goTypeIdent, goQualifiedType, func(j int32) {
		if b := t.bytes(j); !goBuiltinTypes[string(b)] && !isTypeParamName(string(b)) {
			x.b.ref(src, string(b), RelReferences, t.line(j), RefHint{})
		}
	}, func(j int32) {
		pkg := t.bytes(t.child(j, k.fPackage))
		x.b.ref(src, t.text(t.child(j, k.fName)), RelReferences, t.line(j), RefHint{Module: x.imports[string(pkg)]})
	})
}

func (x *goExtract) typeDecl(i int32) {
	t, k := x.t, x.k
	for s := t.first(i); s >= 0; s = t.n[s].next {
		code := x.code(s)
		if code != goTypeSpec && code != goTypeAlias {
			continue
		}
		name := t.text(t.child(s, k.fName))
		if name == "" {
			continue
		}
		ty := t.child(s, k.fType)
		typ, kind := graph.Type, KindTypeAlias
		if ty >= 0 {
			switch x.code(ty) {
			case goStructType:
				typ, kind = graph.Struct, KindStruct
			case goInterfaceType:
				kind = KindInterface
			}
		}
		// The excerpt of a type spec inside a grouped "type ( … )" is its
		// own line; a single declaration shows "type X struct {".
		exNode := s
		if t.first(i) == s && t.n[s].next < 0 && t.n[i].row == t.n[s].row {
			exNode = i
		}
		id, _ := x.b.entity(x.b.fileID, name, typ, t.line(s), t.endLine(s), excerpt(t.bytes(exNode)), "go", kind, goVisibility(name))
		if ty < 0 {
			continue
		}
		switch x.code(ty) {
		case goStructType:
			x.structBody(id, ty)
		case goInterfaceType:
			x.interfaceBody(id, ty)
		default:
			x.typeRefs(id, ty)
			if gt := x.typeOf(ty); code == goTypeAlias && gt.name != "" && !gt.coll {
				// type Positional = Value: an alias has its target's
				// methods, as an embedded type's are promoted.
				x.b.ref(id, gt.name, RelInherits, t.line(s), RefHint{Module: gt.module})
			}
		}
	}
}

func (x *goExtract) structBody(id string, st int32) {
	t, k := x.t, x.k
	list := t.childKind(st, k.codes, goFieldDeclList)
	if list < 0 {
		return
	}
	for f := t.first(list); f >= 0; f = t.n[f].next {
		if x.code(f) != goFieldDecl {
			continue
		}
		ty := t.child(f, k.fType)
		if t.child(f, k.fName) < 0 {
			// Embedding promotes the embedded type's methods: the closest
			// thing Go has to inheritance.
			if gt := x.typeOf(ty); gt.name != "" {
				x.b.ref(id, gt.name, RelInherits, t.line(f), RefHint{Module: gt.module})
			}
			continue
		}
		x.typeRefs(id, ty)
	}
}

func (x *goExtract) interfaceBody(id string, it int32) {
	t, k := x.t, x.k
	for m := t.first(it); m >= 0; m = t.n[m].next {
		switch x.code(m) {
		case goMethodElem:
			name := t.text(t.child(m, k.fName))
			if name == "" {
				continue
			}
			mid, _ := x.b.entity(id, name, graph.Function, t.line(m), t.endLine(m), excerpt(t.bytes(m)),
				"go", KindMethod, goVisibility(name), "abstract")
			s := x.scope(mid)
			x.signature(m, s)
			x.returns(m, mid)
			x.arity(m, mid)
			x.done(s)
		case goTypeElem:
			// Embedded interfaces (io.Reader) and type-set terms.
			for c := t.first(m); c >= 0; c = t.n[c].next {
				if gt := x.typeOf(c); gt.name != "" {
					x.b.ref(id, gt.name, RelInherits, t.line(c), RefHint{Module: gt.module})
				}
			}
		}
	}
}

// valueDecl handles top-level const and var declarations: one node per
// name, and the calls of the initialisers attributed to it.
func (x *goExtract) valueDecl(i int32) {
	t, k := x.t, x.k
	isConst := x.code(i) == goConstDecl
	kind := KindVariable
	if isConst {
		kind = KindConstant
	}
	end := t.end(i)
	for s := i + 1; s < end; s++ {
		if c := x.code(s); c != goConstSpec && c != goVarSpec {
			continue
		}
		var first string
		for n := t.first(s); n >= 0; n = t.n[n].next {
			if t.n[n].field != k.fName {
				continue
			}
			name := t.text(n)
			if name == "" || name == "_" {
				continue
			}
			id, _ := x.b.entity(x.b.fileID, name, graph.Reference, t.line(s), t.endLine(s), excerpt(t.bytes(s)),
				"go", kind, goVisibility(name))
			if first == "" {
				first = id
			}
		}
		src := first
		if src == "" {
			src = x.b.fileID
		}
		x.typeRefs(src, t.child(s, k.fType))
		if v := t.child(s, k.fValue); v >= 0 {
			sc := x.scope(src)
			x.body(v, sc)
			x.done(sc)
		}
		s = t.end(s) - 1
	}
}

// body walks statements and expressions: calls, and every use of a name
// declared outside the function — types (composite literals, conversions,
// assertions, make/new), package-level variables, constants and functions
// used as values, members of imported packages, fields of typed values —
// so that a file depends on every file whose declarations it uses, as the
// type checker would say. Local declarations are remembered so their uses
// are not taken for package-level names.
func (x *goExtract) body(i int32, s *goScope) {
	if i < 0 {
		return
	}
	t, k := x.t, x.k
	switch x.code(i) {
	case goCall:
		x.call(i, s)
		return
	case goShortVar:
		x.declare(t.child(i, k.fLeft), s)
		x.bindValues(i, s)
		x.body(t.child(i, k.fRight), s)
		return
	case goRangeClause, goReceiveStmt:
		x.declare(t.child(i, k.fLeft), s)
		if x.code(i) == goRangeClause {
			x.rangeValue(i, s)
		}
		x.body(t.child(i, k.fRight), s)
		return
	case goTypeSwitch:
		x.typeSwitch(i, s)
		return
	case goVarSpec, goConstSpec:
		for n := t.first(i); n >= 0; n = t.n[n].next {
			if t.n[n].field == k.fName {
				s.local(t.text(n))
			}
		}
		if ty := x.typeOrElem(t.child(i, k.fType)); ty.name != "" && x.code(i) == goVarSpec {
			for n := t.first(i); n >= 0; n = t.n[n].next {
				if t.n[n].field == k.fName {
					s.typed(t.text(n), ty)
				}
			}
		} else {
			x.bindValues(i, s)
		}
		x.scopedTypeRefs(t.child(i, k.fType), s)
		x.body(t.child(i, k.fValue), s)
		return
	case goParamDecl, goVariadicParam:
		// A function literal's parameters.
		gt := x.typeOrElem(t.child(i, k.fType))
		for n := t.first(i); n >= 0; n = t.n[n].next {
			if t.n[n].field == k.fName {
				s.local(t.text(n))
				if gt.name != "" {
					s.typed(t.text(n), gt)
				}
			}
		}
		x.scopedTypeRefs(t.child(i, k.fType), s)
		return
	case goKeyedElement:
		// {Key: value}: a plain identifier key names a struct field.
		if key := t.child(i, k.fKey); key >= 0 {
			if c := t.first(key); c < 0 || x.code(c) != goIdent {
				x.body(key, s)
			}
		}
		x.body(t.child(i, k.fValue), s)
		return
	case goTypeIdent, goQualifiedType, goGenericType:
		x.scopedTypeRefs(i, s)
		return
	case goSelector:
		x.selectorUse(i, s)
		return
	case goIdent:
		x.identUse(i, s)
		return
	}
	for c := t.first(i); c >= 0; c = t.n[c].next {
		x.body(c, s)
	}
}

// typeSwitch walks switch v := x.(type): in a case naming one type, v has
// that type (case *Node: v.Vars() calls Node's Vars); elsewhere it is an
// untyped local.
func (x *goExtract) typeSwitch(i int32, s *goScope) {
	t, k := x.t, x.k
	alias := t.child(i, k.fAlias)
	x.declare(alias, s)
	name := ""
	if alias >= 0 && x.code(alias) == goIdent {
		name = t.text(alias)
	} else if alias >= 0 {
		if n := t.first(alias); n >= 0 && t.n[n].next < 0 && x.code(n) == goIdent {
			name = t.text(n)
		}
	}
	// The alias is scoped to the switch: it often shadows the switched
	// variable itself (switch rows := rows.(type)), whose type holds again
	// after it.
	outer := s.save(name)
	for c := t.first(i); c >= 0; c = t.n[c].next {
		if c == alias {
			continue
		}
		if name != "" && x.code(c) == goTypeCase {
			s.forget(name)
			if ty := x.caseType(c); ty.name != "" {
				s.typed(name, ty)
			}
		}
		x.body(c, s)
	}
	if name != "" {
		s.restore(name, outer)
	}
}

// caseType is the one type a type switch's case names (none when it
// names several, or nil).
func (x *goExtract) caseType(c int32) goType {
	t := x.t
	ty := int32(-1)
	for n := t.first(c); n >= 0; n = t.n[n].next {
		if t.n[n].field != x.k.fType {
			continue
		}
		if ty >= 0 {
			return goType{}
		}
		ty = n
	}
	if ty < 0 || t.text(ty) == "nil" {
		return goType{}
	}
	return x.typeOrElem(ty)
}

// declare marks the identifiers of a declaration's left side as locals.
func (x *goExtract) declare(list int32, s *goScope) {
	t := x.t
	if list < 0 {
		return
	}
	if x.code(list) == goIdent {
		s.local(t.text(list))
		return
	}
	for n := t.first(list); n >= 0; n = t.n[n].next {
		if x.code(n) == goIdent {
			s.local(t.text(n))
		}
	}
}

// identUse records a plain name used as a value: a package-level
// variable, constant or function of the same package (the resolver keeps
// only those), unless a local, a builtin or an import shadows it.
func (x *goExtract) identUse(i int32, s *goScope) {
	// Most identifiers are locals, predeclared or imported: they are
	// looked up in the source's bytes, and only a use gets a string
	// (go-std: 310,000 strings a run).
	b := x.t.bytes(i)
	if len(b) == 0 || string(b) == "_" || s.locals[string(b)] || goPredeclared[string(b)] || goBuiltinFuncs[string(b)] {
		return
	}
	if _, ok := x.imports[string(b)]; ok {
		return
	}
	if string(b) == s.recv {
		return
	}
	x.use(s, string(b), "", x.t.line(i))
}

// selectorUse records op.Name in value position: a member of an imported
// package (pkg.Const, pkg.Var, pkg.Func as a value), or a field or method
// value of a typed variable — a use of its type.
func (x *goExtract) selectorUse(i int32, s *goScope) {
	t, k := x.t, x.k
	op := t.child(i, k.fOperand)
	if op < 0 {
		return
	}
	if x.code(op) != goIdent {
		x.body(op, s)
		return
	}
	name := t.bytes(op) // looked up only: identUse makes the string
	line := t.line(i)
	if ty, ok := s.vars[string(name)]; ok {
		x.use(s, ty.name, ty.module, line)
		return
	}
	if s.locals[string(name)] {
		return
	}
	if mod, ok := x.imports[string(name)]; ok {
		if field := t.text(t.child(i, k.fField)); field != "" {
			x.use(s, field, mod, line)
		}
		return
	}
	x.identUse(op, s)
}

// scopedTypeRefs is typeRefs that skips the function's type parameters.
func (x *goExtract) scopedTypeRefs(ty int32, s *goScope) {
	if ty < 0 {
		return
	}
	if len(s.locals) == 0 {
		x.typeRefs(s.id, ty)
		return
	}
	t := x.t
	end := t.end(ty)
	for j := ty; j < end; j++ {
		switch x.code(j) {
		case goTypeIdent:
			if p := t.n[j].parent; p >= 0 && x.code(p) == goQualifiedType {
				continue
			}
			if name := t.text(j); !s.locals[name] && !goBuiltinTypes[name] && !isTypeParamName(name) {
				x.use(s, name, "", t.line(j))
			}
		case goQualifiedType:
			x.typeRefs(s.id, j)
			j = t.end(j) - 1
		}
	}
}

// typeParams marks a generic function's type parameters as locals.
func (x *goExtract) typeParams(i int32, s *goScope) {
	t, k := x.t, x.k
	tp := t.child(i, k.fTypeParams)
	if tp < 0 {
		return
	}
	for d := t.first(tp); d >= 0; d = t.n[d].next {
		if x.code(d) != goTypeParamDecl {
			continue
		}
		for n := t.first(d); n >= 0; n = t.n[n].next {
			if t.n[n].field == k.fName {
				s.local(t.text(n))
			}
		}
		x.scopedTypeRefs(t.child(d, k.fType), s)
	}
}

// receiverTypeParams marks the type parameters of a generic receiver,
// func (l *List[T]) ..., as locals.
func (x *goExtract) receiverTypeParams(rt int32, s *goScope) {
	t := x.t
	if rt < 0 {
		return
	}
	end := t.end(rt)
	for j := rt; j < end; j++ {
		if x.code(j) == goTypeIdent {
			if p := t.n[j].parent; p >= 0 && x.code(p) != goGenericType && x.code(p) != goPointerType {
				s.local(t.text(j))
			}
		}
	}
}

// goPredeclared are the universe-scope names that are not types or
// builtin functions.
var goPredeclared = map[string]bool{"true": true, "false": true, "nil": true, "iota": true}

// bindValues types the variables of `a, b := v1, v2` (and var a = v) from
// the values when the values make the type evident.
func (x *goExtract) bindValues(i int32, s *goScope) {
	t, k := x.t, x.k
	var left, right int32
	if x.code(i) == goShortVar {
		left, right = t.child(i, k.fLeft), t.child(i, k.fRight)
	} else {
		left, right = i, t.child(i, k.fValue)
	}
	if left < 0 || right < 0 {
		return
	}
	var names []string
	for n := t.first(left); n >= 0; n = t.n[n].next {
		if x.code(i) == goShortVar || t.n[n].field == k.fName {
			if x.code(n) == goIdent {
				names = append(names, t.text(n))
			} else {
				names = append(names, "")
			}
		}
	}
	vi := 0
	for v := t.first(right); v >= 0 && vi < len(names); v = t.n[v].next {
		if names[vi] == "" || names[vi] == "_" {
			vi++
			continue
		}
		s.forget(names[vi])
		if ty := x.valueType(v); ty.name != "" {
			s.typed(names[vi], ty)
		} else if x.code(v) != goCall || x.isMethodCall(v, s) {
			x.bindPath(names[vi], v, s)
		} else if p := x.funcCallPath(v, s); p != "" {
			s.pathed(names[vi], p)
		} else if x.code(v) == goCall {
			if fn := t.child(v, k.fFunction); fn >= 0 && len(t.text(fn)) <= 76 {
				if s.calls == nil {
					s.calls = map[string]string{}
				}
				s.calls[names[vi]] = t.text(fn) + "()"
			}
		}
		vi++
	}
	if v := t.first(right); len(names) > 1 && v >= 0 && t.n[v].next < 0 && x.code(v) == goCall {
		x.bindResults(names, v, s) // a, b := f(): b is f's second result
	}
}

// valueType infers the type of an expression from this file alone:
// T{…}, &T{…}, NewT(…) and T(x) for a type T of the file, new(T).
// pkg.NewT(…) is typed by its declared result instead (a receiver path).
func (x *goExtract) valueType(v int32) goType {
	t, k := x.t, x.k
	switch x.code(v) {
	case goComposite:
		return x.typeOf(t.child(v, k.fType))
	case goUnary:
		if op := t.child(v, k.fOperand); op >= 0 && x.code(op) == goComposite {
			return x.typeOf(t.child(op, k.fType))
		}
	case goCall:
		fn := t.child(v, k.fFunction)
		if fn < 0 {
			return goType{}
		}
		switch x.code(fn) {
		case goIdent:
			name := t.text(fn)
			if name == "new" {
				if args := t.child(v, k.fArgs); args >= 0 {
					return x.typeOf(t.first(args))
				}
			}
			if _, ok := x.types[name]; ok {
				return goType{name: name}
			}
			if rest, ok := strings.CutPrefix(name, "New"); ok && isUpperStart(rest) {
				if _, local := x.types[rest]; local {
					return goType{name: rest}
				}
				// NewT declared elsewhere: its declared result types the
				// value (a receiver path), not its name.
			}
		}
	}
	return goType{}
}

func (x *goExtract) call(i int32, s *goScope) {
	t, k := x.t, x.k
	fn := t.child(i, k.fFunction)
	line := t.line(i)
	if fn >= 0 {
		switch x.code(fn) {
		case goIdent:
			name := t.text(fn)
			if !goBuiltinFuncs[name] {
				x.b.ref(s.id, name, RelCalls, line, RefHint{})
			}
		case goSelector:
			op := t.child(fn, k.fOperand)
			name := t.text(t.child(fn, k.fField))
			h := x.selectorHint(op, s)
			x.b.ref(s.id, name, RelCalls, line, h)
			if op >= 0 && x.code(op) != goIdent {
				x.body(op, s)
			}
		default:
			x.body(fn, s)
		}
	}
	if args := t.child(i, k.fArgs); args >= 0 {
		x.body(args, s)
	}
}

// selectorHint describes the receiver of op.Name(): a package (Module), a
// typed variable (ReceiverType, Module of its package), or a field of one.
func (x *goExtract) selectorHint(op int32, s *goScope) RefHint {
	t := x.t
	if op < 0 {
		return RefHint{}
	}
	recv := t.text(op)
	h := RefHint{Receiver: trimReceiver(recv)}
	switch x.code(op) {
	case goIdent:
		if ty, ok := s.vars[recv]; ok {
			if !ty.coll {
				h.ReceiverType, h.Module = ty.name, ty.module
			}
			return h
		}
		if p, ok := s.paths[recv]; ok {
			h.Receiver = p
			return h
		}
		if call, ok := s.calls[recv]; ok {
			h.Receiver = call
			return h
		}
		if mod, ok := x.imports[recv]; ok {
			h.Module = mod
			return h
		}
		if _, ok := x.types[recv]; ok {
			// T.Method used as a method expression call.
			h.ReceiverType = recv
			return h
		}
		if ty, p := x.exprType(op, s, 0); ty.name != "" && !ty.coll {
			h.ReceiverType, h.Module = ty.name, ty.module
		} else if p != "" {
			h.Receiver = p // a package-level variable
		}
	case goSelector, goIndexExpr, goCall, goTypeAssert:
		// v.field.M(), v[i].M(), v.N().M(): typed here when this file
		// declares every type on the way, else a path for the resolver.
		if ty, p := x.exprType(op, s, 0); ty.name != "" && !ty.coll {
			h.ReceiverType, h.Module = ty.name, ty.module
		} else if p != "" {
			h.Receiver = p
		}
	case goParenExpr:
		// (*T)(nil).M() and similar conversions.
		if c := t.first(op); c >= 0 {
			if gt := x.typeOf(c); gt.name != "" {
				h.ReceiverType, h.Module = gt.name, gt.module
			}
		}
	}
	return h
}

var goBuiltinTypes = map[string]bool{
	"bool": true, "byte": true, "rune": true, "string": true, "error": true, "any": true,
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"float32": true, "float64": true, "complex64": true, "complex128": true, "comparable": true,
}

var goBuiltinFuncs = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true, "new": true,
	"panic": true, "print": true, "println": true, "real": true, "recover": true,
	// Conversions to builtin types look like calls.
	"string": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"float32": true, "float64": true, "byte": true, "rune": true, "bool": true,
	"complex64": true, "complex128": true,
}
