package seek

import (
	"unicode/utf8"
)

// Tokenisation is shared by documents and queries: both sides must turn
// "validateCredentials", "validate_credentials" and "validates the
// credential" into the same terms, or nothing matches.
//
// An identifier is a run of letters, digits, '_' and non-ASCII bytes. It
// yields its parts (split at '_', camelCase and letter/digit boundaries),
// lower-cased, stop-listed and lightly stemmed, and — when it has two or
// more parts — its compact whole ("validatecredentials"), unstemmed, so an
// exact identifier in a query prefers the node that carries it.

const (
	// maxIdentLen skips longer runs: base64 blobs, minified code and
	// generated tables carry no lookup signal and would bloat the
	// vocabulary.
	maxIdentLen = 64
	// maxCompactLen bounds the compact whole-identifier term.
	maxCompactLen = 40
	// minPartLen drops one-letter parts ("a", "x", the "s" of "Ptrs").
	minPartLen = 2
)

// tokenizer holds scratch buffers so tokenising a file allocates nothing
// per token. Not safe for concurrent use; give each goroutine its own.
type tokenizer struct {
	// noise is an extra stop list (queryNoise for queries; nil for
	// documents).
	noise   map[string]struct{}
	part    []byte
	compact []byte
	stem    []byte
	bounds  []int
}

// identChar reports whether b continues an identifier. Bytes >= 0x80 are
// parts of UTF-8 letters; treating them as identifier bytes keeps
// non-English words whole.
func identChar(b byte) bool {
	return b == '_' || b >= 0x80 || ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z') || ('0' <= b && b <= '9')
}

// identByte is identChar as a table, for the body scan.
var identByte = func() (t [256]bool) {
	for c := range t {
		t[c] = identChar(byte(c))
	}
	return t
}()

// forEachIdent calls f for every identifier run in text.
func forEachIdent(text []byte, f func(ident []byte)) {
	i := 0
	for i < len(text) {
		if !identChar(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && identChar(text[j]) {
			j++
		}
		f(text[i:j])
		i = j
	}
}

// terms calls emit for every term of text (see the package comment on
// tokenisation). The slice passed to emit is only valid during the call.
func (t *tokenizer) terms(text []byte, emit func(term []byte)) {
	forEachIdent(text, func(id []byte) { t.ident(id, emit) })
}

// ident emits the terms of one identifier.
func (t *tokenizer) ident(id []byte, emit func(term []byte)) {
	if len(id) > maxIdentLen || looksLikeHash(id) {
		return
	}
	t.bounds = splitBounds(id, t.bounds[:0])
	t.compact = t.compact[:0]
	// segs counts every part, digits included: "md5" must keep its
	// compact whole although "5" is no term of its own.
	segs := len(t.bounds) / 2
	for k := 0; k+1 < len(t.bounds); k += 2 {
		p := id[t.bounds[k]:t.bounds[k+1]]
		t.compact = appendLower(t.compact, p)
		if len(p) < minPartLen || allDigits(p) {
			continue
		}
		t.part = appendLower(t.part[:0], p)
		if isStopword(t.part) {
			continue
		}
		if _, ok := t.noise[string(t.part)]; ok {
			continue
		}
		t.stem = stemInto(t.stem[:0], t.part)
		emit(t.stem)
	}
	if segs >= 2 && len(t.compact) <= maxCompactLen && !allDigits(t.compact) {
		emit(t.compact)
	}
}

// splitBounds appends [start, end) pairs of the parts of id: '_' separates,
// and a part starts at a lower→upper change, at the last capital of an
// acronym followed by a lower-case letter ("HTTPServer" → HTTP, Server),
// and where letters and digits meet ("utf8Decode" → utf, 8, Decode).
func splitBounds(id []byte, out []int) []int {
	start := -1
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c == '_' {
			if start >= 0 {
				out = append(out, start, i)
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		p := id[i-1]
		boundary := false
		switch {
		case isLower(p) && isUpper(c):
			boundary = true
		case isUpper(p) && isUpper(c) && i+1 < len(id) && isLower(id[i+1]):
			boundary = true
		case isDigit(p) != isDigit(c) && p < 0x80 && c < 0x80:
			boundary = true
		}
		if boundary {
			out = append(out, start, i)
			start = i
		}
	}
	if start >= 0 {
		out = append(out, start, len(id))
	}
	return out
}

func isLower(b byte) bool { return 'a' <= b && b <= 'z' }
func isUpper(b byte) bool { return 'A' <= b && b <= 'Z' }
func isDigit(b byte) bool { return '0' <= b && b <= '9' }

func allDigits(b []byte) bool {
	for _, c := range b {
		if !isDigit(c) {
			return false
		}
	}
	return true
}

// looksLikeHash recognises commit hashes, addresses and UUID pieces
// (seven or more hex digits mixing letters and digits): split at
// letter/digit boundaries they would turn into random two-letter terms.
func looksLikeHash(id []byte) bool {
	if len(id) < 7 {
		return false
	}
	if len(id) > 2 && id[0] == '0' && (id[1] == 'x' || id[1] == 'X') {
		id = id[2:]
	}
	digits, letters := 0, 0
	for _, c := range id {
		switch {
		case isDigit(c):
			digits++
		case ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F'):
			letters++
		default:
			return false
		}
	}
	return digits > 0 && letters > 0
}

func appendLower(dst, s []byte) []byte {
	for _, c := range s {
		if isUpper(c) {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// stemInto appends a light stem of the lower-case word w: plural "-s",
// "-es", "-ies", and "-ing", "-ed", and a final "-e" are removed so that
// "validates", "validated", "validating" and "validate" meet at "validat";
// a final "-y" after a consonant and "-ies" both become "-i" (Porter's
// rule), so "entry"/"entries" and "cookie"/"cookies" meet too.
// It never shortens a word below three letters, and leaves words it does
// not understand alone; it is deliberately weaker than Porter, because code
// vocabulary ("handler", "parser", "status") suffers from aggressive
// stemming more than it gains.
func stemInto(dst, w []byte) []byte {
	n := len(w)
	if n <= 3 || !isASCIIWord(w) {
		return append(dst, w...)
	}
	s := w
	switch {
	case hasSuffix(s, "ies") && n > 4:
		return append(dst, s[:n-2]...) // entries → entri, cookies → cooki
	case hasSuffix(s, "sses"):
		s = s[:n-2]
	case hasSuffix(s, "ss"), hasSuffix(s, "us"), hasSuffix(s, "is"):
		// class, status, analysis: not plurals
	case hasSuffix(s, "ches"), hasSuffix(s, "shes"), hasSuffix(s, "xes"), hasSuffix(s, "zes"):
		s = s[:n-2]
	case hasSuffix(s, "s"):
		s = s[:n-1]
	case hasSuffix(s, "ing") && n > 5 && hasVowel(s[:n-3]):
		s = undouble(s[:n-3])
	case hasSuffix(s, "eed"):
		// need, speed, feed: the "ed" is part of the word
	case hasSuffix(s, "ed") && n >= 4 && hasVowel(s[:n-2]):
		s = undouble(s[:n-2])
		if len(s) < 3 {
			s = w[:n-1] // used → use
		}
	}
	if len(s) > 3 && s[len(s)-1] == 'e' && s[len(s)-2] != 'e' {
		s = s[:len(s)-1]
	}
	if len(s) > 3 && s[len(s)-1] == 'y' && !isVowel(s[len(s)-2]) {
		return append(append(dst, s[:len(s)-1]...), 'i') // entry → entri
	}
	if len(s) < 3 {
		s = w
	}
	return append(dst, s...)
}

// undouble removes the doubled final consonant left by "-ing"/"-ed"
// ("stopp" → "stop") except for the doublings English keeps ("call",
// "pass", "buzz").
func undouble(s []byte) []byte {
	n := len(s)
	if n >= 4 && s[n-1] == s[n-2] {
		switch s[n-1] {
		case 'l', 's', 'z', 'f', 'e', 'o':
			return s
		}
		if !isVowel(s[n-1]) {
			return s[:n-1]
		}
	}
	return s
}

func hasVowel(s []byte) bool {
	for _, c := range s {
		if isVowel(c) || c == 'y' {
			return true
		}
	}
	return false
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u':
		return true
	}
	return false
}

func hasSuffix(s []byte, suf string) bool {
	return len(s) >= len(suf) && string(s[len(s)-len(suf):]) == suf
}

func isASCIIWord(w []byte) bool {
	for _, c := range w {
		if c >= utf8.RuneSelf || !isLower(c) {
			return false
		}
	}
	return true
}

// Terms returns the index terms of text in order of appearance, with
// repetitions: what a document or a query contributes to the index. It is
// exported so callers (and tests) can see exactly what matches what.
func Terms(text string) []string {
	var t tokenizer
	var out []string
	t.terms([]byte(text), func(term []byte) { out = append(out, string(term)) })
	return out
}
