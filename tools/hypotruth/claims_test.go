package hypotruth

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/tools/deptruth"
)

// a → b → c → d; e → a; f alone.
func TestClaims(t *testing.T) {
	tr := deptruth.NewTruth(deptruth.Go, []string{"a", "b", "c", "d", "e", "f"},
		map[string][]string{"a": {"b"}, "b": {"c"}, "c": {"d"}, "e": {"a"}})
	got := map[string][]string{}
	for _, c := range Claims(tr, 10) {
		if c.True != (c.Kind == Direct || c.Kind == Transitive) {
			t.Errorf("%+v: truth does not fit its kind", c)
		}
		got[c.Kind] = append(got[c.Kind], c.A+">"+c.B)
	}
	want := map[string][]string{
		Direct:     {"a>b", "b>c", "c>d", "e>a"},
		Transitive: {"a>c", "a>d", "b>d", "e>b", "e>c"},
		Reverse:    {"a>e", "b>a", "c>b", "d>c"},
		// One far file per file that has any, chosen by a hash of it.
		Unrelated: got[Unrelated],
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}
	if len(got[Unrelated]) != 6 {
		t.Errorf("unrelated claims %v: want one per file", got[Unrelated])
	}
	for _, u := range got[Unrelated] {
		if u == "a>b" || u == "a>c" || u == "e>d" {
			t.Errorf("%s is reachable", u)
		}
	}
	if n := len(Claims(tr, 2)); n != 8 {
		t.Errorf("per 2: %d claims, want 2 of each kind", n)
	}
}

func TestTally(t *testing.T) {
	var ty Tally
	for _, a := range []Answer{
		{Claim: Claim{True: true}, Verdict: "likely_true"},
		{Claim: Claim{True: false}, Verdict: "likely_true"},
		{Claim: Claim{True: false}, Verdict: "likely_false"},
		{Claim: Claim{True: true}, Verdict: "inconclusive"},
		{Claim: Claim{True: true}, Error: "no such file"},
	} {
		ty.Add(a)
	}
	want := Tally{Claims: 5, LikelyTrue: 2, LikelyFalse: 1, Inconclusive: 1, Refused: 1, Right: 2, Wrong: 1}
	if ty != want {
		t.Errorf("tally %+v, want %+v", ty, want)
	}
}
