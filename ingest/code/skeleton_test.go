package code

import (
	"testing"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// TestSkeletonSignsAsItsExtraction: the layout signs a file's derived
// contribution from its Go skeleton (the whole extraction is released by
// then), and a patch signs the changed files from their whole
// extractions; the two must agree, or every patch would redo the derived
// edges (or, worse, keep stale ones).
func TestSkeletonSignsAsItsExtraction(t *testing.T) {
	src := `package p

type Reader interface {
	Read(p []byte) (int, error)
}

// a struct with methods, an alias, and a function and variable the skeleton drops
type file struct{ name string }

func (f *file) Read(p []byte) (int, error) { return 0, nil }
func (f file) Name() string               { return f.name }

type Alias = file

func helper(a, b int) int { return a + b }

var x = helper(1, 2)
`
	res, err := extract.ExtractFile("p/p.go", []byte(src))
	if err != nil || res == nil {
		t.Fatalf("extract: %v", err)
	}
	sk := goSkeleton(res)
	if sk == nil || len(sk.Nodes) == 0 || len(sk.Nodes) >= len(res.Nodes) {
		t.Fatalf("skeleton should keep some nodes, not all: %d of %d", len(sk.Nodes), len(res.Nodes))
	}
	for _, imps := range [][]string{nil, {"p/q/", "p/r.go"}} {
		if got, want := derivedSignature(sk, imps), derivedSignature(res, imps); got != want {
			t.Errorf("imports %v: skeleton signs %x, extraction %x", imps, got, want)
		}
	}
	// Not vacuous: the signature does read the typed nodes.
	if derivedSignature(sk, nil) == derivedSignature(nil, nil) {
		t.Error("the Go types do not change the signature")
	}
	py, _ := extract.ExtractFile("m.py", []byte("class A:\n    def f(self):\n        pass\n"))
	if goSkeleton(py) != nil || derivedSignature(nil, []string{"a"}) != derivedSignature(py, []string{"a"}) {
		t.Error("a non-Go file: no skeleton, and a signature of its imports only")
	}
}
