package cochange

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/tools/localize"
)

// Repo is one line of repos.tsv; its Split is "tune" or "held-out" (never
// tuned on).
type Repo = localize.Repo

// ReadRepos parses repos.tsv (name, repo, commit, language, split; a
// header line starting with "name" and # comments are skipped).
func ReadRepos(r io.Reader) ([]Repo, error) {
	return localize.ReadRepos(r, func(rp Repo) error {
		if rp.Split != "tune" && rp.Split != "held-out" {
			return fmt.Errorf("split %q (want tune or held-out)", rp.Split)
		}
		return nil
	})
}

// RepoReport is one repository's result.
type RepoReport struct {
	Repo
	Cut          string `json:"cut"`
	CutDate      string `json:"cut_date"`
	Commits      int    `json:"commits"`
	TrainCommits int    `json:"train_commits"`
	TestCommits  int    `json:"test_commits"`
	Candidates   int    `json:"candidate_files"`
	NewTargets   int    `json:"targets_new_after_cut"`
	Predict      Scores `json:"predict"`
	Baseline     Scores `json:"baseline"`
	// Plan and PlanBaseline score plans missing one file of a commit:
	// validate_plan's gaps and the rules' (PlanQueries).
	Plan         Scores `json:"validate_plan"`
	PlanBaseline Scores `json:"plan_baseline"`
	// Ceiling: the rules trained on commits past the cut (Ceiling).
	Ceiling Ceilings `json:"ceiling"`
	// Known: given what the agent knows (Config.Known).
	Known         *KnownReport `json:"known,omitempty"`
	IngestMs      float64      `json:"ingest_ms"`
	PredictMeanMs float64      `json:"predict_mean_ms"`
	Err           string       `json:"error,omitempty"`
}

// Config configures a run.
type Config struct {
	// Mirrors maps a repository slug to its git directory (or clone).
	Mirror func(slug string) string
	// Server is the m1nd-mcp binary.
	Server   string
	Work     string
	Fraction float64
	MaxGroup int
	// Known adds the scores given the changed files and the task.
	Known bool
	Logf  func(string, ...any)
}

// RunRepo evaluates predict through the server and the baseline on r.
func RunRepo(ctx context.Context, cfg Config, r Repo) RepoReport {
	rr := RepoReport{Repo: r}
	s, qs, err := prepareRepo(ctx, cfg, r, &rr)
	if err != nil {
		rr.Err = err.Error()
		return rr
	}
	rose := NewRose(s.Train, s.Universe, cfg.MaxGroup)
	if rr.Baseline, _, err = Evaluate(rose, qs, s.Universe); err != nil {
		rr.Err = err.Error()
		return rr
	}
	if rr.Ceiling, err = Ceiling(s, qs, cfg.MaxGroup); err != nil {
		rr.Err = err.Error()
		return rr
	}
	sp, err := StartServer(ctx, cfg.Server, s.Checkout, &rr)
	if err != nil {
		rr.Err = err.Error()
		return rr
	}
	defer sp.Close()
	t0 := time.Now()
	if rr.Predict, _, err = Evaluate(sp, qs, s.Universe); err != nil {
		rr.Err = err.Error()
	}
	if len(qs) > 0 {
		rr.PredictMeanMs = float64(time.Since(t0).Microseconds()) / 1000 / float64(len(qs))
	}
	cfg.Logf("%s: %d queries, predict R@10 %.3f, baseline R@10 %.3f (ceilings: online %.3f, hindsight %.3f)", r.Name, len(qs), rr.Predict.R10, rr.Baseline.R10, rr.Ceiling.Online.R10, rr.Ceiling.Hindsight.R10)
	pqs := PlanQueries(qs)
	if rr.PlanBaseline, err = EvaluatePlans(rose, pqs, s.Universe); err == nil {
		rr.Plan, err = EvaluatePlans(sp, pqs, s.Universe)
	}
	if err != nil {
		rr.Err = err.Error()
	}
	cfg.Logf("%s: %d plans, validate_plan R@10 %.3f, baseline R@10 %.3f", r.Name, len(pqs), rr.Plan.R10, rr.PlanBaseline.R10)
	if cfg.Known && rr.Err == "" {
		if err := runKnown(ctx, cfg.Mirror(r.Slug), s.Cut+".."+r.Commit, s, qs, rose, sp, &rr); err != nil {
			rr.Err = err.Error()
		} else {
			k := rr.Known
			cfg.Logf("%s: with the task: predict R@10 %.3f, rules %.3f, bm25 %.3f, rrf %.3f; half: predict %.3f (no task %.3f), rules %.3f; plans: validate_plan %.3f, predict %.3f", r.Name,
				k.One["predict"].R10, k.One["rules"].R10, k.One["bm25"].R10, k.One["rrf"].R10, k.Half["predict"].R10, k.Half["known-notask"].R10, k.Half["rules"].R10, k.PlanTask.R10, k.PlanPredict.R10)
		}
	}
	return rr
}

func prepareRepo(ctx context.Context, cfg Config, r Repo, rr *RepoReport) (*Split, []Query, error) {
	src := cfg.Mirror(r.Slug)
	if src == "" {
		return nil, nil, fmt.Errorf("no mirror of %s", r.Slug)
	}
	dir := filepath.Join(cfg.Work, r.Name)
	if err := os.RemoveAll(dir); err != nil {
		return nil, nil, err
	}
	s, err := Prepare(ctx, src, r.Commit, cfg.Fraction, dir)
	if err != nil {
		return nil, nil, err
	}
	qs, skipped := Queries(s)
	rr.Cut, rr.CutDate = s.Cut, time.Unix(s.CutTime, 0).UTC().Format("2006-01-02")
	rr.Commits, rr.TrainCommits, rr.TestCommits = s.Total, len(s.Train), len(s.Test)
	rr.Candidates, rr.NewTargets = len(s.Universe), skipped
	cfg.Logf("%s: cut %s (%s), %d train / %d test commits, %d source files, %d queries", r.Name, short(s.Cut), rr.CutDate, len(s.Train), len(s.Test), len(s.Universe), len(qs))
	return s, qs, nil
}

func short(h string) string { return h[:min(10, len(h))] }

// ServerPredictor asks a running m1nd-mcp.
type ServerPredictor struct {
	c   *localize.Client
	ctx context.Context
}

// StartServer launches the server on a fresh runtime dir and ingests root.
func StartServer(ctx context.Context, bin, root string, rr *RepoReport) (*ServerPredictor, error) {
	rt, err := os.MkdirTemp("", "m1nd-cochange-rt-*")
	if err != nil {
		return nil, err
	}
	c, err := localize.StartFor(bin, root, "--runtime-dir", rt)
	if err != nil {
		return nil, err
	}
	sp := &ServerPredictor{c: c, ctx: ctx}
	if err := c.Initialize(ctx); err != nil {
		c.Close()
		return nil, err
	}
	var ing struct {
		ElapsedMs float64 `json:"elapsed_ms"`
	}
	if err := c.CallTool(ctx, "ingest", map[string]any{"agent_id": "cochange", "path": root}, &ing); err != nil {
		c.Close()
		return nil, err
	}
	rr.IngestMs = ing.ElapsedMs
	return sp, nil
}

// Close stops the server.
func (sp *ServerPredictor) Close() { sp.c.Close() }

// Predict implements Predictor: predict's files, asked for more than k so
// that non-source predictions (docs, configuration) can be dropped.
func (sp *ServerPredictor) Predict(file string, k int) ([]string, error) {
	return sp.predictFiles(map[string]any{"agent_id": "cochange", "changed_node": "file::" + file, "top_k": 4 * k, "detail": "full"})
}

// predictFiles calls predict with args and keeps the files among its
// predictions, in order; a tool error (a given file the graph lacks, as
// in a skipped directory) is no prediction.
func (sp *ServerPredictor) predictFiles(args map[string]any) ([]string, error) {
	var out struct {
		Predictions []struct {
			NodeID string `json:"node_id"`
		} `json:"predictions"`
	}
	err := sp.c.CallTool(sp.ctx, "predict", args, &out)
	var te *localize.ToolError
	if errors.As(err, &te) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var fs []string
	for _, p := range out.Predictions {
		fs = appendFile(fs, p.NodeID)
	}
	return fs, nil
}

// appendFile appends the path of a file node's id ("file::a/b.go") to fs;
// other nodes' ids it passes over.
func appendFile(fs []string, id string) []string {
	if f, ok := strings.CutPrefix(id, "file::"); ok {
		return append(fs, f)
	}
	return fs
}
