package code

import (
	"context"
	"testing"
	"time"
)

// BenchmarkForEachFile times forEachFile over go-std's 5,609 files with
// work like a tick's re-resolution check of an unchanged file (≈ 1 µs a
// file): what handing out the chunks costs beside the work.
func BenchmarkForEachFile(b *testing.B) {
	sink := make([]uint64, 5609)
	spin := func(i int) {
		// ≈ 1 µs of work, kept by writing it out.
		x := uint64(i)
		for range 300 {
			x = x*6364136223846793005 + 1442695040888963407
		}
		sink[i] = x
	}
	for _, idle := range []time.Duration{0, 3 * time.Millisecond} {
		name := "busy"
		if idle > 0 {
			name = "after-idle"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if idle > 0 {
					b.StopTimer()
					time.Sleep(idle)
					b.StartTimer()
				}
				if err := forEachFile(context.Background(), len(sink), spin); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
