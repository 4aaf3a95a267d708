package tooltest

import (
	"os"
	"path/filepath"
)

// corpusPath is where benchmark corpus name lives: under $M1ND_CORPORA,
// by default /tmp/m1nd-corpora (built as benchmarks/corpora says).
func CorpusPath(name string) string {
	base := os.Getenv("M1ND_CORPORA")
	if base == "" {
		base = "/tmp/m1nd-corpora"
	}
	return filepath.Join(base, name)
}
