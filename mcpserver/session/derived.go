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
// caller gets there first; others wait for it. Items are keyed by a Key's
// identity (Derive).
type derived struct {
	mu    sync.Mutex
	items map[any]*derivedItem
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

// derive is Derive for any key; a nil ctx is a build that cannot be
// called off.
func (b *Bundle) derive(ctx context.Context, key any, build func(ctx context.Context, g *graph.Graph) (any, error)) (any, error) {
	for {
		b.derived.mu.Lock()
		if b.derived.items == nil {
			b.derived.items = map[any]*derivedItem{}
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
func (b *Bundle) buildDerived(ctx context.Context, key any, it *derivedItem, build func(ctx context.Context, g *graph.Graph) (any, error)) {
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
	if it.err == nil || ctx == nil || ctx.Err() == nil {
		ok = true
		it.done.Store(true)
	}
}

// built reports whether the value under key has been built.
func (b *Bundle) built(key any) bool {
	b.derived.mu.Lock()
	it := b.derived.items[key]
	b.derived.mu.Unlock()
	return it != nil && it.done.Load()
}

var historyKey = NewKey[*history.Index]("history")

// History is the bundle's commits bound to its graph (built once).
func (b *Bundle) History() *history.Index {
	h, _ := Derive(b, historyKey, func(g *graph.Graph) (*history.Index, error) {
		return history.NewIndex(g, b.Commits), nil
	})
	return h
}
