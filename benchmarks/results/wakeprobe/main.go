// Command wakeprobe measures how long a goroutine started by a busy one
// waits before it runs, after the process was idle for a while: the cost
// of every hand-over of work to the second core in a query. It prints the
// p10 / p50 / p90 delay and how many of the late starts (over 1 ms) ran on
// the CPU of the goroutine that started them (the kernel queued the woken
// thread behind it instead of on the idle CPU).
//
//	GOWORK=off go run benchmarks/results/wakeprobe/main.go
package main

import (
	"fmt"
	"slices"
	"syscall"
	"time"
	"unsafe"
)

func main() {
	for _, idle := range []time.Duration{0, 500 * time.Microsecond, 3 * time.Millisecond} {
		probe(idle, 400)
	}
}

type start struct {
	delay   time.Duration
	sameCPU bool
}

// probe sleeps idle, works 0.2 ms (a request being read), starts a
// goroutine and works 2 ms more while it waits to run, n times.
func probe(idle time.Duration, n int) {
	var got []start
	for range n {
		if idle > 0 {
			time.Sleep(idle)
		}
		busy(200 * time.Microsecond)
		t0, cpu := time.Now(), getcpu()
		ch := make(chan start, 1)
		go func() { ch <- start{time.Since(t0), getcpu() == cpu} }()
		busy(2 * time.Millisecond)
		got = append(got, <-ch)
	}
	slices.SortFunc(got, func(a, b start) int { return int(a.delay - b.delay) })
	late, lateSame := 0, 0
	for _, s := range got {
		if s.delay > time.Millisecond {
			late++
			if s.sameCPU {
				lateSame++
			}
		}
	}
	fmt.Printf("idle %-6v start delay p10 %-10v p50 %-10v p90 %-10v  later than 1 ms: %d of %d (%d on the starter's CPU)\n",
		idle, got[n/10].delay.Round(time.Microsecond), got[n/2].delay.Round(time.Microsecond), got[n*9/10].delay.Round(time.Microsecond), late, n, lateSame)
}

func busy(d time.Duration) {
	for t := time.Now(); time.Since(t) < d; {
	}
}

// getcpu is the CPU the calling thread runs on (Linux getcpu(2), amd64).
func getcpu() int {
	var cpu, node uint32
	syscall.RawSyscall(309, uintptr(unsafe.Pointer(&cpu)), uintptr(unsafe.Pointer(&node)), 0)
	return int(cpu)
}
