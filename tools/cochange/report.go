package cochange

import (
	"fmt"
	"strings"
)

// Report is a whole run.
type Report struct {
	Repos []RepoReport `json:"repos"`
	// Groups: all, tune, held-out, and ≥30 candidate files (each
	// micro-averaged over queries, and macro over repositories).
	Groups []Group `json:"groups"`
}

// Group aggregates repositories.
type Group struct {
	Name          string  `json:"name"`
	Repos         int     `json:"repos"`
	Queries       int     `json:"queries"`
	PredictR5     float64 `json:"predict_recall_at_5"`
	PredictR10    float64 `json:"predict_recall_at_10"`
	BaselineR5    float64 `json:"baseline_recall_at_5"`
	BaselineR10   float64 `json:"baseline_recall_at_10"`
	MacroPredict  float64 `json:"macro_predict_recall_at_10"`
	MacroBaseline float64 `json:"macro_baseline_recall_at_10"`
	// OnlineR10 and HindsightR10: the count-ranking ceilings (Ceilings).
	OnlineR10    float64 `json:"online_ceiling_recall_at_10"`
	HindsightR10 float64 `json:"hindsight_ceiling_recall_at_10"`
	// Plans, PlanR10 and PlanBaselineR10: plans missing one file.
	Plans           int     `json:"plans"`
	PlanR10         float64 `json:"validate_plan_recall_at_10"`
	PlanBaselineR10 float64 `json:"plan_baseline_recall_at_10"`
}

// Summarize fills Groups.
func (r *Report) Summarize() {
	r.Groups = nil
	for _, g := range []struct {
		name string
		in   func(RepoReport) bool
	}{
		{"all", func(RepoReport) bool { return true }},
		{"tune", func(x RepoReport) bool { return x.Split == "tune" }},
		{"held-out", func(x RepoReport) bool { return x.Split == "held-out" }},
		{"≥ 30 candidate files", func(x RepoReport) bool { return x.Candidates >= 30 }},
		{"held-out, ≥ 30 candidate files", func(x RepoReport) bool { return x.Split == "held-out" && x.Candidates >= 30 }},
	} {
		var gr Group
		gr.Name = g.name
		for _, x := range r.Repos {
			if x.Err != "" || !g.in(x) || x.Predict.Queries == 0 {
				continue
			}
			n := float64(x.Predict.Queries)
			gr.Repos++
			gr.Queries += x.Predict.Queries
			gr.PredictR5 += x.Predict.R5 * n
			gr.PredictR10 += x.Predict.R10 * n
			gr.BaselineR5 += x.Baseline.R5 * n
			gr.BaselineR10 += x.Baseline.R10 * n
			gr.MacroPredict += x.Predict.R10
			gr.MacroBaseline += x.Baseline.R10
			gr.OnlineR10 += x.Ceiling.Online.R10 * n
			gr.HindsightR10 += x.Ceiling.Hindsight.R10 * n
			p := float64(x.Plan.Queries)
			gr.Plans += x.Plan.Queries
			gr.PlanR10 += x.Plan.R10 * p
			gr.PlanBaselineR10 += x.PlanBaseline.R10 * p
		}
		if gr.Plans > 0 {
			gr.PlanR10, gr.PlanBaselineR10 = round4(gr.PlanR10/float64(gr.Plans)), round4(gr.PlanBaselineR10/float64(gr.Plans))
		}
		if gr.Queries > 0 {
			q := float64(gr.Queries)
			gr.PredictR5, gr.PredictR10 = round4(gr.PredictR5/q), round4(gr.PredictR10/q)
			gr.BaselineR5, gr.BaselineR10 = round4(gr.BaselineR5/q), round4(gr.BaselineR10/q)
			gr.OnlineR10, gr.HindsightR10 = round4(gr.OnlineR10/q), round4(gr.HindsightR10/q)
			gr.MacroPredict, gr.MacroBaseline = round4(gr.MacroPredict/float64(gr.Repos)), round4(gr.MacroBaseline/float64(gr.Repos))
		}
		if gr.Repos > 0 {
			r.Groups = append(r.Groups, gr)
		}
	}
}

// Markdown renders the report.
func (r *Report) Markdown() string {
	var b strings.Builder
	b.WriteString("| repository | lang | split | cut | train/test commits | source files | queries | predict R@5 | predict R@10 | baseline R@5 | baseline R@10 | Δ R@10 | ceilings R@10: online / hindsight |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, x := range r.Repos {
		if x.Err != "" {
			fmt.Fprintf(&b, "| %s | %s | %s | error: %s |||||||||\n", x.Name, x.Lang, x.Split, x.Err)
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s %s | %d/%d | %d | %d | %.3f | %.3f | %.3f | %.3f | %+.1f | %.3f / %.3f |\n", x.Name, x.Lang, x.Split, short(x.Cut), x.CutDate,
			x.TrainCommits, x.TestCommits, x.Candidates, x.Predict.Queries, x.Predict.R5, x.Predict.R10, x.Baseline.R5, x.Baseline.R10, 100*(x.Predict.R10-x.Baseline.R10),
			x.Ceiling.Online.R10, x.Ceiling.Hindsight.R10)
	}
	b.WriteString("\n| group | repos | queries | predict R@5 | predict R@10 | baseline R@5 | baseline R@10 | Δ R@10 (points) | macro Δ R@10 | ceilings R@10: online / hindsight |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, g := range r.Groups {
		fmt.Fprintf(&b, "| %s | %d | %d | %.3f | %.3f | %.3f | %.3f | %+.1f | %+.1f | %.3f / %.3f |\n", g.Name, g.Repos, g.Queries, g.PredictR5, g.PredictR10, g.BaselineR5, g.BaselineR10,
			100*(g.PredictR10-g.BaselineR10), 100*(g.MacroPredict-g.MacroBaseline), g.OnlineR10, g.HindsightR10)
	}
	b.WriteString("\nPlans missing one file of a later commit (validate_plan's gaps vs the rules from every planned file):\n\n")
	b.WriteString("| repository | split | plans | validate_plan R@5 | validate_plan R@10 | baseline R@5 | baseline R@10 |\n|---|---|---|---|---|---|---|\n")
	for _, x := range r.Repos {
		if x.Err == "" && x.Plan.Queries > 0 {
			fmt.Fprintf(&b, "| %s | %s | %d | %.3f | %.3f | %.3f | %.3f |\n", x.Name, x.Split, x.Plan.Queries, x.Plan.R5, x.Plan.R10, x.PlanBaseline.R5, x.PlanBaseline.R10)
		}
	}
	b.WriteString("\n| group | plans | validate_plan R@10 | baseline R@10 | Δ (points) |\n|---|---|---|---|---|\n")
	for _, g := range r.Groups {
		if g.Plans > 0 {
			fmt.Fprintf(&b, "| %s | %d | %.3f | %.3f | %+.1f |\n", g.Name, g.Plans, g.PlanR10, g.PlanBaselineR10, 100*(g.PlanR10-g.PlanBaselineR10))
		}
	}
	r.knownMarkdown(&b)
	return b.String()
}

// knownMarkdown renders the scores given what the agent knows (R@10).
func (r *Report) knownMarkdown(b *strings.Builder) {
	head := false
	for _, x := range r.Repos {
		k := x.Known
		if x.Err != "" || k == nil {
			continue
		}
		if !head {
			b.WriteString("\nGiven what the agent knows (the commit's cleaned message as the task), Recall@10:\n\n")
			b.WriteString("| repository | split | one file + task: queries | predict | rules + dir | BM25 | RRF | half a commit: queries | predict | predict, no task | rules | plans + task: validate_plan | predict |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
			head = true
		}
		o, h := k.One, k.Half
		fmt.Fprintf(b, "| %s | %s | %d | %.3f | %.3f | %.3f | %.3f | %d | %.3f | %.3f | %.3f | %.3f | %.3f |\n", x.Name, x.Split, o["rules"].Queries, o["predict"].R10, o["rules"].R10, o["bm25"].R10, o["rrf"].R10,
			h["rules"].Queries, h["predict"].R10, h["known-notask"].R10, h["rules"].R10, k.PlanTask.R10, k.PlanPredict.R10)
	}
}
