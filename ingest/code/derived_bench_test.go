package code

import (
	"context"
	"testing"

	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
)

// BenchmarkDerived times the derived edges (test links, declarations, Go
// interface satisfaction) of go-std (M1ND_CORPORA or /tmp/m1nd-corpora;
// skipped without it): what a patch recomputes when files come or go.
func BenchmarkDerived(b *testing.B) {
	root := testcorpus.Corpus(b, "go-std")
	r := newRun(context.Background(), adapter.Request{Root: root, Cache: cache.Open(b.TempDir())})
	if err := r.walk(); err != nil {
		b.Fatal(err)
	}
	r.history()
	if err := r.extract(); err != nil {
		b.Fatal(err)
	}
	r.unlock()
	var facts []fileFacts
	for i := range r.results {
		if res := r.results[i].res; res != nil {
			facts = append(facts, fileFacts{path: res.Path, lang: res.Language, res: res})
		}
	}
	b.ResetTimer()
	for b.Loop() {
		derivedEdges(facts, r.ws, nil, nil)
	}
}
