package testcorpus

import "testing"

func TestOptIn(t *testing.T) {
	t.Setenv("M1ND_OPTIN_PROBE", "/srv/tree")
	if got := OptIn(t, "M1ND_OPTIN_PROBE", "a tree"); got != "/srv/tree" {
		t.Fatalf("OptIn = %q, want /srv/tree", got)
	}
	t.Setenv("M1ND_OPTIN_PROBE", "")
	skipped := t.Run("unset", func(t *testing.T) {
		OptIn(t, "M1ND_OPTIN_PROBE", "a tree")
		t.Error("OptIn returned with the variable unset; want a skip")
	})
	if !skipped {
		t.Fatal("the subtest failed instead of skipping")
	}
}
