package tools

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestLimitFor pins the policy's limit: the floor under small heaps, a
// quarter over the live heap above it.
func TestLimitFor(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int64
	}{
		{0, limitFloor},
		{100 << 20, limitFloor},
		{200 << 20, limitFloor},
		{300 << 20, 375 << 20},
		{400 << 20, 500 << 20},
		{math.MaxUint64, math.MaxInt64},
	} {
		if got := limitFor(c.live); got != c.want {
			t.Errorf("limitFor(%d MiB) = %d MiB, want %d MiB", c.live>>20, got>>20, c.want>>20)
		}
	}
}

// TestKeepMemoryLimit: once started, the limit is set again after each
// collection from its live heap (here, small: the floor), whatever it was
// set to in between.
func TestKeepMemoryLimit(t *testing.T) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		t.Skip("GOMEMLIMIT is set: the policy leaves the user's limit alone")
	}
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	KeepMemoryLimit()
	if got := debug.SetMemoryLimit(-1); got != limitFloor {
		t.Fatalf("after KeepMemoryLimit the limit is %d, want the floor %d", got, int64(limitFloor))
	}
	debug.SetMemoryLimit(math.MaxInt64)
	// The cleanup runs on its own goroutine after the collection.
	for i := 0; i < 1000 && debug.SetMemoryLimit(-1) != limitFloor; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if got := debug.SetMemoryLimit(-1); got != limitFloor {
		t.Fatalf("after collections the limit is %d, want it set again to the floor %d", got, int64(limitFloor))
	}
}
