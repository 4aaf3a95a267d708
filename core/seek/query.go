package seek

import (
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxQueryBytes bounds the text a query is parsed from. A pasted log of
// megabytes would otherwise cost seconds of regular-expression work; the
// first 64 KB of a bug report hold its stack trace and its prose.
const MaxQueryBytes = 64 << 10

// maxFrames and maxSymbols bound what one query can ask the index to look
// up, whatever was pasted.
const (
	maxFrames  = 64
	maxSymbols = 64
)

// MaxQueryTerms bounds the distinct words a query's prose contributes: a
// bug report says what it is about in far fewer, and a paste of thousands
// of distinct words (a log, a word list) is not a question; the first ones
// are kept. Terms from stack frames (function and file names, at most two
// per frame) always count, so a long stack trace loses none of its
// frames' evidence to the prose around it.
const MaxQueryTerms = 256

// Frame is a code location a stack trace or a bug report names.
type Frame struct {
	// Path is the file as the trace spells it, with '/' separators and
	// without "file://" or "./" (it may be absolute, or a Java
	// package-derived path such as "com/acme/Auth.java").
	Path string `json:"path,omitempty"`
	// Line is the 1-based line number (0 = none given).
	Line int `json:"line,omitempty"`
	// Func is the function or method name without package or receiver.
	Func string `json:"function,omitempty"`
	// Lang names the dialect that recognised the frame: "python", "go",
	// "java", "js", "csharp", or "path" for a file mentioned in prose.
	Lang string `json:"lang"`
	// Depth is the distance from the innermost frame of its trace (0 is
	// where the error surfaced, the most specific place to look). Paths
	// mentioned in prose have depth 0.
	Depth int `json:"depth"`
}

// QueryTerm is one distinct term of a query.
type QueryTerm struct {
	Term string `json:"term"`
	// Count is how often the term occurs in the query.
	Count int `json:"count"`
	// Boost multiplies the term's weight: terms that come from a stack
	// frame's function or file name are boosted.
	Boost float32 `json:"boost"`
}

// Query is a parsed query: weighted terms, stack frames and code symbols.
type Query struct {
	Text string
	// Terms are distinct, in order of first appearance.
	Terms []QueryTerm
	// Frames are the stack-trace frames and file mentions, in order of
	// appearance.
	Frames []Frame
	// Symbols are identifiers the text writes as code (snake_case,
	// camelCase, dotted or called: "validate_user", "parseHeader()",
	// "os.path.join"), compact and lower-case ("validateuser"); an exact
	// label match on one is strong evidence.
	Symbols []string
	// Components are the subsystems a title names by convention:
	// "net/http: Transport leaks" (Go, kernel), "fix(auth): ..."
	// (conventional commits), "[session] ..." (issue trackers).
	Components []string
	// Truncated is set when the text was cut at MaxQueryBytes (Text is
	// what was read), and TermsDropped counts the distinct prose words
	// left out beyond MaxQueryTerms.
	Truncated    bool
	TermsDropped int
}

var (
	// Python: File "/srv/app/auth.py", line 42, in validate
	rePython = regexp.MustCompile(`File "([^"\n]+)", line (\d+)(?:, in ([\w<>.$]+))?`)
	// Go: a file line under a function line:  \t/src/app/auth.go:42 +0x1d
	reGoFile = regexp.MustCompile(`^\s+(\S+\.go):(\d+)(?:\s+\+0x[0-9a-fA-F]+)?\s*$`)
	// Java/Kotlin/Scala: at com.acme.Auth.validate(Auth.java:42)
	reJava = regexp.MustCompile(`at\s+([\w$.<>/]+)\(([\w$.\-]+\.(?:java|kt|kts|scala|groovy|clj)):(\d+)\)`)
	// JavaScript (V8): at Server.handle (/srv/app/server.js:10:15) or at /srv/app/server.js:10:15
	reJS = regexp.MustCompile(`at\s+(?:(?:async\s+)?(?:new\s+)?([^\s()][^()]*?)\s+\()?((?:file://)?[^\s()]+?\.(?:js|mjs|cjs|jsx|ts|tsx|mts|cts|vue|svelte)):(\d+)(?::\d+)?\)?`)
	// JavaScript (Firefox/Safari): handle@http://host/app.js:10:15
	reJSAt = regexp.MustCompile(`^\s*([\w$.<>/]*)@(\S+?\.(?:js|mjs|cjs|jsx|ts|tsx)):(\d+)(?::\d+)?\s*$`)
	// C#: at Acme.Auth.Validate(String user) in C:\src\Auth.cs:line 42
	reCSharp = regexp.MustCompile(`at\s+([\w$.<>\x60\[\]]+)\([^)]*\)\s+in\s+(.+?\.cs):line (\d+)`)
	// A source file mentioned anywhere, with an optional :line.
	rePath = regexp.MustCompile(`(?:^|[\s"'(\[<=,:])((?:[A-Za-z]:)?[\w.\-/\\~@+]*[\w\-]\.(?:` + sourceExts + `))(?::(\d+))?\b`)
	reURL  = regexp.MustCompile(`\b(?:https?|ftp)://\S+`)
	// Title prefixes naming a component.
	reComponent     = regexp.MustCompile(`^\s*([\w.\-]+(?:\s*[/,+]\s*[\w.\-]+)*)\s*:\s`)
	reConventional  = regexp.MustCompile(`^\s*\w+\(([\w.\-/, ]+)\)!?:\s`)
	reBracketPrefix = regexp.MustCompile(`^\s*\[([\w.\-/ ]+)\]`)
)

// notComponents are title prefixes that say what kind of message it is,
// not where: "panic: ...", "fix: ...", "TypeError: ...".
var notComponents = setOf("panic", "fatal", "error", "warning", "warn", "note", "info", "debug", "fix", "fixes",
	"bug", "bugfix", "hotfix", "feat", "feature", "chore", "docs", "doc", "refactor", "test", "tests", "perf",
	"style", "ci", "build", "revert", "wip", "todo", "release", "merge", "update", "add", "remove", "http", "https",
	"traceback", "exception", "caused by", "re", "fwd", "question", "proposal", "help")

// sourceExts are the extensions a bare file mention must end with; a
// closed list keeps "os.path" and "e.g" from being taken for files.
const sourceExts = `py|pyi|go|rs|java|kt|kts|scala|groovy|js|mjs|cjs|jsx|ts|tsx|mts|cts|vue|svelte|c|h|cc|cpp|cxx|hpp|hh|cs|rb|php|swift|m|mm|lua|sh|bash|zsh|ex|exs|erl|hs|ml|jl|zig|nim|dart|r|sql|proto|toml|yaml|yml|json|md|rst|html|css|scss`

// ParseQuery parses free text — three words or a pasted bug report with
// stack traces — into terms, frames and symbols. It never fails: text it
// does not recognise is plain words.
func ParseQuery(text string) Query {
	truncated := false
	if len(text) > MaxQueryBytes {
		cut := MaxQueryBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text, truncated = text[:cut], true
	}
	q := Query{Text: text, Truncated: truncated}
	p := parser{q: &q, seenFrame: map[frameKey]bool{}, seenSym: map[string]bool{}, termIdx: map[string]int{}}
	p.parse(text)
	return q
}

type frameKey struct {
	path string
	line int
}

type parser struct {
	q         *Query
	seenFrame map[frameKey]bool
	seenSym   map[string]bool
	termIdx   map[string]int
	// proseTerms counts the distinct terms the prose added; dropped holds
	// the distinct prose terms beyond MaxQueryTerms.
	proseTerms int
	dropped    map[string]bool
	tok        tokenizer
	// python counts the Python frames of the current traceback, whose
	// depths are assigned when it ends (Python prints the innermost
	// frame last).
	pythonStart int
	// prose is the text left for term extraction once frame lines have
	// been replaced by their function and file names.
	prose strings.Builder
	// boosted is text whose terms come from frames.
	boosted strings.Builder
}

// components reads the component prefix of the query's first line.
func (p *parser) components(text string) {
	first, _, _ := strings.Cut(strings.TrimLeft(text, " \t\r\n"), "\n")
	var raw string
	if m := reConventional.FindStringSubmatch(first); m != nil {
		raw = m[1]
	} else if m := reBracketPrefix.FindStringSubmatch(first); m != nil {
		raw = m[1]
	} else if m := reComponent.FindStringSubmatch(first); m != nil {
		raw = m[1]
	}
	if raw == "" {
		return
	}
	for _, c := range strings.FieldsFunc(raw, func(r rune) bool { return r == ',' || r == '+' || r == ' ' }) {
		c = strings.Trim(c, "/.")
		low := strings.ToLower(c)
		if len(c) < 2 || len(p.q.Components) >= 8 || strings.HasSuffix(low, "error") || strings.HasSuffix(low, "exception") {
			continue
		}
		if _, skip := notComponents[low]; skip {
			continue
		}
		p.q.Components = append(p.q.Components, c)
	}
}

func (p *parser) parse(text string) {
	p.tok.noise = queryNoise
	p.components(text)
	lines := strings.Split(text, "\n")
	depth := map[string]int{}
	prev := ""
	pyRun := -1 // index in Frames where the current Python traceback began
	closePython := func() {
		if pyRun < 0 {
			return
		}
		fs := p.q.Frames[pyRun:]
		for i := range fs {
			if fs[i].Lang == "python" {
				fs[i].Depth = len(fs) - 1 - i
			}
		}
		pyRun = -1
	}
	for _, raw := range lines {
		line := strings.TrimRight(raw, "\r")
		matched := false
		var m []string
		if strings.Contains(line, "File \"") {
			m = rePython.FindStringSubmatch(line)
		}
		if m != nil {
			if pyRun < 0 {
				pyRun = len(p.q.Frames)
			}
			p.addFrame(Frame{Path: m[1], Line: atoi(m[2]), Func: cleanFunc(m[3]), Lang: "python"})
			matched = true
		} else {
			if strings.Contains(line, "Traceback (most recent call last)") {
				closePython()
			}
			// Cheap substring tests keep the regular expressions off the
			// prose lines that make up most of a report.
			isAt := strings.HasPrefix(strings.TrimSpace(line), "at ")
			switch {
			case strings.Contains(line, ".go:") && reGoFile.MatchString(line):
				m := reGoFile.FindStringSubmatch(line)
				if p.addFrame(Frame{Path: m[1], Line: atoi(m[2]), Func: goFunc(prev), Lang: "go", Depth: depth["go"]}) {
					depth["go"]++
				}
				matched = true
			case isAt && reJava.MatchString(line):
				m := reJava.FindStringSubmatch(line)
				fn, file := javaFrame(m[1], m[2])
				if p.addFrame(Frame{Path: file, Line: atoi(m[3]), Func: fn, Lang: "java", Depth: depth["java"]}) {
					depth["java"]++
				}
				matched = true
			case isAt && strings.Contains(line, ":line ") && reCSharp.MatchString(line):
				m := reCSharp.FindStringSubmatch(line)
				if p.addFrame(Frame{Path: m[2], Line: atoi(m[3]), Func: lastIdent(m[1]), Lang: "csharp", Depth: depth["csharp"]}) {
					depth["csharp"]++
				}
				matched = true
			case isAt && reJS.MatchString(line):
				m := reJS.FindStringSubmatch(line)
				if !strings.HasPrefix(m[2], "node:") && !strings.Contains(m[2], "node_modules/") {
					if p.addFrame(Frame{Path: m[2], Line: atoi(m[3]), Func: lastIdent(m[1]), Lang: "js", Depth: depth["js"]}) {
						depth["js"]++
					}
				}
				matched = true
			case strings.IndexByte(line, '@') >= 0 && reJSAt.MatchString(line):
				m := reJSAt.FindStringSubmatch(line)
				if p.addFrame(Frame{Path: m[2], Line: atoi(m[3]), Func: lastIdent(m[1]), Lang: "js", Depth: depth["js"]}) {
					depth["js"]++
				}
				matched = true
			}
		}
		if !matched {
			if strings.TrimSpace(line) != "" && pyRun >= 0 && !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "\t") {
				// An unindented line ends a Python traceback (the
				// exception line itself).
				closePython()
			}
			clean := line
			if strings.Contains(clean, "://") {
				clean = reURL.ReplaceAllString(clean, " ")
			}
			if hasDotWord(clean) {
				for _, m := range rePath.FindAllStringSubmatchIndex(clean, -1) {
					file := clean[m[2]:m[3]]
					ln := 0
					if m[4] >= 0 {
						ln = atoi(clean[m[4]:m[5]])
					}
					p.addFrame(Frame{Path: file, Line: ln, Lang: "path"})
				}
			}
			p.symbols(clean)
			p.prose.WriteString(clean)
			p.prose.WriteByte('\n')
		}
		if strings.TrimSpace(line) != "" {
			prev = line
		}
	}
	closePython()
	p.addTerms(p.prose.String(), 1, true)
	p.addTerms(p.boosted.String(), frameBoost, false)
}

// hasDotWord reports whether s has a '.' directly followed by a letter,
// which every file mention ("auth.py") has and most prose does not.
func hasDotWord(s string) bool {
	for i := strings.IndexByte(s, '.'); i >= 0 && i+1 < len(s); {
		c := s[i+1]
		if isLower(c) || isUpper(c) {
			return true
		}
		j := strings.IndexByte(s[i+1:], '.')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// frameBoost multiplies the weight of terms taken from stack frames: the
// function and file names of a trace say where to look more directly than
// the prose around it.
const frameBoost = 2

// addFrame records f once (by path and line) and feeds its function and
// file names to the boosted terms. It reports whether f was new.
func (p *parser) addFrame(f Frame) bool {
	f.Path = normPath(f.Path)
	if f.Path == "" || len(p.q.Frames) >= maxFrames {
		return false
	}
	k := frameKey{f.Path, f.Line}
	if p.seenFrame[k] {
		return false
	}
	p.seenFrame[k] = true
	p.q.Frames = append(p.q.Frames, f)
	if f.Lang == "path" {
		// Prose keeps the mention itself; its terms arrive with the line.
		return true
	}
	p.boosted.WriteString(stem(path.Base(f.Path)))
	p.boosted.WriteByte(' ')
	if f.Func != "" {
		p.boosted.WriteString(f.Func)
		p.boosted.WriteByte(' ')
		p.addSymbol(f.Func)
	}
	return true
}

// symbols collects the identifiers of line that are written as code:
// called ("parse(") or spelled as identifiers (snake_case, camelCase).
// Dotted chains alone ("form.user") are not enough: their parts are as
// often variables as names the graph holds.
func (p *parser) symbols(line string) {
	b := []byte(line)
	forEachIdent(b, func(id []byte) {
		end := cap(b) - cap(id) + len(id)
		if (end < len(b) && b[end] == '(') || looksLikeIdentifier(id) {
			p.addSymbol(string(id))
		}
	})
}

// looksLikeIdentifier is true for snake_case (an inner '_') and camelCase
// (a lower-case letter followed by an upper-case one).
func looksLikeIdentifier(id []byte) bool {
	for i := 1; i < len(id); i++ {
		if id[i] == '_' && i+1 < len(id) && id[i-1] != '_' {
			return true
		}
		if isLower(id[i-1]) && isUpper(id[i]) {
			return true
		}
	}
	return false
}

func (p *parser) addSymbol(s string) {
	c := compactLower(s)
	if len(c) < 3 || len(c) > maxIdentLen || allDigits([]byte(c)) || len(p.q.Symbols) >= maxSymbols || p.seenSym[c] {
		return
	}
	p.seenSym[c] = true
	p.q.Symbols = append(p.q.Symbols, c)
}

// addTerms adds text's terms. Prose adds at most MaxQueryTerms distinct
// ones and counts those it leaves out; frame terms (added after the
// prose) are always taken.
func (p *parser) addTerms(text string, boost float32, prose bool) {
	p.tok.terms([]byte(text), func(term []byte) {
		if i, ok := p.termIdx[string(term)]; ok {
			t := &p.q.Terms[i]
			t.Count++
			t.Boost = max(t.Boost, boost)
			return
		}
		if prose {
			if p.proseTerms >= MaxQueryTerms {
				if p.dropped == nil {
					p.dropped = map[string]bool{}
				}
				if !p.dropped[string(term)] {
					p.dropped[string(term)] = true
					p.q.TermsDropped++
				}
				return
			}
			p.proseTerms++
		}
		p.termIdx[string(term)] = len(p.q.Terms)
		p.q.Terms = append(p.q.Terms, QueryTerm{Term: string(term), Count: 1, Boost: boost})
	})
}

// compactLower keeps ASCII letters and digits (and non-ASCII bytes),
// lower-cased: "validate_user" and "validateUser" both become
// "validateuser", as node labels are keyed.
func compactLower(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isUpper(c):
			b.WriteByte(c + 'a' - 'A')
		case isLower(c) || isDigit(c) || c >= 0x80:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// normPath gives a trace's path one spelling: '/' separators, no scheme,
// no "./" prefix, no doubled slashes.
func normPath(p string) string {
	p = strings.TrimSpace(p)
	p = strings.TrimPrefix(p, "file://")
	p = strings.ReplaceAll(p, "\\", "/")
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	if len(p) > 1024 {
		return ""
	}
	return p
}

// stem is the file name without its extension ("auth_handler.py" →
// "auth_handler").
func stem(base string) string {
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		return base[:i]
	}
	return base
}

func atoi(s string) int {
	if len(s) > 9 {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// cleanFunc drops Python's placeholders: "<module>", "<lambda>",
// "<listcomp>" name no function a graph could hold.
func cleanFunc(s string) string {
	if strings.HasPrefix(s, "<") {
		return ""
	}
	return lastIdent(s)
}

// lastIdent returns the last identifier of a qualified name
// ("Object.<anonymous>" → "", "async Server.handle" → "handle",
// "Acme.Auth.Validate" → "Validate").
func lastIdent(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexAny(s, ". /"); i >= 0 {
		s = s[i+1:]
	}
	if s == "" || strings.ContainsAny(s, "<>()[]`") {
		return ""
	}
	for i := 0; i < len(s); i++ {
		if !identChar(s[i]) && s[i] != '$' {
			return ""
		}
	}
	return s
}

// goFunc extracts the function name from a Go trace's function line:
// "github.com/acme/app/auth.(*Store).Validate(0xc000010000, {0x1, 0x2})"
// → "Validate"; closures ("Validate.func1.2") report their enclosing
// function.
func goFunc(line string) string {
	s := strings.TrimSpace(line)
	s = strings.TrimPrefix(s, "created by ")
	if i := strings.Index(s, " in goroutine"); i >= 0 {
		s = s[:i]
	}
	// Strip the argument list: the last balanced (...) at the end.
	if strings.HasSuffix(s, ")") {
		depth := 0
		for i := len(s) - 1; i >= 0; i-- {
			switch s[i] {
			case ')':
				depth++
			case '(':
				depth--
			}
			if depth == 0 {
				s = s[:i]
				break
			}
		}
	}
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	parts := strings.Split(s, ".")
	for len(parts) > 1 {
		last := parts[len(parts)-1]
		if last == "" || allDigits([]byte(last)) || (strings.HasPrefix(last, "func") && allDigits([]byte(last[4:]))) || strings.HasPrefix(last, "gowrap") {
			parts = parts[:len(parts)-1]
			continue
		}
		break
	}
	if len(parts) < 2 {
		return ""
	}
	return lastIdent(parts[len(parts)-1])
}

// javaFrame returns the method and a package-derived path for a JVM frame:
// "com.acme.auth.Store$Inner.validate" in "Store.java" →
// ("validate", "com/acme/auth/Store.java").
func javaFrame(qualified, file string) (fn, p string) {
	if i := strings.LastIndexByte(qualified, '/'); i >= 0 {
		qualified = qualified[i+1:] // "java.base/java.lang.Thread.run"
	}
	parts := strings.Split(qualified, ".")
	fn = parts[len(parts)-1]
	if strings.HasPrefix(fn, "lambda$") {
		fn = strings.SplitN(fn[len("lambda$"):], "$", 2)[0]
	}
	fn = lastIdent(strings.Trim(fn, "<>"))
	if fn == "init" || fn == "clinit" {
		fn = ""
	}
	p = file
	if len(parts) > 2 {
		p = strings.Join(parts[:len(parts)-2], "/") + "/" + file
	}
	return fn, p
}
