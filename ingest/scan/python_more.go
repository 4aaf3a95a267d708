package scan

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

var pyMutators = map[string]bool{
	"append": true, "extend": true, "insert": true, "update": true, "add": true, "setdefault": true, "pop": true, "popitem": true,
	"remove": true, "discard": true, "clear": true, "sort": true, "reverse": true, "appendleft": true, "__setitem__": true,
}

var pyMutableCtor = map[string]bool{"list": true, "dict": true, "set": true, "defaultdict": true, "OrderedDict": true, "deque": true, "Counter": true, "collections.defaultdict": true, "collections.OrderedDict": true, "collections.deque": true, "collections.Counter": true}

// pyMutableValue reports a literal or constructor call of a mutable
// container.
func pyMutableValue(fc *fileCtx, v *ts.Node) bool {
	switch fc.kind(v) {
	case "list", "dictionary", "set", "list_comprehension", "dictionary_comprehension", "set_comprehension":
		return true
	case "call":
		return pyMutableCtor[fc.text(fc.field(v, "function"))]
	}
	return false
}

// pyMutates reports whether body changes name in place.
func pyMutates(fc *fileCtx, body *ts.Node, name string) bool {
	for _, n := range fc.find(body, false, "call", "assignment", "augmented_assignment", "delete_statement") {
		switch fc.kind(n) {
		case "call":
			obj, meth, ok := strings.Cut(fc.text(fc.field(n, "function")), ".")
			if ok && obj == name && pyMutators[meth] {
				return true
			}
		case "delete_statement":
			for _, s := range fc.find(n, false, "subscript") {
				if fc.text(fc.field(s, "value")) == name {
					return true
				}
			}
		default:
			left := fc.field(n, "left")
			if fc.is(left, "subscript") && fc.text(fc.field(left, "value")) == name {
				return true
			}
			if fc.is(n, "augmented_assignment") && fc.text(left) == name {
				return true
			}
		}
	}
	return false
}

func pyMutableDefault(fc *fileCtx, r *rule, m caps) {
	if !pyMutableValue(fc, m["val"]) {
		return
	}
	fn := fc.ancestor(m["param"], "function_definition", "lambda")
	if fn == nil {
		return
	}
	name := fc.text(m["name"])
	body := fc.field(fn, "body")
	if pyMutates(fc, body, name) && pyRebinds(fc, body, name) {
		fc.report(m["param"], r, 0.35, name, "default %s = %s is rebound on some paths and changed in place on others; if the default itself is changed, every call sees it; default to None", name, fc.text(m["val"]))
		return
	}
	if pyMutates(fc, body, name) {
		fc.report(m["param"], r, 0.75, name, "default %s = %s is created once and mutated here: every call shares and changes it; default to None", name, fc.text(m["val"]))
		return
	}
	fc.report(m["param"], r, 0.25, name, "default %s = %s is shared by every call (not mutated in this function)", name, fc.text(m["val"]))
}

func pyGlobal(fc *fileCtx, r *rule, m caps) {
	g := m["g"]
	fn := fc.scope(g)
	if fn == nil {
		return
	}
	fname := fc.text(fc.field(fn, "name"))
	for _, id := range fc.named(g) {
		name := fc.text(id)
		var writes []*ts.Node
		for _, a := range fc.find(fn, true, "assignment", "augmented_assignment") {
			if left := fc.field(a, "left"); left != nil && (fc.text(left) == name || fc.is(left, "pattern_list", "tuple_pattern") && fc.identIn(left, name)) {
				writes = append(writes, a)
			}
		}
		if len(writes) == 0 {
			continue
		}
		lazy := true
		for _, w := range writes {
			ifs := fc.ancestor(w, "if_statement")
			if ifs == nil || !within(ifs, fn) || !fc.identIn(fc.field(ifs, "condition"), name) {
				lazy = false
			}
		}
		if lazy {
			fc.report(writes[0], r, 0.3, name, "%s lazily initialises module-level %s (global): two threads may both initialise it", fname, name)
			continue
		}
		fc.report(writes[0], r, 0.5, name, "%s rebinds module-level %s (global): hidden shared state that every caller sees", fname, name)
	}
}

// pyRebinds reports whether body assigns name anew (name = ...).
func pyRebinds(fc *fileCtx, body *ts.Node, name string) bool {
	for _, a := range fc.find(body, true, "assignment") {
		if fc.text(fc.field(a, "left")) == name {
			return true
		}
	}
	return false
}

// pyModuleMutables are the module-level names bound to mutable
// containers.
func pyModuleMutables(fc *fileCtx) map[string]bool {
	return memo(fc, "py-mutables", func() map[string]bool {
		out := map[string]bool{}
		for _, s := range fc.named(fc.root) {
			if !fc.is(s, "expression_statement") {
				continue
			}
			a := s.NamedChild(0)
			if fc.is(a, "assignment") && fc.is(fc.field(a, "left"), "identifier") && pyMutableValue(fc, fc.field(a, "right")) {
				out[fc.text(fc.field(a, "left"))] = true
			}
		}
		return out
	})
}

func pyModuleState(fc *fileCtx, r *rule, m caps) {
	name, w := fc.text(m["obj"]), m["write"]
	if !pyModuleMutables(fc)[name] {
		return
	}
	if fc.is(w, "call") {
		if _, meth, _ := strings.Cut(fc.text(fc.field(w, "function")), "."); !pyMutators[meth] {
			return
		}
	}
	fn := fc.scope(w)
	if fn == nil || pyLocal(fc, fn, name) {
		return
	}
	key := "pystate:" + name + "@" + strconv.Itoa(int(fn.StartByte()))
	if fc.memo[key] != nil {
		return
	}
	fc.memo[key] = true
	fname := fc.text(fc.field(fn, "name"))
	for p := w.Parent(); p != nil && within(p, fn); p = p.Parent() {
		if fc.is(p, "with_statement") && strings.Contains(strings.ToLower(fc.text(p.NamedChild(0))), "lock") {
			fc.report(w, r, 0.2, name, "%s changes module-level %s under a lock", fname, name)
			return
		}
	}
	fc.report(w, r, 0.4, name, "%s changes module-level %s in place: state shared by every caller and thread", fname, name)
}

// pyLocal reports whether name is a parameter or local of fn.
func pyLocal(fc *fileCtx, fn *ts.Node, name string) bool {
	if fc.identIn(fc.field(fn, "parameters"), name) {
		return true
	}
	for _, a := range fc.find(fn, true, "assignment") {
		if left := fc.field(a, "left"); fc.is(left, "identifier") && fc.text(left) == name {
			return true
		}
	}
	return false
}

func pyTaskDropped(fc *fileCtx, r *rule, m caps) {
	callee := fc.text(m["fn"])
	obj, meth := "", lastSegment(callee)
	if i := strings.LastIndexByte(callee, '.'); i >= 0 {
		obj = callee[:i]
	}
	if meth != "create_task" && meth != "ensure_future" {
		return
	}
	if obj != "asyncio" && !strings.HasSuffix(strings.TrimSuffix(obj, "()"), "loop") {
		return // TaskGroup and other owners keep their tasks
	}
	fc.report(m["stmt"], r, 0.55, "", "the task from %s is not kept: the event loop holds only a weak reference, so it may be garbage-collected before it finishes", callee)
}

var pyBlocking = map[string]string{
	"time.sleep": "use await asyncio.sleep", "requests.get": "use an async HTTP client", "requests.post": "use an async HTTP client",
	"requests.put": "use an async HTTP client", "requests.delete": "use an async HTTP client", "requests.request": "use an async HTTP client",
	"requests.patch": "use an async HTTP client", "requests.head": "use an async HTTP client", "urlopen": "use an async HTTP client",
	"urllib.request.urlopen": "use an async HTTP client", "subprocess.run": "use asyncio.create_subprocess_exec",
	"subprocess.call": "use asyncio.create_subprocess_exec", "subprocess.check_call": "use asyncio.create_subprocess_exec",
	"subprocess.check_output": "use asyncio.create_subprocess_exec", "os.system": "use asyncio.create_subprocess_shell",
}

func pyBlockingAsync(fc *fileCtx, r *rule, m caps) {
	callee := fc.text(m["fn"])
	fix, ok := pyBlocking[callee]
	if !ok {
		return
	}
	fn := fc.scope(m["call"])
	if fn == nil || !strings.HasPrefix(fc.text(fn), "async ") {
		return
	}
	fc.report(m["call"], r, 0.6, fc.text(fc.field(fn, "name")), "%s blocks the event loop inside async def %s; %s (or run it in an executor)", callee, fc.text(fc.field(fn, "name")), fix)
}

// pyPublic reports whether a module-level name is public API: listed in
// __all__ when the module has one, else not starting with _.
func pyPublic(fc *fileCtx, name string) bool {
	if strings.HasPrefix(name, "_") || pyScriptFile(fc.path) {
		return false
	}
	all := memo(fc, "py-all", func() map[string]bool {
		var out map[string]bool
		for _, s := range fc.named(fc.root) {
			a := s.NamedChild(0)
			if fc.is(s, "expression_statement") && fc.is(a, "assignment") && fc.text(fc.field(a, "left")) == "__all__" {
				out = map[string]bool{}
				for _, str := range fc.find(fc.field(a, "right"), false, "string_content") {
					out[fc.text(str)] = true
				}
			}
		}
		return out
	})
	return all == nil || all[name]
}

func pyScriptFile(p string) bool {
	base := p[strings.LastIndexByte(p, '/')+1:]
	return base == "setup.py" || base == "__main__.py" || base == "manage.py" || base == "conftest.py" || base == "noxfile.py"
}

// pyDocstring reports whether a definition's body starts with a string.
func pyDocstring(fc *fileCtx, def *ts.Node) bool {
	stmts := pyStmts(fc, fc.field(def, "body"))
	return len(stmts) > 0 && fc.is(stmts[0], "expression_statement") && fc.is(stmts[0].NamedChild(0), "string")
}

func pyUndocumented(fc *fileCtx, r *rule, m caps) {
	name := fc.text(m["name"])
	if !pyPublic(fc, name) || pyDocstring(fc, m["decl"]) {
		return
	}
	what := "function"
	if fc.is(m["decl"], "class_definition") {
		what = "class"
	}
	fc.report(m["name"], r, 0.3, name, "public %s %s has no docstring", what, name)
}

func pyUntested(fc *fileCtx, r *rule, m caps) {
	name := fc.text(m["name"])
	if fc.is(m["decl"], "class_definition") {
		return // a class is reached through its methods
	}
	subject := name
	if c := m["cls"]; c != nil {
		if !pyPublic(fc, fc.text(c)) || strings.HasPrefix(name, "_") {
			return
		}
		subject = fc.text(c) + "." + name
	} else if !pyPublic(fc, name) {
		return
	}
	fc.report(m["name"], r, 0.4, subject, "public %s is API that a test should exercise", subject)
}

var pyRouteDecorator = regexp.MustCompile(`^\w+(\.\w+)*\.(route|get|post|put|delete|patch|api_route|websocket)$`)

// pyRoute records Flask/FastAPI-style route handlers and whether they
// check auth (a decorator, a Depends(...) parameter, or the body).
func pyRoute(fc *fileCtx, r *rule, m caps) {
	def, fn := m["def"], m["fn"]
	var rt *route
	guarded := false
	for _, d := range fc.named(def) {
		if !fc.is(d, "decorator") {
			continue
		}
		call := d.NamedChild(0)
		if fc.is(call, "call") && pyRouteDecorator.MatchString(fc.text(fc.field(call, "function"))) {
			args := fc.named(fc.field(call, "arguments"))
			if len(args) > 0 && fc.is(args[0], "string") {
				_, path, ok := routePath(fc.text(args[0]))
				if ok {
					verb := strings.ToUpper(lastSegment(fc.text(fc.field(call, "function"))))
					if verb == "ROUTE" || verb == "API_ROUTE" {
						verb = pyRouteMethods(fc, call)
					}
					rt = &route{node: def, path: path, method: verb}
				}
			}
			if authRe.Match(fc.bytes(fc.field(call, "arguments"))) {
				guarded = true // dependencies=[Depends(auth)]
			}
			continue
		}
		if authRe.Match(fc.bytes(d)) {
			guarded = true
		}
	}
	if rt == nil {
		return
	}
	rt.guarded = guarded || authRe.Match(fc.bytes(fc.field(fn, "parameters"))) || authRe.Match(fc.bytes(fc.field(fn, "body")))
	rs := routesOf(fc)
	rs.list = append(rs.list, *rt)
}

func pyRouteMethods(fc *fileCtx, call *ts.Node) string {
	for _, kw := range fc.find(fc.field(call, "arguments"), true, "keyword_argument") {
		if fc.text(fc.field(kw, "name")) == "methods" {
			v := strings.ToUpper(fc.text(fc.field(kw, "value")))
			for _, verb := range []string{"DELETE", "PUT", "PATCH", "POST"} {
				if strings.Contains(v, verb) {
					return verb
				}
			}
		}
	}
	return "GET"
}

var collaboratorRe = regexp.MustCompile(`(Client|Session|Connection|Conn|Pool|Engine|Repository|Repo|Service|Database|DB|Store|Gateway|Producer|Consumer|Publisher|Api|API|Dao|DAO)$`)

var pyDI = map[string]float64{
	"requests.get": 0.4, "requests.post": 0.4, "requests.put": 0.4, "requests.delete": 0.4, "requests.patch": 0.4, "requests.request": 0.4,
	"requests.head": 0.4, "sqlite3.connect": 0.45, "psycopg2.connect": 0.45, "pymysql.connect": 0.45, "mysql.connector.connect": 0.45,
	"create_engine": 0.45, "sqlalchemy.create_engine": 0.45, "redis.Redis": 0.45, "redis.StrictRedis": 0.45, "MongoClient": 0.45,
	"pymongo.MongoClient": 0.45, "boto3.client": 0.45, "boto3.resource": 0.45, "os.getenv": 0.25, "os.environ.get": 0.25,
}

// pyFactory names functions whose job is to build collaborators.
var pyFactory = regexp.MustCompile(`^(create|make|build|get)_\w*(client|session|engine|connection|app|db)$`)

func pyHardwired(fc *fileCtx, r *rule, m caps) {
	node, callee := m["call"], fc.text(m["fn"])
	if node == nil {
		node, callee = m["env"], fc.text(m["os"])+"."+fc.text(m["environ"])
		if callee != "os.environ" || fc.is(node.Parent(), "attribute") || fc.is(node.Parent(), "call") {
			return // os.environ.get(...) is seen as a call
		}
	}
	fn := fc.scope(node)
	if fn == nil {
		return
	}
	fname := fc.text(fc.field(fn, "name"))
	if fname == "main" || pyFactory.MatchString(fname) {
		return
	}
	if callee == "os.environ" {
		fc.report(node, r, 0.25, fname, "%s reads os.environ: configuration read deep inside code; pass the setting in", fname)
		return
	}
	if sev, ok := pyDI[callee]; ok {
		fc.report(node, r, sev, fname, "%s calls %s itself: the dependency cannot be replaced (tests, configuration); accept it as a parameter", fname, callee)
		return
	}
	ctor := lastSegment(callee)
	if fname != "__init__" || !collaboratorRe.MatchString(ctor) || !fc.is(node.Parent(), "assignment") {
		return
	}
	left := fc.text(fc.field(node.Parent(), "left"))
	attr := strings.TrimPrefix(left, "self.")
	if !strings.HasPrefix(left, "self.") || slices.ContainsFunc(fc.named(fc.field(fn, "parameters")), func(p *ts.Node) bool {
		return strings.Contains(fc.text(p), strings.TrimPrefix(attr, "_"))
	}) {
		return
	}
	fc.report(node, r, 0.45, fname, "__init__ builds its own %s for %s: the collaborator cannot be replaced; accept it as a parameter", ctor, left)
}
