package query_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/seek"
	"github.com/m1nd-go/m1nd/ingest"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestSeekIndexFedByIngest: the first seek index after an ingest takes
// every file's body documents from the ingest's reads (SeekFeed), and
// answers as an index reading the tree does.
func TestSeekIndexFedByIngest(t *testing.T) {
	d, dir := tooltest.IngestedFixture(t)
	s := d.Session
	x, err := tools.SeekIndex(s, s.Current())
	if err != nil {
		t.Fatal(err)
	}
	st := x.Stats()
	if st.FilesRead == 0 || st.FilesReused != st.FilesRead+st.FilesSkipped {
		t.Errorf("files read %d, skipped %d, taken from the ingest %d: want all taken", st.FilesRead, st.FilesSkipped, st.FilesReused)
	}
	o := seek.DefaultOptions()
	o.ReadFile = func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, p)) }
	read, err := seek.Build(context.Background(), x.Graph(), o)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"validate user credentials", "session token store", "router handle login request"} {
		p := seek.Params{TopK: 20, GraphRerank: true}
		if diff := cmp.Diff(read.SearchText(q, p), x.SearchText(q, p)); diff != "" {
			t.Errorf("query %q (-read +fed):\n%s", q, diff)
		}
	}
}

// TestFirstSeekRightAfterIngest: a small tree's seek index is built
// behind the ingest's answer, from the files the ingest held uncut; a seek
// issued the moment the answer came (which builds the index or waits for
// its build) answers as one issued once the index was built. Run with
// -race: the build behind the answer and the seek's race for it.
func TestFirstSeekRightAfterIngest(t *testing.T) {
	queries := []string{"validate user credentials", "session token store", "router handle login request"}
	seekAll := func(d *tools.Dispatcher) []any {
		var out []any
		for _, q := range queries {
			r := tooltest.MustCall(t, d, "seek", map[string]any{"agent_id": "t", "query": q, "top_k": 20})
			delete(r, "elapsed_ms")
			if x, ok := r["index"].(map[string]any); ok {
				delete(x, "build_ms") // (timing)
			}
			out = append(out, r)
		}
		return out
	}
	for i := range 3 {
		early, _ := tooltest.IngestedFixture(t)
		first := seekAll(early)
		late, _ := tooltest.IngestedFixture(t)
		if _, err := tools.SeekIndex(late.Session, late.Session.Current()); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(seekAll(late), first); d != "" {
			t.Fatalf("round %d: the seek right after the ingest (-later +right after):\n%s", i, d)
		}
	}
}

// BenchmarkFirstSeek ingests a benchmark corpus through the server, then
// seeks the moment the ingest answered: first-seek-ms is what an agent
// waits for the index; ingest-ms and ingest-cpu-ms (the process's, index
// builds beside the ingest included) what the ingest cost; total-cpu-ms
// everything up to the first seek's answer; second-seek-ms the same query
// again, on a built index (what the first would cost without a wait). memory: no runtime directory
// (the ingest answers without saving); persisted: a durable save first,
// as a server with --runtime-dir does. Run one corpus per process
// (-benchtime 1x) for its peak-rss-mb.
func BenchmarkFirstSeek(b *testing.B) {
	for _, corpus := range []string{"py-335", "go-std"} {
		dir := tooltest.CorpusPath(corpus)
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		for _, persisted := range []bool{false, true} {
			name := corpus + "/memory"
			if persisted {
				name = corpus + "/persisted"
			}
			b.Run(name, func(b *testing.B) {
				var ingest, ingestCPU, first, second, total time.Duration
				for i := 0; i < b.N; i++ {
					cfg := session.Config{}
					if persisted {
						cfg.RuntimeDir = b.TempDir()
					}
					d := tooltest.NewDispatcher(b, cfg)
					cpu, t := processCPU(), time.Now()
					tooltest.MustCall(b, d, "ingest", map[string]any{"agent_id": "bench", "path": dir})
					ingest += time.Since(t)
					ingestCPU += processCPU() - cpu
					ready := session.Built(d.Session.Current(), tools.SeekIndexKey)
					if os.Getenv("M1ND_FIRST_SEEK_AFTER_BUILD") != "" {
						// The handler's own first call, the index's build
						// not waited for inside it.
						w := time.Now()
						tools.SeekIndex(d.Session, d.Session.Current())
						b.Logf("waited %v for the seek index before the first seek", time.Since(w))
					}
					stop := profileCall(b, "first")
					t = time.Now()
					out := tooltest.MustCall(b, d, "seek", map[string]any{"agent_id": "bench", "query": "parse an HTTP request header"})
					first += time.Since(t)
					stop()
					// (the handler's own time: the rest is dispatch, the
					// read lock, and encoding the answer)
					b.Logf("first seek: %v wall, %v ms in the handler; index built when the ingest answered: %v", time.Since(t), out["elapsed_ms"], ready)
					total += processCPU() - cpu
					stop = profileCall(b, "second")
					t = time.Now()
					tooltest.MustCall(b, d, "seek", map[string]any{"agent_id": "bench", "query": "parse an HTTP request header"})
					second += time.Since(t)
					stop()
					// What a whole-tree staleness check (a stat of every file;
					// health and the audits) costs. The dispatcher's
					// stale_files no longer pays it: it stats the files an
					// answer names (session.NamedFiles).
					t = time.Now()
					d.Session.StalenessNow(d.Session.Current())
					b.Logf("a staleness check: %v", time.Since(t))
					if x, err := tools.SeekIndex(d.Session, d.Session.Current()); err == nil {
						st := x.Stats()
						b.Logf("seek index: %d files read, %d skipped, %d taken without a read; build %v", st.FilesRead, st.FilesSkipped, st.FilesReused, st.Elapsed)
					}
				}
				n := float64(b.N)
				b.ReportMetric(float64(first.Microseconds())/1000/n, "first-seek-ms")
				b.ReportMetric(float64(second.Microseconds())/1000/n, "second-seek-ms")
				b.ReportMetric(float64(ingest.Milliseconds())/n, "ingest-ms")
				b.ReportMetric(float64(ingestCPU.Milliseconds())/n, "ingest-cpu-ms")
				b.ReportMetric(float64(total.Milliseconds())/n, "total-cpu-ms")
				b.ReportMetric(peakRSSMB(), "peak-rss-mb")
			})
		}
	}
}

// profileCall writes a CPU profile of one call to
// $M1ND_SEEK_CALL_PROFILE.<name>.pprof when that variable is set, sampled
// at 2 kHz: one seek is tens of milliseconds, a handful of samples at the
// default 100 Hz. With $M1ND_SEEK_CALL_TRACE it writes an execution
// trace instead (<that>.<name>.trace): what the call waited for (the
// CPU, a lock, GC assists, a stopped world) beside what ran meanwhile.
func profileCall(b testing.TB, name string) (stop func()) {
	if base := os.Getenv("M1ND_SEEK_CALL_TRACE"); base != "" {
		f, err := os.Create(base + "." + name + ".trace")
		if err != nil {
			b.Fatal(err)
		}
		if err := trace.Start(f); err != nil {
			b.Fatal(err)
		}
		return func() { trace.Stop(); f.Close() }
	}
	base := os.Getenv("M1ND_SEEK_CALL_PROFILE")
	if base == "" {
		return func() {}
	}
	f, err := os.Create(base + "." + name + ".pprof")
	if err != nil {
		b.Fatal(err)
	}
	runtime.SetCPUProfileRate(2000) // before StartCPUProfile, which then warns and keeps it
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }
}

// processCPU is the CPU time (user and system) the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakRSSMB is the process's peak resident set (VmHWM), in MB.
func peakRSSMB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}

// BenchmarkIngestSeekFeed is the ingest alone (no server) of a benchmark
// corpus, without and with the seek index's body documents cut in its
// parse workers (what SeekFeed adds to an ingest). Run one case per
// process (-benchtime 1x) for its peak-rss-mb.
func BenchmarkIngestSeekFeed(b *testing.B) {
	for _, corpus := range []string{"py-335", "go-std"} {
		dir := tooltest.CorpusPath(corpus)
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		for _, fed := range []bool{false, true} {
			name := corpus + "/plain"
			if fed {
				name = corpus + "/fed"
			}
			b.Run(name, func(b *testing.B) {
				var wall, cpu time.Duration
				for i := 0; i < b.N; i++ {
					cfg := ingest.Config{Root: dir, Adapter: "code"}
					var c *seek.Collector
					if fed {
						c = seek.NewCollector(seek.DefaultOptions(), nil)
						cfg.OnSource = func(src ingest.Source) {
							lines := make([]seek.Lines, len(src.Lines))
							for i, l := range src.Lines {
								lines[i] = seek.Lines{First: l[0], Last: l[1]}
							}
							c.Add(src.Rel, "", src.Data, lines)
						}
						cfg.Progress = func(p ingest.Progress) { // as SeekFeed does
							if p.Phase == adapter.PhaseBuild {
								c.Done()
							}
						}
					}
					c0, t := processCPU(), time.Now()
					if _, err := ingest.Run(context.Background(), cfg, nil); err != nil {
						b.Fatal(err)
					}
					if c != nil {
						c.Done()
					}
					wall += time.Since(t)
					cpu += processCPU() - c0
				}
				b.ReportMetric(float64(wall.Milliseconds())/float64(b.N), "ingest-ms")
				b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "ingest-cpu-ms")
				b.ReportMetric(peakRSSMB(), "peak-rss-mb")
			})
		}
	}
}
