package graph

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
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

// An interner and the interners derived from it, driven by random
// interning, freezing and deriving, agree with a plain model of each:
// handles dense from 1 in the order strings were first met, every string
// found again and given back byte for byte, blocks shared but never
// written by two interners (long strings, strings longer than a block,
// the empty string included).
func TestInternerAgreesWithModel(t *testing.T) {
	type model struct {
		in   *Interner
		strs []string
	}
	long := strings.Repeat("x", maxBlock+3)
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 7))
		ms := []*model{{in: NewInterner(), strs: []string{""}}}
		for step := range 3000 {
			m := ms[r.IntN(len(ms))]
			switch op := r.IntN(100); {
			case op < 2:
				m.in.freeze()
			case op < 4 && len(ms) < 6:
				m.in.freeze()
				ms = append(ms, &model{in: m.in.derive(), strs: slices.Clone(m.strs)})
			default:
				var s string
				switch k := r.IntN(50); {
				case k == 0:
					s = long[:r.IntN(len(long))]
				case k == 1:
					s = ""
				case k < 20 && len(m.strs) > 1:
					s = m.strs[r.IntN(len(m.strs))]
				default:
					s = fmt.Sprintf("s%d·%d", r.IntN(5000), seed)
				}
				want := slices.Index(m.strs, s)
				if want < 0 {
					want = len(m.strs)
					m.strs = append(m.strs, s)
				}
				if h := m.in.Intern(s); int(h) != want {
					t.Fatalf("seed %d step %d: Intern(%.20q) = %d, want %d", seed, step, s, h, want)
				}
			}
		}
		for k, m := range ms {
			if m.in.Len() != len(m.strs) {
				t.Fatalf("seed %d interner %d: Len %d, want %d", seed, k, m.in.Len(), len(m.strs))
			}
			for i, s := range m.strs {
				if got := m.in.String(Str(i)); got != s {
					t.Fatalf("seed %d interner %d: String(%d) = %.20q, want %.20q", seed, k, i, got, s)
				}
				if h, ok := m.in.Lookup(s); !ok || int(h) != i {
					t.Fatalf("seed %d interner %d: Lookup(%.20q) = %d, %v, want %d", seed, k, s, h, ok, i)
				}
			}
			if _, ok := m.in.Lookup("never interned"); ok {
				t.Fatalf("seed %d interner %d: found a string never interned", seed, k)
			}
			if m.in.String(Str(len(m.strs))) != "" {
				t.Fatalf("seed %d interner %d: a handle past the end is not empty", seed, k)
			}
		}
	}
}
