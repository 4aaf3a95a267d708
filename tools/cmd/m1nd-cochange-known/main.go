// Command m1nd-cochange-known measures predict given what an agent knows
// (history.PredictKnown: the files already changed and the task's text)
// on the co-change benchmark's repositories, in process, against
// baselines given the same inputs: the association rules with the same
// directory, BM25 of the task over the tree at the cut, and their
// reciprocal-rank fusion. The task is the commit's cleaned message.
//
// Two query sets: one changed file plus the task (the one-file queries of
// m1nd-cochange), and half of every commit of at least four source files
// (with and without the task). -grid scores fusion weights, on the tune
// split only.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/tools/cochange"
)

func main() {
	var (
		mirrors  = flag.String("mirrors", "/work/.mirror", "git snapshots named owner+name/repo")
		reposTSV = flag.String("repos", "benchmarks/cochange/repos.tsv", "repos.tsv")
		work     = flag.String("work", "/tmp/m1nd-cochange-known", "directory for the cut checkouts")
		only     = flag.String("only", "", "comma-separated repository names")
		split    = flag.String("split", "", "tune or held-out (required)")
		grid     = flag.String("grid", "", "tune split only: fusion weights to score, name=K,history,set,task,structure,recency;…")
		jsonOut  = flag.String("json", "", "write the per-repository scores as JSON here")
		taskRate = flag.Bool("taskrate", false, "tune split only: print the share of the task's files at each rank that changed (validate_plan's task prior)")
	)
	flag.Parse()
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "m1nd-cochange-known:", err)
		os.Exit(1)
	}
	if *split != "tune" && *split != "held-out" {
		fail(fmt.Errorf("-split is tune or held-out, got %q (e.g. -split tune)", *split))
	}
	if (*grid != "" || *taskRate) && *split != "tune" {
		fail(fmt.Errorf("-grid tunes: it runs on the tune split only (-split tune)"))
	}
	models, err := parseGrid(*grid)
	if err != nil {
		fail(err)
	}
	repos, err := cochange.SelectRepos(*reposTSV, *only, *split)
	if err != nil {
		fail(err)
	}
	var all []repoScores
	for _, r := range repos {
		src := filepath.Join(*mirrors, strings.ReplaceAll(r.Slug, "/", "+"), "repo")
		rs, err := runRepo(context.Background(), r, src, filepath.Join(*work, r.Name), models, *taskRate)
		if err != nil {
			fmt.Fprintln(os.Stderr, r.Name, err)
			continue
		}
		all = append(all, rs)
		fmt.Fprintln(os.Stderr, rs.line())
	}
	fmt.Print(markdown(all))
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(all, "", "  ")
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			fail(err)
		}
	}
}

type model struct {
	Name string
	W    history.FusionWeights
}

func parseGrid(spec string) ([]model, error) {
	ms := []model{{"default", history.DefaultFusion}}
	for _, part := range strings.Split(spec, ";") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		name, ws, ok := strings.Cut(part, "=")
		fs := strings.Split(ws, ",")
		if !ok || len(fs) != 6 {
			return nil, fmt.Errorf("grid entry %q: want name=K,history,set,task,structure,recency (e.g. a=10,1,0.5,1,0.25,0.1)", part)
		}
		var v [6]float64
		for i, s := range fs {
			x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil {
				return nil, fmt.Errorf("grid entry %q: %v", part, err)
			}
			v[i] = x
		}
		ms = append(ms, model{name, history.FusionWeights{K: v[0], History: v[1], Set: v[2], Task: v[3], Structure: v[4], Recency: v[5]}})
	}
	return ms, nil
}

// repoScores are one repository's scores by predictor, on the one-file
// queries (One) and the half-commit queries (Half).
type repoScores struct {
	Name  string                     `json:"name"`
	One   map[string]cochange.Scores `json:"one_file_and_task"`
	Half  map[string]cochange.Scores `json:"half_commit"`
	Tasks int                        `json:"queries_with_task"`
}

func (rs repoScores) line() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: one (%d):", rs.Name, rs.One["rules"].Queries)
	for _, k := range slices.Sorted(mapsKeys(rs.One)) {
		fmt.Fprintf(&b, " %s %.3f", k, rs.One[k].R10)
	}
	fmt.Fprintf(&b, " | half (%d):", rs.Half["rules"].Queries)
	for _, k := range slices.Sorted(mapsKeys(rs.Half)) {
		fmt.Fprintf(&b, " %s %.3f", k, rs.Half[k].R10)
	}
	return b.String()
}

func mapsKeys(m map[string]cochange.Scores) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// noTask hides the task from a predictor.
type noTask struct{ p cochange.KnownPredictor }

func (n noTask) PredictKnown(given []string, _ string, k int) ([]string, error) {
	return n.p.PredictKnown(given, "", k)
}

// oneFile asks the one-file predictor (Predict) with the first given file.
type oneFile struct{ p *cochange.InProcess }

func (o oneFile) PredictKnown(given []string, _ string, k int) ([]string, error) {
	return o.p.Predict(given[0], k)
}

func runRepo(ctx context.Context, r cochange.Repo, src, dir string, models []model, taskRate bool) (repoScores, error) {
	rs := repoScores{Name: r.Name, One: map[string]cochange.Scores{}, Half: map[string]cochange.Scores{}}
	if err := os.RemoveAll(dir); err != nil {
		return rs, err
	}
	s, err := cochange.Prepare(ctx, src, r.Commit, 0.8, dir)
	if err != nil {
		return rs, err
	}
	qs, _ := cochange.Queries(s)
	msgs, err := cochange.Messages(ctx, src, s.Cut+".."+r.Commit)
	if err != nil {
		return rs, err
	}
	one, half := cochange.KnownQueries(qs, msgs)
	for _, q := range one {
		if q.Task != "" {
			rs.Tasks++
		}
	}
	ip, err := cochange.NewInProcess(ctx, s.Checkout)
	if err != nil {
		return rs, err
	}
	if err := ip.WithSeek(ctx, s.Checkout); err != nil {
		return rs, err
	}
	if taskRate {
		rates(ip, one, s.Universe)
		return rs, nil
	}
	files := make([]string, 0, len(s.Universe))
	for f := range s.Universe {
		files = append(files, f)
	}
	rules := cochange.RulesKnown{R: cochange.NewRose(s.Train, s.Universe, 30)}
	bm := cochange.TaskOnly{B: cochange.NewBM25(s.Checkout, files)}
	preds := map[string]cochange.KnownPredictor{
		"rules": rules, "bm25": bm, "rrf": cochange.RRF{Of: []cochange.KnownPredictor{rules, bm}, K: 60},
	}
	for _, m := range models {
		mp := *ip
		mp.Fusion = m.W
		preds["known:"+m.Name] = &mp
		preds["known-notask:"+m.Name] = noTask{&mp}
	}
	for name, p := range preds {
		if rs.One[name], err = cochange.EvaluateKnown(p, one, s.Universe); err != nil {
			return rs, err
		}
		if rs.Half[name], err = cochange.EvaluateKnown(p, half, s.Universe); err != nil {
			return rs, err
		}
	}
	rs.One["predict-one-file"], err = cochange.EvaluateKnown(oneFile{ip}, one, s.Universe)
	return rs, err
}

// markdown sums the repositories (micro-averaged over queries).
func markdown(all []repoScores) string {
	var b strings.Builder
	for _, set := range []string{"one", "half"} {
		get := func(rs repoScores) map[string]cochange.Scores {
			if set == "one" {
				return rs.One
			}
			return rs.Half
		}
		names := map[string]bool{}
		for _, rs := range all {
			for k := range get(rs) {
				names[k] = true
			}
		}
		keys := slices.Sorted(func(y func(string) bool) {
			for k := range names {
				if !y(k) {
					return
				}
			}
		})
		fmt.Fprintf(&b, "\n| %s | %s |\n|---|%s\n", map[string]string{"one": "one file + task", "half": "half a commit"}[set], strings.Join(append(slices.Clone(keys), "queries"), " | "), strings.Repeat("---|", len(keys)+1))
		tot, n := map[string]float64{}, 0
		for _, rs := range all {
			m := get(rs)
			q := m["rules"].Queries
			n += q
			fmt.Fprintf(&b, "| %s |", rs.Name)
			for _, k := range keys {
				fmt.Fprintf(&b, " %.3f |", m[k].R10)
				tot[k] += m[k].R10 * float64(q)
			}
			fmt.Fprintf(&b, " %d |\n", q)
		}
		fmt.Fprintf(&b, "| **all** |")
		for _, k := range keys {
			fmt.Fprintf(&b, " %.3f |", tot[k]/float64(max(n, 1)))
		}
		fmt.Fprintf(&b, " %d |\n", n)
	}
	return b.String()
}

// rateHits and rateSeen count, per rank of the task's files, the files
// that were targets and the files seen (given files left out).
var rateHits, rateSeen [history.TaskDepth + 1]int

// rates adds one repository's queries to the counts and prints the
// running shares by rank bucket.
func rates(ip *cochange.InProcess, qs []cochange.KnownQuery, universe map[string]bool) {
	g := ip.X.Graph()
	for _, q := range qs {
		r := 0
		for _, id := range history.TaskFiles(ip.Seek, q.Task, history.TaskDepth) {
			f := strings.TrimPrefix(g.ExternalID(id), "file::")
			if !universe[f] || slices.Contains(q.Given, f) {
				continue
			}
			r++
			rateSeen[r]++
			if slices.Contains(q.Targets, f) {
				rateHits[r]++
			}
		}
	}
	for _, b := range [][2]int{{1, 1}, {2, 2}, {3, 3}, {4, 5}, {6, 10}, {11, 20}, {21, history.TaskDepth}} {
		h, n := 0, 0
		for i := b[0]; i <= b[1]; i++ {
			h, n = h+rateHits[i], n+rateSeen[i]
		}
		fmt.Printf("ranks %d-%d: %d/%d = %.3f\n", b[0], b[1], h, n, float64(h)/float64(max(n, 1)))
	}
}
