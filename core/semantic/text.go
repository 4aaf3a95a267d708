package semantic

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxQueryWords bounds the words a query is matched by: the engines do
// work per word, and a pasted file must not turn into a thousand lookups.
const MaxQueryWords = 32

// Words splits a query into lower-case words. Whitespace and sentence
// punctuation separate words; the characters code identifiers are made of
// ('_', '.', '/', ':', '-', '$', '#') do not, so "session_pool.py",
// "os.path.join" and "src/auth/login.py" stay whole (SplitIdentifier takes
// them apart). Leading and trailing identifier punctuation is trimmed so
// "auth." at the end of a sentence is "auth". Duplicates are dropped; the
// order of first appearance is kept.
func Words(text string) []string {
	var out []string
	fields := strings.FieldsFunc(text, isWordSeparator)
	for _, f := range fields {
		w := strings.TrimFunc(f, func(r rune) bool { return r == '.' || r == ':' || r == '-' || r == '/' || r == '#' || r == '$' })
		if w == "" {
			continue
		}
		w = strings.ToLower(w)
		dup := false
		for _, o := range out {
			if o == w {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, w)
		}
	}
	return out
}

// QueryWords is Words limited to the first MaxQueryWords words.
func QueryWords(text string) []string {
	w := Words(text)
	return w[:min(len(w), MaxQueryWords)]
}

func isWordSeparator(r rune) bool {
	if unicode.IsSpace(r) {
		return true
	}
	switch r {
	case ',', ';', '!', '?', '(', ')', '[', ']', '{', '}', '<', '>', '"', '\'', '`', '|', '*', '=', '+', '&', '~', '^', '%', '@':
		return true
	}
	return false
}

// SplitIdentifier splits one identifier into its lower-case parts: on
// '_', '-', '.', '/', '\\', ':' and at camelCase boundaries ("parseHTTPRequest"
// → parse, http, request; "auth_handler.py" → auth, handler). A trailing
// known file extension is not a part: every label in a Python tree ends in
// "py", so matching it would tie every file to the query. Parts shorter
// than two characters are dropped for the same reason (a lone "a" matches
// everything by substring).
func SplitIdentifier(ident string) []string {
	stem := StripExtension(ident)
	var out []string
	emit := func(p string) {
		if utf8.RuneCountInString(p) < 2 {
			return
		}
		p = strings.ToLower(p)
		for _, o := range out {
			if o == p {
				return
			}
		}
		out = append(out, p)
	}
	segs := strings.FieldsFunc(stem, func(r rune) bool {
		switch r {
		case '_', '-', '.', '/', '\\', ':', '$', '#', ' ':
			return true
		}
		return false
	})
	for _, seg := range segs {
		for _, p := range splitCamel(seg) {
			emit(p)
		}
	}
	return out
}

// splitCamel splits "parseHTTPRequest2" into parse, HTTP, Request2: a new
// part starts at a lower→upper transition and before the last capital of
// an acronym that is followed by a lower-case letter.
func splitCamel(s string) []string {
	rs := []rune(s)
	var parts []string
	start := 0
	for i := 1; i < len(rs); i++ {
		prev, cur := rs[i-1], rs[i]
		boundary := false
		switch {
		case unicode.IsLower(prev) && unicode.IsUpper(cur):
			boundary = true
		case unicode.IsDigit(prev) && unicode.IsUpper(cur):
			boundary = true
		case unicode.IsUpper(prev) && unicode.IsUpper(cur) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			boundary = true
		}
		if boundary {
			parts = append(parts, string(rs[start:i]))
			start = i
		}
	}
	if start < len(rs) {
		parts = append(parts, string(rs[start:]))
	}
	return parts
}

// knownExtensions are file extensions that StripExtension removes. A fixed
// list (rather than "anything after the last dot") keeps dotted names such
// as "os.path.join" or "http.Client" intact.
var knownExtensions = map[string]bool{
	"py": true, "pyi": true, "go": true, "rs": true, "ts": true, "tsx": true,
	"js": true, "jsx": true, "mjs": true, "cjs": true, "java": true, "kt": true,
	"kts": true, "scala": true, "c": true, "h": true, "cc": true, "cpp": true,
	"cxx": true, "hpp": true, "hh": true, "cs": true, "rb": true, "php": true,
	"swift": true, "m": true, "mm": true, "lua": true, "sh": true, "bash": true,
	"zsh": true, "md": true, "rst": true, "txt": true, "json": true, "yaml": true,
	"yml": true, "toml": true, "ini": true, "cfg": true, "xml": true, "html": true,
	"htm": true, "css": true, "scss": true, "sql": true, "proto": true, "vue": true,
	"svelte": true, "dart": true, "ex": true, "exs": true, "erl": true, "hs": true,
	"ml": true, "r": true, "jl": true, "zig": true, "nim": true, "pdf": true,
}

// StripExtension removes one trailing known file extension ("auth.py" →
// "auth", "index.d.ts" → "index.d"); other strings are returned unchanged.
func StripExtension(s string) string {
	i := strings.LastIndexByte(s, '.')
	if i <= 0 || i == len(s)-1 {
		return s
	}
	if strings.ContainsAny(s[i+1:], "/\\") {
		return s
	}
	if knownExtensions[strings.ToLower(s[i+1:])] {
		return s[:i]
	}
	return s
}

// Compact lower-cases s and keeps only letters and digits, so
// "Session_Pool", "session-pool" and "SessionPool" compare equal.
func Compact(s string) string {
	return string(AppendCompact(make([]byte, 0, len(s)), s))
}

// AppendCompact appends Compact(s) to dst.
func AppendCompact(dst []byte, s string) []byte {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			dst = utf8.AppendRune(dst, unicode.ToLower(r))
		}
	}
	return dst
}
