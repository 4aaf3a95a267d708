package scan

import (
	"regexp"
	"strconv"
	"strings"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// jsLanguage serves JavaScript, TypeScript and TSX: the TypeScript
// grammars extend the JavaScript one, so the same queries hold (names are
// matched with wildcards where TypeScript says type_identifier).
func jsLanguage(name string, ptr func() unsafe.Pointer, typed bool) *lang {
	l := &lang{name: name, ptr: ptr, scopes: map[string]bool{
		"function_declaration": true, "function_expression": true, "function": true, "arrow_function": true,
		"method_definition": true, "generator_function_declaration": true, "generator_function": true,
	}}
	l.rules = []*rule{
		{id: "js/empty-catch", pattern: ErrorHandling, check: jsEmptyCatch, query: `(catch_clause body: (statement_block) @body) @c`},
		{id: "js/unhandled-rejection", pattern: ErrorHandling, check: jsPromise, query: `
(expression_statement (call_expression function: (member_expression property: (property_identifier) @p) arguments: (arguments) @args) @call) @stmt
(call_expression function: (member_expression property: (property_identifier) @catch) arguments: (arguments . [(arrow_function) (function_expression)] @handler .)) @call`},
		{id: "js/unreleased-resource", pattern: ResourceCleanup, check: jsUnreleased, query: `
(variable_declarator name: (identifier) @var value: (call_expression function: (member_expression object: (identifier) @obj property: (property_identifier) @fn))) @decl
(expression_statement (call_expression function: (identifier) @timer)) @stmt`},
		{id: "js/async-callback", pattern: Concurrency, check: jsAsyncCallback, query: `
(call_expression function: (member_expression property: (property_identifier) @m) arguments: (arguments . [(arrow_function) (function_expression)] @fn)) @call
(new_expression constructor: (identifier) @ctor arguments: (arguments . [(arrow_function) (function_expression)] @fn)) @call`},
		{id: "js/module-state", pattern: StateMutation, check: jsModuleState, query: `
(assignment_expression left: (identifier) @name) @write
(augmented_assignment_expression left: (identifier) @name) @write
(update_expression argument: (identifier) @name) @write`},
		{id: "js/route-without-auth", pattern: AuthBoundary, check: jsRoute, query: `
((call_expression function: (member_expression object: (_) @router property: (property_identifier) @m) arguments: (arguments . (string) @path)) @call
 (#match? @m "^(get|post|put|delete|patch|all)$"))
((call_expression function: (member_expression object: (_) @router property: (property_identifier) @m) arguments: (arguments) @args) @use
 (#eq? @m "use"))`},
		{id: "js/untested-export", pattern: TestCoverage, check: jsUntested, query: jsExports},
		{id: "js/undocumented-export", pattern: APISurface, check: jsUndocumented, query: jsExports},
		{id: "js/hardwired-dependency", pattern: DependencyInjection, check: jsHardwired, query: `
(new_expression constructor: (identifier) @ctor) @new
(member_expression object: (identifier) @process property: (property_identifier) @env) @env_use
(call_expression function: (identifier) @require arguments: (arguments . (string))) @req`},
	}
	if typed {
		l.rules = append(l.rules, &rule{id: "ts/exported-any", pattern: APISurface, check: tsExportedAny, query: jsExports})
	}
	l.after = []finisher{{AuthBoundary, func(fc *fileCtx) { routesDone(fc, "js/route-without-auth") }}}
	return l
}

const jsExports = `
(export_statement declaration: (function_declaration name: (_) @name) @decl) @export
(export_statement declaration: (class_declaration name: (_) @name) @decl) @export
(export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @decl)) @export`

func jsEmptyCatch(fc *fileCtx, r *rule, m caps) {
	body := m["body"]
	if body.NamedChildCount() > 0 {
		if len(fc.find(body, true, "comment")) == int(body.NamedChildCount()) {
			fc.report(m["c"], r, 0.25, "", "empty catch block (only a comment): the error is dropped on purpose; make sure that is right")
		}
		return
	}
	fc.report(m["c"], r, 0.6, "", "empty catch block: the error is silently swallowed")
}

func jsPromise(fc *fileCtx, r *rule, m caps) {
	if h := m["handler"]; h != nil {
		if fc.text(m["catch"]) != "catch" {
			return
		}
		body := fc.field(h, "body")
		if fc.is(body, "statement_block") && body.NamedChildCount() == 0 || fc.is(body, "null", "undefined") {
			fc.report(m["call"], r, 0.5, "", ".catch() with an empty handler: every rejection is silently swallowed")
		}
		return
	}
	if fc.text(m["p"]) != "then" || m["args"].NamedChildCount() != 1 {
		return
	}
	fc.report(m["call"], r, 0.5, "", "promise chain ends in .then() with no rejection handler and is neither awaited nor returned: a rejection goes unhandled")
}

func jsUnreleased(fc *fileCtx, r *rule, m caps) {
	if t := m["timer"]; t != nil {
		if fc.text(t) == "setInterval" {
			fc.report(m["stmt"], r, 0.45, "", "setInterval's id is discarded, so the interval can never be cleared")
		}
		return
	}
	if fc.text(m["obj"]) != "fs" || fc.text(m["fn"]) != "openSync" {
		return
	}
	v := fc.text(m["var"])
	scope := fc.scope(m["decl"])
	if scope == nil {
		scope = fc.root
	}
	if fc.hasCall(scope, "call_expression", "function", func(c string, call *ts.Node) bool {
		return strings.HasSuffix(c, "closeSync") || strings.HasSuffix(c, ".close") && fc.identIn(fc.field(call, "arguments"), v)
	}) || len(fc.find(scope, false, "return_statement")) > 0 && jsReturns(fc, scope, v) || jsCaptured(fc, scope, v) {
		return
	}
	fc.report(m["decl"], r, 0.6, v, "file descriptor %s from fs.openSync is never closed in this function (fs.closeSync)", v)
}

// jsCaptured reports whether a nested function of scope uses v: the
// resource lives as long as that closure.
func jsCaptured(fc *fileCtx, scope *ts.Node, v string) bool {
	for _, fn := range fc.find(scope, false, "arrow_function", "function_expression", "function") {
		if fn.Id() != scope.Id() && fc.identIn(fc.field(fn, "body"), v) {
			return true
		}
	}
	return false
}

func jsReturns(fc *fileCtx, scope *ts.Node, v string) bool {
	for _, ret := range fc.find(scope, false, "return_statement") {
		if fc.identIn(ret, v) {
			return true
		}
	}
	return false
}

func jsAsync(fc *fileCtx, fn *ts.Node) bool { return strings.HasPrefix(fc.text(fn), "async") }

func jsAsyncCallback(fc *fileCtx, r *rule, m caps) {
	if !jsAsync(fc, m["fn"]) {
		return
	}
	if c := m["ctor"]; c != nil {
		if fc.text(c) == "Promise" {
			fc.report(m["call"], r, 0.6, "", "new Promise with an async executor: an exception thrown inside it is lost instead of rejecting the promise")
		}
		return
	}
	if meth := fc.text(m["m"]); meth == "forEach" {
		fc.report(m["call"], r, 0.6, "", "forEach with an async callback: the promises are neither awaited nor checked; use for…of with await, or Promise.all(map(…))")
	}
}

// jsModuleVars are the file's top-level let/var names.
func jsModuleVars(fc *fileCtx) map[string]bool {
	return memo(fc, "js-vars", func() map[string]bool {
		out := map[string]bool{}
		for _, s := range fc.named(fc.root) {
			if fc.is(s, "export_statement") {
				s = fc.field(s, "declaration")
			}
			if fc.is(s, "variable_declaration") || fc.is(s, "lexical_declaration") && strings.HasPrefix(fc.text(s), "let") {
				for _, d := range fc.named(s) {
					if n := fc.field(d, "name"); fc.is(n, "identifier") {
						out[fc.text(n)] = true
					}
				}
			}
		}
		return out
	})
}

func jsModuleState(fc *fileCtx, r *rule, m caps) {
	name, w := fc.text(m["name"]), m["write"]
	if !jsModuleVars(fc)[name] {
		return
	}
	fn := fc.scope(w)
	if fn == nil {
		return
	}
	for s := fn; s != nil; s = fc.scope(s) {
		if jsDeclares(fc, s, name) {
			return
		}
	}
	key := "jsstate:" + name + "@" + strconv.Itoa(int(fn.StartByte()))
	if fc.memo[key] != nil {
		return
	}
	fc.memo[key] = true
	fc.report(w, r, 0.4, name, "module-level %s is reassigned inside a function: state shared by every caller, invisible in signatures", name)
}

// jsDeclares reports whether fn declares name (parameter or local).
func jsDeclares(fc *fileCtx, fn *ts.Node, name string) bool {
	if p := fc.field(fn, "parameters"); p != nil && fc.identIn(p, name) {
		return true
	}
	if p := fc.field(fn, "parameter"); p != nil && fc.text(p) == name {
		return true
	}
	for _, d := range fc.find(fn, true, "variable_declarator") {
		if fc.text(fc.field(d, "name")) == name {
			return true
		}
	}
	return false
}

var jsRouteVerb = map[string]string{"get": "GET", "post": "POST", "put": "PUT", "delete": "DELETE", "patch": "PATCH", "all": ""}

func jsRoute(fc *fileCtx, r *rule, m caps) {
	rs := routesOf(fc)
	if m["use"] != nil {
		if authRe.Match(fc.bytes(m["args"])) {
			rs.routers[fc.text(m["router"])] = true
		}
		return
	}
	_, path, ok := routePath(fc.text(m["path"]))
	args := fc.named(fc.field(m["call"], "arguments"))
	if !ok || len(args) < 2 {
		return
	}
	rt := route{node: m["call"], path: path, method: jsRouteVerb[fc.text(m["m"])], router: fc.text(m["router"])}
	if h := args[len(args)-1]; fc.is(h, "identifier", "member_expression") {
		rt.handler = lastSegment(fc.text(h))
	}
	for _, a := range args[1:] {
		if authRe.Match(fc.bytes(a)) {
			rt.guarded = true
		}
	}
	rs.list = append(rs.list, rt)
}

func jsUntested(fc *fileCtx, r *rule, m caps) {
	what := "function"
	if fc.is(m["decl"], "class_declaration") {
		what = "class"
	}
	name := fc.text(m["name"])
	fc.report(m["name"], r, 0.4, name, "exported %s %s is public API that a test should exercise", what, name)
}

func jsUndocumented(fc *fileCtx, r *rule, m caps) {
	if p := m["export"].PrevSibling(); fc.is(p, "comment") && strings.HasPrefix(fc.text(p), "/**") {
		return
	}
	name := fc.text(m["name"])
	fc.report(m["name"], r, 0.3, name, "exported %s has no doc comment (/** … */)", name)
}

var tsAnyRe = regexp.MustCompile(`:\s*any\b`)

func tsExportedAny(fc *fileCtx, r *rule, m caps) {
	decl := m["decl"]
	if fc.is(decl, "variable_declarator") {
		decl = fc.field(decl, "value")
	}
	if fc.is(decl, "class_declaration") {
		return
	}
	sig := string(fc.bytes(fc.field(decl, "parameters"))) + string(fc.bytes(fc.field(decl, "return_type")))
	if tsAnyRe.MatchString(sig) {
		name := fc.text(m["name"])
		fc.report(m["name"], r, 0.4, name, "exported %s has `any` in its signature: callers lose type checking at the boundary", name)
	}
}

// jsFactory names functions whose job is to build collaborators.
var jsFactory = regexp.MustCompile(`^(create|make|build|get|new)\w*(Client|Service|Connection|Pool|App|Server|Store|Db|DB)?$|(?i)factory`)

func jsHardwired(fc *fileCtx, r *rule, m caps) {
	node := m["new"]
	if node == nil {
		node = m["env_use"]
	}
	if node == nil {
		node = m["req"]
	}
	fn := fc.scope(node)
	if fn == nil {
		return
	}
	fname := jsFuncName(fc, fn)
	if jsFactory.MatchString(fname) || fname == "main" {
		return
	}
	switch {
	case m["new"] != nil:
		ctor := fc.text(m["ctor"])
		if collaboratorRe.MatchString(ctor) {
			fc.report(node, r, 0.45, fname, "%s constructs its own %s: the collaborator cannot be replaced (tests, configuration); inject it", cmpOr(fname, "this function"), ctor)
		}
	case m["env_use"] != nil:
		if fc.text(m["process"]) == "process" && fc.text(m["env"]) == "env" {
			fc.report(node, r, 0.25, fname, "%s reads process.env: configuration read deep inside code; pass it in", cmpOr(fname, "this function"))
		}
	default:
		if fc.text(m["require"]) == "require" {
			fc.report(node, r, 0.3, fname, "%s calls require() inside a function: a hidden dependency loaded at call time", cmpOr(fname, "this function"))
		}
	}
}

// jsFuncName is the name of a function, method or the variable an arrow
// function is assigned to.
func jsFuncName(fc *fileCtx, fn *ts.Node) string {
	if n := fc.field(fn, "name"); n != nil {
		return fc.text(n)
	}
	if p := fn.Parent(); fc.is(p, "variable_declarator") {
		return fc.text(fc.field(p, "name"))
	}
	return ""
}
