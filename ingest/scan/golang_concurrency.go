package scan

import (
	"regexp"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

func goLoopCapture(fc *fileCtx, r *rule, m caps) {
	minor := goMinor(fc.opt.GoVersion)
	if minor >= 22 {
		return // loop variables are per iteration
	}
	vars := goInLoopVars(fc, m["go"], fc.scope(m["go"]))
	if len(vars) == 0 {
		return
	}
	own := goDeclared(fc, m["lit"])
	for _, id := range fc.find(m["body"], false, "identifier") {
		name := fc.text(id)
		if vars[name] == nil || own[name] {
			continue
		}
		sev, note := 0.8, ""
		if minor < 0 {
			sev, note = 0.25, " (only before Go 1.22; the module's go version is unknown)"
		}
		fc.report(m["go"], r, sev, name, "goroutine captures loop variable %s: every goroutine may see the last iteration's value%s; pass it as an argument", name, note)
		return
	}
}

func goSharedWrite(fc *fileCtx, r *rule, m caps) {
	body := m["body"]
	if fc.hasCall(body, "call_expression", "function", func(c string, _ *ts.Node) bool {
		s := lastSegment(c)
		return s == "Lock" || s == "RLock"
	}) {
		return
	}
	own := goDeclared(fc, m["lit"])
	loop := goInLoopVars(fc, m["go"], fc.scope(m["go"]))
	published := goPublishes(fc, body)
	seen := map[string]bool{}
	for _, w := range fc.find(body, false, "assignment_statement", "inc_statement", "dec_statement") {
		targets := fc.named(fc.field(w, "left"))
		if !fc.is(w, "assignment_statement") {
			targets = []*ts.Node{w.NamedChild(0)}
		}
		for _, t := range targets {
			name, how := goRoot(fc, t)
			if name == "" || name == "_" || own[name] || seen[name] || goHandedOver(fc, m["go"], m["lit"], name) {
				continue
			}
			if how == "index" && !goIsMap(fc, m["go"], name) {
				if idx := fc.field(t, "index"); fc.is(idx, "identifier") && (own[fc.text(idx)] || loop[fc.text(idx)] != nil) {
					continue // each goroutine writes its own slot
				}
			}
			seen[name] = true
			sev := map[string]float64{"variable": 0.6, "index": 0.5}[how]
			if sev == 0 {
				sev = 0.45
			}
			msg := "goroutine writes captured %s (%s) without holding a lock: a data race if anything else reads or writes it meanwhile"
			if published {
				sev, msg = 0.25, "goroutine writes captured %s (%s) before signalling (channel or WaitGroup); safe only if every reader waits for that signal"
			}
			fc.report(w, r, sev, name, msg, name, how)
		}
	}
}

// goPublishes reports whether a goroutine body signals completion (a
// channel send, close, or WaitGroup Done), which orders its writes before
// the waiting reader.
func goPublishes(fc *fileCtx, body *ts.Node) bool {
	if len(fc.find(body, false, "send_statement")) > 0 {
		return true
	}
	return fc.hasCall(body, "call_expression", "function", func(c string, _ *ts.Node) bool {
		return c == "close" || strings.HasSuffix(c, ".Done")
	})
}

var goWaitGroupName = regexp.MustCompile(`(?i)(^|\.)(wg|[a-z]*waitgroup|[a-z]*wg)$`)

func goWaitGroupAdd(fc *fileCtx, r *rule, m caps) {
	own := goDeclared(fc, m["lit"])
	for _, c := range fc.find(m["body"], true, "call_expression") {
		fn := fc.field(c, "function")
		if !fc.is(fn, "selector_expression") || fc.text(fc.field(fn, "field")) != "Add" {
			continue
		}
		recv := fc.text(fc.field(fn, "operand"))
		root, _ := goRoot(fc, fc.field(fn, "operand"))
		if goWaitGroupName.MatchString(recv) && !own[root] && !goCountedBefore(fc, m["go"], recv) {
			fc.report(c, r, 0.7, recv, "%s.Add is called inside the goroutine it counts: Wait may return before it runs; call Add before the go statement", recv)
			return
		}
	}
}

func goLockCopied(fc *fileCtx, r *rule, m caps) {
	if p := m["param"]; p != nil {
		t := fc.text(m["pkg"]) + "." + fc.text(m["t"])
		list := p.Parent()
		if !goSyncType(t) || list == nil || fc.field(list.Parent(), "result") != nil && within(p, fc.field(list.Parent(), "result")) {
			return
		}
		fc.report(p, r, 0.7, t, "%s is passed by value: the copy locks and counts nothing of the original; pass *%s", t, t)
		return
	}
	recv := fc.text(m["recv"])
	if goInfo(fc).lockTypes[recv] {
		fc.report(m["decl"], r, 0.65, recv+"."+fc.text(m["name"]), "method %s has a value receiver of %s, which holds a sync lock: each call locks a copy; use *%s", fc.text(m["name"]), recv, recv)
	}
}

// goIsMap reports whether name is made a map in the function around n or
// at package level (by its declaration's text: make(map…), map[…]{…}).
func goIsMap(fc *fileCtx, n *ts.Node, name string) bool {
	scopes := []*ts.Node{goFunc(fc, n), fc.root}
	for _, s := range scopes {
		if s == nil {
			continue
		}
		for _, d := range fc.find(s, s != fc.root, "short_var_declaration", "var_spec", "assignment_statement") {
			if s == fc.root && goFunc(fc, d) != nil {
				continue
			}
			left := fc.field(d, "left")
			if left == nil {
				left = d
			}
			if !fc.identIn(left, name) {
				continue
			}
			t := fc.text(d)
			if i := strings.Index(t, "make(map["); i >= 0 || strings.Contains(t, "= map[") || strings.Contains(t, " map[") {
				return true
			}
		}
	}
	return false
}

// goHandedOver reports a captured variable the spawning function never
// touches after the go statement (outside the literal), when the go
// statement is not in a loop: the goroutine owns it alone.
func goHandedOver(fc *fileCtx, goStmt, lit *ts.Node, name string) bool {
	scope := fc.scope(goStmt)
	if scope == nil || fc.ancestor(goStmt, "for_statement") != nil && within(fc.ancestor(goStmt, "for_statement"), scope) {
		return false
	}
	for _, id := range fc.find(scope, false, "identifier") {
		if fc.text(id) == name && after(id, goStmt) && !within(id, lit) {
			return false
		}
	}
	return true
}

// goCountedBefore reports whether recv.Add runs before the go statement
// in its function: the goroutine is counted, so Adds it makes while
// running cannot let Wait return early.
func goCountedBefore(fc *fileCtx, goStmt *ts.Node, recv string) bool {
	scope := fc.scope(goStmt)
	return scope != nil && fc.hasCall(scope, "call_expression", "function", func(c string, call *ts.Node) bool {
		return c == recv+".Add" && call.EndByte() <= goStmt.StartByte()
	})
}
