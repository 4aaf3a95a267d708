package live

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
	"github.com/m1nd-go/m1nd/mcpserver/watch"
)

// BenchmarkDaemonTickEdit times daemon_tick after a one-file edit on a
// copy of go-std (M1ND_CORPORA or /tmp/m1nd-corpora; skipped without
// it) through the dispatcher, with a runtime directory as the server
// has: the reconciliation the watcher runs after each write. Each
// iteration appends a function to a different file (edit), adds a file to
// a package (add), appends to 64 files (edit64), to the same file or the
// same 64 files every round (editsame, edit64same: parsed from the trees
// the round before kept), deletes one (delete),
// renames one (rename) or adds a requirement to go.mod (manifest: go-std
// has none, so the case writes one first and ticks once, untimed); every
// tick must patch the graph without walking the tree.
func BenchmarkDaemonTickEdit(b *testing.B) {
	dir, files := testcorpus.CopyGoTree(b, testcorpus.Corpus(b, "go-std"))
	cfg := tooltest.TestConfig()
	cfg.RuntimeDir = b.TempDir()
	d := tooltest.NewDispatcher(b, cfg)
	t0 := time.Now()
	tooltest.MustCall(b, d, "ingest", map[string]any{"agent_id": "bench", "path": dir})
	full := time.Since(t0)
	ingestPeak := peakMB() // the process's peak up to the full ingest's answer
	// Only files the graph holds: the walk skips some directories
	// (cmd/dist: "dist" is a build output name), where a change is no
	// change of the graph.
	g := d.Session.Current().Graph
	files = slices.DeleteFunc(files, func(f string) bool {
		rel, _ := filepath.Rel(dir, f)
		_, ok := g.Lookup("file::" + filepath.ToSlash(rel))
		return !ok
	})
	// The ingest builds the query engine and the seek index in the
	// background: wait for them (a seek needs both), so the ticks are
	// timed in the steady state an agent's edits meet.
	tooltest.MustCall(b, d, "seek", map[string]any{"agent_id": "bench", "query": "parse a configuration file"})
	round := 0
	var touched []string // the paths a change wrote: a watch tick's events
	gomod := filepath.Join(dir, "go.mod")
	generated := []string{filepath.Join(dir, "cmd/compile/internal/ssa/rewritegeneric.go")}
	// edit64 appends a function to first and then to other files, 64 in
	// all (a file may be picked twice).
	// same makes edit64 (and editsame) edit the same files every round,
	// as an agent edits the files it works on: their trees are kept.
	same := false
	edit64 := func(first []string) error {
		for j := range 64 {
			f := files[(round*7919+j*131)%len(files)]
			if j < len(first) {
				f = first[j]
			}
			if first == nil && same {
				f = files[(j*131)%len(files)]
			}
			touched = append(touched, f)
			fh, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			fmt.Fprintf(fh, "\nfunc M1ndBenchTick%d_%d() {}\n", round, j)
			if err := fh.Close(); err != nil {
				return err
			}
		}
		return nil
	}
	// edit1 appends a function to f.
	edit1 := func(f string) error {
		touched = append(touched, f)
		fh, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		fmt.Fprintf(fh, "\nfunc M1ndBenchTick%d() {}\n", round)
		return fh.Close()
	}
	changes := []struct {
		name  string
		files int // files a tick reingests (-1: some, edits may hit a file twice)
		apply func(f string) error
		setup func() error
	}{
		{"edit", 1, edit1, nil},
		{"add", 1, func(f string) error {
			data, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			pkg, _, _ := strings.Cut(string(data[strings.Index(string(data), "\npackage ")+1:]), "\n")
			return os.WriteFile(filepath.Join(filepath.Dir(f), fmt.Sprintf("m1nd_tick_%d.go", round)), fmt.Appendf(nil, "%s\n\nfunc M1ndBenchAdded%d() {}\n", pkg, round), 0o644)
		}, nil},
		{"edit64", -1, func(string) error { return edit64(nil) }, nil},
		{"editsame", 1, func(string) error { return edit1(files[len(files)/2]) }, nil},
		{"edit64same", -1, func(string) error { return edit64(nil) }, nil},
		// with the largest generated file among the 64 (rewritegeneric.go,
		// 850 KB: its parse alone is most of a 64-file tick)
		{"edit64gen", -1, func(string) error { return edit64(generated) }, nil},
		{"delete", 1, os.Remove, nil},
		{"rename", 2, func(f string) error { return os.Rename(f, strings.TrimSuffix(f, ".go")+"_m1nd.go") }, nil},
		{"manifest", 1, func(string) error {
			fh, err := os.OpenFile(gomod, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			fmt.Fprintf(fh, "\nrequire example.com/m1nd%d v1.0.0\n", round)
			return fh.Close()
		}, func() error {
			return os.WriteFile(gomod, []byte("module std\n\ngo 1.26\n\nrequire golang.org/x/net v0.47.0\n"), 0o644)
		}},
	}
	// A watch tick is told the paths its events named and stats those
	// alone; the tick before the timed ones checks the whole tree. Each
	// runs right after its manual twin, under the same load.
	for i := 0; i < len(changes); i++ {
		if c := changes[i]; c.name == "edit" || c.name == "editsame" || strings.HasPrefix(c.name, "edit64") {
			c.name += "/watch"
			changes = slices.Insert(changes, i+1, c)
			i++
		}
	}
	tick := func(b *testing.B, name string) map[string]any {
		defer func() { touched = touched[:0] }()
		if !strings.HasSuffix(name, "/watch") {
			return tooltest.MustCall(b, d, "daemon_tick", map[string]any{"agent_id": "bench"})
		}
		res := tools.DaemonOf(d).TickChanged(b.Context(), 0, watch.Changes{Paths: touched, Complete: true, Closed: time.Now()})
		var out map[string]any
		if err := json.Unmarshal([]byte(tooltest.ToJSON(res)), &out); err != nil {
			b.Fatal(err)
		}
		return out
	}
	// Untimed ticks first: what the ingest left running (its save, the
	// garbage of the full build) would otherwise land on the first case.
	for range 5 {
		round++
		if err := changes[0].apply(files[(round*7919)%len(files)]); err != nil {
			b.Fatal(err)
		}
		tick(b, "")
	}
	for _, c := range changes {
		b.Run("go-std/"+c.name, func(b *testing.B) {
			same = strings.Contains(c.name, "same")
			if strings.HasSuffix(c.name, "/watch") {
				tick(b, "")
			}
			if _, err := os.Stat(gomod); c.setup != nil && err != nil {
				if err := c.setup(); err != nil {
					b.Fatal(err)
				}
				tooltest.MustCall(b, d, "daemon_tick", map[string]any{"agent_id": "bench"})
			}
			times := make([]time.Duration, 0, b.N)
			phases, ingestMs := map[string]float64{}, 0.0
			stop := tickProfile(b, strings.ReplaceAll(c.name, "/", "-"))
			resetPeak()
			gc0 := collections()
			cpu0, sys0, flt0 := processCPU(), systemCPU(), minorFaults()
			for i := 0; i < b.N; i++ {
				round++
				k := (round * 7919) % len(files)
				picked := files[k]
				if err := c.apply(picked); err != nil {
					b.Fatal(err)
				}
				if c.name == "delete" || c.name == "rename" {
					files = slices.Delete(files, k, k+1)
				}
				t := time.Now()
				out := tick(b, c.name)
				times = append(times, time.Since(t))
				if n := out["files_reingested"].(float64); (c.files > 0 && n != float64(c.files)) || n == 0 {
					b.Fatalf("tick after %s of %s: %v", c.name, picked, out)
				}
				u := out["updates"].([]any)[0].(map[string]any)
				if u["patched"] != true || u["walk_skipped"] != true {
					b.Fatalf("update %v", u)
				}
				ingestMs += u["ingest_ms"].(float64)
				for k, v := range u["phase_ms"].(map[string]any) {
					phases[k] += v.(float64)
				}
			}
			b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(collections()-gc0)/float64(b.N), "gc/op")
			// Each page first touched is a fault, on a VM an exit to the host.
			b.ReportMetric(float64((systemCPU()-sys0).Microseconds())/1000/float64(b.N), "sys-ms/op")
			b.ReportMetric(float64(minorFaults()-flt0)/float64(b.N), "faults/op")
			if mb := peakMB(); mb > 0 {
				b.ReportMetric(mb, "tick-peak-MB")
				b.ReportMetric(ingestPeak, "ingest-peak-MB")
			}
			stop()
			// Where the time went: the ingest's phases (means), and the
			// rest of the tick around it (staleness check, publish).
			for k, v := range phases {
				b.ReportMetric(v/float64(b.N), k+"-ms")
			}
			b.ReportMetric(ingestMs/float64(b.N), "ingest-ms")
			tooltest.EditP50P99(b, times)
			slices.Sort(times)
			b.ReportMetric(100*float64(times[len(times)/2])/float64(full), "pct-of-full")
			if store, ok := session.RootSharedIfAny(d.Session, dir, tools.IngestCacheKey("code")); ok {
				n, bytes := store.Trees().Stats()
				b.ReportMetric(float64(n), "kept-trees")
				b.ReportMetric(float64(bytes)/1e6, "kept-MB")
			}
		})
	}
	// The first query after a tick: what the new graph's indexes cost.
	for _, q := range []struct{ tool, arg, val string }{{"seek", "query", "parse a configuration file"}, {"activate", "query", "parse configuration"}} {
		b.Run("go-std/edit+"+q.tool, func(b *testing.B) {
			times := make([]time.Duration, 0, b.N)
			for i := 0; i < b.N; i++ {
				round++
				if err := changes[0].apply(files[(round*7919)%len(files)]); err != nil {
					b.Fatal(err)
				}
				tooltest.MustCall(b, d, "daemon_tick", map[string]any{"agent_id": "bench"})
				t := time.Now()
				tooltest.MustCall(b, d, q.tool, map[string]any{"agent_id": "bench", q.arg: q.val})
				times = append(times, time.Since(t))
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "first-query-p50-ms")
		})
	}
}

// usage is the process's resource use so far (zero where it cannot be
// read).
func usage() syscall.Rusage {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru
}

// processCPU is the process's CPU time so far (user and system, every
// goroutine): steadier than wall time on a shared machine.
func processCPU() time.Duration {
	ru := usage()
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// systemCPU is the process's CPU time in the kernel so far.
func systemCPU() time.Duration { ru := usage(); return time.Duration(ru.Stime.Nano()) }

// minorFaults is the number of page faults the process has taken that
// needed no disk read.
func minorFaults() int64 { return usage().Minflt }

// collections is the number of garbage collections the runtime has
// completed.
func collections() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// resetPeak starts the process's peak resident memory (VmHWM) again from
// what it holds now (Linux; elsewhere nothing), so that peakMB reports
// the peak of the ticks that follow, not the full ingest's.
func resetPeak() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakMB is VmHWM in MB (kB ÷ 1000), 0 where it cannot be read.
func peakMB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
			return kb / 1000
		}
	}
	return 0
}

// tickProfile profiles the timed ticks of one case when M1ND_TICK_PROFILE
// names a directory: <case>.cpu, and <case>.allocs-0/-1 (allocations up to
// the first tick and after the last; pprof -base the first to see the
// ticks' own). It returns the function that ends the profile.
func tickProfile(b *testing.B, name string) func() {
	dir := os.Getenv("M1ND_TICK_PROFILE")
	if dir == "" {
		return func() {}
	}
	write := func(suffix string) {
		f, err := os.Create(filepath.Join(dir, name+suffix))
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			b.Fatal(err)
		}
	}
	write(".allocs-0")
	f, err := os.Create(filepath.Join(dir, name+".cpu"))
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
		write(".allocs-1")
	}
}
