package query

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func activatedIDs(out map[string]any) []string {
	var ids []string
	for _, n := range out["activated"].([]any) {
		ids = append(ids, n.(map[string]any)["node_id"].(string))
	}
	return ids
}

// activate lists seeds only when asked (at most top_k of them), always
// counts them, keeps every score in [0, 1] and reports what its
// plasticity cycle changed.
func TestActivateSeedsScoresAndPlasticity(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	for _, tc := range []struct {
		name      string
		args      map[string]any
		wantSeeds int // -1: no list
	}{
		{"default", map[string]any{"query": "session token login payment", "top_k": 3}, -1},
		{"include_seeds", map[string]any{"query": "session token login payment", "top_k": 3, "include_seeds": true}, 3},
		{"include_seeds, wide top_k", map[string]any{"query": "session", "top_k": 50, "include_seeds": true}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := map[string]any{"agent_id": "test"}
			for k, v := range tc.args {
				args[k] = v
			}
			out := tooltest.MustCall(t, d, "activate", args)
			count := int(out["seeds_count"].(float64))
			seeds, listed := out["seeds"].([]any)
			switch {
			case tc.wantSeeds < 0 && listed:
				t.Errorf("seeds listed without include_seeds: %d", len(seeds))
			case tc.wantSeeds > 0 && (len(seeds) != tc.wantSeeds || count <= tc.wantSeeds):
				t.Errorf("%d seeds listed of %d, want %d of more", len(seeds), count, tc.wantSeeds)
			case tc.wantSeeds == 0 && len(seeds) != count:
				t.Errorf("%d seeds listed, want all %d (fewer than top_k)", len(seeds), count)
			}
			for _, n := range out["activated"].([]any) {
				m := n.(map[string]any)
				if a := m["activation"].(float64); a < 0 || a > 1 {
					t.Errorf("%s: activation %v outside [0, 1]", m["node_id"], a)
				}
				for dim, v := range m["dimensions"].(map[string]any) {
					if v.(float64) < 0 || v.(float64) > 1 {
						t.Errorf("%s: %s = %v outside [0, 1]", m["node_id"], dim, v)
					}
				}
			}
			pl := out["plasticity"].(map[string]any)
			for _, k := range []string{"edges_strengthened", "edges_decayed", "edges_capped", "ltp_events", "ltd_events", "homeostatic_nodes", "priming_nodes", "feedback_nodes"} {
				if _, ok := pl[k]; !ok {
					t.Errorf("plasticity lacks %s: %v", k, pl)
				}
			}
		})
	}
}

// The contract through the tools: learn wrong on activate's #1 and
// correct on its #8, three times at strength 1; activate again: the wrong
// node leaves the top 3, the confirmed one enters the top 5, and both carry
// their learned feedback.
func TestLearnChangesActivate(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	q := map[string]any{"agent_id": "test", "query": "session login token", "top_k": 10}
	before := activatedIDs(tooltest.MustCall(t, d, "activate", q))
	if len(before) < 8 {
		t.Fatalf("fixture: %d results", len(before))
	}
	wrong, right := before[0], before[7]
	for range 3 {
		tooltest.MustCall(t, d, "learn", map[string]any{"agent_id": "test", "query": q["query"], "feedback": "wrong", "node_ids": []string{wrong}, "strength": 1.0})
		tooltest.MustCall(t, d, "learn", map[string]any{"agent_id": "test", "query": q["query"], "feedback": "correct", "node_ids": []string{right}, "strength": 1.0})
	}
	out := tooltest.MustCall(t, d, "activate", q)
	after := activatedIDs(out)
	if i := slices.Index(after, wrong); i >= 0 && i < 3 {
		t.Errorf("wrong node %s still #%d: %v", wrong, i+1, after)
	}
	if i := slices.Index(after, right); i < 0 || i >= 5 {
		t.Errorf("confirmed node %s is #%d, want top 5: %v", right, i+1, after)
	}
	for _, n := range out["activated"].([]any) {
		m := n.(map[string]any)
		if m["node_id"] == right && !(m["feedback"].(float64) > 0.9) {
			t.Errorf("confirmed node's feedback = %v, want > 0.9", m["feedback"])
		}
	}
	if n := out["plasticity"].(map[string]any)["feedback_nodes"].(float64); n < 1 {
		t.Errorf("feedback_nodes = %v", n)
	}
}

// TestActivateGolden compares whole activate responses, a sequence of
// calls on one server (each call's plasticity and priming reach the next),
// with testdata/activate/*.json (elapsed times zeroed). It pins the answer
// while the engine's scratch and the call's allocations change (issue 29):
// the same graph and the same queries must give the same bytes. Run with
// -update to rewrite them.
func TestActivateGolden(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	tooltest.MustCall(t, d, "warmup", map[string]any{"agent_id": "golden", "task_description": "fix the session token expiry in login"})
	for _, tc := range []struct {
		name string
		args map[string]any
	}{
		{"words", map[string]any{"query": "session token login payment", "top_k": 8, "include_seeds": true}},
		{"holes", map[string]any{"query": "invoice total payment", "top_k": 6, "include_structural_holes": true}},
		{"again_learned", map[string]any{"query": "session token login payment", "top_k": 8}},
		{"two_dims_no_xlr", map[string]any{"query": "user credentials validate", "top_k": 5, "dimensions": []string{"structural", "semantic"}, "xlr": false}},
		{"scoped_trust", map[string]any{"query": "session lookup expiry", "top_k": 5, "scope": "./backend/", "trust_weight": 0.5}},
		{"no_match", map[string]any{"query": "kubernetes helm chart", "top_k": 5}},
	} {
		tc.args["agent_id"] = "golden"
		out := tooltest.MustCall(t, d, "activate", tc.args)
		out["elapsed_ms"] = 0.0
		tooltest.CheckGoldenFile(t, filepath.Join("testdata", "activate", tc.name+".json"), out)
	}
}

// TestActivateIgnoresTheWallClock: the same activate calls on the same
// graph give the same bytes whatever the wall clock says — two servers
// whose clocks are 7 hours apart, and a server restarted from the
// snapshot 30 hours later (issue 27: recency was scored against
// time.Now, so an answer moved in the third decimal within minutes).
func TestActivateIgnoresTheWallClock(t *testing.T) {
	t.Parallel()
	dir := fixture.Write(t)
	t0 := time.Date(2026, 1, 20, 12, 0, 0, 0, time.UTC)
	serve := func(cfg session.Config, clock time.Time, ingest bool) *tools.Dispatcher {
		d := tooltest.NewDispatcher(t, cfg)
		// Before the first call: the query engine takes the clock when
		// it is built.
		d.Session.SetClock(func() time.Time { return clock })
		if ingest {
			tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
		}
		return d
	}
	answers := func(d *tools.Dispatcher) string {
		var all []any
		for _, q := range []string{"session token login payment", "invoice total payment", "session token login payment"} {
			out := tooltest.MustCall(t, d, "activate", map[string]any{"agent_id": "t", "query": q, "top_k": 8, "include_seeds": true})
			out["elapsed_ms"] = 0.0
			all = append(all, out)
		}
		raw, err := json.Marshal(all)
		if err != nil {
			t.Fatal(err)
		}
		return string(raw)
	}
	want := answers(serve(session.Config{RuntimeDir: t.TempDir()}, t0, true))
	if got := answers(serve(session.Config{RuntimeDir: t.TempDir()}, t0.Add(7*time.Hour), true)); got != want {
		t.Errorf("7 hours later the same calls answer differently:\n got %s\nwant %s", got, want)
	}
	cfg := session.Config{RuntimeDir: t.TempDir()}
	serve(cfg, t0, true).Session.Close()
	if got := answers(serve(cfg, t0.Add(30*time.Hour), false)); got != want {
		t.Errorf("restarted from the snapshot 30 hours later:\n got %s\nwant %s", got, want)
	}
}
