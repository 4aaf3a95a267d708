package structure

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// Two tight groups, one of whose files sits in the wrong directory:
// lib/x.py talks only to app files. The plan finds both communities and
// proposes moving lib/x.py to app, with the cut falling by exactly its
// links.
func TestRefactorPlanMove(t *testing.T) {
	names := []string{"app/a.py", "app/b.py", "app/c.py", "lib/p.py", "lib/q.py", "lib/r.py", "lib/x.py"}
	links := map[[2]int]int{
		{0, 1}: 1, {1, 2}: 1, {0, 2}: 1, // app triangle
		{3, 4}: 1, {4, 5}: 1, {3, 5}: 1, // lib triangle
		{6, 0}: 1, {6, 1}: 1, {2, 6}: 1, // lib/x.py belongs with app
		{2, 3}: 1, // one real app → lib link
	}
	u := FromLinks(names, links)
	p := RefactorPlan(u, PlanOptions{})
	var comms []string
	for _, c := range p.Communities {
		var m []string
		for _, v := range c.Units {
			m = append(m, names[v])
		}
		comms = append(comms, fmt.Sprintf("%v in %s %.2f", m, c.Directory, c.Share))
	}
	if want := "[[app/a.py app/b.py app/c.py lib/x.py] in app 0.75 [lib/p.py lib/q.py lib/r.py] in lib 1.00]"; fmt.Sprint(comms) != want {
		t.Fatalf("communities %v, want %s", comms, want)
	}
	if len(p.Proposals) == 0 {
		t.Fatal("no proposal")
	}
	top := p.Proposals[0]
	if top.Kind != Move || names[top.Units[0]] != "lib/x.py" || top.To != "app" {
		t.Fatalf("top proposal %s %v → %s", top.Kind, top.Units, top.To)
	}
	// Before: x's three app links and c→p cross directories (cut 4);
	// after the move only c→p does.
	if top.CutBefore != 4 || top.CutAfter != 1 {
		t.Errorf("cut %d → %d, want 4 → 1", top.CutBefore, top.CutAfter)
	}
	after := []int{0, 0, 0, 1, 1, 1, 0}
	if q := Modularity(u, after); math.Abs(q-top.QAfter) > 1e-12 {
		t.Errorf("modularity after %.4f, recomputed %.4f", top.QAfter, q)
	}
	if top.Gain() <= 0 {
		t.Errorf("gain %.4f, want > 0", top.Gain())
	}
}

// A directory holding two unrelated groups is proposed for a split; two
// directories of one group for a merge.
func TestRefactorPlanSplitMerge(t *testing.T) {
	names := []string{"mix/a1", "mix/a2", "mix/a3", "mix/b1", "mix/b2", "mix/b3", "one/c1", "one/c2", "two/c3", "two/c4"}
	links := map[[2]int]int{
		{0, 1}: 2, {1, 2}: 2, {0, 2}: 2,
		{3, 4}: 2, {4, 5}: 2, {3, 5}: 2,
		{2, 3}: 1,
		{6, 7}: 2, {7, 8}: 2, {8, 9}: 2, {6, 9}: 2, {6, 8}: 2,
	}
	p := RefactorPlan(FromLinks(names, links), PlanOptions{MinCommunitySize: 3})
	kinds := map[string]string{}
	for _, pr := range p.Proposals {
		kinds[pr.Kind.String()] = pr.From + "→" + pr.To
		if pr.Gain() <= 0 {
			t.Errorf("%s with gain %.4f", pr.Kind, pr.Gain())
		}
	}
	u := FromLinks(names, links)
	for _, pr := range p.Proposals {
		// The closed forms agree with modularity and cut recomputed.
		after := slices.Clone(p.Partition)
		_, dirOf := directories(u)
		copy(after, dirOf)
		if pr.Kind == Merge {
			for v := range after {
				if after[v] == 2 { // two → one
					after[v] = 1
				}
			}
			if q, c := Modularity(u, after), CutWeight(u, after); math.Abs(q-pr.QAfter) > 1e-12 || c != pr.CutAfter {
				t.Errorf("merge: modularity %.6f cut %d, recomputed %.6f %d", pr.QAfter, pr.CutAfter, q, c)
			}
		}
	}
	if kinds["split"] != "mix→" || kinds["merge"] != "two→one" {
		t.Errorf("proposals %v, want split of mix and merge of two into one", kinds)
	}
}

// A pinned directory (a Go command: package main) neither gives nor takes
// a file and merges with nothing, however strong its links: the plan of
// TestRefactorPlanMove with lib/x.py's directory pinned, and with app's.
func TestRefactorPlanPinned(t *testing.T) {
	names := []string{"app/a.py", "app/b.py", "app/c.py", "lib/p.py", "lib/q.py", "lib/r.py", "lib/x.py"}
	links := map[[2]int]int{
		{0, 1}: 1, {1, 2}: 1, {0, 2}: 1,
		{3, 4}: 1, {4, 5}: 1, {3, 5}: 1,
		{6, 0}: 1, {6, 1}: 1, {2, 6}: 1,
		{2, 3}: 1,
	}
	for _, pinned := range []string{"lib", "app"} {
		p := RefactorPlan(FromLinks(names, links), PlanOptions{Pinned: func(d string) bool { return d == pinned }})
		for _, pr := range p.Proposals {
			if pr.From == pinned || pr.To == pinned {
				t.Errorf("%s pinned: proposal %s %s → %s", pinned, pr.Kind, pr.From, pr.To)
			}
		}
	}
}
