package testcorpus

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Corpus returns the directory of the benchmark corpus name (go-std,
// py-335 …) under $M1ND_CORPORA, by default /tmp/m1nd-corpora, or skips
// tb when it is not built (benchmarks/corpora says how).
func Corpus(tb testing.TB, name string) string {
	tb.Helper()
	base := os.Getenv("M1ND_CORPORA")
	if base == "" {
		base = "/tmp/m1nd-corpora"
	}
	dir := filepath.Join(base, name)
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("no %s corpus (benchmarks/corpora)", name)
	}
	return dir
}

// CopyGoTree copies the tree at src into a temporary directory of tb, for
// a benchmark that edits it, and lists the copy's Go sources, sorted:
// not tests, nor under testdata or vendor.
func CopyGoTree(tb testing.TB, src string) (dir string, files []string) {
	tb.Helper()
	dir = filepath.Join(tb.TempDir(), "tree")
	if out, err := exec.Command("cp", "-r", src, dir).CombinedOutput(); err != nil {
		tb.Fatalf("copy: %v %s", err, out)
	}
	filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err == nil && !de.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") &&
			!strings.Contains(p, "testdata") && !strings.Contains(p, "vendor") {
			files = append(files, p)
		}
		return nil
	})
	slices.Sort(files)
	return dir, files
}
