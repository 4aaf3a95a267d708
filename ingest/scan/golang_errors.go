package scan

import (
	"regexp"
	"strings"
)

// Go callees whose last result is a bool, an int or a value, never an
// error: `v, _ := …` on them drops nothing that matters.
var goNotErr = map[string]bool{
	"Load": true, "LoadOrStore": true, "LoadAndDelete": true, "Swap": true, "CompareAndSwap": true,
	"Lookup": true, "LookupEnv": true, "Cut": true, "CutPrefix": true, "CutSuffix": true,
	"DecodeRune": true, "DecodeRuneInString": true, "DecodeLastRune": true, "DecodeLastRuneInString": true,
	"Modf": true, "Frexp": true, "Sincos": true, "Add64": true, "Sub64": true, "Mul64": true, "Div64": true,
	"Add32": true, "Sub32": true, "Mul32": true, "Div32": true, "Float64": true, "Float32": true, "Int64": true, "Uint64": true,
	"Caller": true, "FileLine": true, "Get": true, "Deadline": true, "Value": true, "BasicAuth": true,
}

// Go callees (by name) that return an error worth checking; `_` on their
// last result is a dropped error.
var goErrFuncs = map[string]bool{
	"Atoi": true, "ParseInt": true, "ParseUint": true, "ParseFloat": true, "ParseBool": true, "Unquote": true,
	"ReadAll": true, "ReadFile": true, "ReadDir": true, "Marshal": true, "MarshalIndent": true, "Open": true, "Create": true, "OpenFile": true,
	"Stat": true, "Lstat": true, "Getwd": true, "Hostname": true, "Executable": true, "Abs": true, "Rel": true, "Glob": true,
	"Parse": true, "ParseRequestURI": true, "ParseQuery": true, "PathUnescape": true, "QueryUnescape": true, "Dial": true, "Listen": true,
	"ReadString": true, "ReadBytes": true, "ReadLine": true, "Write": true, "WriteString": true, "Copy": true, "CopyN": true, "ReadFull": true,
	"Output": true, "CombinedOutput": true, "NewRequest": true, "NewRequestWithContext": true, "Do": true, "Read": true, "ReadAt": true, "WriteTo": true, "ReadFrom": true,
	"Compile": true, "Decode": true, "DecodeString": true, "Seek": true, "Accept": true,
	"http.Get": true, "http.Post": true, "http.Head": true, "http.PostForm": true,
}

// Go functions whose only result is an error.
var goErrOnly = map[string]bool{
	"os.Remove": true, "os.RemoveAll": true, "os.Mkdir": true, "os.MkdirAll": true, "os.WriteFile": true, "os.Setenv": true,
	"os.Unsetenv": true, "os.Chdir": true, "os.Chmod": true, "os.Chown": true, "os.Rename": true, "os.Symlink": true, "os.Link": true,
	"os.Truncate": true, "json.Unmarshal": true, "xml.Unmarshal": true, "yaml.Unmarshal": true, "proto.Unmarshal": true, "toml.Unmarshal": true,
}

func goDiscardedError(fc *fileCtx, r *rule, m caps) {
	if fc.text(m["last"]) != "_" || fc.is(m["fn"], "func_literal") {
		return
	}
	left := fc.field(m["stmt"], "left")
	callee := fc.text(m["fn"])
	name := lastSegment(callee)
	lastErr, onlyErr, known := goInfo(fc).errResult(fc, callee, fc.scope(m["stmt"]))
	single := left.NamedChildCount() == 1
	switch {
	case single && (onlyErr || goErrOnly[callee]):
		fc.report(m["stmt"], r, 0.25, "", "the error of %s is explicitly discarded (_ =); say why in a comment or handle it", callee)
	case single:
	case known && lastErr:
		fc.report(m["stmt"], r, 0.6, "", "the error returned by %s is discarded (assigned to _)", callee)
	case known:
	case goErrFuncs[callee]:
		fc.report(m["stmt"], r, 0.55, "", "the error returned by %s is discarded (assigned to _)", callee)
	case goNotErr[name] || strings.HasPrefix(callee, "context."):
	case goErrFuncs[name]:
		fc.report(m["stmt"], r, 0.55, "", "the error returned by %s is discarded (assigned to _)", callee)
	default:
		fc.report(m["stmt"], r, 0.25, "", "the last result of %s is discarded (assigned to _); if it is an error, it is never checked", callee)
	}
}

func goUncheckedCall(fc *fileCtx, r *rule, m caps) {
	callee := fc.text(m["fn"])
	name := lastSegment(callee)
	if name == "Close" || fc.is(m["fn"], "func_literal") {
		return
	}
	_, onlyErr, known := goInfo(fc).errResult(fc, callee, fc.scope(m["stmt"]))
	if (known && onlyErr) || goErrOnly[callee] {
		if strings.HasSuffix(name, "Deadline") {
			fc.report(m["stmt"], r, 0.3, "", "%s returns an error that is never checked (often deliberate for deadlines)", callee)
			return
		}
		fc.report(m["stmt"], r, 0.55, "", "%s returns an error that is never checked", callee)
	}
}

var goErrName = regexp.MustCompile(`^(err|e|[a-zA-Z]*Err|[a-zA-Z]*Error|[a-z]+err)$`)

func goEmptyErrBranch(fc *fileCtx, r *rule, m caps) {
	ifs := m["if"]
	if !goErrName.MatchString(fc.text(m["err"])) || !strings.Contains(fc.text(fc.field(ifs, "condition")), "!=") || fc.field(ifs, "alternative") != nil {
		return
	}
	if len(goStmts(fc, m["body"])) > 0 {
		return
	}
	if len(fc.find(m["body"], false, "comment")) > 0 {
		fc.report(ifs, r, 0.25, "", "%s is checked and then ignored (the branch holds only a comment)", fc.text(m["err"]))
		return
	}
	fc.report(ifs, r, 0.65, "", "%s is checked but the branch is empty: the error is silently ignored", fc.text(m["err"]))
}

// goUnwrappedReturn flags `if err != nil { return …, err }` right after a
// call into another package: the caller gets the error without context.
func goUnwrappedReturn(fc *fileCtx, r *rule, m caps) {
	ifs, errName := m["if"], fc.text(m["err"])
	if errName != "err" || !strings.Contains(fc.text(fc.field(ifs, "condition")), "!=") {
		return
	}
	body := goStmts(fc, m["body"])
	if len(body) != 1 || !fc.is(body[0], "return_statement") {
		return
	}
	vals := fc.named(body[0].NamedChild(0))
	if len(vals) == 0 || fc.text(vals[len(vals)-1]) != errName {
		return
	}
	src := fc.field(ifs, "initializer")
	if src == nil {
		src = ifs.PrevNamedSibling()
	}
	if !fc.is(src, "short_var_declaration", "assignment_statement") || !fc.identIn(fc.field(src, "left"), errName) {
		return
	}
	calls := fc.find(fc.field(src, "right"), false, "call_expression")
	if len(calls) == 0 {
		return
	}
	callee := fc.text(fc.field(calls[0], "function"))
	if !strings.Contains(callee, ".") {
		return
	}
	fc.report(body[0], r, 0.2, "", "the error from %s is returned without context; wrap it (fmt.Errorf(\"…: %%w\", err))", callee)
}
