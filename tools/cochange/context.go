package cochange

import (
	"bytes"
	"context"
	"crypto/sha1"
	"regexp"
	"slices"
	"strings"
)

// KnownQuery is a query with what an agent knows: the files it already
// changed (Given) and its task (the commit's cleaned message). Targets
// are the commit's other source files present at the cut.
type KnownQuery struct {
	Commit  string
	Given   []string
	Task    string
	Targets []string
}

// Messages returns the full message of every commit of rev by hash.
func Messages(ctx context.Context, dir, rev string) (map[string]string, error) {
	out, err := git(ctx, dir, "log", "--no-merges", "--format=%H%x00%B%x1e", rev)
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, rec := range bytes.Split(out, []byte{0x1e}) {
		h, body, ok := bytes.Cut(bytes.TrimLeft(rec, "\n"), []byte{0})
		if ok {
			m[string(h)] = string(body)
		}
	}
	return m, nil
}

var (
	trailer = regexp.MustCompile(`(?im)^(signed-off-by|co-authored-by|reviewed-by|acked-by|cc|change-id|pr-url|closes|fixes|refs?)\s*:.*$`)
	prRef   = regexp.MustCompile(`\(#\d+\)|\bgh-\d+\b|#\d+\b`)
	url     = regexp.MustCompile(`https?://\S+`)
	mdNoise = regexp.MustCompile(`(?m)^\s*[-*]\s*\[[ x]\]\s*`)
)

// CleanMessage is a commit message as a task: trailers (Signed-off-by,
// Co-authored-by …), pull-request numbers, links and checklist boxes
// removed, whitespace collapsed, at most 2,000 bytes.
func CleanMessage(m string) string {
	m = trailer.ReplaceAllString(m, "")
	m = url.ReplaceAllString(m, "")
	m = prRef.ReplaceAllString(m, "")
	m = mdNoise.ReplaceAllString(m, "")
	m = strings.Join(strings.Fields(m), " ")
	if len(m) > 2000 {
		m = m[:2000]
	}
	return m
}

// KnownQueries turns the one-file queries into queries with the task
// (one), and every commit of at least four known source files into one
// query given half of them (half): the files ordered by a hash of commit
// and path (a fixed, arbitrary order), the first ⌊n/2⌋ given, the rest the
// targets.
func KnownQueries(qs []Query, msgs map[string]string) (one, half []KnownQuery) {
	seen := map[string]bool{}
	for _, q := range qs {
		task := CleanMessage(msgs[q.Commit])
		one = append(one, KnownQuery{Commit: q.Commit, Given: []string{q.File}, Task: task, Targets: q.Targets})
		all := append([]string{q.File}, q.Targets...)
		if len(all) < 4 || seen[q.Commit] {
			continue
		}
		seen[q.Commit] = true
		slices.SortFunc(all, func(a, b string) int {
			return bytes.Compare(hashOf(q.Commit, a), hashOf(q.Commit, b))
		})
		n := len(all) / 2
		half = append(half, KnownQuery{Commit: q.Commit, Given: slices.Clone(all[:n]), Task: task, Targets: slices.Clone(all[n:])})
	}
	return one, half
}

func hashOf(commit, file string) []byte {
	h := sha1.Sum([]byte(commit + "\x00" + file))
	return h[:]
}

// KnownPredictor ranks the files likely to change given the changed files
// and the task (best first).
type KnownPredictor interface {
	PredictKnown(given []string, task string, k int) ([]string, error)
}

// EvaluateKnown scores p over qs as Evaluate does: predictions outside
// the universe or among the given files are dropped before the cut at k.
func EvaluateKnown(p KnownPredictor, qs []KnownQuery, universe map[string]bool) (Scores, error) {
	sc := Scores{Queries: len(qs)}
	for _, q := range qs {
		raw, err := p.PredictKnown(q.Given, q.Task, 10)
		if err != nil {
			return sc, err
		}
		var pred []string
		for _, f := range raw {
			if universe[f] && !slices.Contains(q.Given, f) && !slices.Contains(pred, f) {
				pred = append(pred, f)
			}
		}
		sc.R5 += Recall(pred, q.Targets, 5)
		sc.R10 += Recall(pred, q.Targets, 10)
	}
	if len(qs) > 0 {
		sc.R5 = round4(sc.R5 / float64(len(qs)))
		sc.R10 = round4(sc.R10 / float64(len(qs)))
	}
	return sc, nil
}

// RulesKnown is the rules baseline given the same changed files, not the
// task: one file's rules and directory (Rose.Predict), or, for several,
// the rules from every given file (Rose.Gaps).
type RulesKnown struct{ R *Rose }

// PredictKnown implements KnownPredictor.
func (r RulesKnown) PredictKnown(given []string, _ string, k int) ([]string, error) {
	if len(given) == 1 {
		return r.R.Predict(given[0], 4*k)
	}
	return r.R.Gaps(given, k)
}

// TaskOnly ranks files by the task's text alone (a BM25 baseline).
type TaskOnly struct{ B *BM25 }

// PredictKnown implements KnownPredictor.
func (t TaskOnly) PredictKnown(_ []string, task string, k int) ([]string, error) {
	return t.B.Search(task, 4*k), nil
}

// RRF fuses the answers of several predictors by reciprocal rank (1/(K +
// rank), K = 60 as in Cormack et al.), ties by path.
type RRF struct {
	Of []KnownPredictor
	K  float64
}

// PredictKnown implements KnownPredictor.
func (f RRF) PredictKnown(given []string, task string, k int) ([]string, error) {
	score := map[string]float64{}
	for _, p := range f.Of {
		fs, err := p.PredictKnown(given, task, 4*k)
		if err != nil {
			return nil, err
		}
		for i, x := range fs {
			score[x] += 1 / (f.K + float64(i+1))
		}
	}
	out := make([]string, 0, len(score))
	for x := range score {
		out = append(out, x)
	}
	slices.SortFunc(out, func(a, b string) int {
		if score[a] != score[b] {
			if score[a] > score[b] {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	return out[:min(len(out), 4*k)], nil
}
