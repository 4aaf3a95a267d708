package immune_test

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func module(t *testing.T, out map[string]any, id string) map[string]any {
	t.Helper()
	for _, m := range out["modules"].([]any) {
		if m := m.(map[string]any); m["node_id"] == id {
			return m
		}
	}
	t.Fatalf("%s not in %v", id, out["modules"])
	return nil
}

// learn feeds trust (on a query about a bug) and tremor, both persisted
// beside the graph and read back after a restart.
func TestLearnRecordsTrustAndTremorAcrossRestart(t *testing.T) {
	rt := t.TempDir()
	d, dir := riskRepo(t, rt)
	// A relevance verdict on an ordinary query: a tremor observation, no
	// trust outcome.
	l := tooltest.MustCall(t, d, "learn", map[string]any{"agent_id": "t", "query": "where is the loader", "feedback": "correct", "node_ids": []string{"file::app/c.py"}})
	if l["trust_records_updated"] != 0.0 || l["tremor_observations_recorded"] != 1.0 {
		t.Fatalf("learn (not a bug): %v", l)
	}
	// A confirmed bug in a.py (named twice, through an entity of it): one
	// outcome, and no second tremor observation within the same second
	// for c.py.
	l = tooltest.MustCall(t, d, "learn", map[string]any{"agent_id": "t", "query": "crash when run() is called twice", "feedback": "correct", "node_ids": []string{"file::app/a.py", "file::app/a.py::run", "file::app/c.py"}})
	if l["trust_records_updated"] != 2.0 || l["tremor_observations_recorded"] != 1.0 {
		t.Fatalf("learn (bug): %v", l)
	}
	// A false alarm on b.py.
	tooltest.MustCall(t, d, "learn", map[string]any{"agent_id": "t", "query": "is the bug in b?", "feedback": "wrong", "node_ids": []string{"file::app/b.py"}})
	for _, f := range []string{"trust_state.json", "tremor_state.json"} {
		if _, err := os.Stat(filepath.Join(rt, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	check := func(d2 string, out map[string]any) {
		py, years := 0.5/math.Ln2, 360.0/365
		a := module(t, out, "file::app/a.py")
		// One defect found now (recency 0) on top of three clean changes.
		if a["defects"] != 1.0 || a["trust"] != r3(math.Exp(-1.5/(py+years))*0.3) || a["tier"] != "HighRisk" {
			t.Errorf("%s: a.py %v", d2, a)
		}
		b := module(t, out, "file::app/b.py")
		// The false alarm adds a quarter year of clean observation.
		if b["false_alarms"] != 1.0 || b["trust"] != r3(math.Exp(-2.5/(py+years+0.25))*0.825) {
			t.Errorf("%s: b.py %v", d2, b)
		}
	}
	check("before restart", tooltest.MustCall(t, d, "trust", map[string]any{"agent_id": "t"}))
	tr := tooltest.MustCall(t, d, "tremor", map[string]any{"agent_id": "t", "window": "7d", "detail": "full"})
	d.Session.Close()

	// The session reloads the graph but not the commits (history comes
	// with an ingest): ingest again, as an agent refreshing would.
	d2 := tooltest.NewDispatcher(t, session.Config{RuntimeDir: rt})
	tooltest.MustCall(t, d2, "ingest", map[string]any{"agent_id": "t", "path": dir})
	check("after restart", tooltest.MustCall(t, d2, "trust", map[string]any{"agent_id": "t"}))
	tr2 := tooltest.MustCall(t, d2, "tremor", map[string]any{"agent_id": "t", "window": "7d", "detail": "full"})
	// c.py: no commit in the week, two learn calls now (one kept, 1 s
	// dedup): a single event in the newest daily bin (learn ages count
	// from now, commits from the newest commit).
	c := module(t, tr2, "file::app/c.py")
	if c["learn_observations"] != 1.0 || c["commits"] != 0.0 || c["events"] != 1.0 || tooltest.ToJSON(c["series"]) != "[0,0,0,0,0,0,1]" {
		t.Errorf("c.py after restart: %v", c)
	}
	if tooltest.ToJSON(tr["modules"]) != tooltest.ToJSON(tr2["modules"]) {
		t.Errorf("tremor before restart %v, after %v", tr["modules"], tr2["modules"])
	}
}
