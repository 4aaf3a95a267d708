package testcorpus

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestOptIn(t *testing.T) {
	t.Setenv("M1ND_OPTIN_PROBE", "/srv/tree")
	if got := OptIn(t, "M1ND_OPTIN_PROBE", "a tree"); got != "/srv/tree" {
		t.Fatalf("OptIn = %q, want /srv/tree", got)
	}
	t.Setenv("M1ND_OPTIN_PROBE", "")
	skipped := t.Run("unset", func(t *testing.T) {
		OptIn(t, "M1ND_OPTIN_PROBE", "a tree")
		t.Error("OptIn returned with the variable unset; want a skip")
	})
	if !skipped {
		t.Fatal("the subtest failed instead of skipping")
	}
}

func TestCorpusAndCopyGoTree(t *testing.T) {
	base := t.TempDir()
	if err := Write(filepath.Join(base, "tiny"), map[string]string{
		"a/a.go": "package a\n", "a/a_test.go": "package a\n", "a/testdata/t.go": "package t\n",
		"vendor/v/v.go": "package v\n", "b/b.go": "package b\n", "b/README.md": "# b\n",
	}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("M1ND_CORPORA", base)
	src := Corpus(t, "tiny")
	if src != filepath.Join(base, "tiny") {
		t.Fatalf("Corpus = %q, want %q", src, filepath.Join(base, "tiny"))
	}
	dir, files := CopyGoTree(t, src)
	var rel []string
	for _, f := range files {
		r, _ := filepath.Rel(dir, f)
		rel = append(rel, filepath.ToSlash(r))
	}
	if want := []string{"a/a.go", "b/b.go"}; !slices.Equal(rel, want) {
		t.Errorf("CopyGoTree files = %v, want %v", rel, want)
	}
	if !t.Run("missing", func(t *testing.T) {
		Corpus(t, "absent")
		t.Error("Corpus returned for a corpus that is not built; want a skip")
	}) {
		t.Fatal("the subtest failed instead of skipping")
	}
}
