package patterns

// scan splits source code into tokens for ShapeOf, language-agnostically:
// kind 'i' identifier, 's' string, 'n' number, 'p' one punctuation
// byte. Comments (//, /* */, #) and whitespace are skipped.
func scan(src []byte, f func(kind byte, text []byte)) {
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/', c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i += 2
			for i+1 < len(src) && !(src[i] == '*' && src[i+1] == '/') {
				i++
			}
			i += 2
		case c == '"' || c == '\'' || c == '`':
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				if c != '`' && j < len(src) && src[j] == '\n' { // unterminated: stop at the line
					break
				}
				j++
			}
			f('s', src[i:min(j+1, len(src))])
			i = j + 1
		case isDigit(c):
			j := i + 1
			for j < len(src) && (isIdent(src[j]) || src[j] == '.') {
				j++
			}
			f('n', src[i:j])
			i = j
		case isIdent(c) || c >= 0x80:
			j := i + 1
			for j < len(src) && (isIdent(src[j]) || src[j] >= 0x80) {
				j++
			}
			f('i', src[i:j])
			i = j
		default:
			f('p', src[i:i+1])
			i++
		}
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdent(c byte) bool {
	return c == '_' || c == '$' || isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z')
}
