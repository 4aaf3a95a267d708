package main

import (
	"math"

	"github.com/m1nd-go/m1nd/core/history"
)

// fit is an L2-penalised logistic regression (Newton's method) over the
// candidates of every set but skip. Each query weighs the same in total,
// so that queries with hundreds of same-directory candidates do not
// drown the rest.
func fit(sets []*repoSet, skip *repoSet, lambda float64) []float64 {
	d := len(history.FeatureNames)
	w := make([]float64, d)
	for iter := 0; iter < 25; iter++ {
		grad := make([]float64, d)
		hess := make([][]float64, d)
		for i := range hess {
			hess[i] = make([]float64, d)
		}
		for _, rs := range sets {
			if rs == skip {
				continue
			}
			for _, q := range rs.rowsOf {
				if len(q.ids) == 0 {
					continue
				}
				qw := 1 / float64(len(q.ids))
				for i, f := range q.feats {
					p := 1 / (1 + math.Exp(-dot(w, f)))
					y := 0.0
					if q.label[i] {
						y = 1
					}
					for a := range d {
						grad[a] += qw * (p - y) * f[a]
						s := qw * p * (1 - p) * f[a]
						for b := range d {
							hess[a][b] += s * f[b]
						}
					}
				}
			}
		}
		for a := 1; a < d; a++ { // the bias is not penalised
			grad[a] += lambda * 1e-3 * w[a]
			hess[a][a] += lambda * 1e-3
		}
		hess[0][0] += 1e-9
		step := solve(hess, grad)
		norm := 0.0
		for a := range d {
			w[a] -= step[a]
			norm += step[a] * step[a]
		}
		if norm < 1e-12 {
			break
		}
	}
	return w
}

// solve returns x with h·x = g (Gaussian elimination with pivoting).
func solve(h [][]float64, g []float64) []float64 {
	n := len(g)
	a := make([][]float64, n)
	for i := range a {
		a[i] = append(append([]float64{}, h[i]...), g[i])
	}
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		if math.Abs(a[c][c]) < 1e-15 {
			a[c][c] = 1e-15
		}
		for r := range n {
			if r == c {
				continue
			}
			f := a[r][c] / a[c][c]
			for k := c; k <= n; k++ {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = a[i][n] / a[i][i]
	}
	return x
}

// fitListwise fits the model as a choice among each query's candidates
// (a softmax over them; each target a chosen one): it learns how to rank
// within a query, which is what Recall@k asks, not how likely a candidate
// is in absolute terms. The bias cancels out and stays 0. Newton steps,
// halved while they do not lower the loss.
func fitListwise(sets []*repoSet, skip *repoSet, lambda float64) []float64 {
	d := len(history.FeatureNames)
	w := make([]float64, d)
	loss, grad, hess := listwiseLoss(sets, skip, lambda, w)
	for iter := 0; iter < 40; iter++ {
		hess[0][0] += 1
		step := solve(hess, grad)
		improved := false
		for t := 1.0; t > 1e-4; t /= 2 {
			next := make([]float64, d)
			for a := range d {
				next[a] = w[a] - t*step[a]
			}
			l, g, h := listwiseLoss(sets, skip, lambda, next)
			if l < loss {
				improved = loss-l > 1e-9
				w, loss, grad, hess = next, l, g, h
				break
			}
		}
		if !improved {
			break
		}
	}
	return w
}

func listwiseLoss(sets []*repoSet, skip *repoSet, lambda float64, w []float64) (float64, []float64, [][]float64) {
	d := len(w)
	grad := make([]float64, d)
	hess := make([][]float64, d)
	for i := range hess {
		hess[i] = make([]float64, d)
	}
	loss := 0.0
	for _, rs := range sets {
		if rs == skip {
			continue
		}
		for _, q := range rs.rowsOf {
			loss += listwiseQuery(q, w, grad, hess)
		}
	}
	for a := 1; a < d; a++ {
		loss += lambda * w[a] * w[a] / 2
		grad[a] += lambda * w[a]
		hess[a][a] += lambda
	}
	return loss, grad, hess
}

// listwiseQuery adds one query's gradient and Hessian of
// -Σ_targets log softmax(z)_t / |targets| and returns its value.
func listwiseQuery(q queryRows, w, grad []float64, hess [][]float64) float64 {
	npos := 0
	for _, l := range q.label {
		if l {
			npos++
		}
	}
	if npos == 0 {
		return 0
	}
	d := len(w)
	z := make([]float64, len(q.feats))
	zmax := math.Inf(-1)
	for i, f := range q.feats {
		z[i] = dot(w, f)
		zmax = max(zmax, z[i])
	}
	sum := 0.0
	e := make([]float64, len(z))
	for i := range z {
		e[i] = math.Exp(z[i] - zmax)
		sum += e[i]
	}
	lse := zmax + math.Log(sum)
	mean := make([]float64, d)
	for i, f := range q.feats {
		p := e[i] / sum
		for a := range d {
			mean[a] += p * f[a]
		}
	}
	loss := 0.0
	for i, f := range q.feats {
		if q.label[i] {
			loss += (lse - z[i]) / float64(npos)
			for a := range d {
				grad[a] -= (f[a] - mean[a]) / float64(npos)
			}
		}
		p := e[i] / sum
		for a := range d {
			da := f[a] - mean[a]
			for b := range d {
				hess[a][b] += p * da * (f[b] - mean[b])
			}
		}
	}
	return loss
}

// calibrate scales model (Platt scaling: a·z + b, every candidate
// weighing the same; a grid search, coarse then fine, on the log loss)
// so that its logistic is the share of candidates that really changed at
// that score; the ranking is unchanged (a > 0).
func calibrate(sets []*repoSet, model []float64) []float64 {
	var zs []float64
	var ys []bool
	for _, rs := range sets {
		for _, q := range rs.rowsOf {
			for i, f := range q.feats {
				zs = append(zs, dot(model[1:], f[1:]))
				ys = append(ys, q.label[i])
			}
		}
	}
	loss := func(a, b float64) float64 {
		l := 0.0
		for i, z := range zs {
			t := a*z + b
			if ys[i] {
				t = -t
			}
			l += math.Log1p(math.Exp(t)) // -log σ(±t)
		}
		return l
	}
	bestA, bestB, best := 1.0, 0.0, math.Inf(1)
	for _, step := range []float64{0.2, 0.02} {
		ca, cb := bestA, bestB
		for da := -10; da <= 10; da++ {
			for db := -20; db <= 20; db++ {
				a, b := ca+float64(da)*step, cb+float64(db)*step*5
				if a <= 0 {
					continue
				}
				if l := loss(a, b); l < best {
					bestA, bestB, best = a, b, l
				}
			}
		}
	}
	out := make([]float64, len(model))
	out[0] = bestB
	for i := 1; i < len(model); i++ {
		out[i] = bestA * model[i]
	}
	return out
}
