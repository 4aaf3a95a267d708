package stacktrace

import (
	"regexp"
	"strings"
)

var (
	// PHP Fatal error:  Uncaught InvalidArgumentException: Invalid URI in /app/src/Uri.php:84
	// InvalidArgumentException: Invalid URI in /app/src/Uri.php:84   (an exception cast to string)
	rePHPHead = regexp.MustCompile(`^\s*(?:PHP )?(?:(?:Fatal error|Warning): +)?(?:Uncaught )?((?:\\?[A-Za-z_]\w*)+(?:\\[A-Za-z_]\w*)*)(?:: (.*?))? in (\S+?\.php):(\d+)\s*$`)
	// #0 /app/src/Utils.php(423): GuzzleHttp\Psr7\Uri->__construct('http:///')
	// #2 [internal function]: App\Kernel->handle(Object(Request))
	// (the file names a .php or .inc script, so a "#1 Fix parser(3): done"
	// line of a pasted issue is no frame).
	rePHPFrame = regexp.MustCompile(`^\s*#(\d+) (?:(.+?\.(?:php|inc|phtml))\((\d+)\)|\[internal function\]): (.*?)(?:\((.*)\))?\s*$`)
)

// parsePHP reads a PHP exception as PHP prints it: the "Uncaught X: msg
// in file:line" head (where the exception was thrown) and the "Stack
// trace:" lines "#N file(line): callee()". A "#N" line places the call
// to its callee, so the function a location lies in is the callee of the
// next line: the head's location is in #0's callee, #0's location in
// #1's, and the last one in the script's top level ({main}).
func parsePHP(lines []string) Trace {
	var t Trace
	type call struct {
		file, line, callee, raw string
		text                    int
	}
	var calls []call
	headFile, headLine, headText := "", "", -1
	for i, line := range lines {
		if m := matchIf(rePHPFrame, line, strings.Contains(line, "#")); m != nil {
			calls = append(calls, call{m[2], m[3], m[4], line, i})
			continue
		}
		if len(t.Chain) == 0 {
			if m := matchIf(rePHPHead, line, strings.Contains(line, ".php:")); m != nil {
				t.Chain = append(t.Chain, Error{Type: strings.TrimPrefix(m[1], `\`), Message: message(m[2])})
				headFile, headLine, headText = m[3], m[4], i
			}
		}
	}
	if len(calls) == 0 {
		t.Chain = nil // a warning line alone is not a trace
		return t
	}
	callee := func(k int) string {
		if k < len(calls) {
			return calls[k].callee
		}
		return "{main}"
	}
	if headFile != "" {
		t.Frames = append(t.Frames, phpFrame(headFile, headLine, callee(0), lines[headText], headText))
	}
	for k, c := range calls {
		if c.file == "" { // [internal function], {main}
			continue
		}
		t.Frames = append(t.Frames, phpFrame(c.file, c.line, callee(k+1), c.raw, c.text))
	}
	return t
}

// phpFrame reads a callee "Ns\Class->method", "Ns\Class::method",
// "Ns\{closure}", "fn" or "{main}" (the script's top level) as the
// function the location lies in.
func phpFrame(file, line, fn, rawLine string, text int) Frame {
	f := Frame{File: CleanPath(file), Line: atoi(line), Raw: raw(rawLine), TextLine: text}
	f.External = IsExternalPath(f.File)
	if fn == "{main}" {
		return f
	}
	class, method := "", fn
	if i := strings.LastIndex(fn, "->"); i >= 0 {
		class, method = fn[:i], fn[i+2:]
	} else if i := strings.LastIndex(fn, "::"); i >= 0 {
		class, method = fn[:i], fn[i+2:]
	}
	if i := strings.LastIndexByte(method, '\\'); i >= 0 { // Ns\helper, Ns\{closure}: a namespace's function
		f.Module, method = method[:i], method[i+1:]
	}
	if method != "{closure}" {
		f.Function = method
	}
	if i := strings.LastIndexByte(class, '\\'); i >= 0 {
		f.Module, f.Class = class[:i], class[i+1:]
	} else if class != "" {
		f.Class = class
	}
	return f
}
