// Command m1nd-memprobe is m1nd-mcp with a memory sampler beside it, for
// finding what holds the server's memory (issue 29): it serves exactly as
// m1nd-mcp does, and every 250 ms appends the process's live heap, Go heap
// in use, resident set and peak to $M1ND_MEMPROBE_DIR/samples.tsv. It
// writes a heap profile (live objects as of the last collection) to
// peak.pprof each time the live heap passes its highest mark by 5 %, and
// to now.pprof every second, so the last one shows what stays resident.
// gc_cpu_s and cpu_s are the runtime's estimates of the CPU spent in the
// collector and in all (what a memory limit trades against), limit_mb the
// soft memory limit in force (the server may set its own). With
// M1ND_MEMPROBE_GC set to a number of seconds it forces a collection that
// often, so live_mb is the true live heap of that moment rather than as
// of the last collection (this perturbs the peak: use it for a profile of
// what is held, not for the peak's figure).
// Point m1nd-scalebench's -server at it.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/mcpcmd"
)

func main() {
	if dir := os.Getenv("M1ND_MEMPROBE_DIR"); dir != "" {
		go sample(dir)
	}
	os.Exit(mcpcmd.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// sample runs until the process exits.
func sample(dir string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "m1nd-memprobe:", err)
		return
	}
	f, err := os.Create(filepath.Join(dir, "samples.tsv"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "m1nd-memprobe:", err)
		return
	}
	fmt.Fprintln(f, "t_s\tlive_mb\theap_inuse_mb\theap_sys_mb\trss_mb\thwm_mb\tgcs\tgc_cpu_s\tcpu_s\tlimit_mb")
	ms := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/cpu/classes/total:cpu-seconds"}}
	forceGC, _ := strconv.ParseFloat(os.Getenv("M1ND_MEMPROBE_GC"), 64)
	start := time.Now()
	var peak uint64
	lastNow, lastGC := start, start
	for tick := time.NewTicker(250 * time.Millisecond); ; <-tick.C {
		if forceGC > 0 && time.Since(lastGC).Seconds() >= forceGC {
			lastGC = time.Now()
			runtime.GC()
		}
		metrics.Read(ms)
		live := ms[0].Value.Uint64()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		rss, hwm := procStatus()
		limit := debug.SetMemoryLimit(-1)
		fmt.Fprintf(f, "%.2f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%d\t%.2f\t%.2f\t%.0f\n", time.Since(start).Seconds(), mb(live), mb(m.HeapInuse), mb(m.HeapSys), rss, hwm, m.NumGC,
			ms[1].Value.Float64(), ms[2].Value.Float64(), mb(uint64(min(limit, 1<<50))))
		if live > peak+peak/20 {
			peak = live
			writeProfile(filepath.Join(dir, "peak.pprof"))
		}
		if time.Since(lastNow) >= time.Second {
			lastNow = time.Now()
			writeProfile(filepath.Join(dir, "now.pprof"))
		}
	}
}

func writeProfile(path string) {
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	pprof.Lookup("heap").WriteTo(f, 0)
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }

// procStatus returns VmRSS and VmHWM in MB.
func procStatus() (rss, hwm float64) {
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(data), "\n") {
		name, v, _ := strings.Cut(line, ":")
		var kb float64
		fmt.Sscanf(strings.TrimSpace(v), "%f", &kb)
		switch name {
		case "VmRSS":
			rss = kb / 1024
		case "VmHWM":
			hwm = kb / 1024
		}
	}
	return rss, hwm
}
