package system

import (
	"strings"
	"testing"
	"time"
)

// TestPartialHint: an ingest cut by a budget names the budget and the size
// it had, and teaches the ways past it that work — the same call with the
// budget raised, or several calls merged (each has its own budget) —
// rather than "a subdirectory", which left the rest of the tree out.
func TestPartialHint(t *testing.T) {
	for _, c := range []struct{ budget, want, raise string }{
		{"max_nodes", "(max_nodes, 600000 nodes)", "max_nodes raised (e.g. 2400000; "},
		{"timeout", "(timeout, 20m0s)", "timeout_s raised (e.g. 1800, the most; "},
		{"max_files", "(max_files)", "max_nodes and timeout_s raised"},
	} {
		h := partialHint(c.budget, "/src/big", 600_000, 20*time.Minute)
		for _, w := range []string{c.want, c.raise, "part of /src/big", `mode "merge"`} {
			if !strings.Contains(h, w) {
				t.Errorf("%s: %q lacks %q", c.budget, h, w)
			}
		}
	}
}

// TestPartialHintAtTheMost: a budget already at its most is not offered
// as the way past it; merging is.
func TestPartialHintAtTheMost(t *testing.T) {
	h := partialHint("timeout", "/src/big", 600_000, 30*time.Minute)
	if strings.Contains(h, "raised") || !strings.Contains(h, "at its most") || !strings.Contains(h, `mode "merge"`) {
		t.Errorf("%q offers a raise past the most, or no merge", h)
	}
}
