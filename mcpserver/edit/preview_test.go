package edit

import (
	"errors"
	"testing"
	"time"
)

func TestPreviews(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ps := NewPreviews(10*time.Minute, 3, 100)
	ps.SetClock(func() time.Time { return now })
	mk := func(n int) *Preview { return &Preview{Target: &Target{New: make([]byte, n)}} }
	a := ps.Put(mk(10))
	if p, err := ps.Take(a); err != nil || p.ID != a {
		t.Fatalf("take: %v %v", p, err)
	}
	if _, err := ps.Take(a); !errors.Is(err, ErrNoPreview) {
		t.Fatalf("a preview is taken once: %v", err)
	}
	b := ps.Put(mk(10))
	now = now.Add(11 * time.Minute)
	if _, err := ps.Take(b); !errors.Is(err, ErrPreviewExpired) {
		t.Fatalf("expired preview: %v", err)
	}
	ids := []string{ps.Put(mk(10)), ps.Put(mk(10)), ps.Put(mk(10)), ps.Put(mk(10))}
	if ps.Len() != 3 {
		t.Fatalf("held %d previews, want at most 3", ps.Len())
	}
	if _, err := ps.Take(ids[0]); !errors.Is(err, ErrNoPreview) {
		t.Errorf("the oldest preview was not evicted: %v", err)
	}
	ps.Put(mk(90))
	if ps.Len() != 2 {
		t.Errorf("byte bound: %d previews held", ps.Len())
	}
}
