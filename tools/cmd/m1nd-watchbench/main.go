// Command m1nd-watchbench measures the watcher daemon through the real
// server: from a write on disk to the first query that sees it (p50/p90),
// the cost of a reconciliation per kind of change (edit, add, delete,
// rename, 64 files at once) next to a full ingest, and the server's CPU
// while idle with the daemon on.
//
//	m1nd-watchbench -server bin/m1nd-mcp -corpus /tmp/m1nd-corpora/go-std -n 30
package main

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/tools/localize"
)

func main() {
	server := flag.String("server", "", "m1nd-mcp binary")
	corpus := flag.String("corpus", "", "tree to copy and watch (Go sources: probes are Go functions)")
	n := flag.Int("n", 30, "writes timed")
	idle := flag.Duration("idle", 10*time.Second, "idle period for the CPU reading")
	stepGap = flag.Duration("step-gap", 300*time.Millisecond, "pause before each change of the reconciliation table (the daemon was restarted after the previous one)")
	probe := flag.String("probe", "impact", "query polled until the write is visible: impact (of the new function's node: a miss costs a scan of every label) or symbols (surgical_context of the written file: is the function among its symbols)")
	poll := flag.String("poll", "status", "what is polled after a write: status (daemon_status, cheap, until a tick has ended; then the probe query) or query (the probe query itself, back to back on the cores the tick needs)")
	autoPersist := flag.Int("auto-persist-interval", 0, "the server's auto_persist_interval (M1ND_AUTO_PERSIST_INTERVAL; -1: its default of a save every 50 calls). 0 by default: the bench's polling makes hundreds of calls a second, and a save of the whole graph every 50 of them would be the harness's load, not an agent's")
	settle := flag.Bool("settle", true, "before the writes, wait until the server is idle (the indexes an ingest builds in the background)")
	burst = flag.Int("burst", 0, "at the end, create this many new Go files at once under the running daemon (e.g. 10000) and report how long until the graph holds them all, the latency of health calls meanwhile and the server's peak RSS")
	flag.Parse()
	if (*probe != "impact" && *probe != "symbols") || (*poll != "status" && *poll != "query") {
		fmt.Fprintln(os.Stderr, "m1nd-watchbench: -probe is impact or symbols, -poll status or query")
		os.Exit(2)
	}
	if *autoPersist >= 0 {
		os.Setenv("M1ND_AUTO_PERSIST_INTERVAL", strconv.Itoa(*autoPersist))
	}
	if err := run(*server, *corpus, *n, *idle, *probe, *poll, *settle); err != nil {
		fmt.Fprintln(os.Stderr, "m1nd-watchbench:", err)
		os.Exit(1)
	}
}

// burst is -burst: files created at once at the end (0: none).
var burst *int

func run(server, corpus string, n int, idle time.Duration, probe, poll string, settle bool) error {
	bin, err := localize.FindServer(server)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "m1nd-watchbench-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	root := filepath.Join(work, "tree")
	if out, err := exec.Command("cp", "-r", corpus, root).CombinedOutput(); err != nil {
		return fmt.Errorf("copy: %v %s", err, out)
	}
	var goFiles []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.Contains(p, "testdata") && !strings.HasSuffix(p, "_test.go") {
			goFiles = append(goFiles, p)
		}
		return nil
	})
	slices.Sort(goFiles)
	all := slices.Clone(goFiles)
	c, err := localize.StartFor(bin, root, "--runtime-dir", filepath.Join(work, "rt"))
	if err != nil {
		return err
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.Initialize(ctx); err != nil {
		return err
	}
	var ing struct {
		ElapsedMs float64 `json:"elapsed_ms"`
	}
	if err := c.CallTool(ctx, "ingest", map[string]any{"agent_id": "wb", "path": root}, &ing); err != nil {
		return err
	}
	fmt.Printf("corpus %s: %d Go files, full ingest %.0f ms\n\n", corpus, len(goFiles), ing.ElapsedMs)
	var st map[string]any
	if err := c.CallTool(ctx, "daemon_start", map[string]any{"agent_id": "wb"}, &st); err != nil {
		return err
	}
	fmt.Printf("watcher backend: %v %v\n\n", st["watcher_backend"], st["watcher_note"])
	rel := func(p string) string { r, _ := filepath.Rel(root, p); return filepath.ToSlash(r) }
	sees := func(id string) bool {
		return c.CallTool(ctx, "impact", map[string]any{"agent_id": "wb", "node_id": id, "top_k": 1}, nil) == nil
	}
	// hasSymbol asks the graph for the symbols of file and looks for name.
	hasSymbol := func(file, name string) bool {
		var sc struct {
			Symbols []struct {
				Label string `json:"label"`
			} `json:"symbols"`
		}
		if err := c.CallTool(ctx, "surgical_context", map[string]any{"agent_id": "wb", "file_path": file, "max_source_bytes": 1024, "max_neighbors": 1}, &sc); err != nil {
			fmt.Fprintln(os.Stderr, "surgical_context:", err)
			return false
		}
		return slices.ContainsFunc(sc.Symbols, func(s struct {
			Label string `json:"label"`
		}) bool {
			return s.Label == name
		})
	}
	visible := func(f, name string) bool {
		if probe == "symbols" {
			return hasSymbol(f, name)
		}
		return sees("file::" + rel(f) + "::" + name)
	}
	// Probes go to files the graph holds (vendor/ is skipped by default).
	var probes []string
	for i := 0; len(probes) < n+1 && i < 50*n; i++ {
		f := goFiles[(i*7919)%len(goFiles)]
		if !slices.Contains(probes, f) && sees("file::"+rel(f)) {
			probes = append(probes, f)
		}
	}
	if len(probes) < n+1 {
		return fmt.Errorf("only %d probe files found in the graph", len(probes))
	}
	goFiles = probes
	// The probe's own cost: a query for a node not (yet) in the graph, and
	// for one that is. The latency loop below polls with the first until it
	// becomes the second, on the cores the daemon's tick runs on.
	if settle {
		t0 := time.Now()
		if err := waitIdle(c.Pid(), 2*time.Minute); err != nil {
			return err
		}
		fmt.Printf("server idle %.1f s after the ingest\n", time.Since(t0).Seconds())
	}
	for _, q := range []struct {
		what string
		do   func() bool
	}{
		{"impact of a node not in the graph", func() bool { return sees("file::" + rel(goFiles[0]) + "::M1ndNoSuchNode") }},
		{"impact of a node in the graph", func() bool { return sees("file::" + rel(goFiles[0])) }},
		{"surgical_context symbols", func() bool { return hasSymbol(goFiles[0], "M1ndNoSuchNode") }},
	} {
		t0 := time.Now()
		q.do()
		fmt.Printf("probe cost, %s: %.1f ms\n", q.what, ms(time.Since(t0)))
	}
	fmt.Printf("probe: %s, polled by %s; M1ND_AUTO_PERSIST_INTERVAL=%q\n", probe, poll, os.Getenv("M1ND_AUTO_PERSIST_INTERVAL"))
	type status struct {
		TickCount          int     `json:"tick_count"`
		LastTickDurationMs float64 `json:"last_tick_duration_ms"`
	}
	daemonStatus := func() (st status) {
		c.CallTool(ctx, "daemon_status", map[string]any{"agent_id": "wb"}, &st)
		return st
	}
	// 1. write → query latency, and the daemon's tick that made it visible.
	var lat, ticks []time.Duration
	for i := 0; i < n; i++ {
		f := goFiles[i+1]
		name := "M1ndWatchProbe" + strconv.Itoa(i)
		fh, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		before := daemonStatus().TickCount
		t0 := time.Now()
		fmt.Fprintf(fh, "\nfunc %s() {}\n", name)
		fh.Close()
		for {
			// With -poll status the query is asked only once a tick has
			// ended since the write: an agent asks once, it does not
			// keep the cores busy while the daemon works.
			if (poll == "query" || daemonStatus().TickCount > before) && visible(f, name) {
				break
			}
			if time.Since(t0) > time.Minute {
				return fmt.Errorf("%s never became visible in %s", name, rel(f))
			}
			time.Sleep(2 * time.Millisecond)
		}
		lat = append(lat, time.Since(t0))
		ticks = append(ticks, time.Duration(daemonStatus().LastTickDurationMs*float64(time.Millisecond)))
		time.Sleep(200 * time.Millisecond)
	}
	fmt.Printf("in order (ms):")
	for _, l := range lat {
		fmt.Printf(" %.0f", ms(l))
	}
	fmt.Println()
	slices.Sort(lat)
	fmt.Printf("write → visible to a query (n=%d): p50 %.0f ms, p90 %.0f ms, max %.0f ms\n", n, ms(lat[len(lat)/2]), ms(lat[len(lat)*9/10]), ms(lat[len(lat)-1]))
	if len(ticks) > 0 {
		slices.Sort(ticks)
		fmt.Printf("the last tick before each query saw it: p50 %.0f ms, p90 %.0f ms\n", ms(ticks[len(ticks)/2]), ms(ticks[len(ticks)*9/10]))
	}
	fmt.Println()

	// 2. Reconciliation cost per kind of change.
	tick := func(label string, change func() error) error {
		time.Sleep(*stepGap)
		if err := c.CallTool(ctx, "daemon_stop", map[string]any{"agent_id": "wb"}, nil); err != nil {
			return err
		}
		if err := change(); err != nil {
			return err
		}
		var tr struct {
			DurationMs float64 `json:"duration_ms"`
			Files      int     `json:"files_reingested"`
			Updates    []struct {
				PhaseMs map[string]float64 `json:"phase_ms"`
			} `json:"updates"`
		}
		if err := c.CallTool(ctx, "daemon_tick", map[string]any{"agent_id": "wb"}, &tr); err != nil {
			return err
		}
		var phases []string
		for _, u := range tr.Updates {
			for _, k := range slices.Sorted(maps.Keys(u.PhaseMs)) {
				phases = append(phases, fmt.Sprintf("%s %.0f", k, u.PhaseMs[k]))
			}
		}
		fmt.Printf("| %s | %d | %.0f | %.1f %% | %s |\n", label, tr.Files, tr.DurationMs, 100*tr.DurationMs/ing.ElapsedMs, strings.Join(phases, ", "))
		return c.CallTool(ctx, "daemon_start", map[string]any{"agent_id": "wb"}, nil)
	}
	fmt.Println("| change | files | tick ms | of a full ingest | the reingest's phases, ms |\n|---|---|---|---|---|")
	dir := filepath.Dir(goFiles[0])
	steps := []struct {
		label string
		do    func() error
	}{
		{"edit 1 file", func() error { return appendTo(goFiles[1], "\nfunc M1ndEdit() {}\n") }},
		{"add 1 file", func() error {
			return os.WriteFile(filepath.Join(dir, "m1nd_added.go"), []byte("package "+pkgOf(goFiles[0])+"\n\nfunc M1ndAdded() {}\n"), 0o644)
		}},
		{"rename 1 file", func() error {
			return os.Rename(filepath.Join(dir, "m1nd_added.go"), filepath.Join(dir, "m1nd_renamed.go"))
		}},
		{"delete 1 file", func() error { return os.Remove(filepath.Join(dir, "m1nd_renamed.go")) }},
		{"edit 64 files", func() error {
			for i := 0; i < 64; i++ {
				if err := appendTo(all[(i*131)%len(all)], "\nfunc M1ndBulk"+strconv.Itoa(i)+"() {}\n"); err != nil {
					return err
				}
			}
			return nil
		}},
	}
	for _, s := range steps {
		if err := tick(s.label, s.do); err != nil {
			return err
		}
	}

	if *burst > 0 {
		if err := burstFiles(ctx, c, root, *burst, sees); err != nil {
			return err
		}
	}

	// 3. Idle CPU with the daemon on, once the save the daemon defers
	// until the tree is quiet (2 s) has run.
	time.Sleep(8 * time.Second)
	before, err := cpuTicks(c.Pid())
	if err != nil {
		return err
	}
	time.Sleep(idle)
	after, _ := cpuTicks(c.Pid())
	fmt.Printf("\nidle %v with the daemon on: %.2f %% of one core\n", idle, 100*float64(after-before)/100/idle.Seconds())
	return nil
}

func appendTo(p, s string) error {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func pkgOf(p string) string {
	data, _ := os.ReadFile(p)
	for _, l := range strings.Split(string(data), "\n") {
		if name, ok := strings.CutPrefix(l, "package "); ok {
			return strings.TrimSpace(name)
		}
	}
	return "main"
}

// waitIdle waits until pid has used under 5 % of a core for a second.
func waitIdle(pid int, limit time.Duration) error {
	t0 := time.Now()
	for time.Since(t0) < limit {
		a, err := cpuTicks(pid)
		if err != nil {
			return err
		}
		time.Sleep(time.Second)
		b, _ := cpuTicks(pid)
		if b-a < 5 {
			return nil
		}
	}
	return fmt.Errorf("server still busy %v after the ingest", limit)
}

// cpuTicks reads utime+stime (clock ticks, 100/s) of pid.
func cpuTicks(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return u + s, nil
}

var stepGap *time.Duration

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// burstFiles creates n new Go files at once in new directories (100 per
// directory) under the running daemon, then asks health again and again
// until the graph holds the last file and a sample of the others: how
// long the daemon takes to catch up, and whether the server keeps
// answering meanwhile.
func burstFiles(ctx context.Context, c *localize.Client, root string, n int, sees func(string) bool) error {
	t0 := time.Now()
	var names []string
	for i := range n {
		rel := fmt.Sprintf("m1nd_burst/d%03d/f%05d.go", i/100, i)
		p := filepath.Join(root, filepath.FromSlash(rel))
		if i%100 == 0 {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
		}
		body := fmt.Sprintf("package d%03d\n\nfunc Burst%05d() int { return %d }\n", i/100, i, i)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return err
		}
		names = append(names, rel)
	}
	wrote := time.Since(t0)
	var health []time.Duration
	sample := []string{names[0], names[n/2], names[n-1]}
	for {
		h0 := time.Now()
		if err := c.CallTool(ctx, "health", map[string]any{"agent_id": "wb"}, nil); err != nil {
			return fmt.Errorf("health during the burst: %w", err)
		}
		health = append(health, time.Since(h0))
		if !slices.ContainsFunc(sample, func(r string) bool { return !sees("file::" + r) }) {
			break
		}
		if time.Since(t0) > 10*time.Minute {
			return fmt.Errorf("after 10 minutes the graph still lacks some of the %d files", n)
		}
		time.Sleep(100 * time.Millisecond)
	}
	seen := time.Since(t0)
	missing := 0
	for i := 0; i < n; i += max(1, n/200) {
		if !sees("file::" + names[i]) {
			missing++
		}
	}
	slices.Sort(health)
	fmt.Printf("\nburst: %d new files written in %.1f s; all in the graph %.1f s after the first write (sampled 200: %d missing); health during the catch-up: %d calls, p50 %.0f ms, max %.0f ms; server peak RSS %s\n",
		n, wrote.Seconds(), seen.Seconds(), missing, len(health), ms(health[len(health)/2]), ms(health[len(health)-1]), peakRSS(c.Pid()))
	return nil
}

// peakRSS is the process's VmHWM as /proc reports it ("?" elsewhere).
func peakRSS(pid int) string {
	st, err := localize.ReadProcStatus(pid)
	if err != nil {
		return "?"
	}
	return fmt.Sprintf("%.0f MB", st.PeakRSSMB)
}
