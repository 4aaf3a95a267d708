package scan

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
)

func goLanguage(ptr func() unsafe.Pointer) *lang {
	l := &lang{name: "go", ptr: ptr, scopes: map[string]bool{"function_declaration": true, "method_declaration": true, "func_literal": true}}
	l.rules = []*rule{
		{id: "go/discarded-error", pattern: ErrorHandling, check: goDiscardedError, query: `
(short_var_declaration left: (expression_list (identifier) @last .) right: (expression_list . (call_expression function: (_) @fn) .)) @stmt
(assignment_statement left: (expression_list (identifier) @last .) right: (expression_list . (call_expression function: (_) @fn) .)) @stmt`},
		{id: "go/unchecked-error", pattern: ErrorHandling, check: goUncheckedCall, query: `
(expression_statement (call_expression function: (_) @fn) @call) @stmt`},
		{id: "go/empty-error-branch", pattern: ErrorHandling, check: goEmptyErrBranch, query: goErrIf},
		{id: "go/unwrapped-error", pattern: ErrorHandling, check: goUnwrappedReturn, query: goErrIf},
		{id: "go/unclosed-resource", pattern: ResourceCleanup, check: goUnclosed, query: `
(short_var_declaration left: (expression_list . (identifier) @res) right: (expression_list . (call_expression function: (selector_expression operand: (identifier) @pkg field: (field_identifier) @fn)))) @stmt
(assignment_statement left: (expression_list . (identifier) @res) right: (expression_list . (call_expression function: (selector_expression operand: (identifier) @pkg field: (field_identifier) @fn)))) @stmt`},
		{id: "go/lock-not-released", pattern: ResourceCleanup, check: goLockRelease, query: `
(expression_statement (call_expression function: (selector_expression operand: (_) @mu field: (field_identifier) @m) arguments: (argument_list) @args)) @stmt`},
		{id: "go/cancel-not-called", pattern: ResourceCleanup, check: goCancel, query: `
(short_var_declaration left: (expression_list (identifier) @last .) right: (expression_list . (call_expression function: (selector_expression operand: (identifier) @pkg field: (field_identifier) @fn)))) @stmt`},
		{id: "go/loop-variable-capture", pattern: Concurrency, check: goLoopCapture, query: goGoLiteral},
		{id: "go/unsynchronized-write", pattern: Concurrency, check: goSharedWrite, query: goGoLiteral},
		{id: "go/waitgroup-add-in-goroutine", pattern: Concurrency, check: goWaitGroupAdd, query: goGoLiteral},
		{id: "go/lock-copied", pattern: Concurrency, check: goLockCopied, query: `
(parameter_declaration type: (qualified_type package: (package_identifier) @pkg name: (type_identifier) @t)) @param
(method_declaration receiver: (parameter_list (parameter_declaration type: (type_identifier) @recv)) name: (field_identifier) @name) @decl`},
		{id: "go/mutable-global", pattern: StateMutation, check: goGlobalWrite, query: `
(assignment_statement left: (expression_list) @lhs) @stmt
(inc_statement) @stmt
(dec_statement) @stmt`},
		{id: "go/undocumented-export", pattern: APISurface, check: goUndocumented, query: goDecls},
		{id: "go/exported-returns-unexported", pattern: APISurface, check: goReturnsUnexported, query: `
(function_declaration name: (identifier) @name result: (_) @result) @decl`},
		{id: "go/untested-export", pattern: TestCoverage, check: goUntested, query: `
(function_declaration name: (identifier) @name) @decl
(method_declaration receiver: (parameter_list) @recv name: (field_identifier) @name) @decl`},
		{id: "go/route-without-auth", pattern: AuthBoundary, check: goRoute, query: `
((call_expression function: (selector_expression operand: (_) @router field: (field_identifier) @m) arguments: (argument_list . [(interpreted_string_literal) (raw_string_literal)] @path)) @call
 (#match? @m "^(Handle|HandleFunc|GET|POST|PUT|DELETE|PATCH|Get|Post|Put|Delete|Patch|Any|Method)$"))
((call_expression function: (selector_expression operand: (_) @router field: (field_identifier) @m) arguments: (argument_list (_) @mw)) @use
 (#eq? @m "Use"))`},
		{id: "go/hardwired-dependency", pattern: DependencyInjection, check: goHardwired, query: `
(call_expression function: (selector_expression operand: (identifier) @pkg field: (field_identifier) @fn)) @call
(selector_expression operand: (identifier) @pkg field: (field_identifier) @global) @sel`},
	}
	l.after = []finisher{{AuthBoundary, func(fc *fileCtx) { routesDone(fc, "go/route-without-auth") }}}
	return l
}

const goErrIf = `
(if_statement condition: (binary_expression left: (identifier) @err right: (nil)) consequence: (block) @body) @if`

const goGoLiteral = `
(go_statement (call_expression function: (func_literal body: (block) @body) @lit)) @go`

const goDecls = `
(function_declaration name: (identifier) @name) @decl
(method_declaration receiver: (parameter_list) @recv name: (field_identifier) @name) @decl
(type_spec name: (type_identifier) @name) @decl`

// goFile is what a Go rule needs to know about the whole file.
type goFile struct {
	pkg string
	// results maps a function or method name declared in the file to
	// whether its last result is error (and whether it is the only one).
	lastErr, onlyErr map[string]bool
	// otherRes counts declarations of a name whose last result is not an
	// error: a name declared both ways is ambiguous and left alone.
	otherRes  map[string]bool
	imports   map[string]bool // names imported packages are known by
	types     map[string]bool // type names declared in the file
	lockTypes map[string]bool // struct types holding a sync lock by value
	globals   map[string]bool // package-level variables
	bodies    map[string]*ts.Node
}

func goInfo(fc *fileCtx) *goFile {
	return memo(fc, "go", func() *goFile {
		g := &goFile{lastErr: map[string]bool{}, onlyErr: map[string]bool{}, otherRes: map[string]bool{}, imports: map[string]bool{}, types: map[string]bool{}, lockTypes: map[string]bool{}, globals: map[string]bool{}, bodies: map[string]*ts.Node{}}
		for _, n := range fc.named(fc.root) {
			switch fc.kind(n) {
			case "package_clause":
				if id := n.NamedChild(0); id != nil {
					g.pkg = fc.text(id)
				}
			case "function_declaration", "method_declaration":
				g.addFunc(fc, n)
			case "import_declaration":
				for _, spec := range fc.find(n, true, "import_spec") {
					name := fc.text(fc.field(spec, "name"))
					if name == "" {
						p := strings.Trim(fc.text(fc.field(spec, "path")), "\"`")
						name = p[strings.LastIndexByte(p, '/')+1:]
					}
					g.imports[name] = true
				}
			case "type_declaration":
				for _, s := range fc.find(n, true, "type_spec", "type_alias") {
					g.addType(fc, s)
				}
			case "var_declaration":
				for _, s := range fc.find(n, true, "var_spec") {
					for _, id := range fc.named(s) {
						if fc.is(id, "identifier") && fc.text(id) != "_" {
							g.globals[fc.text(id)] = true
						}
					}
				}
			}
		}
		return g
	})
}

func (g *goFile) addFunc(fc *fileCtx, n *ts.Node) {
	name := fc.text(fc.field(n, "name"))
	if b := fc.field(n, "body"); b != nil {
		g.bodies[name] = b
	}
	res := fc.field(n, "result")
	if res == nil {
		g.otherRes[name] = true
		return
	}
	types := []string{fc.text(res)}
	if fc.is(res, "parameter_list") {
		types = types[:0]
		for _, p := range fc.named(res) {
			if t := fc.field(p, "type"); t != nil {
				types = append(types, fc.text(t))
			}
		}
	}
	if len(types) > 0 && types[len(types)-1] == "error" {
		g.lastErr[name] = true
		g.onlyErr[name] = g.onlyErr[name] || len(types) == 1
	} else {
		g.otherRes[name] = true
	}
}

// errResult says what the file's own declarations tell about callee's
// last result: known is false when the file does not declare it, declares
// it both with and without an error, or callee is qualified by an
// imported package (whose function is not the local one). shadowed names
// (parameters and locals of fn) are never the declared function.
func (g *goFile) errResult(fc *fileCtx, callee string, fn *ts.Node) (lastErr, onlyErr, known bool) {
	name := lastSegment(callee)
	if q, _, ok := strings.Cut(callee, "."); ok && g.imports[q] {
		return false, false, false
	}
	if !strings.Contains(callee, ".") && fn != nil && goLocalNames(fc, fn)[name] {
		return false, false, false
	}
	if g.otherRes[name] {
		return false, false, g.otherRes[name] && !g.lastErr[name]
	}
	return g.lastErr[name], g.onlyErr[name], g.lastErr[name]
}

func (g *goFile) addType(fc *fileCtx, s *ts.Node) {
	name := fc.text(fc.field(s, "name"))
	g.types[name] = true
	t := fc.field(s, "type")
	if !fc.is(t, "struct_type") {
		return
	}
	for _, q := range fc.find(t, true, "qualified_type") {
		if fc.is(q.Parent(), "field_declaration") && goSyncType(fc.text(q)) {
			g.lockTypes[name] = true
		}
	}
}

func goSyncType(t string) bool {
	switch t {
	case "sync.Mutex", "sync.RWMutex", "sync.WaitGroup", "sync.Once", "sync.Cond":
		return true
	}
	return false
}

// goExported reports whether a Go name is exported.
func goExported(name string) bool { return name != "" && name[0] >= 'A' && name[0] <= 'Z' }

// goRecvType is a method receiver's type name without * and type
// arguments.
func goRecvType(fc *fileCtx, recv *ts.Node) string {
	t := strings.TrimLeft(fc.text(recv), "(")
	t = strings.TrimRight(t, ")")
	if i := strings.LastIndexAny(t, " *"); i >= 0 {
		t = t[i+1:]
	}
	if i := strings.IndexByte(t, '['); i >= 0 {
		t = t[:i]
	}
	return strings.TrimSpace(t)
}

// goAPI reports whether a declaration is part of the package's public
// API: exported, on an exported receiver, outside main and internal
// packages.
func goAPI(fc *fileCtx, m caps) (string, bool) {
	name := fc.text(m["name"])
	if !goExported(name) || goInfo(fc).pkg == "main" || strings.Contains("/"+fc.path, "/internal/") {
		return name, false
	}
	if r := m["recv"]; r != nil {
		rt := goRecvType(fc, r)
		if !goExported(rt) {
			return name, false
		}
		name = rt + "." + name
	}
	return name, true
}

// goFunc returns the function or method declaration around n.
func goFunc(fc *fileCtx, n *ts.Node) *ts.Node {
	return fc.ancestor(n, "function_declaration", "method_declaration")
}

func goFuncName(fc *fileCtx, fn *ts.Node) string {
	if fn == nil {
		return ""
	}
	return fc.text(fc.field(fn, "name"))
}

// goStmts returns a block's statements (comments excluded).
func goStmts(fc *fileCtx, block *ts.Node) []*ts.Node {
	var out []*ts.Node
	for _, c := range fc.named(block) {
		if fc.is(c, "statement_list") {
			for _, s := range fc.named(c) {
				if !fc.is(s, "comment") {
					out = append(out, s)
				}
			}
		} else if !fc.is(c, "comment") {
			out = append(out, c)
		}
	}
	return out
}

// goRoot is the variable an assignable expression writes through
// (m[k] → m, s.f.g → s, *p → p).
func goRoot(fc *fileCtx, n *ts.Node) (string, string) {
	how := ""
	for n != nil {
		switch fc.kind(n) {
		case "identifier":
			return fc.text(n), cmpOr(how, "variable")
		case "index_expression":
			how = cmpOr(how, "index")
			n = fc.field(n, "operand")
		case "selector_expression":
			how = cmpOr(how, "field")
			n = fc.field(n, "operand")
		case "unary_expression", "parenthesized_expression":
			how = cmpOr(how, "pointer")
			n = n.NamedChild(n.NamedChildCount() - 1)
		default:
			return "", how
		}
	}
	return "", how
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// goDeclared lists the names declared inside n (parameters, :=, var,
// range variables, receivers).
func goDeclared(fc *fileCtx, n *ts.Node) map[string]bool {
	out := map[string]bool{}
	for _, d := range fc.find(n, false, "parameter_declaration", "variadic_parameter_declaration", "short_var_declaration", "var_spec", "range_clause", "const_spec", "type_switch_statement") {
		switch fc.kind(d) {
		case "short_var_declaration", "range_clause":
			for _, id := range fc.named(fc.field(d, "left")) {
				out[fc.text(id)] = true
			}
		case "type_switch_statement":
			if a := fc.field(d, "alias"); a != nil {
				for _, id := range fc.named(a) {
					out[fc.text(id)] = true
				}
			}
		default:
			for _, id := range fc.named(d) {
				if fc.is(id, "identifier") {
					out[fc.text(id)] = true
				}
			}
		}
	}
	return out
}

// hasCall reports whether n contains a call whose callee text satisfies ok.
func (fc *fileCtx) hasCall(n *ts.Node, callKind, fnField string, ok func(callee string, call *ts.Node) bool) bool {
	for _, c := range fc.find(n, false, callKind) {
		if ok(fc.text(fc.field(c, fnField)), c) {
			return true
		}
	}
	return false
}

// identIn reports whether identifier name occurs inside n.
func (fc *fileCtx) identIn(n *ts.Node, name string, kinds ...string) bool {
	if len(kinds) == 0 {
		kinds = []string{"identifier"}
	}
	for _, id := range fc.find(n, false, kinds...) {
		if fc.text(id) == name {
			return true
		}
	}
	return false
}

var goVersionRe = regexp.MustCompile(`^go?1\.(\d+)`)

// goMinor returns the minor version of a go directive (-1 when unknown).
func goMinor(v string) int {
	m := goVersionRe.FindStringSubmatch(strings.TrimSpace(v))
	if m == nil {
		if strings.HasPrefix(v, "1.") {
			m = goVersionRe.FindStringSubmatch("g" + v)
		}
		if m == nil {
			return -1
		}
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// goInLoopVars returns the variables declared by the for statements
// between n and its function scope.
func goInLoopVars(fc *fileCtx, n, stop *ts.Node) map[string]*ts.Node {
	out := map[string]*ts.Node{}
	for p := n.Parent(); p != nil && (stop == nil || p.Id() != stop.Id()); p = p.Parent() {
		if !fc.is(p, "for_statement") {
			continue
		}
		for _, c := range fc.named(p) {
			var left *ts.Node
			switch fc.kind(c) {
			case "range_clause":
				if strings.Contains(fc.text(c), ":=") {
					left = fc.field(c, "left")
				}
			case "for_clause":
				if init := fc.field(c, "initializer"); fc.is(init, "short_var_declaration") {
					left = fc.field(init, "left")
				}
			}
			for _, id := range fc.named(left) {
				if name := fc.text(id); name != "_" {
					out[name] = p
				}
			}
		}
	}
	return out
}

func contains(list []string, s string) bool { return slices.Contains(list, s) }
