package federation_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestFederateRealRepos federates the directories M1ND_FEDERATE_REPOS
// names (comma-separated name=path; M1ND_FEDERATE_DETECT=0 links
// nothing) and logs the api_contract edges, for
// measuring precision by hand on real code (benchmarks/results/federation.md).
func TestFederateRealRepos(t *testing.T) {
	spec := testcorpus.OptIn(t, "M1ND_FEDERATE_REPOS", "name=/path,name=/path (comma-separated)")
	cfg := tooltest.TestConfig()
	var repos []any
	for _, kv := range strings.Split(spec, ",") {
		name, dir, _ := strings.Cut(kv, "=")
		cfg.AllowRoots = append(cfg.AllowRoots, filepath.Dir(dir))
		repos = append(repos, map[string]any{"name": name, "path": dir})
	}
	d := tooltest.NewDispatcher(t, cfg)
	detect := os.Getenv("M1ND_FEDERATE_DETECT") != "0" // 0: ingest only, to time the linking
	out := tooltest.MustCall(t, d, "federate", map[string]any{"agent_id": "t", "repos": repos, "detect_cross_repo_edges": detect})
	t.Logf("elapsed_ms %v, %v cross-repo edges", out["elapsed_ms"], out["cross_repo_edge_count"])
	for _, e := range out["cross_repo_edges"].([]any) {
		m := e.(map[string]any)
		ev, _ := m["evidence"].(string)
		t.Logf("%s -%s-> %s [%s]", m["source_node"], m["relation"], m["target_node"], ev)
	}
}
