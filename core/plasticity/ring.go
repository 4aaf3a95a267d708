package plasticity

import "iter"

// slotRing is a fixed-capacity ring of records, the oldest overwritten
// first: the query memory and the feedback memory each keep one, and
// index their records by slot.
type slotRing[T any] struct {
	items []T
	next  int // slot the next record goes to
	size  int
}

func newSlotRing[T any](capacity int) slotRing[T] {
	return slotRing[T]{items: make([]T, capacity)}
}

// put writes rec to the next slot and returns that slot. When the ring is
// full, evict is first called with the slot, whose oldest record is still
// there to be unindexed.
func (r *slotRing[T]) put(rec T, evict func(slot int)) int {
	slot := r.next
	if r.size == len(r.items) {
		evict(slot)
	} else {
		r.size++
	}
	r.items[slot] = rec
	r.next = (slot + 1) % len(r.items)
	return slot
}

// oldestFirst yields the records held, oldest first.
func (r *slotRing[T]) oldestFirst() iter.Seq[*T] {
	return func(yield func(*T) bool) {
		start := (r.next - r.size + len(r.items)) % len(r.items)
		for i := range r.size {
			if !yield(&r.items[(start+i)%len(r.items)]) {
				return
			}
		}
	}
}
