package tools

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// A full ingest starts on a small heap: a fresh server holds a few MB, so
// the runtime's goal (twice the live heap, at least 4 MB) ran three to
// five collections during py-335's ingest (109 files), each marking beside
// the two parse workers on a two-core machine
// (benchmarks/results/ingest-durable2.md). While an ingest runs, collections
// wait until the heap has grown by ingestGCRoom over what it held when the
// ingest started; past that the runtime's goal applies again (a large tree
// collects as before), and the memory policy's limit (memlimit.go) bounds
// the heap throughout.

// ingestGCRoom is the garbage an ingest may leave uncollected: more than a
// small tree's whole ingest allocates (py-335: ≈ 30 MB), little beside the
// policy's 256 MB floor.
const ingestGCRoom = 64 << 20

// gcHold is the process's one hold (the runtime's GC percent is
// process-wide): ingests share it, the first sets it, the last restores it.
var gcHold struct {
	mu      sync.Mutex
	holders int
	on      bool   // collections held now (percent off)
	old     int    // the percent to restore
	bound   uint64 // heap bytes at which the hold lets go
	sample  []metrics.Sample
}

// HoldCollections holds the runtime's collections while an ingest runs,
// until the heap has grown by ingestGCRoom. check,
// called as the ingest reports progress, lets go once the heap passed the
// bound; done (once, when the ingest is over) restores the runtime's
// percent when no other ingest holds it. Nothing is held when the user set
// GOGC, or when the memory policy is off (GOMEMLIMIT set, KeepMemoryLimit
// not called): with no limit of the server's, nothing would bound the heap.
func HoldCollections() (check, done func()) { return holdCollections(ingestGCRoom) }

func holdCollections(room uint64) (check, done func()) {
	h := &gcHold
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, set := os.LookupEnv("GOGC"); set || !memoryPolicy.on.Load() {
		return func() {}, func() {}
	}
	h.holders++
	if h.holders == 1 {
		h.sample = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		metrics.Read(h.sample)
		h.bound = h.sample[0].Value.Uint64() + room
		h.old, h.on = debug.SetGCPercent(-1), true
	}
	var once sync.Once
	return checkHold, func() { once.Do(releaseHold) }
}

// checkHold lets the hold go once the heap has passed its bound.
func checkHold() {
	h := &gcHold
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.on {
		return
	}
	metrics.Read(h.sample)
	if h.sample[0].Value.Uint64() >= h.bound {
		debug.SetGCPercent(h.old)
		h.on = false
	}
}

// releaseHold ends one holder's hold.
func releaseHold() {
	h := &gcHold
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.holders--; h.holders == 0 && h.on {
		debug.SetGCPercent(h.old)
		h.on = false
	}
}
