package contract

import "strings"

// lang is the lexical family of a source file.
type lang uint8

const (
	langNone lang = iota
	langGo
	langJS
	langPy
	langProto
)

func langOf(relPath string) lang {
	i := strings.LastIndexByte(relPath, '.')
	if i < 0 {
		return langNone
	}
	switch relPath[i:] {
	case ".go":
		return langGo
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".vue", ".svelte":
		return langJS
	case ".py":
		return langPy
	case ".proto":
		return langProto
	}
	return langNone
}

// text is a source with its comments blanked (spaces, newlines kept, so
// offsets and lines stay those of the file) and a mask of the bytes that
// are inside string literals. A path written in a comment is then never
// seen, and brace matching skips strings.
type text struct {
	src     string
	inStr   []bool
	lineAt  []int // offset of each line's first byte
	pyLike  bool
	goRawBT bool // backquotes are Go raw strings (no ${} holes)
}

func newText(l lang, src []byte) *text {
	b := []byte(string(src))
	t := &text{inStr: make([]bool, len(b)), pyLike: l == langPy, goRawBT: l == langGo}
	if l == langPy {
		blankPy(b, t.inStr)
	} else {
		blankC(b, t.inStr, l == langJS)
	}
	t.src = string(b)
	t.lineAt = append(t.lineAt, 0)
	for i, c := range b {
		if c == '\n' {
			t.lineAt = append(t.lineAt, i+1)
		}
	}
	return t
}

// line is the 1-based line of offset off.
func (t *text) line(off int) int {
	lo, hi := 0, len(t.lineAt)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if t.lineAt[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1
}

func blank(b []byte, i int) {
	if b[i] != '\n' {
		b[i] = ' '
	}
}

// blankC blanks // and /* */ comments of Go, JavaScript and .proto
// sources and marks their string literals ('…', "…", `…`).
func blankC(b []byte, inStr []bool, js bool) {
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				blank(b, i)
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			end := strings.Index(string(b[i+2:]), "*/")
			stop := len(b)
			if end >= 0 {
				stop = i + 2 + end + 2
			}
			for ; i < stop; i++ {
				blank(b, i)
			}
			i--
		case b[i] == '"' || b[i] == '\'' || b[i] == '`':
			i = skipString(b, inStr, i, b[i] == '`' && !js)
		}
	}
}

// skipString marks the literal opening at i and returns its last offset.
// raw: no escapes (Go's backquoted strings).
func skipString(b []byte, inStr []bool, i int, raw bool) int {
	q := b[i]
	for j := i + 1; j < len(b); j++ {
		inStr[j] = true
		switch {
		case b[j] == '\\' && !raw && j+1 < len(b):
			j++
			inStr[j] = true
		case b[j] == q:
			inStr[j] = false
			return j
		case b[j] == '\n' && q != '`':
			return j // unterminated: stop at the line's end
		}
	}
	return len(b) - 1
}

// blankPy blanks # comments and docstrings (a triple-quoted string that
// opens its line) and marks the other string literals.
func blankPy(b []byte, inStr []bool) {
	lineStart := true
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '#':
			for ; i < len(b) && b[i] != '\n'; i++ {
				blank(b, i)
			}
			i--
		case c == '"' || c == '\'':
			if i+2 < len(b) && b[i+1] == c && b[i+2] == c {
				end := strings.Index(string(b[i+3:]), string([]byte{c, c, c}))
				stop := len(b)
				if end >= 0 {
					stop = i + 3 + end + 3
				}
				for j := i; j < stop; j++ {
					if lineStart {
						blank(b, j)
					} else if j > i+2 && j < stop-3 {
						inStr[j] = true
					}
				}
				i = stop - 1
			} else {
				i = skipString(b, inStr, i, false)
			}
		}
		switch {
		case i < len(b) && b[i] == '\n':
			lineStart = true
		case c != ' ' && c != '\t':
			lineStart = false
		}
	}
}
