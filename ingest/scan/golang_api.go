package scan

import (
	"strconv"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

func goGlobalWrite(fc *fileCtx, r *rule, m caps) {
	g := goInfo(fc)
	stmt := m["stmt"]
	if len(g.globals) == 0 {
		return
	}
	fn := goFunc(fc, stmt)
	fname := goFuncName(fc, fn)
	if fn == nil || fname == "init" {
		return
	}
	targets := fc.named(m["lhs"])
	if m["lhs"] == nil {
		targets = []*ts.Node{stmt.NamedChild(0)}
	}
	for _, t := range targets {
		name, _ := goRoot(fc, t)
		if !g.globals[name] {
			continue
		}
		key := "global:" + name + "@" + strconv.Itoa(int(fn.StartByte()))
		if fc.memo[key] != nil || goLocalNames(fc, fn)[name] {
			continue
		}
		fc.memo[key] = true
		sev, how := 0.45, "racy unless every access holds the same lock"
		switch {
		case goOnce(fc, stmt, fname):
			sev, how = 0.2, "initialised once (sync.Once or an init helper)"
		case goLocks(fc, fn):
			sev, how = 0.25, "this function takes a lock; check every other access does too"
		}
		fc.report(stmt, r, sev, name, "package-level %s is written in %s: shared mutable state, %s", name, fname, how)
	}
}

// goOnce reports writes that run once: inside a func literal handed to
// X.Do (sync.Once), in a function the file hands to X.Do, or in an
// init*/setup* helper.
func goOnce(fc *fileCtx, stmt *ts.Node, fname string) bool {
	for p := stmt.Parent(); p != nil; p = p.Parent() {
		if fc.is(p, "func_literal") && fc.is(p.Parent(), "argument_list") && strings.HasSuffix(fc.text(fc.field(p.Parent().Parent(), "function")), ".Do") {
			return true
		}
	}
	lower := strings.ToLower(fname)
	if strings.HasPrefix(lower, "init") || strings.HasPrefix(lower, "setup") {
		return true
	}
	return memo(fc, "once-funcs", func() map[string]bool {
		out := map[string]bool{}
		for _, c := range fc.find(fc.root, false, "call_expression") {
			if strings.HasSuffix(fc.text(fc.field(c, "function")), ".Do") {
				for _, a := range fc.named(fc.field(c, "arguments")) {
					out[lastSegment(fc.text(a))] = true
				}
			}
		}
		return out
	})[fname]
}

func goLocalNames(fc *fileCtx, fn *ts.Node) map[string]bool {
	return memo(fc, "locals@"+strconv.Itoa(int(fn.StartByte())), func() map[string]bool { return goDeclared(fc, fn) })
}

func goLocks(fc *fileCtx, fn *ts.Node) bool {
	return memo(fc, "locks@"+strconv.Itoa(int(fn.StartByte())), func() bool {
		return fc.hasCall(fn, "call_expression", "function", func(c string, _ *ts.Node) bool {
			s := lastSegment(c)
			return s == "Lock" || s == "RLock"
		})
	})
}

// goDocumented reports whether a comment ends on the line before decl
// (or before its single-spec type declaration).
func goDocumented(fc *fileCtx, decl *ts.Node) bool {
	for n := decl; n != nil; n = n.Parent() {
		if p := n.PrevSibling(); fc.is(p, "comment") && p.EndPosition().Row+1 >= n.StartPosition().Row {
			return true
		}
		if !fc.is(n, "type_spec") {
			return false
		}
	}
	return false
}

// goWellKnown are methods that implement standard interfaces; their
// meaning is the interface's, so they need no doc comment of their own.
var goWellKnown = map[string]bool{
	"String": true, "GoString": true, "Error": true, "Unwrap": true, "Is": true, "As": true, "ServeHTTP": true, "Timeout": true,
	"Temporary": true, "Len": true, "Less": true, "Swap": true, "Read": true, "Write": true, "Close": true, "Format": true,
	"MarshalJSON": true, "UnmarshalJSON": true, "MarshalText": true, "UnmarshalText": true, "MarshalBinary": true, "UnmarshalBinary": true,
	"Network": true, "Seek": true, "ReadAt": true, "WriteTo": true, "ReadFrom": true, "Scan": true, "Value": true,
}

func goUndocumented(fc *fileCtx, r *rule, m caps) {
	name, ok := goAPI(fc, m)
	if !ok || goDocumented(fc, m["decl"]) || (m["recv"] != nil && goWellKnown[fc.text(m["name"])]) || goFunc(fc, m["decl"]) != nil {
		return
	}
	what := map[string]string{"function_declaration": "function", "method_declaration": "method", "type_spec": "type"}[fc.kind(m["decl"])]
	fc.report(m["name"], r, 0.3, name, "exported %s %s has no doc comment", what, name)
}

func goReturnsUnexported(fc *fileCtx, r *rule, m caps) {
	name, ok := goAPI(fc, m)
	if !ok {
		return
	}
	g := goInfo(fc)
	for _, t := range fc.find(m["result"], false, "type_identifier") {
		tn := fc.text(t)
		if !goExported(tn) && g.types[tn] && !fc.is(t.Parent(), "qualified_type") {
			fc.report(m["name"], r, 0.5, name, "exported %s returns unexported type %s: callers cannot name it or read its documentation", name, tn)
			return
		}
	}
}

func goUntested(fc *fileCtx, r *rule, m caps) {
	name, ok := goAPI(fc, m)
	if !ok {
		return
	}
	what := "function"
	if m["recv"] != nil {
		what = "method"
	}
	fc.report(m["name"], r, 0.4, name, "exported %s %s is public API that a test should exercise", what, name)
}

// goDI are the calls and globals that hard-wire a collaborator.
var goDI = map[string]struct {
	sev float64
	why string
}{
	"http.Get":              {0.45, "uses the shared http.DefaultClient (no timeout, no replacement in tests); accept an *http.Client"},
	"http.Post":             {0.45, "uses the shared http.DefaultClient (no timeout, no replacement in tests); accept an *http.Client"},
	"http.Head":             {0.45, "uses the shared http.DefaultClient (no timeout, no replacement in tests); accept an *http.Client"},
	"http.PostForm":         {0.45, "uses the shared http.DefaultClient (no timeout, no replacement in tests); accept an *http.Client"},
	"http.DefaultClient":    {0.4, "uses the process-wide client; accept an *http.Client"},
	"http.DefaultTransport": {0.35, "uses the process-wide transport; accept an http.RoundTripper"},
	"sql.Open":              {0.5, "opens its own database instead of receiving a *sql.DB"},
	"os.Getenv":             {0.25, "reads the environment; pass the setting in"},
	"os.LookupEnv":          {0.25, "reads the environment; pass the setting in"},
	"redis.NewClient":       {0.5, "builds its own Redis client instead of receiving one"},
	"grpc.Dial":             {0.5, "dials its own gRPC connection instead of receiving one"},
	"grpc.NewClient":        {0.5, "builds its own gRPC client instead of receiving one"},
	"mongo.Connect":         {0.5, "connects its own MongoDB client instead of receiving one"},
	"pgxpool.New":           {0.5, "builds its own connection pool instead of receiving one"},
	"pgx.Connect":           {0.5, "connects its own database instead of receiving a connection"},
}

func goHardwired(fc *fileCtx, r *rule, m caps) {
	node, member := m["call"], m["fn"]
	if node == nil {
		node, member = m["sel"], m["global"]
	}
	key := fc.text(m["pkg"]) + "." + fc.text(member)
	di, ok := goDI[key]
	if !ok || (m["sel"] != nil && !strings.HasPrefix(fc.text(member), "Default")) {
		return
	}
	fn := goFunc(fc, node)
	name := goFuncName(fc, fn)
	if fn == nil || goInfo(fc).pkg == "main" || name == "main" || name == "init" || strings.HasPrefix(strings.ToLower(name), "new") || strings.HasPrefix(name, "Default") {
		return // composition roots and constructors are where wiring belongs
	}
	for p := node.Parent(); p != nil && p.Id() != fn.Id(); p = p.Parent() {
		if fc.is(p, "if_statement") && strings.Contains(fc.text(fc.field(p, "condition")), "== nil") {
			return // a default for what was not injected
		}
	}
	fc.report(node, r, di.sev, name, "%s calls %s: it %s", name, key, di.why)
}
