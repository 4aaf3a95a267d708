package textsearch

import (
	"bytes"
	"unicode/utf8"
)

// Match is one matching line (or, in multiline mode, one match spanning
// Line..EndLine).
type Match struct {
	// Line and EndLine are 1-based; EndLine == Line unless the match
	// spans lines.
	Line, EndLine int
	// Start and End are the byte offsets of the first match on the line
	// in the file.
	Start, End int
	// LineStart is the byte offset where Line begins.
	LineStart int
}

// Fits reports whether the match's offsets lie inside content: a file read
// again after the scan (it changed meanwhile) may be shorter.
func (m Match) Fits(content []byte) bool {
	return 0 <= m.LineStart && m.LineStart <= m.Start && m.Start <= m.End && m.End <= len(content)
}

// Scan finds the matching lines of content. It keeps the first keep
// matches and returns the total count (matching lines; matches in
// multiline regex mode).
func (m *Matcher) Scan(content []byte, keep int) (total int, kept []Match) {
	emit := func(mt Match) {
		total++
		if len(kept) < keep {
			kept = append(kept, mt)
		}
	}
	if m.multi != nil {
		m.scanMulti(content, emit)
		return total, kept
	}
	m.scanLines(content, emit)
	return total, kept
}

// lineCounter turns increasing offsets into 1-based line numbers.
type lineCounter struct {
	content []byte
	pos     int // offset counted up to
	line    int // line number at pos
}

func (lc *lineCounter) at(off int) int {
	if off < lc.pos { // offsets only grow in a scan; restart otherwise
		lc.pos, lc.line = 0, 1
	}
	lc.line += bytes.Count(lc.content[lc.pos:off], nl)
	lc.pos = off
	return lc.line
}

var nl = []byte{'\n'}

// lineEnd returns the offset of the '\n' ending the line containing off,
// or len(content).
func lineEnd(content []byte, off int) int {
	if i := bytes.IndexByte(content[off:], '\n'); i >= 0 {
		return off + i
	}
	return len(content)
}

func (m *Matcher) scanLines(content []byte, emit func(Match)) {
	lc := lineCounter{content: content, line: 1}
	pos := 0 // always the start of a line
	for pos < len(content) {
		s, e := m.find.index(content[pos:])
		if s < 0 {
			return
		}
		s, e = s+pos, e+pos
		ls := pos
		if i := bytes.LastIndexByte(content[pos:s], '\n'); i >= 0 {
			ls = pos + i + 1
		}
		le := lineEnd(content, s)
		last := le // end of the last line the match touches
		if e-1 > le {
			last = lineEnd(content, e-1)
		}
		switch {
		case m.line == nil:
			// A literal (or a whole-file regex with no per-line check).
			line := lc.at(ls)
			endLine := lc.at(lastLineStart(content, ls, last))
			emit(Match{Line: line, EndLine: endLine, Start: s, End: e, LineStart: ls})
		case m.prefiltered && last == le:
			if loc := m.line.FindIndex(content[ls:le]); loc != nil {
				line := lc.at(ls)
				emit(Match{Line: line, EndLine: line, Start: ls + loc[0], End: ls + loc[1], LineStart: ls})
			}
		case !m.prefiltered && last == le && e > s:
			// A regex match inside one line is a line match as it is.
			line := lc.at(ls)
			emit(Match{Line: line, EndLine: line, Start: s, End: e, LineStart: ls})
		default:
			// The candidate spans lines (or is empty): check each line it
			// touches on its own.
			for a := ls; a <= last && a < len(content); {
				b := lineEnd(content, a)
				if loc := m.line.FindIndex(content[a:b]); loc != nil {
					line := lc.at(a)
					emit(Match{Line: line, EndLine: line, Start: a + loc[0], End: a + loc[1], LineStart: a})
				}
				a = b + 1
			}
		}
		pos = last + 1
	}
}

// lastLineStart returns the start of the line that ends at last, at or
// after ls.
func lastLineStart(content []byte, ls, last int) int {
	if i := bytes.LastIndexByte(content[ls:last], '\n'); i >= 0 {
		return ls + i + 1
	}
	return ls
}

func (m *Matcher) scanMulti(content []byte, emit func(Match)) {
	lc := lineCounter{content: content, line: 1}
	for _, loc := range m.multi.FindAllIndex(content, -1) {
		s, e := loc[0], loc[1]
		if s == len(content) && len(content) > 0 && content[s-1] == '\n' {
			continue // an empty match after the final newline is no line
		}
		ls := s
		if i := bytes.LastIndexByte(content[:s], '\n'); i >= 0 {
			ls = i + 1
		} else {
			ls = 0
		}
		endOff := e - 1
		if e == s {
			endOff = s
		}
		line := lc.at(ls)
		endLine := line
		if endOff > s {
			endLine = line + bytes.Count(content[s:endOff], nl)
		}
		emit(Match{Line: line, EndLine: endLine, Start: s, End: e, LineStart: ls})
	}
}

// LineText returns line n's text starting at offset ls, without the line
// terminator ("\n" or "\r\n").
func LineText(content []byte, ls int) []byte {
	le := lineEnd(content, ls)
	if le > ls && content[le-1] == '\r' {
		le--
	}
	return content[ls:le]
}

// Context returns up to n lines before the line starting at ls and up to n
// lines after the line ending the match that ends at end (terminators
// stripped).
func Context(content []byte, ls, end, n int) (before, after [][]byte) {
	if n <= 0 {
		return nil, nil
	}
	// Before: walk back over n line starts.
	starts := make([]int, 0, n)
	for p := ls; len(starts) < n && p > 0; {
		q := bytes.LastIndexByte(content[:p-1], '\n') + 1
		starts = append(starts, q)
		p = q
	}
	for i := len(starts) - 1; i >= 0; i-- {
		before = append(before, LineText(content, starts[i]))
	}
	// After: from the line after the one containing end-1 (or ls).
	off := ls
	if end > ls {
		off = end - 1
	}
	p := lineEnd(content, off) + 1
	for len(after) < n && p < len(content) {
		after = append(after, LineText(content, p))
		p = lineEnd(content, p) + 1
	}
	return before, after
}

// Column returns the 1-based character (rune) column of off in the line
// starting at ls.
func Column(content []byte, ls, off int) int {
	return utf8.RuneCount(content[ls:off]) + 1
}

// Clip shortens a long line to at most limit bytes, keeping the window
// around [s, e) (offsets within line) and marking the cuts with "…". It
// never splits a UTF-8 sequence. clipped reports whether it cut.
func Clip(line []byte, s, e, limit int) (out string, clipped bool) {
	if len(line) <= limit {
		return string(line), false
	}
	s = min(max(s, 0), len(line))
	e = min(max(e, s), len(line))
	span := e - s
	if span >= limit {
		span = limit
	}
	pad := (limit - span) / 2
	a := max(0, s-pad)
	b := min(len(line), a+limit)
	if b-a < limit {
		a = max(0, b-limit)
	}
	for a > 0 && a < len(line) && !utf8.RuneStart(line[a]) {
		a++
	}
	for b < len(line) && b > a && !utf8.RuneStart(line[b]) {
		b--
	}
	var sb bytes.Buffer
	if a > 0 {
		sb.WriteString("…")
	}
	sb.Write(line[a:b])
	if b < len(line) {
		sb.WriteString("…")
	}
	return sb.String(), true
}
