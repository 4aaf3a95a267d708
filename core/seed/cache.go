package seed

import (
	"slices"
	"sync"
)

// answers remembers FindSemantic's recent answers by question. A Finder
// serves one graph generation, whose labels and indexes never change
// (learning moves weights, not names), so a question has the same seeds
// until the next build; an agent asks the same or a recurring question
// many times between builds (issue 29: resolving the seeds was 1.4 ms of
// an activate's critical path on go-std, before anything else could run).
type answers struct {
	mu   sync.Mutex
	m    map[answerKey][]Seed
	ring [answerCacheSize]answerKey // keys in insertion order, for eviction
	next int
}

type answerKey struct {
	query    string
	maxSeeds int
}

const (
	// answerCacheSize is how many questions are remembered; the oldest
	// goes first.
	answerCacheSize = 64
	// answerQueryMax keeps long questions (pasted stack traces, diffs)
	// out: they rarely recur, and would make the cache hold megabytes.
	answerQueryMax = 1024
)

// get returns a copy of the answer to the question, if remembered (the
// caller may change what it gets).
func (a *answers) get(query string, maxSeeds int) ([]Seed, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	seeds, ok := a.m[answerKey{query, maxSeeds}]
	if !ok {
		return nil, false
	}
	return slices.Clone(seeds), true
}

// put remembers a copy of seeds as the answer to the question.
func (a *answers) put(query string, maxSeeds int, seeds []Seed) {
	if len(query) > answerQueryMax {
		return
	}
	k := answerKey{query, maxSeeds}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil {
		a.m = make(map[answerKey][]Seed, answerCacheSize)
	}
	if _, ok := a.m[k]; ok {
		return
	}
	if old := a.ring[a.next]; len(a.m) == answerCacheSize {
		delete(a.m, old)
	}
	a.m[k] = slices.Clone(seeds)
	a.ring[a.next] = k
	a.next = (a.next + 1) % answerCacheSize
}
