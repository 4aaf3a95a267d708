package immune_test

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// tremorHistory, in the last week: hot.py accelerates (0 0 0 0 1 2 4 per
// day), cold.py changes once a day, burst.py changes 12 times on the last
// day.
func tremorHistory() ([]step, map[string]string) {
	var steps []step
	add := func(days float64, file string) {
		steps = append(steps, step{days, fmt.Sprintf("change %s %.2f", file, days), []string{file}})
	}
	for _, d := range []float64{6.5, 5.5, 4.5, 3.5, 2.5, 1.5, 0.5} {
		add(d, "app/cold.py")
	}
	for _, d := range []float64{2.5, 1.5, 1.3, 0.9, 0.7, 0.5} {
		add(d+0.01, "app/hot.py")
	}
	for i := range 12 {
		add(0.6-0.05*float64(i), "app/burst.py")
	}
	steps = append(steps, step{0, "final", []string{"app/hot.py", "app/cold.py", "app/burst.py"}})
	sortSteps(steps)
	files := map[string]string{"app/hot.py": "def hot():\n    return 1\n", "app/cold.py": "def cold():\n    return 2\n", "app/burst.py": "def burst():\n    return 3\n"}
	return steps, files
}

// sortSteps orders steps oldest first (insertion sort: stable, few).
func sortSteps(s []step) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].daysBefore > s[j-1].daysBefore; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func TestTremorFromHistory(t *testing.T) {
	steps, files := tremorHistory()
	dir := writeHistory(t, steps, files)
	d := tooltest.NewDispatcher(t, tooltest.SessionConfigMemory())
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	out := tooltest.MustCall(t, d, "tremor", map[string]any{"agent_id": "t", "window": "7d", "detail": "full"})
	mods := out["modules"].([]any)
	if len(mods) != 3 || out["bins"] != 7.0 || out["bin_hours"] != 24.0 {
		t.Fatalf("tremor: %v", out)
	}
	get := func(i int) map[string]any { return mods[i].(map[string]any) }
	// burst: 0 … 0 13 (its 12 changes and the final commit).
	b := get(0)
	acc := 13.0 / 5
	if b["node_id"] != "file::app/burst.py" || b["risk_level"] != "Critical" || b["magnitude"] != r3(acc*math.Sqrt(13)) || b["slope"] != r3(39.0/28) {
		t.Errorf("burst: %v", b)
	}
	// hot: 0 0 0 0 1 2 4 (the final commit is the fourth of the last
	// day): second differences 0 0 1 0 1, mean 0.4.
	h := get(1)
	if h["node_id"] != "file::app/hot.py" || h["direction"] != "Accelerating" || h["magnitude"] != r3(0.4*math.Sqrt(7)) ||
		!reflect.DeepEqual(h["series"], []any{0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 4.0}) || h["risk_level"] != "Medium" {
		t.Errorf("hot: %v", h)
	}
	// cold: 1 1 1 1 1 1 2: mean second difference 1/5.
	c := get(2)
	if c["node_id"] != "file::app/cold.py" || c["direction"] != "Stable" || c["magnitude"] != r3(0.2*math.Sqrt(8)) || c["risk_level"] != "Low" {
		t.Errorf("cold: %v", c)
	}
	// Filters.
	f := tooltest.MustCall(t, d, "tremor", map[string]any{"agent_id": "t", "window": "7d", "min_magnitude": 2})
	if ms := f["modules"].([]any); len(ms) != 1 || f["total_modules"] != 1.0 {
		t.Errorf("min_magnitude 2: %v", f)
	}
	f = tooltest.MustCall(t, d, "tremor", map[string]any{"agent_id": "t", "window": "7d", "node_filter": "cold"})
	if ms := f["modules"].([]any); len(ms) != 1 || ms[0].(map[string]any)["node_id"] != "file::app/cold.py" {
		t.Errorf("node_filter: %v", f)
	}
}
