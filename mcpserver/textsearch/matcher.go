// Package textsearch is the grep engine behind the search tool: literal
// and regular-expression matching over many files in parallel, line
// oriented like ripgrep, with an optional bounded in-memory content cache.
//
// Matching is line oriented: a result is a line (1-based) that contains at
// least one match. Literal search finds candidate positions with a SIMD
// byte search (bytes.IndexByte) on the pattern's rarest byte and verifies
// around it; regular expressions use Go's RE2 engine, prefiltered by a
// literal every match must contain when the pattern has one, and
// otherwise run once over the whole file with (?m) to find candidate
// lines. In multiline mode a regex runs over the whole file with (?ms) and
// a result spans Line..EndLine.
package textsearch

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// Query describes what to look for.
type Query struct {
	Pattern string
	// Regex selects RE2 syntax; otherwise Pattern is matched literally.
	Regex         bool
	CaseSensitive bool
	// Multiline lets a regex match across lines ('.' then matches '\n'
	// too). A literal containing a newline always spans lines.
	Multiline bool
}

// PatternError explains why a query cannot be compiled.
type PatternError struct {
	Pattern string
	// Reason says what is wrong, in words ("missing closing )").
	Reason string
	// Fragment is the part of the pattern the parser choked on.
	Fragment string
	// Escaped is Pattern with every regex metacharacter escaped: the
	// regex that matches Pattern literally.
	Escaped string
	// Hint says how to fix it.
	Hint string
}

func (e *PatternError) Error() string {
	if e.Fragment != "" && e.Fragment != e.Pattern {
		return fmt.Sprintf("invalid regex %q: %s at %q", e.Pattern, e.Reason, e.Fragment)
	}
	return fmt.Sprintf("invalid regex %q: %s", e.Pattern, e.Reason)
}

// ErrEmptyPattern is returned for an empty (or all-whitespace) pattern.
var ErrEmptyPattern = errors.New("empty pattern")

// finder locates the first match in h; start < 0 means none.
type finder interface {
	index(h []byte) (start, end int)
}

// Matcher is a compiled Query; it is immutable and safe for concurrent
// use.
type Matcher struct {
	q Query
	// find yields candidate matches in whole-file coordinates.
	find finder
	// line, when set, must match a candidate line for it to count (regex
	// prefiltered by a literal, or a regex match spanning lines).
	line *regexp.Regexp
	// prefiltered: find is a literal every match contains; every
	// candidate line is verified with line.
	prefiltered bool
	// multi: whole-file regex matching (Query.Multiline with Regex).
	multi *regexp.Regexp

	// label matching
	labelLower string // case-insensitive ASCII literal
	labelRe    *regexp.Regexp
}

// Compile validates and compiles q.
func Compile(q Query) (*Matcher, error) {
	if strings.TrimSpace(q.Pattern) == "" {
		return nil, ErrEmptyPattern
	}
	m := &Matcher{q: q}
	if !q.Regex {
		return m, m.compileLiteral()
	}
	return m, m.compileRegex()
}

// Query returns the query the matcher was compiled from.
func (m *Matcher) Query() Query { return m.q }

func (m *Matcher) compileLiteral() error {
	p := m.q.Pattern
	switch {
	case m.q.CaseSensitive:
		m.find = newLitFinder([]byte(p))
	case isASCII(p):
		m.find = newFoldFinder([]byte(p))
		m.labelLower = strings.ToLower(p)
	default:
		// Unicode case folding (É/é, ß/ẞ, K/K): let RE2 do it.
		re := regexp.MustCompile("(?i)" + regexp.QuoteMeta(p))
		m.find = reFinder{re}
		m.labelRe = re
	}
	return nil
}

func (m *Matcher) compileRegex() error {
	p := m.q.Pattern
	flags := syntax.Perl
	if !m.q.CaseSensitive {
		flags |= syntax.FoldCase
	}
	// perLine treats ^ and $ as the start and end of the text (one line);
	// perFile as the start and end of any line in the file. Both are
	// parsed from the user's pattern so the flags land on the right ops.
	perLine, err := syntax.Parse(p, flags)
	if err != nil {
		return patternError(p, err)
	}
	if m.q.Multiline {
		tree, err := syntax.Parse(p, (flags|syntax.DotNL)&^syntax.OneLine)
		if err != nil {
			return patternError(p, err)
		}
		re, err := regexp.Compile(tree.String())
		if err != nil {
			return patternError(p, err)
		}
		m.multi = re
		m.labelRe = re
		return nil
	}
	if hasNewlineLiteral(perLine) {
		return &PatternError{Pattern: p, Reason: "the pattern matches a newline, which a line-by-line search can never see",
			Escaped: regexp.QuoteMeta(p),
			Hint:    "Set multiline: true to let the regex span lines, or search for one line's text."}
	}
	// Let $ match before "\r\n" as well as "\n": CRLF files are searched
	// line by line with the '\r' still in place.
	perLine = crlfEnds(perLine)
	lineRe, err := regexp.Compile(perLine.String())
	if err != nil {
		return patternError(p, err)
	}
	m.line = lineRe
	m.labelRe = lineRe
	if lit, fold := requiredLiteral(perLine.Simplify()); len(lit) >= 2 && (!fold || isASCII(lit)) {
		if fold {
			m.find = newFoldFinder([]byte(lit))
		} else {
			m.find = newLitFinder([]byte(lit))
		}
		m.prefiltered = true
		return nil
	}
	perFile, err := syntax.Parse(p, flags&^syntax.OneLine)
	if err != nil {
		return patternError(p, err)
	}
	whole, err := regexp.Compile(crlfEnds(perFile).String())
	if err != nil {
		return patternError(p, err)
	}
	m.find = reFinder{whole}
	return nil
}

// MatchLabel reports whether a graph label matches.
func (m *Matcher) MatchLabel(s string) bool {
	switch {
	case m.labelRe != nil:
		return m.labelRe.MatchString(s)
	case m.labelLower != "":
		return containsFold(s, m.labelLower)
	default:
		return strings.Contains(s, m.q.Pattern)
	}
}

// containsFold reports whether s contains the lower-case ASCII needle,
// ignoring ASCII case.
func containsFold(s, lowerNeedle string) bool {
	n := len(lowerNeedle)
	for i := 0; i+n <= len(s); i++ {
		if asciiLower(s[i]) == lowerNeedle[0] && strings.EqualFold(s[i:i+n], lowerNeedle) {
			return true
		}
	}
	return false
}

// patternError turns a regexp/syntax error into a teaching PatternError.
func patternError(p string, err error) *PatternError {
	pe := &PatternError{Pattern: p, Reason: err.Error(), Escaped: regexp.QuoteMeta(p),
		Hint: "Escape regex metacharacters with a backslash, or use mode \"literal\" to search for the text exactly as written."}
	var se *syntax.Error
	if errors.As(err, &se) {
		pe.Reason = se.Code.String()
		pe.Fragment = se.Expr
		switch se.Code {
		case syntax.ErrInvalidPerlOp:
			if strings.Contains(p, "(?=") || strings.Contains(p, "(?!") || strings.Contains(p, "(?<=") || strings.Contains(p, "(?<!") {
				pe.Reason = "lookahead and lookbehind are not supported (RE2 syntax)"
				pe.Hint = "RE2 has no lookaround: match the surrounding text instead, or search literally with mode \"literal\"."
			}
		case syntax.ErrInvalidEscape:
			if strings.ContainsAny(se.Expr, "123456789") {
				pe.Reason = "backreferences are not supported (RE2 syntax)"
				pe.Hint = "RE2 has no backreferences (\\1): match the repeated text explicitly, or use mode \"literal\"."
			}
		case syntax.ErrMissingParen, syntax.ErrUnexpectedParen, syntax.ErrMissingBracket, syntax.ErrMissingRepeatArgument:
			pe.Hint = "Parentheses, brackets and repetition operators (* + ?) are regex syntax: escape them (e.g. \\( \\[ \\*) to match them as text, or use mode \"literal\"."
		}
	}
	return pe
}

// hasNewlineLiteral reports whether re contains a literal '\n' (which a
// line-by-line search can never match). Classes such as \s that merely
// include '\n' are fine: they match the other characters.
func hasNewlineLiteral(re *syntax.Regexp) bool {
	if re.Op == syntax.OpLiteral {
		for _, r := range re.Rune {
			if r == '\n' {
				return true
			}
		}
	}
	for _, s := range re.Sub {
		if hasNewlineLiteral(s) {
			return true
		}
	}
	return false
}

// crlfEnds rewrites every end-of-line/text assertion $ into \r?$ so that
// "foo$" matches "foo\r\n" too.
func crlfEnds(re *syntax.Regexp) *syntax.Regexp {
	switch re.Op {
	case syntax.OpEndLine, syntax.OpEndText:
		cr := &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{'\r'}}
		q := &syntax.Regexp{Op: syntax.OpQuest, Sub: []*syntax.Regexp{cr}, Flags: re.Flags}
		return &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{q, re}, Flags: re.Flags}
	}
	for i, s := range re.Sub {
		re.Sub[i] = crlfEnds(s)
	}
	return re
}

// requiredLiteral returns the longest literal that every match of re must
// contain, and whether it is case-folded. "" when there is none.
func requiredLiteral(re *syntax.Regexp) (lit string, fold bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return string(re.Rune), re.Flags&syntax.FoldCase != 0
	case syntax.OpCapture:
		return requiredLiteral(re.Sub[0])
	case syntax.OpPlus:
		return requiredLiteral(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiteral(re.Sub[0])
		}
	case syntax.OpConcat:
		// Adjacent literals with the same folding join into one run.
		var best, run string
		var bestFold, runFold bool
		flush := func() {
			if len(run) > len(best) {
				best, bestFold = run, runFold
			}
			run = ""
		}
		for _, s := range re.Sub {
			if s.Op == syntax.OpLiteral {
				f := s.Flags&syntax.FoldCase != 0
				if run != "" && f != runFold {
					flush()
				}
				run += string(s.Rune)
				runFold = f
				continue
			}
			flush()
			if l, f := requiredLiteral(s); len(l) > len(best) {
				best, bestFold = l, f
			}
		}
		flush()
		return best, bestFold
	}
	return "", false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func asciiUpper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// reFinder finds with a regexp.
type reFinder struct{ re *regexp.Regexp }

func (f reFinder) index(h []byte) (int, int) {
	loc := f.re.FindIndex(h)
	if loc == nil {
		return -1, -1
	}
	return loc[0], loc[1]
}

// litFinder finds a case-sensitive literal: IndexByte on its rarest byte,
// then a compare around the hit.
type litFinder struct {
	needle []byte
	at     int // offset of the anchor byte in needle
	b      byte
}

func newLitFinder(needle []byte) *litFinder {
	at := rarest(needle, false)
	return &litFinder{needle: needle, at: at, b: needle[at]}
}

func (f *litFinder) index(h []byte) (int, int) {
	n := len(f.needle)
	if n == 1 {
		i := bytes.IndexByte(h, f.b)
		return i, i + 1
	}
	pos := f.at // h index of the anchor of the next candidate
	last := len(h) - (n - f.at)
	for pos <= last {
		i := bytes.IndexByte(h[pos:last+1], f.b)
		if i < 0 {
			return -1, -1
		}
		s := pos + i - f.at
		if bytes.Equal(h[s:s+n], f.needle) {
			return s, s + n
		}
		pos += i + 1
	}
	return -1, -1
}

// foldFinder finds an ASCII literal ignoring ASCII case: it tracks the
// next occurrence of both cases of the rarest letter.
type foldFinder struct {
	needle []byte // lower case
	at     int
	lo, up byte
}

func newFoldFinder(needle []byte) *foldFinder {
	low := bytes.ToLower(needle) // ASCII only, so lengths agree
	at := rarest(low, true)
	return &foldFinder{needle: low, at: at, lo: low[at], up: asciiUpper(low[at])}
}

func (f *foldFinder) index(h []byte) (int, int) {
	n := len(f.needle)
	last := len(h) - (n - f.at)
	if last < f.at {
		return -1, -1
	}
	pos := f.at
	nl, nu := -1, -1 // next positions of lo / up at or after pos (-2 = none)
	for pos <= last {
		if nl != -2 && nl < pos {
			if i := bytes.IndexByte(h[pos:last+1], f.lo); i >= 0 {
				nl = pos + i
			} else {
				nl = -2
			}
		}
		if f.up == f.lo {
			nu = -2
		} else if nu != -2 && nu < pos {
			if i := bytes.IndexByte(h[pos:last+1], f.up); i >= 0 {
				nu = pos + i
			} else {
				nu = -2
			}
		}
		var c int
		switch {
		case nl == -2 && nu == -2:
			return -1, -1
		case nl == -2:
			c = nu
		case nu == -2:
			c = nl
		default:
			c = min(nl, nu)
		}
		s := c - f.at
		if equalFoldASCII(h[s:s+n], f.needle) {
			return s, s + n
		}
		pos = c + 1
	}
	return -1, -1
}

// equalFoldASCII compares b with the lower-case needle ignoring ASCII case.
func equalFoldASCII(b, lower []byte) bool {
	for i, c := range b {
		if asciiLower(c) != lower[i] {
			return false
		}
	}
	return true
}

// rarest returns the index of the byte of needle that is least frequent
// in source code, so the IndexByte scan stops as rarely as possible. With
// fold, a letter's frequency counts both cases.
func rarest(needle []byte, fold bool) int {
	best, bestF := 0, 1<<30
	for i, c := range needle {
		f := int(byteFreq[c])
		if fold && asciiUpper(c) != c {
			f += int(byteFreq[asciiUpper(c)])
		}
		if f < bestF {
			best, bestF = i, f
		}
	}
	return best
}

// byteFreq approximates how often each byte occurs in source code (per
// 10,000 bytes, measured on a mix of Go and Python code); unlisted bytes
// are rare.
var byteFreq = func() [256]uint16 {
	var t [256]uint16
	for c := range t {
		t[c] = 1
	}
	for c, f := range map[byte]uint16{
		' ': 1500, 'e': 620, 't': 480, 'r': 390, 's': 380, 'i': 370, 'n': 360, 'a': 340, 'o': 320,
		'\n': 280, 'l': 230, 'c': 200, '\t': 190, 'd': 180, 'u': 150, 'f': 140, 'p': 140, 'm': 120,
		'.': 110, '(': 100, ')': 100, 'h': 100, ',': 90, 'g': 80, '_': 80, 'b': 70, '"': 70, 'y': 60,
		'=': 60, 'x': 50, 'v': 50, 'k': 45, ':': 45, 'E': 40, 'S': 35, 'R': 30, 'T': 30, 'w': 30,
		'*': 30, '/': 30, '0': 28, 'I': 28, 'C': 25, 'N': 25, '1': 25, 'A': 25, '{': 22, '}': 22,
		'[': 20, ']': 20, 'P': 20, 'O': 20, 'D': 20, '\'': 20, 'F': 18, 'L': 18, 'M': 15, '2': 15,
		'-': 15, 'U': 12, 'j': 10, '#': 10, 'B': 10, 'G': 10, 'H': 8, '&': 8, 'V': 8, '!': 7, '>': 7,
		'<': 7, '+': 7, 'q': 6, 'W': 6, '3': 6, '4': 5, '5': 5, '8': 5, '6': 4, 'z': 4, 'K': 4,
		'%': 4, '7': 4, '9': 4, ';': 4, 'Y': 3, '|': 3, 'X': 3, 'Q': 2, '\\': 2, 'J': 2, 'Z': 2,
		'@': 2, '$': 2, '?': 2, '\r': 2, '`': 2, '^': 1, '~': 1,
	} {
		t[c] = f
	}
	return t
}()
