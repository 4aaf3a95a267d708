package scan

import (
	"regexp"
	"strings"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
)

func javaLanguage(ptr func() unsafe.Pointer) *lang {
	l := &lang{name: "java", ptr: ptr, scopes: map[string]bool{"method_declaration": true, "constructor_declaration": true, "lambda_expression": true}}
	l.rules = []*rule{
		{id: "java/empty-catch", pattern: ErrorHandling, check: javaCatch, query: `(catch_clause (catch_formal_parameter) @param body: (block) @body) @c`},
		{id: "java/unclosed-resource", pattern: ResourceCleanup, check: javaUnclosed, query: `
(local_variable_declaration declarator: (variable_declarator name: (identifier) @var value: (object_creation_expression type: (_) @type))) @decl`},
		{id: "java/static-mutable", pattern: StateMutation, check: javaStatic, query: javaFields},
		{id: "java/shared-formatter", pattern: Concurrency, check: javaFormatter, query: javaFields},
		{id: "java/route-without-auth", pattern: AuthBoundary, check: javaRoute, query: `(method_declaration (modifiers) @mods name: (identifier) @name) @decl`},
		{id: "java/untested-public", pattern: TestCoverage, check: javaUntested, query: `(method_declaration (modifiers) @mods name: (identifier) @name body: (block) @body) @decl`},
		{id: "java/undocumented-public", pattern: APISurface, check: javaUndocumented, query: `
(class_declaration (modifiers) @mods name: (identifier) @name) @decl
(interface_declaration (modifiers) @mods name: (identifier) @name) @decl`},
		{id: "java/hardwired-dependency", pattern: DependencyInjection, check: javaHardwired, query: `
(field_declaration (modifiers) @mods) @field
(object_creation_expression type: (type_identifier) @type) @new`},
	}
	l.after = []finisher{{AuthBoundary, func(fc *fileCtx) { routesDone(fc, "java/route-without-auth") }}}
	return l
}

const javaFields = `(field_declaration (modifiers) @mods type: (_) @type declarator: (variable_declarator name: (identifier) @name)) @field`

func javaCatch(fc *fileCtx, r *rule, m caps) {
	body, typ := m["body"], fc.text(m["param"])
	stmts := 0
	for _, s := range fc.named(body) {
		if !fc.is(s, "line_comment", "block_comment") {
			stmts++
		}
	}
	broad := strings.HasPrefix(typ, "Exception ") || strings.HasPrefix(typ, "Throwable ") || strings.HasPrefix(typ, "RuntimeException ")
	switch {
	case stmts == 0 && body.NamedChildCount() > 0:
		fc.report(m["c"], r, 0.25, "", "catch (%s) holds only a comment: the error is dropped on purpose; make sure that is right", typ)
	case stmts == 0:
		fc.report(m["c"], r, 0.6, "", "empty catch (%s): the error is silently swallowed", typ)
	case stmts == 1 && broad && strings.Contains(fc.text(body), ".printStackTrace()"):
		fc.report(m["c"], r, 0.45, "", "catch (%s) only prints the stack trace and carries on as if nothing failed", typ)
	}
}

var javaClosable = regexp.MustCompile(`^(File(Input|Output)Stream|FileReader|FileWriter|Buffered(Reader|Writer|InputStream|OutputStream)|InputStreamReader|OutputStreamWriter|PrintWriter|PrintStream|Socket|ServerSocket|RandomAccessFile|Scanner|ZipFile|JarFile|Object(Input|Output)Stream|Data(Input|Output)Stream|ZipInputStream|ZipOutputStream|GZIP(Input|Output)Stream)$`)

func javaUnclosed(fc *fileCtx, r *rule, m caps) {
	typ := fc.text(m["type"])
	if !javaClosable.MatchString(typ) {
		return
	}
	decl, v := m["decl"], fc.text(m["var"])
	scope := fc.scope(decl)
	if scope == nil {
		return
	}
	closed, safe := false, false
	for _, c := range fc.find(scope, false, "method_invocation", "resource", "return_statement", "assignment_expression", "argument_list") {
		switch fc.kind(c) {
		case "method_invocation":
			if fc.text(fc.field(c, "object")) == v && fc.text(fc.field(c, "name")) == "close" {
				closed = true
				safe = safe || fc.ancestor(c, "finally_clause") != nil
			}
		case "argument_list":
			if !within(c, decl) && fc.identIn(c, v) && !fc.is(c.Parent(), "method_invocation") {
				safe = true // handed to a wrapper that now owns it
			}
		default:
			if fc.identIn(c, v) && !within(c, decl) {
				safe = true // a try-with-resources, returned, or stored
			}
		}
	}
	switch {
	case safe:
	case closed:
		fc.report(decl, r, 0.4, v, "%s (%s) is closed, but not if an exception comes first; use try-with-resources", v, typ)
	default:
		fc.report(decl, r, 0.6, v, "%s (%s) is never closed in this method; use try-with-resources", v, typ)
	}
}

func javaModifiers(fc *fileCtx, mods *ts.Node) string { return " " + fc.text(mods) + " " }

func javaStatic(fc *fileCtx, r *rule, m caps) {
	mods := javaModifiers(fc, m["mods"])
	if !strings.Contains(mods, " static ") || strings.Contains(mods, " final ") {
		return
	}
	name := fc.text(m["name"])
	fc.report(m["field"], r, 0.5, name, "static non-final field %s: one mutable value shared by every instance and thread", name)
}

func javaFormatter(fc *fileCtx, r *rule, m caps) {
	t := fc.text(m["type"])
	if !strings.Contains(javaModifiers(fc, m["mods"]), " static ") || (t != "SimpleDateFormat" && t != "DecimalFormat" && t != "MessageFormat" && t != "DateFormat") {
		return
	}
	fc.report(m["field"], r, 0.6, fc.text(m["name"]), "static %s %s is shared across threads, but %s is not thread-safe; use java.time.format.DateTimeFormatter or a ThreadLocal", t, fc.text(m["name"]), t)
}

var javaMapping = regexp.MustCompile(`@(Get|Post|Put|Delete|Patch|Request)Mapping\b`)
var javaPathLit = regexp.MustCompile(`"(/[^"]*)"`)
var javaAccessor = regexp.MustCompile(`^(get|set|is)[A-Z]`)
var javaAuthAnn = regexp.MustCompile(`@(PreAuthorize|PostAuthorize|Secured|RolesAllowed|PermitAll|DenyAll)\b`)

func javaRoute(fc *fileCtx, r *rule, m caps) {
	mods := fc.text(m["mods"])
	mm := javaMapping.FindStringSubmatch(mods)
	if mm == nil {
		return
	}
	path := "/" + fc.text(m["name"])
	if i := strings.Index(mods, mm[0]); i >= 0 {
		if q := javaPathLit.FindStringSubmatch(mods[i:]); q != nil {
			path = q[1]
		}
	}
	guarded := javaAuthAnn.MatchString(mods)
	if cls := fc.ancestor(m["decl"], "class_declaration"); cls != nil {
		for _, c := range fc.named(cls) {
			if fc.is(c, "modifiers") && javaAuthAnn.Match(fc.bytes(c)) {
				guarded = true
			}
		}
	}
	verb := strings.ToUpper(mm[1])
	if verb == "REQUEST" {
		verb = ""
	}
	rs := routesOf(fc)
	rs.list = append(rs.list, route{node: m["decl"], path: path, method: verb, guarded: guarded || authRe.Match(fc.bytes(fc.field(m["decl"], "body")))})
}

// javaPublicClass reports whether n sits in a public class or interface.
func javaPublicClass(fc *fileCtx, n *ts.Node) (string, bool) {
	cls := fc.ancestor(n, "class_declaration", "interface_declaration", "enum_declaration", "record_declaration")
	if cls == nil {
		return "", false
	}
	for _, c := range fc.named(cls) {
		if fc.is(c, "modifiers") && strings.Contains(javaModifiers(fc, c), " public ") {
			return fc.text(fc.field(cls, "name")), true
		}
	}
	return "", false
}

func javaUntested(fc *fileCtx, r *rule, m caps) {
	if !strings.Contains(javaModifiers(fc, m["mods"]), " public ") {
		return
	}
	cls, ok := javaPublicClass(fc, m["decl"])
	name := fc.text(m["name"])
	if !ok || m["body"].NamedChildCount() <= 1 && javaAccessor.MatchString(name) {
		return // accessors
	}
	fc.report(m["name"], r, 0.4, cls+"."+name, "public method %s.%s is API that a test should exercise", cls, name)
}

func javaUndocumented(fc *fileCtx, r *rule, m caps) {
	if !strings.Contains(javaModifiers(fc, m["mods"]), " public ") {
		return
	}
	if p := m["decl"].PrevSibling(); fc.is(p, "block_comment") && strings.HasPrefix(fc.text(p), "/**") {
		return
	}
	name := fc.text(m["name"])
	fc.report(m["name"], r, 0.3, name, "public type %s has no Javadoc", name)
}

var javaCollaborator = regexp.MustCompile(`(Service|Repository|Dao|DAO|Client|Gateway|Connection|DataSource|Template)$`)

func javaHardwired(fc *fileCtx, r *rule, m caps) {
	if f := m["field"]; f != nil {
		if mods := fc.text(m["mods"]); strings.Contains(mods, "@Autowired") || strings.Contains(mods, "@Inject") {
			fc.report(f, r, 0.4, "", "field injection: the dependency is invisible in the constructor and cannot be set without the container; inject it through the constructor")
		}
		return
	}
	typ := fc.text(m["type"])
	scope := fc.scope(m["new"])
	if !javaCollaborator.MatchString(typ) || scope == nil {
		return
	}
	name := fc.text(fc.field(scope, "name"))
	if strings.HasPrefix(name, "create") || strings.HasPrefix(name, "new") || strings.HasPrefix(name, "build") {
		return
	}
	fc.report(m["new"], r, 0.45, name, "%s constructs its own %s: the collaborator cannot be replaced; inject it", cmpOr(name, "this code"), typ)
}

func rustLanguage(ptr func() unsafe.Pointer) *lang {
	l := &lang{name: "rust", ptr: ptr, scopes: map[string]bool{"function_item": true, "closure_expression": true}}
	l.rules = []*rule{
		{id: "rust/unwrap", pattern: ErrorHandling, check: rustUnwrap, query: `(call_expression function: (field_expression field: (field_identifier) @m) arguments: (arguments) @args) @call`},
		{id: "rust/discarded-result", pattern: ErrorHandling, check: rustDiscard, query: `(let_declaration pattern: _ @pat value: [(call_expression) (try_expression)] @value) @let`},
		{id: "rust/leak", pattern: ResourceCleanup, check: rustLeak, query: `(call_expression function: (scoped_identifier) @fn) @call`},
		{id: "rust/static-mut", pattern: StateMutation, check: rustStaticMut, query: `(static_item (mutable_specifier) name: (identifier) @name) @item`},
		{id: "rust/untested-pub", pattern: TestCoverage, check: rustUntested, query: `(function_item (visibility_modifier) @vis name: (identifier) @name) @decl`},
		{id: "rust/undocumented-pub", pattern: APISurface, check: rustUndocumented, query: `
(function_item (visibility_modifier) @vis name: (identifier) @name) @decl
(struct_item (visibility_modifier) @vis name: (type_identifier) @name) @decl
(enum_item (visibility_modifier) @vis name: (type_identifier) @name) @decl
(trait_item (visibility_modifier) @vis name: (type_identifier) @name) @decl`},
	}
	return l
}

// rustInTests reports code under #[cfg(test)] or a #[test] function, or
// in a crate's tests, examples or benches.
func rustInTests(fc *fileCtx, n *ts.Node) bool {
	if p := "/" + fc.path; strings.Contains(p, "/examples/") || strings.Contains(p, "/benches/") || strings.HasSuffix(p, "/build.rs") {
		return true
	}
	for p := n; p != nil; p = p.Parent() {
		if fc.is(p, "mod_item", "function_item") {
			for a := p.PrevNamedSibling(); fc.is(a, "attribute_item", "line_comment", "block_comment"); a = a.PrevNamedSibling() {
				if t := fc.text(a); strings.Contains(t, "cfg(test)") || t == "#[test]" || strings.Contains(t, "::test]") {
					return true
				}
			}
		}
	}
	return false
}

func rustUnwrap(fc *fileCtx, r *rule, m caps) {
	meth := fc.text(m["m"])
	if (meth != "unwrap" && meth != "expect") || rustInTests(fc, m["call"]) {
		return
	}
	fn := fc.ancestor(m["call"], "function_item")
	if fc.text(fc.field(fn, "name")) == "main" {
		return
	}
	if meth == "expect" {
		fc.report(m["call"], r, 0.25, "", ".expect() panics on Err/None; fine for invariants, not for input or I/O")
		return
	}
	fc.report(m["call"], r, 0.35, "", ".unwrap() panics on Err/None: the error is turned into a crash instead of being handled or propagated with ?")
}

func rustDiscard(fc *fileCtx, r *rule, m caps) {
	if fc.text(m["pat"]) != "_" || rustInTests(fc, m["let"]) {
		return
	}
	fc.report(m["let"], r, 0.3, "", "let _ = … discards the result: if it is a Result, its error is never looked at")
}

func rustLeak(fc *fileCtx, r *rule, m caps) {
	fn := fc.text(m["fn"])
	switch {
	case strings.HasSuffix(fn, "mem::forget"):
		fc.report(m["call"], r, 0.5, "", "mem::forget skips the value's destructor: whatever it owns (memory, files, locks) is never released")
	case fn == "Box::leak":
		fc.report(m["call"], r, 0.3, "", "Box::leak never frees the value (fine for a process-lifetime singleton)")
	}
}

func rustStaticMut(fc *fileCtx, r *rule, m caps) {
	name := fc.text(m["name"])
	fc.report(m["item"], r, 0.7, name, "static mut %s: every access is unsafe and racy across threads; use an atomic, a Mutex or OnceLock", name)
}

func rustUntested(fc *fileCtx, r *rule, m caps) {
	if fc.text(m["vis"]) != "pub" || rustInTests(fc, m["decl"]) {
		return
	}
	name := fc.text(m["name"])
	fc.report(m["name"], r, 0.4, name, "pub fn %s is API that a test should exercise", name)
}

func rustUndocumented(fc *fileCtx, r *rule, m caps) {
	if fc.text(m["vis"]) != "pub" || rustInTests(fc, m["decl"]) {
		return
	}
	for a := m["decl"].PrevSibling(); a != nil; a = a.PrevSibling() {
		t := fc.text(a)
		if fc.is(a, "line_comment", "block_comment") && (strings.HasPrefix(t, "///") || strings.HasPrefix(t, "/**")) || fc.is(a, "attribute_item") && strings.HasPrefix(t, "#[doc") {
			return
		}
		if !fc.is(a, "attribute_item") {
			break
		}
	}
	name := fc.text(m["name"])
	fc.report(m["name"], r, 0.3, name, "pub item %s has no doc comment (///)", name)
}
