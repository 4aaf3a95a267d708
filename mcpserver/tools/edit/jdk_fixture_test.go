package edit

import (
	"archive/zip"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// fakeClass is a class file a test JDK holds: internal names, and methods
// as "name descriptor [signature]" with their flags.
type fakeClass struct {
	name, super      string
	ifaces           []string
	iface, abstract  bool
	methods          []fakeMethod
	release, version string // ct.sym folder ("9ABCDEFG"); default "G"
}

type fakeMethod struct {
	name, desc, sig  string
	abstract, static bool
}

// bytes writes c as a class file (version 61, no fields, no code).
func (c fakeClass) bytes() []byte {
	var pool [][]byte
	index := map[string]int{}
	utf := func(s string) int {
		if i, ok := index["u"+s]; ok {
			return i
		}
		e := append([]byte{1, byte(len(s) >> 8), byte(len(s))}, s...)
		pool = append(pool, e)
		index["u"+s] = len(pool)
		return len(pool)
	}
	class := func(s string) int {
		if s == "" {
			return 0
		}
		if i, ok := index["c"+s]; ok {
			return i
		}
		u := utf(s)
		pool = append(pool, []byte{7, byte(u >> 8), byte(u)})
		index["c"+s] = len(pool)
		return len(pool)
	}
	var body []byte
	u2 := func(v int) { body = binary.BigEndian.AppendUint16(body, uint16(v)) }
	access := 0x0001
	if c.iface {
		access |= accInterface | accAbstract
	} else if c.abstract {
		access |= accAbstract
	}
	u2(access)
	u2(class(c.name))
	u2(class(c.super))
	u2(len(c.ifaces))
	for _, i := range c.ifaces {
		u2(class(i))
	}
	u2(0) // fields
	u2(len(c.methods))
	for _, m := range c.methods {
		flags := 0x0001
		if m.abstract {
			flags |= accAbstract
		}
		if m.static {
			flags |= accStatic
		}
		u2(flags)
		u2(utf(m.name))
		u2(utf(m.desc))
		if m.sig == "" {
			u2(0)
			continue
		}
		u2(1)
		u2(utf("Signature"))
		body = binary.BigEndian.AppendUint32(body, 2)
		u2(utf(m.sig))
	}
	u2(0) // class attributes
	out := []byte{0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61}
	out = binary.BigEndian.AppendUint16(out, uint16(len(pool)+1))
	for _, e := range pool {
		out = append(out, e...)
	}
	return append(out, body...)
}

// fakeJDK writes a JDK home whose lib/ct.sym holds classes.
func fakeJDK(t *testing.T, classes []fakeClass) string {
	t.Helper()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(home, "lib", "ct.sym"))
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	for _, c := range classes {
		rel := c.release
		if rel == "" {
			rel = "G"
		}
		w, err := z.Create(rel + "/java.base/" + c.name + ".sig")
		if err != nil {
			t.Fatal(err)
		}
		w.Write(c.bytes())
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return home
}

// testJDK is a small JDK: Object, Comparable, Path, the abstract
// collections, Map.Entry, DirectoryStream.Filter, and an older release's
// Path that must lose to the newest.
func testJDK(t *testing.T) string {
	str := "Ljava/lang/String;"
	return fakeJDK(t, []fakeClass{
		{name: "java/lang/Object", methods: []fakeMethod{{name: "toString", desc: "()" + str}, {name: "equals", desc: "(Ljava/lang/Object;)Z"}, {name: "hashCode", desc: "()I"}}},
		{name: "java/lang/Comparable", super: "java/lang/Object", iface: true, methods: []fakeMethod{{name: "compareTo", desc: "(Ljava/lang/Object;)I", sig: "(TT;)I", abstract: true}}},
		{name: "java/nio/file/Path", super: "java/lang/Object", iface: true, ifaces: []string{"java/lang/Comparable"}, release: "9ABCDEFG", methods: []fakeMethod{
			{name: "getFileName", desc: "()Ljava/nio/file/Path;", abstract: true},
			{name: "compareTo", desc: "(Ljava/nio/file/Path;)I", abstract: true},
			{name: "startsWith", desc: "(" + str + ")Z"},
			{name: "toString", desc: "()" + str, abstract: true},
			{name: "of", desc: "(" + str + "[" + str + ")Ljava/nio/file/Path;", static: true},
		}},
		{name: "java/nio/file/Path", super: "java/lang/Object", iface: true, release: "78", methods: []fakeMethod{{name: "startsWith", desc: "(" + str + ")Z", abstract: true}}},
		{name: "java/util/Collection", super: "java/lang/Object", iface: true, methods: []fakeMethod{{name: "size", desc: "()I", abstract: true}, {name: "isEmpty", desc: "()Z", abstract: true}}},
		{name: "java/util/AbstractCollection", super: "java/lang/Object", abstract: true, ifaces: []string{"java/util/Collection"}, methods: []fakeMethod{
			{name: "size", desc: "()I", abstract: true}, {name: "isEmpty", desc: "()Z"}, {name: "toString", desc: "()" + str}}},
		{name: "java/util/AbstractList", super: "java/util/AbstractCollection", abstract: true, methods: []fakeMethod{{name: "get", desc: "(I)Ljava/lang/Object;", sig: "(I)TE;", abstract: true}}},
		{name: "java/util/Map", super: "java/lang/Object", iface: true},
		{name: "java/nio/file/DirectoryStream", super: "java/lang/Object", iface: true},
		{name: "java/nio/file/DirectoryStream$Filter", super: "java/lang/Object", iface: true, methods: []fakeMethod{{name: "accept", desc: "(Ljava/lang/Object;)Z", sig: "(TT;)Z", abstract: true}}},
		{name: "java/nio/file/SecureDirectoryStream", super: "java/lang/Object", iface: true, ifaces: []string{"java/nio/file/DirectoryStream"}},
		{name: "java/util/Map$Entry", super: "java/lang/Object", iface: true, methods: []fakeMethod{
			{name: "getKey", desc: "()Ljava/lang/Object;", sig: "()TK;", abstract: true}, {name: "getValue", desc: "()Ljava/lang/Object;", sig: "()TV;", abstract: true}}},
	})
}
