package seed

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// TestAnswersEqualFresh: remembered answers equal what the cascade finds,
// over more questions than are remembered (so some were evicted and found
// again), each asked several times with two limits; changing an answer
// the caller got does not change the next one.
func TestAnswersEqualFresh(t *testing.T) {
	g, _ := graphtest.Backend()
	f := finder(t, g, true, nil)
	words := []string{"auth", "session", "database", "user", "token", "login", "render", "cache", "query", "view", "handler", "config"}
	var qs []string
	for i, w := range words {
		for _, v := range words[i:] {
			qs = append(qs, w+" "+v)
		}
	}
	if len(qs) <= answerCacheSize {
		t.Fatalf("the test needs more than %d questions, has %d", answerCacheSize, len(qs))
	}
	for round := range 3 {
		for i, q := range qs {
			for _, max := range []int{0, 3} {
				got := f.FindSemantic(q, max)
				if diff := cmp.Diff(f.findSemantic(q, max), got); diff != "" {
					t.Fatalf("round %d, %q max %d (-fresh +remembered):\n%s", round, q, max, diff)
				}
				if len(got) > 0 && i%2 == 0 {
					got[0].Relevance, got[0].Node = -1, 99999 // the caller's copy
				}
			}
		}
	}
	if len(f.answers.m) != answerCacheSize {
		t.Errorf("%d answers remembered, want %d", len(f.answers.m), answerCacheSize)
	}
}

// TestRepeatedQuestionIsNotResolvedAgain: the second time a question is
// asked, FindSemantic returns a copy of the first answer (one
// allocation) instead of running the cascade again.
func TestRepeatedQuestionIsNotResolvedAgain(t *testing.T) {
	g, _ := graphtest.Backend()
	f := finder(t, g, true, nil)
	if len(f.FindSemantic("authentication session", 0)) == 0 {
		t.Fatal("the test needs seeds")
	}
	if n := testing.AllocsPerRun(20, func() { f.FindSemantic("authentication session", 0) }); n > 1 {
		t.Errorf("%v allocations for a question asked before, want 1 (the copy)", n)
	}
	long := fmt.Sprintf("%0*d auth", answerQueryMax, 0)
	f.FindSemantic(long, 0)
	if _, ok := f.answers.get(long, 0); ok {
		t.Error("a question longer than answerQueryMax was remembered")
	}
}
