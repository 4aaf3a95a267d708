package deptruth

import (
	"math"
	"sort"
	"strings"
)

// Targets are the bars the report marks.
const (
	TargetDirectPrecision = 0.8
	TargetBlastPrecision  = 0.8
	TargetDirectRecall    = 0.9
	// DirectCutoff caps N, the number of leading answers judged by direct
	// precision.
	DirectCutoff = 10
)

// Item is one blast_radius entry of an impact answer.
type Item struct {
	NodeID string   `json:"node_id"`
	File   string   `json:"file"`
	Type   string   `json:"type"`
	Hop    int      `json:"hop_distance"`
	Via    []string `json:"via"`
}

// Answer is impact's answer for one file, mapped to files.
type Answer struct {
	// Named are the files named, in answer order, deduplicated, without
	// the queried file itself.
	Named []string
	// Hop is each named file's hop distance (its first item's).
	Hop map[string]int
	// Via are the usages impact gave for each named file.
	Via       map[string][]string
	Direction string
	// Err is set when the call failed; Lacked when the graph has no node
	// file::<file> (ResolvedTo says what the server answered for instead).
	Err        string
	Lacked     bool
	ResolvedTo string
}

// MapItems turns blast_radius items into an Answer for file x: each item
// maps to its file field, else to its node_id without "file::" and any
// "::entity" suffix; items that are not files or entities (dir::,
// package::, ref::) are skipped; the first occurrence of each file is kept;
// x itself is dropped.
func MapItems(x string, items []Item) Answer {
	a := Answer{Hop: map[string]int{}, Via: map[string][]string{}}
	for _, it := range items {
		if !strings.HasPrefix(it.NodeID, "file::") {
			continue
		}
		f := it.File
		if f == "" {
			f = strings.TrimPrefix(it.NodeID, "file::")
			if i := strings.Index(f, "::"); i >= 0 {
				f = f[:i]
			}
		}
		if f == "" || f == x {
			continue
		}
		if _, seen := a.Hop[f]; seen {
			a.Via[f] = append(a.Via[f], it.Via...)
			continue
		}
		a.Named = append(a.Named, f)
		a.Hop[f] = it.Hop
		a.Via[f] = append(a.Via[f], it.Via...)
	}
	return a
}

// FileResult is the verdict on one file.
type FileResult struct {
	File string `json:"file"`
	// Direct are the true direct dependents; Blast counts the true blast
	// radius.
	Direct []string `json:"direct_dependents"`
	Blast  int      `json:"blast_radius"`
	// Named are the files the answer named, in order.
	Named []string `json:"named"`
	// N = min(|Direct|, 10): how many leading named files direct precision
	// judges.
	N int `json:"n,omitempty"`
	// Misses are true direct dependents not named anywhere;
	// FalsePositives are the first N named files that are not direct
	// dependents; OutsideBlast are named files outside the true blast
	// radius.
	Misses         []string `json:"misses,omitempty"`
	FalsePositives []string `json:"false_positives,omitempty"`
	OutsideBlast   []string `json:"outside_blast,omitempty"`
	// Unjudged are named files outside the truth's universe — files the
	// language's tool did not analyse (Go's _examples/ and testdata/,
	// files only another platform or Go version builds, other languages):
	// no verdict either way, so they count in no measure.
	Unjudged []string `json:"unjudged,omitempty"`
	// ServerDirect are the named files at hop 1: the server's own direct
	// dependents (its edges into this file, as far as top_k shows them).
	ServerDirect []string `json:"server_direct,omitempty"`
	// Via explains the false positives and the named files outside the
	// blast radius with the usages impact gave.
	Via map[string][]string `json:"via,omitempty"`
	// Scores (nil for a file without true dependents).
	DirectPrecision *float64 `json:"direct_precision,omitempty"`
	BlastPrecision  *float64 `json:"blast_precision,omitempty"`
	DirectRecall    *float64 `json:"direct_recall,omitempty"`
	Direction       string   `json:"direction,omitempty"`
	Error           string   `json:"error,omitempty"`
	Lacked          bool     `json:"lacked,omitempty"`
	ResolvedTo      string   `json:"resolved_to,omitempty"`
}

// ScoreFile judges answer a for file x against t. topK is what impact was
// asked for: direct recall's denominator is min(|direct|, topK), since an
// answer cannot name more. An error or a missing node scores 0; so does an
// empty answer for a file with dependents (in all three measures).
func ScoreFile(t *Truth, x string, a Answer, topK int) FileResult {
	var unjudged []string
	a.Named, unjudged = t.Judgeable(a.Named)
	r := FileResult{File: x, Direct: t.Dependents(x), Named: a.Named, Unjudged: unjudged, Direction: a.Direction, Error: a.Err, Lacked: a.Lacked, ResolvedTo: a.ResolvedTo}
	if r.Direct == nil {
		r.Direct = []string{}
	}
	if r.Named == nil {
		r.Named = []string{}
	}
	blast := t.BlastRadius(x)
	r.Blast = len(blast)
	direct := map[string]bool{}
	for _, d := range r.Direct {
		direct[d] = true
	}
	named := map[string]bool{}
	for _, f := range a.Named {
		named[f] = true
		if a.Hop[f] == 1 {
			r.ServerDirect = append(r.ServerDirect, f)
		}
	}
	explain := map[string]bool{}
	for _, f := range a.Named {
		if !blast[f] {
			r.OutsideBlast = append(r.OutsideBlast, f)
			explain[f] = true
		}
	}
	if len(r.Direct) == 0 {
		for f := range explain {
			r.addVia(f, a.Via[f])
		}
		return r
	}
	r.N = min(len(r.Direct), DirectCutoff)
	hits := 0
	for i, f := range a.Named {
		if i >= r.N {
			break
		}
		if direct[f] {
			hits++
		} else {
			r.FalsePositives = append(r.FalsePositives, f)
			explain[f] = true
		}
	}
	for _, d := range r.Direct {
		if !named[d] {
			r.Misses = append(r.Misses, d)
		}
	}
	for f := range explain {
		r.addVia(f, a.Via[f])
	}
	dp := float64(hits) / float64(r.N)
	bp := 0.0
	if len(a.Named) > 0 {
		bp = float64(len(a.Named)-len(r.OutsideBlast)) / float64(len(a.Named))
	}
	den := min(len(r.Direct), max(topK, 1))
	dr := math.Min(1, float64(len(r.Direct)-len(r.Misses))/float64(den))
	if a.Err != "" || a.Lacked {
		dp, bp, dr = 0, 0, 0
	}
	r.DirectPrecision, r.BlastPrecision, r.DirectRecall = &dp, &bp, &dr
	return r
}

func (r *FileResult) addVia(f string, via []string) {
	if len(via) == 0 {
		return
	}
	if r.Via == nil {
		r.Via = map[string][]string{}
	}
	r.Via[f] = via[:min(len(via), 5)]
}

// Scores aggregate the file results of one repository.
type Scores struct {
	// Files is how many files were asked about; WithDependents how many of
	// them have at least one true direct dependent — the three measures
	// are macro-averaged over those.
	Files           int     `json:"files"`
	WithDependents  int     `json:"with_dependents"`
	DirectPrecision float64 `json:"direct_precision"`
	BlastPrecision  float64 `json:"blast_precision"`
	DirectRecall    float64 `json:"direct_recall"`
	// NoDependents are files without true dependents; FalseAlarms is the
	// mean number of files impact named for them, FalseAlarmFiles how many
	// of them got a non-empty answer.
	NoDependents    int     `json:"no_dependents"`
	FalseAlarms     float64 `json:"false_alarms"`
	FalseAlarmFiles int     `json:"false_alarm_files"`
	// Empty counts files with dependents whose answer named nothing.
	Empty int `json:"empty"`
	// Lacked: the graph has no file::<file> node; Errored: the call failed.
	Lacked  int `json:"lacked"`
	Errored int `json:"errored"`
	// Directions counts the direction each answer reported.
	Directions map[string]int `json:"directions"`
	// EdgeRecall and EdgePrecision compare the server's hop-1 files with
	// the true edges, ignoring ranking: the share of true edges (B → X)
	// whose B impact(X) names at hop 1, and the share of hop-1 files that
	// are true direct dependents (over answers without error).
	TrueEdges     int     `json:"true_edges"`
	ServerEdges   int     `json:"server_edges"`
	EdgeRecall    float64 `json:"edge_recall"`
	EdgePrecision float64 `json:"edge_precision"`
}

// Aggregate computes a repository's scores from its file results.
func Aggregate(results []FileResult) Scores {
	s := Scores{Files: len(results), Directions: map[string]int{}}
	serverTrue := 0
	for _, r := range results {
		if r.Direction != "" {
			s.Directions[r.Direction]++
		}
		switch {
		case r.Lacked:
			s.Lacked++
		case r.Error != "":
			s.Errored++
		}
		direct := map[string]bool{}
		for _, d := range r.Direct {
			direct[d] = true
		}
		s.TrueEdges += len(r.Direct)
		if r.Error == "" && !r.Lacked {
			s.ServerEdges += len(r.ServerDirect)
			for _, f := range r.ServerDirect {
				if direct[f] {
					serverTrue++
				}
			}
		}
		if len(r.Direct) == 0 {
			s.NoDependents++
			s.FalseAlarms += float64(len(r.Named))
			if len(r.Named) > 0 {
				s.FalseAlarmFiles++
			}
			continue
		}
		s.WithDependents++
		if len(r.Named) == 0 && r.Error == "" && !r.Lacked {
			s.Empty++
		}
		s.DirectPrecision += deref(r.DirectPrecision)
		s.BlastPrecision += deref(r.BlastPrecision)
		s.DirectRecall += deref(r.DirectRecall)
	}
	if s.WithDependents > 0 {
		n := float64(s.WithDependents)
		s.DirectPrecision = round4(s.DirectPrecision / n)
		s.BlastPrecision = round4(s.BlastPrecision / n)
		s.DirectRecall = round4(s.DirectRecall / n)
	}
	if s.NoDependents > 0 {
		s.FalseAlarms = round4(s.FalseAlarms / float64(s.NoDependents))
	}
	if s.TrueEdges > 0 {
		s.EdgeRecall = round4(float64(serverTrue) / float64(s.TrueEdges))
	}
	if s.ServerEdges > 0 {
		s.EdgePrecision = round4(float64(serverTrue) / float64(s.ServerEdges))
	}
	return s
}

// Mean is the unweighted mean of several repositories' scores (each
// repository counts once); counts are summed.
func Mean(all []Scores) Scores {
	m := Scores{Directions: map[string]int{}}
	if len(all) == 0 {
		return m
	}
	var dp, bp, dr, fa, er, ep float64
	for _, s := range all {
		m.Files += s.Files
		m.WithDependents += s.WithDependents
		m.NoDependents += s.NoDependents
		m.FalseAlarmFiles += s.FalseAlarmFiles
		m.Empty += s.Empty
		m.Lacked += s.Lacked
		m.Errored += s.Errored
		m.TrueEdges += s.TrueEdges
		m.ServerEdges += s.ServerEdges
		for k, v := range s.Directions {
			m.Directions[k] += v
		}
		dp += s.DirectPrecision
		bp += s.BlastPrecision
		dr += s.DirectRecall
		fa += s.FalseAlarms
		er += s.EdgeRecall
		ep += s.EdgePrecision
	}
	n := float64(len(all))
	m.DirectPrecision, m.BlastPrecision, m.DirectRecall = round4(dp/n), round4(bp/n), round4(dr/n)
	m.FalseAlarms, m.EdgeRecall, m.EdgePrecision = round4(fa/n), round4(er/n), round4(ep/n)
	return m
}

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
