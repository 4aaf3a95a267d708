package stacktrace

import (
	"regexp"
	"strings"
)

var (
	// goroutine 1 [running]:   goroutine 18 [chan receive, 2 minutes]:
	reGoroutine = regexp.MustCompile(`^goroutine (\d+)(?: gp=\S+ m=\S+(?: mp=\S+)?)? \[[^\]]*\]:\s*$`)
	// \t/home/ci/app/server.go:42 +0x1d
	reGoFile = regexp.MustCompile(`^\s+(\S.*?\.(?:go|s|c)):(\d+)(?:\s+\+0x[0-9a-fA-F]+)?(?:\s+fp=.*)?\s*$`)
	// main.(*Server).handle(0xc000010000, {0x1, 0x2})   created by net/http.(*Server).Serve in goroutine 1
	reGoFunc = regexp.MustCompile(`^(?:created by )?[^\s(][^\s(]*(?:\(.*\))?(?: in goroutine \d+)?\s*$`)
	// "    server_test.go:42: expected 3, got 4" under "--- FAIL: TestX (0.00s)"
	reGoTestLine = regexp.MustCompile(`^\s+([\w.\-/]+_test\.go):(\d+): ?(.*)$`)
	reGoTestFail = regexp.MustCompile(`^\s*--- FAIL: (\S+)`)
)

// parseGo reads panics, fatal errors and goroutine dumps (the first
// goroutine of a panic is the one that panicked; a dump without a panic,
// or a deadlock, keeps every goroutine), `go test` failure lines, and
// frames pasted without their "goroutine N" header: a file line under a
// function line, or one that carries its "+0x" offset.
func parseGo(lines []string) Trace {
	var t Trace
	var fn string     // the function line awaiting its file line
	inFirst := false  // inside the first goroutine block
	allBlocks := true // keep frames of every goroutine
	var test string   // the failing test of "--- FAIL: TestX"
	var tests []Frame // "file_test.go:12: msg" lines
	var testErr *Error
	fnAt := -1 // the line index of fn
	for i, line := range lines {
		trim := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "panic: "), strings.HasPrefix(trim, "panic: ") && len(t.Chain) > 0:
			// A value recovered and panicked again prints twice
			// ("panic: X [recovered]" then "\tpanic: X"): one error.
			if e := goPanic(strings.TrimPrefix(trim, "panic: ")); len(t.Chain) == 0 || t.Chain[len(t.Chain)-1] != e {
				t.Chain = append(t.Chain, e)
			}
			allBlocks = false
			continue
		case strings.HasPrefix(line, "fatal error: "):
			msg := strings.TrimPrefix(line, "fatal error: ")
			t.Chain = append(t.Chain, Error{Type: "fatal error", Message: message(msg)})
			allBlocks = strings.Contains(msg, "all goroutines are asleep")
			continue
		}
		if m := matchIf(reGoroutine, line, strings.HasPrefix(line, "goroutine ")); m != nil {
			t.Goroutines++
			inFirst = t.Goroutines == 1
			fn = ""
			continue
		}
		if m := matchIf(reGoTestFail, line, strings.Contains(line, "--- FAIL")); m != nil {
			test = m[1]
			continue
		}
		if t.Goroutines > 0 && !inFirst && !allBlocks {
			if line != trim && strings.Contains(line, ".go:") {
				t.Skipped = append(t.Skipped, i)
			}
			continue
		}
		if m := matchIf(reGoFile, line, line != trim && (t.Goroutines > 0 || strings.Contains(line, ".go:"))); m != nil {
			headed := t.Goroutines > 0
			if !headed && fnAt != i-1 {
				fn = "" // a headerless file line takes only the line just above it
			}
			if headed && (fn != "" || strings.HasSuffix(m[1], ".go")) ||
				!headed && strings.HasSuffix(m[1], ".go") && (fn != "" || strings.Contains(line, "+0x")) {
				f := goFrame(fn, m[1], m[2])
				f.TextLine = i
				t.Frames = append(t.Frames, f)
			}
			fn = ""
			continue
		}
		if line != "" && line[0] != ' ' && line[0] != '\t' &&
			(t.Goroutines > 0 || strings.HasPrefix(line, "created by ") || strings.HasSuffix(trim, ")") && strings.Contains(line, ".")) &&
			(strings.HasPrefix(line, "created by ") || goCallShape(line) && reGoFunc.MatchString(line)) {
			fn, fnAt = line, i
			continue
		}
		if m := matchIf(reGoTestLine, line, t.Goroutines == 0 && strings.Contains(line, "_test.go:")); m != nil {
			f := Frame{File: CleanPath(m[1]), Line: atoi(m[2]), Raw: raw(line), TextLine: i}
			if test != "" {
				f.Function = test[strings.LastIndexByte(test, '/')+1:]
				if i := strings.IndexByte(test, '/'); i > 0 {
					f.Function = test[:i] // the subtest runs inside its parent's function
				}
			}
			tests = append(tests, f)
			if testErr == nil {
				testErr = &Error{Type: "test failure", Message: message(m[3])}
			}
		}
	}
	// A panic's stack is more specific than the test's failure lines;
	// a test that only failed has nothing else.
	t.Frames = append(t.Frames, tests...)
	if testErr != nil && len(t.Chain) == 0 {
		t.Chain = append(t.Chain, *testErr)
	}
	return t
}

// goCallShape is a cheap test before reGoFunc: no blank before the
// argument list ("pkg.F(0x1)", "main.main()") or in a name without one.
func goCallShape(line string) bool {
	i := strings.IndexAny(line, " \t(")
	return i < 0 || line[i] == '('
}

// goPanic splits a panic value: runtime errors keep their kind.
func goPanic(msg string) Error {
	msg = strings.TrimSuffix(strings.TrimSpace(msg), " [recovered]")
	msg = strings.TrimSuffix(msg, " [recovered, repanicked]")
	if rest, ok := strings.CutPrefix(msg, "runtime error: "); ok {
		return Error{Type: "runtime error", Message: message(rest)}
	}
	return Error{Type: "panic", Message: message(msg)}
}

// goFrame builds a frame from a function line and its file line.
func goFrame(fnLine, file, line string) Frame {
	f := Frame{File: CleanPath(file), Line: atoi(line), Raw: raw(strings.TrimSpace(fnLine) + " " + strings.TrimSpace(file) + ":" + line)}
	if fnLine != "" {
		f.Module, f.Class, f.Function = splitGoFunc(goFuncName(fnLine))
	}
	f.External = IsExternalPath(f.File) || isGoStdPackage(f.Module) && goStdFile(f.File, f.Module)
	return f
}

// goStdFile reports whether file sits where GOROOT keeps pkg
// (".../src/net/http/server.go"), or is the bare relative path a
// -trimpath build prints ("net/http/server.go").
func goStdFile(file, pkg string) bool {
	return strings.Contains(file, "/src/"+pkg+"/") || strings.HasPrefix(file, pkg+"/")
}

// goFuncName drops "created by ", " in goroutine N" and the argument
// list from a function line: the last balanced parenthesised group.
func goFuncName(line string) string {
	s := strings.TrimPrefix(strings.TrimSpace(line), "created by ")
	if i := strings.Index(s, " in goroutine "); i >= 0 {
		s = s[:i]
	}
	if !strings.HasSuffix(s, ")") {
		return s
	}
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				return s[:i]
			}
		}
	}
	return s
}

// splitGoFunc splits "github.com/acme/app/server.(*Server).handle.func1"
// into the package path, the receiver type and the function.
func splitGoFunc(full string) (pkg, recv, fn string) {
	full = stripBrackets(full)
	slash := strings.LastIndexByte(full, '/')
	dot := strings.IndexByte(full[slash+1:], '.')
	if dot < 0 {
		return "", "", full
	}
	pkg, rest := full[:slash+1+dot], full[slash+2+dot:]
	parts := strings.Split(rest, ".")
	// Drop closure and wrapper suffixes: handle.func1, handle.func1.2, init.0, gowrap1.
	for len(parts) > 1 {
		last := parts[len(parts)-1]
		if strings.HasPrefix(last, "func") || strings.HasPrefix(last, "gowrap") || strings.HasPrefix(last, "deferwrap") || atoi(last) > 0 || last == "0" {
			parts = parts[:len(parts)-1]
			continue
		}
		break
	}
	if len(parts) >= 2 {
		recv = strings.TrimSuffix(strings.TrimPrefix(parts[0], "(*"), ")")
		return pkg, strings.Trim(recv, "()*"), parts[len(parts)-1]
	}
	return pkg, "", parts[0]
}

// stripBrackets removes generic instantiations ("Map[...]").
func stripBrackets(s string) string { return stripNested(s, '[', ']') }

// stripNested removes what open and close enclose, nesting included; an
// unmatched close is dropped.
func stripNested(s string, open, close rune) string {
	if !strings.ContainsRune(s, open) {
		return s
	}
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == open:
			depth++
		case r == close:
			depth = max(0, depth-1)
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}
