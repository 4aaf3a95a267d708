package scan

import (
	"regexp"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// goOpeners are the calls whose first result must be released, with the
// method that releases it.
var goOpeners = map[string]string{
	"os.Open": "Close", "os.Create": "Close", "os.OpenFile": "Close", "os.CreateTemp": "Close", "os.OpenRoot": "Close",
	"ioutil.TempFile": "Close", "net.Dial": "Close", "net.DialTimeout": "Close", "net.Listen": "Close", "net.ListenPacket": "Close",
	"net.DialTCP": "Close", "net.DialUDP": "Close", "net.DialUnix": "Close", "net.ListenTCP": "Close", "net.ListenUDP": "Close", "net.ListenUnix": "Close",
	"tls.Dial": "Close", "tls.Listen": "Close", "sql.Open": "Close", "zip.OpenReader": "Close", "plugin.Open": "",
	"http.Get": "Body.Close", "http.Post": "Body.Close", "http.Head": "Body.Close", "http.PostForm": "Body.Close",
	"time.NewTicker": "Stop",
}

// goBorrowers take a resource without owning it: handing a file to them
// does not close it.
var goBorrowers = map[string]bool{
	"NewReader": true, "NewWriter": true, "NewReaderSize": true, "NewWriterSize": true, "NewScanner": true, "NewDecoder": true,
	"NewEncoder": true, "ReadAll": true, "Copy": true, "CopyN": true, "CopyBuffer": true, "Fprint": true, "Fprintf": true,
	"Fprintln": true, "TeeReader": true, "LimitReader": true, "ReadFull": true, "ReadAtLeast": true, "NewSectionReader": true,
}

func goUnclosed(fc *fileCtx, r *rule, m caps) {
	callee := fc.text(m["pkg"]) + "." + fc.text(m["fn"])
	closer, ok := goOpeners[callee]
	if !ok && fc.text(m["fn"]) == "Do" && strings.Contains(strings.ToLower(fc.text(m["pkg"])), "client") {
		closer, ok = "Body.Close", true
	}
	if !ok || closer == "" {
		return
	}
	stmt, res := m["stmt"], fc.text(m["res"])
	scope := fc.scope(stmt)
	if scope == nil {
		return
	}
	if res == "_" {
		fc.report(stmt, r, 0.75, "", "the result of %s is discarded, so it can never be released (%s)", callee, closer)
		return
	}
	if goReleased(fc, scope, stmt, res, closer) {
		return
	}
	fc.report(stmt, r, 0.7, res, "%s from %s is never released in this function: no %s.%s(), and it is not returned or handed on", res, callee, res, closer)
}

// goReleased reports whether res is released in scope, or escapes it (is
// returned, stored, sent or handed to a function that may own it).
func goReleased(fc *fileCtx, scope, decl *ts.Node, res, closer string) bool {
	want := res + "." + closer
	if fc.hasCall(scope, "call_expression", "function", func(c string, _ *ts.Node) bool { return c == want || c == res+".Close" }) {
		return true
	}
	for _, id := range fc.find(scope, false, "identifier") {
		if fc.text(id) != res || within(id, decl) {
			continue
		}
		p := id.Parent()
		switch fc.kind(p) {
		case "selector_expression", "binary_expression":
			continue // res.Method(), res != nil
		case "expression_list":
			if gp := p.Parent(); fc.is(gp, "assignment_statement", "short_var_declaration") && within(id, fc.field(gp, "left")) {
				continue // res reassigned
			}
		case "argument_list":
			if call := p.Parent(); goBorrowers[lastSegment(fc.text(fc.field(call, "function")))] {
				continue
			}
		}
		return true
	}
	return false
}

func goLockRelease(fc *fileCtx, r *rule, m caps) {
	meth := fc.text(m["m"])
	if (meth != "Lock" && meth != "RLock") || m["args"].NamedChildCount() != 0 {
		return
	}
	stmt, mu := m["stmt"], fc.text(m["mu"])
	scope := fc.scope(stmt)
	if scope == nil || strings.Contains(strings.ToLower(goFuncName(fc, scope)), "lock") {
		return // lock helpers hand the held lock to their caller
	}
	unlock := mu + ".Unlock"
	if meth == "RLock" {
		unlock = mu + ".RUnlock"
	}
	var first *ts.Node
	for _, c := range fc.find(scope, false, "call_expression") {
		if fc.text(fc.field(c, "function")) != unlock {
			continue
		}
		if fc.ancestor(c, "defer_statement") != nil {
			return
		}
		if after(c, stmt) && (first == nil || c.StartByte() < first.StartByte()) {
			first = c
		}
	}
	if first == nil {
		if !fc.hasCall(scope, "call_expression", "function", func(c string, _ *ts.Node) bool { return c == unlock }) {
			fc.report(stmt, r, 0.5, mu, "%s.%s() is never released in this function (no %s(), deferred or not); if a caller unlocks, document it", mu, meth, unlock)
		}
		return
	}
	for _, ret := range fc.find(scope, true, "return_statement") {
		if after(ret, stmt) && ret.StartByte() < first.StartByte() {
			fc.report(stmt, r, 0.7, mu, "returns at line %d while still holding %s (locked here, first %s() at line %d); use defer %s()", ret.StartPosition().Row+1, mu, unlock, first.StartPosition().Row+1, unlock)
			return
		}
	}
}

var goContextWith = regexp.MustCompile(`^With(Cancel|Timeout|Deadline)(Cause)?$`)

func goCancel(fc *fileCtx, r *rule, m caps) {
	if fc.text(m["pkg"]) != "context" || !goContextWith.MatchString(fc.text(m["fn"])) {
		return
	}
	stmt, cancel := m["stmt"], fc.text(m["last"])
	if cancel == "_" {
		fc.report(stmt, r, 0.8, "", "the cancel function of context.%s is discarded: the context's resources leak until its parent is done", fc.text(m["fn"]))
		return
	}
	scope := fc.scope(stmt)
	if scope == nil {
		return
	}
	for _, id := range fc.find(scope, false, "identifier") {
		if fc.text(id) == cancel && !within(id, stmt) {
			return
		}
	}
	fc.report(stmt, r, 0.75, cancel, "%s from context.%s is never called on any path", cancel, fc.text(m["fn"]))
}
