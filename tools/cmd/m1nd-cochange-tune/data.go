package main

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/tools/cochange"
)

// repoSet is one tune repository's queries with every candidate's
// features and whether it was a target.
type repoSet struct {
	name   string
	qs     []cochange.Query
	base   float64 // the ROSE baseline's Recall@10
	ip     *cochange.InProcess
	uni    map[string]bool
	rose   *cochange.Rose
	rowsOf []queryRows
}

type queryRows struct {
	ids     []graph.NodeID
	feats   [][]float64
	label   []bool
	targets int
}

func prepare(ctx context.Context, name, src, commit, dir string) (*repoSet, error) {
	s, err := cochange.Prepare(ctx, src, commit, 0.8, dir)
	if err != nil {
		return nil, err
	}
	qs, _ := cochange.Queries(s)
	ip, err := cochange.NewInProcess(ctx, s.Checkout)
	if err != nil {
		return nil, err
	}
	bs, _, err := cochange.Evaluate(cochange.NewRose(s.Train, s.Universe, 30), qs, s.Universe)
	if err != nil {
		return nil, err
	}
	rs := &repoSet{name: name, qs: qs, base: bs.R10, ip: ip, uni: s.Universe, rose: cochange.NewRose(s.Train, s.Universe, 30)}
	g := ip.X.Graph()
	p := history.DefaultPredictParams()
	// Candidates are cut to the files the benchmark scores (source files
	// present at the cut), as Evaluate cuts every predictor's answer.
	p.Keep = func(id graph.NodeID) bool { return s.Universe[strings.TrimPrefix(g.ExternalID(id), "file::")] }
	for _, q := range qs {
		var qr queryRows
		qr.targets = len(q.Targets)
		if id, ok := g.Lookup("file::" + q.File); ok {
			ids, fs, err := history.Candidates(ip.X, id, p)
			if err != nil {
				return nil, err
			}
			qr.ids, qr.feats = ids, fs
			for _, c := range ids {
				qr.label = append(qr.label, slices.Contains(q.Targets, strings.TrimPrefix(g.ExternalID(c), "file::")))
			}
		}
		rs.rowsOf = append(rs.rowsOf, qr)
	}
	return rs, nil
}

func (rs *repoSet) rows() int {
	n := 0
	for _, q := range rs.rowsOf {
		n += len(q.ids)
	}
	return n
}

func dot(w, f []float64) float64 {
	z := 0.0
	for i := range w {
		z += w[i] * f[i]
	}
	return z
}

// recall is the mean Recall@10 when model ranks each query's candidates
// (ties by node ID, as Predict breaks them).
func (rs *repoSet) recall(model []float64) float64 {
	if len(rs.rowsOf) == 0 {
		return 0
	}
	sum := 0.0
	for _, q := range rs.rowsOf {
		hit := 0
		for _, i := range q.ranked(model)[:min(10, len(q.ids))] {
			if q.label[i] {
				hit++
			}
		}
		sum += float64(hit) / float64(q.targets)
	}
	return sum / float64(len(rs.rowsOf))
}

// ranked orders the query's candidates as Predict would with model: by
// confidence (the logistic, so that scores which saturate tie as they do
// there), then node ID.
func (q queryRows) ranked(model []float64) []int {
	order := make([]int, len(q.ids))
	score := make([]float64, len(q.ids))
	for i := range order {
		order[i] = i
		score[i] = 1 / (1 + math.Exp(-dot(model, q.feats[i])))
	}
	slices.SortFunc(order, func(a, b int) int {
		if score[a] != score[b] {
			if score[a] > score[b] {
				return -1
			}
			return 1
		}
		return int(q.ids[a]) - int(q.ids[b])
	})
	return order
}

// viaPredict scores model through history.Predict and the benchmark's own
// Evaluate: the check that recall measures what the server would answer.
func (rs *repoSet) viaPredict(model []float64) float64 {
	rs.ip.Params = history.DefaultPredictParams()
	rs.ip.Params.Model = model
	sc, _, err := cochange.Evaluate(rs.ip, rs.qs, rs.uni)
	if err != nil {
		panic(err)
	}
	return sc.R10
}

// coverage is the mean share of targets among the candidates at all: the
// ceiling of any ranking.
func (rs *repoSet) coverage() float64 {
	sum := 0.0
	for _, q := range rs.rowsOf {
		hit := 0
		for _, l := range q.label {
			if l {
				hit++
			}
		}
		sum += float64(hit) / float64(q.targets)
	}
	return sum / float64(max(1, len(rs.rowsOf)))
}

// breakdown splits the targets into those that ever changed with the file
// (has_joint) and the rest, with the share of each that model ranks in
// its top 10.
func (rs *repoSet) breakdown(model []float64) (withJoint, withoutJoint, hitWith, hitWithout, missing int) {
	for _, q := range rs.rowsOf {
		order := q.ranked(model)
		pos := 0
		for r, i := range order {
			if !q.label[i] {
				continue
			}
			pos++
			if q.feats[i][2] > 0 { // log_joint: ever changed together
				withJoint++
				if r < 10 {
					hitWith++
				}
			} else {
				withoutJoint++
				if r < 10 {
					hitWithout++
				}
			}
		}
		missing += q.targets - pos
	}
	return
}

// reliability prints, per confidence decile, how many candidates scored
// there and the share of them that were targets.
func reliability(sets []*repoSet, model []float64) {
	var n, pos [10]int
	var sum [10]float64
	for _, rs := range sets {
		for _, q := range rs.rowsOf {
			for i, f := range q.feats {
				p := 1 / (1 + math.Exp(-dot(model, f)))
				k := min(int(p*10), 9)
				n[k]++
				sum[k] += p
				if q.label[i] {
					pos[k]++
				}
			}
		}
	}
	for k := range n {
		if n[k] > 0 {
			fmt.Printf("confidence %.1f–%.1f: %6d candidates, mean %.3f, observed %.3f\n", float64(k)/10, float64(k+1)/10, n[k], sum[k]/float64(n[k]), float64(pos[k])/float64(n[k]))
		}
	}
}
