package patterns

// SketchSize is the number of MinHash bins of a Shape.
const SketchSize = 64

// shingle is the number of consecutive tokens hashed together.
const shingle = 4

// Shape is the normalised form of a piece of source code: identifiers
// and literals are replaced by their kind, so two bodies that differ
// only in names and constants have the same Shape.
type Shape struct {
	// Tokens counts the normalised tokens.
	Tokens int
	// Exact hashes the whole token sequence: equal for bodies equal up to
	// renaming.
	Exact uint64
	// Sketch is a one-permutation MinHash of the token shingles; the share
	// of equal bins estimates the shingle sets' Jaccard similarity.
	Sketch [SketchSize]uint32
}

// keywords are kept as themselves (across Go, Python, JavaScript/
// TypeScript, Java, Rust, C): they are the skeleton of a body.
var keywords = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range []string{
		"if", "else", "for", "while", "do", "switch", "case", "default", "break", "continue", "return",
		"func", "def", "function", "fn", "class", "struct", "interface", "type", "enum", "impl", "trait",
		"var", "let", "const", "mut", "go", "defer", "select", "chan", "map", "range", "goto", "fallthrough",
		"try", "catch", "except", "finally", "throw", "raise", "with", "as", "in", "is", "not", "and", "or",
		"lambda", "yield", "async", "await", "new", "delete", "this", "self", "super", "nil", "null", "None",
		"true", "false", "True", "False", "import", "from", "package", "static", "public", "private",
		"protected", "pass", "elif", "match", "loop", "where", "typeof", "instanceof", "void", "assert",
		"global", "nonlocal", "del", "make", "len", "append", "panic", "recover",
	} {
		m[k] = true
	}
	return m
}()

// ShapeOf normalises src into a Shape. Comments and whitespace are
// dropped; keywords and operators stay; every identifier — a selector
// chain such as records.Record or self.items.append counting as one —
// becomes one token kind, as do strings and numbers. So a body copied
// under new names, or into another package, keeps its shape.
func ShapeOf(src []byte) Shape {
	var s Shape
	for i := range s.Sketch {
		s.Sketch[i] = ^uint32(0)
	}
	var win [shingle]uint64
	var exact uint64 // the sequence's hash, order-sensitive
	emit := func(h uint64) {
		exact = mix(exact + h)
		copy(win[:], win[1:])
		win[shingle-1] = h
		s.Tokens++
		if s.Tokens >= shingle {
			s.add(win)
		}
	}
	// The pending selector chain: its first word, its length, and whether
	// a '.' followed it (and may extend it).
	var first []byte
	chain, dot := 0, false
	flush := func() {
		switch {
		case chain == 1 && keywords[string(first)]:
			emit(hashBytes(first))
		case chain > 0:
			emit(hIdent)
		}
		if dot {
			emit(hDot)
		}
		chain, dot = 0, false
	}
	scan(src, func(kind byte, text []byte) {
		switch {
		case kind == 'i' && chain > 0 && dot:
			chain, dot = chain+1, false
			return
		case kind == 'p' && text[0] == '.' && chain > 0 && !dot:
			dot = true
			return
		}
		flush()
		switch kind {
		case 'i':
			first, chain = text, 1
		case 's':
			emit(hString)
		case 'n':
			emit(hNumber)
		default:
			emit(hashBytes(text))
		}
	})
	flush()
	if s.Tokens > 0 && s.Tokens < shingle { // too short to shingle: one shingle of what there is
		s.add(win)
	}
	s.Exact = exact
	s.densify()
	return s
}

// The hashes of the token kinds that stand for every identifier, string
// and number, and of '.'.
var (
	hIdent  = hashBytes([]byte("$id"))
	hString = hashBytes([]byte("$str"))
	hNumber = hashBytes([]byte("$num"))
	hDot    = hashBytes([]byte("."))
)

// add puts one shingle into the sketch: its hash's top bits choose the
// bin, the rest competes for the bin's minimum.
func (s *Shape) add(win [shingle]uint64) {
	h := uint64(0x9e3779b97f4a7c15)
	for _, w := range win {
		h = mix(h ^ w)
	}
	bin := h >> (64 - 6) // SketchSize == 64
	if v := uint32(h); v < s.Sketch[bin] {
		s.Sketch[bin] = v
	}
}

// densify fills empty bins from the next full one (rotation
// densification), so a small body still has a comparable sketch.
func (s *Shape) densify() {
	var full [SketchSize]bool
	anyFull := false
	for i, v := range s.Sketch {
		full[i] = v != ^uint32(0)
		anyFull = anyFull || full[i]
	}
	if !anyFull {
		return
	}
	for i := range s.Sketch {
		for d := 1; !full[i] && d < SketchSize; d++ {
			if j := (i + d) % SketchSize; full[j] {
				s.Sketch[i] = s.Sketch[j] + uint32(d)*0x9e3779b9
				break
			}
		}
	}
}

// Similarity estimates the Jaccard similarity of two shapes' shingle
// sets (1 for bodies equal up to renaming).
func (s *Shape) Similarity(o *Shape) float64 {
	if s.Exact == o.Exact && s.Tokens == o.Tokens {
		return 1
	}
	return sketchSimilarity(&s.Sketch, &o.Sketch)
}

// sketchSimilarity is the share of equal bins of two sketches.
func sketchSimilarity(a, b *[SketchSize]uint32) float64 {
	eq := 0
	for i := range a {
		if a[i] == b[i] {
			eq++
		}
	}
	return float64(eq) / SketchSize
}

func hashBytes(t []byte) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(t); i++ {
		h ^= uint64(t[i])
		h *= 1099511628211
	}
	return h
}

// mix is a 64-bit finaliser (splitmix64).
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
