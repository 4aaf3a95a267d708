package deptruth

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/tools/localize"
)

// Repo is one line of repos.tsv; its Split is "tune", "held-out" or
// "fresh" (held out and first run only after the held-out run had been
// looked at).
type Repo = localize.Repo

// ReadRepos parses repos.tsv: tab-separated name, repo, commit, language,
// split; blank lines, lines starting with # and a header line starting
// with "name" are skipped.
func ReadRepos(r io.Reader) ([]Repo, error) {
	return localize.ReadRepos(r, func(rp Repo) error {
		switch rp.Lang {
		case Python, Go, JS, Java:
			return nil
		}
		return fmt.Errorf("language %q (want python, go, js or java)", rp.Lang)
	})
}

// Config is one benchmark run.
type Config struct {
	// ReposDir holds the checkouts (ReposDir/<name>).
	ReposDir string
	Repos    []Repo
	// Server is the m1nd-mcp binary; ServerArgs are passed before
	// --runtime-dir <fresh temp dir>.
	Server     string
	ServerArgs []string
	// TopK is impact's top_k (default 100).
	TopK int
	// AnyCommit scores a checkout whose HEAD is not the pinned commit
	// (by default such a repository is reported as an error).
	AnyCommit bool
	// CallTimeout bounds one tool call (default 5 minutes; ingest included).
	CallTimeout time.Duration
	Truth       Options
	// Log receives progress lines (nil: discarded).
	Log io.Writer
}

// RepoReport is one repository's outcome.
type RepoReport struct {
	Repo
	Head     string  `json:"head"`
	Error    string  `json:"error,omitempty"`
	TruthS   float64 `json:"truth_s"`
	IngestMs float64 `json:"ingest_ms"`
	// ImpactS is the wall time of all impact calls (client side).
	ImpactS float64 `json:"impact_s"`
	Nodes   int     `json:"nodes"`
	// GraphEdges is the server graph's edge count after ingest.
	GraphEdges int `json:"graph_edges"`
	// TruthFiles, TruthEdges and Skipped describe the ground truth.
	TruthFiles int               `json:"truth_files"`
	TruthEdges int               `json:"truth_edges"`
	Skipped    map[string]string `json:"skipped,omitempty"`
	TruthStats map[string]any    `json:"truth_stats,omitempty"`
	Notes      []string          `json:"notes,omitempty"`
	Scores     Scores            `json:"scores"`
	// Edges are the ground-truth edges: file → the files it depends on.
	Edges map[string][]string `json:"edges"`
	Files []FileResult        `json:"files"`
}

// Report is a run's result.
type Report struct {
	Started  time.Time         `json:"started"`
	ElapsedS float64           `json:"elapsed_s"`
	Machine  map[string]string `json:"machine"`
	Server   string            `json:"server"`
	// M1nd describes the server's source: the workspace commit and
	// whether it had uncommitted changes when the run started.
	M1nd    string            `json:"m1nd"`
	Options map[string]any    `json:"options"`
	Repos   []RepoReport      `json:"repos"`
	ByLang  map[string]Scores `json:"by_language"`
	BySplit map[string]Scores `json:"by_split"`
	All     Scores            `json:"all"`
}

// Run computes the truth of every repository, asks the server and scores.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.TopK <= 0 {
		cfg.TopK = 100
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = 5 * time.Minute
	}
	logf := localize.LogLines(cfg.Log)
	if cfg.Truth.Log == nil {
		cfg.Truth.Log = logf
	}
	start := time.Now()
	rep := &Report{
		Started: start.UTC(), Machine: localize.MachineFacts(), Server: cfg.Server, M1nd: sourceOf(cfg.Server),
		Options: map[string]any{"top_k": cfg.TopK, "goos": cfg.Truth.GOOS, "any_commit": cfg.AnyCommit},
	}
	if len(cfg.Truth.GOOS) == 0 {
		rep.Options["goos"] = DefaultGOOS
	}
	for _, r := range cfg.Repos {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		logf("== %s (%s, %s)", r.Name, r.Lang, r.Split)
		rr := runRepo(ctx, cfg, r, logf)
		if rr.Error != "" {
			logf("%s: %s", r.Name, rr.Error)
		} else {
			s := rr.Scores
			logf("%s: %d files, %d with dependents: direct P %.3f, blast P %.3f, direct R %.3f; edge R %.3f P %.3f; lacked %d, errors %d",
				r.Name, s.Files, s.WithDependents, s.DirectPrecision, s.BlastPrecision, s.DirectRecall, s.EdgeRecall, s.EdgePrecision, s.Lacked, s.Errored)
		}
		rep.Repos = append(rep.Repos, rr)
	}
	rep.ByLang, rep.BySplit = map[string]Scores{}, map[string]Scores{}
	byLang, bySplit := map[string][]Scores{}, map[string][]Scores{}
	var all []Scores
	for _, rr := range rep.Repos {
		if rr.Error != "" {
			continue
		}
		byLang[rr.Lang] = append(byLang[rr.Lang], rr.Scores)
		bySplit[rr.Split] = append(bySplit[rr.Split], rr.Scores)
		all = append(all, rr.Scores)
	}
	for k, v := range byLang {
		rep.ByLang[k] = Mean(v)
	}
	for k, v := range bySplit {
		rep.BySplit[k] = Mean(v)
	}
	rep.All = Mean(all)
	rep.ElapsedS = round4(time.Since(start).Seconds())
	return rep, nil
}

// runRepo scores one repository; failures end up in RepoReport.Error.
func runRepo(ctx context.Context, cfg Config, r Repo, logf func(string, ...any)) RepoReport {
	rr := RepoReport{Repo: r}
	root, err := filepath.Abs(filepath.Join(cfg.ReposDir, r.Name))
	if err != nil {
		rr.Error = err.Error()
		return rr
	}
	out, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		rr.Error = fmt.Sprintf("%s is not a git checkout (see benchmarks/deptruth/README.md to create it): %v", root, err)
		return rr
	}
	rr.Head = strings.TrimSpace(string(out))
	if rr.Head != r.Commit && !cfg.AnyCommit {
		rr.Error = fmt.Sprintf("%s is at %s, repos.tsv pins %s (git -C %s checkout %s, or -any-commit)", root, short(rr.Head), short(r.Commit), root, r.Commit)
		return rr
	}

	t0 := time.Now()
	truth, err := Compute(ctx, root, r.Lang, cfg.Truth)
	if err != nil {
		rr.Error = "ground truth: " + err.Error()
		return rr
	}
	rr.TruthS = round4(time.Since(t0).Seconds())
	rr.TruthFiles, rr.TruthEdges, rr.Skipped, rr.TruthStats, rr.Notes, rr.Edges = len(truth.Files), truth.Edges(), truth.Skipped, truth.Stats, truth.Notes, truth.Deps
	logf("%s: truth %d files, %d edges, %d skipped (%.1fs)", r.Name, rr.TruthFiles, rr.TruthEdges, len(rr.Skipped), rr.TruthS)

	answers, err := askServer(ctx, cfg, root, truth.Files, &rr, logf)
	if err != nil {
		rr.Error = "server: " + err.Error()
		return rr
	}
	for _, f := range truth.Files {
		rr.Files = append(rr.Files, ScoreFile(truth, f, answers[f], cfg.TopK))
	}
	rr.Scores = Aggregate(rr.Files)
	return rr
}

var ambiguous = regexp.MustCompile(`matches \d+ nodes`)

// impactOut is the part of impact's result the benchmark reads.
type impactOut struct {
	Source      string `json:"source"`
	Direction   string `json:"direction"`
	BlastRadius []Item `json:"blast_radius"`
}

// askServer starts a fresh server, ingests root and asks impact about
// every file.
func askServer(ctx context.Context, cfg Config, root string, files []string, rr *RepoReport, logf func(string, ...any)) (map[string]Answer, error) {
	rt, err := os.MkdirTemp("", "m1nd-deptruth-rt-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(rt)
	args := append(append([]string{}, cfg.ServerArgs...), "--runtime-dir", rt)
	c, err := localize.StartFor(cfg.Server, root, args...)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	call := func(name string, args map[string]any, out any) error {
		cctx, cancel := context.WithTimeout(ctx, cfg.CallTimeout)
		defer cancel()
		return c.CallTool(cctx, name, args, out)
	}
	ictx, cancel := context.WithTimeout(ctx, cfg.CallTimeout)
	err = c.Initialize(ictx)
	cancel()
	if err != nil {
		return nil, err
	}
	var ing struct {
		ElapsedMs float64 `json:"elapsed_ms"`
		Graph     struct {
			NodeCount int `json:"node_count"`
			EdgeCount int `json:"edge_count"`
		} `json:"graph"`
	}
	if err := call("ingest", map[string]any{"agent_id": "deptruth", "path": root}, &ing); err != nil {
		return nil, err
	}
	rr.IngestMs, rr.Nodes, rr.GraphEdges = ing.ElapsedMs, ing.Graph.NodeCount, ing.Graph.EdgeCount
	logf("%s: ingested %d nodes, %d edges in %.0f ms", rr.Name, rr.Nodes, rr.GraphEdges, rr.IngestMs)

	answers := map[string]Answer{}
	t0 := time.Now()
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var out impactOut
		err := call("impact", map[string]any{"agent_id": "deptruth", "node_id": "file::" + f, "top_k": cfg.TopK, "detail": "full"}, &out)
		var a Answer
		var te *localize.ToolError
		switch {
		case errors.As(err, &te):
			a.Err = clip(te.Text, 300)
			// "node_id … is not a node of the graph" or "… matches 3 nodes":
			// the graph has no file::<f> node.
			if strings.Contains(te.Text, "is not a node of the graph") || ambiguous.MatchString(te.Text) {
				a.Lacked, a.ResolvedTo = true, "(no such node)"
			}
		case err != nil:
			// A transport failure ends the repository: later calls would
			// fail the same way.
			return nil, fmt.Errorf("impact %s: %w", f, err)
		default:
			a = MapItems(f, out.BlastRadius)
			a.Direction = out.Direction
			if out.Source != "file::"+f {
				a.Lacked, a.ResolvedTo = true, out.Source
			}
		}
		answers[f] = a
		if (i+1)%200 == 0 {
			logf("%s: impact %d/%d", rr.Name, i+1, len(files))
		}
	}
	rr.ImpactS = round4(time.Since(t0).Seconds())
	return answers, nil
}

// sourceOf describes the server binary: the commit of the work tree around
// it at run time (the binary in bin/ of a checkout; "+dirty" when that
// tree has uncommitted changes), when the binary was built and its
// checksum — the work tree may have moved on since the build.
func sourceOf(server string) string {
	dir := filepath.Dir(server)
	s := "work tree at unknown commit"
	if out, err := exec.Command("git", "-C", dir, "rev-parse", "--short=10", "HEAD").Output(); err == nil {
		s = "work tree at " + strings.TrimSpace(string(out))
	}
	if st, err := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 && s != "work tree at unknown commit" {
		s += "+dirty"
	}
	if fi, err := os.Stat(server); err == nil {
		s += ", binary built " + fi.ModTime().UTC().Format("2006-01-02 15:04 MST")
	}
	if f, err := os.Open(server); err == nil {
		h := sha256.New()
		if _, err := io.Copy(h, f); err == nil {
			s += fmt.Sprintf(", sha256 %x", h.Sum(nil)[:6])
		}
		f.Close()
	}
	return s
}

func short(h string) string {
	if len(h) > 10 {
		return h[:10]
	}
	return h
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
