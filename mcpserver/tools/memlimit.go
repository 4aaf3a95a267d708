package tools

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// The server's soft memory limit (issue 29). With the runtime's default
// (GOGC 100) a heap grows to twice what the last collection found live
// before the next one runs, and the pages it grew into stay resident: the
// server's peak on go-std was twice the live heap of its largest moment
// (the index builds beside a new graph). Once an ingest runs, the server
// keeps the runtime's soft limit at limitRatio × the live heap the last
// collection found (never below limitFloor), so the heap's headroom over
// what it holds is a quarter rather than as much again; as the graph grows
// the live heap does, and the limit follows it after each collection, so
// it never holds the heap under what it needs (the cost of a fixed limit
// below the live heap: the collector running without pause). A user's
// GOMEMLIMIT always wins: the policy never starts when it is set.
const (
	// limitRatio is the headroom over the live heap, in percent.
	limitRatio = 125
	// limitFloor keeps small servers at GOGC 100: below it the limit never
	// binds before the default goal (twice a live heap under 128 MiB).
	limitFloor = 256 << 20
)

// memoryPolicy is process-wide, as the runtime's limit is: every session
// of the process shares it.
var memoryPolicy struct {
	once sync.Once
	live []metrics.Sample
}

// KeepMemoryLimit starts the policy, once per process, unless the user set
// GOMEMLIMIT; the ingest tool calls it when an ingest starts (a server
// that never ingests keeps the runtime's defaults).
func KeepMemoryLimit() {
	memoryPolicy.once.Do(func() {
		if _, set := os.LookupEnv("GOMEMLIMIT"); set {
			return
		}
		memoryPolicy.live = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
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

// setLimit sets the limit from the live heap of the last collection (the
// cleanup goroutine runs it after each one).
func setLimit() {
	metrics.Read(memoryPolicy.live)
	debug.SetMemoryLimit(limitFor(memoryPolicy.live[0].Value.Uint64()))
}

// limitFor is the limit kept over a live heap of live bytes.
func limitFor(live uint64) int64 {
	l := float64(live) * limitRatio / 100
	if l > math.MaxInt64/2 {
		return math.MaxInt64
	}
	return max(int64(l), limitFloor)
}
