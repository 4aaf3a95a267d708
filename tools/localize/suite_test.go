package localize

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIsChore(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want bool
	}{
		{`Revert "fix: cookie parsing"`, true},
		{"Bump pytest from 7.1 to 7.2", true},
		{"build(deps): bump golang.org/x/net from 0.1.0 to 0.7.0", true},
		{"Release 2.3.0", true},
		{"v1.4.2", true},
		{"prepare release 3.0", true},
		{"fix: crash on empty header\n\nSigned-off-by: dependabot[bot]", true},
		{"fix crash when the bump allocator is empty", false},
		{"router: release the lock on error", false},
		{"fix version parsing of 1.2 strings", false},
	} {
		if got := IsChore(tc.msg); got != tc.want {
			t.Errorf("IsChore(%q) = %v, want %v", tc.msg, got, tc.want)
		}
	}
}

func TestCleanMessage(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"fix: header parsing\n\nSee https://example.com/issue/12 for details.\n\nSigned-off-by: A <a@x>\nCo-authored-by: B <b@x>",
			"fix: header parsing\n\nSee  for details."},
		{"Fix leak (#123)\r\n\r\nFixes: #99\nChange-Id: I0abc", "Fix leak (#123)"},
		{"Signed-off-by: A <a@x>", ""},
		{"router: keep the trailing slash\n\n\n\n\nmore", "router: keep the trailing slash\n\nmore"},
		{"Fix clone()\n\ngit-svn-id: https://svn.apache.org/repos/asf/lang/trunk@137 13f79535-47bb", "Fix clone()"},
		{"PR: \n[lang] fixes comment skew\nSubmitted by:\tJ B\nReviewed by:\tG G\nObtained from: X", "PR: \n[lang] fixes comment skew"},
	} {
		if got := CleanMessage(tc.in); got != tc.want {
			t.Errorf("CleanMessage(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSpread(t *testing.T) {
	xs := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	for _, tc := range []struct {
		n    int
		want []int
	}{
		{0, xs}, {20, xs}, {10, xs},
		{1, []int{5}}, {2, []int{2, 7}}, {3, []int{1, 5, 8}}, {5, []int{1, 3, 5, 7, 9}},
	} {
		if got := Spread(xs, tc.n); !cmp.Equal(got, tc.want) {
			t.Errorf("Spread(10, %d) = %v, want %v", tc.n, got, tc.want)
		}
	}
}

// TestMineSuiteOptions: the suite's filters on the scripted history.
func TestMineSuiteOptions(t *testing.T) {
	extra := append(append([]commitSpec(nil), specs...),
		commitSpec{"Revert \"auth: fix check_password\"", map[string]string{"auth/login.py": repoFiles["auth/login.py"]}},
		commitSpec{"fix: five source files\n\nCo-authored-by: X <x@x>", map[string]string{
			"auth/login.py": "A = 2\n", "a.py": "A = 9\n", "b.py": "B = 9\n", "c.py": "C = 9\n", "d.py": "D = 9\n"}},
		commitSpec{"auth: crash on unicode\n\nSigned-off-by: X <x@x>\nSee https://x.example/1", map[string]string{"auth/login.py": "A = 3\n"}},
	)
	dir := makeRepo(t, extra)
	subjects := func(o MineOptions) (out []string) {
		tasks, err := Mine(dir, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, tk := range tasks {
			out = append(out, tk.Message)
		}
		return out
	}
	got := subjects(MineOptions{MaxFiles: 10, MaxSource: 4, Clean: true})
	want := []string{"auth: crash on unicode\n\nSee", "billing: tax rounding error on invoices",
		"auth: fix check_password accepting empty passwords\n\nAn empty password hashed to the stored hash of an empty string."}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("clean, <= 4 source files (-want +got):\n%s", d)
	}
	// Without the suite's filters the revert and the five- and six-file fixes count.
	if raw := subjects(MineOptions{MaxFiles: 10}); len(raw) != 6 {
		t.Errorf("raw mining: %q", raw)
	}
	// Spread picks from the middle of equal slices of the history.
	if sp := subjects(MineOptions{MaxFiles: 10, MaxSource: 4, Clean: true, MaxTasks: 1, Spread: true}); len(sp) != 1 || !strings.HasPrefix(sp[0], "billing") {
		t.Errorf("spread 1: %q", sp)
	}
}

func TestSuiteSummarize(t *testing.T) {
	res := func(gold string, bm25, seek []string, seekRank int) TaskResult {
		return TaskResult{Task: Task{Gold: []string{gold}},
			Ranked:        map[string][]string{"bm25": bm25, "seek": seek},
			FirstGoldRank: map[string]int{"bm25": 1, "seek": seekRank}}
	}
	rep := &SuiteReport{Methods: []string{"bm25", "seek"}, Repos: []RepoReport{
		{Repo: Repo{Name: "a", Lang: "go", Split: "tune"}, Report: &Report{Results: []TaskResult{
			res("x.go", []string{"x.go"}, []string{"y.go", "x.go"}, 2)}}},
		{Repo: Repo{Name: "b", Lang: "python", Split: "held-out"}, Report: &Report{Results: []TaskResult{
			res("x.py", []string{"x.py"}, nil, 20), res("y.py", []string{"y.py"}, []string{"y.py"}, 1)}}},
		{Repo: Repo{Name: "c", Lang: "python", Split: "held-out"}, Err: "no git mirror"},
	}}
	rep.Summarize()
	type row struct {
		Split, Name string
		Tasks       int
		Seek        Scores
	}
	var got []row
	for _, g := range rep.Groups {
		got = append(got, row{g.Split, g.Name, g.Tasks, g.Scores["seek"]})
	}
	want := []row{
		{"tune", "a", 1, Scores{Tasks: 1, AccAt5: 1, AccAt10: 1, MRR: 0.5}},
		{"tune", "all go", 1, Scores{Tasks: 1, AccAt5: 1, AccAt10: 1, MRR: 0.5}},
		{"tune", "all", 1, Scores{Tasks: 1, AccAt5: 1, AccAt10: 1, MRR: 0.5}},
		{"held-out", "b", 2, Scores{Tasks: 2, AccAt1: 0.5, AccAt5: 0.5, AccAt10: 0.5, MRR: 0.525}},
		{"held-out", "all python", 2, Scores{Tasks: 2, AccAt1: 0.5, AccAt5: 0.5, AccAt10: 0.5, MRR: 0.525}},
		{"held-out", "all", 2, Scores{Tasks: 2, AccAt1: 0.5, AccAt5: 0.5, AccAt10: 0.5, MRR: 0.525}},
		{"", "all", 3, Scores{Tasks: 3, AccAt1: 0.3333, AccAt5: 0.6667, AccAt10: 0.6667, MRR: 0.5167}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("groups (-want +got):\n%s", d)
	}
	md := rep.Markdown()
	for _, s := range []string{"### held-out", "| **all python** | python | 2 |", "- c: no git mirror", "0.500 / 0.500 / 0.500 / 0.525"} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q:\n%s", s, md)
		}
	}
}
