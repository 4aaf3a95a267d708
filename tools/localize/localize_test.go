package localize

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/google/go-cmp/cmp"
)

func TestIsSourceIsTest(t *testing.T) {
	for p, want := range map[string][2]bool{ // {source, test}
		"core/seek/seek.go":                  {true, false},
		"core/seek/seek_test.go":             {true, true},
		"tests/test_auth.py":                 {true, true},
		"pkg/auth/test_helpers.py":           {true, true},
		"src/auth.py":                        {true, false},
		"src/__tests__/widget.tsx":           {true, true},
		"src/widget.test.ts":                 {true, true},
		"src/main/java/AuthService.java":     {true, false},
		"src/test/java/AuthServiceTest.java": {true, true},
		"ingest/extract/testdata/c/list.c":   {true, true},
		"README.md":                          {false, false},
		"go.mod":                             {false, false},
		"spec/fixtures/data.json":            {false, true},
	} {
		if got := [2]bool{IsSource(p), IsTest(p)}; got != want {
			t.Errorf("%s: source, test = %v, want %v", p, got, want)
		}
	}
}

func TestIsFixMessage(t *testing.T) {
	for msg, want := range map[string]bool{
		"fix crash when the token is empty":      true,
		"auth: Fixes #123":                       true,
		"regression in tax rounding":             true,
		"transport: handle EOF errors":           true,
		"session: tokens never expire (bug 12)":  true,
		"add invoice export":                     false,
		"prefix: suffixes are kept":              false, // "fix" inside a word
		"docs: describe the debugger setup":      false,
		"parser: panics on empty input":          true,
		"Revert \"billing: new rounding\"":       true,
		"seek: title components as path hints":   false,
		"walk: skip leaked file descriptors":     true,
		"refactor engine; no functional changes": false,
	} {
		if got := IsFixMessage(msg); got != want {
			t.Errorf("IsFixMessage(%q) = %v, want %v", msg, got, want)
		}
	}
}

// repoFiles is the synthetic repository's first commit.
var repoFiles = map[string]string{
	"auth/login.py": `"""Login: password checks."""


def check_password(user, password):
    """Compare the password with the stored hash."""
    return hash(password) == user.password_hash


def login(user, password):
    if not check_password(user, password):
        raise PermissionError("bad password")
    return user
`,
	"billing/invoice.py": `"""Invoices."""


def compute_tax(amount):
    """Tax on an invoice amount, rounded to cents."""
    return round(amount * 0.2, 2)


def invoice_total(lines):
    return sum(l.amount for l in lines) + compute_tax(sum(l.amount for l in lines))
`,
	"net/retry.go": `package net

import "time"

// Backoff returns the delay before retry attempt n.
func Backoff(n int) time.Duration {
	return time.Duration(n*n) * 100 * time.Millisecond
}
`,
	"tests/test_login.py": `from auth.login import check_password


def test_empty_password():
    assert True
`,
	"README.md": "# demo\n",
}

type commitSpec struct {
	msg   string
	write map[string]string
}

// makeRepo builds a repository: the initial commit, then each spec.
func makeRepo(t testing.TB, specs []commitSpec) string {
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
	commit := func(msg string, files map[string]string) {
		for p, src := range files {
			full := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(src), 0o644); err != nil {
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
	commit("initial import", repoFiles)
	for _, s := range specs {
		commit(s.msg, s.write)
	}
	return dir
}

var specs = []commitSpec{
	{"auth: fix check_password accepting empty passwords\n\nAn empty password hashed to the stored hash of an empty string.", map[string]string{
		"auth/login.py":       strings.Replace(repoFiles["auth/login.py"], "    return hash", "    if not password:\n        return False\n    return hash", 1),
		"tests/test_login.py": repoFiles["tests/test_login.py"] + "\n\ndef test_more():\n    assert True\n",
	}},
	{"billing: add invoice export", map[string]string{"billing/export.py": "def export(invoice):\n    return str(invoice)\n"}},
	{"billing: tax rounding error on invoices", map[string]string{
		"billing/invoice.py": strings.Replace(repoFiles["billing/invoice.py"], "round(amount * 0.2, 2)", "round(amount * 0.2 + 1e-9, 2)", 1),
		"billing/export.py":  "def export(invoice):\n    return repr(invoice)\n",
		"billing/new.py":     "X = 1\n",
	}},
	{"docs: fix typo in README", map[string]string{"README.md": "# demo app\n"}},
	{"fix: retry backoff overflow\n\nBackoff(n) overflowed for large n.", map[string]string{
		"net/retry.go": strings.Replace(repoFiles["net/retry.go"], "n*n", "min(n, 100)*min(n, 100)", 1),
		"a.py":         "A = 1\n", "b.py": "B = 1\n", "c.py": "C = 1\n", "d.py": "D = 1\n", "e.py": "E = 1\n",
	}},
}

func TestMine(t *testing.T) {
	dir := makeRepo(t, specs)
	tasks, err := Mine(dir, MineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	type brief struct {
		Subject string
		Gold    []string
		Changed int
	}
	var got []brief
	for _, tk := range tasks {
		got = append(got, brief{tk.Subject, tk.Gold, tk.Changed})
		if len(tk.Commit) != 40 || len(tk.Parent) != 40 || tk.Commit == tk.Parent {
			t.Errorf("bad hashes %s %s", tk.Commit, tk.Parent)
		}
	}
	// Newest first; the README typo fix has no source file, the backoff
	// fix touches 6 files, "add invoice export" is not a fix, and the
	// rounding fix's new file did not exist at the parent.
	want := []brief{
		{"billing: tax rounding error on invoices", []string{"billing/export.py", "billing/invoice.py"}, 3},
		{"auth: fix check_password accepting empty passwords", []string{"auth/login.py"}, 2},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("tasks (-want +got):\n%s", d)
	}
	if !strings.Contains(tasks[1].Message, "empty string") {
		t.Errorf("message lost its body: %q", tasks[1].Message)
	}
	all, err := Mine(dir, MineOptions{AllCommits: true, MaxFiles: 10})
	if err != nil {
		t.Fatal(err)
	}
	// + the backoff fix (6 files <= 10); "add invoice export" only adds a
	// file, and the README fix changes no source.
	if len(all) != 3 {
		var subj []string
		for _, tk := range all {
			subj = append(subj, tk.Subject)
		}
		t.Errorf("all commits, max 10 files: %q", subj)
	}
	if one, _ := Mine(dir, MineOptions{MaxTasks: 1}); len(one) != 1 {
		t.Errorf("MaxTasks 1 gave %d", len(one))
	}
}

func TestTreeFiles(t *testing.T) {
	dir := makeRepo(t, specs)
	tasks, err := Mine(dir, MineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	files, err := TreeFiles(dir, tasks[1].Parent) // before the auth fix
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range files {
		got[f.Path] = string(f.Data)
	}
	if d := cmp.Diff(repoFiles, got); d != "" {
		t.Errorf("parent tree (-want +got):\n%s", d)
	}
	if _, err := TreeFiles(dir, "0000000000000000000000000000000000000000"); err == nil {
		t.Error("unknown commit accepted")
	}
}

func TestBM25(t *testing.T) {
	var files []File
	for p, src := range repoFiles {
		files = append(files, File{p, []byte(src)})
	}
	x := NewBM25(files)
	if got := x.Rank("tax rounding on invoices", 3); len(got) == 0 || got[0] != "billing/invoice.py" {
		t.Errorf("rank = %v", got)
	}
	if got := x.Rank("check_password", 10); !cmp.Equal(got, []string{"tests/test_login.py", "auth/login.py"}) { // the shorter file wins
		t.Errorf("rank = %v", got)
	}
	if got := x.Rank("nothing matches zzz", 10); len(got) != 0 {
		t.Errorf("rank = %v", got)
	}
	if got := Words("Check_Password(user) == 42;"); !cmp.Equal(got, []string{"check_password", "user", "42"}) {
		t.Errorf("words = %q", got)
	}
}

func TestMetrics(t *testing.T) {
	gold := []string{"a.go", "b.go"}
	tests := []struct {
		ranked       []string
		at1, at5, a2 bool
		rr           float64
	}{
		{[]string{"a.go", "b.go"}, true, true, true, 1},
		{[]string{"x.go", "a.go", "y.go", "z.go", "b.go"}, false, true, false, 0.5},
		{[]string{"b.go", "x", "x2", "x3", "x4", "a.go"}, true, false, false, 1},
		{nil, false, false, false, 0},
	}
	for _, tt := range tests {
		if HitAt(tt.ranked, gold, 1) != tt.at1 || HitAt(tt.ranked, gold, 5) != tt.at5 || HitAt(tt.ranked, gold, 2) != tt.a2 || ReciprocalRank(tt.ranked, gold) != tt.rr {
			t.Errorf("%v: at1 %v at5 %v at2 %v rr %v", tt.ranked, HitAt(tt.ranked, gold, 1), HitAt(tt.ranked, gold, 5), HitAt(tt.ranked, gold, 2), ReciprocalRank(tt.ranked, gold))
		}
	}
	tasks := []Task{{Gold: []string{"a.go"}}, {Gold: []string{"b.go"}}, {Gold: []string{"c.go"}}, {Gold: []string{"d.go"}}}
	s := Score(tasks, [][]string{{"a.go"}, {"x", "b.go"}, {"x"}, nil}, []bool{false, false, false, true})
	want := Scores{Tasks: 4, AccAt1: 0.25, AccAt5: 0.5, AccAt10: 0.5, MRR: 0.375, Failed: 1}
	if s != want {
		t.Errorf("Score = %+v, want %+v", s, want)
	}
	if got := SourceFiles([]string{"a.go", "README.md", "", "a.go", "dir", "b.py"}); !cmp.Equal(got, []string{"a.go", "b.py"}) {
		t.Errorf("SourceFiles = %v", got)
	}
}

// TestRunEndToEnd builds the real m1nd-mcp server and runs the whole
// benchmark on the synthetic repository through it.
func TestRunEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	bin := filepath.Join(t.TempDir(), "m1nd-mcp")
	build := exec.Command("go", "build", "-o", bin, "github.com/m1nd-go/m1nd/mcpserver/cmd/m1nd-mcp")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build server: %v\n%s", err, out)
	}
	dir := makeRepo(t, specs)
	for _, history := range []bool{false, true} {
		if history {
			if _, err := exec.LookPath("git"); err != nil {
				continue
			}
		}
		rep, err := Run(context.Background(), Config{Repo: dir, Server: bin, History: history, TaskTimeout: 2 * time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Tasks != 2 || len(rep.Results) != 2 {
			t.Fatalf("history %v: %d tasks", history, rep.Tasks)
		}
		for _, m := range Methods {
			s := rep.Scores[m]
			if s.Failed != 0 {
				t.Errorf("history %v: %s failed: %+v", history, m, rep.Results)
			}
		}
		// The auth fix names its function and file: seek must put it first.
		auth := rep.Results[1]
		if auth.FirstGoldRank["seek"] != 1 || auth.FirstGoldRank["bm25"] != 1 {
			t.Errorf("history %v: auth task ranks %v, ranked %v", history, auth.FirstGoldRank, auth.Ranked)
		}
		if auth.Nodes == 0 || auth.Files != 4 {
			t.Errorf("history %v: ingest reported %d nodes, %d source files", history, auth.Nodes, auth.Files)
		}
		md := rep.Markdown()
		for _, m := range Methods {
			if !strings.Contains(md, "| "+m+" | 2 |") {
				t.Errorf("markdown lacks the %s row:\n%s", m, md)
			}
		}
	}
}
