package cochange

import (
	"context"
	"slices"
)

// KnownReport scores predict and validate_plan given what the agent knows
// (the commit's cleaned message as the task), through the server, against
// the baselines given the same inputs.
type KnownReport struct {
	// One: one changed file and the task; Half: half of a commit of at
	// least four source files and the task (known-notask: without it).
	// Keys: predict, rules, bm25, rrf (and known-notask in Half).
	One  map[string]Scores `json:"one_file_and_task"`
	Half map[string]Scores `json:"half_commit"`
	// PlanTask: validate_plan with the task, on the plans of Plan;
	// PlanPredict: predict given the same plan as changed_nodes and the
	// same task, so the two answers to one question compare.
	PlanTask    Scores `json:"validate_plan_with_task"`
	PlanPredict Scores `json:"predict_plan_with_task"`
}

// runKnown adds the known-context scores to rr.
func runKnown(ctx context.Context, src, rev string, s *Split, qs []Query, rose *Rose, sp *ServerPredictor, rr *RepoReport) error {
	msgs, err := Messages(ctx, src, rev)
	if err != nil {
		return err
	}
	one, half := KnownQueries(qs, msgs)
	files := make([]string, 0, len(s.Universe))
	for f := range s.Universe {
		files = append(files, f)
	}
	rules, bm := RulesKnown{rose}, TaskOnly{NewBM25(s.Checkout, files)}
	preds := map[string]KnownPredictor{"predict": sp, "rules": rules, "bm25": bm, "rrf": RRF{Of: []KnownPredictor{rules, bm}, K: 60}}
	kr := &KnownReport{One: map[string]Scores{}, Half: map[string]Scores{}}
	for name, p := range preds {
		if kr.One[name], err = EvaluateKnown(p, one, s.Universe); err != nil {
			return err
		}
		if kr.Half[name], err = EvaluateKnown(p, half, s.Universe); err != nil {
			return err
		}
	}
	if kr.Half["known-notask"], err = EvaluateKnown(withoutTask{sp}, half, s.Universe); err != nil {
		return err
	}
	pqs := PlanQueries(qs)
	if kr.PlanTask, err = evaluatePlansBy(pqs, s.Universe, func(q PlanQuery) ([]string, error) {
		return sp.gaps(q.Plan, CleanMessage(msgs[q.Commit]))
	}); err != nil {
		return err
	}
	kr.PlanPredict, err = evaluatePlansBy(pqs, s.Universe, func(q PlanQuery) ([]string, error) {
		return sp.PredictKnown(q.Plan, CleanMessage(msgs[q.Commit]), 10)
	})
	rr.Known = kr
	return err
}

type withoutTask struct{ p KnownPredictor }

func (w withoutTask) PredictKnown(given []string, _ string, k int) ([]string, error) {
	return w.p.PredictKnown(given, "", k)
}

// PredictKnown implements KnownPredictor: predict with changed_nodes and
// task.
func (sp *ServerPredictor) PredictKnown(given []string, task string, k int) ([]string, error) {
	nodes := make([]string, len(given))
	for i, f := range given {
		nodes[i] = "file::" + f
	}
	args := map[string]any{"agent_id": "cochange", "changed_nodes": nodes, "top_k": 4 * k}
	if task != "" {
		args["task"] = task
	}
	return sp.predictFiles(args)
}

// evaluatePlansBy is EvaluatePlans with the gaps of each plan from gaps.
func evaluatePlansBy(qs []PlanQuery, universe map[string]bool, gaps func(PlanQuery) ([]string, error)) (Scores, error) {
	sc := Scores{Queries: len(qs)}
	for _, q := range qs {
		raw, err := gaps(q)
		if err != nil {
			return sc, err
		}
		var gs []string
		for _, f := range raw {
			if universe[f] && !slices.Contains(q.Plan, f) && !slices.Contains(gs, f) {
				gs = append(gs, f)
			}
		}
		sc.R5 += Recall(gs, []string{q.Missing}, 5)
		sc.R10 += Recall(gs, []string{q.Missing}, 10)
	}
	if len(qs) > 0 {
		sc.R5, sc.R10 = round4(sc.R5/float64(len(qs))), round4(sc.R10/float64(len(qs)))
	}
	return sc, nil
}
