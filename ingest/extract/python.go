package extract

import (
	"maps"
	"path"
	"strings"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

var pythonGrammar = newGrammar("python", tspython.Language)

// Python node kinds the extractor distinguishes (codes into pyKinds.codes).
const (
	pyNone uint8 = iota
	pyModule
	pyFunction
	pyClass
	pyDecorated
	pyDecorator
	pyImport
	pyImportFrom
	pyFutureImport
	pyAliasedImport
	pyDottedName
	pyRelativeImport
	pyWildcard
	pyCall
	pyAttribute
	pyIdentifier
	pyAssignment
	pyExprStmt
	pyTypedParam
	pyTypedDefaultParam
	pyDefaultParam
	pyType
	pyString
	pyBlock
	pyArgList
	pyKeywordArg
	pyGenericType
	pySubscript
	pyParameters
	pyTypeAlias
	pyListSplatPattern
	pyDictSplatPattern
	pyMemberType
	pyParenthesized
	pyIf
)

var pyKindNames = []string{
	"module", "function_definition", "class_definition", "decorated_definition", "decorator",
	"import_statement", "import_from_statement", "future_import_statement", "aliased_import",
	"dotted_name", "relative_import", "wildcard_import", "call", "attribute", "identifier",
	"assignment", "expression_statement", "typed_parameter", "typed_default_parameter",
	"default_parameter", "type", "string", "block", "argument_list", "keyword_argument",
	"generic_type", "subscript", "parameters", "type_alias_statement", "list_splat_pattern",
	"dictionary_splat_pattern", "member_type", "parenthesized_expression", "if_statement",
}

type pyTables struct {
	codes                                          []uint8
	fName, fBody, fParams, fReturn, fSuper, fDef   uint16
	fModuleName, fAlias, fFunction, fArgs, fObject uint16
	fAttribute, fLeft, fRight, fType, fValue       uint16
	fCondition, fConsequence                       uint16
}

// pyTablesGet builds the grammar's kind and field tables on first use.
var pyTablesGet = sync.OnceValue(func() *pyTables {
	g := pythonGrammar
	return &pyTables{
		codes: g.codes(pyKindNames...),
		fName: g.field("name"), fBody: g.field("body"), fParams: g.field("parameters"),
		fReturn: g.field("return_type"), fSuper: g.field("superclasses"), fDef: g.field("definition"),
		fModuleName: g.field("module_name"), fAlias: g.field("alias"), fFunction: g.field("function"),
		fArgs: g.field("arguments"), fObject: g.field("object"), fAttribute: g.field("attribute"),
		fLeft: g.field("left"), fRight: g.field("right"), fType: g.field("type"), fValue: g.field("value"),
		fCondition: g.field("condition"), fConsequence: g.field("consequence"),
	}
})

type pythonExtractor struct{}

func (pythonExtractor) Language() string     { return "python" }
func (pythonExtractor) Extensions() []string { return []string{".py", ".pyi", ".pyw"} }

// binding is what a local name refers to through an import.
type binding struct {
	module string // import path
	name   string // imported name; "" when the local name is the module itself
}

// pyScope is the extraction context inside a definition.
type pyScope struct {
	id      string            // node ID edges start from
	class   *pyClassInfo      // enclosing class (methods and class bodies)
	self    string            // first parameter of a method ("self", "cls")
	vars    map[string]string // local variable → inferred type name
	inFunc  bool
	isClass bool // the scope is the class body itself
}

type pyClassInfo struct {
	name  string
	id    string
	bases []string
	attrs map[string]string // self.attr → type name
	// pending holds calls on self.attr receivers, emitted when the class is
	// complete and every attribute type is known.
	pending []pendingCall
}

// pendingCall is a call on self.attr (this.attr) waiting for the class to
// be complete, when attr's type is known.
type pendingCall struct {
	src, name, attr string
	line            uint32
	hint            RefHint
}

type pyExtract struct {
	t       *tree
	k       *pyTables
	b       *builder
	imports map[string]binding
	classes map[string]bool // classes defined in this file
	isTest  bool            // test_*.py / *_test.py / conftest.py
	// typeOnly counts the enclosing `if TYPE_CHECKING:` bodies: their
	// imports run for the type checker only, never at run time.
	typeOnly int
}

func (pythonExtractor) Extract(relPath string, src []byte) (*Result, error) {
	t, err := pythonGrammar.parse(src)
	if err != nil {
		return tooLargeOr(relPath, "python", src, err)
	}
	defer t.release()
	k := pyTablesGet()
	base := path.Base(relPath)
	x := &pyExtract{
		t: t, k: k, b: newTreeBuilder(relPath, "python", t),
		imports: map[string]binding{}, classes: map[string]bool{},
		isTest: strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") || base == "conftest.py",
	}
	if strings.HasSuffix(base, ".pyi") {
		x.typeOnly = 1 // a stub is read by the type checker only: its imports never run
	}
	tags := []string{"python"}
	if x.isTest {
		tags = append(tags, KindTest)
	}
	x.b.file(countLines(src), x.moduleDoc(), markGenerated(src, tags)...)
	if len(t.n) > 0 {
		x.collectClasses(0)
		x.block(0, &pyScope{id: x.b.fileID, vars: map[string]string{}})
		x.moduleAttrs()
	}
	return x.b.finish(t.errors), nil
}

// moduleAttrs records, once per name, each M.n the file reads from a module
// it imports whole (`import attrs` … `attrs.exceptions.FrozenError`,
// `attrs.cmp_using`) as the file's use of n from M, as `from M import n`
// would: n's submodule, or the module's name and where it is defined.
// Calls (M.f()) and decorators (@M.f) already bind their own refs; a read
// that is neither made none, so such a file named only M's __init__.py
// and not the submodule or the definition it uses (attrs' typing_tests).
func (x *pyExtract) moduleAttrs() {
	t, k := x.t, x.k
	if len(x.imports) == 0 {
		return
	}
	var seen map[[2]string]bool
	for j := int32(0); j < int32(len(t.n)); j++ {
		if x.code(j) != pyAttribute {
			continue
		}
		obj := t.child(j, k.fObject)
		if obj < 0 || x.code(obj) != pyIdentifier {
			continue
		}
		b, ok := x.imports[t.text(obj)]
		if !ok || b.name != "" || strings.HasPrefix(b.module, ".") {
			continue // not a module imported whole
		}
		if p := t.n[j].parent; p >= 0 && (x.code(p) == pyDecorator || (x.code(p) == pyCall && t.n[j].field == k.fFunction)) {
			continue
		}
		n := t.child(j, k.fAttribute)
		if n < 0 {
			continue
		}
		key := [2]string{b.module, t.text(n)}
		if key[1] == "" || seen[key] {
			continue
		}
		if seen == nil {
			seen = map[[2]string]bool{}
		}
		seen[key] = true
		x.b.ref(x.b.fileID, key[1], x.importRel(), t.line(j), RefHint{Module: b.module})
	}
}

// tooLargeOr turns a too-large error into a tagged file node (not an error:
// the file is still ingested) and passes other errors through.
func tooLargeOr(relPath, lang string, src []byte, err error) (*Result, error) {
	if err != errTooLarge {
		return nil, err
	}
	b := newBuilder(relPath, lang)
	b.file(countLines(src), "", lang, "large")
	return b.finish(0), nil
}

func (x *pyExtract) code(i int32) uint8 { return code(x.k.codes, x.t.n[i].kind) }

// moduleDoc returns the first line of the module docstring, if any.
func (x *pyExtract) moduleDoc() string {
	t := x.t
	if len(t.n) == 0 {
		return ""
	}
	for c := t.first(0); c >= 0; c = t.n[c].next {
		if x.code(c) == pyExprStmt {
			if s := t.first(c); s >= 0 && x.code(s) == pyString {
				return docLine(t.text(s))
			}
		}
		if t.kindIsComment(c) {
			continue
		}
		break
	}
	return ""
}

// collectClasses records the top-level class names so calls such as Foo()
// and Foo.create() can be typed before the class itself is visited.
func (x *pyExtract) collectClasses(root int32) {
	t := x.t
	for c := t.first(root); c >= 0; c = t.n[c].next {
		d := c
		if x.code(c) == pyDecorated {
			d = t.child(c, x.k.fDef)
		}
		if d >= 0 && x.code(d) == pyClass {
			if n := t.child(d, x.k.fName); n >= 0 {
				x.classes[t.text(n)] = true
			}
		}
	}
}

// block visits the statements under i in scope s.
func (x *pyExtract) block(i int32, s *pyScope) {
	for c := x.t.first(i); c >= 0; c = x.t.n[c].next {
		x.visit(c, s)
	}
}

func (x *pyExtract) visit(i int32, s *pyScope) {
	t := x.t
	switch x.code(i) {
	case pyFunction:
		x.function(i, s, nil)
	case pyClass:
		x.class(i, s, nil)
	case pyDecorated:
		def := t.child(i, x.k.fDef)
		var decos []int32
		for c := t.first(i); c >= 0; c = t.n[c].next {
			if x.code(c) == pyDecorator {
				decos = append(decos, c)
			}
		}
		switch {
		case def >= 0 && x.code(def) == pyFunction:
			x.function(def, s, decos)
		case def >= 0 && x.code(def) == pyClass:
			x.class(def, s, decos)
		default:
			x.block(i, s)
		}
	case pyIf:
		x.ifStmt(i, s)
	case pyImport:
		x.importStmt(i)
	case pyImportFrom:
		x.importFrom(i, s)
	case pyFutureImport:
		x.b.imp(Import{Module: "__future__", Line: t.line(i)})
	case pyCall:
		x.call(i, s)
	case pyAssignment:
		x.assignment(i, s)
	case pyTypeAlias:
		if !s.inFunc && !s.isClass {
			if n := t.child(i, x.k.fName); n >= 0 {
				name := typeHead(t.text(n))
				x.b.entity(s.id, name, graph.Type, t.line(i), t.endLine(i), excerpt(t.bytes(i)),
					"python", KindTypeAlias, pyVisibility(name))
			}
		}
		x.block(i, s)
	default:
		x.block(i, s)
	}
}

func pyVisibility(name string) string {
	if strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__") {
		return VisPublic
	}
	if strings.HasPrefix(name, "_") {
		return VisPrivate
	}
	return VisPublic
}

// defName is the name of definition i; without a name node (a parse
// error) its body is walked as a block instead, and ok is false.
func (x *pyExtract) defName(i int32, s *pyScope) (name string, ok bool) {
	nameNode := x.t.child(i, x.k.fName)
	if nameNode < 0 {
		x.block(i, s)
		return "", false
	}
	return x.t.text(nameNode), true
}

func (x *pyExtract) function(i int32, s *pyScope, decos []int32) {
	t, k := x.t, x.k
	name, ok := x.defName(i, s)
	if !ok {
		return
	}
	if name == "" {
		x.block(i, s)
		return
	}
	kind := KindFunction
	if s.isClass {
		kind = KindMethod
	}
	tags := []string{"python", kind, pyVisibility(name)}
	if bytesHasPrefix(t.bytes(i), "async") {
		tags = append(tags, "async")
	}
	isTest := strings.HasPrefix(name, "test_") || name == "test" ||
		(strings.HasPrefix(name, "test") && (x.isTest || (s.class != nil && pyIsTestClass(s.class))))
	if isTest {
		tags = append(tags, KindTest)
	}
	id, _ := x.b.entity(s.id, name, graph.Function, t.line(i), t.endLine(i), excerpt(t.bytes(i)), tags...)
	x.decorators(id, decos, s)

	fs := &pyScope{id: id, class: s.class, vars: map[string]string{}, inFunc: true}
	if s.inFunc {
		// A nested function is a closure: it sees the enclosing
		// function's parameters and locals, a method's self included,
		// with the types known where it is defined.
		maps.Copy(fs.vars, s.vars)
		fs.self = s.self
	}
	if params := t.child(i, k.fParams); params >= 0 {
		first := true
		for p := t.first(params); p >= 0; p = t.n[p].next {
			pname, ptype := x.param(p)
			if first && s.isClass && pname != "" {
				fs.self = pname
				first = false
				continue
			}
			first = false
			if pname != "" {
				delete(fs.vars, pname) // a parameter hides the enclosing name
				if pname == fs.self && !s.isClass {
					fs.self = ""
				}
			}
			if pname != "" && ptype >= 0 {
				if tn := x.typeName(ptype); tn != "" {
					fs.vars[pname] = tn
				}
				x.typeRefs(id, ptype, s)
			}
			// Default values may call things (def f(x=make())).
			if v := t.child(p, k.fValue); v >= 0 {
				x.expr(v, s)
			}
		}
	}
	if rt := t.child(i, k.fReturn); rt >= 0 {
		x.typeRefs(id, rt, s)
	}
	if body := t.child(i, k.fBody); body >= 0 {
		x.block(body, fs)
	}
}

// param returns the name and the type node (or -1) of one parameter.
func (x *pyExtract) param(p int32) (string, int32) {
	t, k := x.t, x.k
	switch x.code(p) {
	case pyIdentifier:
		return t.text(p), -1
	case pyTypedParam:
		typ := t.child(p, k.fType)
		for c := t.first(p); c >= 0; c = t.n[c].next {
			switch x.code(c) {
			case pyIdentifier:
				return t.text(c), typ
			case pyListSplatPattern, pyDictSplatPattern:
				return "", typ
			}
		}
		return "", typ
	case pyTypedDefaultParam:
		return t.text(t.child(p, k.fName)), t.child(p, k.fType)
	case pyDefaultParam:
		if n := t.child(p, k.fName); n >= 0 && x.code(n) == pyIdentifier {
			return t.text(n), -1
		}
	}
	return "", -1
}

func pyIsTestClass(c *pyClassInfo) bool {
	if strings.HasPrefix(c.name, "Test") {
		return true
	}
	for _, b := range c.bases {
		if strings.HasSuffix(b, "TestCase") {
			return true
		}
	}
	return false
}

func (x *pyExtract) class(i int32, s *pyScope, decos []int32) {
	t, k := x.t, x.k
	name, ok := x.defName(i, s)
	if !ok {
		return
	}
	ci := &pyClassInfo{name: name, attrs: map[string]string{}}
	type baseRef struct {
		name string
		hint RefHint
		line uint32
	}
	var bases []baseRef
	if sup := t.child(i, k.fSuper); sup >= 0 {
		for a := t.first(sup); a >= 0; a = t.n[a].next {
			switch x.code(a) {
			case pyIdentifier, pyAttribute:
				full := t.text(a)
				bn, h := x.qualified(full)
				ci.bases = append(ci.bases, bn)
				bases = append(bases, baseRef{bn, h, t.line(a)})
			case pyKeywordArg:
				// metaclass=… and friends are not bases.
			}
		}
	}
	tags := []string{"python", KindClass, pyVisibility(name)}
	if pyIsTestClass(ci) {
		tags = append(tags, KindTest)
	}
	id, _ := x.b.entity(s.id, name, graph.Class, t.line(i), t.endLine(i), excerpt(t.bytes(i)), tags...)
	ci.id = id
	for _, br := range bases {
		x.b.ref(id, br.name, RelInherits, br.line, br.hint)
	}
	x.decorators(id, decos, s)
	cs := &pyScope{id: id, class: ci, vars: map[string]string{}, isClass: true}
	if body := t.child(i, k.fBody); body >= 0 {
		x.block(body, cs)
	}
	for _, p := range ci.pending {
		h := p.hint
		h.ReceiverType = ci.attrs[p.attr]
		x.b.ref(p.src, p.name, RelCalls, p.line, h)
	}
}

// qualified splits a dotted reference into its last name and a hint: the
// module when the first segment is imported, the receiver otherwise.
func (x *pyExtract) qualified(full string) (string, RefHint) {
	full = compactDots(full)
	dot := strings.LastIndexByte(full, '.')
	if dot < 0 {
		if b, ok := x.imports[full]; ok && b.name != "" {
			return b.name, RefHint{Module: b.module}
		}
		return full, RefHint{}
	}
	name, recv := full[dot+1:], full[:dot]
	return name, x.moduleHint(recv)
}

// moduleHint returns the Module hint for a receiver expression whose root is
// an imported name ("np.linalg" with import numpy as np → numpy.linalg).
func (x *pyExtract) moduleHint(recv string) RefHint {
	root, rest := recv, ""
	if i := strings.IndexByte(recv, '.'); i >= 0 {
		root, rest = recv[:i], recv[i:]
	}
	b, ok := x.imports[root]
	if !ok {
		return RefHint{}
	}
	if b.name == "" {
		return RefHint{Module: b.module + rest}
	}
	return RefHint{Module: b.module}
}

// compactDots normalises the whitespace of an expression used as a name or
// receiver: whitespace around "." and "::" goes, so a chain split over lines
// reads "a.b.c"; other runs become one space. (Backslashes are kept: they
// are PHP namespace separators.)
func compactDots(s string) string {
	if !strings.ContainsAny(s, " \t\r\n") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	pendingSpace := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\r', '\n':
			pendingSpace = true
			continue
		}
		if pendingSpace {
			out := b.String()
			prevDot := len(out) > 0 && (out[len(out)-1] == '.' || out[len(out)-1] == ':' || out[len(out)-1] == '(')
			if len(out) > 0 && !prevDot && c != '.' && c != ':' && c != ')' && c != '(' {
				b.WriteByte(' ')
			}
			pendingSpace = false
		}
		b.WriteByte(c)
	}
	return b.String()
}

func (x *pyExtract) decorators(id string, decos []int32, s *pyScope) {
	t := x.t
	for _, d := range decos {
		e := t.first(d)
		if e < 0 {
			continue
		}
		target := e
		if x.code(e) == pyCall {
			target = t.child(e, x.k.fFunction)
			// Arguments of a decorator call (@app.route("/x", methods=…))
			// may themselves call things.
			if args := t.child(e, x.k.fArgs); args >= 0 {
				x.expr(args, s)
			}
		}
		if target < 0 {
			continue
		}
		full := compactDots(t.text(target))
		name, h := x.qualified(full)
		switch full {
		case "staticmethod", "classmethod", "property":
			// Builtins: a tag says it all, an edge would never resolve.
			x.b.tag(id, full)
			continue
		case "abstractmethod", "abc.abstractmethod", "functools.cached_property", "cached_property",
			"dataclass", "dataclasses.dataclass":
			x.b.tag(id, lastSegment(full, "."))
		}
		if strings.HasSuffix(full, ".setter") || strings.HasSuffix(full, ".getter") || strings.HasSuffix(full, ".deleter") {
			x.b.tag(id, "property")
			continue
		}
		if strings.HasPrefix(full, "pytest.fixture") {
			x.b.tag(id, "fixture")
		}
		x.b.ref(id, name, RelDecoratedBy, t.line(d), h)
	}
}

// ifStmt visits an if statement; the body of `if TYPE_CHECKING:` (or
// `if typing.TYPE_CHECKING:`) only runs under a type checker, so its
// imports are type-only. Its else branch runs at run time.
func (x *pyExtract) ifStmt(i int32, s *pyScope) {
	t := x.t
	body := int32(-1)
	if isTypeChecking(t.text(t.child(i, x.k.fCondition))) {
		body = t.child(i, x.k.fConsequence)
	}
	for c := t.first(i); c >= 0; c = t.n[c].next {
		if c == body {
			x.typeOnly++
			x.visit(c, s)
			x.typeOnly--
			continue
		}
		x.visit(c, s)
	}
}

// isTypeChecking reports whether an if's condition is the name
// TYPE_CHECKING, bare or through a module (typing.TYPE_CHECKING, t.…).
func isTypeChecking(cond string) bool {
	cond = strings.TrimSpace(cond)
	name := cond[strings.LastIndexByte(cond, '.')+1:]
	return name == "TYPE_CHECKING" && !strings.ContainsAny(cond, " \t\n()")
}

// importRel is the relation of an import at the current position.
func (x *pyExtract) importRel() string {
	if x.typeOnly > 0 {
		return RelTypeImports
	}
	return RelImports
}

func (x *pyExtract) importStmt(i int32) {
	t, k := x.t, x.k
	for c := t.first(i); c >= 0; c = t.n[c].next {
		var mod, alias string
		switch x.code(c) {
		case pyDottedName:
			mod = compactDots(t.text(c))
		case pyAliasedImport:
			mod = compactDots(t.text(t.child(c, k.fName)))
			alias = t.text(t.child(c, k.fAlias))
		default:
			continue
		}
		if mod == "" {
			continue
		}
		x.b.imp(Import{Module: mod, Alias: alias, Line: t.line(i)})
		if alias != "" {
			x.imports[alias] = binding{module: mod}
		} else {
			root := mod
			if j := strings.IndexByte(mod, '.'); j >= 0 {
				root = mod[:j]
			}
			if _, ok := x.imports[root]; !ok {
				x.imports[root] = binding{module: root}
			}
		}
		x.b.ref(x.b.fileID, lastSegment(mod, "."), x.importRel(), t.line(i), RefHint{Module: mod})
	}
}

func (x *pyExtract) importFrom(i int32, s *pyScope) {
	t, k := x.t, x.k
	modNode := t.child(i, k.fModuleName)
	if modNode < 0 {
		return
	}
	mod := compactDots(t.text(modNode))
	im := Import{Module: mod, Line: t.line(i)}
	for c := t.first(i); c >= 0; c = t.n[c].next {
		if c == modNode {
			continue
		}
		var name, alias string
		switch x.code(c) {
		case pyDottedName:
			name = compactDots(t.text(c))
		case pyAliasedImport:
			name = compactDots(t.text(t.child(c, k.fName)))
			alias = t.text(t.child(c, k.fAlias))
		case pyWildcard:
			im.Names = append(im.Names, "*")
			continue
		default:
			continue
		}
		if name == "" {
			continue
		}
		im.Names = append(im.Names, name)
		local := name
		if alias != "" {
			local = alias
		}
		x.imports[local] = binding{module: mod, name: name}
		x.b.ref(x.b.fileID, name, x.importRel(), t.line(i), RefHint{Module: mod})
		if !s.inFunc && !s.isClass && !strings.Contains(name, ".") {
			// A module-level import binds the name in this module: a
			// barrel (a package's __init__.py, or an api.py) re-exports
			// it, and `from barrel import name` elsewhere reaches the
			// defining module through it (resolve.reexported).
			x.b.res.Reexports = append(x.b.res.Reexports, Reexport{Name: local, Module: mod, Target: name})
		}
	}
	// The module itself: Python runs it (and a package's __init__.py) to
	// import any name from it, so the file depends on it whatever the
	// names resolve to — a re-exported name binds to its defining file,
	// this edge to the package that re-exports it. A ref named like its
	// module means "the module". Not for "from . import x" / "from ..
	// import x": those name the importer's own package or an ancestor,
	// whose __init__.py Python has started running before the importer,
	// so this import runs none of it. A name defined there still binds
	// to it through its own ref; a submodule binds to its file only.
	// (python-attrs/attrs: every submodule's "from . import setters"
	// linked attr/__init__.py too, a 7-file import cycle where Python
	// has 2.) The resolver drops an absolute import of an ancestor
	// package the same way (resolve.ownPackage).
	if strings.Trim(mod, ".") != "" {
		x.b.ref(x.b.fileID, mod, x.importRel(), t.line(i), RefHint{Module: mod})
	}
	x.b.imp(im)
}

// call records a call edge from the current scope and visits the arguments.
func (x *pyExtract) call(i int32, s *pyScope) {
	t, k := x.t, x.k
	fn := t.child(i, k.fFunction)
	line := t.line(i)
	if fn >= 0 {
		switch x.code(fn) {
		case pyIdentifier:
			name := t.text(fn)
			h := RefHint{}
			b, imported := x.imports[name]
			if !imported && pyBuiltinFuncs[name] {
				break
			}
			if imported {
				h.Module = b.module
				if b.name != "" {
					name = b.name
				}
			}
			x.b.ref(s.id, name, RelCalls, line, h)
		case pyAttribute:
			obj := t.child(fn, k.fObject)
			name := t.text(t.child(fn, k.fAttribute))
			recv := compactDots(t.text(obj))
			h := x.moduleHint(recv)
			h.Receiver = trimReceiver(recv)
			if attr, ok := x.selfAttr(recv, s); ok {
				s.class.pending = append(s.class.pending, pendingCall{src: s.id, name: name, attr: attr, line: line, hint: h})
			} else {
				h.ReceiverType = x.receiverType(recv, s)
				x.b.ref(s.id, name, RelCalls, line, h)
			}
			// The receiver may contain calls itself: a().b().
			if obj >= 0 && x.code(obj) != pyIdentifier {
				x.expr(obj, s)
			}
		default:
			x.expr(fn, s)
		}
	}
	if args := t.child(i, k.fArgs); args >= 0 {
		x.expr(args, s)
	}
}

// selfAttr reports whether recv is self.attr (first parameter of a method)
// and returns attr.
func (x *pyExtract) selfAttr(recv string, s *pyScope) (string, bool) {
	if s.class == nil || s.self == "" {
		return "", false
	}
	rest, ok := strings.CutPrefix(recv, s.self+".")
	if !ok || rest == "" || strings.ContainsAny(rest, ".()[]") {
		return "", false
	}
	return rest, true
}

// receiverType infers the static type of a receiver expression cheaply.
func (x *pyExtract) receiverType(recv string, s *pyScope) string {
	switch {
	case s.class != nil && s.self != "" && recv == s.self:
		return s.class.name
	case s.class != nil && strings.HasPrefix(recv, "super("):
		if len(s.class.bases) > 0 {
			return s.class.bases[0]
		}
		return ""
	}
	if ty, ok := s.vars[recv]; ok {
		return ty
	}
	if x.classes[recv] {
		return recv
	}
	if b, ok := x.imports[recv]; ok && b.name != "" && isUpperStart(b.name) {
		return b.name
	}
	if !strings.ContainsAny(recv, ".()[]") && isUpperStart(recv) && !isAllUpper(recv) {
		return recv
	}
	return ""
}

// trimReceiver bounds the receiver text kept in hints.
// trimReceiver bounds a receiver expression to 80 bytes. A longer one
// keeps what the resolver reads — a call, "f(…)" — or becomes "…": never
// empty, which would make x.m() look like a plain call of m.
func trimReceiver(s string) string {
	if len(s) <= 80 {
		return s
	}
	if i := strings.IndexByte(s, '('); i > 0 && i <= 76 && strings.HasSuffix(s, ")") {
		return s[:i] + "(…)"
	}
	return "…"
}

func isAllUpper(s string) bool {
	hasLetter := false
	for _, r := range s {
		if r >= 'a' && r <= 'z' {
			return false
		}
		if r >= 'A' && r <= 'Z' {
			hasLetter = true
		}
	}
	return hasLetter
}

func (x *pyExtract) assignment(i int32, s *pyScope) {
	t, k := x.t, x.k
	left := t.child(i, k.fLeft)
	right := t.child(i, k.fRight)
	typ := t.child(i, k.fType)
	ltext := ""
	if left >= 0 {
		ltext = compactDots(t.text(left))
	}
	inferred := ""
	if typ >= 0 {
		inferred = x.typeName(typ)
		x.typeRefs(s.id, typ, s)
	} else if right >= 0 {
		switch x.code(right) {
		case pyCall:
			inferred = x.constructed(right)
		case pyIdentifier:
			// self.db = db, where db is a typed parameter.
			inferred = s.vars[t.text(right)]
		}
	}
	if left >= 0 {
		switch x.code(left) {
		case pyIdentifier:
			if inferred != "" {
				s.vars[ltext] = inferred
			}
			if !s.inFunc && !s.isClass && !strings.HasPrefix(ltext, "__") {
				kind := KindVariable
				if isAllUpper(ltext) {
					kind = KindConstant
				}
				x.b.entity(s.id, ltext, graph.Reference, t.line(i), t.endLine(i), excerpt(t.bytes(i)),
					"python", kind, pyVisibility(ltext))
			}
			if s.isClass && s.class != nil && inferred != "" {
				s.class.attrs[ltext] = inferred
			}
		case pyAttribute:
			if attr, ok := x.selfAttr(ltext, s); ok && inferred != "" {
				s.class.attrs[attr] = inferred
			}
		}
	}
	if right >= 0 {
		x.visit(right, s)
	}
}

// constructed returns the class a call constructs when that is evident:
// Foo(...), mod.Foo(...), or a class defined in this file.
func (x *pyExtract) constructed(call int32) string {
	t, k := x.t, x.k
	fn := t.child(call, k.fFunction)
	if fn < 0 {
		return ""
	}
	var name string
	switch x.code(fn) {
	case pyIdentifier:
		name = t.text(fn)
		if b, ok := x.imports[name]; ok && b.name != "" {
			name = b.name
		}
	case pyAttribute:
		name = t.text(t.child(fn, k.fAttribute))
	default:
		return ""
	}
	if x.classes[name] || (isUpperStart(name) && !isAllUpper(name)) {
		return name
	}
	return ""
}

// typeName returns the principal type name of an annotation: Foo for Foo,
// mod.Foo, "Foo", Optional[Foo] and Foo[int]; "" for builtins.
func (x *pyExtract) typeName(typ int32) string {
	names := x.typeNames(typ, nil)
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

// typeNames collects the user type names mentioned in an annotation.
func (x *pyExtract) typeNames(typ int32, out []string) []string {
	t := x.t
	end := t.end(typ)
	for j := typ; j < end; j++ {
		switch x.code(j) {
		case pyIdentifier:
			// Skip identifiers that are the object of an attribute (the
			// module part of mod.Foo): the attribute name follows.
			if p := t.n[j].parent; p >= 0 && x.code(p) == pyAttribute && t.n[j].field == x.k.fObject {
				continue
			}
			name := t.text(j)
			if !pyBuiltinTypes[name] && !isTypeParamName(name) {
				out = append(out, name)
			}
		case pyString:
			// Forward references: "Foo".
			s := strings.Trim(t.text(j), `"'`)
			if isIdent(s) && !pyBuiltinTypes[s] {
				out = append(out, s)
			}
			j = t.end(j) - 1
		}
	}
	return out
}

// typeRefs adds references edges from src to the user types in typ.
func (x *pyExtract) typeRefs(src string, typ int32, s *pyScope) {
	for _, name := range x.typeNames(typ, nil) {
		x.b.ref(src, name, RelReferences, x.t.line(typ), RefHint{Module: x.moduleOf(name)})
	}
}

func (x *pyExtract) moduleOf(name string) string {
	if b, ok := x.imports[name]; ok {
		return b.module
	}
	return ""
}

// expr walks an expression for calls and nested definitions.
func (x *pyExtract) expr(i int32, s *pyScope) {
	switch x.code(i) {
	case pyCall:
		x.call(i, s)
	default:
		for c := x.t.first(i); c >= 0; c = x.t.n[c].next {
			x.expr(c, s)
		}
	}
}

// pyBuiltinFuncs are calls that never resolve to project code.
var pyBuiltinFuncs = map[string]bool{
	"print": true, "len": true, "isinstance": true, "issubclass": true, "super": true,
	"range": true, "str": true, "int": true, "float": true, "bool": true, "list": true,
	"dict": true, "set": true, "tuple": true, "getattr": true, "setattr": true, "hasattr": true,
	"delattr": true, "type": true, "repr": true, "enumerate": true, "zip": true, "map": true,
	"filter": true, "sorted": true, "reversed": true, "min": true, "max": true, "sum": true,
	"any": true, "all": true, "abs": true, "open": true, "iter": true, "next": true, "id": true,
	"hash": true, "format": true, "vars": true, "callable": true, "bytes": true, "ord": true,
	"chr": true, "round": true, "divmod": true, "frozenset": true, "object": true, "globals": true,
	"locals": true, "bytearray": true, "memoryview": true, "staticmethod": true, "classmethod": true,
	"property": true, "hex": true, "oct": true, "bin": true, "pow": true, "input": true,
	"exec": true, "eval": true, "compile": true, "complex": true, "slice": true, "ascii": true,
	"__import__": true, "NotImplementedError": true, "ValueError": true, "TypeError": true,
	"KeyError": true, "IndexError": true, "RuntimeError": true, "AttributeError": true,
	"Exception": true, "OSError": true, "StopIteration": true, "AssertionError": true,
}

var pyBuiltinTypes = map[string]bool{
	"int": true, "str": true, "float": true, "bool": true, "bytes": true, "None": true,
	"list": true, "dict": true, "set": true, "tuple": true, "object": true, "type": true,
	"complex": true, "bytearray": true, "frozenset": true, "memoryview": true,
	"Any": true, "Optional": true, "Union": true, "List": true, "Dict": true, "Set": true,
	"Tuple": true, "Callable": true, "Iterable": true, "Iterator": true, "Sequence": true,
	"Mapping": true, "Type": true, "FrozenSet": true, "Generator": true, "Awaitable": true,
	"Coroutine": true, "AsyncIterator": true, "AsyncIterable": true, "ClassVar": true,
	"Final": true, "Literal": true, "Self": true, "NoReturn": true, "Never": true,
	"typing": true, "MutableMapping": true, "MutableSequence": true, "Annotated": true,
	"TypeVar": true, "Generic": true, "Protocol": true,
}

// isIdent reports whether s is a plain identifier.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || r > 127 || (i > 0 && r >= '0' && r <= '9') {
			continue
		}
		return false
	}
	return true
}

// typeHead returns the name before any generic parameters: "Foo[T]" → "Foo".
func typeHead(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "[<( "); i > 0 {
		s = s[:i]
	}
	return s
}

func bytesHasPrefix(b []byte, p string) bool {
	return len(b) >= len(p) && string(b[:len(p)]) == p
}
