package immune_test

import (
	"math"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func TestHeuristicsSurface(t *testing.T) {
	d, _ := riskRepo(t, "")
	// A bug shape binding b.py's load: it calls parse.
	tooltest.MustCall(t, d, "antibody_create", map[string]any{"agent_id": "t", "severity": "Critical", "pattern": map[string]any{
		"nodes": []any{map[string]any{"id": "l", "label": "load", "match_mode": "exact"}, map[string]any{"id": "p", "label": "parse", "match_mode": "exact"}},
		"edges": []any{map[string]any{"from": "l", "to": "p", "relation": "calls"}},
	}})
	out := tooltest.MustCall(t, d, "heuristics_surface", map[string]any{"agent_id": "t", "file_path": "app/b.py"})
	t.Logf("%s", tooltest.ToJSON(out))
	py, years := 0.5/math.Ln2, 360.0/365
	trust := out["trust"].(map[string]any)
	if out["node"] != "file::app/b.py" || trust["trust"] != r3(math.Exp(-2.5/(py+years))*0.825) || trust["fixes"] != 2.0 || trust["tier"] != "HighRisk" {
		t.Errorf("trust: %v", trust)
	}
	// a.py imports b.py: one dependent file.
	if blast := out["blast_radius"].(map[string]any); blast["direct_dependents"] != 1.0 || blast["total_dependents"] != 1.0 {
		t.Errorf("blast: %v", blast)
	}
	// The file holds load: the Critical exact match binds it (1 × 4/4).
	ab := out["antibodies"].(map[string]any)
	if ab["total_matches"] != 1.0 || ab["scanned"] != 1.0 {
		t.Errorf("antibodies: %v", ab)
	}
	fs := out["factors"].([]any)
	if len(fs) != 5 {
		t.Fatalf("factors %v", fs)
	}
	// Strongest first: the antibody (1), then trust (1 − 0.19).
	if f := fs[0].(map[string]any); f["factor"] != "antibodies" || f["signal"] != 1.0 {
		t.Errorf("first factor %v", f)
	}
	if f := fs[1].(map[string]any); f["factor"] != "trust" || f["signal"] != r3(1-trust["trust"].(float64)) {
		t.Errorf("second factor %v", f)
	}
	if rs := out["reasons"].([]any); len(rs) < 2 || !strings.HasPrefix(rs[0].(string), "antibodies:") {
		t.Errorf("reasons %v", rs)
	}
	// The function itself: the match binds it; its file's trust.
	fn := tooltest.MustCall(t, d, "heuristics_surface", map[string]any{"agent_id": "t", "node_id": "file::app/b.py::load"})
	if fn["file"] != "file::app/b.py" || fn["antibodies"].(map[string]any)["total_matches"] != 1.0 || fn["trust"].(map[string]any)["trust"] != trust["trust"] {
		t.Errorf("function: %v", fn)
	}
	// a.py's run: no match binds it.
	run := tooltest.MustCall(t, d, "heuristics_surface", map[string]any{"agent_id": "t", "node_id": "file::app/a.py::run"})
	if run["antibodies"].(map[string]any)["total_matches"] != 0.0 {
		t.Errorf("run: %v", run["antibodies"])
	}
}

func TestImmuneTeachingErrors(t *testing.T) {
	d, _ := riskRepo(t, "")
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"heuristics_surface", map[string]any{"agent_id": "t"}, "node_id or file_path"},
		{"heuristics_surface", map[string]any{"agent_id": "t", "node_id": "a", "file_path": "b"}, "both"},
		{"heuristics_surface", map[string]any{"agent_id": "t", "node_id": "app/nowhere.py"}, "nowhere"},
		{"tremor", map[string]any{"agent_id": "t", "window": "2d"}, "window"},
		{"trust", map[string]any{"agent_id": "t", "tier_filter": "Risky"}, "tier_filter"},
		{"trust", map[string]any{"agent_id": "t", "half_life_hours": 0}, "half_life_hours"},
		{"antibody_create", map[string]any{"agent_id": "t"}, "pattern"},
		{"antibody_create", map[string]any{"agent_id": "t", "action": "delete"}, "antibody_id"},
		{"antibody_create", map[string]any{"agent_id": "t", "action": "enable", "antibody_id": "ab_404"}, "ab_404"},
		{"antibody_create", map[string]any{"agent_id": "t", "pattern": map[string]any{"nodes": []any{map[string]any{"id": "a", "label": "(", "match_mode": "regex"}}}}, "regular expression"},
		{"antibody_create", map[string]any{"agent_id": "t", "pattern": map[string]any{"nodes": []any{map[string]any{"id": "a", "label": "load", "match_mode": "exact"}, map[string]any{"id": "b", "label": "parse", "match_mode": "exact"}}}}, "linked"},
		{"antibody_scan", map[string]any{"agent_id": "t", "antibody_ids": []string{"ab_999"}}, "ab_999"},
		{"antibody_scan", map[string]any{"agent_id": "t", "match_mode": "fuzzy"}, "match_mode"},
	} {
		tooltest.Teaches(t, d, tc.tool, tc.args, tc.want, false)
	}
	// Nothing was stored by the failed calls.
	if l := tooltest.MustCall(t, d, "antibody_list", map[string]any{"agent_id": "t"}); l["total"] != 0.0 {
		t.Errorf("a failed create stored something: %v", l)
	}
}
