package freelist

import (
	"runtime"
	"testing"
)

type buf struct{ b []byte }

// TestKeepsAcrossCollections: what was put back is handed out again after
// collections, up to keep values; a sync.Pool alone (keep 0) may drop them.
func TestKeepsAcrossCollections(t *testing.T) {
	var l List[*buf]
	l.SetKeep(2)
	a, b, c := &buf{}, &buf{}, &buf{}
	l.Put(a)
	l.Put(b)
	l.Put(c) // beyond keep: to the sync.Pool
	if l.Len() != 2 {
		t.Fatalf("free list holds %d, want 2", l.Len())
	}
	runtime.GC()
	runtime.GC()
	got := map[*buf]bool{}
	for range 2 {
		v, ok := l.Get()
		if !ok {
			t.Fatal("Get after collections found nothing; the free list was dropped")
		}
		got[v] = true
	}
	if !got[a] || !got[b] {
		t.Fatalf("Get returned other values than the two kept")
	}
}

// TestGetNeverSharesOne: two Gets without a Put between never return the
// same value.
func TestGetNeverSharesOne(t *testing.T) {
	var l List[*buf]
	l.Put(&buf{})
	v1, ok1 := l.Get()
	v2, ok2 := l.Get()
	if !ok1 || (ok2 && v1 == v2) {
		t.Fatalf("Get: %p %v, %p %v", v1, ok1, v2, ok2)
	}
}

func TestDefaultKeep(t *testing.T) {
	var l List[*buf]
	for range DefaultKeep() + 1 {
		l.Put(&buf{})
	}
	if l.Len() != DefaultKeep() {
		t.Fatalf("free list holds %d, want %d", l.Len(), DefaultKeep())
	}
}
