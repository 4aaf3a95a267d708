package query

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/m1nd-go/m1nd/core/risk"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// twinBody is both files' code: activation cannot tell them apart.
const twinBody = "def refresh_session_token(token):\n    return token.strip()\n"

// twinHistory: app/alpha.py and app/zeta.py are written and changed at
// the same moments; only zeta's change fixes something. The last commit
// adds app/other.py. Without weighting alpha wins the tie (by ID).
var twinHistory = []struct {
	daysBefore int
	subject    string
	files      []string
}{
	{300, "initial import", []string{"app/alpha.py", "app/zeta.py"}},
	{100, "fix crash when the token is empty", []string{"app/zeta.py"}},
	{100, "tidy the token refresh", []string{"app/alpha.py"}},
	{0, "add other", []string{"app/other.py"}},
}

// twinRepo commits twinHistory (the head a day before the tool tests'
// clock) and returns the checkout.
func twinRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	head := time.Date(2026, 1, 19, 12, 0, 0, 0, time.UTC)
	for i, s := range twinHistory {
		for _, p := range s.files {
			body := twinBody + strings.Repeat("\n", i) // each commit really changes the file
			if p == "app/other.py" {
				body = "def unrelated():\n    return 1\n"
			}
			if err := os.MkdirAll(filepath.Join(dir, "app"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, p), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := wt.Add(p); err != nil {
				t.Fatal(err)
			}
		}
		sig := &object.Signature{Name: "t", Email: "t@example.com", When: head.AddDate(0, 0, -s.daysBefore)}
		if _, err := wt.Commit(s.subject, &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// activateOn ingests dir into a fresh server (activate learns, so every
// answer compared comes from its own server) and activates.
func activateOn(t *testing.T, dir string, args map[string]any) []map[string]any {
	t.Helper()
	d := tooltest.NewDispatcher(t, session.Config{})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	a := map[string]any{"agent_id": "t", "query": "refresh session token", "top_k": 10}
	for k, v := range args {
		a[k] = v
	}
	var out []map[string]any
	for _, n := range tooltest.MustCall(t, d, "activate", a)["activated"].([]any) {
		out = append(out, n.(map[string]any))
	}
	return out
}

// firstOf is the rank of the first result in file path (−1: none).
func firstOf(res []map[string]any, path string) int {
	return slices.IndexFunc(res, func(n map[string]any) bool { return strings.Contains(n["node_id"].(string), path) })
}

// Two files equal but for their fix history: the fixed one ranks first
// once trust weighs in, and says by how much.
func TestTrustWeightRanksTheFixedTwinFirst(t *testing.T) {
	t.Parallel()
	dir := twinRepo(t)
	for _, tc := range []struct {
		weight    float64
		wantFirst string
	}{
		{0, "app/alpha.py"},
		{-1, "app/alpha.py"}, // the default: off
		{0.5, "app/zeta.py"},
		{1, "app/zeta.py"},
	} {
		args := map[string]any{"trust_weight": tc.weight}
		if tc.weight < 0 {
			args, tc.weight = nil, 0
		}
		res := activateOn(t, dir, args)
		a, z := firstOf(res, "app/alpha.py"), firstOf(res, "app/zeta.py")
		if a < 0 || z < 0 {
			t.Fatalf("w=%v: twins missing from %v", tc.weight, res)
		}
		if got := map[bool]string{true: "app/alpha.py", false: "app/zeta.py"}[a < z]; got != tc.wantFirst {
			t.Errorf("w=%v: %s first (alpha #%d, zeta #%d), want %s", tc.weight, got, a, z, tc.wantFirst)
		}
		zf, hasZ := res[z]["trust_factor"].(float64)
		af, hasA := res[a]["trust_factor"].(float64)
		switch {
		case tc.weight == 0 && (hasZ || hasA):
			t.Errorf("w=0 shows a trust factor: %v %v", res[z], res[a])
		case tc.weight > 0 && !(hasZ && hasA && zf > 1 && af < 1 && zf <= 1+tc.weight && af >= 1-tc.weight):
			t.Errorf("w=%v: factors zeta %v alpha %v, want zeta in (1, 1+w], alpha in [1-w, 1)", tc.weight, res[z], res[a])
		}
		if f, ok := res[firstOf(res, "app/other.py")]["trust_factor"]; firstOf(res, "app/other.py") >= 0 && ok {
			t.Errorf("w=%v: other.py (no defect, no exposure: cold start) shows factor %v", tc.weight, f)
		}
	}
}

// Without any history the weighting changes nothing: the same answer,
// no factor shown; and the same input gives the same answer twice.
func TestTrustWeightWithoutHistoryAndDeterminism(t *testing.T) {
	t.Parallel()
	files := map[string]string{"app/alpha.py": twinBody, "app/zeta.py": twinBody}
	dir := tooltest.WriteRepo(t, "plain", files)
	ids := func(res []map[string]any) []string {
		var out []string
		for _, n := range res {
			if _, ok := n["trust_factor"]; ok {
				t.Errorf("no history, yet %v", n)
			}
			out = append(out, n["node_id"].(string))
		}
		return out
	}
	off, on := ids(activateOn(t, dir, map[string]any{"trust_weight": 0})), ids(activateOn(t, dir, map[string]any{"trust_weight": 1}))
	if len(off) == 0 || !slices.Equal(off, on) {
		t.Errorf("no history: w=0 %v, w=1 %v", off, on)
	}
	git := twinRepo(t)
	first, again := activateOn(t, git, map[string]any{"trust_weight": 0.5}), activateOn(t, git, map[string]any{"trust_weight": 0.5})
	if tooltest.ToJSON(strip(first)) != tooltest.ToJSON(strip(again)) {
		t.Errorf("two runs differ:\n%v\n%v", first, again)
	}
}

// strip drops what varies between runs (none of it is ranking).
func strip(res []map[string]any) []map[string]any {
	for _, n := range res {
		delete(n, "provenance")
	}
	return res
}

func TestTrustFactor(t *testing.T) {
	for _, tc := range []struct{ trust, w, want float64 }{
		{risk.ColdStart, 1, 1},
		{0, 1, 2},
		{1, 1, 0},
		{0.25, 0.4, 1.2},
		{0.75, 0.4, 0.8},
		{0.1, 0, 1},
	} {
		if got := trustFactor(tc.trust, tc.w); tools.R3(float32(got)) != tc.want {
			t.Errorf("trustFactor(%v, %v) = %v, want %v", tc.trust, tc.w, got, tc.want)
		}
	}
}
