package extract

import "bytes"

// blankExportMacros hides the export macro of a C++ class or struct head —
// `class YAML_CPP_API Emitter {`, `struct Q_CORE_EXPORT QString :` — under
// spaces of the same length. tree-sitter reads the macro as the class's
// name and the class as a function whose body holds the members, so every
// method landed in the enclosing namespace. Offsets and lines are kept;
// src is copied only when a macro is found (it may be a mapped file).
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
				out = bytes.Clone(src)
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
