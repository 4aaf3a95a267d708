package report

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The report of a scripted session: its calls newest first, per-tool
// counts, the savings tool's figures and panoramic's top files.
func TestReportScripted(t *testing.T) {
	d, _ := tooltest.IngestedFixture(t) // agent "test" ingests
	tooltest.MustCall(t, d, "impact", map[string]any{"agent_id": "r", "node_id": "backend/session.py"})
	tooltest.MustCall(t, d, "impact", map[string]any{"agent_id": "r", "node_id": "backend/auth.py"})
	tooltest.Call(t, d, "impact", map[string]any{"agent_id": "r", "node_id": "nowhere.py"})
	pano := tooltest.MustCall(t, d, "panoramic", map[string]any{"agent_id": "r", "top_k": 5})
	tooltest.MustCall(t, d, "impact", map[string]any{"agent_id": "other", "node_id": "backend/auth.py"})
	sav := tooltest.MustCall(t, d, "savings", map[string]any{"agent_id": "r"})

	got := tooltest.MustCall(t, d, "report", map[string]any{"agent_id": "r", "recent": 3})
	var out ReportOutput
	if err := json.Unmarshal([]byte(tooltest.ToJSON(got)), &out); err != nil {
		t.Fatal(err)
	}
	var recent []string
	for _, q := range out.RecentQueries {
		recent = append(recent, fmt.Sprintf("%d %s %v", q.Seq, q.Tool, q.Error))
	}
	// Calls 1 (ingest), 2–4 impact, 5 panoramic, 6 other's impact, 7 savings.
	if want := "7 savings false|5 panoramic false|4 impact true"; strings.Join(recent, "|") != want {
		t.Errorf("recent %v, want %s", recent, want)
	}
	if len(out.Timing) != 3 || out.Timing[0].Tool != "impact" || out.Timing[0].Calls != 3 || out.Timing[0].Errors != 1 {
		t.Errorf("timing %+v", out.Timing)
	}
	for _, tm := range out.Timing {
		if tm.P50Ms > tm.P95Ms || tm.P95Ms > tm.MaxMs {
			t.Errorf("percentiles out of order: %+v", tm)
		}
	}
	// The savings as the savings tool saw them (before its own call).
	var s SavingsOutput
	json.Unmarshal([]byte(tooltest.ToJSON(sav)), &s)
	if out.Savings.Calls != s.Agent.Calls+1 || out.Savings.FilesAvoided != s.Agent.FilesAvoided || out.Savings.BaselineTokens != s.Agent.BaselineTokens {
		t.Errorf("savings %+v, savings tool said %+v (one call earlier)", out.Savings, s.Agent)
	}
	for i, m := range pano["modules"].([]any) {
		if id := m.(map[string]any)["node_id"]; out.HotspotSummary[i].NodeID != id {
			t.Errorf("hotspot %d = %s, panoramic says %v", i, out.HotspotSummary[i].NodeID, id)
		}
	}
	if out.Graph.Calls != 7 || out.Graph.Nodes == 0 || len(out.Graph.Roots) != 1 {
		t.Errorf("graph %+v", out.Graph)
	}
	for _, want := range []string{"# m1nd session report: r", "## Recent queries", "| 5 | panoramic |", "| 4 | impact (error) |",
		"## Timing", "| impact | 3 |", "## Savings", "## Hotspots", "| backend/session.py |", "## Graph"} {
		if !strings.Contains(out.Markdown, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out.Markdown)
		}
	}
}
