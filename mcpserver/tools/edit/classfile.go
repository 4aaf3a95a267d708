package edit

import (
	"encoding/binary"
	"errors"
	"strings"
)

// classFile is what the contract check needs of a compiled Java type:
// its kind, its direct supertypes (internal names, java/util/Map$Entry)
// and its methods.
type classFile struct {
	name      string
	iface     bool
	abstract  bool
	super     string // "" for java/lang/Object
	ifaces    []string
	methods   []classMethod
	truncated bool
}

// classMethod is a method's name, its parameter types as source code
// writes them without generics or packages (the generic signature's when
// there is one: a type variable stays T), and the flags that matter.
type classMethod struct {
	name     string
	params   []string
	abstract bool
	static   bool
	private  bool
}

const (
	accPrivate   = 0x0002
	accStatic    = 0x0008
	accBridge    = 0x0040
	accInterface = 0x0200
	accAbstract  = 0x0400
	accSynthetic = 0x1000
)

var errClass = errors.New("not a readable class file")

// classReader walks a class file's bytes; any read past the end sets bad.
type classReader struct {
	b   []byte
	bad bool
}

func (r *classReader) take(n int) []byte {
	if r.bad || n < 0 || n > len(r.b) {
		r.bad = true
		return make([]byte, max(n, 0))
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *classReader) u2() int { return int(binary.BigEndian.Uint16(r.take(2))) }
func (r *classReader) u4() int { return int(binary.BigEndian.Uint32(r.take(4))) }

// parseClass reads a class file (a JDK's .class, or ct.sym's .sig, which
// has the same layout without code).
func parseClass(b []byte) (*classFile, error) {
	r := &classReader{b: b}
	if r.u4() != 0xCAFEBABE {
		return nil, errClass
	}
	r.take(4) // version
	utf, class := constantPool(r)
	name := func(i int) string {
		if i > 0 && i < len(class) {
			return utf[class[i]]
		}
		return ""
	}
	access := r.u2()
	c := &classFile{name: name(r.u2()), iface: access&accInterface != 0, abstract: access&accAbstract != 0}
	c.super = name(r.u2())
	for n := r.u2(); n > 0 && !r.bad; n-- {
		c.ifaces = append(c.ifaces, name(r.u2()))
	}
	members(r, utf, nil) // fields
	members(r, utf, c)
	if r.bad || c.name == "" {
		return nil, errClass
	}
	return c, nil
}

// constantPool reads the pool: utf[i] is entry i's text when it is a
// Utf8, class[i] the Utf8 index a Class entry i names.
func constantPool(r *classReader) (utf []string, class []int) {
	n := r.u2()
	utf, class = make([]string, n), make([]int, n)
	for i := 1; i < n && !r.bad; i++ {
		switch tag := r.take(1)[0]; tag {
		case 1:
			utf[i] = string(r.take(r.u2()))
		case 7:
			class[i] = r.u2()
		case 8, 16, 19, 20:
			r.take(2)
		case 15:
			r.take(3)
		case 3, 4, 9, 10, 11, 12, 17, 18:
			r.take(4)
		case 5, 6: // eight bytes, two slots
			r.take(8)
			i++
		default:
			r.bad = true
		}
	}
	for i, u := range class {
		if u >= n {
			class[i] = 0
		}
	}
	return utf, class
}

// members reads a field or method table; methods go to c (nil: skipped).
func members(r *classReader, utf []string, c *classFile) {
	text := func(i int) string {
		if i > 0 && i < len(utf) {
			return utf[i]
		}
		return ""
	}
	for n := r.u2(); n > 0 && !r.bad; n-- {
		access, name, desc := r.u2(), text(r.u2()), text(r.u2())
		for a := r.u2(); a > 0 && !r.bad; a-- {
			attr, body := text(r.u2()), r.take(r.u4())
			if attr == "Signature" && len(body) == 2 {
				desc = text(int(binary.BigEndian.Uint16(body)))
			}
		}
		if c == nil || access&(accBridge|accSynthetic) != 0 || strings.HasPrefix(name, "<") {
			continue
		}
		params, ok := methodParams(desc)
		c.truncated = c.truncated || !ok
		c.methods = append(c.methods, classMethod{name: name, params: params,
			abstract: access&accAbstract != 0, static: access&accStatic != 0, private: access&accPrivate != 0})
	}
}

// methodParams are the parameter types of a method descriptor or generic
// signature, `<T:…>(TT;[Ljava/lang/String;Ljava/util/Map$Entry<TK;TV;>;I)V`
// → T, String[], Entry, int.
func methodParams(sig string) ([]string, bool) {
	if strings.HasPrefix(sig, "<") {
		sig = sig[typeArgsEnd(sig, 0):]
	}
	if !strings.HasPrefix(sig, "(") {
		return nil, false
	}
	var out []string
	for i := 1; i < len(sig) && sig[i] != ')'; {
		t, next := fieldType(sig, i)
		if next <= i {
			return nil, false
		}
		out, i = append(out, t), next
	}
	return out, true
}

// fieldType reads one type at sig[i:]: its simple name and where the next
// one starts (i itself when it cannot be read).
func fieldType(sig string, i int) (string, int) {
	prims := map[byte]string{'B': "byte", 'C': "char", 'D': "double", 'F': "float", 'I': "int", 'J': "long", 'S': "short", 'Z': "boolean"}
	if p, ok := prims[sig[i]]; ok {
		return p, i + 1
	}
	switch sig[i] {
	case '[':
		if i+1 >= len(sig) {
			return "", i
		}
		t, next := fieldType(sig, i+1)
		if next == i+1 {
			return "", i
		}
		return t + "[]", next
	case 'T':
		end := strings.IndexByte(sig[i:], ';')
		if end < 0 {
			return "", i
		}
		return sig[i+1 : i+end], i + end + 1
	case 'L':
		var name strings.Builder
		for j := i + 1; j < len(sig); j++ {
			switch sig[j] {
			case ';':
				return simpleClassName(name.String()), j + 1
			case '<':
				j = typeArgsEnd(sig, j) - 1
			default:
				name.WriteByte(sig[j])
			}
		}
	}
	return "", i
}

// typeArgsEnd is the index after the '>' closing the '<' at open.
func typeArgsEnd(sig string, open int) int {
	depth := 0
	for j := open; j < len(sig); j++ {
		switch sig[j] {
		case '<':
			depth++
		case '>':
			if depth--; depth == 0 {
				return j + 1
			}
		}
	}
	return len(sig)
}

// simpleClassName: java/util/Map$Entry or java/util/Map.Entry → Entry.
func simpleClassName(internal string) string {
	return internal[strings.LastIndexAny(internal, "/$.")+1:]
}
