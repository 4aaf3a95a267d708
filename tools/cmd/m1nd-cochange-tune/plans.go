package main

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/tools/cochange"
)

// comparePlans scores, on plans missing one file of a later commit, how
// validate_plan could combine each planned file's predictions: noisy-or,
// max, or sum of the calibrated confidences.
func comparePlans(sets []*repoSet) {
	combos := []struct {
		name string
		f    func(acc, p float64) float64
	}{
		{"noisy-or", func(acc, p float64) float64 { return 1 - (1-acc)*(1-p) }},
		{"max", math.Max},
		{"sum", func(acc, p float64) float64 { return acc + p }},
	}
	for _, c := range combos {
		var n, sum, base float64
		var per []string
		for _, rs := range sets {
			pqs := cochange.PlanQueries(rs.qs)
			r := rs.planRecall(pqs, c.f)
			q := float64(len(pqs))
			n, sum = n+q, sum+q*r
			b, _ := cochange.EvaluatePlans(rs.rose, pqs, rs.uni)
			base += q * b.R10
			per = append(per, fmt.Sprintf("%s %.3f/%.3f", rs.name, r, b.R10))
		}
		fmt.Printf("%-9s plans R@10 %.4f baseline %.4f (%+.1f)  %s\n", c.name, sum/n, base/n, 100*(sum-base)/n, strings.Join(per, ", "))
	}
}

func (rs *repoSet) planRecall(pqs []cochange.PlanQuery, combine func(acc, p float64) float64) float64 {
	g := rs.ip.X.Graph()
	p := history.DefaultPredictParams()
	p.TopK = 100
	hit := 0.0
	for _, q := range pqs {
		score := map[graph.NodeID]float64{}
		for _, f := range q.Plan {
			id, ok := g.Lookup("file::" + f)
			if !ok {
				continue
			}
			res, _ := history.Predict(rs.ip.X, id, p)
			for _, pr := range res.Predictions {
				score[pr.Node] = combine(score[pr.Node], pr.Confidence)
			}
		}
		var ids []graph.NodeID
		for id := range score {
			f := strings.TrimPrefix(g.ExternalID(id), "file::")
			if rs.uni[f] && !slices.Contains(q.Plan, f) {
				ids = append(ids, id)
			}
		}
		slices.SortFunc(ids, func(a, b graph.NodeID) int {
			if score[a] != score[b] {
				if score[a] > score[b] {
					return -1
				}
				return 1
			}
			return strings.Compare(g.ExternalID(a), g.ExternalID(b))
		})
		for _, id := range ids[:min(10, len(ids))] {
			if g.ExternalID(id) == "file::"+q.Missing {
				hit++
			}
		}
	}
	return hit / float64(max(1, len(pqs)))
}
