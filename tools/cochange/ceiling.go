package cochange

// Ceilings answers the question the Recall@10 target raises: how far can
// any ranking by co-change counts go on these queries? It scores ROSE
// trained on more than the cut's history — knowledge no predictor at the
// cut has — so the figures bound what better counting (recency, weights,
// transactions) could add.
type Ceilings struct {
	// Online: the rules from every commit before the query's own (the
	// cut's history plus the test commits up to it): a graph kept current
	// with every commit.
	Online Scores `json:"online"`
	// Hindsight: the rules from every commit but the query's own,
	// including the later test commits.
	Hindsight Scores `json:"hindsight"`
}

// Ceiling scores the two ceilings over qs (queries of s's test commits).
// Each test commit is left out of its own rules, so neither counts the
// answer it is scored on.
func Ceiling(s *Split, qs []Query, maxGroup int) (Ceilings, error) {
	pos := make(map[string]int, len(s.Test))
	for i, c := range s.Test {
		pos[c.Hash] = i
	}
	var order []string
	byCommit := map[string][]Query{}
	for _, q := range qs {
		if byCommit[q.Commit] == nil {
			order = append(order, q.Commit)
		}
		byCommit[q.Commit] = append(byCommit[q.Commit], q)
	}
	var on, hind Scores
	for _, h := range order {
		cq := byCommit[h]
		i := pos[h]
		before := append(append([]Commit{}, s.Train...), s.Test[:i]...)
		all := append(append([]Commit{}, before...), s.Test[i+1:]...)
		for _, c := range []struct {
			train []Commit
			sum   *Scores
		}{{before, &on}, {all, &hind}} {
			sc, _, err := Evaluate(NewRose(c.train, s.Universe, maxGroup), cq, s.Universe)
			if err != nil {
				return Ceilings{}, err
			}
			n := float64(len(cq))
			c.sum.R5 += sc.R5 * n
			c.sum.R10 += sc.R10 * n
		}
	}
	for _, sc := range []*Scores{&on, &hind} {
		sc.Queries = len(qs)
		if len(qs) > 0 {
			sc.R5 = round4(sc.R5 / float64(len(qs)))
			sc.R10 = round4(sc.R10 / float64(len(qs)))
		}
	}
	return Ceilings{Online: on, Hindsight: hind}, nil
}
