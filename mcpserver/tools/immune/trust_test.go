package immune_test

import (
	"math"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func r3(v float64) float64 { return math.Round(v*1000) / 1000 }

// The scripted history's trust, by hand: the prior is 0.5 defects over
// 0.5/ln 2 years; each file has been observed 360 days.
func TestTrustFromHistory(t *testing.T) {
	d, _ := riskRepo(t, "")
	out := tooltest.MustCall(t, d, "trust", map[string]any{"agent_id": "t"})
	py, years := 0.5/math.Ln2, 360.0/365
	// recency 60 days after the last fix: 1 − 2^(−1440/720) = 0.75.
	want := map[string]struct {
		trust             float64
		tier              string
		changes, fixes    float64
		lastDefectHoursOK bool
	}{
		"file::app/b.py": {math.Exp(-2.5/(py+years)) * (0.3 + 0.7*0.75), "HighRisk", 3, 2, true},
		"file::app/c.py": {math.Exp(-1.5/(py+years)) * (0.3 + 0.7*0.75), "HighRisk", 2, 1, true},
		"file::app/a.py": {math.Exp(-0.5 / (py + years)), "LowRisk", 3, 0, false},
	}
	mods := out["modules"].([]any)
	if len(mods) != 3 {
		t.Fatalf("modules: %v", mods)
	}
	order := []string{"file::app/b.py", "file::app/c.py", "file::app/a.py"}
	for i, m := range mods {
		m := m.(map[string]any)
		id := m["node_id"].(string)
		w := want[id]
		if id != order[i] || m["trust"] != r3(w.trust) || m["tier"] != w.tier || m["changes"] != w.changes || m["fixes"] != w.fixes {
			t.Errorf("module %d: %v, want %s %+v (trust %.3f)", i, m, order[i], w, r3(w.trust))
		}
		if _, ok := m["last_defect_hours"]; ok != w.lastDefectHoursOK {
			t.Errorf("%s: last_defect_hours %v", id, m["last_defect_hours"])
		}
	}
	if out["fix_commits"] != 2.0 || out["commits"] != 5.0 {
		t.Errorf("commits %v fixes %v", out["commits"], out["fix_commits"])
	}
	// Documents are left out unless asked for.
	docs := tooltest.MustCall(t, d, "trust", map[string]any{"agent_id": "t", "include_docs": true})
	if docs["total_modules"] != 4.0 || module(t, docs, "file::README.md")["fixes"] != 1.0 {
		t.Errorf("include_docs: %v", docs)
	}
	// Filters and orders.
	low := tooltest.MustCall(t, d, "trust", map[string]any{"agent_id": "t", "tier_filter": "LowRisk"})
	if ms := low["modules"].([]any); len(ms) != 1 || ms[0].(map[string]any)["node_id"] != "file::app/a.py" {
		t.Errorf("LowRisk: %v", ms)
	}
	byDefects := tooltest.MustCall(t, d, "trust", map[string]any{"agent_id": "t", "sort_by": "DefectsDesc", "top_k": 1})
	if ms := byDefects["modules"].([]any); ms[0].(map[string]any)["node_id"] != "file::app/b.py" || byDefects["not_listed"] != 2.0 {
		t.Errorf("DefectsDesc: %v", byDefects)
	}
	// A 1440 h half-life: recency 1 − 2^(−1) = 0.5 for b.
	hl := tooltest.MustCall(t, d, "trust", map[string]any{"agent_id": "t", "half_life_hours": 1440, "top_k": 1})
	if m := hl["modules"].([]any)[0].(map[string]any); m["recency"] != 0.5 || m["trust"] != r3(math.Exp(-2.5/(py+years))*0.65) {
		t.Errorf("half-life 1440: %v", m)
	}
}

// A fuzz corpus entry committed with a fix holds no code: trust and tremor
// read it only when include_docs asks for files without code (go-toml's
// testdata/fuzz entries were scored as MediumRisk modules).
func TestTrustAndTremorSkipFilesWithoutCode(t *testing.T) {
	const corpus = "testdata/fuzz/FuzzLoad/0c08b924"
	dir := writeHistory(t, []step{
		{360, "initial import", []string{"app/a.py", "app/b.py"}},
		{20, "add a feature to a", []string{"app/a.py"}},
		{10, "Fix crash in load on odd input", []string{"app/b.py", corpus}},
		{0, "tune a", []string{"app/a.py"}},
	}, map[string]string{
		"app/a.py": riskFiles["app/a.py"],
		"app/b.py": "def load():\n    return 'x'\n",
		corpus:     "go test fuzz v1\n[]byte(\"\\xff\")\n",
	})
	d := tooltest.NewDispatcher(t, session.Config{})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	for _, tool := range []string{"trust", "tremor"} {
		listed := func(args map[string]any) bool {
			args["agent_id"] = "t"
			for _, m := range tooltest.MustCall(t, d, tool, args)["modules"].([]any) {
				if m.(map[string]any)["node_id"] == "file::"+corpus {
					return true
				}
			}
			return false
		}
		if listed(map[string]any{}) {
			t.Errorf("%s scores the fuzz corpus entry by default", tool)
		}
		if !listed(map[string]any{"include_docs": true}) {
			t.Errorf("%s with include_docs leaves the fuzz corpus entry out", tool)
		}
	}
}
