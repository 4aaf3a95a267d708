package plasticity

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSlotRing(t *testing.T) {
	for _, tc := range []struct {
		name        string
		puts        int
		wantEvicted []int
		wantOldest  []int
	}{
		{"empty", 0, nil, nil},
		{"part full", 2, nil, []int{1, 2}},
		{"full", 3, nil, []int{1, 2, 3}},
		{"wrapped", 5, []int{0, 1}, []int{3, 4, 5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newSlotRing[int](3)
			var evicted []int
			for i := 1; i <= tc.puts; i++ {
				slot := r.put(i, func(slot int) {
					if r.items[slot] != i-3 {
						t.Errorf("evict(%d) sees %d, want the oldest record %d", slot, r.items[slot], i-3)
					}
					evicted = append(evicted, slot)
				})
				if slot != (i-1)%3 {
					t.Errorf("put %d went to slot %d, want %d", i, slot, (i-1)%3)
				}
			}
			var oldest []int
			for p := range r.oldestFirst() {
				oldest = append(oldest, *p)
			}
			if d := cmp.Diff(tc.wantEvicted, evicted); d != "" {
				t.Errorf("evicted slots (-want +got):\n%s", d)
			}
			if !slices.Equal(tc.wantOldest, oldest) {
				t.Errorf("oldestFirst = %v, want %v", oldest, tc.wantOldest)
			}
		})
	}
}
