package cache

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// fill sets v, and everything under it, to random values: a field added
// to extract.Result or a type under it is filled too, so a codec that
// leaves it out fails the round trip below. A kind fill does not know
// panics, which fails the test that met it.
func fill(r *rand.Rand, v reflect.Value) {
	words := []string{"", "file::a.go", "file::a.go::T", "ref::x", "calls", "α·β", "a much longer string with spaces"}
	switch v.Kind() {
	case reflect.String:
		v.SetString(words[r.IntN(len(words))])
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 1)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(r.Uint64() >> (64 - v.Type().Bits()))
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(r.Int64N(1<<40) - 1<<39)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(r, v.Field(i))
		}
	case reflect.Slice:
		n := r.IntN(4)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fill(r, s.Index(i))
		}
		v.Set(s)
	case reflect.Map:
		n := r.IntN(4)
		m := reflect.MakeMapWithSize(v.Type(), n)
		for range n {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(r, k)
			fill(r, e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	default:
		panic(fmt.Sprintf("fill: a field of kind %s: teach fill and the blob codec (blob.go) about it", v.Kind()))
	}
}

func TestResultBlobRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		want := new(extract.Result)
		fill(r, reflect.ValueOf(want).Elem())
		got, err := decodeResult(encodeResult(want))
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("trial %d: the blob changed the result (-put +read):\n%s", trial, d)
		}
	}
}

// TestResultBlobOfRealExtractions round-trips what the extractors make.
func TestResultBlobOfRealExtractions(t *testing.T) {
	srcs := map[string]string{
		"a/a.go":     "package a\n\n//go:build linux\n\nimport \"fmt\"\n\ntype T struct{ xs []U }\n\nfunc (t *T) Get(a, b int) (U, error) { fmt.Println(a); return helper(t), nil }\n\nfunc helper(t *T) U { return t.xs[0] }\n",
		"b/mod.py":   "import os\nfrom x import y as z\n\n@deco\nclass C(Base):\n    def m(self, a=1):\n        return os.path.join(z(), self.n())\n",
		"c/App.java": "package c;\n\nimport java.util.List;\n\npublic class App extends Base {\n  List<String> xs;\n  void run(String... a) { helper(xs.size()); }\n  void helper(int n) {}\n  void helper(String s) {}\n}\n",
		"d/index.ts": "export { a as b } from './m';\nimport { f } from './f';\nexport class K { go(): number { return f(1) + this.h(); } h() { return 2; } }\n",
		"e/Bad.kt":   "fun broken( { val x = \n",
	}
	for p, src := range srcs {
		want, err := extract.ExtractFile(p, []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		got, err := decodeResult(encodeResult(want))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%s: the blob changed the result (-put +read):\n%s", p, d)
		}
	}
}

// TestResultBlobRefusesDamage: every truncation of a blob, a foreign
// file and a gob blob of the last format are errors, never panics.
func TestResultBlobRefusesDamage(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	res := new(extract.Result)
	fill(r, reflect.ValueOf(res).Elem())
	res.Nodes = append(res.Nodes, extract.Node{ID: "x"})
	b := encodeResult(res)
	for n := range len(b) {
		if _, err := decodeResult(b[:n]); !errors.Is(err, errBlob) {
			t.Fatalf("the first %d of %d bytes decoded (err %v)", n, len(b), err)
		}
	}
	for _, junk := range [][]byte{nil, []byte("junk"), append([]byte("\x3b\xff\x81\x03\x01\x01\x06Result"), b...), append(b, 0)} {
		if _, err := decodeResult(junk); !errors.Is(err, errBlob) {
			t.Errorf("%q decoded (err %v)", junk[:min(len(junk), 16)], err)
		}
	}
}

func FuzzDecodeResult(f *testing.F) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 8 {
		res := new(extract.Result)
		fill(r, reflect.ValueOf(res).Elem())
		f.Add(encodeResult(res))
	}
	f.Add([]byte("m1nr\x01\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := decodeResult(b)
		if err != nil {
			return
		}
		again, err := decodeResult(encodeResult(res))
		if err != nil {
			t.Fatalf("a decoded blob re-encoded does not decode: %v", err)
		}
		if d := cmp.Diff(res, again, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("decode(encode(decode(b))) differs:\n%s", d)
		}
	})
}

// TestBlobOfAnotherBuildIsNotRead: a blob written for the same file
// version by another build holds that build's extraction; this build's
// full ingest writes its own, and an incremental one reads that.
func TestBlobOfAnotherBuildIsNotRead(t *testing.T) {
	defer func(v func() string) { blobVersion = v }(blobVersion)
	dir := t.TempDir()
	h := HashOf([]byte("a"))
	e := Entry{Size: 1, Hash: h}
	put := func(build string, r *extract.Result) *Store {
		blobVersion = func() string { return build }
		s := Open(dir)
		_ = s.Load()
		s.SetWriteBehind(true)
		if err := s.Put("a.py", h, r); err != nil {
			t.Fatal(err)
		}
		if err := s.Commit(map[string]Entry{"a.py": e}); err != nil {
			t.Fatal(err)
		}
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
		return s
	}
	old := result("a.py")
	put("old build", old)
	fresh := result("a.py")
	fresh.Nodes[0].Label = "what this build extracts"
	s := put("this build", fresh)
	got, err := s.Result("a.py", e)
	if err != nil {
		t.Fatal(err)
	}
	if got.Nodes[0].Label != fresh.Nodes[0].Label {
		t.Fatalf("read back %q, another build's result", got.Nodes[0].Label)
	}
}

// TestStaleBuildResultsRemoved: a manifest of another build is refused
// and the blobs beside it go.
func TestStaleBuildResultsRemoved(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir)
	if err := s.Put("a.py", HashOf([]byte("a")), result("a.py")); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(map[string]Entry{"a.py": {Size: 1, Hash: HashOf([]byte("a"))}}); err != nil {
		t.Fatal(err)
	}
	m, err := os.ReadFile(dir + "/manifest.gob")
	if err != nil {
		t.Fatal(err)
	}
	v := Version()
	i := bytes.Index(m, []byte(v))
	if i < 0 {
		t.Fatal("the manifest does not hold the version")
	}
	m[i+len(v)-1] ^= 1 // another build
	if err := os.WriteFile(dir+"/manifest.gob", m, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Open(dir).Load(); !errors.Is(err, ErrNoManifest) {
		t.Fatalf("Load of another build's manifest: %v", err)
	}
	if _, err := os.Stat(dir + "/results"); !os.IsNotExist(err) {
		t.Errorf("another build's blobs are still there: %v", err)
	}
}
