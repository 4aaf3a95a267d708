package tools

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// TestLimitFor pins the policy's limit: the floor under small heaps, a
// quarter over the live heap above it, and more when the non-heap memory
// charged beside the heap would leave its goal less than headroomFloor
// over the live heap (the goal is (limit − non-heap) × 97 %).
func TestLimitFor(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		name          string
		live, nonHeap uint64
		want          int64
	}{
		{"empty", 0, 0, limitFloor},
		{"small heap", 100 * mb, 20 * mb, limitFloor},
		{"under the floor", 200 * mb, 30 * mb, limitFloor},
		{"little non-heap: the ratio", 300 * mb, 10 * mb, 375 * mb},
		{"go-std: 65 MB non-heap", 300 * mb, 65 * mb, 65*mb + (300*mb+headroomFloor)*100/97},
		{"large heap: the ratio", 1000 * mb, 65 * mb, 1250 * mb},
		{"all non-heap", 10 * mb, 400 * mb, 400*mb + (10*mb+headroomFloor)*100/97},
		{"overflow", math.MaxUint64, 0, math.MaxInt64},
	} {
		got := limitFor(c.live, c.nonHeap, 0)
		if d := got - c.want; d < -1 || d > 1 { // (float rounding)
			t.Errorf("%s: limitFor(%d MiB, %d MiB) = %.2f MiB, want %.2f MiB", c.name, c.live/mb, c.nonHeap/mb, float64(got)/mb, float64(c.want)/mb)
		}
	}
}

// TestLimitLeavesHeadroom: whatever the non-heap memory, the heap goal the
// runtime derives from the limit ((limit − non-heap) × 97 %) is at least
// headroomFloor over the live heap, and never under the old ratio's
// limit; without the non-heap term (the old policy) a go-std heap's goal
// was 4 MB over its live heap.
func TestLimitLeavesHeadroom(t *testing.T) {
	const mb = 1 << 20
	for _, live := range []uint64{256 * mb, 300 * mb, 400 * mb, 2048 * mb} {
		for _, nh := range []uint64{0, 30 * mb, 65 * mb, 120 * mb} {
			l := limitFor(live, nh, 0)
			goal := float64(uint64(l)-nh) * (100 - goalReserve) / 100
			if goal < float64(live+headroomFloor)-1 {
				t.Errorf("live %d MiB, non-heap %d MiB: limit %.1f MiB leaves a goal %.1f MiB over live, want ≥ %d", live/mb, nh/mb, float64(l)/mb, (goal-float64(live))/mb, headroomFloor/mb)
			}
			if l < int64(live)*limitRatio/100 {
				t.Errorf("live %d MiB: limit %d MiB under the ratio's", live/mb, l/mb)
			}
		}
	}
}

// TestNonHeap: the pacer's non-heap memory, and a torn read (the classes
// read one by one summing past the total) is none rather than a wrap.
func TestNonHeap(t *testing.T) {
	if got := nonHeap(500, 100, 50, 300); got != 50 {
		t.Errorf("nonHeap = %d, want 50", got)
	}
	if got := nonHeap(500, 100, 150, 300); got != 0 {
		t.Errorf("torn read: nonHeap = %d, want 0", got)
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

// TestRoomForChange: while a reservation runs, the limit leaves its room
// over the live heap, also when a collection during it sets the limit
// again (the cleanup); once done, the limit is the policy's alone.
func TestRoomForChange(t *testing.T) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		t.Skip("GOMEMLIMIT is set: the policy leaves the user's limit alone")
	}
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	KeepMemoryLimit()
	const room = 1 << 30 // over the floor whatever the test's heap
	done := reserve(room)
	if got := debug.SetMemoryLimit(-1); got < limitFloor+room/2 {
		t.Fatalf("during a reservation of %d MiB the limit is %d MiB", room>>20, got>>20)
	}
	// A collection's cleanup sets the limit again: the room stays.
	debug.SetMemoryLimit(limitFloor)
	for i := 0; i < 1000 && debug.SetMemoryLimit(-1) == limitFloor; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if got := debug.SetMemoryLimit(-1); got < limitFloor+room/2 {
		t.Fatalf("after a collection during the reservation the limit is %d MiB, want the room kept", got>>20)
	}
	done()
	if got := debug.SetMemoryLimit(-1); got >= limitFloor+room/2 {
		t.Fatalf("after the reservation the limit is still %d MiB", got>>20)
	}
	// Two at once: their rooms add up, and each one's end leaves the other's.
	d1, d2 := reserve(room), reserve(room)
	if got := debug.SetMemoryLimit(-1); got < limitFloor+room*3/2 {
		t.Errorf("two reservations: limit %d MiB, want both rooms", got>>20)
	}
	d1()
	if got := debug.SetMemoryLimit(-1); got < limitFloor+room/2 || got >= limitFloor+room*3/2 {
		t.Errorf("one of two reservations done: limit %d MiB, want one room", got>>20)
	}
	d2()
}

// TestGraphChangeRoom: the room for go-std's graph holds three 64-file
// ticks' measured allocation (3 × 57 MB), within a fifth: a burst of
// such ticks collects about every fourth tick.
func TestGraphChangeRoom(t *testing.T) {
	if got := GraphChangeRoom(120_423, 734_255) >> 20; got < 140 || got > 210 {
		t.Errorf("go-std's room %d MiB, want about 163 (three 64-file ticks)", got)
	}
}

// TestRoomForChangeIsCapped: a room over the live heap leaves GOGC 100's
// headroom (the live heap), not more: the peak rises by the live heap at
// most.
func TestRoomForChangeIsCapped(t *testing.T) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		t.Skip("GOMEMLIMIT is set: the policy leaves the user's limit alone")
	}
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	KeepMemoryLimit()
	done := RoomForChange(1 << 40)
	defer done()
	if got := debug.SetMemoryLimit(-1); got >= 1<<40 {
		t.Errorf("a room of 1 TiB over a small live heap set the limit to %d MiB", got>>20)
	}
}

// TestRoomHold: a hold keeps its room in the limit until Release; holding
// again keeps the largest room, not the sum (a burst of ticks holds one
// tick's room); a Release while a run is under way (the save behind the
// last tick ending during the next) keeps it, and one after gives it back.
func TestRoomHold(t *testing.T) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		t.Skip("GOMEMLIMIT is set: the policy leaves the user's limit alone")
	}
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	KeepMemoryLimit()
	const room = 1 << 30
	limit := func() int64 { return debug.SetMemoryLimit(-1) }
	var h RoomHold
	h.keep(room)()
	if got := limit(); got < limitFloor+room/2 {
		t.Fatalf("holding %d MiB: limit %d MiB", room>>20, got>>20)
	}
	h.keep(room / 4)()
	end := h.keep(room)
	if got := limit(); got >= limitFloor+room*3/2 {
		t.Errorf("held three times: limit %d MiB, want one room, not their sum", got>>20)
	}
	// A save that ends while a run is under way leaves its room.
	h.Release()
	if got := limit(); got < limitFloor+room/2 {
		t.Errorf("released during a run: limit %d MiB, want the run's room kept", got>>20)
	}
	end()
	h.keep(2 * room)()
	if got := limit(); got < limitFloor+room*3/2 || got >= limitFloor+room*5/2 {
		t.Errorf("held a larger room: limit %d MiB, want the larger room alone", got>>20)
	}
	h.Release()
	if got := limit(); got >= limitFloor+room/2 {
		t.Errorf("after Release the limit is still %d MiB", got>>20)
	}
	h.Release() // nothing held: nothing happens
	if memoryPolicy.room != 0 {
		t.Errorf("after Release the policy still reserves %d bytes", memoryPolicy.room)
	}
}

// TestIngestGCPercent: the GOGC a full ingest runs at keeps ingestRoom of
// garbage over a small live heap, is GOGC 100 (or the user's) once the
// live heap is over the room, and leaves GOGC off alone.
func TestIngestGCPercent(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		live       uint64
		user, want int
	}{
		{0, 100, 6400},
		{2 * mb, 100, 3200},
		{32 * mb, 100, 200},
		{64 * mb, 100, 100},
		{300 * mb, 100, 100},
		{300 * mb, 400, 400},
		{2 * mb, -1, -1},
	} {
		if got := ingestGCPercent(c.live, c.user); got != c.want {
			t.Errorf("ingestGCPercent(%d MiB, GOGC %d) = %d, want %d", c.live/mb, c.user, got, c.want)
		}
	}
	for v, want := range map[string]int{"": 100, "off": -1, "50": 50, "x": 100} {
		if got := envGCPercent(v); got != want {
			t.Errorf("envGCPercent(%q) = %d, want %d", v, got, want)
		}
	}
}

// TestRoomForIngest: while a full ingest holds its room, a small heap
// allocates half the room in garbage without a collection (at GOGC 100 it
// collected at 4, 8, 16 MB), and done gives the process's GOGC back.
func TestRoomForIngest(t *testing.T) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		t.Skip("GOMEMLIMIT is set: the policy leaves the user's limit alone")
	}
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	KeepMemoryLimit()
	user := memoryPolicy.userGC
	if user < 0 || user > 200 {
		t.Skipf("GOGC %d: the room changes nothing to measure", user)
	}
	runtime.GC()
	done := RoomForIngest()
	before := gcCycles()
	for range (ingestRoom / 2) / (64 << 10) {
		sink = make([]byte, 64<<10)
	}
	during := gcCycles() - before
	if pct := gcPercent(); pct <= user {
		t.Errorf("during the ingest's room GOGC is %d, want more than %d", pct, user)
	}
	if l := debug.SetMemoryLimit(-1); l < ingestLimitFloor {
		t.Errorf("during the ingest's room the limit is %d MiB, want at least %d", l>>20, ingestLimitFloor>>20)
	}
	done()
	done() // (once)
	if l := debug.SetMemoryLimit(-1); l >= ingestLimitFloor {
		t.Errorf("after the ingest the limit is %d MiB: the ingest's floor stayed", l>>20)
	}
	if during > 0 {
		t.Errorf("%d MiB of garbage on a small heap ran %d collections during the ingest's room, want none", ingestRoom/2>>20, during)
	}
	if pct := gcPercent(); pct != user {
		t.Errorf("after the ingest GOGC is %d, want the process's %d back", pct, user)
	}
}

var sink []byte

func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// gcPercent reads GOGC (setting it back at once).
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}
