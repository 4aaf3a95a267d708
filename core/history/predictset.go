package history

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/seek"
)

// Known is what an agent knows about its change: the nodes it has
// already changed and the files its task's text points at.
type Known struct {
	// Changed are the nodes already changed (files or entities; an
	// entity counts through its file).
	Changed []graph.NodeID
	// Task are the files the task's text matches, best first (TaskFiles).
	Task []graph.NodeID
}

// FusionWeights weigh the ranked lists PredictKnown fuses by reciprocal
// rank: Σ weight / (K + rank). Set on the tune half of the co-change
// benchmark (benchmarks/cochange; never its held-out half).
type FusionWeights struct {
	K float64
	// History: the one-file model's confidences, noisy-or over the
	// changed files. Set: commits sharing several changed files (a
	// multi-file antecedent). Task: the task's text. Structure: direct
	// dependencies of every changed file. Recency: the candidate's own
	// recent commits.
	History, Set, Task, Structure, Recency float64
}

// DefaultFusion is the fusion chosen on the tune half (a small grid on a
// flat plateau: K 5–30, the set and task weights ±50 % moved Recall@10 by
// under a point). The separate structure list got weight 0 there:
// dependencies already enter through each changed file's one-file model.
var DefaultFusion = FusionWeights{K: 10, History: 1, Set: 0.25, Task: 1, Structure: 0, Recency: 0.1}

func (w FusionWeights) validate() error {
	for _, v := range []float64{w.K, w.History, w.Set, w.Task, w.Structure, w.Recency} {
		if !(v >= 0) || math.IsInf(v, 0) {
			return errors.New("fusion weights must be finite and ≥ 0")
		}
	}
	return nil
}

// TaskDepth is how many of the task's files PredictKnown's callers pass
// (TaskFiles): deeper, the text adds more noise than targets.
const TaskDepth = 30

// MaxKnownChanged bounds Known.Changed.
const MaxKnownChanged = 50

// TaskPrior is the chance that the file at rank r (1-based, the changed
// files left out) of the task's files needs a change too, measured on the
// tune half of the co-change benchmark with each commit's message as the
// task (m1nd-cochange-known -taskrate).
func TaskPrior(r int) float64 {
	// Tune half, 2,157 one-file queries: rank 1 0.436, 2 0.270, 3 0.232,
	// 4–5 0.157, 6–10 0.078, 11–20 0.042, 21–30 0.018.
	switch {
	case r < 1:
		return 0
	case r == 1:
		return 0.44
	case r <= 3:
		return 0.25
	case r <= 5:
		return 0.16
	case r <= 10:
		return 0.08
	case r <= 20:
		return 0.04
	}
	return 0.02
}

// TaskFiles returns the files whose text best matches task in sx (seek's
// lexical and stack-trace evidence, no graph fusion: the other lists
// bring the graph), best first, at most n. Two readings alternate, the
// entity reading first: files by their best matching node (an entity hit
// counts for its file), and files by their own text alone. The second is
// there because one file's many entities can fill the first: on attrs,
// "add a not_empty validator" matched 120 entities of _make.py and
// typing_tests/ before validators.py, whose name and body are the word.
func TaskFiles(sx *seek.Index, task string, n int) []graph.NodeID {
	if sx == nil || task == "" || n < 1 {
		return nil
	}
	g := sx.Graph()
	byNode := hitFiles(g, sx.SearchText(task, seek.Params{TopK: 4 * n}).Hits)
	byFile := hitFiles(g, sx.SearchText(task, seek.Params{TopK: n, Types: []graph.NodeType{graph.File}}).Hits)
	return interleave(n, byNode, byFile)
}

// hitFiles maps hits to their files in rank order, each file once.
func hitFiles(g *graph.Graph, hits []seek.Hit) []graph.NodeID {
	seen := map[graph.NodeID]bool{}
	var out []graph.NodeID
	for _, h := range hits {
		f := FileOf(g, h.Node)
		if g.Type(f) != graph.File || seen[f] {
			continue
		}
		seen[f] = true
		out = append(out, f)
	}
	return out
}

// interleave takes the lists' files in turn (a file already taken is
// skipped), at most n.
func interleave(n int, lists ...[]graph.NodeID) []graph.NodeID {
	seen := map[graph.NodeID]bool{}
	var out []graph.NodeID
	for i := 0; len(out) < n; i++ {
		more := false
		for _, l := range lists {
			if i >= len(l) {
				continue
			}
			more = true
			if f := l[i]; !seen[f] && len(out) < n {
				seen[f] = true
				out = append(out, f)
			}
		}
		if !more {
			break
		}
	}
	return out
}

// PredictKnown ranks the files most likely to need a change given
// everything the agent knows: for each changed file, the one-file model
// (Predict's confidence), combined as a noisy-or; commits that changed
// several of the changed files together (a multi-file antecedent, as
// ROSE's rules over a set); the task's files; direct dependencies of
// every changed file; the candidates' own recent activity. The lists are
// fused by weighted reciprocal rank (w), ties by node ID. Confidence
// is the noisy-or of the one-file confidences (calibrated) and the task
// rank's prior (TaskPrior); Task is set for files the task's text
// matches. With one changed node and no
// task the ranking is Predict's.
func PredictKnown(x *Index, k Known, p PredictParams, w FusionWeights) (PredictResult, error) {
	if err := w.validate(); err != nil {
		return PredictResult{}, err
	}
	if len(k.Changed) == 0 && len(k.Task) == 0 {
		return PredictResult{}, errors.New("name at least one changed node or a task")
	}
	if len(k.Changed) > MaxKnownChanged {
		return PredictResult{}, fmt.Errorf("at most %d changed nodes, got %d", MaxKnownChanged, len(k.Changed))
	}
	if len(k.Changed) == 1 && len(k.Task) == 0 {
		return Predict(x, k.Changed[0], p)
	}
	if err := p.validate(); err != nil {
		return PredictResult{}, err
	}
	fz, err := newFusion(x, k, p)
	if err != nil {
		return PredictResult{}, err
	}
	return fz.rank(w), nil
}

type fused struct {
	pred     Prediction
	miss     float64 // Π(1 − confidence) over the changed files
	set      float64
	dep      float64
	task     int // rank in Known.Task without the changed files, 1-based (0: absent)
	activity float64
}

type fusion struct {
	x       *Index
	p       PredictParams
	changed []graph.NodeID // files, deduplicated, in order
	isChg   map[graph.NodeID]bool
	cands   map[graph.NodeID]*fused
	commits int
}

func newFusion(x *Index, k Known, p PredictParams) (*fusion, error) {
	fz := &fusion{x: x, p: p, isChg: map[graph.NodeID]bool{}, cands: map[graph.NodeID]*fused{}}
	for _, id := range k.Changed {
		if !x.g.Valid(id) {
			return nil, fmt.Errorf("node %d is not in the graph", id)
		}
		if f := FileOf(x.g, id); !fz.isChg[f] {
			fz.isChg[f] = true
			fz.changed = append(fz.changed, f)
		}
	}
	for _, id := range k.Changed {
		if err := fz.one(id); err != nil {
			return nil, err
		}
	}
	fz.set()
	r := 0
	for _, f := range k.Task {
		if fz.keep(f) {
			if c := fz.get(f); c.task == 0 {
				r++
				c.task = r
			}
		}
	}
	fz.activity()
	return fz, nil
}

func (fz *fusion) keep(id graph.NodeID) bool {
	if fz.isChg[id] || fz.x.g.Type(id) != graph.File {
		return false
	}
	return fz.p.Keep == nil || fz.p.Keep(id)
}

func (fz *fusion) get(id graph.NodeID) *fused {
	c := fz.cands[id]
	if c == nil {
		c = &fused{pred: Prediction{Node: id}, miss: 1}
		fz.cands[id] = c
	}
	return c
}

// one folds the one-file evidence of changed into the candidates.
func (fz *fusion) one(changed graph.NodeID) error {
	ev, err := gather(fz.x, changed, &fz.p)
	if err != nil {
		return err
	}
	fz.commits += ev.n
	for id, ec := range ev.cands {
		if !fz.keep(id) {
			continue
		}
		c := fz.get(id)
		conf := clamp01(ev.score(ec))
		c.miss *= 1 - conf
		c.dep += ec.structure
		pr := &c.pred
		pr.CoChanges = max(pr.CoChanges, ec.joint)
		pr.History = max(pr.History, clamp01(ec.hist))
		pr.Structure = max(pr.Structure, clamp01(ec.structure))
		pr.Directory = max(pr.Directory, ec.dir)
		if fz.p.IncludeVelocity && ec.joint > 0 {
			pr.Velocity = max(pr.Velocity, clamp01(1-math.Exp(-ec.jointRec)))
		}
		if ec.hops > 0 && (pr.HopDistance == 0 || ec.hops < pr.HopDistance) {
			pr.HopDistance = ec.hops
		}
		if conf > pr.Confidence {
			pr.Confidence, pr.Reasons = conf, ev.reasons(ec)
		}
	}
	return nil
}

// set scores each candidate by the commits it shares with two or more of
// the changed files, each weighted by the share of the changed set the
// commit holds (squared: a commit holding the whole set is a rule whose
// antecedent is the set) and by recency and size as Predict weighs them.
func (fz *fusion) set() {
	if len(fz.changed) < 2 {
		return
	}
	x, n := fz.x, float64(len(fz.changed))
	overlap := map[int32]int{}
	for _, f := range fz.changed {
		for _, ci := range x.byFile[f] {
			overlap[ci]++
		}
	}
	ev := &evidence{x: x, p: &fz.p}
	for ci, o := range overlap {
		if o < 2 {
			continue
		}
		fs := x.files[ci]
		w := ev.recency(x.commits[ci].Time) * (float64(o) / n) * (float64(o) / n)
		if len(fs) > fz.p.LargeCommit {
			w *= float64(fz.p.LargeCommit) / float64(len(fs))
		}
		for _, id := range fs {
			if fz.keep(id) {
				fz.get(id).set += w
			}
		}
	}
}

func (fz *fusion) activity() {
	ev := &evidence{x: fz.x, p: &fz.p}
	for id, c := range fz.cands {
		act := 0.0
		for _, ci := range fz.x.byFile[id] {
			act += ev.recency(fz.x.commits[ci].Time)
		}
		c.activity = 1 - math.Exp(-act/5)
		c.pred.Activity = clamp01(c.activity)
	}
}

// ranks gives each candidate its 1-based rank by score (0: score ≤ 0),
// ties by node ID.
func ranks(ids []graph.NodeID, score func(graph.NodeID) float64) map[graph.NodeID]int {
	s := slices.Clone(ids)
	slices.SortFunc(s, func(a, b graph.NodeID) int {
		if sa, sb := score(a), score(b); sa != sb {
			if sa > sb {
				return -1
			}
			return 1
		}
		return int(a) - int(b)
	})
	out := make(map[graph.NodeID]int, len(s))
	for i, id := range s {
		if score(id) > 0 {
			out[id] = i + 1
		}
	}
	return out
}

func (fz *fusion) rank(w FusionWeights) PredictResult {
	ids := make([]graph.NodeID, 0, len(fz.cands))
	for id := range fz.cands {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	c := fz.cands
	lists := []struct {
		w float64
		r map[graph.NodeID]int
	}{
		{w.History, ranks(ids, func(id graph.NodeID) float64 { return 1 - c[id].miss })},
		{w.Set, ranks(ids, func(id graph.NodeID) float64 { return c[id].set })},
		{w.Task, ranks(ids, func(id graph.NodeID) float64 { return fz.taskScore(c[id]) })},
		{w.Structure, ranks(ids, func(id graph.NodeID) float64 { return c[id].dep })},
		{w.Recency, ranks(ids, func(id graph.NodeID) float64 { return c[id].activity })},
	}
	score := map[graph.NodeID]float64{}
	for _, id := range ids {
		for _, l := range lists {
			if r := l.r[id]; r > 0 {
				score[id] += l.w / (w.K + float64(r))
			}
		}
	}
	preds := make([]Prediction, 0, len(ids))
	for _, id := range ids {
		cd := c[id]
		pr := cd.pred
		pr.Confidence = clamp01(1 - cd.miss*(1-TaskPrior(cd.task)))
		if cd.task > 0 {
			pr.Task = fz.taskScore(cd)
			pr.Reasons = append(slices.Clone(pr.Reasons), fmt.Sprintf("the task's text matches it (#%d)", cd.task))
		}
		if len(pr.Reasons) == 0 && pr.Directory > 0 {
			pr.Reasons = []string{"same directory"}
		}
		preds = append(preds, pr)
	}
	slices.SortStableFunc(preds, func(a, b Prediction) int {
		if sa, sb := score[a.Node], score[b.Node]; sa != sb {
			if sa > sb {
				return -1
			}
			return 1
		}
		return int(a.Node) - int(b.Node)
	})
	res := PredictResult{File: graph.NoNode, Commits: fz.commits, Candidates: len(ids)}
	if len(fz.changed) > 0 {
		res.Changed, res.File = fz.changed[0], fz.changed[0]
	}
	res.Predictions = preds[:min(len(preds), fz.p.TopK)]
	monotone(res.Predictions)
	return res
}

// monotone caps each confidence at the one ranked above it. The fused
// rank (tuned for recall) and the confidence (a calibrated chance) can
// disagree; an answer whose third file is more likely than its first
// reads as a bug, so the list keeps the rank and the lower, conservative
// chance.
func monotone(preds []Prediction) {
	for i := 1; i < len(preds); i++ {
		preds[i].Confidence = min(preds[i].Confidence, preds[i-1].Confidence)
	}
}

// taskScore is 1/rank in the task's files (0 when absent).
func (fz *fusion) taskScore(c *fused) float64 {
	if c.task == 0 {
		return 0
	}
	return 1 / float64(c.task)
}
