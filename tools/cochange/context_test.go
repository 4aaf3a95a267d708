package cochange

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCleanMessage(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Fix pool leak (#123)\n\nSigned-off-by: A <a@b>\n", "Fix pool leak"},
		{"Add retry\n\nSee https://x.y/z for details.\nCo-authored-by: B <b@c>", "Add retry See for details."},
		{"- [x] tests\nRename getValue", "tests Rename getValue"},
	} {
		if got := CleanMessage(tc.in); got != tc.want {
			t.Errorf("CleanMessage(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestKnownQueries(t *testing.T) {
	qs := []Query{
		{Commit: "c1", File: "a.go", Targets: []string{"b.go"}},
		{Commit: "c2", File: "a.go", Targets: []string{"b.go", "c.go", "d.go"}},
		{Commit: "c2", File: "b.go", Targets: []string{"a.go", "c.go", "d.go"}},
	}
	one, half := KnownQueries(qs, map[string]string{"c1": "one (#1)", "c2": "two"})
	if len(one) != 3 || one[0].Task != "one" || len(half) != 1 {
		t.Fatalf("one %+v half %+v", one, half)
	}
	h := half[0]
	if len(h.Given) != 2 || len(h.Targets) != 2 || h.Task != "two" {
		t.Errorf("half %+v", h)
	}
	// The split is fixed: the same again.
	_, again := KnownQueries(qs, map[string]string{"c2": "two"})
	if diff := cmp.Diff(half, again); diff != "" {
		t.Errorf("split moved (-first +second):\n%s", diff)
	}
}

func TestBM25AndRRF(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"pool.go":   "package x\n// Pool keeps workers.\nfunc NewPool() {}\n",
		"worker.go": "package x\nfunc runWorker() {}\n",
		"config.go": "package x\nvar Config = 1\n",
	}
	var names []string
	for f, body := range files {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, f)
	}
	b := NewBM25(dir, names)
	if got := b.Search("the worker pool leaks", 5); !cmp.Equal(got, []string{"pool.go", "worker.go"}) {
		t.Errorf("bm25 %v", got)
	}
	fixed := func(fs ...string) KnownPredictor { return stub(fs) }
	got, _ := RRF{Of: []KnownPredictor{fixed("a", "b"), fixed("b", "c")}, K: 60}.PredictKnown(nil, "", 10)
	if !cmp.Equal(got, []string{"b", "a", "c"}) {
		t.Errorf("rrf %v", got)
	}
}

type stub []string

func (s stub) PredictKnown([]string, string, int) ([]string, error) { return s, nil }
