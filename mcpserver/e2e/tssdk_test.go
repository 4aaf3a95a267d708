package e2e

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
)

// TestTypeScriptSDKClient drives the server with the official MCP
// TypeScript SDK (installed by .ci/run with npm ci in e2e/npm). Locally it
// is skipped when node or the package is missing; under CI it must run.
func TestTypeScriptSDKClient(t *testing.T) {
	dir := npmClient(t, "@modelcontextprotocol/sdk")
	repo := fixture.Write(t)
	out := runNode(t, dir, nil, "client.mjs", serverBin, repo)
	var sum struct {
		Server                  map[string]any `json:"server"`
		ToolCount               int            `json:"tool_count"`
		ToolsWithoutObjectShema []string       `json:"tools_without_object_schema"`
		IngestNodes             int            `json:"ingest_nodes"`
		Progress                int            `json:"progress_notifications"`
		HealthNodes             int            `json:"health_nodes"`
		Activated               int            `json:"activated"`
		BadIsError              bool           `json:"bad_call_is_error"`
		BadHasHint              bool           `json:"bad_call_has_hint"`
		ImpactDirection         string         `json:"impact_direction"`
		ImpactDirect            []string       `json:"impact_direct"`
		ImpactListed            []string       `json:"impact_listed"`
		WhyFirst                []string       `json:"why_first"`
		LearnedTop              string         `json:"learned_top"`
		LearnedRankAfter        int            `json:"learned_rank_after"`
	}
	if err := json.Unmarshal(out, &sum); err != nil {
		t.Fatalf("client output %q: %v", out, err)
	}
	t.Logf("ts-sdk summary: %s", out)
	if sum.Server["name"] != "m1nd-mcp" || sum.ToolCount < 12 || len(sum.ToolsWithoutObjectShema) > 0 {
		t.Errorf("listing: %+v", sum)
	}
	if sum.IngestNodes == 0 || sum.HealthNodes < sum.IngestNodes || sum.Activated == 0 {
		t.Errorf("calls: %+v", sum)
	}
	if sum.Progress == 0 {
		t.Errorf("no progress notifications reached the client during ingest")
	}
	if !sum.BadIsError || !sum.BadHasHint {
		t.Errorf("bad call: %+v", sum)
	}
	// impact answers "what breaks": the default is dependents; the files
	// that import or call session.py come first; containers never appear.
	if sum.ImpactDirection != "dependents" || !slices.Contains(sum.ImpactDirect, "file::backend/auth.py") || !slices.Contains(sum.ImpactDirect, "file::backend/middleware.py") {
		t.Errorf("impact: direction %q, direct dependents %v", sum.ImpactDirection, sum.ImpactDirect)
	}
	for _, id := range sum.ImpactListed {
		if strings.HasPrefix(id, "dir::") || strings.HasPrefix(id, "package::") || strings.HasPrefix(id, "file::backend/session.py") {
			t.Errorf("impact listed %s (a container, or the file's own part)", id)
		}
	}
	// why: the first explanation is a dependency, read left to right.
	if len(sum.WhyFirst) == 0 || sum.WhyFirst[0] != "imports" {
		t.Errorf("why payments → session starts with %v, want an imports hop", sum.WhyFirst)
	}
	// learn: the node marked wrong three times leaves the top 3.
	if sum.LearnedRankAfter >= 0 && sum.LearnedRankAfter < 3 {
		t.Errorf("after learn wrong ×3, %s is still #%d", sum.LearnedTop, sum.LearnedRankAfter+1)
	}
}
