// Package freelist keeps returned buffers across garbage collections.
//
// A sync.Pool drops what it holds within two collections, and a server
// holding a large graph collects every few queries (issue 29: on go-std
// after an ingest, every 2–4 activate calls), so each dropped buffer came
// back as a fresh allocation — which in turn brought the next collection
// closer. A List keeps up to a fixed number of returned values in a slice
// of its own (as many as can be in use at once), and hands any more to a
// sync.Pool.
package freelist

import (
	"runtime"
	"sync"
)

// List is a free list of T (a pointer type). The zero value keeps
// DefaultKeep values; it must not be copied after first use.
type List[T any] struct {
	mu      sync.Mutex
	free    []T
	keep    int
	keepSet bool // false: keep is DefaultKeep, fixed at first Put
	over    sync.Pool
}

// DefaultKeep is 2×GOMAXPROCS: a query holds at most two buffers of one
// kind at once, and as many queries as there are processors run at once.
func DefaultKeep() int { return 2 * runtime.GOMAXPROCS(0) }

// SetKeep sets how many values l keeps across collections (tests set 0
// to see what a sync.Pool alone does).
func (l *List[T]) SetKeep(n int) {
	l.mu.Lock()
	l.keep, l.keepSet = max(n, 0), true
	l.mu.Unlock()
}

// limit is keep, DefaultKeep unless set; l.mu is held.
func (l *List[T]) limit() int {
	if !l.keepSet {
		l.keep, l.keepSet = DefaultKeep(), true
	}
	return l.keep
}

// Get returns a returned value, or ok false when there is none (the
// caller makes a new one).
func (l *List[T]) Get() (v T, ok bool) {
	l.mu.Lock()
	if k := len(l.free); k > 0 {
		v = l.free[k-1]
		var zero T
		l.free[k-1] = zero
		l.free = l.free[:k-1]
		l.mu.Unlock()
		return v, true
	}
	l.mu.Unlock()
	if x := l.over.Get(); x != nil {
		return x.(T), true
	}
	return v, false
}

// Put returns v; the caller must not use it afterwards.
func (l *List[T]) Put(v T) {
	l.mu.Lock()
	if len(l.free) < l.limit() {
		l.free = append(l.free, v)
		l.mu.Unlock()
		return
	}
	l.mu.Unlock()
	l.over.Put(v)
}

// Len is how many values the free list holds (not counting the
// sync.Pool's).
func (l *List[T]) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.free)
}
