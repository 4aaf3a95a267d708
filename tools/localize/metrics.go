package localize

import "math"

// Scores are file-level localisation measures of one method over tasks.
type Scores struct {
	Tasks int `json:"tasks"`
	// AccAt1, AccAt5 and AccAt10 are the fractions of tasks whose top k
	// files contain min(k, |gold|) gold files: for k = 1 the first file is
	// a gold file, for k >= |gold| every gold file is there.
	AccAt1  float64 `json:"acc_at_1"`
	AccAt5  float64 `json:"acc_at_5"`
	AccAt10 float64 `json:"acc_at_10"`
	// MRR is the mean reciprocal rank of the first gold file (0 when none
	// is ranked).
	MRR float64 `json:"mrr"`
	// Failed counts tasks where the method returned an error (they score
	// 0 everywhere).
	Failed int `json:"failed"`
}

// HitAt reports whether ranked's top k hold min(k, |gold|) gold files.
func HitAt(ranked, gold []string, k int) bool {
	need := min(k, len(gold))
	if need == 0 {
		return false
	}
	g := map[string]bool{}
	for _, p := range gold {
		g[p] = true
	}
	got := 0
	for i := 0; i < len(ranked) && i < k; i++ {
		if g[ranked[i]] {
			got++
		}
	}
	return got >= need
}

// ReciprocalRank is 1/rank of the first gold file in ranked (0 if none).
func ReciprocalRank(ranked, gold []string) float64 {
	g := map[string]bool{}
	for _, p := range gold {
		g[p] = true
	}
	for i, p := range ranked {
		if g[p] {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// Score aggregates one method's rankings; rankings[i] answers tasks[i]
// (nil with failed[i] set when the method errored).
func Score(tasks []Task, rankings [][]string, failed []bool) Scores {
	s := Scores{Tasks: len(tasks)}
	if len(tasks) == 0 {
		return s
	}
	for i, t := range tasks {
		if failed != nil && failed[i] {
			s.Failed++
			continue
		}
		r := rankings[i]
		if HitAt(r, t.Gold, 1) {
			s.AccAt1++
		}
		if HitAt(r, t.Gold, 5) {
			s.AccAt5++
		}
		if HitAt(r, t.Gold, 10) {
			s.AccAt10++
		}
		s.MRR += ReciprocalRank(r, t.Gold)
	}
	n := float64(len(tasks))
	s.AccAt1 = round4(s.AccAt1 / n)
	s.AccAt5 = round4(s.AccAt5 / n)
	s.AccAt10 = round4(s.AccAt10 / n)
	s.MRR = round4(s.MRR / n)
	return s
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// DedupeFiles keeps the first occurrence of each non-empty path.
func DedupeFiles(paths []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, p := range paths {
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}

// SourceFiles keeps the source files of paths (first occurrence each):
// every method is judged over the files the baseline indexes, so a
// README or a directory in a result list neither helps nor hurts.
func SourceFiles(paths []string) []string {
	var keep []string
	for _, p := range paths {
		if IsSource(p) {
			keep = append(keep, p)
		}
	}
	return DedupeFiles(keep)
}
