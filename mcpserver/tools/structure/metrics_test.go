package structure

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// expectedMetrics derives every backend file's numbers from the corpus
// itself (its text, its entity list, its edge list as a reader of the
// code sees it, its commit list), not from the graph.
func expectedMetrics() map[string]string {
	fileOf := func(id string) string {
		p, _, _ := strings.Cut(strings.TrimPrefix(id, "file::"), "::")
		return p
	}
	dependents := map[string]map[string]bool{}
	for _, e := range testcorpus.Edges {
		a, b := fileOf(e.Source), fileOf(e.Target)
		if a != b {
			if dependents[b] == nil {
				dependents[b] = map[string]bool{}
			}
			dependents[b][a] = true
		}
	}
	out := map[string]string{}
	for p, text := range testcorpus.Backend {
		loc := strings.Count(text, "\n")
		if !strings.HasSuffix(text, "\n") {
			loc++
		}
		churn := 1 // the final commit writes every file
		for _, c := range testcorpus.History {
			if slices.Contains(c, p) {
				churn++
			}
		}
		var fn, cl, tests int
		for _, e := range testcorpus.Entities[p] {
			if e.Kind == testcorpus.Function {
				fn++
			} else {
				cl++
			}
		}
		for d := range dependents[p] {
			if strings.HasPrefix(d, "tests/") {
				tests++
			}
		}
		out[p] = fmt.Sprintf("loc=%d churn=%d fan_in=%d functions=%d classes=%d test_links=%d", loc, churn, len(dependents[p]), fn, cl, tests)
	}
	return out
}

func TestMetricsFixtureAgainstCorpus(t *testing.T) {
	d, _ := tooltest.IngestedFixture(t)
	out := tooltest.MustCall(t, d, "metrics", map[string]any{"agent_id": "t", "top_k": 500})
	want := expectedMetrics()
	got := map[string]string{}
	for _, e := range out["entries"].([]any) {
		e := e.(map[string]any)
		num := func(k string) int { f, _ := e[k].(float64); return int(f) }
		got[e["file"].(string)] = fmt.Sprintf("loc=%d churn=%d fan_in=%d functions=%d classes=%d test_links=%d",
			num("loc"), num("churn"), num("fan_in"), num("functions"), num("classes"), num("test_links"))
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: got %s, want %s", p, got[p], w)
		}
	}
	if s := out["summary"].(map[string]any); s["matched"] != float64(len(want)) {
		t.Errorf("matched %v, want %d files", s["matched"], len(want))
	}
	// Sorted by lines, largest first, ties by name.
	var locs []float64
	for _, e := range out["entries"].([]any) {
		locs = append(locs, e.(map[string]any)["loc"].(float64))
	}
	if !slices.IsSortedFunc(locs, func(a, b float64) int { return int(b - a) }) {
		t.Errorf("loc_desc order: %v", locs)
	}
}

func TestMetricsPackagesAndEntities(t *testing.T) {
	d, _ := tooltest.IngestedFixture(t)
	out := tooltest.MustCall(t, d, "metrics", map[string]any{"agent_id": "t", "node_types": []string{"package"}, "sort": "name_asc"})
	var got []string
	for _, e := range out["entries"].([]any) {
		e := e.(map[string]any)
		got = append(got, fmt.Sprintf("%v loc=%v fan_in=%v fan_out=%v", e["node"], e["loc"], e["fan_in"], e["fan_out"]))
	}
	// backend holds 7 files; tests depends on backend.
	want := expectedPackages()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("packages:\n got %q\nwant %q", got, want)
	}
	fn := tooltest.MustCall(t, d, "metrics", map[string]any{"agent_id": "t", "node_types": []string{"function"}, "sort": "fan_in_desc", "top_k": 1})
	top := fn["entries"].([]any)[0].(map[string]any)
	// require_session is called by charge and refund, and payments.py
	// imports it by name.
	if top["node"] != "file::backend/middleware.py::require_session" || top["fan_in"] != float64(3) || top["depth"] != float64(2) || top["loc"] != float64(6) {
		t.Errorf("top function by fan-in: %v", top)
	}
	res, isErr := tooltest.Call(t, d, "metrics", map[string]any{"agent_id": "t", "node_types": []string{"widget"}})
	if !isErr || !strings.Contains(fmt.Sprint(res["error"]), "widget") {
		t.Errorf("unknown node type: %v", res)
	}
}

// expectedPackages sums the corpus per directory.
func expectedPackages() []string {
	loc := map[string]int{}
	for p, text := range testcorpus.Backend {
		dir := "."
		if i := strings.LastIndex(p, "/"); i >= 0 {
			dir = p[:i]
		}
		n := strings.Count(text, "\n")
		if !strings.HasSuffix(text, "\n") {
			n++
		}
		loc[dir] += n
	}
	var out []string
	for _, dir := range slices.Sorted(func(yield func(string) bool) {
		for k := range loc {
			if !yield(k) {
				return
			}
		}
	}) {
		in, outDeg := 0, 0
		switch dir {
		case "backend":
			in = 1
		case "tests":
			outDeg = 1
		}
		out = append(out, fmt.Sprintf("%s loc=%d fan_in=%d fan_out=%d", dir, loc[dir], in, outDeg))
	}
	return out
}
