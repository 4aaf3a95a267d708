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
	// conf · n/(n+SupportK).
	SupportK float64
	// The evidence weights, combined as a noisy-or of weight·score.
	HistoryWeight, StructureWeight, DirectoryWeight, ActivityWeight float64
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
		HistoryWeight: 0.9, StructureWeight: 0.6, DirectoryWeight: 0, ActivityWeight: 0.3,
		StructureHops: 1,
	}
}

func (p *PredictParams) validate() error {
	if p.TopK < 1 || p.TopK > 1000 {
		return fmt.Errorf("top_k must be in [1, 1000], got %d", p.TopK)
	}
	for _, w := range []float64{p.HistoryWeight, p.StructureWeight, p.DirectoryWeight, p.ActivityWeight} {
		if math.IsNaN(w) || w < 0 || w > 1 {
			return errors.New("predict weights must be in [0, 1]")
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
//     recency and size; a partner's score is its weighted share of them,
//     discounted when seen in few commits;
//  2. structure: dependency neighbours both ways (imports, calls,
//     references, inheritance, tests) within StructureHops, from
//     analysis.Impact — so a file without history still gets predictions;
//  3. context: the same directory, and each candidate's own recent
//     activity;
//  4. rank: a noisy-or of the weighted scores, ties by node ID.
func Predict(x *Index, changed graph.NodeID, p PredictParams) (PredictResult, error) {
	if err := p.validate(); err != nil {
		return PredictResult{}, err
	}
	g := x.g
	if !g.Valid(changed) {
		return PredictResult{}, fmt.Errorf("node %d is not in the graph", changed)
	}
	file := FileOf(g, changed)
	ev := newEvidence(x, file, &p)
	ev.history()
	if err := ev.structure(changed); err != nil {
		return PredictResult{}, err
	}
	ev.context()
	return ev.rank(changed), nil
}

type cand struct {
	hist, weighted float64
	joint          int
	last           int64
	jointRec       float64
	structure      float64
	hops           int
	via            string
	dir, activity  float64
}

type evidence struct {
	x     *Index
	p     *PredictParams
	file  graph.NodeID
	dir   string
	cands map[graph.NodeID]*cand
	n     int
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
	if id == ev.file || ev.x.g.Type(id) != graph.File {
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
	total := 0.0
	for _, ci := range x.byFile[ev.file] {
		fs := x.files[ci]
		ev.n++
		rec := ev.recency(x.commits[ci].Time)
		w := rec
		if n := len(fs); n > ev.p.LargeCommit {
			w *= float64(ev.p.LargeCommit) / float64(n)
		}
		total += w
		for _, o := range fs {
			if !ev.keep(o) {
				continue
			}
			c := ev.get(o)
			c.weighted += w
			c.joint++
			c.jointRec += rec
			c.last = max(c.last, x.commits[ci].Time)
		}
	}
	if total <= 0 {
		return
	}
	for _, c := range ev.cands {
		n := float64(c.joint)
		c.hist = c.weighted / total * n / (n + ev.p.SupportK)
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
				c.via = short(g, FileOf(g, u.Dependent)) + " " + u.Relation + " " + short(g, FileOf(g, u.Dependency))
				if u.Relation == "tests" || strings.HasSuffix(u.Relation, "::tests") {
					c.structure = max(c.structure, 0.9)
				}
			}
		}
	}
	return nil
}

func short(g *graph.Graph, id graph.NodeID) string {
	return strings.TrimPrefix(g.ExternalID(id), "file::")
}

// context adds the same-directory files (the root's too, which has no
// directory node) and each candidate's activity.
func (ev *evidence) context() {
	if ev.dir != "" {
		for _, id := range ev.x.DirFiles(ev.dir) {
			if ev.keep(id) {
				ev.get(id).dir = 1
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

func (ev *evidence) rank(changed graph.NodeID) PredictResult {
	p := ev.p
	res := PredictResult{Changed: changed, File: ev.file, Commits: ev.n, Candidates: len(ev.cands)}
	preds := make([]Prediction, 0, len(ev.cands))
	for id, c := range ev.cands {
		conf := 1 - (1-p.HistoryWeight*c.hist)*(1-p.StructureWeight*c.structure)*(1-p.DirectoryWeight*c.dir)*(1-p.ActivityWeight*c.activity)
		pr := Prediction{Node: id, Confidence: clamp01(conf), CoChanges: c.joint, History: clamp01(c.hist),
			Structure: clamp01(c.structure), Directory: c.dir, Activity: clamp01(c.activity), HopDistance: c.hops}
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
	if c.dir > 0 && ev.p.DirectoryWeight > 0 {
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
