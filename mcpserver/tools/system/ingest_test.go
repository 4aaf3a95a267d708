package system

import (
	"strings"
	"testing"
)

// TestPartialHint: an ingest cut by a budget names the budget and its
// size, and teaches the way past it that works — several calls, merged
// (each has its own budget) — rather than "a subdirectory", which left
// the rest of the tree out.
func TestPartialHint(t *testing.T) {
	for _, c := range []struct{ budget, want string }{
		{"max_nodes", "(max_nodes, 500000 nodes)"},
		{"timeout", "(timeout, 5m0s)"},
		{"max_files", "(max_files)"},
	} {
		h := partialHint(c.budget, "/src/big")
		for _, w := range []string{c.want, "part of /src/big", `mode "merge"`} {
			if !strings.Contains(h, w) {
				t.Errorf("%s: %q lacks %q", c.budget, h, w)
			}
		}
	}
}
