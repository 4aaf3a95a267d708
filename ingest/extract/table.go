package extract

import (
	"path"
	"strings"
	"sync"
	"unsafe"

	"github.com/m1nd-go/m1nd/core/graph"
)

// The table-driven extractor serves every language without a hand-written
// extractor. A language is described by data (tableLang): which node kinds
// define entities and how to find their names, which are calls, which are
// imports. The engine walks the flat tree once, keeps a scope stack so IDs
// nest (file::p::Class::method) and calls are attributed to the innermost
// definition.

// defKind is the node type and kind tag of a definition.
type defKind struct {
	typ graph.NodeType
	tag string
}

// defRule describes one definition node kind.
type defRule struct {
	kind string
	defKind
	// Name lookup, first hit wins: follow drill fields down (C declarators)
	// requiring a node of kind must on the way; the nameField child; the
	// first child (deep: descendant) whose kind is in nameKinds.
	drill     string
	must      string
	nameField string
	nameKinds []string
	deep      bool
	// needField: only a definition when this field is present (a struct
	// specifier with a body, not a mere `struct foo *p`).
	needField string
	// classLike: functions defined directly inside become methods.
	classLike bool
	// topOnly: not a definition inside a function body (local lets).
	topOnly bool
	// maxNest: only a definition at most this many definitions deep (data
	// files: top-level keys and one level below).
	maxNest int
	// bases / impls: child kinds whose type names become inherits /
	// implements edges.
	bases, impls []string
	// mixins: statement kinds in the body whose names become inherits
	// edges (PHP's `use SomeTrait;`: the trait's methods are the class's).
	mixins []string
	// byValue retypes the definition by the kind of a child (Zig
	// `const X = struct {…}`); with valueOnly, no match means no definition.
	byValue   map[string]defKind
	valueOnly bool
	// byKeyword retypes by a keyword in the text before the name (Kotlin
	// `interface`, `enum class`).
	byKeyword map[string]defKind
	// leaf: do not look for definitions or calls below (data values).
	leaf bool
	// flat: children are visited in the enclosing scope (a C typedef
	// wrapping `struct foo {…}` does not make foo a member of the alias).
	flat bool
	// whole: the name is kept whole, qualifiers included (namespaces such
	// as Acme.Shop or App\Http name one entity).
	whole bool
	// nameFirst: the name is the first named child, which must be of a
	// nameKinds kind (Julia `f(x) = …`).
	nameFirst bool
	// decl marks prototypes: a later definition with the same ID replaces
	// the prototype's lines.
	decl bool
	// firstWord keeps only the first whitespace-separated word of the name
	// (make rules with several targets are named by the first).
	firstWord bool
}

// callRule describes a call node kind.
type callRule struct {
	kind string
	// field holds the callee ("" = first named child); recv, when set, the
	// receiver (Ruby call receiver, PHP member call object).
	field, recv string
	// onlyLocal: only calls to functions defined in the same file (shell
	// commands would otherwise turn every `ls` into a reference).
	onlyLocal bool
	// args holds the argument list, whose length tells overloads apart
	// (RefHint.Args).
	args string
	// argsFn counts the arguments where no field holds them (Kotlin's
	// value arguments and trailing lambda); ok false when it cannot tell.
	argsFn func(x *tableExtract, call int32) (n int, ok bool)
	// kindsFn tells what the arguments evidently are (RefHint.ArgKinds).
	kindsFn func(x *tableExtract, call int32) string
}

// importRule describes an import node kind.
type importRule struct {
	kind string
	// field holds the module; without it the node text is used, minus the
	// trim keywords.
	field string
	trim  []string
	// calls makes this a call-shaped import (require "x", @import("x")):
	// the callee must be one of these names and the module is the first
	// string (or identifier) argument.
	calls []string
	// callee is the callee field for call-shaped imports ("" = first named
	// child).
	callee string
}

// pkgRule sets Result.Package from a node (Kotlin package header, C#
// file-scoped namespace, Haskell module header).
type pkgRule struct {
	kind, field string
}

// tableLang is the data describing one language.
type tableLang struct {
	name      string
	exts      []string
	baseNames []string
	ptr       func() unsafe.Pointer
	defs      []defRule
	calls     []callRule
	imports   []importRule
	pkgs      []pkgRule
	// stringKinds are string literal kinds (for string names and import
	// arguments).
	stringKinds []string
	// baseWrap are wrapper kinds looked through when reading base types
	// (type_list, delegation_specifier, …).
	baseWrap []string
	// ifacePrefixI: base names like IDisposable are interfaces (C#).
	ifacePrefixI bool
	// importHints: `import a.b.C` brings C into the file, so a plain call
	// C(…) carries module a.b (Kotlin: without it a class or function of
	// another package was never bound).
	importHints bool
	// basePaths: a base named by a constant path (Ruby `< Rack::Request`)
	// keeps the path, which tells apart classes sharing a last name.
	basePaths bool
	// noQualify: names are never split at separators (data keys).
	noQualify bool
	// selfNames are receiver spellings of the current object.
	selfNames []string
	// ignoreCalls are builtins whose calls would never resolve (Ruby puts,
	// attr_accessor, …).
	ignoreCalls map[string]bool
	// overloads: functions of one name in one scope are told apart by
	// their parameters (overloadID).
	overloads *overloadRule
	// hook handles a node the tables cannot express; true means handled
	// (children are not visited).
	hook func(x *tableExtract, i int32, s *tScope) bool
	// typeRefs, when set, makes every type written in a type position
	// (a parameter's, a field's, a return type) a references edge.
	typeRefs *typeRefRule
	// repair, when the file parses with errors, rewrites it without moving
	// any byte (reparse); the rewrite's tree is kept when it has fewer.
	repair func(src []byte) ([]byte, bool)
}

// typeRefRule says where a grammar writes types: the fields holding a
// type (C# "type", "returns"), the fields inside one that qualify a name
// rather than name a type (a namespace prefix), and the kinds that name
// a type.
type typeRefRule struct {
	fields, skip, idents []string
	// lists are kinds that hold types wherever they appear (C#'s
	// type_argument_list: GetService<IMediator>()), unless under one of
	// skipUnder's kinds (Kotlin's supertypes, which bases record).
	lists, skipUnder []string
	// lastIdent: a list kind names one type by its last ident (Kotlin's
	// user_type a.b.C), its other children hold further types.
	lastIdent bool
	// ignore are names that are no project type (var, self, mixed).
	ignore map[string]bool
	// tParams: a name such as TRequest, TKey is a type parameter (.NET).
	tParams bool
}

// overloadRule says where a function's parameters are: the kinds of its
// parameter list (a child of the definition, or under its declarator in
// C++) and of the parameters in it.
type overloadRule struct {
	lists, params []string
}

// tableExtractor is the Extractor for one tableLang.
type tableExtractor struct {
	l    *tableLang
	g    *grammar
	once *sync.Once
	tab  **tableTables
}

func newTableExtractor(l *tableLang) tableExtractor {
	return tableExtractor{l: l, g: newGrammar(l.name, l.ptr), once: new(sync.Once), tab: new(*tableTables)}
}

func (e tableExtractor) Language() string     { return e.l.name }
func (e tableExtractor) Extensions() []string { return e.l.exts }
func (e tableExtractor) BaseNames() []string  { return e.l.baseNames }

// tableTables are the per-grammar lookups built from a tableLang.
type tableTables struct {
	def, call, imp, pkg []uint8 // symbol → 1-based rule index
	str, wrap           []uint8 // symbol → 1 if a string kind / base wrapper
	plist, param        []uint8 // symbol → 1 if a parameter list / parameter
	nameKinds           [][]uint8
	base, impl, mixin   [][]uint8
	byValue             []map[uint16]defKind
	fields              map[string]uint16
	// typeField / typeSkip: field ids of typeRefRule's fields and skip;
	// typeIdent its idents (nil when the language has no rule).
	typeField, typeSkip map[uint16]bool
	typeIdent, typeList []uint8
	typeSkipUnder       []uint8
}

func (e tableExtractor) tables() *tableTables {
	e.once.Do(func() {
		g, l := e.g, e.l
		tt := &tableTables{fields: map[string]uint16{}}
		mark := func(kinds ...string) []uint8 {
			if g.init() != nil {
				return nil
			}
			t := make([]uint8, len(g.kinds)+1)
			for _, k := range kinds {
				for _, id := range g.byName[k] {
					t[id] = 1
				}
			}
			return t
		}
		index := func(kinds []string) []uint8 {
			if g.init() != nil {
				return nil
			}
			t := make([]uint8, len(g.kinds)+1)
			for i, k := range kinds {
				for _, id := range g.byName[k] {
					if t[id] == 0 {
						t[id] = uint8(i + 1)
					}
				}
			}
			return t
		}
		if r := l.typeRefs; r != nil && g.init() == nil {
			tt.typeField, tt.typeSkip = fieldSet(g, r.fields), fieldSet(g, r.skip)
			tt.typeIdent, tt.typeList = mark(r.idents...), mark(r.lists...)
			tt.typeSkipUnder = mark(r.skipUnder...)
		}
		var dk, ck, ik, pk []string
		for _, d := range l.defs {
			dk = append(dk, d.kind)
			tt.nameKinds = append(tt.nameKinds, mark(d.nameKinds...))
			tt.base = append(tt.base, mark(d.bases...))
			tt.impl = append(tt.impl, mark(d.impls...))
			tt.mixin = append(tt.mixin, mark(d.mixins...))
			var bv map[uint16]defKind
			if len(d.byValue) > 0 && g.init() == nil {
				bv = map[uint16]defKind{}
				for k, v := range d.byValue {
					for _, id := range g.byName[k] {
						bv[id] = v
					}
				}
			}
			tt.byValue = append(tt.byValue, bv)
			for _, f := range []string{d.drill, d.nameField, d.needField} {
				if f != "" {
					tt.fields[f] = g.field(f)
				}
			}
		}
		for _, c := range l.calls {
			ck = append(ck, c.kind)
			for _, f := range []string{c.field, c.recv, c.args} {
				if f != "" {
					tt.fields[f] = g.field(f)
				}
			}
		}
		for _, im := range l.imports {
			ik = append(ik, im.kind)
			for _, f := range []string{im.field, im.callee} {
				if f != "" {
					tt.fields[f] = g.field(f)
				}
			}
		}
		for _, p := range l.pkgs {
			pk = append(pk, p.kind)
			if p.field != "" {
				tt.fields[p.field] = g.field(p.field)
			}
		}
		tt.def, tt.call, tt.imp, tt.pkg = index(dk), index(ck), index(ik), index(pk)
		tt.str, tt.wrap = mark(l.stringKinds...), mark(l.baseWrap...)
		if o := l.overloads; o != nil {
			tt.plist, tt.param = mark(o.lists...), mark(o.params...)
			tt.fields["declarator"] = g.field("declarator")
			tt.fields["type"] = g.field("type")
		}
		*e.tab = tt
	})
	return *e.tab
}

// tScope is one level of the definition stack.
type tScope struct {
	id        string
	name      string
	classLike bool
	inFunc    bool
	nest      int
	// nameNode is the node that named the definition (a Julia signature
	// call), which must not count as a call.
	nameNode int32
}

type tableExtract struct {
	l      *tableLang
	t      *tree
	tt     *tableTables
	b      *builder
	local  map[string]bool // function names defined in the file (onlyLocal calls)
	isTest bool
	// imported maps a name a single-name import brings in to its package
	// (tableLang.importHints).
	imported map[string]string
}

func (e tableExtractor) Extract(relPath string, src []byte) (*Result, error) {
	t, err := e.g.parse(src)
	if err != nil {
		return tooLargeOr(relPath, e.l.name, src, err)
	}
	if t.errors > 0 && e.l.repair != nil {
		t = reparse(e.g, t, src, e.l.repair)
	}
	defer t.release()
	x := &tableExtract{l: e.l, t: t, tt: e.tables(), b: newTreeBuilder(relPath, e.l.name, t), isTest: tableIsTestFile(relPath)}
	tags := []string{e.l.name}
	if x.isTest {
		tags = append(tags, KindTest)
	}
	x.b.file(countLines(src), x.leadingDoc(), markGenerated(src, tags)...)
	if len(t.n) > 0 {
		for _, c := range e.l.calls {
			if c.onlyLocal {
				x.collectLocal()
				break
			}
		}
		x.walk(0, &tScope{id: x.b.fileID, nameNode: -1})
	}
	return x.b.finish(t.errors), nil
}

// tableIsTestFile recognises the test-file conventions of the table
// languages: test_x.rb, x_test.exs, x_spec.rb, XTest.kt, XTests.cs,
// x.test.lua, files under test/ or tests/ or spec/.
func tableIsTestFile(p string) bool {
	base := path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	lower := strings.ToLower(stem)
	if strings.HasPrefix(lower, "test_") || strings.HasSuffix(lower, "_test") || strings.HasSuffix(lower, "_spec") ||
		strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests") || strings.HasSuffix(lower, ".test") ||
		strings.HasSuffix(lower, ".spec") || strings.HasSuffix(lower, "-test") {
		return true
	}
	for _, d := range strings.Split(path.Dir(p), "/") {
		switch d {
		case "test", "tests", "spec", "__tests__":
			return true
		}
	}
	return false
}

func (x *tableExtract) leadingDoc() string {
	t := x.t
	c := t.first(0)
	for c >= 0 && ((!t.kindIsComment(c) && t.n[c].end-t.n[c].start < 3) || bytesHasPrefix(t.bytes(c), "#!")) {
		c = t.n[c].next
	}
	if c >= 0 && t.kindIsComment(c) {
		d := docLine(t.text(c))
		if l := strings.ToLower(d); !strings.HasPrefix(l, "copyright") && !strings.Contains(l, "license") && !strings.HasPrefix(d, "!") {
			return d
		}
	}
	return ""
}

// collectLocal records the names of the functions defined in the file.
func (x *tableExtract) collectLocal() {
	x.local = map[string]bool{}
	t := x.t
	for i := range t.n {
		r := code(x.tt.def, t.n[i].kind)
		if r == 0 || x.l.defs[r-1].typ != graph.Function {
			continue
		}
		if name, _, _, ok := x.defName(int32(i), r-1); ok {
			x.local[name] = true
		}
	}
}

func (x *tableExtract) walk(i int32, s *tScope) {
	t := x.t
	kind := t.n[i].kind
	if x.l.hook != nil && x.l.hook(x, i, s) {
		return
	}
	if x.tt.typeField != nil && x.inTypePosition(i) {
		x.typeRefs(i, s, 0)
		return
	}
	if r := code(x.tt.pkg, kind); r > 0 {
		x.pkg(i, r-1)
	}
	if r := code(x.tt.imp, kind); r > 0 && x.importNode(i, r-1) {
		return
	}
	if r := code(x.tt.def, kind); r > 0 {
		if x.def(i, r-1, s) {
			return
		}
	}
	if r := code(x.tt.call, kind); r > 0 {
		x.call(i, r-1, s)
	}
	for c := t.first(i); c >= 0; c = t.n[c].next {
		x.walk(c, s)
	}
}

func (x *tableExtract) field(name string) uint16 { return x.tt.fields[name] }

// fieldSet is the set of the grammar's ids of the named fields.
func fieldSet(g *grammar, names []string) map[uint16]bool {
	m := map[uint16]bool{}
	for _, n := range names {
		if id := g.field(n); id != 0 {
			m[id] = true
		}
	}
	return m
}

// inTypePosition reports a node that is the type of its parent (a
// parameter's, a field's, a method's return type), except a construction's
// or call's, which the call rules record.
func (x *tableExtract) inTypePosition(i int32) bool {
	t := x.t
	if code(x.tt.typeList, t.n[i].kind) > 0 {
		p := t.n[i].parent
		return p < 0 || code(x.tt.typeSkipUnder, t.n[p].kind) == 0
	}
	if f := t.n[i].field; f == 0 || !x.tt.typeField[f] {
		return false
	}
	if code(x.tt.def, t.n[i].kind) > 0 && t.child(i, t.g.field("body")) >= 0 {
		return false // typedef struct node {…}: a definition, not a use
	}
	p := t.n[i].parent
	return p < 0 || code(x.tt.call, t.n[p].kind) == 0
}

// typeRefs adds a references edge from the scope to every type named in
// the type at i (generic arguments included, namespace qualifiers not).
func (x *tableExtract) typeRefs(i int32, s *tScope, depth int) {
	t := x.t
	if depth > 12 {
		return
	}
	if code(x.tt.typeIdent, t.n[i].kind) > 0 {
		x.typeRef(i, s)
		return
	}
	if x.l.typeRefs.lastIdent && code(x.tt.typeList, t.n[i].kind) > 0 {
		last := int32(-1)
		for c := t.first(i); c >= 0; c = t.n[c].next {
			if code(x.tt.typeIdent, t.n[c].kind) > 0 {
				last = c
			} else {
				x.typeRefs(c, s, depth+1)
			}
		}
		if last >= 0 {
			x.typeRef(last, s)
		}
		return
	}
	for c := t.first(i); c >= 0; c = t.n[c].next {
		if !x.tt.typeSkip[t.n[c].field] {
			x.typeRefs(c, s, depth+1)
		}
	}
}

// typeRef adds the references edge of one type name (with its import's
// module where the language gives one, as calls have).
func (x *tableExtract) typeRef(i int32, s *tScope) {
	t := x.t
	name := strings.TrimSpace(t.text(i))
	r := x.l.typeRefs
	if !isIdent(name) || r.ignore[name] || isTypeParamName(name) || r.tParams && isDotNetTypeParam(name) {
		return
	}
	x.b.ref(s.id, name, RelReferences, t.line(i), RefHint{Module: x.imported[name]})
}

// isDotNetTypeParam: .NET names type parameters T plus a capitalised
// word (TRequest, TKey).
func isDotNetTypeParam(s string) bool {
	return len(s) > 2 && s[0] == 'T' && isUpperStart(s[1:]) && !isAllUpper(s)
}

// nameOf turns a name node into a name and its qualifier: "Foo::bar" →
// ("bar", "Foo"); a string literal keeps its content whole.
func (x *tableExtract) nameOf(n int32, whole bool) (name, qual string) {
	t := x.t
	raw := t.text(n)
	if code(x.tt.str, t.n[n].kind) > 0 || x.l.noQualify {
		return cleanName(strings.Trim(strings.TrimSpace(raw), "\"'`")), ""
	}
	if whole {
		return cleanName(compactDots(strings.TrimSpace(raw))), ""
	}
	raw = strings.TrimSpace(raw)
	if i := strings.IndexAny(raw, "(<[{ \t\r\n=,;"); i > 0 {
		raw = raw[:i]
	}
	raw = strings.TrimLeft(raw, "*&^:")
	if raw == "" {
		return "", ""
	}
	for _, sep := range []string{"::", "->", ".", ":", "\\"} {
		if j := strings.LastIndex(raw, sep); j > 0 && j+len(sep) < len(raw) {
			q := strings.ReplaceAll(raw[:j], "\\", ".")
			_, q = splitLast(strings.ReplaceAll(strings.ReplaceAll(q, "->", "."), "::", "."), ".")
			return raw[j+len(sep):], strings.Trim(q, ":.")
		}
	}
	return strings.Trim(raw, ":."), ""
}

// defName finds the name of definition i under rule r, and the node it
// was read from.
func (x *tableExtract) defName(i int32, r uint8) (name, qual string, target int32, ok bool) {
	t := x.t
	d := &x.l.defs[r]
	target = -1
	if d.nameFirst {
		c := t.first(i)
		for c >= 0 && t.kindIsComment(c) {
			c = t.n[c].next
		}
		if c < 0 || code(x.tt.nameKinds[r], t.n[c].kind) == 0 {
			return "", "", -1, false
		}
		target = c
	}
	if target < 0 && d.drill != "" {
		f := x.field(d.drill)
		found := d.must == ""
		n := i
		for depth := 0; depth < 16; depth++ {
			c := t.child(n, f)
			if c < 0 {
				break
			}
			if !found && t.g.kindName(t.n[c].kind) == d.must {
				found = true
			}
			n = c
		}
		if !found {
			return "", "", -1, false
		}
		if n != i {
			target = n
		}
	}
	if target < 0 && d.nameField != "" {
		target = t.child(i, x.field(d.nameField))
	}
	if target < 0 && len(d.nameKinds) > 0 {
		nk := x.tt.nameKinds[r]
		if d.deep {
			end := t.end(i)
			for j := i + 1; j < end && j < i+64; j++ {
				if code(nk, t.n[j].kind) > 0 {
					target = j
					break
				}
			}
		} else {
			for c := t.first(i); c >= 0; c = t.n[c].next {
				if code(nk, t.n[c].kind) > 0 {
					target = c
					break
				}
			}
		}
	}
	if target < 0 {
		return "", "", -1, false
	}
	name, qual = x.nameOf(target, d.whole)
	if d.firstWord {
		if f := strings.Fields(name); len(f) > 0 {
			name = f[0]
		}
	}
	if len(name) > 120 {
		name = name[:120]
	}
	if !x.l.noQualify && !d.whole && code(x.tt.str, t.n[target].kind) == 0 && !isCallName(strings.TrimPrefix(name, "~")) {
		// `let () = …`, operators, destructuring patterns: not a named
		// entity.
		return "", "", -1, false
	}
	return name, qual, target, name != ""
}

// def handles a definition; it reports whether it emitted a node (and
// walked the children itself).
func (x *tableExtract) def(i int32, r uint8, s *tScope) bool {
	t := x.t
	d := &x.l.defs[r]
	if (d.topOnly && s.inFunc) || (d.maxNest > 0 && s.nest >= d.maxNest) {
		return false
	}
	if d.needField != "" && t.child(i, x.field(d.needField)) < 0 {
		return false
	}
	kind := d.defKind
	if bv := x.tt.byValue[r]; bv != nil {
		matched := false
		for c := t.first(i); c >= 0; c = t.n[c].next {
			if k, ok := bv[t.n[c].kind]; ok {
				kind, matched = k, true
				break
			}
		}
		if !matched && d.valueOnly {
			return false
		}
	}
	name, qual, nameNode, ok := x.defName(i, r)
	if !ok {
		if kind.typ == graph.Function && !s.inFunc {
			// An unnamed function-like definition (OCaml `let () = …`):
			// what it binds locally is not top level.
			inner := *s
			inner.inFunc = true
			for c := t.first(i); c >= 0; c = t.n[c].next {
				x.walk(c, &inner)
			}
			return true
		}
		return false
	}
	head := x.head(i, name)
	for kw, k := range d.byKeyword {
		if containsWord(head, kw) {
			kind = k
		}
	}
	tags := []string{x.l.name}
	isFunc := kind.typ == graph.Function
	tag := kind.tag
	if isFunc && tag == KindFunction && (s.classLike || qual != "") {
		tag = KindMethod
	}
	tags = append(tags, tag)
	if d.decl {
		tags = append(tags, KindDeclaration)
	}
	if v := visibilityWord(head); v != "" {
		tags = append(tags, v)
	}
	if isFunc && tag != KindTest && x.isTestFunc(name, head) {
		tags = append(tags, KindTest)
	}
	if isFunc && x.l.name == "ruby" && rubyClassMethod(t, i) {
		tags = append(tags, "static")
	}
	line, end := t.line(i), t.endLine(i)
	ex := sigExcerpt(t.bytes(i))
	parent := s.id
	if qual != "" && qual != s.name {
		// Out-of-line member (C++ Foo::bar, Lua M.foo): nest under the
		// qualifier, contained by the scope, linked to the owner by ref.
		parent = ChildID(s.id, qual)
	}
	id := ChildID(parent, name)
	var ar Arity
	if isFunc && x.l.overloads != nil {
		var sig string
		sig, ar = x.signature(i)
		id = x.b.overloadID(parent, name, sig)
	}
	id, _ = x.b.entityAt(id, s.id, name, kind.typ, line, end, ex, tags...)
	if isFunc && x.l.overloads != nil {
		x.b.overloadArity(parent, name, id, ar)
	}
	if parent != s.id {
		x.b.ref(id, qual, RelMemberOf, line, RefHint{})
	}
	x.bases(i, r, id)
	if d.leaf {
		return true
	}
	if d.flat {
		for c := t.first(i); c >= 0; c = t.n[c].next {
			x.walk(c, s)
		}
		return true
	}
	inner := &tScope{id: id, name: name, classLike: d.classLike, inFunc: s.inFunc || isFunc, nest: s.nest + 1, nameNode: nameNode}
	for c := t.first(i); c >= 0; c = t.n[c].next {
		x.walk(c, inner)
	}
	return true
}

// head returns the text of a definition before its name (modifiers,
// annotations, keywords), bounded.
func (x *tableExtract) head(i int32, name string) string {
	b := x.t.bytes(i)
	if len(b) > 400 {
		b = b[:400]
	}
	s := string(b)
	if j := strings.Index(s, name); j >= 0 {
		return s[:j]
	}
	return ""
}

func containsWord(s, w string) bool {
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '(' || r == ')'
	}) {
		if f == w {
			return true
		}
	}
	return false
}

// visibilityWord returns the visibility tag named by a modifier keyword in
// a definition head.
func visibilityWord(head string) string {
	for _, f := range strings.Fields(head) {
		switch f {
		case "public", "pub", "export":
			return VisPublic
		case "private", "fileprivate":
			return VisPrivate
		case "protected":
			return VisProtect
		case "internal":
			return VisInternal
		}
	}
	return ""
}

// isTestFunc applies the common test conventions: test_x / testX functions
// in test files, and test annotations or attributes in the head.
func (x *tableExtract) isTestFunc(name, head string) bool {
	for _, a := range []string{"@Test", "[Test", "[Fact", "[Theory", "[TestMethod", "#[test]", "@test"} {
		if strings.Contains(head, a) {
			return true
		}
	}
	if !x.isTest {
		return false
	}
	return strings.HasPrefix(name, "test_") || strings.HasPrefix(name, "Test") ||
		(strings.HasPrefix(name, "test") && len(name) > 4 && isUpperStart(name[4:]))
}

// bases adds inherits / implements edges from the base clauses of a
// definition.
func (x *tableExtract) bases(i int32, r uint8, id string) {
	t := x.t
	bk, ik, mk := x.tt.base[r], x.tt.impl[r], x.tt.mixin[r]
	if bk == nil && mk == nil {
		return
	}
	for c := t.first(i); c >= 0; c = t.n[c].next {
		k := t.n[c].kind
		rel := ""
		switch {
		case mk != nil && t.first(c) >= 0 && code(bk, k) == 0 && code(ik, k) == 0:
			x.mixins(c, mk, id)
			continue
		case code(bk, k) > 0:
			rel = RelInherits
		case code(ik, k) > 0:
			rel = RelImplements
		default:
			continue
		}
		x.baseNames(c, func(name string, line uint32) {
			r := rel
			if x.l.ifacePrefixI && len(name) > 2 && name[0] == 'I' && isUpperStart(name[1:]) {
				r = RelImplements
			}
			x.b.ref(id, name, r, line, RefHint{})
		}, 0)
	}
}

// mixins adds an inherits edge for every name a mixin statement directly
// in body uses (PHP `use A, B;` in a class or trait body).
func (x *tableExtract) mixins(body int32, mk []uint8, id string) {
	t := x.t
	for c := t.first(body); c >= 0; c = t.n[c].next {
		if code(mk, t.n[c].kind) > 0 {
			x.baseNames(c, func(name string, line uint32) {
				x.b.ref(id, name, RelInherits, line, RefHint{})
			}, 0)
		}
	}
}

// baseNames calls fn for every type named directly in a base clause,
// looking through wrapper kinds.
func (x *tableExtract) baseNames(clause int32, fn func(string, uint32), depth int) {
	t := x.t
	if depth > 4 {
		return
	}
	for c := t.first(clause); c >= 0; c = t.n[c].next {
		if t.kindIsComment(c) {
			continue
		}
		if code(x.tt.wrap, t.n[c].kind) > 0 {
			x.baseNames(c, fn, depth+1)
			continue
		}
		txt := strings.TrimSpace(t.text(c))
		for _, kw := range []string{"public ", "private ", "protected ", "virtual ", "extends ", "with ", "implements "} {
			txt = strings.TrimPrefix(txt, kw)
		}
		name := typeHead(txt)
		if path, ok := x.constantPath(name); ok {
			fn(path, t.line(c))
			continue
		}
		_, name = splitLast(strings.ReplaceAll(strings.ReplaceAll(name, "::", "."), "\\", "."), ".")
		switch name {
		case "public", "private", "protected", "internal", "virtual", "override", "final", "sealed", "abstract":
			continue
		}
		if isIdent(name) && !isTypeParamName(name) {
			fn(name, t.line(c))
		}
	}
}

// call records a call edge from the current scope.
func (x *tableExtract) call(i int32, r uint8, s *tScope) {
	t := x.t
	c := &x.l.calls[r]
	if i == s.nameNode {
		return
	}
	var callee int32 = -1
	if c.field != "" {
		callee = t.child(i, x.field(c.field))
	} else {
		callee = t.first(i)
		for callee >= 0 && t.kindIsComment(callee) {
			callee = t.n[callee].next
		}
	}
	if callee < 0 {
		return
	}
	text := strings.TrimSpace(t.text(callee))
	if len(text) > 200 {
		return
	}
	recv := ""
	if c.recv != "" {
		if rn := t.child(i, x.field(c.recv)); rn >= 0 {
			recv = compactDots(t.text(rn))
		}
	}
	name := text
	if i := strings.IndexAny(name, "<("); i > 0 {
		name = name[:i]
	}
	// A trailing ! is part of the name in Ruby and Julia (compile!,
	// push!): compile! and compile are two methods. A ! with more after
	// it (Kotlin's x!!.f) ends the name.
	if i := strings.IndexByte(name, '!'); i > 0 && i < len(name)-1 {
		name = name[:i]
	}
	name = compactDots(name)
	if recv == "" {
		for _, sep := range []string{"->", "::", ".", ":", "\\"} {
			if j := strings.LastIndex(name, sep); j > 0 && j+len(sep) < len(name) {
				recv, name = name[:j], name[j+len(sep):]
				break
			}
		}
	}
	name = strings.TrimLeft(name, "@$&*")
	if name == "" || !isCallName(name) {
		return
	}
	if (c.onlyLocal && !x.local[name]) || x.l.ignoreCalls[name] {
		return
	}
	h := RefHint{Receiver: trimReceiver(recv)}
	if recv == "" {
		h.Module = x.imported[name]
	}
	if recv == "" && x.l.name == "ruby" && !isUpperStart(name) {
		// What self is where a bare call runs (a DSL block's receiver):
		// the resolver binds it in that class's ancestry. The scope
		// after "@" keeps calls of one name from different classes
		// apart where outcomes are shared by hint (code's per-file memo).
		h.Receiver = "&" + rubySelf(x, i) + "@" + strings.TrimPrefix(s.id, x.b.fileID)
	}
	if recv != "" {
		for _, self := range x.l.selfNames {
			if recv == self || x.l.name == "ruby" && recv == self+".class" {
				// Ruby's self.class.m calls a class method of the
				// enclosing class (rack-protection's random_token).
				h.ReceiverType = x.enclosingClass(s)
			}
		}
		if h.ReceiverType == "" {
			_, last := splitLast(strings.ReplaceAll(recv, "::", "."), ".")
			if isUpperStart(last) && isIdent(last) && !isAllUpper(last) {
				h.ReceiverType = last
			}
		}
	}
	if c.args != "" {
		if a := t.child(i, x.field(c.args)); a >= 0 {
			h.Args = argsHint(countArgs(t, a))
		}
	} else if c.argsFn != nil {
		if n, ok := c.argsFn(x, i); ok {
			h.Args = argsHint(n)
		}
	}
	if c.kindsFn != nil {
		// Literal arguments tell same-arity overloads apart: of a
		// construction X(…), and of a bare or static call (Kotlin).
		h.ArgKinds = c.kindsFn(x, i)
	}
	x.b.ref(s.id, name, RelCalls, t.line(i), h)
}

// enclosingClass is the name of the class-like scope a call sits in: the
// current scope when it is one, else the scope that contains the current
// method (its ID minus the last segment).
func (x *tableExtract) enclosingClass(s *tScope) string {
	if s.classLike {
		return s.name
	}
	parent, _ := splitLast(s.id, "::")
	if parent == x.b.fileID || parent == "" {
		return ""
	}
	_, name := splitLast(parent, "::")
	return name
}

// isCallName accepts identifiers, also with a trailing ? or ! (Ruby) and
// hyphens (shell, Lisp-ish names).
func isCallName(s string) bool {
	s = strings.TrimRight(s, "?!")
	return isIdent(strings.ReplaceAll(s, "-", "_"))
}

// importNode handles an import; it reports whether the node was consumed.
func (x *tableExtract) importNode(i int32, r uint8) bool {
	t := x.t
	im := &x.l.imports[r]
	var mod string
	switch {
	case len(im.calls) > 0:
		var callee int32
		if im.callee != "" {
			callee = t.child(i, x.field(im.callee))
		} else {
			callee = t.first(i)
		}
		if callee < 0 {
			return false
		}
		name := strings.TrimSpace(t.text(callee))
		matched := false
		for _, c := range im.calls {
			if name == c {
				matched = true
			}
		}
		if !matched {
			return false
		}
		mod = x.firstArg(i, callee)
	case im.field != "":
		mod = t.text(t.child(i, x.field(im.field)))
	default:
		mod = t.text(i)
	}
	mods := []string{mod}
	if len(im.calls) == 0 {
		mods = expandImports(mod)
	}
	line := t.line(i)
	found := false
	for _, m := range mods {
		m = cleanModule(m, im.trim)
		if m == "" {
			continue
		}
		found = true
		if x.l.importHints {
			if pkg, ok := strings.CutSuffix(m, ".*"); ok {
				// A star import opens the package's names (resolve's stars).
				x.b.imp(Import{Module: pkg, Names: []string{"*"}, Line: line})
				x.b.ref(x.b.fileID, tableModuleStem(m), RelImports, line, RefHint{Module: m})
				continue
			}
		}
		x.noteImport(m)
		x.b.imp(Import{Module: m, Line: line})
		x.b.ref(x.b.fileID, tableModuleStem(m), RelImports, line, RefHint{Module: m})
	}
	return found
}

// expandImports splits one import statement's text into modules:
// "a, b" → a, b; "p.{A, B => C}" (Scala) or "P\\{A, B}" (PHP) → p.A, p.B.
func expandImports(mod string) []string {
	if open := strings.IndexByte(mod, '{'); open >= 0 {
		close := strings.LastIndexByte(mod, '}')
		if close < open {
			return []string{mod}
		}
		prefix := mod[:open]
		var out []string
		for _, item := range strings.Split(mod[open+1:close], ",") {
			item = strings.TrimSpace(item)
			for _, sep := range []string{"=>", " as "} {
				if j := strings.Index(item, sep); j >= 0 {
					item = strings.TrimSpace(item[:j])
				}
			}
			if item != "" {
				out = append(out, prefix+item)
			}
		}
		return out
	}
	if strings.Contains(mod, ",") {
		// using A, B / import a, b: one import each.
		return strings.Split(mod, ",")
	}
	return []string{mod}
}

// tableModuleStem names an imported module for the import edge: the last
// segment of a path or qualified name, without a source-file extension
// ("sys/stat.h" → "stat", "System.Collections" → "Collections", "a::b" → "b").
func tableModuleStem(m string) string {
	if ext := path.Ext(m); ext != "" {
		switch strings.ToLower(ext) {
		case ".h", ".hpp", ".hh", ".hxx", ".c", ".cc", ".cpp", ".rb", ".php", ".inc", ".lua", ".css",
			".scss", ".sh", ".bash", ".r", ".jl", ".mk", ".zig", ".js", ".ts", ".json", ".yaml", ".yml",
			".toml", ".py", ".html":
			m = strings.TrimSuffix(m, ext)
		}
	}
	for _, sep := range []string{"/", "::", "\\", ".", ":"} {
		if i := strings.LastIndex(m, sep); i >= 0 && i+len(sep) < len(m) {
			m = m[i+len(sep):]
		}
	}
	if m == "" {
		return "index"
	}
	return m
}

// firstArg returns the first string literal (or bare word) after the callee
// of a call-shaped import.
func (x *tableExtract) firstArg(i, callee int32) string {
	t := x.t
	end := t.end(i)
	for j := t.end(callee); j < end; j++ {
		if code(x.tt.str, t.n[j].kind) > 0 {
			return t.text(j)
		}
	}
	// Bare words: `library(dplyr)`, `source lib.sh`.
	for c := t.n[callee].next; c >= 0; c = t.n[c].next {
		txt := strings.TrimSpace(t.text(c))
		txt = strings.Trim(txt, "()")
		if txt != "" && !strings.ContainsAny(txt, " \t\n,") {
			return txt
		}
		if f := t.first(c); f >= 0 {
			if s := strings.TrimSpace(t.text(f)); s != "" && !strings.ContainsAny(s, " \t\n,()") {
				return s
			}
		}
	}
	return ""
}

// cleanModule strips keywords, quotes, brackets and terminators from an
// import's module text.
func cleanModule(s string, trim []string) string {
	s = strings.TrimSpace(s)
	for changed := true; changed; {
		changed = false
		for _, kw := range trim {
			if rest, ok := strings.CutPrefix(s, kw); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n' || rest[0] == '"' || rest[0] == '\'' || rest[0] == '(' || rest[0] == '<') {
				s, changed = strings.TrimSpace(rest), true
			}
		}
	}
	if i := strings.IndexByte(s, '='); i >= 0 {
		// using Alias = Some.Namespace;
		s = s[i+1:]
	}
	s = strings.TrimSuffix(strings.TrimSpace(s), ";")
	s = strings.Trim(s, "\"'`<>() \t\r\n")
	if i := strings.IndexAny(s, "\n;"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if len(s) > 200 {
		return ""
	}
	return compactDots(s)
}

func (x *tableExtract) pkg(i int32, r uint8) {
	p := &x.l.pkgs[r]
	n := i
	if p.field != "" {
		n = x.t.child(i, x.field(p.field))
	}
	if n < 0 {
		return
	}
	txt := strings.TrimSpace(x.t.text(n))
	for _, kw := range []string{"package", "namespace", "module"} {
		txt = strings.TrimSpace(strings.TrimPrefix(txt, kw))
	}
	if i := strings.IndexAny(txt, " \t\r\n;{("); i >= 0 {
		txt = txt[:i]
	}
	if txt != "" && x.b.res.Package == "" {
		x.b.res.Package = txt
	}
}
