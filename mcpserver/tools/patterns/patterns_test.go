package patterns

import (
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// twins finds exactly the renamed copy: ParseRecords and ReadEntries,
// equal up to renaming, and nothing else (Total is as long but another
// body).
func TestTwinsFindsTheCopy(t *testing.T) {
	d, _ := tooltest.FixtureRepo(t, goFixture)
	out := tooltest.MustCall(t, d, "twins", map[string]any{"agent_id": "t"})
	twins := out["twins"].([]any)
	if len(twins) != 1 || out["total_pairs"].(float64) != 1 {
		t.Fatalf("want one pair, got %s", tooltest.ToJSON(out))
	}
	tw := twins[0].(map[string]any)
	a, b := tw["a"].(map[string]any), tw["b"].(map[string]any)
	got := [2]string{a["node_id"].(string), b["node_id"].(string)}
	want1 := [2]string{"file::records/parse.go::ParseRecords", "file::inventory/load.go::ReadEntries"}
	want2 := [2]string{want1[1], want1[0]}
	if got != want1 && got != want2 {
		t.Errorf("twins = %v, want %v", got, want1)
	}
	if tw["body_similarity"].(float64) != 1 {
		t.Errorf("a renamed copy's body is 100%% alike, got %v", tw["body_similarity"])
	}
	t.Logf("%s", tooltest.ToJSON(tw))
}

// ghost_edges on the fixture's scripted history: session.py and
// crypto.py changed together twice (commit 2 and the final commit that
// writes every file) and neither depends on the other (auth.py uses
// both). Every other pair with two joint commits is linked: auth.py
// imports crypto.py and session.py, middleware.py imports session.py,
// test_auth.py tests auth.py, which uses session.py. README and config
// are not code pairs.
func TestGhostEdgesFixture(t *testing.T) {
	d, dir := tooltest.IngestedFixture(t)
	out := tooltest.MustCall(t, d, "ghost_edges", map[string]any{"agent_id": "t"})
	ghosts := out["ghost_edges"].([]any)
	if len(ghosts) != 1 {
		t.Fatalf("want one ghost edge, got %s", tooltest.ToJSON(out))
	}
	g := ghosts[0].(map[string]any)
	// crypto.py: 3 commits, session.py: 4; 2 together.
	if g["source"] != "file::backend/crypto.py" || g["target"] != "file::backend/session.py" || g["support"] != 2.0 || g["confidence"] != 0.667 {
		t.Errorf("ghost edge %v, want crypto.py–session.py, support 2, confidence 2/3", g)
	}
	tooltest.CheckGoldenFile(t, "testdata/ghost_edges_fixture.json", tooltest.Stable(out, dir))
	week := tooltest.MustCall(t, d, "ghost_edges", map[string]any{"agent_id": "t", "depth": "7d", "scope": "backend/payments.py"})
	if n := len(week["ghost_edges"].([]any)); n != 0 {
		t.Errorf("payments.py has no ghost edge: %v", week)
	}
}
