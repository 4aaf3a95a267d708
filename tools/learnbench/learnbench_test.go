package learnbench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

func TestSimilar(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"entry: allow function-backed error fields", "entry: allow function-backed error"},
		{"Do not assume no color on windows.", "Do not assume no color on"},
		{"fix: build against tinygo", "fix: build against"},
		{"parser: panics on empty input (#42)", "parser: panics on empty (#42)"},
		{"the of", "the of"},
	} {
		if got := Similar(tc.in); got != tc.want {
			t.Errorf("Similar(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRanks(t *testing.T) {
	for _, tc := range []struct {
		before, after Ranks
		pass, moved   bool
	}{
		{Ranks{1, 8}, Ranks{0, 1}, true, true},
		{Ranks{1, 8}, Ranks{4, 5}, true, true},
		{Ranks{1, 8}, Ranks{3, 5}, false, true},
		{Ranks{1, 8}, Ranks{0, 6}, false, true},
		{Ranks{1, 8}, Ranks{1, 8}, false, false},
		{Ranks{0, 1}, Ranks{0, 1}, true, true},   // already right and stays so
		{Ranks{5, 3}, Ranks{4, 1}, true, false},  // passes although wrong rose
		{Ranks{0, 4}, Ranks{5, 2}, true, false},  // wrong entered the ranking
		{Ranks{5, 0}, Ranks{9, 0}, false, false}, // correct still absent
	} {
		if got := tc.after.Pass(); got != tc.pass {
			t.Errorf("%v.Pass() = %v, want %v", tc.after, got, tc.pass)
		}
		if got := tc.after.Moved(tc.before); got != tc.moved {
			t.Errorf("%v.Moved(%v) = %v, want %v", tc.after, tc.before, got, tc.moved)
		}
	}
}

func TestSummarize(t *testing.T) {
	rs := []QueryResult{
		{SameAfter: Ranks{0, 1}, SimilarBefore: Ranks{1, 6}, SimilarAfter: Ranks{0, 1}, ControlOverlap: 1, ControlRepeat: 0.9, ActivateBytes: 100, EdgesWritten: 10},
		{SameAfter: Ranks{2, 9}, SimilarBefore: Ranks{1, 0}, SimilarAfter: Ranks{1, 0}, ControlOverlap: 0.8, ControlRepeat: 0.8, ControlFeedback: 2, ActivateBytes: 300, EdgesWritten: 30},
		{Skipped: "3 results", ControlOverlap: -1},
	}
	got := Summarize(rs)
	want := Summary{Queries: 2, Skipped: 1, Same: 0.5, SimilarBefore: 0, Similar: 0.5, SimilarMoved: 0.5, ControlOverlap: 0.9, ControlRepeat: 0.85, ControlFeedback: 0.5, ActivateBytes: 200, EdgesWritten: 20}
	if fmt.Sprintf("%.4v", got) != fmt.Sprintf("%.4v", want) {
		t.Errorf("Summarize = %+v, want %+v", got, want)
	}
	if overlap([]string{"a", "b"}, []string{"b", "c", "d"}) != 1.0/3 || overlap(nil, nil) != 1 {
		t.Error("overlap")
	}
}

// modules is the synthetic repository: a few Python modules whose names
// share words, so queries reach more than eight nodes.
var modules = []string{"session_store", "session_token", "session_expiry", "login_form", "login_audit", "token_cache", "password_hash", "password_policy", "audit_log", "cache_backend"}

func module(name string, v int) string {
	var b strings.Builder
	parts := strings.Split(name, "_")
	fmt.Fprintf(&b, "\"\"\"%s %s module.\"\"\"\n", parts[0], parts[1])
	for _, other := range modules {
		if other != name && strings.HasPrefix(other, parts[0]) {
			fmt.Fprintf(&b, "from %s import %s_main\n", other, other)
		}
	}
	fmt.Fprintf(&b, "\n\nclass %s%s:\n    def handle_%s(self, value):\n        return value + %d\n", title(parts[0]), title(parts[1]), parts[1], v)
	fmt.Fprintf(&b, "\n\ndef %s_main(value):\n    \"\"\"Run the %s %s step.\"\"\"\n    return %s%s().handle_%s(value)\n", name, parts[0], parts[1], title(parts[0]), title(parts[1]), parts[1])
	fmt.Fprintf(&b, "\n\ndef %s_check(value):\n    return %s_main(value) > 0\n", name, name)
	return b.String()
}

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func makeRepo(t testing.TB) string {
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
	when := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	commit := func(msg string, names []string, v int) {
		for _, n := range names {
			p := n + ".py"
			if err := os.WriteFile(filepath.Join(dir, p), []byte(module(n, v)), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := wt.Add(p); err != nil {
				t.Fatal(err)
			}
		}
		when = when.Add(time.Hour)
		sig := &object.Signature{Name: "t", Email: "t@example.com", When: when}
		if _, err := wt.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
			t.Fatal(err)
		}
	}
	commit("initial import", modules, 0)
	commit("fix session token expiry check", []string{"session_token", "session_expiry"}, 1)
	commit("fix password hash for the login form", []string{"password_hash", "login_form"}, 2)
	commit("audit: fix cache backend crash", []string{"cache_backend"}, 3)
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# demo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wt.Add("README.md")
	commit("docs only", nil, 4)
	return dir
}

func TestSelectQueries(t *testing.T) {
	dir := makeRepo(t)
	qs, err := SelectQueries(dir, 3)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(qs)
	want := "[{" // newest fix first, each with its similar query and a control
	if len(qs) != 3 || !strings.HasPrefix(got, want) || qs[0].text != "audit: fix cache backend crash" || qs[0].similar != "audit: fix cache backend" {
		t.Fatalf("queries = %+v", qs)
	}
	for _, q := range qs {
		if q.control == "" || q.control == q.text || wordJaccard(q.text, q.control) > 0.2 {
			t.Errorf("query %q has control %q", q.text, q.control)
		}
	}
	if again, _ := SelectQueries(dir, 3); fmt.Sprint(again) != got {
		t.Error("query selection is not deterministic")
	}
}

// TestRunEndToEnd builds the real server and runs the benchmark on the
// synthetic repository: every measured query must pass.
func TestRunEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	bin := filepath.Join(t.TempDir(), "m1nd-mcp")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/m1nd-go/m1nd/mcpserver/cmd/m1nd-mcp").CombinedOutput(); err != nil {
		t.Fatalf("build server: %v\n%s", err, out)
	}
	rep, err := Run(context.Background(), Config{Repo: makeRepo(t), Server: bin, Queries: 3, TopK: 20, TaskTimeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Summary
	if s.Queries == 0 || s.Same != 1 {
		t.Errorf("summary %+v; results %+v", s, rep.Results)
	}
	if md := rep.Markdown(); !strings.Contains(md, "queries measured") || !strings.Contains(SummaryTable([]*Report{rep}), "| 100% |") {
		t.Errorf("markdown:\n%s\n%s", md, SummaryTable([]*Report{rep}))
	}
}
