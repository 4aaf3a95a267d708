package extract

import "bytes"

// blankExportMacros hides the export macro of a C++ class or struct head —
// `class YAML_CPP_API Emitter {`, `struct Q_CORE_EXPORT QString :` —
// under spaces of the same length. tree-sitter reads the macro as the
// class's name and the class as a function whose body holds the members,
// so every method landed in the enclosing namespace. Offsets and lines
// are kept; src is copied only when a macro is found (it may be a mapped
// file).
func blankExportMacros(src []byte) []byte {
	out := src
	for _, kw := range [][]byte{[]byte("class "), []byte("struct ")} {
		for from := 0; ; {
			i := bytes.Index(out[from:], kw)
			if i < 0 {
				break
			}
			i += from
			from = i + len(kw)
			if i > 0 && isIdentByte(out[i-1]) {
				continue
			}
			lo, hi, ok := exportMacroAt(out, from)
			if !ok {
				continue
			}
			if &out[0] == &src[0] {
				out = bytes.Clone(out)
			}
			for k := lo; k < hi; k++ {
				out[k] = ' '
			}
		}
	}
	return out
}

// exportMacroAt reads, from i, "MACRO Name" followed by '{', ':' or
// "final": the macro is an upper-case identifier of three or more bytes
// (YAML_CPP_API, DLLEXPORT). It returns the macro's bounds.
func exportMacroAt(b []byte, i int) (lo, hi int, ok bool) {
	i = skipBlanks(b, i)
	lo = i
	for i < len(b) && (b[i] == '_' || b[i] >= 'A' && b[i] <= 'Z' || b[i] >= '0' && b[i] <= '9') {
		i++
	}
	hi = i
	if hi-lo < 3 || i >= len(b) || isIdentByte(b[i]) || b[lo] >= '0' && b[lo] <= '9' {
		return 0, 0, false
	}
	j := skipBlanks(b, i)
	k := j
	for k < len(b) && isIdentByte(b[k]) {
		k++
	}
	if k == j {
		return 0, 0, false
	}
	k = skipBlanks(b, k)
	if bytes.HasPrefix(b[k:], []byte("final")) {
		k = skipBlanks(b, k+len("final"))
	}
	if k < len(b) && (b[k] == '{' || b[k] == ':' && (k+1 >= len(b) || b[k+1] != ':')) {
		return lo, hi, true
	}
	return 0, 0, false
}

func skipBlanks(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// blankDeclMacros blanks an export macro opening a line that declares a
// function, which tree-sitter read as the return type (the function was
// named std::string): MACRO, then a return type and a name before the
// line's '('
// (`LIB_API int count(`, `YAML_CPP_API std::vector<char> Decode(`). A
// macro called like a function (TEST_F(…)), a typedef'd return type
// alone (`HANDLE CreateFile(`) and a line with '=' or ';' before its '('
// are left alone.
func blankDeclMacros(src []byte) []byte {
	out := src
	for start := 0; start < len(out); {
		end := bytes.IndexByte(out[start:], '\n')
		if end < 0 {
			end = len(out)
		} else {
			end += start
		}
		if lo, hi, ok := declMacroAt(out[start:end]); ok {
			if len(src) > 0 && &out[0] == &src[0] {
				out = bytes.Clone(src)
			}
			for k := start + lo; k < start+hi; k++ {
				out[k] = ' '
			}
		}
		start = end + 1
	}
	return out
}

// declMacroAt finds the macro of a declaration line (see blankDeclMacros).
func declMacroAt(line []byte) (lo, hi int, ok bool) {
	lo = skipBlanks(line, 0)
	if lo >= len(line) || line[lo] < 'A' || line[lo] > 'Z' {
		return 0, 0, false
	}
	hi = lo
	for hi < len(line) && (line[hi] == '_' || line[hi] >= 'A' && line[hi] <= 'Z' || line[hi] >= '0' && line[hi] <= '9') {
		hi++
	}
	macro := line[lo:hi]
	if hi-lo < 3 || hi >= len(line) || isIdentByte(line[hi]) || !exportish(macro) {
		return 0, 0, false
	}
	rest := line[hi:]
	paren := bytes.IndexByte(rest, '(')
	if paren < 0 || bytes.ContainsAny(rest[:paren], "=;{}") {
		return 0, 0, false
	}
	words := bytes.FieldsFunc(rest[:paren], func(r rune) bool { return r == ' ' || r == '\t' || r == '*' || r == '&' })
	if len(words) < 2 {
		return 0, 0, false
	}
	for _, w := range words {
		if !isIdentByte(w[0]) { // LOG_DEBUG << f(x): an expression
			return 0, 0, false
		}
	}
	return lo, hi, true
}

// exportish says a macro's name reads as an export or visibility macro:
// with an underscore (YAML_CPP_API, Q_CORE_EXPORT) or ending so (DLLEXPORT).
func exportish(m []byte) bool {
	return bytes.IndexByte(m, '_') >= 0 || bytes.HasSuffix(m, []byte("API")) || bytes.HasSuffix(m, []byte("EXPORT"))
}
