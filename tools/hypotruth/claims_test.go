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
		{Claim: Claim{True: true, RuntimeTrue: true}, Verdict: "likely_true"},
		{Claim: Claim{True: true}, Verdict: "likely_true"},
		{Claim: Claim{True: true}, Verdict: "likely_false"},
		{Claim: Claim{True: false}, Verdict: "likely_true"},
		{Claim: Claim{True: false}, Verdict: "likely_false"},
		{Claim: Claim{True: true}, Verdict: "inconclusive"},
		{Claim: Claim{True: true}, Error: "no such file"},
	} {
		ty.Add(a)
	}
	want := Tally{Claims: 7, LikelyTrue: 3, LikelyFalse: 2, Inconclusive: 1, Refused: 1, Right: 3, Wrong: 2, RightRuntime: 3, WrongRuntime: 2}
	if ty != want {
		t.Errorf("tally %+v, want %+v", ty, want)
	}
}

// a → b → c at every import; at run time a → b only.
func TestMarkRuntime(t *testing.T) {
	files := []string{"a", "b", "c"}
	all := deptruth.NewTruth(deptruth.Python, files, map[string][]string{"a": {"b"}, "b": {"c"}})
	rt := deptruth.NewTruth(deptruth.Python, files, map[string][]string{"a": {"b"}})
	claims := Claims(all, 10)
	MarkRuntime(claims, rt)
	got := map[string]bool{}
	for _, c := range claims {
		got[c.A+">"+c.B] = c.RuntimeTrue
	}
	want := map[string]bool{"a>b": true, "a>c": false, "b>c": false, "b>a": false, "c>b": false}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s: runtime true %v (present %v), want %v", k, g, ok, v)
		}
	}
}
