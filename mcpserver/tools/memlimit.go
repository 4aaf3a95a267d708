package tools

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// The server's soft memory limit (issue 29). With the runtime's default
// (GOGC 100) a heap grows to twice what the last collection found live
// before the next one runs, and the pages it grew into stay resident: the
// server's peak on go-std was twice the live heap of its largest moment
// (the index builds beside a new graph). Once an ingest runs or a saved
// graph is loaded, the server keeps the runtime's soft limit near
// limitRatio × the live heap the last collection found (never below
// limitFloor), so the heap's headroom over what it holds is a quarter
// rather than as much again; as the graph grows
// the live heap does, and the limit follows it after each collection, so
// it never holds the heap under what it needs (the cost of a fixed limit
// below the live heap: the collector running without pause). A user's
// GOMEMLIMIT always wins: the policy never starts when it is set.
//
// The limit is on all the runtime's memory, not the heap's objects: the
// runtime charges it with what holds no object — fragmentation inside
// spans, metadata, stacks (60–70 MB on go-std) — and keeps 3 % of what is
// left in reserve. At 1.25 × live that left the heap 2–15 MB over a
// ≈ 300 MB live heap: activate collected every 13–17 calls, and the work
// after an ingest's answer ran back-to-back collections that made the
// first late seek wait (server-memory9.md). So the limit also keeps at
// least headroomFloor for the heap's garbage over the live heap, after
// those charges.
const (
	// limitRatio is the headroom over the live heap, in percent.
	limitRatio = 125
	// limitFloor keeps small servers at GOGC 100: below it the limit never
	// binds before the default goal (twice a live heap under 128 MiB).
	limitFloor = 256 << 20
	// headroomFloor is the least room the heap keeps for garbage over
	// the live heap once the non-heap memory is charged (server-memory9.md
	// chose it: more room means fewer collections and a higher peak, MB
	// for MB).
	headroomFloor = 8 << 20
	// goalReserve is the share of the limit, in percent, that the runtime
	// keeps below it for pacing errors (memoryLimitHeapGoalHeadroomPercent
	// in runtime/mgcpacer.go): the heap's goal is (limit − non-heap) × 97 %.
	goalReserve = 3
	// bytesPerNode and bytesPerEdge bound what a reingest of up to 64
	// changed files allocates on a graph of that size (go-std, 120 K
	// nodes and 734 K edges: 61 MB; a 64-file tick 57 MB since its cache
	// writes run after it, a one-file tick 35 MB: tick64b.md, tick64i.md).
	bytesPerNode = 200
	bytesPerEdge = 56
	// roomTicks is how many such runs' garbage a reservation holds: a
	// burst of 64-file ticks collects about every fourth tick instead of
	// every tick, and a collection marks the whole live heap (≈ 95 ms of
	// CPU on go-std, a fifth of such a tick's, tick64i.md). The peak
	// during a burst rises by the room added (go-std: three ticks' room
	// ≈ 510–550 MB since one-off files keep no tree, tick64j.md; a full
	// ingest's is untouched: it reserves no room).
	roomTicks = 3
)

// memoryPolicy is process-wide, as the runtime's limit is: every session
// of the process shares it.
var memoryPolicy struct {
	once sync.Once
	on   atomic.Bool // started, and no GOMEMLIMIT of the user's
	// mu orders setLimit's read of the metrics and its set: the cleanup
	// goroutine and a reservation's start or end may run it at once, and
	// the last to set must have read the last room.
	mu      sync.Mutex
	samples []metrics.Sample
	// room is the sum of the running reservations (RoomForChange): bytes
	// the heap's goal keeps over the live heap and the floor.
	room uint64
	// ingests counts the full ingests holding ingestRoom (RoomForIngest);
	// gcPercent is the GOGC last set, userGC the process's own (GOGC's
	// value at the start, -1 for off).
	ingests   int
	gcPercent int
	userGC    int
}

// The runtime's metrics the policy reads after each collection.
var memorySamples = []string{
	"/gc/heap/live:bytes",
	"/memory/classes/total:bytes",         // all the runtime mapped
	"/memory/classes/heap/released:bytes", // returned to the OS: not charged
	"/memory/classes/heap/free:bytes",     // free spans: the heap's to reuse
	"/memory/classes/heap/objects:bytes",  // objects, live and not yet swept
}

// KeepMemoryLimit starts the policy, once per process, unless the user set
// GOMEMLIMIT; the ingest tool calls it when an ingest starts, and a start
// on a saved graph before its index builds (BuildLoadedIndexes). A server
// with no graph keeps the runtime's defaults.
func KeepMemoryLimit() {
	memoryPolicy.once.Do(func() {
		if _, set := os.LookupEnv("GOMEMLIMIT"); set {
			return
		}
		for _, n := range memorySamples {
			memoryPolicy.samples = append(memoryPolicy.samples, metrics.Sample{Name: n})
		}
		memoryPolicy.userGC = envGCPercent(os.Getenv("GOGC"))
		memoryPolicy.gcPercent = memoryPolicy.userGC
		memoryPolicy.on.Store(true)
		setLimit()
		armAfterGC()
	})
}

// afterGC is a sentinel whose cleanup runs once a collection has found it
// unreachable: then the policy reads that collection's live heap, sets the
// limit and arms a new sentinel for the next collection.
type afterGC struct{ _ [16]byte } // (not zero-sized: those share one address and are never collected)

func armAfterGC() {
	runtime.AddCleanup(new(afterGC), func(struct{}) {
		setLimit()
		armAfterGC()
	}, struct{}{})
}

// setLimit sets the limit from the live heap of the last collection and
// the non-heap memory charged now (the cleanup goroutine runs it after
// each one).
func setLimit() {
	p := &memoryPolicy
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.samples
	metrics.Read(s)
	l := limitFor(s[0].Value.Uint64(), nonHeap(s[1].Value.Uint64(), s[2].Value.Uint64(), s[3].Value.Uint64(), s[4].Value.Uint64()), p.room)
	if p.ingests > 0 {
		l = max(l, ingestLimitFloor)
	}
	debug.SetMemoryLimit(l)
	gc := p.userGC
	if p.ingests > 0 {
		gc = ingestGCPercent(s[0].Value.Uint64(), p.userGC)
	}
	if gc != p.gcPercent {
		debug.SetGCPercent(gc)
		p.gcPercent = gc
	}
}

// ingestRoom is the garbage a full ingest's heap may hold over the live
// heap before a collection (RoomForIngest). A fresh server's live heap is
// a few MB, and at GOGC 100 the ingest of a small tree collected at 4, 8,
// 16, 32 MB of heap: two to six collections on py-335 (≈ 25 MB
// allocated), each marking beside the parse on both cores. With this
// room such a tree's ingest runs without one; above it (a live heap over
// ingestRoom, go-std's) GOGC 100 and the limit pace as before.
const ingestRoom = 64 << 20

// ingestLimitFloor is the least limit while a full ingest holds its room:
// the part of the server's 400 MB target the Go runtime may use, the rest
// (≈ 48 MB) left to the parse arenas and parsers in C, which the limit
// does not see. A live heap that grows through the ingest kept meeting a
// limit a quarter over the last collection's: go-std's ingest through the
// server ran 46–54 collections marking up to 300 MB each, ≈ 20 % of its
// CPU; with this floor 23–25, 1–1.5 s less CPU, peak 372–377 MB (384 MB
// crossed 400). A heap that outgrows it is paced by the ratio, as before.
const ingestLimitFloor = 352 << 20

// ingestGCPercent is the GOGC that keeps ingestRoom over a live heap of
// live bytes, never under the user's (userGC; off stays off).
func ingestGCPercent(live uint64, userGC int) int {
	if userGC < 0 {
		return userGC
	}
	pct := uint64(ingestRoom) * 100 / max(live, 1<<20)
	return max(userGC, int(min(pct, 1<<16)))
}

// envGCPercent reads GOGC as the runtime does: unset is 100, "off" -1.
func envGCPercent(v string) int {
	if v == "off" {
		return -1
	}
	if n, err := strconv.Atoi(v); err == nil {
		return n
	}
	return 100
}

// RoomForIngest lets the heap hold ingestRoom of garbage over the live
// heap while a full ingest runs and until done (the ingest tool: once the
// builds behind its answer are over, so the collection that finds its
// garbage dead does not land on the first query's path). Without the
// policy (GOMEMLIMIT set, or KeepMemoryLimit not called) it does nothing.
func RoomForIngest() (done func()) {
	if !memoryPolicy.on.Load() {
		return func() {}
	}
	p := &memoryPolicy
	p.mu.Lock()
	p.ingests++
	p.mu.Unlock()
	setLimit()
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			p.ingests--
			p.mu.Unlock()
			setLimit()
		})
	}
}

// nonHeap is what the runtime charges the limit with that holds no heap
// object, as its pacer reckons it (mappedReady − heapFree − heapAlloc):
// mapped less released, free spans and objects. Read right after a
// collection, the objects not yet swept still count as objects, so this
// errs low (toward the old, tighter limit), never high.
func nonHeap(total, released, free, objects uint64) uint64 {
	used := released + free + objects
	if used >= total { // the classes are read one by one: a torn read
		return 0
	}
	return total - used
}

// limitFor is the limit kept over a live heap of live bytes with nonHeap
// bytes charged beside it: limitRatio × live, raised when that leaves the
// heap's goal less than headroomFloor + room over live, never under
// limitFloor. room is the running reservations' (0 outside them).
func limitFor(live, nonHeap, room uint64) int64 {
	l := float64(live) * limitRatio / 100
	need := float64(nonHeap) + (float64(live)+headroomFloor+float64(room))*100/(100-goalReserve)
	l = max(l, need)
	if l > math.MaxInt64/2 {
		return math.MaxInt64
	}
	return max(int64(l), limitFloor)
}

// RoomForChange raises the limit, while a run that rewrites the graph
// for a few changed files is under way (a daemon tick's or an edit's
// reingest), by room, and done restores it. Why: a tick allocates a
// graph's worth of fresh arrays (61 MB for one file on go-std, 104 MB for
// 64) and the policy leaves the heap 8 MB of garbage over the live heap,
// so a tick ran six or more full marks of a 300 MB heap: two-thirds of its
// CPU (tick64b.md). The peak rises by at most the room, and only while
// the run lasts; after it the next collection finds the old graph dead
// and the limit follows the live heap again.
//
// The caller's room is a bound from the graph's size (GraphChangeRoom),
// not what the last run allocated: the process's allocation count also
// holds what runs beside a tick (the index warm-up, the save behind the
// last tick), and room measured so raised the peak by up to the live heap
// (tick64c.md). It is never more than the live heap, GOGC 100's own
// headroom. Without the policy (GOMEMLIMIT set, or no ingest yet) it does
// nothing.
func RoomForChange(room uint64) (done func()) {
	if !memoryPolicy.on.Load() {
		return func() {}
	}
	return reserve(min(room, liveHeap()))
}

// reserve keeps room in the limit until done.
func reserve(room uint64) (done func()) {
	p := &memoryPolicy
	p.mu.Lock()
	p.room += room
	p.mu.Unlock()
	setLimit()
	return func() {
		p.mu.Lock()
		p.room -= room
		p.mu.Unlock()
		setLimit()
	}
}

func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// GraphChangeRoom is a reservation's room for a graph of nodes and edges:
// roomTicks times what a tick of up to 64 files allocates per node and
// edge on go-std, most of it the splice's fresh node and edge arrays.
func GraphChangeRoom(nodes, edges int) uint64 {
	return roomTicks * (uint64(nodes)*bytesPerNode + uint64(edges)*bytesPerEdge)
}

// RoomHold keeps a reservation's room past the run that made it, until
// Release: a daemon tick's room stays until the quiet save behind the
// tick has finished (live.go's quietPersist). Returned at the tick's end,
// the room left the heap over the restored goal and the next allocation
// started a full mark of the live heap (≈ 170 ms of CPU on go-std, a
// third of a one-file tick's, tick64c.md); held, a burst of ticks shares
// its collections, and the one that finds the old graphs dead runs after
// the save, when the tree has been quiet. The peak is the same bound as
// during a tick (one room, never a sum); what the hold costs is that the
// garbage of the last tick stays until the save.
type RoomHold struct {
	mu    sync.Mutex
	room  uint64
	done  func()
	runs  int // runs under way: a Release waits for the save after them
	timer *time.Timer
}

// maxRoomHold bounds a hold no save released (a tick whose reingest
// failed is followed by none).
const maxRoomHold = time.Minute

// Keep holds room (the largest asked since the last Release) for a run;
// the run calls end when it is over, and the room stays until Release,
// or maxRoomHold after the last run ended.
func (h *RoomHold) Keep(room uint64) (end func()) {
	if !memoryPolicy.on.Load() {
		return func() {}
	}
	return h.keep(min(room, liveHeap()))
}

func (h *RoomHold) keep(room uint64) (end func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.done == nil || room > h.room {
		// The new reservation before the old one ends: the limit never
		// drops in between.
		old := h.done
		h.done, h.room = reserve(room), room
		if old != nil {
			old()
		}
	}
	h.runs++
	if h.timer != nil {
		h.timer.Stop()
	}
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.runs--
		if h.timer == nil {
			h.timer = time.AfterFunc(maxRoomHold, h.Release)
		} else {
			h.timer.Reset(maxRoomHold)
		}
	}
}

// Release gives the held room back, unless a run is under way: a save
// that ends during a tick (a slow tick outlasts the save's quiet) must
// not take that tick's room; the save after it releases it.
func (h *RoomHold) Release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.runs > 0 {
		return
	}
	if h.timer != nil {
		h.timer.Stop()
	}
	if h.done != nil {
		h.done()
		h.done, h.room = nil, 0
	}
}

// Holding reports whether a room is held (it may be 0 bytes before the
// first collection has measured a live heap).
func (h *RoomHold) Holding() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.done != nil
}
