package scan

import (
	"regexp"
	"slices"
	"strings"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
)

func pythonLanguage(ptr func() unsafe.Pointer) *lang {
	l := &lang{name: "python", ptr: ptr, scopes: map[string]bool{"function_definition": true, "lambda": true}}
	l.rules = []*rule{
		{id: "py/bare-except", pattern: ErrorHandling, check: pyBareExcept, query: `(except_clause) @ex`},
		{id: "py/swallowed-exception", pattern: ErrorHandling, check: pySwallowed, query: `(except_clause value: (_) @type) @ex`},
		{id: "py/unclosed-resource", pattern: ResourceCleanup, check: pyUnclosed, query: `
(assignment left: (identifier) @var right: (call function: (_) @fn)) @stmt
(call function: (attribute object: (call function: (identifier) @fn) @inner attribute: (identifier) @meth)) @chain`},
		{id: "py/lock-not-released", pattern: ResourceCleanup, check: pyAcquire, query: `
(expression_statement (call function: (attribute object: (_) @obj attribute: (identifier) @m) arguments: (argument_list) @args)) @stmt`},
		{id: "py/mutable-default", pattern: StateMutation, check: pyMutableDefault, query: `
(default_parameter name: (identifier) @name value: (_) @val) @param
(typed_default_parameter name: (identifier) @name value: (_) @val) @param`},
		{id: "py/global-rebound", pattern: StateMutation, check: pyGlobal, query: `(global_statement) @g`},
		{id: "py/module-state-mutated", pattern: StateMutation, check: pyModuleState, query: `
(call function: (attribute object: (identifier) @obj attribute: (identifier) @m)) @write
(assignment left: (subscript value: (identifier) @obj)) @write
(augmented_assignment left: (subscript value: (identifier) @obj)) @write
(delete_statement (subscript value: (identifier) @obj)) @write`},
		{id: "py/task-dropped", pattern: Concurrency, check: pyTaskDropped, query: `(expression_statement (call function: (_) @fn)) @stmt`},
		{id: "py/blocking-in-async", pattern: Concurrency, check: pyBlockingAsync, query: `(call function: (_) @fn) @call`},
		{id: "py/undocumented-public", pattern: APISurface, check: pyUndocumented, query: pyTopDefs},
		{id: "py/untested-public", pattern: TestCoverage, check: pyUntested, query: pyTopDefs + `
(module (class_definition name: (identifier) @cls body: (block (function_definition name: (identifier) @name) @decl)))
(module (class_definition name: (identifier) @cls body: (block (decorated_definition definition: (function_definition name: (identifier) @name) @decl))))
(module (decorated_definition definition: (class_definition name: (identifier) @cls body: (block (function_definition name: (identifier) @name) @decl))))`},
		{id: "py/route-without-auth", pattern: AuthBoundary, check: pyRoute, query: `(decorated_definition definition: (function_definition) @fn) @def`},
		{id: "py/hardwired-dependency", pattern: DependencyInjection, check: pyHardwired, query: `
(call function: (_) @fn) @call
(attribute object: (identifier) @os attribute: (identifier) @environ) @env`},
	}
	l.after = []finisher{{AuthBoundary, func(fc *fileCtx) { routesDone(fc, "py/route-without-auth") }}}
	return l
}

const pyTopDefs = `
(module (function_definition name: (identifier) @name) @decl)
(module (decorated_definition definition: (function_definition name: (identifier) @name) @decl))
(module (class_definition name: (identifier) @name) @decl)
(module (decorated_definition definition: (class_definition name: (identifier) @name) @decl))`

// pyStmts returns a block's statements without comments.
func pyStmts(fc *fileCtx, block *ts.Node) []*ts.Node {
	var out []*ts.Node
	for _, s := range fc.named(block) {
		if !fc.is(s, "comment") {
			out = append(out, s)
		}
	}
	return out
}

// pyTrivial reports a handler body that does nothing: pass, ..., continue,
// a bare return or return None.
func pyTrivial(fc *fileCtx, block *ts.Node) bool {
	for _, s := range pyStmts(fc, block) {
		switch fc.kind(s) {
		case "pass_statement", "continue_statement", "break_statement":
		case "expression_statement":
			if fc.text(s) != "..." && !fc.is(s.NamedChild(0), "string") {
				return false
			}
		case "return_statement":
			if v := s.NamedChild(0); v != nil && fc.text(v) != "None" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func pyReraises(fc *fileCtx, block *ts.Node) bool {
	return len(fc.find(block, true, "raise_statement")) > 0
}

func pyBareExcept(fc *fileCtx, r *rule, m caps) {
	ex := m["ex"]
	if fc.field(ex, "value") != nil || strings.HasPrefix(fc.text(ex), "except*") {
		return
	}
	var body *ts.Node
	for _, c := range fc.named(ex) {
		switch fc.kind(c) {
		case "block":
			body = c
		case "comment":
		default:
			return // a type the grammar left without a field
		}
	}
	switch {
	case body == nil:
	case pyReraises(fc, body):
		fc.report(ex, r, 0.3, "", "bare except: re-raises, but also intercepts KeyboardInterrupt and SystemExit on the way; catch Exception")
	case pyTrivial(fc, body):
		fc.report(ex, r, 0.8, "", "bare except that does nothing: every exception is silently swallowed, including KeyboardInterrupt and SystemExit")
	default:
		fc.report(ex, r, 0.75, "", "bare except clause catches all exceptions including KeyboardInterrupt and SystemExit")
	}
}

var pyLogCall = regexp.MustCompile(`(?i)(log|warn|print|error|exception|report|traceback|sentry|capture|notify|exc|abort|fail|exit|stderr|write)`)

func pySwallowed(fc *fileCtx, r *rule, m caps) {
	ex, typ := m["ex"], m["type"]
	alias := ""
	if fc.is(typ, "as_pattern") {
		alias = fc.text(fc.field(typ, "alias"))
		typ = typ.NamedChild(0)
	}
	names := fc.text(typ)
	broad := false
	for _, n := range fc.find(typ, false, "identifier", "attribute") {
		t := fc.text(n)
		if t == "Exception" || t == "BaseException" || t == "builtins.Exception" {
			broad = true
		}
	}
	var body *ts.Node
	for _, c := range fc.named(ex) {
		if fc.is(c, "block") {
			body = c
		}
	}
	if body == nil || pyReraises(fc, body) {
		return
	}
	switch {
	case pyTrivial(fc, body) && broad:
		fc.report(ex, r, 0.7, "", "except %s: does nothing: every error is silently swallowed", names)
	case pyTrivial(fc, body):
		fc.report(ex, r, 0.2, "", "except %s: does nothing; say why in a comment", names)
	case broad && (alias == "" || !fc.identIn(body, alias)) && !fc.hasCall(body, "call", "function", func(c string, _ *ts.Node) bool { return pyLogCall.MatchString(c) }):
		if st := pyStmts(fc, body); len(st) == 1 && (fc.is(st[0], "return_statement") || fc.is(st[0], "expression_statement") && fc.is(st[0].NamedChild(0), "assignment")) {
			fc.report(ex, r, 0.25, "", "except %s: falls back to a default and drops the error without a trace", names)
			return
		}
		fc.report(ex, r, 0.4, "", "except %s: catches every error and drops it without logging or re-raising", names)
	}
}

// pyOpeners are calls whose result holds an OS resource.
var pyOpeners = map[string]string{
	"open": "file", "io.open": "file", "codecs.open": "file", "gzip.open": "file", "bz2.open": "file", "lzma.open": "file",
	"tarfile.open": "archive", "zipfile.ZipFile": "archive", "ZipFile": "archive", "socket.socket": "socket",
	"socket.create_connection": "socket", "sqlite3.connect": "connection", "tempfile.NamedTemporaryFile": "file",
	"tempfile.TemporaryFile": "file", "subprocess.Popen": "process", "Popen": "process", "urlopen": "response",
	"urllib.request.urlopen": "response", "request.urlopen": "response", "os.fdopen": "file", "os.popen": "pipe",
}

// pyBorrowers read from a resource without taking it over.
var pyBorrowers = map[string]bool{
	"load": true, "loads": true, "dump": true, "reader": true, "writer": true, "DictReader": true, "DictWriter": true, "print": true,
	"len": true, "iter": true, "next": true, "enumerate": true, "list": true, "isinstance": true, "getattr": true, "hasattr": true,
	"parse": true, "fileno": true, "copyfileobj": true, "str": true, "repr": true,
}

func pyUnclosed(fc *fileCtx, r *rule, m caps) {
	if c := m["chain"]; c != nil {
		if fc.text(m["fn"]) == "open" && slices.Contains([]string{"read", "readlines", "write", "readline"}, fc.text(m["meth"])) {
			fc.report(c, r, 0.3, "", "open(...).%s() leaves the file open until the garbage collector closes it; use with open(...)", fc.text(m["meth"]))
		}
		return
	}
	what, ok := pyOpeners[fc.text(m["fn"])]
	if !ok {
		return
	}
	stmt, v := m["stmt"], fc.text(m["var"])
	scope := fc.scope(stmt)
	if scope == nil {
		scope = fc.root
	}
	closed, inFinally := pyClosed(fc, scope, stmt, v)
	switch {
	case inFinally, pyEscapes(fc, scope, stmt, v):
	case closed && what == "process":
		// wait()/communicate() reap the process; a finally adds little.
	case closed:
		fc.report(stmt, r, 0.4, v, "%s (%s from %s) is closed, but not if an exception comes first; use a with statement", v, what, fc.text(m["fn"]))
	default:
		fc.report(stmt, r, 0.65, v, "%s (%s from %s) is never closed in this scope; use a with statement", v, what, fc.text(m["fn"]))
	}
}

// pyClosed finds v.close() (or another release) in scope and whether one
// sits in a finally clause or v is used as a context manager.
func pyClosed(fc *fileCtx, scope, decl *ts.Node, v string) (closed, safe bool) {
	for _, c := range fc.find(scope, false, "call", "with_item") {
		if fc.is(c, "with_item") {
			if fc.text(c) == v || strings.HasPrefix(fc.text(c), v+" ") {
				return true, true
			}
			continue
		}
		callee := fc.text(fc.field(c, "function"))
		obj, meth, _ := strings.Cut(callee, ".")
		if obj != v || !slices.Contains([]string{"close", "wait", "communicate", "kill", "terminate", "shutdown", "__exit__"}, meth) || !after(c, decl) {
			continue
		}
		closed = true
		if fc.ancestor(c, "finally_clause") != nil {
			safe = true
		}
	}
	return closed, safe
}

// pyEscapes reports whether v leaves scope: returned, yielded, stored,
// or handed to a call that may own it.
func pyEscapes(fc *fileCtx, scope, decl *ts.Node, v string) bool {
	for _, id := range fc.find(scope, false, "identifier") {
		if fc.text(id) != v || within(id, decl) {
			continue
		}
		p := id.Parent()
		switch fc.kind(p) {
		case "attribute", "comparison_operator", "not_operator", "boolean_operator":
			continue
		case "assignment", "augmented_assignment":
			if fc.field(p, "left") != nil && fc.field(p, "left").Id() == id.Id() {
				continue
			}
		case "argument_list":
			if pyBorrowers[lastSegment(fc.text(fc.field(p.Parent(), "function")))] {
				continue
			}
		}
		return true
	}
	return false
}

func pyAcquire(fc *fileCtx, r *rule, m caps) {
	if fc.text(m["m"]) != "acquire" || m["args"].NamedChildCount() != 0 {
		return
	}
	stmt, obj := m["stmt"], fc.text(m["obj"])
	scope := fc.scope(stmt)
	if scope == nil || strings.Contains(strings.ToLower(fc.text(fc.field(scope, "name"))), "acquire") || strings.Contains(fc.text(fc.field(scope, "name")), "enter") {
		return
	}
	released, safe := false, false
	next := stmt.NextNamedSibling()
	for _, c := range fc.find(scope, false, "call") {
		if fc.text(fc.field(c, "function")) == obj+".release" {
			released = true
			// In a finally, or the very next statement: nothing can
			// raise in between.
			safe = safe || fc.ancestor(c, "finally_clause") != nil || next != nil && within(c, next) && fc.is(next, "expression_statement")
		}
	}
	switch {
	case safe:
	case released:
		fc.report(stmt, r, 0.5, obj, "%s.acquire() is released outside a finally clause: an exception in between leaves it held; use with %s:", obj, obj)
	default:
		fc.report(stmt, r, 0.3, obj, "%s.acquire() is never released in this function (fine for a lock used as a signal; otherwise use with %s:)", obj, obj)
	}
}
