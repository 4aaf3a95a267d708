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
