// Command m1nd-scalebench measures how m1nd grows with the size of the
// code it serves: for each tree it starts m1nd-mcp, ingests the tree as
// one root over stdio, and records the ingest's wall time (the answer
// comes after the durable save), the server's peak and final resident
// set, its Go heap, the snapshot on disk, bytes per node and per edge,
// the seeks a client asks at given delays after the ingest's answer
// (-seek-at; the first of them is the first seek, which may wait for
// the indexes built behind the answer), the pages the machine swapped
// out meanwhile, and the p50 of activate, seek and impact. It then fits
// the growth exponent of each figure against the lines of source code
// (least squares on log–log).
//
//	m1nd-scalebench -server bin/m1nd-mcp -n 30 -seek-at 0s,3s \
//	  -tree py-335=/tmp/m1nd-corpora/py-335 -tree go-std=/tmp/m1nd-corpora/go-std \
//	  -o benchmarks/results/scaling.md
//
// -count prints each tree's source files and lines and starts no server
// (to size a tree before a long run).
//
// Each tree gets a fresh server and runtime directory, so a peak belongs
// to that tree alone. It exits 1 when a measurement fails, 2 on bad
// flags or a missing tree.
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/ingest/walk"
	"github.com/m1nd-go/m1nd/tools/localize"
)

// queries are asked of every tree, whatever its language: the words of
// an agent's first questions about an unknown repository.
var queries = []string{
	"parse the request header", "open a file and read its lines", "encode json",
	"handle a timeout or cancellation", "compare two strings", "sort a list of items",
	"start a worker thread", "log an error message",
}

// A tree is ingested as one root, or (split, written name=dir/*) as
// one root per immediate subdirectory, merged into one graph: one
// ingest stops at its budgets (ingest.Config: 500,000 nodes, 300 s), so
// a tree past them is served as several roots.
type tree struct {
	name, dir string
	split     bool
}

type trees []tree

func (t *trees) String() string { return fmt.Sprint(*t) }
func (t *trees) Set(v string) error {
	name, dir, ok := strings.Cut(v, "=")
	if !ok || name == "" || dir == "" {
		return fmt.Errorf("a tree is name=directory, e.g. go-std=/tmp/m1nd-corpora/go-std (got %q)", v)
	}
	dir, split := strings.CutSuffix(dir, "/*")
	*t = append(*t, tree{name, dir, split})
	return nil
}

// Row is one tree's figures.
type Row struct {
	Name                  string
	Files, Lines          int
	Nodes, Edges          int
	IngestMs              float64
	PeakRSSMB, RSSMB      float64
	HeapMB, SnapshotMB    float64
	FirstSeekMs           float64   // SeekAtMs[0]: kept for the exponent fit
	SeekAtMs              []float64 // one per -seek-at delay
	Activate, Seek, Impct float64   // p50 ms
	// FirstActivate and FirstImpact are the first call of each after
	// the ingest (the p50's calls include it): a call that builds
	// something lazily pays for it here.
	FirstActivate, FirstImpact float64
	SwapOutPages               int64     // /proc/vmstat pswpout, after − before the tree
	SwapMB                     float64   // the server's VmSwap at the end
	LoadStart                  string    // 1-min load average as the tree started
	Roots, FilesIngested       int       // ingest calls and their files_processed
	Partial                    string    // budgets that cut an ingest ("" when none did)
	RootMs                     []float64 // each ingest call's time, in root order
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("m1nd-scalebench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	server := fs.String("server", "bin/m1nd-mcp", "the m1nd-mcp binary")
	n := fs.Int("n", 30, "calls per query tool and tree")
	out := fs.String("o", "", "append the markdown report to this file")
	seekAt := fs.String("seek-at", "0s", "delays after the ingest's answer at which a seek is asked, comma-separated (e.g. 0s,3s); each asks a different query, the first is the first seek")
	firstTool := fs.String("first-tool", "seek", "the tool asked at the -seek-at delays: seek, or activate (to time the first activate after the ingest)")
	count := fs.Bool("count", false, "only count each tree's source files and lines (no server)")
	var b budgets
	fs.IntVar(&b.maxNodes, "max-nodes", 0, "each ingest call's node budget (ingest's max_nodes; 0: the server's, 500000 by default)")
	fs.IntVar(&b.timeoutS, "timeout-s", 0, "each ingest call's time budget in seconds (ingest's timeout_s; 0: the server's, 300 by default)")
	var ts trees
	fs.Var(&ts, "tree", "name=directory of a tree to ingest as one root, or name=directory/* for one root per subdirectory merged into one graph (repeatable, smallest first)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	delays, err := parseDelays(*seekAt)
	if err != nil {
		fmt.Fprintln(stderr, "m1nd-scalebench:", err)
		return 2
	}
	if *firstTool != "seek" && *firstTool != "activate" {
		fmt.Fprintf(stderr, "m1nd-scalebench: -first-tool is seek or activate (got %q), e.g. -first-tool activate -seek-at 0s\n", *firstTool)
		return 2
	}
	if len(ts) == 0 || *n < 1 {
		fmt.Fprintln(stderr, "m1nd-scalebench: give at least one -tree name=dir and -n ≥ 1, e.g. -tree py-335=/tmp/m1nd-corpora/py-335")
		return 2
	}
	for _, t := range ts {
		if st, err := os.Stat(t.dir); err != nil || !st.IsDir() {
			fmt.Fprintf(stderr, "m1nd-scalebench: tree %s: %s is not a directory (python3 benchmarks/corpora/corpora.py builds the corpora)\n", t.name, t.dir)
			return 2
		}
	}
	if *count {
		return printCounts(ts, stdout, stderr)
	}
	var rows []Row
	for _, t := range ts {
		r, err := measure(*server, t, *n, delays, *firstTool, b, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "m1nd-scalebench: %s: %v\n", t.name, err)
			return 1
		}
		fmt.Fprintf(stderr, "%s: %+v\n", t.name, r)
		rows = append(rows, r)
	}
	report := render(rows, delays)
	fmt.Fprint(stdout, report)
	if *out != "" {
		if err := appendFile(*out, report); err != nil {
			fmt.Fprintln(stderr, "m1nd-scalebench:", err)
			return 1
		}
	}
	return 0
}

// measure ingests one tree in a fresh server and asks it the queries.
func measure(server string, t tree, n int, delays []time.Duration, firstTool string, b budgets, log io.Writer) (Row, error) {
	r := Row{Name: t.name, LoadStart: loadAvg1()}
	var err error
	if r.Files, r.Lines, err = countLines(t.dir); err != nil {
		return r, err
	}
	rt, err := os.MkdirTemp("", "m1nd-scalebench-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(rt)
	swapBefore, swapErr := readSwapOut()
	c, err := localize.StartFor(server, t.dir, "--runtime-dir", rt)
	if err != nil {
		return r, err
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.Initialize(ctx); err != nil {
		return r, err
	}
	if err := ingestTree(ctx, c, t, b, &r); err != nil {
		return r, err
	}
	fmt.Fprintf(log, "%s: %d files, %d lines, %d roots, %d files ingested, ingested in %.0f ms (each call: %.0f)%s\n",
		t.name, r.Files, r.Lines, r.Roots, r.FilesIngested, r.IngestMs, r.RootMs, partialNote(r.Partial))
	seek := func(q string) error {
		return c.CallTool(ctx, firstTool, map[string]any{"agent_id": "bench", "query": q}, nil)
	}
	if r.SeekAtMs, err = seeksAt(time.Now(), delays, seek, time.Sleep); err != nil {
		return r, err
	}
	r.FirstSeekMs = r.SeekAtMs[0]
	if err := askQueries(ctx, c, n, &r); err != nil {
		return r, err
	}
	if err := readMemory(ctx, c, rt, &r); err != nil {
		return r, err
	}
	// No swap reading (no /proc/vmstat) is reported as -1, not as "none".
	r.SwapOutPages = -1
	if swapAfter, err := readSwapOut(); err == nil && swapErr == nil {
		r.SwapOutPages = swapAfter - swapBefore
	}
	return r, nil
}

// askQueries times n calls of activate, seek and impact each; impact
// asks about the files seek found.
func askQueries(ctx context.Context, c *localize.Client, n int, r *Row) error {
	var targets []string
	seekTimes, actTimes, impTimes := make([]float64, 0, n), make([]float64, 0, n), make([]float64, 0, n)
	for i := range n {
		q := queries[i%len(queries)]
		var sk struct {
			Results []struct {
				NodeID string `json:"node_id"`
			} `json:"results"`
		}
		t := time.Now()
		if err := c.CallTool(ctx, "seek", map[string]any{"agent_id": "bench", "query": q, "top_k": 10}, &sk); err != nil {
			return err
		}
		seekTimes = append(seekTimes, ms(time.Since(t)))
		if len(sk.Results) > 0 {
			targets = append(targets, sk.Results[0].NodeID)
		}
		t = time.Now()
		if err := c.CallTool(ctx, "activate", map[string]any{"agent_id": "bench", "query": q}, nil); err != nil {
			return err
		}
		actTimes = append(actTimes, ms(time.Since(t)))
	}
	if len(targets) == 0 {
		return errors.New("seek found nothing to ask impact about")
	}
	for i := range n {
		t := time.Now()
		if err := c.CallTool(ctx, "impact", map[string]any{"agent_id": "bench", "node_id": targets[i%len(targets)]}, nil); err != nil {
			return err
		}
		impTimes = append(impTimes, ms(time.Since(t)))
	}
	r.Seek, r.Activate, r.Impct = median(seekTimes), median(actTimes), median(impTimes)
	r.FirstActivate, r.FirstImpact = actTimes[0], impTimes[0]
	return nil
}

// readMemory reads the server's heap, resident set and snapshot size.
func readMemory(ctx context.Context, c *localize.Client, rt string, r *Row) error {
	var h struct {
		Memory struct {
			Heap uint64 `json:"heap_alloc"`
		} `json:"memory"`
	}
	if err := c.CallTool(ctx, "health", map[string]any{"agent_id": "bench"}, &h); err != nil {
		return err
	}
	r.HeapMB = float64(h.Memory.Heap) / (1 << 20)
	st, err := localize.ReadProcStatus(c.Pid())
	if err != nil {
		return err
	}
	r.PeakRSSMB, r.RSSMB = st.PeakRSSMB, st.RSSMB
	r.SwapMB, _ = readVmSwapMB(c.Pid())
	filepath.WalkDir(rt, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), "graph") {
			if info, err := d.Info(); err == nil {
				r.SnapshotMB += float64(info.Size()) / (1 << 20)
			}
		}
		return nil
	})
	return nil
}

// countLines counts the source files the ingest walk takes and their
// lines.
func countLines(dir string) (files, lines int, err error) {
	wr, err := walk.Walk(context.Background(), dir, walk.Options{MaxFiles: -1, MaxTotalBytes: -1})
	if err != nil {
		return 0, 0, err
	}
	for _, f := range wr.Files {
		if !localize.IsSource(f.Rel) {
			continue
		}
		data, err := os.ReadFile(f.Abs)
		if err != nil {
			continue
		}
		files++
		lines += strings.Count(string(data), "\n")
	}
	return files, lines, nil
}

func render(rows []Row, delays []time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n## Run of %s\n\nMachine: %d CPUs, %s, load average at the end: %s.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), runtime.NumCPU(), runtime.Version(), loadAvg3())
	b.WriteString("| tree | load at start | source files | lines | nodes | edges | ingest s | peak RSS MB | RSS after MB | Go heap MB | heap B/(node+edge) | snapshot MB | snapshot B/(node+edge) |")
	for _, d := range delays {
		fmt.Fprintf(&b, " seek @%s ms |", d)
	}
	b.WriteString(" 1st activate ms | 1st impact ms | activate p50 ms | seek p50 ms | impact p50 ms | pages swapped out | server VmSwap MB | roots | files ingested | cut by a budget |\n|---|---|")
	b.WriteString(strings.Repeat("---:|", 20+len(delays)) + "---|\n")
	for _, r := range rows {
		el := float64(r.Nodes + r.Edges)
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %.2f | %.0f | %.0f | %.0f | %.0f | %.1f | %.0f |",
			r.Name, r.LoadStart, r.Files, r.Lines, r.Nodes, r.Edges, r.IngestMs/1000, r.PeakRSSMB, r.RSSMB, r.HeapMB, r.HeapMB*(1<<20)/el,
			r.SnapshotMB, r.SnapshotMB*(1<<20)/el)
		for i := range delays {
			fmt.Fprintf(&b, " %s |", msCell(r.SeekAtMs, i))
		}
		fmt.Fprintf(&b, " %.1f | %.1f | %.1f | %.1f | %.1f | %s | %.0f | %d | %d | %s |\n", r.FirstActivate, r.FirstImpact, r.Activate, r.Seek, r.Impct, swapCell(r.SwapOutPages), r.SwapMB,
			r.Roots, r.FilesIngested, cmp.Or(r.Partial, "no"))
	}
	b.WriteString(fitLine(rows))
	return b.String()
}

// fitLine fits the growth exponents over the trees ingested whole: a
// tree an ingest budget cut short has the figures of a smaller graph
// than its lines say, and would bend every exponent down.
func fitLine(rows []Row) string {
	var whole []Row
	var cut []string
	for _, r := range rows {
		if r.Partial != "" {
			cut = append(cut, r.Name)
			continue
		}
		whole = append(whole, r)
	}
	rows = whole
	var b strings.Builder
	if len(rows) >= 2 {
		lines := make([]float64, len(rows))
		for i, r := range rows {
			lines[i] = float64(r.Lines)
		}
		fig := func(f func(Row) float64) string {
			ys := make([]float64, len(rows))
			for i, r := range rows {
				ys[i] = f(r)
			}
			return fmt.Sprintf("%.2f", exponent(lines, ys))
		}
		fmt.Fprintf(&b, "\nGrowth exponent against lines (y ∝ lines^k, least squares on log–log): ingest %s, peak RSS %s, nodes+edges %s, activate %s, seek %s, impact %s, first seek %s.\n",
			fig(func(r Row) float64 { return r.IngestMs }), fig(func(r Row) float64 { return r.PeakRSSMB }),
			fig(func(r Row) float64 { return float64(r.Nodes + r.Edges) }), fig(func(r Row) float64 { return r.Activate }),
			fig(func(r Row) float64 { return r.Seek }), fig(func(r Row) float64 { return r.Impct }), fig(func(r Row) float64 { return r.FirstSeekMs }))
	}
	if len(cut) > 0 {
		fmt.Fprintf(&b, "\nLeft out of the fit, cut short by an ingest budget: %s.\n", strings.Join(cut, ", "))
	}
	return b.String()
}

// exponent is the slope of log y against log x (NaN when undefined).
func exponent(xs, ys []float64) float64 {
	var n, sx, sy, sxx, sxy float64
	for i := range xs {
		if xs[i] <= 0 || ys[i] <= 0 {
			continue
		}
		x, y := math.Log(xs[i]), math.Log(ys[i])
		n++
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	if d := n*sxx - sx*sx; n >= 2 && d != 0 {
		return (n*sxy - sx*sy) / d
	}
	return math.NaN()
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
