package stacktrace

import (
	"regexp"
	"strings"
)

var (
	// Firefox and Safari: "handleClick@http://localhost:3000/static/js/main.js:10:5"
	reJSGecko = regexp.MustCompile(`^\s*([^@\s]*)@(.+?):(\d+)(?::(\d+))?\s*$`)
	// TypeError: x is undefined   Uncaught ReferenceError: y   Error [ERR_X]: z   [cause]: Error: w
	reJSErr = regexp.MustCompile(`^\s*(?:\[cause\]:\s*|Caused by:\s*|Uncaught (?:\(in promise\) )?)?([A-Z][\w$.]*(?:Error|Exception|Rejection|Failure)|Error|AggregateError|DOMException)(?: \[[A-Z0-9_]+\])?(?::\s?(.*))?$`)
)

// jsExts are the file extensions a JavaScript stack names.
var jsExts = []string{".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte", ".coffee"}

// parseJS reads V8 stacks ("at fn (file:line:col)") and Firefox/Safari
// stacks ("fn@url:line:col"); an error line starts each error of a cause
// chain ("[cause]: ...", "Caused by: ...").
func parseJS(lines []string) Trace {
	var t Trace
	var blocks [][]Frame // per error, innermost first
	var pending *Error   // the last error line seen, not yet owning frames
	for i, line := range lines {
		if m := matchIf(reJSErr, line, strings.Contains(line, "Error") || strings.Contains(line, "Exception") || strings.Contains(line, "Rejection") || strings.Contains(line, "Failure")); m != nil {
			pending = &Error{Type: m[1], Message: message(m[2])}
			continue
		}
		f, ok := jsFrame(line)
		if !ok {
			continue
		}
		if pending != nil || len(blocks) == 0 {
			e := Error{Type: "Error"}
			if pending != nil {
				e = *pending
			}
			t.Chain = append(t.Chain, e)
			blocks = append(blocks, nil)
			pending = nil
		}
		f.Exception, f.TextLine = len(blocks)-1, i
		blocks[len(blocks)-1] = append(blocks[len(blocks)-1], f)
	}
	// The last error printed is the deepest cause: its frames come first.
	for i := len(blocks) - 1; i >= 0; i-- {
		t.Frames = append(t.Frames, blocks[i]...)
	}
	return t
}

// jsFrame reads one stack line of either dialect.
func jsFrame(line string) (Frame, bool) {
	// V8 (Node, Chrome, Deno, Bun): "    at fn (/srv/app.js:10:5)", "    at /srv/app.js:10:5"
	if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "at "); ok {
		rest = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), " {"))
		return v8Frame(rest, line)
	}
	if m := matchIf(reJSGecko, line, strings.Contains(line, "@")); m != nil {
		file := CleanPath(m[2])
		if !isJSFile(file) {
			return Frame{}, false
		}
		f := Frame{File: file, Line: atoi(m[3]), Column: atoi(m[4]), Raw: raw(line)}
		f.Class, f.Function = splitJSFunc(geckoName(m[1]))
		f.External = jsExternal(file)
		return f, true
	}
	return Frame{}, false
}

// v8Frame reads the part after "at ": "fn (loc)", "loc", "async fn (loc)",
// "new Foo (loc)", "Foo.bar [as baz] (loc)", "eval (eval at f (loc), <anonymous>:1:1)".
func v8Frame(rest, line string) (Frame, bool) {
	fn, loc := "", rest
	if strings.HasSuffix(rest, ")") {
		if i := strings.Index(rest, " ("); i >= 0 {
			fn, loc = rest[:i], rest[i+2:len(rest)-1]
		}
	}
	if strings.HasPrefix(loc, "eval at ") { // the eval's own site: "eval at f (loc), <anonymous>:1:1"
		if i, j := strings.Index(loc, "("), strings.Index(loc, ")"); i >= 0 && j > i {
			loc = loc[i+1 : j]
		}
	}
	path, ln, col, ok := splitLoc(loc)
	if !ok {
		return Frame{}, false
	}
	file := CleanPath(path)
	if !isJSFile(file) && !strings.HasPrefix(file, "node:") && !strings.HasPrefix(file, "internal/") {
		return Frame{}, false
	}
	f := Frame{File: file, Line: ln, Column: col, Raw: raw(line)}
	fn = strings.TrimPrefix(strings.TrimPrefix(fn, "async "), "new ")
	if i := strings.Index(fn, " [as "); i >= 0 {
		fn = fn[:i]
	}
	f.Class, f.Function = splitJSFunc(fn)
	f.External = jsExternal(file)
	return f, true
}

// splitLoc splits "path:line[:column]" from the end.
func splitLoc(loc string) (path string, line, col int, ok bool) {
	i := strings.LastIndexByte(loc, ':')
	if i <= 0 || !allDigits(loc[i+1:]) {
		return "", 0, 0, false
	}
	path, line = loc[:i], atoi(loc[i+1:])
	if j := strings.LastIndexByte(path, ':'); j > 0 && allDigits(path[j+1:]) {
		path, line, col = path[:j], atoi(path[j+1:]), line
	}
	return path, line, col, true
}

func allDigits(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func isJSFile(p string) bool {
	for _, e := range jsExts {
		if strings.HasSuffix(p, e) {
			return true
		}
	}
	return false
}

func jsExternal(p string) bool {
	return IsExternalPath(p) || strings.HasPrefix(p, "internal/") || strings.HasPrefix(p, "node:")
}

// splitJSFunc splits "Server.handle" into class and function;
// "Object.<anonymous>" has no class worth naming.
func splitJSFunc(fn string) (class, name string) {
	fn = strings.TrimSpace(fn)
	i := strings.LastIndexByte(fn, '.')
	if i <= 0 {
		return "", fn
	}
	class, name = fn[:i], fn[i+1:]
	if class == "Object" || class == "Module" || class == "process" {
		class = ""
	}
	return class, name
}

// geckoName cleans a Firefox function name: "App/handleClick/<" → "handleClick".
func geckoName(s string) string {
	s = strings.TrimRight(s, "/<*")
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimRight(s, "<")
}
