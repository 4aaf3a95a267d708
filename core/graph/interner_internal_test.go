package graph

import (
	"fmt"
	"testing"
)

// TestInternerDeriveIsolated checks that a derived interner and its
// parent share their strings but not what either adds afterwards, also
// when the shared last chunk is full or a new string starts a chunk.
func TestInternerDeriveIsolated(t *testing.T) {
	for _, n := range []int{1, 10, strChunk - 1, strChunk, strChunk + 7, 3 * strChunk} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			p := NewInterner()
			for i := 1; i < n; i++ {
				p.Intern(fmt.Sprint("s", i))
			}
			p.freeze()
			c := p.derive()
			hc := c.Intern("child")
			hp := p.Intern("parent")
			if hc != hp || c.String(hc) != "child" || p.String(hp) != "parent" {
				t.Fatalf("handle %d: child %q, parent %q", hc, c.String(hc), p.String(hp))
			}
			for i := 1; i < n; i++ {
				want := fmt.Sprint("s", i)
				if c.String(Str(i)) != want || p.String(Str(i)) != want {
					t.Fatalf("handle %d: child %q, parent %q, want %q", i, c.String(Str(i)), p.String(Str(i)), want)
				}
			}
			if c.Len() != n+1 || p.Len() != n+1 || c.String(Str(n+1)) != "" {
				t.Fatalf("len child %d parent %d, want %d", c.Len(), p.Len(), n+1)
			}
		})
	}
}
