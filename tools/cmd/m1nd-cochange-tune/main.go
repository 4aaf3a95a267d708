// Command m1nd-cochange-tune works on predict's model in process, on the
// tune split of the co-change benchmark only (never the held-out one):
// one ingest per repository, every query's candidates with their features
// (history.Candidates), then one of
//
//   - by default, a fit (listwise softmax over each query's candidates, or
//     pointwise logistic with -listwise=false) with Recall@10 per
//     repository for leave-one-repository-out fits and the full fit, whose
//     coefficients it prints;
//   - -eval name=w0,w1,…;…: Recall@10 of the given models (-check: the
//     same through history.Predict and the harness's Evaluate);
//   - -calibrate: history.DefaultModel scaled so that its confidence is the
//     observed share of true partners, with a reliability table;
//   - -plans: ways of combining predict over a plan's files, scored on
//     plans missing one file of a later commit (validate_plan's gaps).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/tools/cochange"
)

func main() {
	mirrors := flag.String("mirrors", "/work/.mirror", "git snapshots, owner+name/repo")
	reposTSV := flag.String("repos", "benchmarks/cochange/repos.tsv", "repos.tsv")
	work := flag.String("work", "/tmp/m1nd-cochange-tune", "cut checkouts")
	only := flag.String("only", "", "comma-separated tune repositories (default: all of them)")
	lambda := flag.Float64("lambda", 1, "L2 penalty of the fit")
	check := flag.Bool("check", false, "also score the full fit through history.Predict (must equal the direct score)")
	listwise := flag.Bool("listwise", true, "fit a softmax over each query's candidates (else a pointwise logistic regression)")
	plans := flag.Bool("plans", false, "score ways of combining predict over a plan's files (validate_plan's gaps) on plans missing one file")
	calib := flag.Bool("calibrate", false, "print history.DefaultModel scaled so that its confidence is the observed share of true partners")
	eval := flag.String("eval", "", "instead of fitting, score models: name=w0,w1,…;name=…")
	flag.Parse()
	repos, err := cochange.SelectRepos(*reposTSV, *only, "tune") // held-out repositories are never tuned on
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ctx := context.Background()
	var sets []*repoSet
	for _, r := range repos {
		src := filepath.Join(*mirrors, strings.ReplaceAll(r.Slug, "/", "+"), "repo")
		rs, err := prepare(ctx, r.Name, src, r.Commit, filepath.Join(*work, r.Name))
		if err != nil {
			fmt.Fprintln(os.Stderr, r.Name, err)
			continue
		}
		fmt.Fprintf(os.Stderr, "%s: %d queries, %d candidate rows, baseline R@10 %.3f, candidates cover %.3f of the targets\n", rs.name, len(rs.qs), rs.rows(), rs.base, rs.coverage())
		sets = append(sets, rs)
	}
	if *plans {
		comparePlans(sets)
		return
	}
	if *calib {
		m := calibrate(sets, history.DefaultModel)
		fmt.Printf("calibrated: %v\n", m)
		for _, rs := range sets {
			fmt.Printf("%-12s R@10 %.3f (default %.3f)\n", rs.name, rs.recall(m), rs.recall(history.DefaultModel))
		}
		reliability(sets, m)
		return
	}
	if *eval != "" {
		evaluate(sets, *eval)
		return
	}
	if *listwise {
		fitter = fitListwise
	}
	report(sets, *lambda, *check)
}

// evaluate prints each named model's Recall@10 per repository.
func evaluate(sets []*repoSet, spec string) {
	for _, m := range strings.Split(spec, ";") {
		name, ws, _ := strings.Cut(strings.TrimSpace(m), "=")
		model := make([]float64, len(history.FeatureNames))
		for i, w := range strings.Split(ws, ",") {
			if i < len(model) {
				fmt.Sscan(w, &model[i])
			}
		}
		var n, sb, sm float64
		var per []string
		for _, rs := range sets {
			r, q := rs.recall(model), float64(len(rs.qs))
			n, sb, sm = n+q, sb+q*rs.base, sm+q*r
			per = append(per, fmt.Sprintf("%s %.3f/%.3f", rs.name, r, rs.base))
			if os.Getenv("BREAKDOWN") != "" {
				a, b, c, d, e := rs.breakdown(model)
				fmt.Printf("  %-12s targets with joint history %d (top10 %d), without %d (top10 %d), not candidates %d\n", rs.name, a, c, b, d, e)
			}
		}
		fmt.Printf("%-14s micro %.4f baseline %.4f (%+.1f)  %s\n", name, sm/n, sb/n, 100*(sm-sb)/n, strings.Join(per, ", "))
	}
}

var fitter = fit

// report prints, per repository, the baseline, the leave-one-out fit and
// the full fit, then the full fit's coefficients.
func report(sets []*repoSet, lambda float64, check bool) {
	full := fitter(sets, nil, lambda)
	var n, sb, sl, sf, sd float64
	for _, rs := range sets {
		loo := fitter(sets, rs, lambda)
		rl, rf := rs.recall(loo), rs.recall(full)
		rd := rs.recall(history.DefaultModel)
		q := float64(len(rs.qs))
		n, sb, sl, sf, sd = n+q, sb+q*rs.base, sl+q*rl, sf+q*rf, sd+q*rd
		fmt.Printf("%-12s queries %4d  baseline %.3f  leave-one-out %.3f (%+.1f)  full fit %.3f  current default %.3f\n",
			rs.name, len(rs.qs), rs.base, rl, 100*(rl-rs.base), rf, rd)
		if check {
			fmt.Printf("%-12s through Predict: %.3f\n", rs.name, rs.viaPredict(full))
		}
	}
	fmt.Printf("%-12s queries %4.0f  baseline %.3f  leave-one-out %.3f (%+.1f)  full fit %.3f  current default %.3f\n",
		"micro", n, sb/n, sl/n, 100*(sl-sb)/n, sf/n, sd/n)
	fmt.Print("full fit:")
	for i, w := range full {
		fmt.Printf(" %s=%.3f", history.FeatureNames[i], w)
	}
	fmt.Print("\nvar DefaultModel = []float64{")
	for i, w := range full {
		if i > 0 {
			fmt.Print(", ")
		}
		fmt.Printf("%.3f", w)
	}
	fmt.Println("}")
}
