// Package stacktrace reads the stack traces programs print when they fail
// — Python tracebacks and pytest reports, Go panics, goroutine dumps and
// `go test` failures, Node and browser JavaScript/TypeScript stacks, Rust
// panics with RUST_BACKTRACE, Java/Kotlin exceptions, .NET (C#)
// exceptions, Ruby backtraces, PHP exceptions and C/C++ stacks (sanitizer
// reports, gdb, lldb, Valgrind) — into the error they report and the frames they list, most
// specific frame first. It is the one parser m1nd has: seek reads the
// frames of a pasted bug report with it, and the trace tool maps a trace
// onto the graph with it.
//
// Parsing never fails: text that holds no frame yields a Trace without
// frames. Every frame's path is normalised (file:// and bundler URLs,
// "./", Windows separators, Java package + file name → directory path) so
// a caller can match it against a repository's files, and frames whose
// path or module says "library or runtime" (site-packages, node_modules,
// GOROOT, the Rust toolchain, java.*, System.*) are marked External.
//
// Parse reads one trace in one dialect (detected, or hinted); ParseAll
// reads every dialect a text holds, for a bug report that quotes a
// browser's stack beside a server's traceback. The package uses only the
// standard library.
package stacktrace

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// Language is a stack-trace dialect.
type Language string

// The dialects Parse understands. Auto asks Parse to detect it.
const (
	Auto       Language = "auto"
	Python     Language = "python"
	Go         Language = "go"
	JavaScript Language = "javascript"
	TypeScript Language = "typescript"
	Rust       Language = "rust"
	Java       Language = "java"
	Kotlin     Language = "kotlin"
	CSharp     Language = "csharp"
	Ruby       Language = "ruby"
	PHP        Language = "php"
	C          Language = "c"
	Cpp        Language = "cpp"
)

// Languages lists the dialects Parse understands, in the order auto
// detection prefers them on a tie.
var Languages = []Language{Python, Go, JavaScript, TypeScript, Rust, Java, Kotlin, CSharp, Ruby, PHP, C, Cpp}

// dialects are the parsers behind Languages: TypeScript shares
// JavaScript's, Kotlin Java's, C++ C's.
var dialects = []Language{Python, Go, JavaScript, Rust, Java, CSharp, Ruby, PHP, C}

// aliases are other spellings callers use for a language.
var aliases = map[string]Language{
	"": Auto, "auto": Auto, "detect": Auto,
	"python": Python, "py": Python, "python3": Python, "pytest": Python,
	"go": Go, "golang": Go,
	"javascript": JavaScript, "js": JavaScript, "node": JavaScript, "nodejs": JavaScript, "browser": JavaScript,
	"typescript": TypeScript, "ts": TypeScript,
	"rust": Rust, "rs": Rust,
	"java": Java, "jvm": Java,
	"kotlin": Kotlin, "kt": Kotlin,
	"csharp": CSharp, "cs": CSharp, "c#": CSharp, "dotnet": CSharp, ".net": CSharp,
	"ruby": Ruby, "rb": Ruby, "rails": Ruby,
	"php": PHP, "laravel": PHP, "symfony": PHP,
	"c": C, "native": C, "asan": C, "sanitizer": C, "gdb": C, "lldb": C, "valgrind": C,
	"cpp": Cpp, "c++": Cpp, "cxx": Cpp,
}

// ParseLanguage accepts a language name in any case, or a common alias
// ("py", "golang", "js", "node", "ts", "rs", "jvm", "kt", "cs", "c#",
// "dotnet", "rb", "c++", "asan", "gdb", "lldb", "valgrind"); "" and
// "auto" mean Auto.
func ParseLanguage(s string) (Language, error) {
	if l, ok := aliases[strings.ToLower(strings.TrimSpace(s))]; ok {
		return l, nil
	}
	return "", fmt.Errorf("unknown language %q", s)
}

// Limits on what one trace may cost.
const (
	// MaxFrames bounds the frames kept from one text (a goroutine dump of
	// ten thousand goroutines keeps its first MaxFrames frames).
	MaxFrames = 512
	// maxLineBytes clips each line before it is matched (minified
	// bundles print lines of megabytes).
	maxLineBytes = 4096
	// maxRawBytes clips a frame's Raw and Code text.
	maxRawBytes = 300
	// maxMessageBytes clips an error message.
	maxMessageBytes = 1000
)

// Error is an exception or panic a trace reports.
type Error struct {
	// Type is the exception class ("ValueError",
	// "java.lang.IllegalStateException"), or the kind of failure for
	// languages without one: "panic", "runtime error", "fatal error",
	// "test failure".
	Type string `json:"type"`
	// Message is the error's text (may be empty).
	Message string `json:"message,omitempty"`
}

// Frame is one stack frame.
type Frame struct {
	// File is the normalised path: '/' separators, no URL scheme or host,
	// no "./", a Java frame's package turned into directories
	// ("com/acme/Auth.java"). Empty when the frame names none (native
	// code, a Rust frame without debug info).
	File string `json:"file,omitempty"`
	// Line and Column are 1-based (0: not given).
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// Function is the function or method name, without class or package.
	Function string `json:"function,omitempty"`
	// Class is the receiver, class or type the function belongs to.
	Class string `json:"class,omitempty"`
	// Module is the package, module or crate path ("github.com/acme/app",
	// "com.acme.auth", "myapp::parse").
	Module string `json:"module,omitempty"`
	// Raw is the frame as the trace printed it (clipped).
	Raw string `json:"raw"`
	// Code is the source line the trace quoted, if any (Python).
	Code string `json:"code,omitempty"`
	// External says the path or module belongs to a library or runtime
	// (site-packages, node_modules, vendor/, GOROOT, the Rust toolchain
	// or cargo registry, the JDK): a guess that the frame is not the
	// project's own code.
	External bool `json:"external"`
	// Exception indexes Trace.Chain: the error whose stack lists the frame.
	Exception int `json:"exception"`
	// TextLine is the 0-based index, among the '\n'-separated lines of the
	// parsed text, of the line the frame's location was read from (a Go
	// frame's file line, a Rust frame's "at" line; the symbol line of a
	// Rust frame without one). A caller that also reads the text's prose
	// uses it to tell trace lines from the rest.
	TextLine int `json:"-"`
}

// Trace is a parsed stack trace.
type Trace struct {
	// Language is the dialect that read the frames.
	Language Language `json:"language"`
	// Error is the error the program reported last (Chain[0]); empty Type
	// when the text names none.
	Error Error `json:"error"`
	// Chain is the surfaced error followed by its causes, nearest first
	// (Java "Caused by:", Python "raise ... from" and "During handling
	// of the above exception").
	Chain []Error `json:"chain,omitempty"`
	// Frames are ordered most specific first: the innermost frame of the
	// deepest cause, outwards, then the frames of the error it caused.
	Frames []Frame `json:"frames"`
	// Goroutines counts the goroutines of a Go dump.
	Goroutines int `json:"goroutines,omitempty"`
	// Truncated says frames beyond MaxFrames were dropped.
	Truncated bool `json:"truncated,omitempty"`
	// Skipped are the indexes (as Frame.TextLine counts them) of lines
	// read as frames but left out of Frames: the file lines of a Go
	// dump's goroutines other than the one that panicked, the frames of a
	// Java "Suppressed:" block, the frames beyond MaxFrames. With the
	// frames' TextLine they tell a caller which lines are trace, not prose.
	Skipped []int `json:"-"`
}

// Parse reads text as a trace of lang; Auto tries every dialect and keeps
// the one that recognises the most. A named language that finds no frame
// falls back to detection, so a wrong hint costs nothing.
func Parse(text string, lang Language) Trace {
	lines := splitLines(text)
	if lang != Auto && lang != "" {
		if p := parserFor(lang); p != nil {
			t := p(lines)
			if len(t.Frames) > 0 {
				return finish(t, lang)
			}
		}
	}
	best, bestScore := Trace{}, -1
	for _, l := range dialects {
		t := parserFor(l)(lines)
		if s := t.score(); s > bestScore {
			best, bestScore = t, s
			best.Language = l
		}
	}
	if bestScore <= 0 {
		return Trace{Language: Auto, Frames: []Frame{}}
	}
	return finish(best, best.Language)
}

// ParseAll reads text as every dialect and returns each reading that
// found frames, one Trace per dialect in Languages order (JavaScript or
// TypeScript, Java or Kotlin, by their files). Where Parse keeps the one
// dialect that recognises the most, ParseAll keeps them all: a bug report
// may quote a browser's stack and a server's traceback. The dialects'
// frame forms hardly overlap; a caller merging the traces dedupes frames
// by place (seek does).
func ParseAll(text string) []Trace {
	lines := splitLines(text)
	var out []Trace
	for _, l := range dialects {
		if t := parserFor(l)(lines); len(t.Frames) > 0 {
			out = append(out, finish(t, l))
		}
	}
	return out
}

// score ranks competing readings of one text: frames count most, a
// recognised error line breaks ties.
func (t Trace) score() int {
	s := 4 * len(t.Frames)
	if t.Error.Type != "" {
		s++
	}
	return s
}

func parserFor(l Language) func([]string) Trace {
	switch l {
	case Python:
		return parsePython
	case Go:
		return parseGo
	case JavaScript, TypeScript:
		return parseJS
	case Rust:
		return parseRust
	case Java, Kotlin:
		return parseJava
	case CSharp:
		return parseCSharp
	case Ruby:
		return parseRuby
	case PHP:
		return parsePHP
	case C, Cpp:
		return parseNative
	}
	return nil
}

// finish names the dialect (TypeScript and Kotlin by their files), fills
// Error from Chain, caps the frames and never leaves Frames nil.
func finish(t Trace, l Language) Trace {
	t.Language = l
	switch l {
	case JavaScript, TypeScript:
		t.Language = JavaScript
		if t.anyFile(".ts", ".tsx", ".mts", ".cts") {
			t.Language = TypeScript
		}
	case Java, Kotlin:
		t.Language = Java
		if t.anyFile(".kt", ".kts") {
			t.Language = Kotlin
		}
	case C, Cpp:
		t.Language = C
		if t.ownFile(".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx") {
			t.Language = Cpp
		}
	}
	if len(t.Chain) > 0 {
		t.Error = t.Chain[0]
	}
	if len(t.Frames) > MaxFrames {
		for _, f := range t.Frames[MaxFrames:] {
			t.Skipped = append(t.Skipped, f.TextLine)
		}
		t.Frames, t.Truncated = t.Frames[:MaxFrames], true
	}
	if t.Frames == nil {
		t.Frames = []Frame{}
	}
	for i := range t.Frames {
		f := &t.Frames[i]
		f.Line, f.Column = max(f.Line, 0), max(f.Column, 0)
		if f.Exception < 0 || f.Exception >= len(t.Chain) {
			f.Exception = 0
		}
	}
	return t
}

func (t Trace) anyFile(exts ...string) bool {
	for _, f := range t.Frames {
		for _, e := range exts {
			if strings.HasSuffix(f.File, e) {
				return true
			}
		}
	}
	return false
}

// ownFile is anyFile among the frames not External: a C program's stack
// passes through the C++ runtime of its sanitizer.
func (t Trace) ownFile(exts ...string) bool {
	own := Trace{}
	for _, f := range t.Frames {
		if !f.External {
			own.Frames = append(own.Frames, f)
		}
	}
	return own.anyFile(exts...)
}

// matchIf runs re on line only when the cheap test ok passes: most lines
// of a long log fail a substring test long before a regular expression.
func matchIf(re *regexp.Regexp, line string, ok bool) []string {
	if !ok {
		return nil
	}
	return re.FindStringSubmatch(line)
}

// splitLines splits on \n (dropping \r) and clips long lines.
func splitLines(text string) []string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		if len(l) > maxLineBytes {
			l = clip(l, maxLineBytes)
		}
		lines[i] = l
	}
	return lines
}

// clip shortens s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

func raw(s string) string { return clip(strings.TrimSpace(s), maxRawBytes) }

func message(s string) string { return clip(strings.TrimSpace(s), maxMessageBytes) }

// atoi parses a small non-negative decimal (0 on anything else).
func atoi(s string) int {
	n := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' || n > 1e8 {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// CleanPath normalises a path as a trace prints it: it drops quotes, a
// file:// scheme, a bundler scheme (webpack-internal:///, webpack://app/),
// an http(s) scheme and host, a query or fragment, "./" and "../"
// prefixes, and turns '\' into '/'. What is left may still be absolute;
// matching it against a repository is the caller's job.
func CleanPath(p string) string {
	p = strings.Trim(strings.TrimSpace(p), "\"'`")
	p = strings.ReplaceAll(p, "\\", "/")
	switch {
	case strings.HasPrefix(p, "file://"):
		p = strings.TrimPrefix(p, "file://")
		if len(p) > 2 && p[0] == '/' && p[2] == ':' { // file:///C:/src
			p = p[1:]
		}
	case strings.HasPrefix(p, "webpack-internal:///"):
		p = strings.TrimPrefix(p, "webpack-internal:///")
	case strings.HasPrefix(p, "webpack://"):
		p = strings.TrimPrefix(p, "webpack://")
		if i := strings.Index(p, "/"); i >= 0 && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, ".") {
			p = p[i+1:] // webpack://app-name/./src/x.ts
		}
	case strings.HasPrefix(p, "http://"), strings.HasPrefix(p, "https://"):
		rest := p[strings.Index(p, "//")+2:]
		if i := strings.Index(rest, "/"); i >= 0 {
			p = rest[i+1:]
		} else {
			p = ""
		}
	}
	if !strings.HasPrefix(p, "node:") {
		if i := strings.IndexAny(p, "?#"); i >= 0 {
			p = p[:i]
		}
	}
	for _, pre := range []string{"(rsc)/", "(ssr)/", "(app-pages-browser)/"} {
		p = strings.TrimPrefix(p, pre)
	}
	if strings.Contains(p, "/./") || strings.Contains(p, "/../") || strings.Contains(p, "//") {
		abs := strings.HasPrefix(p, "/")
		p = path.Clean(p)
		if !abs {
			p = strings.TrimPrefix(p, "/")
		}
	}
	for {
		switch {
		case strings.HasPrefix(p, "./"):
			p = p[2:]
		case strings.HasPrefix(p, "../"):
			p = p[3:]
		default:
			if p == "." || p == ".." {
				return ""
			}
			return p
		}
	}
}
