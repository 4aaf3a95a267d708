package session

import (
	"sync"
	"sync/atomic"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
)

// derived caches indexes computed from one bundle's graph (query engine,
// seek index, file lists). Each is built once, on first use, by whichever
// caller gets there first; others wait for it.
type derived struct {
	mu    sync.Mutex
	items map[string]*derivedItem
}

type derivedItem struct {
	once sync.Once
	val  any
	err  error
	done atomic.Bool
}

// Derived returns the value registered under key for this bundle's graph,
// building it with build on first use. A failed build is cached too (the
// graph will not change under it); a new bundle starts empty.
func (b *Bundle) Derived(key string, build func(g *graph.Graph) (any, error)) (any, error) {
	b.derived.mu.Lock()
	if b.derived.items == nil {
		b.derived.items = map[string]*derivedItem{}
	}
	it, ok := b.derived.items[key]
	if !ok {
		it = &derivedItem{}
		b.derived.items[key] = it
	}
	b.derived.mu.Unlock()
	it.once.Do(func() {
		it.val, it.err = build(b.Graph)
		it.done.Store(true)
	})
	return it.val, it.err
}

// Built reports whether the value under key has been built for this
// bundle (without building it).
func (b *Bundle) Built(key string) bool {
	b.derived.mu.Lock()
	it := b.derived.items[key]
	b.derived.mu.Unlock()
	return it != nil && it.done.Load()
}

// History is the bundle's commits bound to its graph (built once).
func (b *Bundle) History() *history.Index {
	v, _ := b.Derived("history", func(g *graph.Graph) (any, error) {
		return history.NewIndex(g, b.Commits), nil
	})
	return v.(*history.Index)
}
