package continuity

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func routeIndexOf(t testing.TB, routes any, target string) int {
	t.Helper()
	for _, r := range routes.([]any) {
		if rm := r.(map[string]any); rm["target_node"] == target {
			return int(rm["index"].(float64))
		}
	}
	return 0
}

// The whole perspective workflow: start, browse, inspect, peek, follow,
// suggest, branch, follow in each branch, compare, back, close.
func TestPerspectiveWorkflow(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	a := "jimi"
	st := tooltest.StartPersp(t, d, a)
	pid := st["perspective_id"].(string)
	if pid != "persp_jimi_001" || st["mode"] != "anchored" || st["focus_node"] != "file::backend/session.py" || st["total_routes"].(float64) < 3 {
		t.Fatalf("start: %v", st)
	}
	v := st["route_set_version"].(float64)
	routes := tooltest.MustCall(t, d, "perspective_routes", map[string]any{"agent_id": a, "perspective_id": pid, "page": 1, "page_size": 50})
	if routes["page_size_clamped"] != true || len(routes["routes"].([]any)) > 10 {
		t.Errorf("routes not clamped: %v", routes)
	}
	// auth.py imports the session store: an upstream (dependent) route.
	idx := routeIndexOf(t, tooltest.MustCall(t, d, "perspective_routes", map[string]any{"agent_id": a, "perspective_id": pid, "page_size": 10})["routes"], "file::backend/auth.py")
	if idx == 0 {
		all := tooltest.MustCall(t, d, "perspective_routes", map[string]any{"agent_id": a, "perspective_id": pid, "page": 2, "page_size": 10})
		t.Fatalf("no route to auth.py in %v", all)
	}
	ins := tooltest.MustCall(t, d, "perspective_inspect", map[string]any{"agent_id": a, "perspective_id": pid, "route_index": idx, "route_set_version": v})
	if ins["target_node"] != "file::backend/auth.py" || ins["peek_available"] != true || ins["family_explanation"] == "" || ins["response_chars"].(float64) == 0 {
		t.Errorf("inspect: %v", ins)
	}
	rid := ins["route_id"].(string)
	peek := tooltest.MustCall(t, d, "perspective_peek", map[string]any{"agent_id": a, "perspective_id": pid, "route_id": rid, "route_set_version": v})
	if c := peek["content"].(map[string]any); !strings.Contains(c["excerpt"].(string), "Authentication") || c["file_path"] != "backend/auth.py" {
		t.Errorf("peek: %v", peek)
	}
	f := tooltest.MustCall(t, d, "perspective_follow", map[string]any{"agent_id": a, "perspective_id": pid, "route_id": rid, "route_set_version": v})
	if f["previous_focus"] != "file::backend/session.py" || f["focus_node"] != "file::backend/auth.py" || f["route_set_version"].(float64) <= v || f["history_depth"] != 1.0 {
		t.Fatalf("follow: %v", f)
	}
	v2 := f["route_set_version"].(float64)
	// The old version is refused with the current one.
	out, isErr := tooltest.Call(t, d, "perspective_inspect", map[string]any{"agent_id": a, "perspective_id": pid, "route_index": 1, "route_set_version": v})
	if !isErr || !strings.Contains(out["error"].(string), "stale") || out["details"].(map[string]any)["current_route_set_version"] != v2 {
		t.Errorf("stale version: %v", out)
	}
	sg := tooltest.MustCall(t, d, "perspective_suggest", map[string]any{"agent_id": a, "perspective_id": pid, "route_set_version": v2})
	if s := sg["suggestion"].(map[string]any); s["action"] != "follow" || s["route_id"] == "" {
		t.Errorf("suggest: %v", sg)
	}
	br := tooltest.MustCall(t, d, "perspective_branch", map[string]any{"agent_id": a, "perspective_id": pid, "branch_name": "crypto-path"})
	bid := br["branch_perspective_id"].(string)
	if bid != "persp_jimi_002" || br["branched_from_focus"] != "file::backend/auth.py" || br["route_set_version"] != v2 {
		t.Fatalf("branch: %v", br)
	}
	// Different routes in each branch.
	ci := routeIndexOf(t, f["routes"], "file::backend/crypto.py")
	if ci == 0 {
		ci = 2
	}
	tooltest.MustCall(t, d, "perspective_follow", map[string]any{"agent_id": a, "perspective_id": bid, "route_index": ci, "route_set_version": v2})
	tooltest.MustCall(t, d, "perspective_follow", map[string]any{"agent_id": a, "perspective_id": pid, "route_index": 1, "route_set_version": v2})
	cmp := tooltest.MustCall(t, d, "perspective_compare", map[string]any{"agent_id": a, "perspective_id_a": pid, "perspective_id_b": bid})
	if len(cmp["shared_nodes"].([]any)) == 0 || len(cmp["dimension_deltas"].([]any)) != 4 {
		t.Errorf("compare: %v", cmp)
	}
	back := tooltest.MustCall(t, d, "perspective_back", map[string]any{"agent_id": a, "perspective_id": pid})
	if back["restored_focus"] != "file::backend/auth.py" || back["history_depth"] != 1.0 {
		t.Errorf("back: %v", back)
	}
	aff := tooltest.MustCall(t, d, "perspective_affinity", map[string]any{"agent_id": a, "perspective_id": pid, "route_index": 1, "route_set_version": back["route_set_version"]})
	if aff["notice"] == "" {
		t.Errorf("affinity: %v", aff)
	}
	l := tooltest.MustCall(t, d, "perspective_list", map[string]any{"agent_id": a})
	if ps := l["perspectives"].([]any); len(ps) != 2 || ps[1].(map[string]any)["branch_name"] != "crypto-path" {
		t.Errorf("list: %v", l)
	}
	for _, id := range []string{pid, bid} {
		if c := tooltest.MustCall(t, d, "perspective_close", map[string]any{"agent_id": a, "perspective_id": id}); c["closed"] != true {
			t.Errorf("close: %v", c)
		}
	}
	if l := tooltest.MustCall(t, d, "perspective_list", map[string]any{"agent_id": a}); len(l["perspectives"].([]any)) != 0 {
		t.Errorf("after close: %v", l)
	}
}

func TestPerspectiveTeachingErrors(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	st := tooltest.StartPersp(t, d, "jimi")
	pid, v := st["perspective_id"], st["route_set_version"]
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"perspective_start", map[string]any{"agent_id": "jimi", "query": "zzzz qqqq"}, "matches no node"},
		{"perspective_start", map[string]any{"agent_id": "jimi", "query": "x", "lens": map[string]any{"famlies": []string{"x"}}}, "famlies"},
		{"perspective_start", map[string]any{"agent_id": "jimi", "query": "x", "lens": map[string]any{"dimensions": "causal"}}, "lens: json: cannot unmarshal"},
		{"perspective_start", map[string]any{"agent_id": "jimi", "query": "x", "lens": map[string]any{"node_types": []string{"planet"}}}, "unknown type"},
		{"perspective_start", map[string]any{"agent_id": "jimi", "query": "session", "anchor_node": "file::nope.py"}, "not a node"},
		{"perspective_inspect", map[string]any{"agent_id": "jimi", "perspective_id": pid, "route_set_version": v}, "route_id or route_index"},
		{"perspective_inspect", map[string]any{"agent_id": "jimi", "perspective_id": pid, "route_id": "R_1", "route_index": 1, "route_set_version": v}, "both"},
		{"perspective_inspect", map[string]any{"agent_id": "jimi", "perspective_id": pid, "route_index": 60, "route_set_version": v}, "not in perspective"},
		{"perspective_follow", map[string]any{"agent_id": "other", "perspective_id": pid, "route_index": 1, "route_set_version": v}, "belongs to agent"},
		{"perspective_close", map[string]any{"agent_id": "other", "perspective_id": pid}, "belongs to agent"},
		{"perspective_routes", map[string]any{"agent_id": "jimi", "perspective_id": "persp_jimi_999"}, "no perspective"},
		{"perspective_routes", map[string]any{"agent_id": "jimi", "perspective_id": pid, "page": 99}, "past the last page"},
		{"perspective_back", map[string]any{"agent_id": "jimi", "perspective_id": pid}, "no history"},
		{"perspective_compare", map[string]any{"agent_id": "jimi", "perspective_id_a": pid, "perspective_id_b": "persp_x_001"}, "no perspective"},
		{"perspective_list", map[string]any{"agent_id": "x/y"}, "cannot own"},
	} {
		tooltest.Teaches(t, d, c.tool, c.args, c.want, false)
	}
	if l := tooltest.MustCall(t, d, "perspective_list", map[string]any{"agent_id": "other"}); len(l["perspectives"].([]any)) != 0 {
		t.Errorf("another agent sees jimi's perspectives: %v", l)
	}
	for i := 1; i < 16; i++ {
		tooltest.StartPersp(t, d, "jimi")
	}
	if out, isErr := tooltest.Call(t, d, "perspective_start", map[string]any{"agent_id": "jimi", "query": "session"}); !isErr || !strings.Contains(fmt.Sprint(out["error"]), "16 perspectives") {
		t.Errorf("17th perspective: %v", out)
	}
}

// A graph change makes perspectives stale: the next access refreshes the
// routes; a focus that disappeared falls back to the anchor.
func TestPerspectiveStaleAfterIngest(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	st := tooltest.StartPersp(t, d, "jimi")
	pid := st["perspective_id"].(string)
	idx := routeIndexOf(t, tooltest.MustCall(t, d, "perspective_routes", map[string]any{"agent_id": "jimi", "perspective_id": pid, "page_size": 10})["routes"], "file::backend/middleware.py")
	if idx == 0 {
		t.Skip("no route to middleware.py on page 1")
	}
	f := tooltest.MustCall(t, d, "perspective_follow", map[string]any{"agent_id": "jimi", "perspective_id": pid, "route_index": idx, "route_set_version": st["route_set_version"]})
	os.Remove(filepath.Join(dir, "backend", "middleware.py"))
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir, "incremental": true})
	if l := tooltest.MustCall(t, d, "perspective_list", map[string]any{"agent_id": "jimi"}); l["perspectives"].([]any)[0].(map[string]any)["stale"] != true {
		t.Errorf("not stale after ingest: %v", l)
	}
	r := tooltest.MustCall(t, d, "perspective_routes", map[string]any{"agent_id": "jimi", "perspective_id": pid, "route_set_version": f["route_set_version"]})
	if r["refreshed"] != true || r["focus"] != "file::backend/session.py" || r["version_was_stale"] != true {
		t.Errorf("after the focus was deleted: %v", r)
	}
}

// Perspectives survive a restart with the same runtime directory; on the
// same graph the recomputed routes keep their version, so the agent goes
// on where it stopped.
func TestPerspectiveSurvivesRestart(t *testing.T) {
	t.Parallel()
	d, cfg := tooltest.PersistedFixture(t)
	st := tooltest.StartPersp(t, d, "jimi")
	f := tooltest.MustCall(t, d, "perspective_follow", map[string]any{"agent_id": "jimi", "perspective_id": st["perspective_id"], "route_index": 1, "route_set_version": st["route_set_version"]})
	lock := tooltest.CreateLock(t, d, "jimi", map[string]any{"scope": "node", "root_nodes": []string{"backend/auth.py"}, "perspective_id": st["perspective_id"]})
	d.Session.Close()

	d2 := tooltest.NewDispatcher(t, cfg)
	r := tooltest.MustCall(t, d2, "perspective_inspect", map[string]any{"agent_id": "jimi", "perspective_id": st["perspective_id"], "route_index": 1, "route_set_version": f["route_set_version"]})
	if r["route_set_version"] != f["route_set_version"] {
		t.Errorf("version after restart %v, before %v", r["route_set_version"], f["route_set_version"])
	}
	back := tooltest.MustCall(t, d2, "perspective_back", map[string]any{"agent_id": "jimi", "perspective_id": st["perspective_id"]})
	if back["restored_focus"] != "file::backend/session.py" {
		t.Errorf("history after restart: %v", back)
	}
	c := tooltest.MustCall(t, d2, "perspective_close", map[string]any{"agent_id": "jimi", "perspective_id": st["perspective_id"]})
	if fmt.Sprint(c["locks_released"]) != "["+lock+"]" {
		t.Errorf("close did not release the tied lock: %v", c)
	}
}

// Eight agents at once, each with perspectives, locks, trails and boot
// memory, under -race: every acknowledged change is there afterwards, in
// this process and after a restart.
func TestEightAgentsAtOnce(t *testing.T) {
	t.Parallel()
	d, cfg := tooltest.PersistedFixture(t)
	const agents, rounds = 8, 3
	var wg sync.WaitGroup
	for i := range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := fmt.Sprintf("agent-%d", i)
			for r := range rounds {
				p := tooltest.StartPersp(t, d, a)
				pid := p["perspective_id"].(string)
				// Other agents' queries move the learned weights, which may
				// change the route set under us: like an agent, fetch the
				// current version and retry.
				f := retryStale(t, d, "perspective_follow", map[string]any{"agent_id": a, "perspective_id": pid, "route_index": 1 + r}, p["route_set_version"])
				retryStale(t, d, "perspective_inspect", map[string]any{"agent_id": a, "perspective_id": pid, "route_index": 1}, f["route_set_version"])
				lk := tooltest.CreateLock(t, d, a, map[string]any{"scope": "subgraph", "root_nodes": []string{"backend/auth.py"}, "radius": 1})
				tooltest.MustCall(t, d, "lock_diff", map[string]any{"agent_id": a, "lock_id": lk})
				tooltest.SaveTrail(t, d, a, fmt.Sprint("round-", r), "file::backend/auth.py")
				tooltest.MustCall(t, d, "boot_memory", map[string]any{"agent_id": a, "action": "set", "key": fmt.Sprint("round-", r), "value": r})
				if r == 1 {
					tooltest.MustCall(t, d, "activate", map[string]any{"agent_id": a, "query": "session"}) // moves the plasticity generation
				}
			}
		}()
	}
	wg.Wait()
	check := func(d *tools.Dispatcher, when string) {
		for i := range agents {
			a := fmt.Sprintf("agent-%d", i)
			if n := len(tooltest.MustCall(t, d, "perspective_list", map[string]any{"agent_id": a})["perspectives"].([]any)); n != rounds {
				t.Errorf("%s: %s has %d perspectives, want %d", when, a, n, rounds)
			}
			if n := tooltest.MustCall(t, d, "trail_list", map[string]any{"agent_id": a, "filter_agent_id": a})["total_count"]; n != float64(rounds) {
				t.Errorf("%s: %s has %v trails", when, a, n)
			}
			if n := tooltest.MustCall(t, d, "boot_memory", map[string]any{"agent_id": a, "action": "list"})["key_count"]; n != float64(rounds) {
				t.Errorf("%s: %s has %v keys", when, a, n)
			}
			if n := len(d.Session.Continuity().Locks.Own(a)); n != rounds {
				t.Errorf("%s: %s has %d locks", when, a, n)
			}
			for r := range rounds {
				p := tooltest.MustCall(t, d, "perspective_routes", map[string]any{"agent_id": a, "perspective_id": fmt.Sprintf("persp_%s_%03d", a, r+1)})
				if p["focus"] == "file::backend/session.py" {
					t.Errorf("%s: %s round %d lost its follow", when, a, r)
				}
			}
		}
	}
	check(d, "before restart")
	d.Session.Close()
	check(tooltest.NewDispatcher(t, cfg), "after restart")
}

// retryStale calls a route tool, refreshing route_set_version from a
// stale-version refusal (as an agent does) a few times.
func retryStale(t *testing.T, d *tools.Dispatcher, tool string, args map[string]any, version any) map[string]any {
	t.Helper()
	for range 5 {
		args["route_set_version"] = version
		out, isErr := tooltest.Call(t, d, tool, args)
		if !isErr {
			return out
		}
		det, _ := out["details"].(map[string]any)
		if det == nil || det["current_route_set_version"] == nil {
			t.Fatalf("%s(%v): %v", tool, args, out)
		}
		version = det["current_route_set_version"]
	}
	t.Fatalf("%s: the route set kept changing", tool)
	return nil
}
