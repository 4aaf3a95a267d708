package cochange

import (
	"errors"
	"path"
	"slices"

	"github.com/m1nd-go/m1nd/tools/localize"
)

// PlanQuery is a plan that misses one file of a real commit: Plan are the
// commit's other source files (present at the cut), Missing the one left
// out. Does validate_plan name it among its gaps?
type PlanQuery struct {
	Commit  string
	Plan    []string
	Missing string
}

// PlanQueries turns every query into its plan: the queried file's commit
// minus one target, once per (commit, missing file).
func PlanQueries(qs []Query) []PlanQuery {
	var out []PlanQuery
	seen := map[[2]string]bool{}
	for _, q := range qs {
		all := append([]string{q.File}, q.Targets...)
		slices.Sort(all)
		for _, m := range all {
			if seen[[2]string{q.Commit, m}] {
				continue
			}
			seen[[2]string{q.Commit, m}] = true
			plan := slices.DeleteFunc(slices.Clone(all), func(f string) bool { return f == m })
			out = append(out, PlanQuery{Commit: q.Commit, Plan: plan, Missing: m})
		}
	}
	return out
}

// Planner names the files a plan probably misses, most likely first.
type Planner interface {
	Gaps(plan []string, k int) ([]string, error)
}

// EvaluatePlans scores p: the share of plans whose missing file is among
// the first 5 and 10 gaps (gaps outside the universe or in the plan are
// dropped first, for every planner alike).
func EvaluatePlans(p Planner, qs []PlanQuery, universe map[string]bool) (Scores, error) {
	sc := Scores{Queries: len(qs)}
	for _, q := range qs {
		raw, err := p.Gaps(q.Plan, 10)
		if err != nil {
			return sc, err
		}
		var gaps []string
		for _, f := range raw {
			if universe[f] && !slices.Contains(q.Plan, f) && !slices.Contains(gaps, f) {
				gaps = append(gaps, f)
			}
		}
		sc.R5 += Recall(gaps, []string{q.Missing}, 5)
		sc.R10 += Recall(gaps, []string{q.Missing}, 10)
	}
	if len(qs) > 0 {
		sc.R5 = round4(sc.R5 / float64(len(qs)))
		sc.R10 = round4(sc.R10 / float64(len(qs)))
	}
	return sc, nil
}

// Gaps is the baseline for plans: ROSE's rules from every planned file,
// each candidate ranked by its best rule (confidence, then support, then
// path), then the planned files' directories, most often changed first.
func (r *Rose) Gaps(plan []string, k int) ([]string, error) {
	best := map[string]rule{}
	for _, f := range plan {
		for _, c := range r.rules(f) {
			if b, ok := best[c.to]; !ok || byStrength(c, b) < 0 {
				best[c.to] = c
			}
		}
	}
	rs := make([]rule, 0, len(best))
	for _, c := range best {
		rs = append(rs, c)
	}
	slices.SortFunc(rs, byStrength)
	out := make([]string, 0, len(rs))
	for _, c := range rs {
		out = append(out, c.to)
	}
	for _, f := range plan {
		for _, g := range r.byDir[path.Dir(f)] {
			if !slices.Contains(out, g) {
				out = append(out, g)
			}
		}
	}
	return out[:min(len(out), 4*k)], nil
}

// Gaps asks the server's validate_plan with every planned file as a
// modify action; its gaps come most severe first.
func (sp *ServerPredictor) Gaps(plan []string, k int) ([]string, error) {
	return sp.gaps(plan, "")
}

// gaps is validate_plan with the task (none when empty).
func (sp *ServerPredictor) gaps(plan []string, task string) ([]string, error) {
	actions := make([]any, len(plan))
	for i, f := range plan {
		actions[i] = map[string]any{"action_type": "modify", "file_path": f}
	}
	args := map[string]any{"agent_id": "cochange", "actions": actions}
	if task != "" {
		args["task"] = task
	}
	var out struct {
		Gaps []struct {
			FilePath string `json:"file_path"`
		} `json:"gaps"`
	}
	err := sp.c.CallTool(sp.ctx, "validate_plan", args, &out)
	var te *localize.ToolError
	if errors.As(err, &te) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	fs := make([]string, 0, len(out.Gaps))
	for _, g := range out.Gaps {
		fs = append(fs, g.FilePath)
	}
	return fs, nil
}
