package edit

import "bytes"

// Format says what Preserve changed in new content to keep the file's
// conventions.
type Format struct {
	// LineEndings is the style kept: "crlf" or "lf" ("" when the original
	// had no single style and the content was left as given).
	LineEndings string `json:"line_endings,omitempty"`
	// Converted: line endings of the new content were rewritten to that
	// style.
	Converted bool `json:"line_endings_converted,omitempty"`
	// TrailingNewlineAdded / TrailingNewlineRemoved: the final newline
	// was made to match the original's.
	TrailingNewlineAdded   bool `json:"trailing_newline_added,omitempty"`
	TrailingNewlineRemoved bool `json:"trailing_newline_removed,omitempty"`
}

// Preserve returns next adjusted to old's conventions: when every line of
// old ends in CRLF (or every one in LF), next's line endings are written
// that way too; when old ends with a newline, so does the result, and
// when old ends without one, the result does too. Agents tend to write LF
// and to drop or add the last newline; the file keeps what it had. Empty
// contents are left alone.
func Preserve(old, next []byte) ([]byte, Format) {
	var f Format
	style := lineStyle(old)
	out := next
	switch style {
	case "crlf":
		f.LineEndings = style
		if hasBareLF(out) {
			out = bytes.ReplaceAll(bytes.ReplaceAll(out, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
			f.Converted = true
		}
	case "lf":
		f.LineEndings = style
		if bytes.Contains(out, []byte("\r\n")) {
			out = bytes.ReplaceAll(out, []byte("\r\n"), []byte("\n"))
			f.Converted = true
		}
	}
	if len(old) == 0 || len(out) == 0 {
		return out, f
	}
	eol := []byte("\n")
	if style == "crlf" || (style == "" && bytes.HasSuffix(old, []byte("\r\n"))) {
		eol = []byte("\r\n")
	}
	oldNL, newNL := old[len(old)-1] == '\n', out[len(out)-1] == '\n'
	switch {
	case oldNL && !newNL:
		out = append(bytes.Clone(out), eol...)
		f.TrailingNewlineAdded = true
	case !oldNL && newNL:
		out = bytes.TrimSuffix(out, []byte("\n"))
		out = bytes.TrimSuffix(out, []byte("\r"))
		f.TrailingNewlineRemoved = true
	}
	return out, f
}

// lineStyle is "crlf" when every newline of b follows a CR, "lf" when
// none does, "" when b has no newline or mixes both.
func lineStyle(b []byte) string {
	lf := bytes.Count(b, []byte{'\n'})
	if lf == 0 {
		return ""
	}
	switch bytes.Count(b, []byte("\r\n")) {
	case lf:
		return "crlf"
	case 0:
		return "lf"
	}
	return ""
}

func hasBareLF(b []byte) bool {
	for i, c := range b {
		if c == '\n' && (i == 0 || b[i-1] != '\r') {
			return true
		}
	}
	return false
}
