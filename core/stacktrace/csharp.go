package stacktrace

import (
	"regexp"
	"strings"
)

var (
	// at Acme.Auth.Validate(String user) in C:\src\Auth.cs:line 42   at Acme.Auth.Validate()
	// (the word "line" is localised: ":Zeile 42", ":ligne 42").
	reCSharpAt = regexp.MustCompile(`^\s*at\s+([^\s(]+)\(([^)]*)\)(?:\s+in\s+(.+?):\pL+ (\d+))?\s*$`)
	// System.InvalidOperationException: bad   Unhandled exception. System.X: y   ---> System.X: y
	reCSharpHead = regexp.MustCompile(`^\s*(?:Unhandled [Ee]xception[.:]\s*|---> )?((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Exception|Error))(?::\s?(.*))?$`)
)

// parseCSharp reads .NET exceptions as Exception.ToString() and an
// unhandled exception print them: the header, each inner exception on a
// " ---> " line, the frames (the innermost exception's first, each
// "--- End of inner exception stack trace ---" passing to the exception
// that wraps it). Frames of assemblies built without symbols carry no
// file.
func parseCSharp(lines []string) Trace {
	var t Trace
	cur := -1 // the Chain index the next frames belong to
	for i, line := range lines {
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "--- End of inner exception stack trace") {
			cur = max(0, cur-1)
			continue
		}
		if m := matchIf(reCSharpAt, line, strings.HasPrefix(trim, "at ") && strings.Contains(trim, "(")); m != nil && isCSharpParams(m[2], m[3] != "") {
			if cur < 0 {
				cur = max(0, len(t.Chain)-1)
			}
			f := cSharpFrame(m[1], m[3], m[4], line)
			f.Exception, f.TextLine = cur, i
			t.Frames = append(t.Frames, f)
			continue
		}
		// A header opens the chain; " ---> " lines add its inner
		// exceptions. A header after frames starts no new chain.
		if cur >= 0 && !strings.HasPrefix(trim, "---> ") {
			continue
		}
		if m := matchIf(reCSharpHead, line, strings.Contains(trim, "Exception") || strings.Contains(trim, "Error")); m != nil {
			if !strings.HasPrefix(trim, "---> ") {
				t.Chain = t.Chain[:0]
			}
			t.Chain = append(t.Chain, Error{Type: m[1], Message: message(m[2])})
		}
	}
	if len(t.Frames) == 0 {
		t.Chain = nil // an error line alone is not a .NET trace
	}
	return t
}

// isCSharpAt reports whether line is a .NET frame with its source
// location ("at X.Y(…) in path:line N").
func isCSharpAt(line string) bool {
	return strings.Contains(line, ") in ") && reCSharpAt.MatchString(line)
}

// isCSharpParams accepts a .NET parameter list — empty, or "Type name"
// pairs — unless the frame names its file, which settles it; a JVM
// location ("Auth.java:42", "Native Method") is not one.
func isCSharpParams(params string, hasFile bool) bool {
	if hasFile || params == "" {
		return true
	}
	if params == "Native Method" || params == "Unknown Source" {
		return false
	}
	for _, p := range strings.Split(params, ",") {
		if !strings.Contains(strings.TrimSpace(p), " ") {
			return false
		}
	}
	return true
}

// externalDotNet are the namespaces of the .NET runtime and test harnesses.
var externalDotNet = []string{"System.", "Microsoft.", "Mono.", "Internal.", "Xunit.", "NUnit.", "Microsoft.VisualStudio.TestPlatform."}

// cSharpFrame reads "Acme.Auth.Validate", "Acme.Repo`1.Get[T]",
// "Acme.Auth.<ValidateAsync>d__5.MoveNext" (an async method's state
// machine) and "Acme.Auth.<>c__DisplayClass3_0.<Validate>b__0" (a lambda
// in Validate): the method is named as the source names it.
func cSharpFrame(qualified, file, line, rawLine string) Frame {
	f := Frame{Raw: raw(rawLine)}
	if file != "" {
		f.File, f.Line = CleanPath(file), atoi(line)
	}
	q := stripBrackets(qualified)
	method := ""
	if i := strings.LastIndex(q, ".."); i >= 0 && i+2 < len(q) { // Acme.Auth..ctor
		q, method = q[:i], q[i+1:]
	} else if i := strings.LastIndexByte(q, '.'); i >= 0 {
		q, method = q[:i], q[i+1:]
	} else {
		q, method = "", q
	}
	types := strings.Split(q, ".")
	if q == "" {
		types = nil
	}
	// Compiler-generated types and methods: <Name>d__5 (async state
	// machine), <>c / <>c__DisplayClass (lambda closures), <Name>b__0
	// (a lambda in Name), <Name>g__Local|0_0 (a local function).
	if name, ok := generatedName(method); ok {
		method = name
	}
	for len(types) > 0 && strings.HasPrefix(types[len(types)-1], "<") {
		if name, ok := generatedName(types[len(types)-1]); ok && name != "" && (method == "MoveNext" || method == "") {
			method = name
		}
		types = types[:len(types)-1]
	}
	f.Function = method
	if n := len(types); n > 0 {
		f.Class = types[n-1]
		if i := strings.IndexByte(f.Class, '`'); i > 0 {
			f.Class = f.Class[:i]
		}
		f.Module = strings.Join(types[:n-1], ".")
	}
	for _, p := range externalDotNet {
		if strings.HasPrefix(qualified, p) {
			f.External = true
		}
	}
	f.External = f.External || IsExternalPath(f.File)
	return f
}

// generatedName reads the source name a compiler-generated one carries:
// "<Validate>b__0" → "Validate", "<Main>g__Local|0_0" → "Local",
// "<>c" → "" (true: it is generated).
func generatedName(s string) (string, bool) {
	if !strings.HasPrefix(s, "<") {
		return "", false
	}
	end := strings.IndexByte(s, '>')
	if end < 0 {
		return "", true
	}
	name := s[1:end]
	if rest, ok := strings.CutPrefix(s[end+1:], "g__"); ok {
		if local, _, ok := strings.Cut(rest, "|"); ok && local != "" {
			return local, true
		}
	}
	return name, true
}
