package stacktrace

import (
	"regexp"
	"strings"
)

var (
	// Exception in thread "main" java.lang.IllegalStateException: bad   com.acme.AuthException: denied
	reJavaHead = regexp.MustCompile(`^\s*(?:Exception in thread "[^"]*"\s+)?([a-zA-Z_$][\w$]*(?:\.[a-zA-Z_$][\w$]*)+)(?::\s?(.*))?$`)
	// Exception in thread "main" MyError: x  (an unqualified class after the thread prefix)
	reJavaThread = regexp.MustCompile(`^\s*Exception in thread "[^"]*"\s+([A-Za-z_$][\w$.]*)(?::\s?(.*))?$`)
	// Caused by: java.sql.SQLException: locked
	reJavaCause = regexp.MustCompile(`^\s*Caused by:\s+([^\s:]+)(?::\s?(.*))?$`)
	// at com.acme.Auth.login(Auth.java:42)   at java.base/java.util.Map.get(Map.java:1)   at app//x.Y.z(Y.kt:3)
	reJavaAt = regexp.MustCompile(`^\s*at\s+([^\s(]+)\(([^)]*)\)`)
)

// parseJava reads Java and Kotlin exceptions: the header, "\tat" frames,
// "Caused by:" chains and "... N more" elisions; "Suppressed:" blocks are
// skipped (they did not cause the failure).
func parseJava(lines []string) Trace {
	var t Trace
	var blocks [][]Frame
	var pending *Error
	suppressed := false
	for i, line := range lines {
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "Suppressed: ") {
			suppressed = true
			continue
		}
		if m := matchIf(reJavaCause, line, strings.HasPrefix(trim, "Caused by:")); m != nil {
			pending, suppressed = &Error{Type: m[1], Message: message(m[2])}, false
			continue
		}
		if m := matchIf(reJavaAt, line, strings.HasPrefix(trim, "at ") && strings.Contains(trim, "(")); m != nil && isJavaLoc(m[2]) && !isCSharpAt(line) {
			if suppressed {
				t.Skipped = append(t.Skipped, i)
				continue
			}
			if pending != nil || len(blocks) == 0 {
				e := Error{Type: "Exception"}
				if pending != nil {
					e = *pending
				}
				t.Chain = append(t.Chain, e)
				blocks = append(blocks, nil)
				pending = nil
			}
			f := javaFrame(m[1], m[2], line)
			f.Exception, f.TextLine = len(blocks)-1, i
			blocks[len(blocks)-1] = append(blocks[len(blocks)-1], f)
			continue
		}
		if strings.HasPrefix(trim, "...") && strings.HasSuffix(trim, "more") {
			continue
		}
		if m := matchIf(reJavaThread, line, strings.HasPrefix(trim, "Exception in thread")); m != nil {
			pending, suppressed = &Error{Type: m[1], Message: message(m[2])}, false
			continue
		}
		if m := matchIf(reJavaHead, line, len(blocks) == 0 && qualifiedHead(trim) && !strings.Contains(trim, " at ")); m != nil && looksLikeJavaClass(m[1]) {
			pending = &Error{Type: m[1], Message: message(m[2])}
		}
	}
	for i := len(blocks) - 1; i >= 0; i-- {
		t.Frames = append(t.Frames, blocks[i]...)
	}
	return t
}

// qualifiedHead is a cheap test before reJavaHead: the line starts with
// a dotted name ("java.lang.IllegalStateException: …").
func qualifiedHead(trim string) bool {
	head := trim
	if i := strings.IndexAny(trim, " :"); i >= 0 {
		head = trim[:i]
	}
	return strings.Contains(head, ".")
}

// isJavaLoc accepts what a JVM prints between a frame's parentheses —
// "Auth.java:42", "Auth.kt", "Native Method", "Unknown Source" — and not
// a .NET parameter list ("String user", "").
func isJavaLoc(loc string) bool {
	return loc == "Native Method" || loc == "Unknown Source" || loc != "" && !strings.Contains(loc, " ")
}

// looksLikeJavaClass accepts a qualified class whose simple name starts
// with a capital letter ("java.lang.IllegalStateException").
func looksLikeJavaClass(q string) bool {
	last := q[strings.LastIndexByte(q, '.')+1:]
	return last != "" && last[0] >= 'A' && last[0] <= 'Z'
}

// javaFrame reads "com.acme.Auth$Inner.lambda$login$0" and "Auth.java:42":
// the file becomes com/acme/Auth.java, the package's directory.
func javaFrame(qualified, loc, line string) Frame {
	f := Frame{Raw: raw(line)}
	jdkModule := false
	if i := strings.LastIndexByte(qualified, '/'); i >= 0 { // module or class loader prefix
		mod := strings.Trim(qualified[:i], "/")
		jdkModule = strings.HasPrefix(mod, "java.") || strings.HasPrefix(mod, "jdk.")
		qualified = qualified[i+1:]
	}
	cls, method := qualified, ""
	if i := strings.LastIndexByte(qualified, '.'); i >= 0 {
		cls, method = qualified[:i], qualified[i+1:]
	}
	pkg, simple := "", cls
	if i := strings.LastIndexByte(cls, '.'); i >= 0 {
		pkg, simple = cls[:i], cls[i+1:]
	}
	if i := strings.IndexByte(simple, '$'); i > 0 {
		simple = simple[:i]
	}
	f.Module, f.Class, f.Function = pkg, simple, javaMethod(method)
	name, num, _ := strings.Cut(loc, ":")
	if strings.Contains(name, ".") && !strings.Contains(name, " ") {
		f.File = name
		if pkg != "" {
			f.File = strings.ReplaceAll(pkg, ".", "/") + "/" + name
		}
		f.Line = atoi(strings.TrimSpace(num))
	}
	f.External = jdkModule || isExternalJVM(cls) || loc == "Native Method"
	return f
}

// javaMethod names a synthetic method by its source: lambda$login$0 → login.
func javaMethod(m string) string {
	if rest, ok := strings.CutPrefix(m, "lambda$"); ok {
		if name, _, ok := strings.Cut(rest, "$"); ok && name != "" {
			return name
		}
	}
	return m
}
