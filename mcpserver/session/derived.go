package session

import (
	"context"
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
	ready chan struct{} // closed when the build returned
	val   any
	err   error
	// abandoned: the builder's context ended before the value was built
	// (a speculative build yielding to real work); it was not kept, and a
	// waiter builds it itself.
	abandoned bool
	done      atomic.Bool
}

// Derived returns the value registered under key for this bundle's graph,
// building it with build on first use. A failed build is cached too (the
// graph will not change under it); a new bundle starts empty.
func (b *Bundle) Derived(key string, build func(g *graph.Graph) (any, error)) (any, error) {
	return b.DerivedCtx(context.Background(), key, func(_ context.Context, g *graph.Graph) (any, error) { return build(g) })
}

// DerivedCtx is Derived for a build that can be called off: when ctx ends
// before its build returns a value, nothing is cached (the next caller
// builds it), and callers that were waiting for it build it themselves.
func (b *Bundle) DerivedCtx(ctx context.Context, key string, build func(ctx context.Context, g *graph.Graph) (any, error)) (any, error) {
	for {
		b.derived.mu.Lock()
		if b.derived.items == nil {
			b.derived.items = map[string]*derivedItem{}
		}
		it, ok := b.derived.items[key]
		if !ok {
			it = &derivedItem{ready: make(chan struct{})}
			b.derived.items[key] = it
		}
		b.derived.mu.Unlock()
		if ok {
			<-it.ready
			if it.abandoned {
				continue
			}
			return it.val, it.err
		}
		b.buildDerived(ctx, key, it, build)
		return it.val, it.err
	}
}

// buildDerived builds the item's value. A build that panics or whose
// context ended leaves nothing cached, and its waiters try again.
func (b *Bundle) buildDerived(ctx context.Context, key string, it *derivedItem, build func(ctx context.Context, g *graph.Graph) (any, error)) {
	ok := false
	defer func() {
		if !ok {
			it.abandoned = true
			b.derived.mu.Lock()
			delete(b.derived.items, key)
			b.derived.mu.Unlock()
		}
		close(it.ready)
	}()
	it.val, it.err = build(ctx, b.Graph)
	if it.err == nil || ctx.Err() == nil {
		ok = true
		it.done.Store(true)
	}
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
