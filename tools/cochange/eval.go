package cochange

import (
	"math"
	"path"
	"slices"
	"strings"
)

// Query asks what changes with File; Targets are the other source files of
// the same test commit that existed at the cut.
type Query struct {
	Commit  string
	File    string
	Targets []string
}

// Queries turns test commits touching 2–8 source files into queries: one
// per changed file present at the cut that has at least one target.
// Skipped counts target files that did not exist at the cut (nothing can
// predict those).
func Queries(s *Split) (qs []Query, skipped int) {
	for _, c := range s.Test {
		var src []string
		for _, f := range c.Files {
			if IsSource(f) {
				src = append(src, f)
			}
		}
		if len(src) < 2 || len(src) > 8 {
			continue
		}
		var known []string
		for _, f := range src {
			if s.Universe[f] {
				known = append(known, f)
			} else {
				skipped++
			}
		}
		for _, f := range known {
			var ts []string
			for _, t := range known {
				if t != f {
					ts = append(ts, t)
				}
			}
			if len(ts) > 0 {
				qs = append(qs, Query{Commit: c.Hash, File: f, Targets: ts})
			}
		}
	}
	return qs, skipped
}

// Predictor ranks the files likely to change with file (best first).
type Predictor interface {
	Predict(file string, k int) ([]string, error)
}

// Scores are mean recalls over queries.
type Scores struct {
	Queries int     `json:"queries"`
	R5      float64 `json:"recall_at_5"`
	R10     float64 `json:"recall_at_10"`
}

// Recall is |top k ∩ targets| / |targets|.
func Recall(pred []string, targets []string, k int) float64 {
	if len(targets) == 0 {
		return 0
	}
	hit := 0
	for _, p := range pred[:min(k, len(pred))] {
		if slices.Contains(targets, p) {
			hit++
		}
	}
	return float64(hit) / float64(len(targets))
}

// Evaluate scores p over qs; predictions outside the universe (not source
// files present at the cut, or the query file itself) are dropped before
// the cut at k, for every predictor alike.
func Evaluate(p Predictor, qs []Query, universe map[string]bool) (Scores, []float64, error) {
	sc := Scores{Queries: len(qs)}
	per := make([]float64, len(qs))
	for i, q := range qs {
		raw, err := p.Predict(q.File, 10)
		if err != nil {
			return sc, nil, err
		}
		var pred []string
		for _, f := range raw {
			if universe[f] && f != q.File && !slices.Contains(pred, f) {
				pred = append(pred, f)
			}
		}
		r5, r10 := Recall(pred, q.Targets, 5), Recall(pred, q.Targets, 10)
		sc.R5 += r5
		sc.R10 += r10
		per[i] = r10
	}
	if len(qs) > 0 {
		sc.R5 = round4(sc.R5 / float64(len(qs)))
		sc.R10 = round4(sc.R10 / float64(len(qs)))
	}
	return sc, per, nil
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// Rose is the association-rule baseline: for file f, every file g that
// changed with f in a training commit is a rule f ⇒ g with support
// count(f, g) and confidence count(f, g)/count(f); rules rank by
// confidence, then support, then path. Commits of more than MaxGroup files
// are left out of training (sweeping changes couple everything). When the
// rules run out, files of f's directory fill the list, most often changed
// first.
type Rose struct {
	MaxGroup int
	count    map[string]int
	pair     map[string]map[string]int
	byDir    map[string][]string
}

// NewRose trains the baseline on train over the files of universe.
func NewRose(train []Commit, universe map[string]bool, maxGroup int) *Rose {
	r := &Rose{MaxGroup: maxGroup, count: map[string]int{}, pair: map[string]map[string]int{}, byDir: map[string][]string{}}
	for _, c := range train {
		var fs []string
		for _, f := range c.Files {
			if universe[f] {
				fs = append(fs, f)
			}
		}
		for _, f := range fs {
			r.count[f]++
		}
		if len(fs) > maxGroup {
			continue
		}
		for _, f := range fs {
			if r.pair[f] == nil {
				r.pair[f] = map[string]int{}
			}
			for _, g := range fs {
				if g != f {
					r.pair[f][g]++
				}
			}
		}
	}
	for f := range universe {
		d := path.Dir(f)
		r.byDir[d] = append(r.byDir[d], f)
	}
	for d, fs := range r.byDir {
		slices.SortFunc(fs, func(a, b string) int {
			if r.count[a] != r.count[b] {
				return r.count[b] - r.count[a]
			}
			return strings.Compare(a, b)
		})
		r.byDir[d] = fs
	}
	return r
}

// rule is f ⇒ to with its support and confidence.
type rule struct {
	to   string
	sup  int
	conf float64
}

// byStrength orders rules as ROSE ranks them: confidence, then support,
// then path.
func byStrength(a, b rule) int {
	switch {
	case a.conf != b.conf:
		if a.conf > b.conf {
			return -1
		}
		return 1
	case a.sup != b.sup:
		return b.sup - a.sup
	}
	return strings.Compare(a.to, b.to)
}

// rules returns file's rules, strongest first.
func (r *Rose) rules(file string) []rule {
	var rs []rule
	for g, n := range r.pair[file] {
		rs = append(rs, rule{g, n, float64(n) / float64(r.count[file])})
	}
	slices.SortFunc(rs, byStrength)
	return rs
}

// Predict implements Predictor.
func (r *Rose) Predict(file string, k int) ([]string, error) {
	var out []string
	for _, x := range r.rules(file) {
		if len(out) == k {
			return out, nil
		}
		out = append(out, x.to)
	}
	for _, g := range r.byDir[path.Dir(file)] {
		if len(out) == k {
			break
		}
		if g != file && !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out, nil
}
