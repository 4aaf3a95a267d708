package history

import (
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/graph"
)

// PredictParams configures Predict. The weights were fixed on the tune
// half of the co-change benchmark (benchmarks/cochange) and never on its
// held-out half.
type PredictParams struct {
	// TopK bounds the predictions (default 10).
	TopK int
	// IncludeVelocity weighs co-change evidence by recency (half-life
	// HalfLifeDays before the newest commit) and reports each prediction's
	// velocity; without it every past commit counts the same.
	IncludeVelocity bool
	HalfLifeDays    float64
	// LargeCommit: a commit of n > LargeCommit files counts LargeCommit/n
	// of a commit — a sweeping change says little about any one pair.
	LargeCommit int
	// SupportK discounts co-change confidence seen in few commits:
	// conf · n/(n+SupportK) (the History score reported).
	SupportK float64
	// Model holds one coefficient per feature (FeatureNames): a
	// candidate's confidence is the logistic of their weighted sum. Nil
	// means DefaultModel.
	Model []float64
	// StructureHops bounds the dependency hops followed (default 1: on
	// the tune split a second hop added more noise than partners).
	StructureHops int
	// Keep, when set, restricts the candidates (e.g. to source files).
	Keep func(graph.NodeID) bool
}

// DefaultPredictParams returns the tuned defaults.
func DefaultPredictParams() PredictParams {
	return PredictParams{
		TopK: 10, IncludeVelocity: true, HalfLifeDays: 365, LargeCommit: 20, SupportK: 3,
		StructureHops: 1,
	}
}

func (p *PredictParams) validate() error {
	if p.TopK < 1 || p.TopK > 1000 {
		return fmt.Errorf("top_k must be in [1, 1000], got %d", p.TopK)
	}
	if p.Model != nil && len(p.Model) != len(FeatureNames) {
		return fmt.Errorf("the model needs %d coefficients (FeatureNames), got %d", len(FeatureNames), len(p.Model))
	}
	for _, w := range p.Model {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return errors.New("model coefficients must be finite")
		}
	}
	if p.StructureHops < 1 || p.StructureHops > 5 {
		return fmt.Errorf("structure hops must be in [1, 5], got %d", p.StructureHops)
	}
	if !(p.HalfLifeDays > 0) || math.IsInf(p.HalfLifeDays, 0) || p.LargeCommit < 1 || !(p.SupportK >= 0) {
		return errors.New("half-life must be > 0, large commit ≥ 1, support k ≥ 0")
	}
	return nil
}

// Prediction is one file likely to need a change too.
type Prediction struct {
	Node graph.NodeID `json:"node"`
	// Confidence is in [0, 1].
	Confidence float64 `json:"confidence"`
	// Velocity (in [0, 1]) is how recently and often the pair changed
	// together (the file's own recent activity when they never did).
	Velocity float64 `json:"velocity"`
	// CoChanges counts the commits in which both changed.
	CoChanges int `json:"co_changes"`
	// History, Structure, Directory and Activity are the evidence scores
	// (each in [0, 1]) Confidence combines.
	History   float64 `json:"history"`
	Structure float64 `json:"structure"`
	Directory float64 `json:"directory"`
	Activity  float64 `json:"activity"`
	// Task is how well the task's text matches the file (1/rank among
	// the task's files; 0: not among them or no task). PredictKnown only.
	Task float64 `json:"task,omitempty"`
	// HopDistance is the dependency distance (0: none within the hops).
	HopDistance int      `json:"hop_distance,omitempty"`
	Reasons     []string `json:"reasons"`
}

// PredictResult is Predict's answer.
type PredictResult struct {
	// Changed is the node asked about; File the file the history was read
	// through (the same node for a file).
	Changed graph.NodeID `json:"changed"`
	File    graph.NodeID `json:"file"`
	// Commits counts the commits that changed File.
	Commits     int          `json:"commits"`
	Candidates  int          `json:"candidates"`
	Predictions []Prediction `json:"predictions"`
}

// FileOf returns the file node holding id (id itself for a file), or id
// when it has none.
func FileOf(g *graph.Graph, id graph.NodeID) graph.NodeID {
	if g.Type(id) == graph.File {
		return id
	}
	if p := g.SourcePath(id); p != "" {
		if f, ok := g.Lookup("file::" + p); ok {
			return f
		}
	}
	return id
}

// Predict ranks the files most likely to need a change when changed
// changes. Its phases:
//
//  1. history: the commits that changed the file, each weighted by
//     recency and size; each partner's share of them;
//  2. structure: dependency neighbours both ways (imports, calls,
//     references, inheritance, tests) within StructureHops, from
//     analysis.Impact — so a file without history still gets predictions;
//  3. context: the same directory, files of the same name stem (foo.go,
//     foo_test.go, FooTest.java), and each candidate's own activity;
//  4. rank: the model's logistic score over each candidate's features,
//     ties by node ID.
func Predict(x *Index, changed graph.NodeID, p PredictParams) (PredictResult, error) {
	ev, err := gather(x, changed, &p)
	if err != nil {
		return PredictResult{}, err
	}
	return ev.rank(changed), nil
}

// Candidates returns every candidate Predict considers for changed, with
// its features (in FeatureNames order), unranked: the input for fitting
// a model.
func Candidates(x *Index, changed graph.NodeID, p PredictParams) ([]graph.NodeID, [][]float64, error) {
	ev, err := gather(x, changed, &p)
	if err != nil {
		return nil, nil, err
	}
	ids := make([]graph.NodeID, 0, len(ev.cands))
	for id := range ev.cands {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	fs := make([][]float64, len(ids))
	for i, id := range ids {
		fs[i] = ev.features(ev.cands[id])
	}
	return ids, fs, nil
}

func gather(x *Index, changed graph.NodeID, p *PredictParams) (*evidence, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	if !x.g.Valid(changed) {
		return nil, fmt.Errorf("node %d is not in the graph", changed)
	}
	ev := newEvidence(x, FileOf(x.g, changed), p)
	ev.history()
	if err := ev.structure(changed); err != nil {
		return nil, err
	}
	ev.context()
	return ev, nil
}

type cand struct {
	hist, weighted float64
	joint          int
	jointSmall     int // joint commits of at most LargeCommit files
	last           int64
	jointRec       float64
	structure      float64
	tests          bool
	hops           int
	via            string
	dir, activity  float64
	stem           float64
}

type evidence struct {
	x     *Index
	p     *PredictParams
	file  graph.NodeID
	dir   string
	cands map[graph.NodeID]*cand
	n     int
	total float64
	// nSmall counts the file's commits of at most LargeCommit files.
	nSmall int
}

func newEvidence(x *Index, file graph.NodeID, p *PredictParams) *evidence {
	return &evidence{x: x, p: p, file: file, dir: path.Dir(x.g.SourcePath(file)), cands: map[graph.NodeID]*cand{}}
}

func (ev *evidence) get(id graph.NodeID) *cand {
	c := ev.cands[id]
	if c == nil {
		c = &cand{}
		ev.cands[id] = c
	}
	return c
}

func (ev *evidence) keep(id graph.NodeID) bool {
	if id == ev.file || ev.x.g.Type(id) != graph.File || ev.x.IsFragment(id) {
		return false
	}
	return ev.p.Keep == nil || ev.p.Keep(id)
}

// recency is 2^(-age/half-life) (1 without velocity).
func (ev *evidence) recency(t int64) float64 {
	if !ev.p.IncludeVelocity {
		return 1
	}
	age := float64(ev.x.head-t) / 86400
	return math.Exp2(-max(age, 0) / ev.p.HalfLifeDays)
}

func (ev *evidence) history() {
	x := ev.x
	for _, ci := range x.byFile[ev.file] {
		fs := x.files[ci]
		ev.n++
		rec := ev.recency(x.commits[ci].Time)
		w := rec
		if n := len(fs); n > ev.p.LargeCommit {
			w *= float64(ev.p.LargeCommit) / float64(n)
		}
		ev.total += w
		small := len(fs) <= ev.p.LargeCommit
		if small {
			ev.nSmall++
		}
		for _, o := range fs {
			if !ev.keep(o) {
				continue
			}
			c := ev.get(o)
			c.weighted += w
			if small {
				c.jointSmall++
			}
			c.joint++
			c.jointRec += rec
			c.last = max(c.last, x.commits[ci].Time)
		}
	}
	if ev.total <= 0 {
		return
	}
	for _, c := range ev.cands {
		n := float64(c.joint)
		c.hist = c.weighted / ev.total * n / (n + ev.p.SupportK)
	}
}

// structure collects dependency neighbours both ways at file level.
func (ev *evidence) structure(changed graph.NodeID) error {
	ip := analysis.DefaultImpactParams()
	ip.Direction, ip.Level, ip.MaxHops = analysis.BothWays, analysis.LevelFile, ev.p.StructureHops
	ip.IncludeCausalChains, ip.MaxVia, ip.EdgeBudget = false, 1, 200_000
	res, err := analysis.Impact(ev.x.g, changed, ip)
	if err != nil {
		return err
	}
	g := ev.x.g
	for _, n := range res.BlastRadius {
		f := FileOf(g, n.Node)
		if !ev.keep(f) {
			continue
		}
		s := float64(n.SignalStrength) * math.Pow(0.5, float64(n.HopDistance-1))
		c := ev.get(f)
		if s > c.structure {
			c.structure, c.hops = s, n.HopDistance
			c.via = ""
			if len(n.Via) > 0 {
				u := n.Via[0]
				c.via = short(g, FileOf(g, u.Dependent)) + " " + relPhrase(u.Relation) + " " + short(g, FileOf(g, u.Dependency))
				if u.Relation == "tests" || strings.HasSuffix(u.Relation, "::tests") {
					c.tests = true
				}
			}
		}
	}
	return nil
}

// relPhrase reads an edge's relation between two files as a verb: the
// reason is read by people, and "a.go member_of b.go" is not English.
func relPhrase(rel string) string {
	switch rel {
	case "member_of":
		return "defines methods of a type in"
	case "imports::type":
		return "imports types from"
	case "inherits":
		return "inherits from"
	case "instantiates":
		return "constructs a class of"
	case "decorated_by":
		return "is decorated by"
	}
	if i := strings.LastIndex(rel, "::"); i >= 0 {
		return relPhrase(rel[i+2:])
	}
	return rel
}

func short(g *graph.Graph, id graph.NodeID) string {
	return strings.TrimPrefix(g.ExternalID(id), "file::")
}

// context adds the same-directory files (the root's too, which has no
// directory node), the files sharing the name stem, and each candidate's
// activity.
func (ev *evidence) context() {
	if ev.dir != "" {
		for _, id := range ev.x.DirFiles(ev.dir) {
			if ev.keep(id) {
				ev.get(id).dir = 1
			}
		}
	}
	if st := Stem(ev.x.g.SourcePath(ev.file)); st != "" {
		for _, id := range ev.x.StemFiles(st) {
			if ev.keep(id) {
				ev.get(id).stem = 1
			}
		}
	}
	for id, c := range ev.cands {
		act := 0.0
		for _, ci := range ev.x.byFile[id] {
			act += ev.recency(ev.x.commits[ci].Time)
		}
		c.activity = 1 - math.Exp(-act/5)
	}
}

// DefaultModel is the model chosen on the tune half of the co-change
// benchmark (benchmarks/cochange; never on its held-out half): rank by
// confidence over the commits that are not sweeping (weight 8), with
// recency-weighted confidence (2) and a recent joint commit (1); then
// structure, a test link and a shared name stem (1 each) and the
// candidate's own activity (0.5). Fitted models (listwise, in
// tools/cmd/m1nd-cochange-tune) did no better on repositories they were
// not fitted on. Those weights are scaled by 0.58 with bias −4.8 (Platt
// scaling on the tune candidates, `m1nd-cochange-tune -calibrate`) so
// that a confidence is about the share of such candidates that really
// changed: the ranking is the same.
var DefaultModel = []float64{-4.8, 1.16, 0.0058, 0.58, 0.58, 0.58, 0.58, 0.29, 4.64}

// FeatureNames names the features Predict's model weighs, in order.
// (Others — plain confidence, its reverse, a shorter half-life, the
// file's last ten commits, path proximity, same directory — were tried in
// listwise fits on the tune half and added nothing.)
var FeatureNames = []string{
	"bias",
	"conf_weighted",     // recency- and size-weighted share of the file's commits
	"log_joint",         // log(1 + joint commits)
	"last_joint_recent", // recency of the newest joint commit
	"structure",         // dependency signal (1 hop: the signal strength)
	"tests",             // one tests the other
	"same_stem",         // foo.go ~ foo_test.go ~ FooTest.java
	"activity",          // the candidate's own recent commits
	"conf_small",        // confidence over commits of at most LargeCommit files
}

func (ev *evidence) features(c *cand) []float64 {
	confW, lastRec, confSmall, tests := 0.0, 0.0, 0.0, 0.0
	if c.joint > 0 {
		confW = c.weighted / ev.total
		lastRec = ev.recency(c.last)
	}
	if ev.nSmall > 0 {
		confSmall = float64(c.jointSmall) / float64(ev.nSmall)
	}
	if c.tests {
		tests = 1
	}
	return []float64{1, confW, math.Log1p(float64(c.joint)), lastRec, c.structure, tests, c.stem, c.activity, confSmall}
}

func (ev *evidence) score(c *cand) float64 {
	m := ev.p.Model
	if m == nil {
		m = DefaultModel
	}
	z := 0.0
	for i, f := range ev.features(c) {
		z += m[i] * f
	}
	return 1 / (1 + math.Exp(-z))
}

func (ev *evidence) rank(changed graph.NodeID) PredictResult {
	p := ev.p
	res := PredictResult{Changed: changed, File: ev.file, Commits: ev.n, Candidates: len(ev.cands)}
	preds := make([]Prediction, 0, len(ev.cands))
	for id, c := range ev.cands {
		pr := Prediction{Node: id, Confidence: clamp01(ev.score(c)), CoChanges: c.joint, History: clamp01(c.hist),
			Structure: clamp01(c.structure), Directory: c.dir, Activity: clamp01(c.activity), HopDistance: c.hops}
		if c.tests {
			pr.Structure = max(pr.Structure, 0.9)
		}
		if p.IncludeVelocity {
			if c.joint > 0 {
				pr.Velocity = clamp01(1 - math.Exp(-c.jointRec))
			} else {
				pr.Velocity = clamp01(c.activity / 2)
			}
		}
		pr.Reasons = ev.reasons(c)
		preds = append(preds, pr)
	}
	slices.SortFunc(preds, func(a, b Prediction) int {
		if a.Confidence != b.Confidence {
			if a.Confidence > b.Confidence {
				return -1
			}
			return 1
		}
		return int(a.Node) - int(b.Node)
	})
	if len(preds) > p.TopK {
		preds = preds[:p.TopK]
	}
	res.Predictions = preds
	return res
}

func (ev *evidence) reasons(c *cand) []string {
	var rs []string
	if c.joint > 0 {
		rs = append(rs, fmt.Sprintf("changed together in %d of %d commits (last %s)", c.joint, ev.n, time.Unix(c.last, 0).UTC().Format("2006-01-02")))
	}
	if c.structure > 0 {
		switch {
		case c.via != "" && c.hops == 1:
			rs = append(rs, c.via)
		case c.hops > 1:
			rs = append(rs, fmt.Sprintf("%d-hop dependency", c.hops))
		}
	}
	if c.stem > 0 && c.structure == 0 {
		rs = append(rs, "same name")
	}
	if c.dir > 0 && len(rs) == 0 {
		rs = append(rs, "same directory")
	}
	if c.activity > 0.5 && c.joint == 0 {
		rs = append(rs, "changed often lately")
	}
	return rs
}

func clamp01(v float64) float64 {
	if math.IsNaN(v) || v < 0 {
		return 0
	}
	return min(v, 1)
}
