package localize

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// roundTrip writes a suite report as -json does and reads it back.
func roundTrip(t *testing.T, s *SuiteReport) *SuiteReport {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ReadSuiteReport(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestMergeSuites(t *testing.T) {
	hit := func(gold string, seekRank int) TaskResult {
		seek := []string{"other.go", gold}
		if seekRank == 1 {
			seek = []string{gold}
		}
		return TaskResult{Task: Task{Gold: []string{gold}}, Files: 600, Nodes: 9000,
			IngestMs: 900, LatencyMs: map[string]float64{"bm25": 10, "seek": 50, "activate": 20},
			Ranked:        map[string][]string{"bm25": {gold}, "seek": seek, "activate": {gold}},
			FirstGoldRank: map[string]int{"bm25": 1, "seek": seekRank, "activate": 1}}
	}
	old := &SuiteReport{ElapsedS: 10, Methods: []string{"bm25", "seek", "activate"}, Repos: []RepoReport{
		{Repo: Repo{Name: "small", Lang: "go", Split: "held-out"}, Report: &Report{Results: []TaskResult{hit("a.go", 1)}}},
		{Repo: Repo{Name: "tuned", Lang: "go", Split: "tune"}, Report: &Report{Results: []TaskResult{hit("b.go", 1)}}},
	}}
	large := &SuiteReport{ElapsedS: 5, Methods: []string{"bm25", "seek"}, Repos: []RepoReport{
		{Repo: Repo{Name: "large", Lang: "go", Split: "held-out"}, Report: &Report{Results: []TaskResult{hit("c.go", 2)}}},
	}}
	got, err := MergeSuites(roundTrip(t, old), roundTrip(t, large))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Split, Name string
		Tasks       int
		Seek5       float64
		Seek1       float64
	}
	var rows []row
	for _, g := range got.Groups {
		rows = append(rows, row{g.Split, g.Name, g.Tasks, g.Scores["seek"].AccAt5, g.Scores["seek"].AccAt1})
	}
	want := []row{
		{"tune", "tuned", 1, 1, 1}, {"tune", "all go", 1, 1, 1}, {"tune", "all", 1, 1, 1},
		{"held-out", "small", 1, 1, 1}, {"held-out", "large", 1, 1, 0}, {"held-out", "all go", 2, 1, 0.5},
		{"held-out", "all", 2, 1, 0.5}, {"", "all", 3, 1, 0.6667},
	}
	if d := cmp.Diff(want, rows); d != "" {
		t.Errorf("merged groups (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"bm25", "seek"}, got.Methods); d != "" {
		t.Errorf("methods every report ran (-want +got):\n%s", d)
	}
	if got.ElapsedS != 15 {
		t.Errorf("elapsed %v, want 15", got.ElapsedS)
	}
	md := got.Markdown()
	for _, s := range []string{"| large | 1 | 600 | 9000 | 900.0 | 10.0 | 50.0 |", "### everything"} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q:\n%s", s, md)
		}
	}
}

func TestMergeSuitesErrors(t *testing.T) {
	one := &SuiteReport{Methods: []string{"bm25"}, Repos: []RepoReport{{Repo: Repo{Name: "a"}}}}
	for _, tc := range []struct {
		name string
		reps []*SuiteReport
		want string
	}{
		{"none", nil, "no reports"},
		{"same repository twice", []*SuiteReport{one, one}, "repository a is in reports 1 and 2"},
	} {
		if _, err := MergeSuites(tc.reps...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	for _, in := range []string{"{", `{"repos": []}`} {
		if _, err := ReadSuiteReport(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), "-json output of m1nd-localize -repos") {
			t.Errorf("ReadSuiteReport(%q): error %v", in, err)
		}
	}
}

// activate's arguments: the harness's own win over -activate-args, which
// add the rest.
func TestActivateArgs(t *testing.T) {
	for _, tc := range []struct {
		name  string
		extra map[string]any
		want  map[string]any
	}{
		{"none", nil, map[string]any{"agent_id": "localize", "query": "fix it", "top_k": 100}},
		{"trust", map[string]any{"trust_weight": 0.5}, map[string]any{"agent_id": "localize", "query": "fix it", "top_k": 100, "trust_weight": 0.5}},
		{"no override", map[string]any{"query": "other", "top_k": 3}, map[string]any{"agent_id": "localize", "query": "fix it", "top_k": 100}},
	} {
		got := Config{TopK: 100, ActivateArgs: tc.extra}.activateArgs("fix it")
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	long := Config{TopK: 100}.activateArgs(strings.Repeat("x", 20000))["query"].(string)
	if len(long) > 8<<10 {
		t.Errorf("a 20,000-byte message becomes a %d-byte query, over the server's 8 KiB", len(long))
	}
}
