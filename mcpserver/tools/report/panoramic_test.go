package report

import (
	"math"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// panoramic's ranking is the score formula over parts measured another
// way: the blast radius is what impact reports (file level, 3 hops,
// tests left out), PageRank and change frequency what the graph holds.
func TestPanoramicMatchesFormula(t *testing.T) {
	d, _ := tooltest.IngestedFixture(t)
	out := tooltest.MustCall(t, d, "panoramic", map[string]any{"agent_id": "t", "top_k": 200})
	g := d.Session.Current().Graph
	mods := out["modules"].([]any)
	type parts struct{ pr, blast, churn float64 }
	want := map[string]parts{}
	maxPR, maxBlast := 0.0, 0.0
	for _, m := range mods {
		id := m.(map[string]any)["node_id"].(string)
		n, _ := g.Lookup(id)
		imp := tooltest.MustCall(t, d, "impact", map[string]any{"agent_id": "t", "node_id": id, "max_hops": 3, "level": "file", "top_k": 1000})
		blast := 0
		for _, x := range imp["blast_radius"].([]any) {
			if !tools.IsTestPath(strings.TrimPrefix(x.(map[string]any)["node_id"].(string), "file::")) {
				blast++
			}
		}
		p := parts{float64(g.PageRank(n)), float64(blast), float64(g.ChangeFrequency(n))}
		want[id] = p
		maxPR, maxBlast = max(maxPR, p.pr), max(maxBlast, p.blast)
	}
	if len(mods) != 6 { // backend's six modules; tests and README.md (a document linked to nothing) excluded
		t.Errorf("files ranked: %d, want 6", len(mods))
	}
	prev := math.Inf(1)
	for _, m := range mods {
		mm := m.(map[string]any)
		id := mm["node_id"].(string)
		p := want[id]
		risk := 0.4*p.pr/maxPR + 0.3*p.blast/maxBlast + 0.3*p.churn
		if math.Abs(mm["risk"].(float64)-risk) > 0.001 || mm["blast_radius"].(float64) != p.blast {
			t.Errorf("%s: risk %v blast %v, want %.3f %v", id, mm["risk"], mm["blast_radius"], risk, p.blast)
		}
		if r := mm["risk"].(float64); r > prev {
			t.Errorf("%s out of order (%v after %v)", id, r, prev)
		} else {
			prev = r
		}
		if tools.IsTestPath(strings.TrimPrefix(id, "file::")) {
			t.Errorf("a test file is ranked: %s", id)
		}
		crit := false
		for _, a := range out["critical_alerts"].([]any) {
			crit = crit || a.(map[string]any)["node_id"] == id
		}
		if crit != (mm["risk"].(float64) >= 0.7) {
			t.Errorf("%s risk %v: critical alert %v", id, mm["risk"], crit)
		}
	}
}

func TestPanoramicScope(t *testing.T) {
	d, _ := tooltest.IngestedFixture(t)
	out := tooltest.MustCall(t, d, "panoramic", map[string]any{"agent_id": "t", "scope": "backend/", "top_k": 2})
	if len(out["modules"].([]any)) != 2 || out["not_listed"].(float64) < 1 {
		t.Errorf("top_k 2: %v", out)
	}
	for _, m := range out["modules"].([]any) {
		if !strings.HasPrefix(m.(map[string]any)["node_id"].(string), "file::backend/") {
			t.Errorf("outside scope: %v", m)
		}
	}
	res, isErr := tooltest.Call(t, d, "panoramic", map[string]any{"agent_id": "t", "scope": "nowhere/"})
	if !isErr || !strings.Contains(res["error"].(string), "nowhere/") || res["example"] == nil {
		t.Errorf("empty scope: %v", res)
	}
}
