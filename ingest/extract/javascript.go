package extract

import (
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

var (
	javascriptGrammar = newGrammar("javascript", tsjs.Language)
	typescriptGrammar = newGrammar("typescript", tsts.LanguageTypescript)
	tsxGrammar        = newGrammar("tsx", tsts.LanguageTSX)
)

// JavaScript/TypeScript node kinds. One table serves the three grammars;
// kinds a grammar lacks (interfaces in JavaScript) simply never occur.
const (
	jsNone uint8 = iota
	jsProgram
	jsImportStmt
	jsImportClause
	jsNamedImports
	jsImportSpecifier
	jsNamespaceImport
	jsImportRequire
	jsExportStmt
	jsExportClause
	jsExportSpecifier
	jsClassDecl
	jsAbstractClassDecl
	jsClass
	jsClassHeritage
	jsExtendsClause
	jsImplementsClause
	jsClassBody
	jsMethodDef
	jsMethodSig
	jsAbstractMethodSig
	jsPublicField
	jsField
	jsFunctionDecl
	jsGeneratorDecl
	jsFunctionExpr
	jsGeneratorExpr
	jsArrow
	jsFunctionSig
	jsLexicalDecl
	jsVariableDecl
	jsDeclarator
	jsInterfaceDecl
	jsExtendsType
	jsInterfaceBody
	jsObjectType
	jsPropertySig
	jsTypeAlias
	jsEnumDecl
	jsInternalModule
	jsModule
	jsAmbient
	jsCall
	jsNew
	jsMember
	jsIdentifier
	jsPropertyIdent
	jsPrivatePropertyIdent
	jsTypeIdent
	jsNestedTypeIdent
	jsGenericType
	jsTypeAnnotation
	jsRequiredParam
	jsOptionalParam
	jsFormalParams
	jsAssignmentPattern
	jsAccessibility
	jsDecorator
	jsString
	jsStringFragment
	jsTemplateString
	jsThis
	jsSuper
	jsArguments
	jsStatementBlock
	jsAssignment
	jsJSXOpening
	jsJSXSelfClosing
	jsComment
	jsImport
	jsNestedIdent
	jsParenExpr
	jsAwait
	jsNonNull
	jsObjectPattern
	jsShorthandPattern
	jsPairPattern
	jsNamespaceExport
	jsExprStmt
	jsHashBang
)

var jsKindNames = []string{
	"program", "import_statement", "import_clause", "named_imports", "import_specifier",
	"namespace_import", "import_require_clause", "export_statement", "export_clause",
	"export_specifier", "class_declaration", "abstract_class_declaration", "class",
	"class_heritage", "extends_clause", "implements_clause", "class_body", "method_definition",
	"method_signature", "abstract_method_signature", "public_field_definition", "field_definition",
	"function_declaration", "generator_function_declaration", "function_expression",
	"generator_function", "arrow_function", "function_signature", "lexical_declaration",
	"variable_declaration", "variable_declarator", "interface_declaration", "extends_type_clause",
	"interface_body", "object_type", "property_signature", "type_alias_declaration",
	"enum_declaration", "internal_module", "module", "ambient_declaration", "call_expression",
	"new_expression", "member_expression", "identifier", "property_identifier",
	"private_property_identifier", "type_identifier", "nested_type_identifier", "generic_type",
	"type_annotation", "required_parameter", "optional_parameter", "formal_parameters",
	"assignment_pattern", "accessibility_modifier", "decorator", "string", "string_fragment",
	"template_string", "this", "super", "arguments", "statement_block", "assignment_expression",
	"jsx_opening_element", "jsx_self_closing_element", "comment", "import", "nested_identifier",
	"parenthesized_expression", "await_expression", "non_null_expression", "object_pattern",
	"shorthand_property_identifier_pattern", "pair_pattern", "namespace_export",
	"expression_statement", "hash_bang_line",
}

type jsTables struct {
	codes                                                    []uint8
	fName, fBody, fParams, fReturn, fSource, fAlias, fValue  uint16
	fFunction, fArgs, fObject, fProperty, fConstructor, fKey uint16
	fType, fDecl, fLeft, fRight, fPattern, fParameter, fMod  uint16
	fMember, fDecorator, fKind                               uint16
}

func newJSTables(g *grammar) *jsTables {
	return &jsTables{
		codes: g.codes(jsKindNames...),
		fName: g.field("name"), fBody: g.field("body"), fParams: g.field("parameters"),
		fReturn: g.field("return_type"), fSource: g.field("source"), fAlias: g.field("alias"),
		fValue: g.field("value"), fFunction: g.field("function"), fArgs: g.field("arguments"),
		fObject: g.field("object"), fProperty: g.field("property"), fConstructor: g.field("constructor"),
		fKey: g.field("key"), fType: g.field("type"), fDecl: g.field("declaration"),
		fLeft: g.field("left"), fRight: g.field("right"), fPattern: g.field("pattern"),
		fParameter: g.field("parameter"), fMod: g.field("module"), fMember: g.field("member"),
		fDecorator: g.field("decorator"), fKind: g.field("kind"),
	}
}

// jsExtractor serves JavaScript (with JSX), TypeScript and TSX.
type jsExtractor struct {
	lang string
	g    *grammar
	exts []string
	once *sync.Once
	tab  **jsTables
}

func newJSExtractor(lang string, g *grammar, exts ...string) jsExtractor {
	return jsExtractor{lang: lang, g: g, exts: exts, once: new(sync.Once), tab: new(*jsTables)}
}

func (e jsExtractor) Language() string     { return e.lang }
func (e jsExtractor) Extensions() []string { return e.exts }

func (e jsExtractor) tables() *jsTables {
	e.once.Do(func() { *e.tab = newJSTables(e.g) })
	return *e.tab
}

type jsClassInfo struct {
	name    string
	id      string
	bases   []string
	attrs   map[string]string // this.attr → type
	pending []pendingCall
}

type jsScope struct {
	id    string
	class *jsClassInfo
	vars  map[string]string // variable → type
	fn    bool              // inside a function body
}

type jsExtract struct {
	t       *tree
	k       *jsTables
	b       *builder
	lang    string
	imports map[string]binding
	classes map[string]bool
	isTest  bool
	// declOnly: a .d.ts file, whose imports are all type-only.
	declOnly bool
}

func (e jsExtractor) Extract(relPath string, src []byte) (*Result, error) {
	t, err := e.g.parse(src)
	if err != nil {
		return tooLargeOr(relPath, e.lang, src, err)
	}
	if t.errors > 0 && e.lang != "javascript" {
		t = reparse(e.g, t, src, tsBlankVariance)
	}
	defer t.release()
	base := path.Base(relPath)
	x := &jsExtract{
		t: t, k: e.tables(), b: newTreeBuilder(relPath, e.lang, t), lang: e.lang,
		imports: map[string]binding{}, classes: map[string]bool{},
		isTest: jsIsTestFile(base),
		// A declaration file is read by the type checker only: its
		// imports never run.
		declOnly: strings.HasSuffix(base, ".d.ts") || strings.HasSuffix(base, ".d.mts") || strings.HasSuffix(base, ".d.cts"),
	}
	tags := []string{e.lang}
	if x.isTest {
		tags = append(tags, KindTest)
	}
	x.b.file(countLines(src), x.leadingDoc(), markGenerated(src, tags)...)
	if len(t.n) > 0 {
		x.collect(0)
		x.stmts(0, &jsScope{id: x.b.fileID, vars: map[string]string{}}, false)
	}
	return x.b.finish(t.errors), nil
}

// jsIsTestFile matches foo.test.ts, foo.spec.js, foo_test.js and files
// under __tests__.
func jsIsTestFile(base string) bool {
	stem := strings.TrimSuffix(base, path.Ext(base))
	return strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec") ||
		strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, "-test")
}

func (x *jsExtract) code(i int32) uint8 {
	if i < 0 {
		return jsNone
	}
	return code(x.k.codes, x.t.n[i].kind)
}

// leadingDoc returns the first line of the comment opening the file (after
// a shebang).
func (x *jsExtract) leadingDoc() string {
	t := x.t
	c := t.first(0)
	if c >= 0 && x.code(c) == jsHashBang {
		c = t.n[c].next
	}
	if c >= 0 && x.code(c) == jsComment {
		if d := docLine(t.text(c)); d != "" && !strings.HasPrefix(d, "eslint") && !strings.HasPrefix(d, "@ts-") {
			return d
		}
	}
	return ""
}

// collect records the classes declared at top level (also when exported).
func (x *jsExtract) collect(root int32) {
	t, k := x.t, x.k
	for c := t.first(root); c >= 0; c = t.n[c].next {
		d := c
		if x.code(c) == jsExportStmt {
			d = t.child(c, k.fDecl)
		}
		switch x.code(d) {
		case jsClassDecl, jsAbstractClassDecl:
			if n := t.child(d, k.fName); n >= 0 {
				x.classes[t.text(n)] = true
			}
		}
	}
}

// stmts visits the children of i.
func (x *jsExtract) stmts(i int32, s *jsScope, exported bool) {
	for c := x.t.first(i); c >= 0; c = x.t.n[c].next {
		x.visit(c, s, exported)
	}
}

func (x *jsExtract) visit(i int32, s *jsScope, exported bool) {
	t, k := x.t, x.k
	switch x.code(i) {
	case jsImportStmt:
		x.importStmt(i)
	case jsExportStmt:
		if src := t.child(i, k.fSource); src >= 0 {
			x.reexport(i, src)
			return
		}
		var decos []int32
		for c := t.first(i); c >= 0; c = t.n[c].next {
			if x.code(c) == jsDecorator {
				decos = append(decos, c)
			}
		}
		x.defaultExport(i)
		if d := t.child(i, k.fDecl); d >= 0 {
			x.declaration(d, s, true, decos)
			return
		}
		if ec := t.childKind(i, k.codes, jsExportClause); ec >= 0 {
			x.exportImported(ec)
		}
		x.stmts(i, s, true)
	case jsClassDecl, jsAbstractClassDecl, jsFunctionDecl, jsGeneratorDecl, jsFunctionSig,
		jsLexicalDecl, jsVariableDecl, jsInterfaceDecl, jsTypeAlias, jsEnumDecl, jsInternalModule,
		jsModule, jsAmbient:
		x.declaration(i, s, exported, nil)
	case jsClass:
		x.class(i, s, exported, nil)
	case jsCall:
		x.call(i, s)
	case jsNew:
		x.newExpr(i, s)
	case jsAssignment:
		x.assignment(i, s)
	case jsJSXOpening, jsJSXSelfClosing:
		if n := t.child(i, k.fName); n >= 0 {
			name := t.text(n)
			if isUpperStart(name) || strings.Contains(name, ".") {
				// <Widget/> renders (calls) the Widget component.
				recv, fn := splitLast(name, ".")
				h := x.bindingHint(fn)
				if recv != "" {
					h = x.memberHint(recv, s)
				} else if b, ok := x.imports[fn]; ok && b.name != "" && b.name != "default" {
					fn = b.name
				}
				x.b.ref(s.id, fn, RelCalls, t.line(i), h)
			}
		}
		x.stmts(i, s, false)
	case jsFunctionExpr, jsGeneratorExpr, jsArrow:
		// Anonymous functions: their calls belong to the enclosing scope;
		// typed parameters still bind.
		x.params(i, s, s.id, false)
		x.stmts(i, s, false)
	default:
		x.stmts(i, s, false)
	}
}

func (x *jsExtract) declaration(i int32, s *jsScope, exported bool, decos []int32) {
	t, k := x.t, x.k
	switch x.code(i) {
	case jsClassDecl, jsAbstractClassDecl, jsClass:
		x.class(i, s, exported, decos)
	case jsFunctionDecl, jsGeneratorDecl, jsFunctionSig:
		name := t.text(t.child(i, k.fName))
		x.function(i, i, name, s, exported, KindFunction, nil)
	case jsLexicalDecl, jsVariableDecl:
		isConst := bytesHasPrefix(t.bytes(i), "const")
		for d := t.first(i); d >= 0; d = t.n[d].next {
			if x.code(d) == jsDeclarator {
				x.declarator(d, s, exported, isConst)
			}
		}
	case jsInterfaceDecl:
		x.iface(i, s, exported)
	case jsTypeAlias:
		name := t.text(t.child(i, k.fName))
		if name != "" {
			id, _ := x.b.entity(s.id, name, graph.Type, t.line(i), t.endLine(i), sigExcerpt(t.bytes(i)), x.tags(KindTypeAlias, exported)...)
			x.typeRefs(id, t.child(i, k.fValue))
		}
	case jsEnumDecl:
		name := t.text(t.child(i, k.fName))
		if name != "" {
			x.b.entity(s.id, name, graph.Enum, t.line(i), t.endLine(i), sigExcerpt(t.bytes(i)), x.tags(KindEnum, exported)...)
		}
	case jsInternalModule, jsModule:
		name := cleanName(strings.Trim(t.text(t.child(i, k.fName)), `"'`))
		if name == "" {
			x.stmts(i, s, false)
			return
		}
		id, _ := x.b.entity(s.id, name, graph.Module, t.line(i), t.endLine(i), sigExcerpt(t.bytes(i)), x.tags(KindModule, exported)...)
		if body := t.child(i, k.fBody); body >= 0 {
			x.stmts(body, &jsScope{id: id, vars: map[string]string{}}, false)
		}
	case jsAmbient:
		// declare …: the declarations inside are real API surface.
		x.stmts(i, s, exported)
	default:
		x.visit(i, s, exported)
	}
}

func (x *jsExtract) tags(kind string, exported bool, extra ...string) []string {
	tags := []string{x.lang, kind}
	if exported {
		tags = append(tags, VisExported)
	}
	return append(tags, extra...)
}

// declarator handles `const f = () => …` (a function), `const x = new T()`
// (a typed variable), `const m = require("m")` (an import) and plain
// top-level values.
func (x *jsExtract) declarator(d int32, s *jsScope, exported, isConst bool) {
	t, k := x.t, x.k
	nameNode := t.child(d, k.fName)
	val := t.child(d, k.fValue)
	// Unwrap `await import(...)`.
	if x.code(val) == jsAwait {
		val = t.first(val)
	}
	if x.code(val) == jsCall && x.isRequire(val) {
		x.requireDecl(nameNode, val)
		return
	}
	if x.code(nameNode) != jsIdentifier {
		if val >= 0 {
			x.visit(val, s, false)
		}
		return
	}
	name := t.text(nameNode)
	switch x.code(val) {
	case jsArrow, jsFunctionExpr, jsGeneratorExpr:
		x.function(d, val, name, s, exported, KindFunction, nil)
		return
	case jsClass:
		x.class(val, s, exported, nil)
		return
	}
	if ty := t.child(d, k.fType); ty >= 0 {
		if tn := x.typeName(ty); tn != "" {
			s.vars[name] = tn
		}
		x.typeRefs(s.id, ty)
	} else if tn := x.constructed(val); tn != "" {
		s.vars[name] = tn
	}
	src := s.id
	if !s.fn && s.class == nil {
		kind := KindVariable
		if isConst {
			kind = KindConstant
		}
		if id, ok := x.b.entity(s.id, name, graph.Reference, t.line(d), t.endLine(d), sigExcerpt(t.bytes(d)), x.tags(kind, exported)...); ok {
			src = id
		}
	}
	if val >= 0 {
		x.visit(val, &jsScope{id: src, class: s.class, vars: s.vars, fn: s.fn}, false)
	}
}

// constructed returns T for `new T(…)` (also `new ns.T(…)`).
func (x *jsExtract) constructed(v int32) string {
	t, k := x.t, x.k
	if x.code(v) == jsAwait {
		v = t.first(v)
	}
	if x.code(v) != jsNew {
		return ""
	}
	c := t.child(v, k.fConstructor)
	switch x.code(c) {
	case jsIdentifier:
		return t.text(c)
	case jsMember:
		return t.text(t.child(c, k.fProperty))
	}
	return ""
}

func (x *jsExtract) isRequire(call int32) bool {
	fn := x.t.child(call, x.k.fFunction)
	return x.code(fn) == jsIdentifier && string(x.t.bytes(fn)) == "require"
}

// firstStringArg returns the unquoted first argument of a call if it is a
// string literal.
func (x *jsExtract) firstStringArg(call int32) string {
	args := x.t.child(call, x.k.fArgs)
	if args < 0 {
		return ""
	}
	a := x.t.first(args)
	if a < 0 {
		return ""
	}
	switch x.code(a) {
	case jsString, jsTemplateString:
		return unquoteJS(x.t.text(a))
	}
	return ""
}

func unquoteJS(s string) string {
	if len(s) >= 2 {
		if q := s[0]; (q == '"' || q == '\'' || q == '`') && s[len(s)-1] == q {
			return s[1 : len(s)-1]
		}
	}
	return s
}

// moduleStem names a module for import edges: "./utils/index.js" → "index",
// "@scope/pkg" → "pkg", "lodash/fp" → "fp".
func moduleStem(m string) string { return ModuleStem(m) }

// ModuleStem is the name a JS/TS module's own import ref carries: the
// last path segment without a script extension ("./utils/delay.js" →
// "delay", "." → "index").
func ModuleStem(m string) string {
	m = strings.TrimRight(m, "/")
	m = lastSegment(m, "/", ":")
	if ext := path.Ext(m); ext != "" && ext != m {
		switch ext {
		case ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".mts", ".cts", ".json", ".css", ".scss", ".vue", ".svelte":
			m = strings.TrimSuffix(m, ext)
		}
	}
	if m == "" || m == "." || m == ".." {
		return "index"
	}
	return m
}

func (x *jsExtract) requireDecl(nameNode, call int32) {
	t, k := x.t, x.k
	mod := x.firstStringArg(call)
	if mod == "" {
		return
	}
	line := t.line(call)
	im := Import{Module: mod, Line: line}
	switch x.code(nameNode) {
	case jsIdentifier:
		im.Alias = t.text(nameNode)
		x.imports[im.Alias] = binding{module: mod}
		x.b.ref(x.b.fileID, moduleStem(mod), RelImports, line, RefHint{Module: mod})
	case jsObjectPattern:
		for p := t.first(nameNode); p >= 0; p = t.n[p].next {
			var name, local string
			switch x.code(p) {
			case jsShorthandPattern:
				name = t.text(p)
				local = name
			case jsPairPattern:
				name = strings.Trim(t.text(t.child(p, k.fKey)), `"'`)
				if v := t.child(p, k.fValue); x.code(v) == jsIdentifier {
					local = t.text(v)
				}
			}
			if name == "" {
				continue
			}
			im.Names = append(im.Names, name)
			if local != "" {
				x.imports[local] = binding{module: mod, name: name}
			}
			x.b.ref(x.b.fileID, name, RelImports, line, RefHint{Module: mod})
		}
	default:
		x.b.ref(x.b.fileID, moduleStem(mod), RelImports, line, RefHint{Module: mod})
	}
	x.moduleRef(mod, line, RelImports)
	x.b.imp(im)
}

func (x *jsExtract) importStmt(i int32) {
	t, k := x.t, x.k
	src := t.child(i, k.fSource)
	mod := unquoteJS(t.text(src))
	line := t.line(i)
	if req := t.childKind(i, k.codes, jsImportRequire); req >= 0 {
		// import x = require("m")
		mod = unquoteJS(t.text(t.child(req, k.fSource)))
		if id := t.childKind(req, k.codes, jsIdentifier); id >= 0 && mod != "" {
			alias := t.text(id)
			x.imports[alias] = binding{module: mod}
			x.b.imp(Import{Module: mod, Alias: alias, Line: line})
			x.b.ref(x.b.fileID, moduleStem(mod), RelImports, line, RefHint{Module: mod})
		}
		return
	}
	if mod == "" {
		return
	}
	im := Import{Module: mod, Line: line}
	whole := true // side-effect, default or namespace import: edge to the module
	rel := RelImports
	clause := t.childKind(i, k.codes, jsImportClause)
	if x.declOnly || (clause >= 0 && x.typeKeyword(i, clause)) {
		rel = RelTypeImports // import type { A } from "m": erased from the output
	}
	named, typed := 0, 0 // named specifiers, and those marked `type`
	if clause >= 0 {
		for c := t.first(clause); c >= 0; c = t.n[c].next {
			switch x.code(c) {
			case jsIdentifier: // default import
				im.Alias = t.text(c)
				x.imports[im.Alias] = binding{module: mod, name: "default"}
				// The entity the module exports as default, by the local
				// name (the resolver falls back to the module's recorded
				// default export when the names differ).
				x.b.ref(x.b.fileID, im.Alias, rel, line, RefHint{Module: mod})
			case jsNamespaceImport:
				if id := t.childKind(c, k.codes, jsIdentifier); id >= 0 {
					im.Alias = t.text(id)
					x.imports[im.Alias] = binding{module: mod}
				}
			case jsNamedImports:
				whole = im.Alias != ""
				for sp := t.first(c); sp >= 0; sp = t.n[sp].next {
					if x.code(sp) != jsImportSpecifier {
						continue
					}
					nameNode := t.child(sp, k.fName)
					name := unquoteJS(t.text(nameNode))
					local := name
					if a := t.child(sp, k.fAlias); a >= 0 {
						local = t.text(a)
					}
					if name == "" {
						continue
					}
					specRel := rel
					named++
					if x.typeKeyword(sp, nameNode) {
						specRel = RelTypeImports // import { type A, B }: A is type-only
						typed++
					}
					im.Names = append(im.Names, name)
					x.imports[local] = binding{module: mod, name: name}
					x.b.ref(x.b.fileID, name, specRel, line, RefHint{Module: mod})
				}
			}
		}
	}
	if whole {
		x.b.ref(x.b.fileID, moduleStem(mod), rel, line, RefHint{Module: mod})
	}
	if im.Alias == "" && named > 0 && typed == named {
		// import { type A, type B } from "m" is erased like import type.
		rel = RelTypeImports
	}
	x.moduleRef(mod, line, rel)
	x.b.imp(im)
}

// typeKeyword reports whether the source between the start of node i and
// its child c holds the keyword `type`: import type {…}, export type {…},
// and a specifier's own { type A }. The keyword is an anonymous token the
// flat tree does not keep, so it is read from the text.
func (x *jsExtract) typeKeyword(i, c int32) bool {
	t := x.t
	if c < 0 {
		return false
	}
	lo, hi := t.n[i].start, t.n[c].start
	if hi <= lo || int(hi) > len(t.src) {
		return false
	}
	for _, w := range strings.FieldsFunc(string(t.src[lo:hi]), func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '{' || r == '*' }) {
		if w == "type" {
			return true
		}
	}
	return false
}

// moduleRef binds the file to the module it imports from, whatever its
// names resolve to: a name re-exported through an index file binds to its
// defining file, this edge to the index the code actually imports. (A ref
// named like its module means "the module".)
func (x *jsExtract) moduleRef(mod string, line uint32, rel string) {
	x.b.ref(x.b.fileID, mod, rel, line, RefHint{Module: mod})
}

// reexport handles `export … from "m"`: an import of m.
func (x *jsExtract) reexport(i, src int32) {
	t, k := x.t, x.k
	mod := unquoteJS(t.text(src))
	if mod == "" {
		return
	}
	line := t.line(i)
	im := Import{Module: mod, Line: line}
	ec := t.childKind(i, k.codes, jsExportClause)
	rel := RelImports
	if x.declOnly || (ec >= 0 && x.typeKeyword(i, ec)) || (ec < 0 && x.typeKeyword(i, src)) {
		rel = RelTypeImports // export type { A } from "m", export type * from "m"
	}
	named, typed := 0, 0
	if ec >= 0 {
		for sp := t.first(ec); sp >= 0; sp = t.n[sp].next {
			if x.code(sp) == jsExportSpecifier {
				nameNode := t.child(sp, k.fName)
				name := unquoteJS(t.text(nameNode))
				if name != "" {
					// export { a } from "m" re-exports m's a as a: a file
					// not an index (immer's src/immer.ts) is only reached
					// through this record.
					as := name
					if a := t.child(sp, k.fAlias); a >= 0 {
						as = unquoteJS(t.text(a))
					}
					x.b.res.Reexports = append(x.b.res.Reexports, Reexport{Name: as, Module: mod, Target: name})
				}
				if name != "" {
					specRel := rel
					named++
					if x.typeKeyword(sp, nameNode) {
						specRel = RelTypeImports // export { type A } from "m"
						typed++
					}
					im.Names = append(im.Names, name)
					x.b.ref(x.b.fileID, name, specRel, line, RefHint{Module: mod})
				}
			}
		}
	} else {
		im.Names = []string{"*"}
		x.b.ref(x.b.fileID, moduleStem(mod), rel, line, RefHint{Module: mod})
	}
	if named > 0 && typed == named {
		rel = RelTypeImports
	}
	// export { default as x } from "m" names no entity m declares under
	// that name: the module edge carries the dependency.
	x.moduleRef(mod, line, rel)
	x.b.imp(im)
}

// exportImported records `import { a as c } from "m"; export { c as b }`:
// b is m's a.
func (x *jsExtract) exportImported(ec int32) {
	t, k := x.t, x.k
	for sp := t.first(ec); sp >= 0; sp = t.n[sp].next {
		if x.code(sp) != jsExportSpecifier {
			continue
		}
		local := t.text(t.child(sp, k.fName))
		b, ok := x.imports[local]
		if !ok || b.name == "" {
			continue
		}
		name := local
		if a := t.child(sp, k.fAlias); a >= 0 {
			name = unquoteJS(t.text(a))
		}
		x.b.res.Reexports = append(x.b.res.Reexports, Reexport{Name: name, Module: b.module, Target: b.name})
	}
}

// function adds a function or method node. decl is the node spanning the
// definition (the declarator for `const f = () => …`), fn the function node
// holding parameters and body.
func (x *jsExtract) function(decl, fn int32, name string, s *jsScope, exported bool, kind string, extra []string) string {
	t, k := x.t, x.k
	if name == "" {
		x.stmts(fn, s, false)
		return ""
	}
	tags := x.tags(kind, exported, extra...)
	if bytesHasPrefix(t.bytes(decl), "async") || bytesHasPrefix(t.bytes(fn), "async") {
		tags = append(tags, "async")
	}
	ex := sigExcerpt(t.bytes(decl))
	id, isNew := x.b.entity(s.id, name, graph.Function, t.line(decl), t.endLine(decl), ex, tags...)
	x.b.joinSignatures(id, isNew, t.child(fn, k.fBody) < 0, t.endLine(decl), ex, tags)
	fs := &jsScope{id: id, class: s.class, vars: map[string]string{}, fn: true}
	x.params(fn, fs, id, true)
	if rt := t.child(fn, k.fReturn); rt >= 0 {
		x.typeRefs(id, rt)
	}
	if body := t.child(fn, k.fBody); body >= 0 {
		x.stmts(body, fs, false)
	}
	return id
}

// params binds typed parameters and adds references edges for their types.
// TypeScript constructor parameter properties (constructor(private db: Db))
// also type this.db.
func (x *jsExtract) params(fn int32, s *jsScope, src string, refs bool) {
	t, k := x.t, x.k
	pl := t.child(fn, k.fParams)
	if pl < 0 {
		return
	}
	for p := t.first(pl); p >= 0; p = t.n[p].next {
		switch x.code(p) {
		case jsRequiredParam, jsOptionalParam:
			pat := t.child(p, k.fPattern)
			ty := t.child(p, k.fType)
			if ty >= 0 && refs {
				x.typeRefs(src, ty)
			}
			if x.code(pat) == jsIdentifier && ty >= 0 {
				if tn := x.typeName(ty); tn != "" {
					name := t.text(pat)
					s.vars[name] = tn
					if s.class != nil && t.childKind(p, k.codes, jsAccessibility) >= 0 {
						s.class.attrs[name] = tn
					}
				}
			}
			if v := t.child(p, k.fValue); v >= 0 {
				x.visit(v, s, false)
			}
		case jsAssignmentPattern:
			if v := t.child(p, k.fRight); v >= 0 {
				x.visit(v, s, false)
			}
		}
	}
}

func (x *jsExtract) class(i int32, s *jsScope, exported bool, decos []int32) {
	t, k := x.t, x.k
	name := t.text(t.child(i, k.fName))
	if name == "" {
		x.stmts(i, s, false)
		return
	}
	ci := &jsClassInfo{name: name, attrs: map[string]string{}}
	extra := []string(nil)
	if x.code(i) == jsAbstractClassDecl {
		extra = append(extra, "abstract")
	}
	id, _ := x.b.entity(s.id, name, graph.Class, t.line(i), t.endLine(i), sigExcerpt(t.bytes(i)), x.tags(KindClass, exported, extra...)...)
	ci.id = id
	for c := t.first(i); c >= 0; c = t.n[c].next {
		switch x.code(c) {
		case jsDecorator:
			decos = append(decos, c)
		case jsClassHeritage:
			x.heritage(id, ci, c)
		}
	}
	x.decorators(id, decos, s)
	body := t.child(i, k.fBody)
	if body < 0 {
		return
	}
	cs := &jsScope{id: id, class: ci, vars: map[string]string{}}
	var pending []int32 // decorators preceding the next member (TypeScript)
	for m := t.first(body); m >= 0; m = t.n[m].next {
		switch x.code(m) {
		case jsDecorator:
			pending = append(pending, m)
			continue
		case jsMethodDef, jsMethodSig, jsAbstractMethodSig:
			x.method(m, cs, pending)
		case jsPublicField, jsField:
			x.field(m, cs, pending)
		default:
			x.visit(m, cs, false)
		}
		pending = nil
	}
	for _, p := range ci.pending {
		h := p.hint
		h.ReceiverType = ci.attrs[p.attr]
		x.b.ref(p.src, p.name, RelCalls, p.line, h)
	}
}

func (x *jsExtract) heritage(id string, ci *jsClassInfo, h int32) {
	t, k := x.t, x.k
	add := func(e int32, rel string) {
		var name string
		var hint RefHint
		switch x.code(e) {
		case jsIdentifier, jsTypeIdent:
			name = t.text(e)
			hint = x.bindingHint(name)
			if b, ok := x.imports[name]; ok && b.name != "" && b.name != "default" {
				name = b.name
			}
		case jsMember, jsNestedTypeIdent, jsNestedIdent:
			var recv string
			recv, name = splitLast(compactDots(t.text(e)), ".")
			hint = x.moduleOnly(recv)
		case jsGenericType:
			x.typeRefs(id, e)
			name = typeHead(t.text(t.child(e, k.fName)))
			name = lastSegment(name, ".")
		case jsCall:
			// class A extends mixin(B) — the call is the base expression.
			if fn := t.child(e, k.fFunction); fn >= 0 {
				x.b.ref(id, lastSegment(t.text(fn), "."), RelCalls, t.line(e), RefHint{})
			}
			return
		default:
			return
		}
		if name == "" {
			return
		}
		if rel == RelInherits {
			ci.bases = append(ci.bases, name)
		}
		x.b.ref(id, name, rel, t.line(e), hint)
	}
	for c := t.first(h); c >= 0; c = t.n[c].next {
		switch x.code(c) {
		case jsExtendsClause:
			add(t.child(c, k.fValue), RelInherits)
		case jsImplementsClause:
			for ty := t.first(c); ty >= 0; ty = t.n[ty].next {
				add(ty, RelImplements)
			}
		default:
			// JavaScript: class_heritage holds the base expression itself.
			add(c, RelInherits)
		}
	}
}

// memberName returns the name of a class member and whether it is private
// by syntax (#name).
func (x *jsExtract) memberName(m int32) (string, bool) {
	t, k := x.t, x.k
	n := t.child(m, k.fName)
	if n < 0 {
		n = t.child(m, k.fProperty) // JavaScript field_definition
	}
	if n < 0 {
		return "", false
	}
	name := cleanName(unquoteJS(t.text(n)))
	return name, x.code(n) == jsPrivatePropertyIdent
}

// memberTags returns the visibility and modifier tags of a class member.
func (x *jsExtract) memberTags(m int32, hashPrivate bool) []string {
	t, k := x.t, x.k
	vis := VisPublic
	if hashPrivate {
		vis = VisPrivate
	}
	if a := t.childKind(m, k.codes, jsAccessibility); a >= 0 {
		switch t.text(a) {
		case "private":
			vis = VisPrivate
		case "protected":
			vis = VisProtect
		}
	}
	tags := []string{vis}
	// Modifiers are anonymous tokens before the name; look at the text.
	head := t.bytes(m)
	if n := t.child(m, k.fName); n >= 0 && t.n[n].start >= t.n[m].start {
		head = head[:t.n[n].start-t.n[m].start]
	}
	for _, w := range strings.Fields(string(head)) {
		switch w {
		case "static", "abstract", "async", "get", "set", "readonly", "override":
			tags = append(tags, w)
		}
	}
	return tags
}

func (x *jsExtract) method(m int32, cs *jsScope, decos []int32) {
	t := x.t
	name, hashPrivate := x.memberName(m)
	if name == "" {
		x.stmts(m, cs, false)
		return
	}
	extra := x.memberTags(m, hashPrivate)
	if code := x.code(m); (code == jsMethodSig || code == jsAbstractMethodSig) && !slices.Contains(extra, "abstract") {
		extra = append(extra, "abstract")
	}
	kind := KindMethod
	if x.isTest && strings.HasPrefix(name, "test") {
		extra = append(extra, KindTest)
	}
	tags := append([]string{x.lang, kind}, extra...)
	ex := sigExcerpt(t.bytes(m))
	id, isNew := x.b.entity(cs.id, name, graph.Function, t.line(m), t.endLine(m), ex, tags...)
	x.b.joinSignatures(id, isNew, t.child(m, x.k.fBody) < 0, t.endLine(m), ex, tags)
	x.decorators(id, decos, cs)
	for c := t.first(m); c >= 0; c = t.n[c].next {
		if x.code(c) == jsDecorator {
			x.decorators(id, []int32{c}, cs)
		}
	}
	fs := &jsScope{id: id, class: cs.class, vars: map[string]string{}, fn: true}
	x.params(m, fs, id, true)
	if rt := t.child(m, x.k.fReturn); rt >= 0 {
		x.typeRefs(id, rt)
	}
	if body := t.child(m, x.k.fBody); body >= 0 {
		x.stmts(body, fs, false)
	}
}

// field handles class fields: arrow-function fields are methods, typed or
// constructed fields type this.field receivers.
func (x *jsExtract) field(m int32, cs *jsScope, decos []int32) {
	t, k := x.t, x.k
	name, hashPrivate := x.memberName(m)
	val := t.child(m, k.fValue)
	switch x.code(val) {
	case jsArrow, jsFunctionExpr:
		if name != "" {
			extra := x.memberTags(m, hashPrivate)
			id := x.function(m, val, name, cs, false, KindMethod, extra)
			x.decorators(id, decos, cs)
			return
		}
	}
	if ty := t.child(m, k.fType); ty >= 0 {
		x.typeRefs(cs.id, ty)
		if tn := x.typeName(ty); tn != "" && name != "" {
			cs.class.attrs[name] = tn
		}
	} else if tn := x.constructed(val); tn != "" && name != "" {
		cs.class.attrs[name] = tn
	}
	if val >= 0 {
		x.visit(val, cs, false)
	}
}

func (x *jsExtract) iface(i int32, s *jsScope, exported bool) {
	t, k := x.t, x.k
	name := t.text(t.child(i, k.fName))
	if name == "" {
		return
	}
	id, _ := x.b.entity(s.id, name, graph.Type, t.line(i), t.endLine(i), sigExcerpt(t.bytes(i)), x.tags(KindInterface, exported)...)
	for c := t.first(i); c >= 0; c = t.n[c].next {
		if x.code(c) != jsExtendsType {
			continue
		}
		for ty := t.first(c); ty >= 0; ty = t.n[ty].next {
			name := typeHead(t.text(ty))
			recv, base := splitLast(name, ".")
			h := x.bindingHint(base)
			if recv != "" {
				h = x.moduleOnly(recv)
			}
			x.b.ref(id, base, RelInherits, t.line(ty), h)
		}
	}
	body := t.child(i, k.fBody)
	for m := t.first(body); body >= 0 && m >= 0; m = t.n[m].next {
		switch x.code(m) {
		case jsMethodSig:
			mname, _ := x.memberName(m)
			if mname == "" {
				continue
			}
			mid, _ := x.b.entity(id, mname, graph.Function, t.line(m), t.endLine(m), sigExcerpt(t.bytes(m)),
				x.lang, KindMethod, "abstract")
			x.params(m, &jsScope{id: mid, vars: map[string]string{}}, mid, true)
			x.typeRefs(mid, t.child(m, k.fReturn))
		case jsPropertySig:
			x.typeRefs(id, t.child(m, k.fType))
		}
	}
}

func (x *jsExtract) decorators(id string, decos []int32, s *jsScope) {
	t, k := x.t, x.k
	for _, d := range decos {
		e := t.first(d)
		if x.code(e) == jsCall {
			if args := t.child(e, k.fArgs); args >= 0 {
				x.stmts(args, s, false)
			}
			e = t.child(e, k.fFunction)
		}
		if e < 0 {
			continue
		}
		recv, name := splitLast(compactDots(t.text(e)), ".")
		h := x.bindingHint(name)
		if recv != "" {
			h = x.moduleOnly(recv)
		}
		x.b.ref(id, name, RelDecoratedBy, t.line(d), h)
	}
}

// moduleOnly is the Module hint for a qualified name in a type position
// (ns.Type, mod.decorator): the import path of ns, nothing else.
func (x *jsExtract) moduleOnly(recv string) RefHint {
	root, _, _ := strings.Cut(recv, ".")
	if b, ok := x.imports[root]; ok {
		return RefHint{Module: b.module}
	}
	return RefHint{}
}

// bindingHint is the Module hint of a name imported into this file.
func (x *jsExtract) bindingHint(name string) RefHint {
	if b, ok := x.imports[name]; ok {
		return RefHint{Module: b.module}
	}
	return RefHint{}
}

// jsTestCalls are the test-framework functions whose callbacks become test
// nodes.
var jsTestCalls = map[string]bool{"describe": true, "it": true, "test": true, "suite": true, "context": true}

func (x *jsExtract) call(i int32, s *jsScope) {
	t, k := x.t, x.k
	fn := t.child(i, k.fFunction)
	args := t.child(i, k.fArgs)
	line := t.line(i)
	switch x.code(fn) {
	case jsIdentifier:
		name := t.text(fn)
		if name == "require" {
			if mod := x.firstStringArg(i); mod != "" {
				x.b.imp(Import{Module: mod, Line: line})
				x.b.ref(x.b.fileID, moduleStem(mod), RelImports, line, RefHint{Module: mod})
				return
			}
		}
		if jsTestCalls[name] && x.testBlock(i, name, s) {
			return
		}
		h := RefHint{}
		if b, ok := x.imports[name]; ok {
			h.Module = b.module
			if b.name != "" && b.name != "default" {
				name = b.name
			}
		}
		x.b.ref(s.id, name, RelCalls, line, h)
	case jsImport:
		// Dynamic import("m").
		if mod := x.firstStringArg(i); mod != "" {
			x.b.imp(Import{Module: mod, Line: line})
			x.b.ref(x.b.fileID, moduleStem(mod), RelImports, line, RefHint{Module: mod})
		}
	case jsMember:
		obj := t.child(fn, k.fObject)
		name := t.text(t.child(fn, k.fProperty))
		if x.code(obj) == jsIdentifier && jsTestCalls[t.text(obj)] && (name == "only" || name == "skip" || name == "concurrent") {
			if x.testBlock(i, t.text(obj), s) {
				return
			}
		}
		recv := compactDots(t.text(obj))
		if attr, ok := x.thisAttr(recv, s); ok {
			h := RefHint{Receiver: recv}
			s.class.pending = append(s.class.pending, pendingCall{src: s.id, name: name, attr: attr, line: line, hint: h})
		} else {
			x.b.ref(s.id, name, RelCalls, line, x.memberHint(recv, s))
		}
		if obj >= 0 && x.code(obj) != jsIdentifier && x.code(obj) != jsThis {
			x.visit(obj, s, false)
		}
	default:
		if fn >= 0 {
			x.visit(fn, s, false)
		}
	}
	if args >= 0 {
		x.stmts(args, s, false)
	}
}

// testBlock turns describe("title", () => {…}) and it/test(…) into test
// nodes nested by title; calls inside belong to them. It reports false when
// the call does not have that shape.
func (x *jsExtract) testBlock(call int32, fname string, s *jsScope) bool {
	t, k := x.t, x.k
	title := x.firstStringArg(call)
	args := t.child(call, k.fArgs)
	if title == "" || args < 0 {
		return false
	}
	var cb int32 = -1
	for a := t.first(args); a >= 0; a = t.n[a].next {
		if c := x.code(a); c == jsArrow || c == jsFunctionExpr {
			cb = a
		}
	}
	if cb < 0 {
		return false
	}
	name := cleanName(title)
	if len(name) > 120 {
		name = name[:120]
	}
	kind := KindTest
	if fname == "describe" || fname == "suite" || fname == "context" {
		kind = "suite"
	}
	id, _ := x.b.entity(s.id, name, graph.Function, t.line(call), t.endLine(call), sigExcerpt(t.bytes(call)), x.lang, kind, KindTest)
	x.b.ref(id, fname, RelCalls, t.line(call), RefHint{})
	ts := &jsScope{id: id, class: s.class, vars: map[string]string{}, fn: true}
	if body := t.child(cb, k.fBody); body >= 0 {
		x.visit(body, ts, false)
	}
	return true
}

// thisAttr reports whether recv is this.attr inside a class.
func (x *jsExtract) thisAttr(recv string, s *jsScope) (string, bool) {
	if s == nil || s.class == nil {
		return "", false
	}
	rest, ok := strings.CutPrefix(recv, "this.")
	if !ok || rest == "" || strings.ContainsAny(rest, ".()[]?!") {
		return "", false
	}
	return strings.TrimPrefix(rest, "#"), true
}

// memberHint describes the receiver of recv.name(…).
func (x *jsExtract) memberHint(recv string, s *jsScope) RefHint {
	h := RefHint{Receiver: trimReceiver(recv)}
	if recv == "" {
		return RefHint{}
	}
	root, rest := recv, ""
	if i := strings.IndexByte(recv, '.'); i >= 0 {
		root, rest = recv[:i], recv[i:]
	}
	if s != nil && s.class != nil {
		switch recv {
		case "this":
			h.ReceiverType = s.class.name
			return h
		case "super":
			if len(s.class.bases) > 0 {
				h.ReceiverType = s.class.bases[0]
			}
			return h
		}
	}
	if s != nil {
		if ty, ok := s.vars[recv]; ok {
			h.ReceiverType = ty
			h.Module = x.bindingHint(ty).Module
			return h
		}
	}
	if b, ok := x.imports[root]; ok {
		h.Module = b.module
		if rest == "" && b.name != "" && b.name != "default" && isUpperStart(b.name) {
			h.ReceiverType = b.name
		} else if rest == "" && b.name == "default" && isUpperStart(root) {
			h.ReceiverType = root
		}
		return h
	}
	if rest == "" && (x.classes[recv] || (isUpperStart(recv) && !isAllUpper(recv))) {
		h.ReceiverType = recv
	}
	return h
}

func (x *jsExtract) newExpr(i int32, s *jsScope) {
	t, k := x.t, x.k
	c := t.child(i, k.fConstructor)
	switch x.code(c) {
	case jsIdentifier:
		name := t.text(c)
		h := x.bindingHint(name)
		if b, ok := x.imports[name]; ok && b.name != "" && b.name != "default" {
			name = b.name
		}
		x.b.ref(s.id, name, RelCalls, t.line(i), h)
	case jsMember:
		recv := compactDots(t.text(t.child(c, k.fObject)))
		h := x.memberHint(recv, s)
		h.ReceiverType = ""
		x.b.ref(s.id, t.text(t.child(c, k.fProperty)), RelCalls, t.line(i), h)
	}
	if args := t.child(i, k.fArgs); args >= 0 {
		x.stmts(args, s, false)
	}
}

// assignment types this.x = new T() and handles module.exports = … .
func (x *jsExtract) assignment(i int32, s *jsScope) {
	t, k := x.t, x.k
	left, right := t.child(i, k.fLeft), t.child(i, k.fRight)
	if tn := x.constructed(right); tn != "" {
		ltext := compactDots(t.text(left))
		if attr, ok := x.thisAttr(ltext, s); ok {
			s.class.attrs[attr] = tn
		} else if x.code(left) == jsIdentifier {
			s.vars[ltext] = tn
		}
	}
	if right >= 0 {
		switch x.code(right) {
		case jsArrow, jsFunctionExpr:
			// exports.foo = function () {…} / Foo.prototype.bar = …: name the
			// function after the assigned property when at top level.
			if !s.fn && s.class == nil && x.code(left) == jsMember {
				name := t.text(t.child(left, k.fProperty))
				x.function(i, right, name, s, strings.HasPrefix(t.text(left), "exports.") || strings.HasPrefix(t.text(left), "module.exports"), KindFunction, nil)
				return
			}
		}
		x.visit(right, s, false)
	}
	if left >= 0 && x.code(left) != jsIdentifier {
		x.visit(left, s, false)
	}
}

// typeName returns the principal user type of an annotation: Foo for
// `: Foo`, `: Foo<Bar>`, `: ns.Foo`, `: Foo | null`.
func (x *jsExtract) typeName(ty int32) string {
	t := x.t
	end := t.end(ty)
	for j := ty; j < end; j++ {
		if x.code(j) == jsTypeIdent {
			return t.text(j)
		}
	}
	return ""
}

// typeRefs adds references edges to the user types in a type node.
func (x *jsExtract) typeRefs(src string, ty int32) {
	t, k := x.t, x.k
	t.typeNames(ty, k.codes, jsTypeIdent, jsNestedTypeIdent, func(j int32) {
		if name := t.text(j); !jsBuiltinTypes[name] && !isTypeParamName(name) {
			x.b.ref(src, name, RelReferences, t.line(j), x.bindingHint(name))
		}
	}, func(j int32) {
		mod := compactDots(t.text(t.child(j, k.fMod)))
		x.b.ref(src, t.text(t.child(j, k.fName)), RelReferences, t.line(j), x.moduleOnly(mod))
	})
}

var jsBuiltinTypes = map[string]bool{
	"Array": true, "Promise": true, "Record": true, "Partial": true, "Readonly": true,
	"Pick": true, "Omit": true, "Map": true, "Set": true, "Date": true, "Error": true,
	"RegExp": true, "Function": true, "Object": true, "String": true, "Number": true,
	"Boolean": true, "ReadonlyArray": true, "Required": true, "ReturnType": true,
	"Parameters": true, "InstanceType": true, "Exclude": true, "Extract": true,
	"NonNullable": true, "Awaited": true, "WeakMap": true, "WeakSet": true, "Iterable": true,
	"AsyncIterable": true, "Iterator": true, "PromiseLike": true, "ArrayLike": true,
	"Uint8Array": true, "ArrayBuffer": true, "Symbol": true, "BigInt": true,
}

// splitLast splits s at the last sep: "a.b.c" → ("a.b", "c"); no sep → ("", s).
func splitLast(s, sep string) (string, string) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):]
	}
	return "", s
}

// defaultExport records what export statement i exports as default —
// `export default ky`, `export default function delay`, `export default
// class Ky`, `export { x as default }` — as a Reexport named "default"
// of this module (Module ""), Target the local name: a default import
// under another name (`import wait from "./delay.js"`) binds it. An
// anonymous default (`export default () => …`) names nothing.
func (x *jsExtract) defaultExport(i int32) {
	t, k := x.t, x.k
	target := ""
	if ec := t.childKind(i, k.codes, jsExportClause); ec >= 0 {
		for sp := t.first(ec); sp >= 0; sp = t.n[sp].next {
			if a := t.child(sp, k.fAlias); x.code(sp) == jsExportSpecifier && a >= 0 && unquoteJS(t.text(a)) == "default" {
				target = t.text(t.child(sp, k.fName))
			}
		}
	} else if bytesHasPrefix(t.bytes(i), "export default") {
		if d := t.child(i, k.fDecl); d >= 0 {
			if n := t.child(d, k.fName); n >= 0 {
				target = t.text(n)
			}
		} else if v := t.child(i, x.t.g.field("value")); v >= 0 && x.code(v) == jsIdentifier {
			target = t.text(v)
		}
	}
	if target != "" && target != "default" {
		x.b.res.Reexports = append(x.b.res.Reexports, Reexport{Name: "default", Target: target})
	}
}
