package deptruth

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// lib.py ← api.py ← app.py ← main.py, lib.py ← util.py; other.py stands
// alone, and cyc1/cyc2 import each other.
func smallTruth() *Truth {
	return NewTruth(Python,
		[]string{"lib.py", "api.py", "app.py", "main.py", "util.py", "other.py", "cyc1.py", "cyc2.py"},
		map[string][]string{
			"api.py":   {"lib.py"},
			"app.py":   {"api.py", "app.py", "missing.py"}, // self and unknown targets dropped
			"main.py":  {"app.py", "app.py"},
			"util.py":  {"lib.py"},
			"cyc1.py":  {"cyc2.py"},
			"cyc2.py":  {"cyc1.py"},
			"ghost.py": {"lib.py"}, // not a file of the truth: dropped
		})
}

func TestTruthGraph(t *testing.T) {
	tr := smallTruth()
	if got := tr.Edges(); got != 6 {
		t.Errorf("Edges = %d, want 6", got)
	}
	if d := cmp.Diff([]string{"api.py", "util.py"}, tr.Dependents("lib.py")); d != "" {
		t.Errorf("Dependents(lib.py) (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]bool{"api.py": true, "util.py": true, "app.py": true, "main.py": true}, tr.BlastRadius("lib.py")); d != "" {
		t.Errorf("BlastRadius(lib.py) (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]bool{"cyc2.py": true}, tr.BlastRadius("cyc1.py")); d != "" {
		t.Errorf("BlastRadius on a cycle leaves the file itself out (-want +got):\n%s", d)
	}
	if got := tr.BlastRadius("other.py"); len(got) != 0 {
		t.Errorf("BlastRadius(other.py) = %v, want empty", got)
	}
}

func TestMapItems(t *testing.T) {
	items := []Item{
		{NodeID: "file::api.py", File: "api.py", Type: "file", Hop: 1, Via: []string{"api.py imports lib.py"}},
		{NodeID: "dir::src", File: "src", Type: "directory", Hop: 1},
		{NodeID: "package::pypi::lib", Type: "module", Hop: 1},
		{NodeID: "file::util.py::helper", Type: "function", Hop: 1, Via: []string{"util.py::helper calls lib.py::f"}},
		{NodeID: "file::lib.py::f", File: "lib.py", Hop: 1}, // the file itself
		{NodeID: "file::api.py::Client", File: "api.py", Hop: 1, Via: []string{"more"}},
		{NodeID: "file::app.py", File: "app.py", Hop: 2},
	}
	a := MapItems("lib.py", items)
	if d := cmp.Diff([]string{"api.py", "util.py", "app.py"}, a.Named); d != "" {
		t.Errorf("Named (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]int{"api.py": 1, "util.py": 1, "app.py": 2}, a.Hop); d != "" {
		t.Errorf("Hop (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"api.py imports lib.py", "more"}, a.Via["api.py"]); d != "" {
		t.Errorf("Via merges duplicates (-want +got):\n%s", d)
	}
}

func f64(v float64) *float64 { return &v }

func TestScoreFile(t *testing.T) {
	tr := smallTruth()
	hops := func(m map[string]int) map[string]int { return m }
	tests := []struct {
		name string
		file string
		ans  Answer
		topK int
		want FileResult
	}{{
		name: "perfect: direct first, then the rest of the blast radius",
		file: "lib.py",
		ans:  Answer{Named: []string{"api.py", "util.py", "app.py", "main.py"}, Hop: hops(map[string]int{"api.py": 1, "util.py": 1, "app.py": 2, "main.py": 3}), Direction: "dependents"},
		want: FileResult{File: "lib.py", Direct: []string{"api.py", "util.py"}, Blast: 4, Named: []string{"api.py", "util.py", "app.py", "main.py"}, N: 2,
			ServerDirect: []string{"api.py", "util.py"}, Direction: "dependents", DirectPrecision: f64(1), BlastPrecision: f64(1), DirectRecall: f64(1)},
	}, {
		name: "a transitive dependent ranked before a direct one, and a wrong file",
		file: "lib.py",
		ans:  Answer{Named: []string{"api.py", "app.py", "other.py", "util.py"}, Hop: hops(map[string]int{"api.py": 1, "app.py": 1, "other.py": 1, "util.py": 2}), Via: map[string][]string{"other.py": {"other.py calls lib.py::f"}}},
		want: FileResult{File: "lib.py", Direct: []string{"api.py", "util.py"}, Blast: 4, Named: []string{"api.py", "app.py", "other.py", "util.py"}, N: 2,
			FalsePositives: []string{"app.py"}, OutsideBlast: []string{"other.py"}, ServerDirect: []string{"api.py", "app.py", "other.py"},
			Via:             map[string][]string{"other.py": {"other.py calls lib.py::f"}},
			DirectPrecision: f64(0.5), BlastPrecision: f64(0.75), DirectRecall: f64(1)},
	}, {
		name: "a direct dependent missed",
		file: "lib.py",
		ans:  Answer{Named: []string{"api.py"}, Hop: hops(map[string]int{"api.py": 1})},
		want: FileResult{File: "lib.py", Direct: []string{"api.py", "util.py"}, Blast: 4, Named: []string{"api.py"}, N: 2, Misses: []string{"util.py"},
			ServerDirect: []string{"api.py"}, DirectPrecision: f64(0.5), BlastPrecision: f64(1), DirectRecall: f64(0.5)},
	}, {
		name: "empty answer for a file with dependents scores 0",
		file: "app.py",
		ans:  Answer{},
		want: FileResult{File: "app.py", Direct: []string{"main.py"}, Blast: 1, Named: []string{}, N: 1, Misses: []string{"main.py"},
			DirectPrecision: f64(0), BlastPrecision: f64(0), DirectRecall: f64(0)},
	}, {
		name: "missing node scores 0 even if something was named",
		file: "app.py",
		ans:  Answer{Named: []string{"main.py"}, Hop: hops(map[string]int{"main.py": 1}), Lacked: true, ResolvedTo: "file::app.py::App"},
		want: FileResult{File: "app.py", Direct: []string{"main.py"}, Blast: 1, Named: []string{"main.py"}, N: 1, ServerDirect: []string{"main.py"},
			Lacked: true, ResolvedTo: "file::app.py::App", DirectPrecision: f64(0), BlastPrecision: f64(0), DirectRecall: f64(0)},
	}, {
		name: "no true dependents: no scores, named files listed outside the blast radius",
		file: "other.py",
		ans:  Answer{Named: []string{"lib.py"}, Hop: hops(map[string]int{"lib.py": 1})},
		want: FileResult{File: "other.py", Direct: []string{}, Named: []string{"lib.py"}, OutsideBlast: []string{"lib.py"}, ServerDirect: []string{"lib.py"}},
	}, {
		name: "files outside the universe are not judged (an example the tool skips)",
		file: "lib.py",
		ans:  Answer{Named: []string{"_examples/demo.py", "api.py", "util.py", "notes.md"}, Hop: hops(map[string]int{"_examples/demo.py": 1, "api.py": 1, "util.py": 1, "notes.md": 1})},
		want: FileResult{File: "lib.py", Direct: []string{"api.py", "util.py"}, Blast: 4, Named: []string{"api.py", "util.py"}, N: 2,
			Unjudged: []string{"_examples/demo.py", "notes.md"}, ServerDirect: []string{"api.py", "util.py"}, DirectPrecision: f64(1), BlastPrecision: f64(1), DirectRecall: f64(1)},
	}, {
		name: "recall's denominator is capped by top_k",
		file: "lib.py",
		ans:  Answer{Named: []string{"util.py"}, Hop: hops(map[string]int{"util.py": 1})},
		topK: 1,
		want: FileResult{File: "lib.py", Direct: []string{"api.py", "util.py"}, Blast: 4, Named: []string{"util.py"}, N: 2, Misses: []string{"api.py"},
			ServerDirect: []string{"util.py"}, DirectPrecision: f64(0.5), BlastPrecision: f64(1), DirectRecall: f64(1)},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			topK := tc.topK
			if topK == 0 {
				topK = 100
			}
			got := ScoreFile(tr, tc.file, tc.ans, topK)
			if d := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("ScoreFile (-want +got):\n%s", d)
			}
		})
	}
}

func TestDirectPrecisionCutoff(t *testing.T) {
	// 12 direct dependents: N is 10, so the 11th and 12th do not count
	// for precision, and a wrong file at rank 11 is not a false positive.
	files := []string{"x.go", "wrong.go"}
	deps := map[string][]string{}
	var named []string
	for i := 0; i < 12; i++ {
		f := string(rune('a'+i)) + ".go"
		files = append(files, f)
		deps[f] = []string{"x.go"}
		if i < 9 {
			named = append(named, f)
		}
	}
	named = append(named, "wrong.go", "j.go", "k.go")
	tr := NewTruth(Go, files, deps)
	got := ScoreFile(tr, "x.go", Answer{Named: named, Hop: map[string]int{}}, 100)
	if got.N != 10 || *got.DirectPrecision != 0.9 {
		t.Errorf("N = %d, direct precision = %v; want 10, 0.9", got.N, *got.DirectPrecision)
	}
	if d := cmp.Diff([]string{"wrong.go"}, got.FalsePositives); d != "" {
		t.Errorf("FalsePositives (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"l.go"}, got.Misses); d != "" {
		t.Errorf("Misses (-want +got):\n%s", d)
	}
	if want := 11.0 / 12; *got.DirectRecall != want {
		t.Errorf("direct recall = %v, want %v", *got.DirectRecall, want)
	}
	if want := 11.0 / 12; *got.BlastPrecision != want {
		t.Errorf("blast precision = %v, want %v", *got.BlastPrecision, want)
	}
}

func TestAggregate(t *testing.T) {
	tr := smallTruth()
	answers := map[string]Answer{
		"lib.py":   {Named: []string{"api.py", "util.py", "app.py"}, Hop: map[string]int{"api.py": 1, "util.py": 1, "app.py": 2}, Direction: "dependents"},
		"api.py":   {Named: []string{"main.py", "app.py"}, Hop: map[string]int{"main.py": 1, "app.py": 1}, Direction: "dependents"},
		"app.py":   {Err: "boom"},
		"main.py":  {Named: []string{"other.py", "lib.py"}, Hop: map[string]int{"other.py": 1, "lib.py": 1}, Direction: "dependents"},
		"util.py":  {Direction: "dependents"},
		"other.py": {Lacked: true, ResolvedTo: "(no such node)"},
		"cyc1.py":  {Named: []string{"cyc2.py"}, Hop: map[string]int{"cyc2.py": 1}, Direction: "dependents"},
		"cyc2.py":  {Direction: "dependencies"},
	}
	var rs []FileResult
	for _, f := range tr.Files {
		rs = append(rs, ScoreFile(tr, f, answers[f], 100))
	}
	s := Aggregate(rs)
	// With dependents: lib (1, 1, 1), api (0, 1, 1), app (error: 0, 0, 0),
	// cyc1 (1, 1, 1), cyc2 (empty: 0, 0, 0).
	want := Scores{
		Files: 8, WithDependents: 5,
		DirectPrecision: 0.4, BlastPrecision: 0.6, DirectRecall: 0.6,
		NoDependents: 3, FalseAlarms: round4(2.0 / 3), FalseAlarmFiles: 1,
		Empty: 1, Lacked: 1, Errored: 1,
		Directions: map[string]int{"dependents": 5, "dependencies": 1},
		TrueEdges:  6, ServerEdges: 7, EdgeRecall: round4(4.0 / 6), EdgePrecision: round4(4.0 / 7),
	}
	if d := cmp.Diff(want, s); d != "" {
		t.Errorf("Aggregate (-want +got):\n%s", d)
	}
	m := Mean([]Scores{s, {Files: 2, WithDependents: 1, DirectPrecision: 1, BlastPrecision: 1, DirectRecall: 1}})
	if m.Files != 10 || m.DirectPrecision != 0.7 || m.BlastPrecision != 0.8 || m.DirectRecall != 0.8 {
		t.Errorf("Mean = %+v", m)
	}
}

func TestReadRepos(t *testing.T) {
	in := "name\trepo\tcommit\tlanguage\tsplit\n# comment\n\nattrs\tpython-attrs/attrs\tabc\tpython\ttune\nmux\tgorilla/mux\tdef\tgo\theld-out\n"
	got, err := ReadRepos(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Repo{{Name: "attrs", Slug: "python-attrs/attrs", Commit: "abc", Lang: Python, Split: "tune"}, {Name: "mux", Slug: "gorilla/mux", Commit: "def", Lang: Go, Split: "held-out"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ReadRepos (-want +got):\n%s", d)
	}
	if _, err := ReadRepos(bytes.NewBufferString("x\ty\tz\truby\ttune\n")); err == nil {
		t.Error("ReadRepos accepted an unknown language")
	}
}
