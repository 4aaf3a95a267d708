// Command m1nd-ingest-bench measures ingest on the benchmark corpora
// (benchmarks/corpora/corpora.py builds them under /tmp/m1nd-corpora): for
// each corpus, a full ingest (wall time, nodes, edges, references, peak
// RSS), a bare tree-sitter parse of the same files with the same
// parallelism (the floor of the design), an incremental re-ingest after one
// file changes, and `ctags -R` when installed.
//
// Every measurement runs in a child process of its own so peak RSS
// (VmHWM) belongs to that measurement alone.
//
//	go run ./cmd/m1nd-ingest-bench -corpora /tmp/m1nd-corpora -runs 3 -o ../benchmarks/results/ingest.md
//
// `-child answer -sessions N dir` times the server's answer instead: N
// sessions in one process, each a bare parse then a durable full ingest
// through a fresh server's dispatcher and the first seek after it (one
// JSON line a session; issue 29's py-335 target is answer ≤ 1.1× parse).
//
// It exits 1 when a measurement fails and 2 when a corpus named in -names
// is missing (it says which, and the command that builds it).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspy "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
	"golang.org/x/sync/errgroup"

	"github.com/m1nd-go/m1nd/ingest"
	"github.com/m1nd-go/m1nd/ingest/walk"
	"github.com/m1nd-go/m1nd/mcpserver"
	"github.com/m1nd-go/m1nd/tools/localize"
)

type result struct {
	Mode       string             `json:"mode"`
	WallMs     float64            `json:"wall_ms"`
	Files      int                `json:"files"`
	Bytes      int64              `json:"bytes,omitempty"`
	Nodes      int                `json:"nodes,omitempty"`
	Edges      int                `json:"edges,omitempty"`
	Resolved   int                `json:"resolved,omitempty"`
	Ambiguous  int                `json:"ambiguous,omitempty"`
	Unresolved int                `json:"unresolved,omitempty"`
	Phases     map[string]float64 `json:"phases,omitempty"`
	PeakRSSMB  float64            `json:"peak_rss_mb"`
	// CPUMs is user+system CPU time of the child process: on a shared
	// machine it is steadier than wall time.
	CPUMs float64 `json:"cpu_ms"`
	// incremental
	FullCacheMs float64            `json:"full_cache_ms,omitempty"`
	IncrMs      float64            `json:"incr_ms,omitempty"`
	NoopMs      float64            `json:"noop_ms,omitempty"`
	ColdMs      float64            `json:"cold_ms,omitempty"`
	IncrPhases  map[string]float64 `json:"incr_phases,omitempty"`
	Reused      int                `json:"reused,omitempty"`
	Changed     int                `json:"changed,omitempty"`
	Skipped     int                `json:"skipped,omitempty"`
	// Patched reports whether the one-file edit patched the graph;
	// RebuildReason says why not.
	Patched       bool   `json:"patched"`
	RebuildReason string `json:"rebuild_reason,omitempty"`
	// AddMs is an incremental ingest after a new file appears (a rebuild
	// from cached extractions: files appearing move module layout).
	AddMs float64 `json:"add_ms,omitempty"`
}

// Exit codes: 0 every corpus measured; 1 a measurement failed; 2 bad
// usage or a missing corpus (no corpus is skipped in silence: a report
// without one would look complete).
func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("m1nd-ingest-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	child := fs.String("child", "", "internal: run one measurement (full, parse, incr, answer) and print JSON")
	sessions := fs.Int("sessions", 1, "with -child answer: sessions to run in this process, one JSON line each")
	corpora := fs.String("corpora", "/tmp/m1nd-corpora", "directory holding the corpora (python3 benchmarks/corpora/corpora.py builds them)")
	names := fs.String("names", "py-335,py-std,go-std,js-npm,mixed", "corpora to measure, comma separated")
	runs := fs.Int("runs", 3, "runs per measurement (the fastest is reported, as the machine is shared)")
	par := fs.Int("j", runtime.GOMAXPROCS(0), "extraction parallelism")
	out := fs.String("o", "", "append the markdown report to this file")
	cpuprofile := fs.String("cpuprofile", "", "with -child: write a CPU profile")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *runs < 1 || *par < 1 {
		fmt.Fprintf(stderr, "m1nd-ingest-bench: -runs and -j must be at least 1 (got %d, %d)\n", *runs, *par)
		return 2
	}

	if *child != "" {
		if *cpuprofile != "" && *child == "incr" {
			incrProfile = *cpuprofile
		} else if *cpuprofile != "" {
			f, err := os.Create(*cpuprofile)
			if err == nil {
				pprof.StartCPUProfile(f)
				defer pprof.StopCPUProfile()
			}
		}
		if *child == "answer" {
			if err := answers(stdout, fs.Arg(0), *par, *sessions); err != nil {
				fmt.Fprintln(stderr, err)
				return 1
			}
			return 0
		}
		r, err := measure(*child, fs.Arg(0), *par)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		r.PeakRSSMB = vmHWM()
		r.CPUMs = cpuMs()
		json.NewEncoder(stdout).Encode(r)
		return 0 // deferred: stop the profile
	}

	// Every corpus is checked before anything is measured: a missing one
	// is an error that names it and how to make it.
	var list, missing []string
	for _, name := range strings.Split(*names, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		list = append(list, name)
		if st, err := os.Stat(filepath.Join(*corpora, name)); err != nil || !st.IsDir() {
			missing = append(missing, name)
		}
	}
	if len(list) == 0 {
		fmt.Fprintln(stderr, "m1nd-ingest-bench: -names lists no corpus")
		return 2
	}
	if len(missing) > 0 {
		fmt.Fprintf(stderr, "m1nd-ingest-bench: corpus %s missing under %s; %s\n", strings.Join(missing, ", "), *corpora, corpusRecipe(*corpora, missing))
		return 2
	}

	var report strings.Builder
	fmt.Fprintf(&report, "\n## Run of %s\n\n", time.Now().UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&report, "Machine: %d CPUs (%s), %s, GOMAXPROCS=%d, parallelism %d, best of %d runs. Load average at start: %s.\n\n",
		runtime.NumCPU(), cpuModel(), runtime.Version(), runtime.GOMAXPROCS(0), *par, *runs, loadavg())
	fmt.Fprintf(&report, "| corpus | files | full ingest ms | bare parse ms | ingest/parse wall | CPU s ingest / parse | ingest/parse CPU | nodes | edges | refs resolved (ambiguous) | unresolved | peak RSS MB (ingest / parse) | incremental ms (1 file edited) | incr / full | no-change ms | 1 file added ms | cold-cache incr ms | ctags -R ms |\n")
	fmt.Fprintf(&report, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, name := range list {
		dir := filepath.Join(*corpora, name)
		full, err := best(*runs, "full", dir, *par, stderr)
		if err != nil {
			return fail(stderr, err)
		}
		if full.Files == 0 {
			return fail(stderr, fmt.Errorf("%s: ingest parsed no file in %s (an empty corpus? rebuild it with python3 benchmarks/corpora/corpora.py %s)", name, dir, name))
		}
		parse, err := best(*runs, "parse", dir, *par, stderr)
		if err != nil {
			return fail(stderr, err)
		}
		incr, err := best(*runs, "incr", dir, *par, stderr)
		if err != nil {
			return fail(stderr, err)
		}
		ct := ctags(dir, *runs)
		how := "patched"
		if !incr.Patched {
			how = "rebuilt: " + incr.RebuildReason
		}
		fmt.Fprintf(&report, "| %s | %d | %.0f | %.0f | %.2f | %.2f / %.2f | %.2f | %d | %d | %d (%d) | %d | %.0f / %.0f | %.1f (%s) | %.2f%% | %.1f | %.0f | %.0f | %s |\n",
			name, full.Files, full.WallMs, parse.WallMs, full.WallMs/parse.WallMs, full.CPUMs/1000, parse.CPUMs/1000, full.CPUMs/parse.CPUMs, full.Nodes, full.Edges,
			full.Resolved, full.Ambiguous, full.Unresolved, full.PeakRSSMB, parse.PeakRSSMB,
			incr.IncrMs, how, 100*incr.IncrMs/full.WallMs, incr.NoopMs, incr.AddMs, incr.ColdMs, ct)
		fmt.Fprintf(stderr, "%s: full %+v\n  parse %+v\n  incr %+v\n", name, full, parse, incr)
		fmt.Fprintf(&report, "\n<!-- %s phases (ms): full %v; incremental %v -->\n", name, round(full.Phases), round(incr.IncrPhases))
	}
	fmt.Fprint(stdout, report.String())
	if *out != "" {
		f, err := os.OpenFile(*out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return fail(stderr, err)
		}
		if _, err := f.WriteString(report.String()); err != nil {
			f.Close()
			return fail(stderr, err)
		}
		if err := f.Close(); err != nil {
			return fail(stderr, err)
		}
	}
	return 0
}

// corpusRecipe says how to make missing corpora: the recipe's command when
// it knows them all, else what it knows.
func corpusRecipe(dir string, missing []string) string {
	known := []string{"py-335", "py-std", "go-std", "js-npm", "mixed"}
	for _, m := range missing {
		if !slices.Contains(known, m) {
			return "benchmarks/corpora/corpora.py builds " + strings.Join(known, ", ") + "; other names are directories you provide"
		}
	}
	env := ""
	if filepath.Clean(dir) != "/tmp/m1nd-corpora" {
		env = "M1ND_CORPORA=" + dir + " "
	}
	return "build with: " + env + "python3 benchmarks/corpora/corpora.py " + strings.Join(missing, " ")
}

func fail(stderr io.Writer, err error) int {
	fmt.Fprintln(stderr, "m1nd-ingest-bench:", err)
	return 1
}

func round(m map[string]float64) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		out[k] = int(v + 0.5)
	}
	return out
}

// best runs a measurement in fresh child processes and keeps the fastest.
func best(runs int, mode, dir string, par int, stderr io.Writer) (result, error) {
	var b result
	for i := 0; i < runs; i++ {
		cmd := exec.Command(os.Args[0], "-child", mode, "-j", strconv.Itoa(par), dir)
		cmd.Stderr = stderr
		data, err := cmd.Output()
		if err != nil {
			return b, fmt.Errorf("%s %s: %v", mode, dir, err)
		}
		var r result
		if err := json.Unmarshal(data, &r); err != nil {
			return b, fmt.Errorf("%s %s: %v: %s", mode, dir, err, data)
		}
		key := func(r result) float64 {
			if mode == "incr" {
				return r.IncrMs
			}
			return r.WallMs
		}
		if i == 0 || key(r) < key(b) {
			cpu := b.CPUMs
			b = r
			if i > 0 && cpu < b.CPUMs {
				b.CPUMs = cpu
			}
		} else if r.CPUMs < b.CPUMs {
			b.CPUMs = r.CPUMs
		}
	}
	return b, nil // fastest wall time; CPUMs is the smallest CPU time of the runs
}

// incrProfile, when set, receives a CPU profile of the incremental run only.
var incrProfile string

func measure(mode, dir string, par int) (result, error) {
	ctx := context.Background()
	switch mode {
	case "full":
		runtime.GC()
		start := time.Now()
		out, err := ingest.Run(ctx, ingest.Config{Root: dir, Parallelism: par}, nil)
		if err != nil {
			return result{}, err
		}
		st := out.Stats
		return result{Mode: mode, WallMs: ms(time.Since(start)), Files: st.FilesParsed, Nodes: st.NodesCreated, Edges: st.EdgesCreated,
			Resolved: st.ReferencesResolved, Ambiguous: st.ReferencesAmbiguous, Unresolved: st.ReferencesUnresolved, Phases: st.PhaseMs}, nil
	case "parse":
		return bareParse(ctx, dir, par)
	case "incr":
		return incremental(ctx, dir, par)
	}
	return result{}, fmt.Errorf("unknown mode %q", mode)
}

// incremental copies the corpus (the shared one must not change), ingests
// it in full with a cache, changes one file, and re-ingests incrementally
// with the same in-memory cache (the server's case), then without change,
// then with a cold cache read from disk (a restarted server).
func incremental(ctx context.Context, dir string, par int) (result, error) {
	tmp, err := os.MkdirTemp("", "m1nd-incr-")
	if err != nil {
		return result{}, err
	}
	defer os.RemoveAll(tmp)
	root := filepath.Join(tmp, "corpus")
	if err := copyTree(dir, root); err != nil {
		return result{}, err
	}
	cacheDir := filepath.Join(tmp, "cache")
	c := ingest.NewCache(cacheDir)
	cfg := ingest.Config{Root: root, Parallelism: par, Cache: c}
	start := time.Now()
	first, err := ingest.Run(ctx, cfg, nil)
	if err != nil {
		return result{}, err
	}
	r := result{Mode: "incr", FullCacheMs: ms(time.Since(start)), Files: first.Stats.FilesParsed}

	// Change the middle file of the walk: append a comment line.
	wr, err := walk.Walk(ctx, root, walk.Options{})
	if err != nil {
		return result{}, err
	}
	f := wr.Files[len(wr.Files)/2]
	comment := "\n// m1nd benchmark edit\n"
	if strings.HasSuffix(f.Rel, ".py") {
		comment = "\n# m1nd benchmark edit\n"
	}
	fh, err := os.OpenFile(f.Abs, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return result{}, err
	}
	fh.WriteString(comment)
	fh.Close()
	later := time.Now().Add(time.Minute)
	os.Chtimes(f.Abs, later, later)

	cfg.Incremental = true
	if incrProfile != "" {
		if f, err := os.Create(incrProfile); err == nil {
			pprof.StartCPUProfile(f)
		}
	}
	start = time.Now()
	second, err := ingest.Run(ctx, cfg, first.Graph)
	if err != nil {
		return result{}, err
	}
	r.IncrMs = ms(time.Since(start))
	if incrProfile != "" {
		pprof.StopCPUProfile()
	}
	r.IncrPhases = second.Stats.PhaseMs
	if inc := second.Stats.Incremental; inc != nil {
		r.Reused, r.Changed = inc.Reused, inc.Changed
		r.Patched, r.RebuildReason = inc.Patched, inc.RebuildReason
		if inc.Full {
			return r, fmt.Errorf("incremental ran in full: %s", inc.FullReason)
		}
	}
	start = time.Now()
	if _, err := ingest.Run(ctx, cfg, second.Graph); err != nil {
		return result{}, err
	}
	r.NoopMs = ms(time.Since(start))

	// A new file next to the edited one: the rebuild path.
	added := filepath.Join(filepath.Dir(f.Abs), "m1nd_bench_added"+filepath.Ext(f.Abs))
	body := "package " + filepath.Base(filepath.Dir(f.Abs)) + "\n\nfunc M1ndBenchAdded() {}\n"
	if strings.HasSuffix(f.Rel, ".py") {
		body = "def m1nd_bench_added():\n    return 1\n"
	}
	if err := os.WriteFile(added, []byte(body), 0o644); err != nil {
		return result{}, err
	}
	start = time.Now()
	third, err := ingest.Run(ctx, cfg, second.Graph)
	if err != nil {
		return result{}, err
	}
	r.AddMs = ms(time.Since(start))

	cold := cfg
	cold.Cache = nil
	cold.CacheDir = cacheDir
	start = time.Now()
	if _, err := ingest.Run(ctx, cold, third.Graph); err != nil {
		return result{}, err
	}
	r.ColdMs = ms(time.Since(start))
	r.WallMs = r.IncrMs
	return r, nil
}

// bareParse walks with the same rules, reads each file and parses it with
// tree-sitter, nothing else, with the same parallelism as the ingest.
func bareParse(ctx context.Context, dir string, par int) (result, error) {
	runtime.GC()
	start := time.Now()
	wr, err := walk.Walk(ctx, dir, walk.Options{})
	if err != nil {
		return result{}, err
	}
	langs := map[string]*ts.Language{
		".py": ts.NewLanguage(tspy.Language()), ".pyi": ts.NewLanguage(tspy.Language()),
		".go": ts.NewLanguage(tsgo.Language()),
		".js": ts.NewLanguage(tsjs.Language()), ".jsx": ts.NewLanguage(tsjs.Language()), ".mjs": ts.NewLanguage(tsjs.Language()), ".cjs": ts.NewLanguage(tsjs.Language()),
		".ts": ts.NewLanguage(tsts.LanguageTypescript()), ".tsx": ts.NewLanguage(tsts.LanguageTSX()),
		".rs": ts.NewLanguage(tsrust.Language()), ".java": ts.NewLanguage(tsjava.Language()),
	}
	var files, skipped atomic.Int64
	var bytes atomic.Int64
	g, _ := errgroup.WithContext(ctx)
	g.SetLimit(par)
	parsers := make(chan *ts.Parser, par)
	for range par {
		parsers <- ts.NewParser()
	}
	for _, f := range wr.Files {
		lang := langs[f.Ext]
		if lang == nil {
			skipped.Add(1)
			continue
		}
		g.Go(func() error {
			data, err := os.ReadFile(f.Abs)
			if err != nil || walk.Classify(data) != walk.Text {
				return nil
			}
			p := <-parsers
			defer func() { parsers <- p }()
			if err := p.SetLanguage(lang); err != nil {
				return err
			}
			tree := p.Parse(data, nil)
			if tree != nil {
				tree.Close()
			}
			files.Add(1)
			bytes.Add(int64(len(data)))
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return result{}, err
	}
	return result{Mode: "parse", WallMs: ms(time.Since(start)), Files: int(files.Load()), Bytes: bytes.Load(), Skipped: int(skipped.Load())}, nil
}

// answerSession is one session of -child answer.
type answerSession struct {
	Mode string `json:"mode"`
	// ParseMs is the bare parse's wall (bareParse) just before the
	// session, in the same process.
	ParseMs float64 `json:"parse_ms"`
	// AnswerMs is the ingest call's wall through the server's dispatcher,
	// a durable (journaled) replace into a fresh runtime directory.
	AnswerMs float64 `json:"answer_ms"`
	Ratio    float64 `json:"ratio"`
	// AnswerCPUMs is this process's CPU from the call to its answer.
	AnswerCPUMs float64 `json:"answer_cpu_ms"`
	// AllocMB and GCs are what the process allocated and the
	// collections that ended from the call to its answer.
	AllocMB float64 `json:"alloc_mb"`
	GCs     uint64  `json:"gcs"`
	// SeekMs is a seek sent the moment the answer returned.
	SeekMs float64            `json:"seek_ms"`
	Phases map[string]float64 `json:"phases,omitempty"`
	// PeakRSSMB is the process's VmHWM after the seek: over all its
	// sessions so far (one session a process for a session's own).
	PeakRSSMB float64 `json:"peak_rss_mb"`
}

// answers runs sessions times, in this process: a bare parse of dir
// (bareParse), a collection and 200 ms of quiet, then a full ingest of dir
// through the dispatcher of a fresh persistent server (mcpserver.Open
// with its own runtime directory: the answer comes after the journal's
// fsync), then the first seek. One JSON line a session: the answer beside
// the bare parse of the same process and moment, so the host's drift
// falls on both (issue 29's py-335 target: answer ≤ 1.1× the parse).
func answers(w io.Writer, dir string, par, sessions int) error {
	ctx := context.Background()
	enc := json.NewEncoder(w)
	for range sessions {
		// The previous session's server may still be cutting or indexing
		// after its answer (its Close does not wait for that): let it end
		// so the bare parse does not pay for it.
		time.Sleep(300 * time.Millisecond)
		p, err := bareParse(ctx, dir, par)
		if err != nil {
			return err
		}
		runtime.GC()
		time.Sleep(200 * time.Millisecond)
		rt, err := os.MkdirTemp("", "m1nd-answer-")
		if err != nil {
			return err
		}
		d, err := mcpserver.Open(ctx, mcpserver.Options{RuntimeDir: rt, AllowRoots: []string{dir}}, func(string) string { return "" }, func(string, ...any) {})
		if err != nil {
			os.RemoveAll(rt)
			return err
		}
		raw, _ := json.Marshal(map[string]any{"agent_id": "bench", "path": dir, "mode": "replace"})
		cpu0 := cpuMs()
		alloc0, gcs0 := heapAllocs()
		start := time.Now()
		res := d.Call(ctx, "ingest", raw, nil)
		answer := time.Since(start)
		cpu := cpuMs() - cpu0
		alloc1, gcs1 := heapAllocs()
		if res.IsError {
			d.Session.Close()
			os.RemoveAll(rt)
			return fmt.Errorf("ingest: %s", res.Text())
		}
		var out struct {
			Stats struct {
				PhaseMs map[string]float64 `json:"phase_ms"`
			} `json:"stats"`
		}
		_ = json.Unmarshal([]byte(res.Text()), &out)
		q, _ := json.Marshal(map[string]any{"agent_id": "bench", "query": "parse the configuration file"})
		start = time.Now()
		sres := d.Call(ctx, "seek", q, nil)
		seek := time.Since(start)
		d.Session.Close()
		os.RemoveAll(rt)
		if sres.IsError {
			return fmt.Errorf("seek: %s", sres.Text())
		}
		enc.Encode(answerSession{Mode: "answer", ParseMs: p.WallMs, AnswerMs: ms(answer), Ratio: ms(answer) / p.WallMs,
			AnswerCPUMs: cpu, AllocMB: float64(alloc1-alloc0) / (1 << 20), GCs: gcs1 - gcs0, SeekMs: ms(seek), Phases: out.Stats.PhaseMs, PeakRSSMB: vmHWM()})
	}
	return nil
}

// heapAllocs is what the heap allocated so far and the collections that
// ended.
func heapAllocs() (bytes, gcs uint64) {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// cpuMs is this process's user and system CPU so far.
func cpuMs() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

func ctags(dir string, runs int) string {
	bin, err := exec.LookPath("ctags")
	if err != nil {
		return "n/a"
	}
	bestMs := -1.0
	for range runs {
		start := time.Now()
		cmd := exec.Command(bin, "-R", "-f", os.DevNull, dir)
		if err := cmd.Run(); err != nil {
			return "error: " + err.Error()
		}
		if d := ms(time.Since(start)); bestMs < 0 || d < bestMs {
			bestMs = d
		}
	}
	return fmt.Sprintf("%.0f", bestMs)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// vmHWM is the peak resident set size of this process in MB.
func vmHWM() float64 {
	st, _ := localize.ReadProcStatus(os.Getpid())
	return st.PeakRSSMB
}

func cpuModel() string {
	data, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "model name"); ok {
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
		}
	}
	return "unknown CPU"
}

func loadavg() string {
	data, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(data))
	if len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "?"
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(target)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}
