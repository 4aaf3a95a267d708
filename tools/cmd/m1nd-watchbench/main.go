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
	flag.Parse()
	if err := run(*server, *corpus, *n, *idle); err != nil {
		fmt.Fprintln(os.Stderr, "m1nd-watchbench:", err)
		os.Exit(1)
	}
}

func run(server, corpus string, n int, idle time.Duration) error {
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
	waitSee := func(id string, present bool) (time.Duration, error) {
		t0 := time.Now()
		for time.Since(t0) < 60*time.Second {
			if sees(id) == present {
				return time.Since(t0), nil
			}
			time.Sleep(2 * time.Millisecond)
		}
		return 0, fmt.Errorf("%s never became visible=%v", id, present)
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
	// 1. write → query latency.
	var lat []time.Duration
	for i := 0; i < n; i++ {
		f := goFiles[i+1]
		name := "M1ndWatchProbe" + strconv.Itoa(i)
		fh, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		t0 := time.Now()
		fmt.Fprintf(fh, "\nfunc %s() {}\n", name)
		fh.Close()
		if _, err := waitSee("file::"+rel(f)+"::"+name, true); err != nil {
			return err
		}
		lat = append(lat, time.Since(t0))
		time.Sleep(200 * time.Millisecond)
	}
	slices.Sort(lat)
	fmt.Printf("write → visible to a query (n=%d): p50 %.0f ms, p90 %.0f ms, max %.0f ms\n\n", n, ms(lat[len(lat)/2]), ms(lat[len(lat)*9/10]), ms(lat[len(lat)-1]))

	// 2. Reconciliation cost per kind of change.
	tick := func(label string, change func() error) error {
		time.Sleep(300 * time.Millisecond)
		if err := c.CallTool(ctx, "daemon_stop", map[string]any{"agent_id": "wb"}, nil); err != nil {
			return err
		}
		if err := change(); err != nil {
			return err
		}
		var tr struct {
			DurationMs float64 `json:"duration_ms"`
			Files      int     `json:"files_reingested"`
		}
		if err := c.CallTool(ctx, "daemon_tick", map[string]any{"agent_id": "wb"}, &tr); err != nil {
			return err
		}
		fmt.Printf("| %s | %d | %.0f | %.1f %% |\n", label, tr.Files, tr.DurationMs, 100*tr.DurationMs/ing.ElapsedMs)
		return c.CallTool(ctx, "daemon_start", map[string]any{"agent_id": "wb"}, nil)
	}
	fmt.Println("| change | files | tick ms | of a full ingest |\n|---|---|---|---|")
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

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
