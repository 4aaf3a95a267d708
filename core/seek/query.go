package seek

import (
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/m1nd-go/m1nd/core/stacktrace"
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
	// "java" (Kotlin too), "js" (TypeScript too), "rust", "csharp", or
	// "path" for a file mentioned in prose.
	Lang string `json:"lang"`
	// Depth is the distance from where the error surfaced (0, the most
	// specific place to look): how many of its trace's own frames — of
	// the same exception, not External ones (libraries, runtimes) — lie
	// between it and the innermost. Paths mentioned in prose have depth 0.
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
	// A source file mentioned anywhere, with an optional :line. (Stack
	// frames are read by core/stacktrace.)
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
	p := parser{q: &q, seenFrame: map[frameKey]int{}, seenSym: map[string]bool{}, termIdx: map[string]int{}}
	p.parse(text)
	return q
}

type frameKey struct {
	path string
	line int
}

type parser struct {
	q *Query
	// seenFrame indexes Frames by place.
	seenFrame map[frameKey]int
	seenSym   map[string]bool
	termIdx   map[string]int
	// proseTerms counts the distinct terms the prose added; dropped holds
	// the distinct prose terms beyond MaxQueryTerms.
	proseTerms int
	dropped    map[string]bool
	tok        tokenizer
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
	trace := traceLines(text)
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimRight(raw, "\r")
		if fs, ok := trace[i]; ok {
			// A frame's line is trace, not prose: its terms are the
			// frame's function and file names.
			for _, f := range fs {
				p.addFrame(f)
			}
			continue
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
			clean = withoutExts(clean)
		}
		p.symbols(clean)
		p.prose.WriteString(clean)
		p.prose.WriteByte('\n')
	}
	p.addTerms(p.prose.String(), 1, true)
	p.addTerms(p.boosted.String(), frameBoost, false)
}

// frameLangs are seek's names for core/stacktrace's dialects.
var frameLangs = map[stacktrace.Language]string{
	stacktrace.Python: "python", stacktrace.Go: "go",
	stacktrace.JavaScript: "js", stacktrace.TypeScript: "js",
	stacktrace.Java: "java", stacktrace.Kotlin: "java",
	stacktrace.Rust: "rust", stacktrace.CSharp: "csharp",
	stacktrace.C: "c", stacktrace.Cpp: "cpp",
}

// traceLines reads the stack traces of text — every dialect
// core/stacktrace knows — and files their frames under the index of the
// line each was read from. Every trace line is listed, with no frame
// when seek leaves it out: frames without a file, JavaScript runtime and
// node_modules frames (no repository holds their paths), the frames a
// trace skips (other goroutines, Java's suppressed exceptions).
func traceLines(text string) map[int][]Frame {
	var out map[int][]Frame
	for _, tr := range stacktrace.ParseAll(text) {
		if out == nil {
			out = map[int][]Frame{}
		}
		lang := frameLangs[tr.Language]
		depth := map[int]int{} // per exception of the chain
		for _, f := range tr.Frames {
			if f.File == "" {
				continue // the line stays prose: its words may still help
			}
			keep := !(lang == "js" && f.External)
			if keep {
				out[f.TextLine] = append(out[f.TextLine], Frame{Path: f.File, Line: f.Line, Func: funcName(f.Function), Lang: lang, Depth: depth[f.Exception]})
			} else if _, ok := out[f.TextLine]; !ok {
				out[f.TextLine] = nil
			}
			if keep && !f.External {
				depth[f.Exception]++
			}
		}
		for _, i := range tr.Skipped {
			if _, ok := out[i]; !ok {
				out[i] = nil
			}
		}
	}
	return out
}

// funcName keeps a function name a graph could hold: not a placeholder
// ("<module>", "<anonymous>", Java's "<init>", .NET's ".ctor").
func funcName(s string) string {
	if strings.HasPrefix(s, "<") || strings.HasPrefix(s, ".") {
		return ""
	}
	return lastIdent(s)
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

// withoutExts drops the extensions of the files text mentions ("on.py"
// reads "on"): an extension says the file's language, not what it does,
// and as a word ("py") it matched every file that says it.
func withoutExts(text string) string {
	ms := rePath.FindAllStringSubmatchIndex(text, -1)
	if len(ms) == 0 {
		return text
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		end := m[3] - len(path.Ext(text[m[2]:m[3]]))
		b.WriteString(text[last:end])
		last = m[3]
	}
	b.WriteString(text[last:])
	return b.String()
}

// mentionsOnly reports whether every frame is a file mentioned in prose
// by its bare name, with no line and no directory ("on.py", "the
// static.py file"). Such a query names the file as its stem does; a
// trace, a line or a path has said which file already.
func mentionsOnly(fs []Frame) bool {
	for _, f := range fs {
		if f.Lang != "path" || f.Line > 0 || strings.Contains(f.Path, "/") {
			return false
		}
	}
	return true
}

// frameBoost multiplies the weight of terms taken from stack frames: the
// function and file names of a trace say where to look more directly than
// the prose around it.
const frameBoost = 2

// addFrame records f once (by path and line) and feeds its function and
// file names to the boosted terms. A place named twice keeps its first
// position and its smallest depth; a stack frame takes the place of a
// prose mention of the same file and line.
func (p *parser) addFrame(f Frame) {
	f.Path = normPath(f.Path)
	if f.Path == "" {
		return
	}
	k := frameKey{f.Path, f.Line}
	if i, ok := p.seenFrame[k]; ok {
		switch old := &p.q.Frames[i]; {
		case f.Lang == "path":
		case old.Lang == "path":
			*old = f
			p.frameTerms(f)
		default:
			old.Depth = min(old.Depth, f.Depth)
		}
		return
	}
	if len(p.q.Frames) >= maxFrames {
		return
	}
	p.seenFrame[k] = len(p.q.Frames)
	p.q.Frames = append(p.q.Frames, f)
	if f.Lang != "path" {
		// Prose keeps a mention itself; its terms arrive with the line.
		p.frameTerms(f)
	}
}

// frameTerms feeds a stack frame's function and file names to the
// boosted terms and its function to the symbols.
func (p *parser) frameTerms(f Frame) {
	p.boosted.WriteString(stem(path.Base(f.Path)))
	p.boosted.WriteByte(' ')
	if f.Func != "" {
		p.boosted.WriteString(f.Func)
		p.boosted.WriteByte(' ')
		p.addSymbol(f.Func)
	}
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
