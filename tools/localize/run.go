package localize

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// Methods are the rankings compared, in report order.
var Methods = []string{"bm25", "seek", "seek_files", "seek_lexical", "activate"}

// MethodDoc says what each method is.
var MethodDoc = map[string]string{
	"bm25":         "plain BM25 (k1=1.2, b=0.75) over whole file contents, word tokens; computed by the harness",
	"seek":         "seek, default parameters (graph_rerank on), results mapped to their files in rank order",
	"seek_files":   "seek with node_types [\"file\"]",
	"seek_lexical": "seek with graph_rerank false (lexical + stack-trace evidence only)",
	"activate":     "activate, results mapped to their files in rank order",
}

// Config is one benchmark run.
type Config struct {
	// Repo is the git repository to mine.
	Repo string
	// Server is the m1nd-mcp binary; ServerArgs are passed to it.
	Server     string
	ServerArgs []string
	Mine       MineOptions
	// History checks each parent out with its git history (a local git
	// clone, then checkout) so ingest sees commit history and seek can
	// use co-change; by default only the parent's tree is written.
	History bool
	// TopK is how many results seek and activate are asked for (default
	// 100: enough nodes to cover ten distinct files).
	TopK int
	// TaskTimeout bounds one task (default 10 minutes).
	TaskTimeout time.Duration
	// Log receives progress lines (nil: discarded).
	Log io.Writer
	// Only limits the methods run (nil: all of Methods); bm25 always runs.
	Only []string
	// ActivateArgs are added to every activate call (e.g. trust_weight),
	// so one binary can be measured with a feature on and off.
	ActivateArgs map[string]any
}

// maxActivateQuery keeps activate's query under the server's 8 KiB string
// limit (clip adds 3 bytes): a longer commit message failed the task.
const maxActivateQuery = 8<<10 - 8

// activateArgs are activate's arguments for query: the harness's own,
// then cfg.ActivateArgs (which may not replace agent_id, query or top_k).
func (cfg Config) activateArgs(query string) map[string]any {
	args := map[string]any{}
	for k, v := range cfg.ActivateArgs {
		args[k] = v
	}
	args["agent_id"], args["query"], args["top_k"] = "localize", clip(query, maxActivateQuery), min(cfg.TopK, 500)
	return args
}

// wants reports whether cfg runs method m.
func (cfg Config) wants(m string) bool {
	if len(cfg.Only) == 0 || m == "bm25" {
		return true
	}
	for _, o := range cfg.Only {
		if o == m {
			return true
		}
	}
	return false
}

// TaskResult is one task's outcome.
type TaskResult struct {
	Task
	// Ranked are each method's top 10 files.
	Ranked map[string][]string `json:"ranked"`
	// FirstGoldRank is each method's rank of its first gold file (0: not
	// ranked).
	FirstGoldRank map[string]int    `json:"first_gold_rank"`
	Errors        map[string]string `json:"errors,omitempty"`
	Files         int               `json:"files"`
	Nodes         int               `json:"nodes"`
	IngestMs      float64           `json:"ingest_ms"`
	// SeekMs is seek's own elapsed_ms for the default call (the first
	// seek of a graph includes building its index).
	SeekMs     float64 `json:"seek_ms"`
	SeekWarmMs float64 `json:"seek_warm_ms"`
	// LatencyMs is each method's wall-clock time as the client saw it
	// (request to answer; bm25: index build and query in the harness).
	LatencyMs map[string]float64 `json:"latency_ms"`
}

// Report is a run's result.
type Report struct {
	Repo       string            `json:"repo"`
	Head       string            `json:"head"`
	Started    time.Time         `json:"started"`
	ElapsedS   float64           `json:"elapsed_s"`
	Machine    map[string]string `json:"machine"`
	Options    map[string]any    `json:"options"`
	Tasks      int               `json:"tasks"`
	Scores     map[string]Scores `json:"scores"`
	MethodDocs map[string]string `json:"methods"`
	Results    []TaskResult      `json:"results"`
}

// Run mines cfg.Repo and evaluates every task.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.TopK <= 0 {
		cfg.TopK = 100
	}
	if cfg.TaskTimeout <= 0 {
		cfg.TaskTimeout = 10 * time.Minute
	}
	logf := LogLines(cfg.Log)
	start := time.Now()
	tasks, err := Mine(cfg.Repo, cfg.Mine)
	if err != nil {
		return nil, err
	}
	logf("mined %d tasks from %s", len(tasks), cfg.Repo)
	rep := &Report{
		Repo: cfg.Repo, Started: start.UTC(), Machine: MachineFacts(), Tasks: len(tasks), MethodDocs: MethodDoc,
		Options: map[string]any{
			"max_files": max(cfg.Mine.MaxFiles, 5), "max_tasks": cfg.Mine.MaxTasks, "all_commits": cfg.Mine.AllCommits,
			"history": cfg.History, "top_k": cfg.TopK,
		},
	}
	if len(cfg.ActivateArgs) > 0 {
		rep.Options["activate_args"] = cfg.ActivateArgs
	}
	rev := cfg.Mine.Rev
	if rev == "" {
		rev = "HEAD"
	}
	if out, err := exec.Command("git", "-C", cfg.Repo, "rev-parse", rev).Output(); err == nil {
		rep.Head = strings.TrimSpace(string(out))
	}
	rankings := map[string][][]string{}
	failed := map[string][]bool{}
	for _, m := range Methods {
		rankings[m] = make([][]string, len(tasks))
		failed[m] = make([]bool, len(tasks))
	}
	for i, t := range tasks {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		tctx, cancel := context.WithTimeout(ctx, cfg.TaskTimeout)
		tr, ranked := runTask(tctx, cfg, t)
		cancel()
		for _, m := range Methods {
			if _, bad := tr.Errors[m]; bad {
				failed[m][i] = true
			}
			rankings[m][i] = ranked[m]
		}
		rep.Results = append(rep.Results, tr)
		logf("[%d/%d] %s %q gold=%v ranks=%v %s", i+1, len(tasks), t.Commit[:10], clip(t.Subject, 60), t.Gold, tr.FirstGoldRank, errSummary(tr.Errors))
	}
	rep.Scores = map[string]Scores{}
	for _, m := range Methods {
		rep.Scores[m] = Score(tasks, rankings[m], failed[m])
	}
	rep.ElapsedS = round4(time.Since(start).Seconds())
	return rep, nil
}

func errSummary(errs map[string]string) string {
	if len(errs) == 0 {
		return ""
	}
	var parts []string
	for m, e := range errs {
		parts = append(parts, m+": "+clip(e, 120))
	}
	sort.Strings(parts)
	return "errors: " + strings.Join(parts, "; ")
}

// runTask checks out the parent, ranks with every method, and cleans up.
func runTask(ctx context.Context, cfg Config, t Task) (TaskResult, map[string][]string) {
	tr := TaskResult{Task: t, Ranked: map[string][]string{}, FirstGoldRank: map[string]int{}, Errors: map[string]string{}, LatencyMs: map[string]float64{}}
	timed := func(m string, t0 time.Time) { tr.LatencyMs[m] = round4(float64(time.Since(t0).Microseconds()) / 1000) }
	ranked := map[string][]string{}
	fail := func(methods []string, err error) {
		for _, m := range methods {
			tr.Errors[m] = err.Error()
		}
	}
	dir, err := os.MkdirTemp("", "m1nd-localize-*")
	if err != nil {
		fail(Methods, err)
		return tr, ranked
	}
	defer os.RemoveAll(dir)
	root := filepath.Join(dir, "repo")
	files, err := TreeFiles(cfg.Repo, t.Parent)
	if err == nil {
		if cfg.History {
			err = checkoutWithHistory(cfg.Repo, t.Parent, root)
		} else {
			err = writeTree(root, files)
		}
	}
	if err != nil {
		fail(Methods, fmt.Errorf("checkout %s: %w", t.Parent[:10], err))
		return tr, ranked
	}
	var src []File
	for _, f := range files {
		if IsSource(f.Path) {
			src = append(src, f)
		}
	}
	tr.Files = len(src)
	t0 := time.Now()
	ranked["bm25"] = NewBM25(src).Rank(t.Message, 100)
	timed("bm25", t0)

	serverMethods := Methods[1:]
	c, err := StartFor(cfg.Server, root, cfg.ServerArgs...)
	if err != nil {
		fail(serverMethods, err)
		return finish(tr, ranked)
	}
	defer c.Close()
	if err := c.Initialize(ctx); err != nil {
		fail(serverMethods, err)
		return finish(tr, ranked)
	}
	var ing struct {
		ElapsedMs float64 `json:"elapsed_ms"`
		Graph     struct {
			NodeCount int `json:"node_count"`
		} `json:"graph"`
	}
	if err := c.CallTool(ctx, "ingest", map[string]any{"agent_id": "localize", "path": root}, &ing); err != nil {
		fail(serverMethods, err)
		return finish(tr, ranked)
	}
	tr.IngestMs, tr.Nodes = ing.ElapsedMs, ing.Graph.NodeCount

	// Seek variants first: activate learns (plasticity) and would change
	// the edge weights seek's graph fusion reads.
	type seekOut struct {
		ElapsedMs float64 `json:"elapsed_ms"`
		Results   []struct {
			FilePath string `json:"file_path"`
		} `json:"results"`
	}
	seekVariant := func(name string, extra map[string]any) *seekOut {
		if !cfg.wants(name) {
			return nil
		}
		defer timed(name, time.Now())
		args := map[string]any{"agent_id": "localize", "query": t.Message, "top_k": min(cfg.TopK, 200), "min_score": 0}
		for k, v := range extra {
			args[k] = v
		}
		var so seekOut
		if err := c.CallTool(ctx, "seek", args, &so); err != nil {
			tr.Errors[name] = err.Error()
			return nil
		}
		var fs []string
		for _, r := range so.Results {
			fs = append(fs, r.FilePath)
		}
		ranked[name] = SourceFiles(fs)
		return &so
	}
	if so := seekVariant("seek", nil); so != nil {
		tr.SeekMs = so.ElapsedMs
	}
	seekVariant("seek_files", map[string]any{"node_types": []string{"file"}, "top_k": 20})
	if so := seekVariant("seek_lexical", map[string]any{"graph_rerank": false}); so != nil {
		tr.SeekWarmMs = so.ElapsedMs
	}

	var act struct {
		Activated []struct {
			NodeID     string `json:"node_id"`
			Provenance *struct {
				SourcePath string `json:"source_path"`
			} `json:"provenance"`
		} `json:"activated"`
	}
	if !cfg.wants("activate") {
		return finish(tr, ranked)
	}
	t0 = time.Now()
	err = c.CallTool(ctx, "activate", cfg.activateArgs(t.Message), &act)
	timed("activate", t0)
	if err != nil {
		tr.Errors["activate"] = err.Error()
	} else {
		var fs []string
		for _, a := range act.Activated {
			if a.Provenance != nil {
				fs = append(fs, a.Provenance.SourcePath)
			}
		}
		ranked["activate"] = SourceFiles(fs)
	}
	return finish(tr, ranked)
}

func finish(tr TaskResult, ranked map[string][]string) (TaskResult, map[string][]string) {
	for _, m := range Methods {
		r := ranked[m]
		tr.Ranked[m] = r[:min(10, len(r))]
		tr.FirstGoldRank[m] = 0
		if rr := ReciprocalRank(r, tr.Gold); rr > 0 {
			tr.FirstGoldRank[m] = int(1/rr + 0.5)
		}
	}
	if len(tr.Errors) == 0 {
		tr.Errors = nil
	}
	return tr, ranked
}

// writeTree writes files under root.
func writeTree(root string, files []File) error {
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f.Path))
		if !strings.HasPrefix(p, root+string(filepath.Separator)) {
			continue // a tree entry climbing out: never write it
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// checkoutWithHistory makes root a local clone of repo at commit
// (detached): ingest reads history up to the parent only, nothing later.
// Not --shared: ingest's git reader does not follow alternates, and would
// see no history at all.
func checkoutWithHistory(repo, commit, root string) error {
	if out, err := exec.Command("git", "clone", "--quiet", "--no-checkout", repo, root).CombinedOutput(); err != nil {
		return fmt.Errorf("git clone: %v: %s", err, out)
	}
	if out, err := exec.Command("git", "-C", root, "checkout", "--quiet", "--detach", commit).CombinedOutput(); err != nil {
		return fmt.Errorf("git checkout: %v: %s", err, out)
	}
	return nil
}

// MachineFacts describes the machine for the record.
func MachineFacts() map[string]string {
	m := map[string]string{
		"goos": runtime.GOOS, "goarch": runtime.GOARCH, "go": runtime.Version(),
		"cpus": fmt.Sprint(runtime.NumCPU()),
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				m["cpu"] = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		l, _, _ := strings.Cut(string(b), "\n")
		m["memory"] = strings.Join(strings.Fields(strings.TrimPrefix(l, "MemTotal:")), " ")
	}
	// The server inherits the environment: a run with tuned settings
	// records them, so its figures are not mistaken for the defaults'.
	for _, k := range ServerTuning {
		if v := os.Getenv(k); v != "" {
			m[k] = v
		}
	}
	return m
}

// ServerTuning are the server's environment settings that change answers
// (docs/design.md#configuration); MachineFacts records those set.
var ServerTuning = []string{"M1ND_ACTIVATE_MAX_FIRED", "M1ND_XLR_PULSE_BUDGET", "M1ND_XLR_ENABLED"}

// Markdown renders the report's summary table and per-task ranks.
func (r *Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Repository `%s` at `%s`, %d tasks, %s.\n\n", r.Repo, short(r.Head), r.Tasks, r.Started.Format("2006-01-02"))
	b.WriteString("| method | tasks | Acc@1 | Acc@5 | Acc@10 | MRR | failed |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, m := range Methods {
		s := r.Scores[m]
		fmt.Fprintf(&b, "| %s | %d | %.1f%% | %.1f%% | %.1f%% | %.3f | %d |\n", m, s.Tasks, 100*s.AccAt1, 100*s.AccAt5, 100*s.AccAt10, s.MRR, s.Failed)
	}
	b.WriteString("\nRank of the first gold file per task (– = not in the ranking):\n\n| commit | subject | gold | ")
	b.WriteString(strings.Join(Methods, " | "))
	b.WriteString(" |\n| --- | --- | ---: |")
	b.WriteString(strings.Repeat(" ---: |", len(Methods)))
	b.WriteString("\n")
	for _, t := range r.Results {
		fmt.Fprintf(&b, "| %s | %s | %d |", short(t.Commit), strings.ReplaceAll(clip(t.Subject, 60), "|", "/"), len(t.Gold))
		for _, m := range Methods {
			if rk := t.FirstGoldRank[m]; rk > 0 {
				fmt.Fprintf(&b, " %d |", rk)
			} else {
				b.WriteString(" – |")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

func short(h string) string {
	if len(h) > 10 {
		return h[:10]
	}
	return h
}

// LogLines returns a logf that writes each call to w as one line (a
// run's progress); with w nil it writes nothing.
func LogLines(w io.Writer) func(format string, a ...any) {
	return func(format string, a ...any) {
		if w != nil {
			fmt.Fprintf(w, format+"\n", a...)
		}
	}
}
