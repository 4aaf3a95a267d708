package continuity

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// BenchmarkContinuity times the continuity tools through the dispatcher
// (argument checks, the tool, JSON) on py-335 when the benchmark corpora
// are built under $M1ND_CORPORA (default /tmp/m1nd-corpora), else on the
// test fixture, with a runtime directory (so writes are real): p50 and
// p95 are reported per tool. Targets (issue 17): perspective_start ≤ 20 ms,
// follow/peek/inspect ≤ 5 ms, lock_diff ≤ 10 ms, trail_resume ≤ 1 ms.
func BenchmarkContinuity(b *testing.B) {
	dir, query, anchor := tooltest.CorpusPath("py-335"), "argument parser options help", "argparse.py"
	if _, err := os.Stat(dir); err != nil {
		dir, query, anchor = fixture.Write(b), "session expiry and login", "backend/session.py"
	}
	rt := b.TempDir()
	d := tooltest.NewDispatcher(b, session.Config{RuntimeDir: rt})
	tooltest.MustCall(b, d, "ingest", map[string]any{"agent_id": "bench", "path": dir})
	a := "bench"
	start := map[string]any{"agent_id": a, "query": query, "anchor_node": anchor}
	p := tooltest.MustCall(b, d, "perspective_start", start)
	pid, v := p["perspective_id"], p["route_set_version"]
	lock := tooltest.MustCall(b, d, "lock_create", map[string]any{"agent_id": a, "scope": "subgraph", "root_nodes": []string{anchor}, "radius": 2})
	b.Logf("lock baseline: %v nodes, %v edges, %v files", lock["baseline_nodes"], lock["baseline_edges"], lock["baseline_files"])
	trail := tooltest.MustCall(b, d, "trail_save", map[string]any{"agent_id": a, "label": "bench",
		"hypotheses":        []map[string]any{{"statement": "the parser validates options", "confidence": 0.7, "supporting_nodes": []string{anchor}}},
		"activation_boosts": map[string]any{anchor: 0.8}})
	// Navigation: follow route 1 then back, so every iteration starts from
	// the same state (each follow is measured; back as well).
	cases := []struct {
		name  string
		tool  string
		args  func() map[string]any
		after func(out map[string]any)
	}{
		{"perspective_start", "perspective_start", func() map[string]any { return start }, func(out map[string]any) {
			tooltest.MustCall(b, d, "perspective_close", map[string]any{"agent_id": a, "perspective_id": out["perspective_id"]})
		}},
		{"perspective_inspect", "perspective_inspect", func() map[string]any {
			return map[string]any{"agent_id": a, "perspective_id": pid, "route_index": 1, "route_set_version": v}
		}, nil},
		{"perspective_peek", "perspective_peek", func() map[string]any {
			return map[string]any{"agent_id": a, "perspective_id": pid, "route_index": 1, "route_set_version": v}
		}, nil},
		{"perspective_follow", "perspective_follow", func() map[string]any {
			return map[string]any{"agent_id": a, "perspective_id": pid, "route_index": 1, "route_set_version": v}
		}, func(map[string]any) {
			v = tooltest.MustCall(b, d, "perspective_back", map[string]any{"agent_id": a, "perspective_id": pid})["route_set_version"]
		}},
		{"lock_diff", "lock_diff", func() map[string]any { return map[string]any{"agent_id": a, "lock_id": lock["lock_id"]} }, nil},
		{"trail_resume", "trail_resume", func() map[string]any { return map[string]any{"agent_id": a, "trail_id": trail["trail_id"]} }, nil},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			times := make([]time.Duration, 0, b.N)
			for i := 0; i < b.N; i++ {
				raw, _ := json.Marshal(c.args())
				t := time.Now()
				res := d.Call(context.Background(), c.tool, raw, nil)
				times = append(times, time.Since(t))
				if res.IsError {
					b.Fatal(res.Text())
				}
				if c.after != nil {
					var out map[string]any
					json.Unmarshal([]byte(res.Text()), &out)
					b.StopTimer()
					c.after(out)
					b.StartTimer()
				}
			}
			b.StopTimer()
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "p95-ms")
		})
	}
	// A lock diff after the graph changed (the full comparison, not the
	// fast path): learning moves the weights between iterations.
	b.Run("lock_diff_full", func(b *testing.B) {
		raw, _ := json.Marshal(map[string]any{"agent_id": a, "lock_id": lock["lock_id"]})
		learn, _ := json.Marshal(map[string]any{"agent_id": a, "query": query, "feedback": "correct", "node_ids": []string{anchor}})
		times := make([]time.Duration, 0, b.N)
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			d.Call(context.Background(), "learn", learn, nil)
			b.StartTimer()
			t := time.Now()
			res := d.Call(context.Background(), "lock_diff", raw, nil)
			times = append(times, time.Since(t))
			if res.IsError {
				b.Fatal(res.Text())
			}
		}
		b.StopTimer()
		slices.Sort(times)
		b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "p95-ms")
	})
}
