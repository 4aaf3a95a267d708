package e2e

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

// must calls a tool and fails the test on an error result.
func (p *proc) must(name string, args map[string]any) map[string]any {
	p.t.Helper()
	out, isErr := p.tool(transport.Line, name, args)
	if isErr {
		p.t.Fatalf("%s(%v) failed: %v", name, args, out)
	}
	return out
}

func list(v any) []any { l, _ := v.([]any); return l }

// TestMultiAgentTutorial walks a multi-agent session through the real
// binary: two agents with isolated perspectives, a lock that sees the
// other agent's edit and re-ingest, a trail saved by one agent, a restart
// in the middle, and the trail resumed by the other agent after it, then
// merged by an orchestrator.
func TestMultiAgentTutorial(t *testing.T) {
	repo := fixture.Write(t)
	rt := t.TempDir()
	p := startIn(t, rt)
	p.must("ingest", map[string]any{"agent_id": "jimi", "path": repo})

	// Perspective isolation.
	pa := p.must("perspective_start", map[string]any{"agent_id": "agent-a", "query": "authentication middleware", "anchor_node": "file::backend/middleware.py"})
	pb := p.must("perspective_start", map[string]any{"agent_id": "agent-b", "query": "payments charge"})
	for agent, want := range map[string]any{"agent-a": pa["perspective_id"], "agent-b": pb["perspective_id"]} {
		l := list(p.must("perspective_list", map[string]any{"agent_id": agent})["perspectives"])
		if len(l) != 1 || l[0].(map[string]any)["perspective_id"] != want {
			t.Errorf("%s sees %v, want only %v", agent, l, want)
		}
	}
	if out, isErr := p.tool(transport.Line, "perspective_routes", map[string]any{"agent_id": "agent-b", "perspective_id": pa["perspective_id"]}); !isErr || !strings.Contains(fmt.Sprint(out["error"]), "belongs to agent") {
		t.Errorf("agent-b read agent-a's perspective: %v", out)
	}
	f := p.must("perspective_follow", map[string]any{"agent_id": "agent-a", "perspective_id": pa["perspective_id"], "route_index": 1, "route_set_version": pa["route_set_version"]})

	// Agent A locks the auth region and watches ingests.
	lk := p.must("lock_create", map[string]any{"agent_id": "agent-a", "scope": "subgraph", "root_nodes": []string{"file::backend/auth.py"}, "radius": 2})
	lockID := lk["lock_id"]
	p.must("lock_watch", map[string]any{"agent_id": "agent-a", "lock_id": lockID, "strategy": "on_ingest"})

	// Agent B modifies auth.py and re-ingests incrementally.
	path := filepath.Join(repo, "backend", "auth.py")
	data, _ := os.ReadFile(path)
	os.WriteFile(path, append(data, []byte("\n    def validate_token_v2(self, token):\n        return self.store.lookup(token)\n")...), 0o644)
	at := time.Now().Add(time.Hour)
	os.Chtimes(path, at, at)
	p.must("ingest", map[string]any{"agent_id": "agent-b", "path": repo, "incremental": true})
	d := p.must("lock_diff", map[string]any{"agent_id": "agent-a", "lock_id": lockID})
	diff := d["diff"].(map[string]any)
	if !strings.Contains(fmt.Sprint(diff["new_nodes"]), "validate_token_v2") || d["watcher_events_drained"].(float64) < 1 || d["rebase_suggested"] != "lock_rebase" {
		t.Fatalf("lock_diff after agent-b's edit: %v", d)
	}
	if fc := list(diff["files_changed"]); len(fc) != 1 || fc[0].(map[string]any)["path"] != "backend/auth.py" {
		t.Errorf("files changed %v", fc)
	}
	p.must("lock_rebase", map[string]any{"agent_id": "agent-a", "lock_id": lockID})

	// Agent A saves its investigation, agent B a conflicting one.
	ta := p.must("trail_save", map[string]any{"agent_id": "agent-a", "label": "auth-token-leak-investigation", "tags": []string{"security", "auth"},
		"hypotheses": []map[string]any{
			{"statement": "Auth tokens leak through the session store", "confidence": 0.7, "supporting_nodes": []string{"file::backend/session.py"}, "status": "investigating"},
			{"statement": "Rate limiter missing from auth chain", "confidence": 0.9, "supporting_nodes": []string{"file::backend/middleware.py"}, "status": "confirmed"},
		},
		"open_questions":    []string{"Does the middleware observe token lifecycle?", "Is there a token rotation policy?"},
		"activation_boosts": map[string]any{"file::backend/session.py": 0.8, "file::backend/auth.py": 0.6},
	})
	if ta["visited_from"] != "perspectives" || ta["durable"] != true {
		t.Errorf("trail_save: %v", ta)
	}
	tb := p.must("trail_save", map[string]any{"agent_id": "agent-b", "label": "session-scoping", "tags": []string{"security"},
		"hypotheses": []map[string]any{{"statement": "Session store tokens are properly scoped", "confidence": 0.5, "supporting_nodes": []string{"file::backend/session.py"}}}})
	p.must("boot_memory", map[string]any{"agent_id": "agent-a", "action": "set", "key": "task/current", "value": map[string]any{"lock": lockID}})
	p.must("learn", map[string]any{"agent_id": "agent-a", "query": "authentication flow", "feedback": "correct", "node_ids": []string{"file::backend/session.py"}})

	// Restart in the middle.
	if err := p.closeAndWait(); err != nil {
		t.Fatal(err)
	}
	r := startIn(t, rt)
	res := r.must("trail_resume", map[string]any{"agent_id": "agent-b", "trail_id": ta["trail_id"]})
	if res["stale"] != false || res["nodes_reactivated"].(float64) < 3 || len(list(res["missing_nodes"])) != 0 || res["boosts_restored"].(float64) < 2 {
		t.Errorf("trail_resume after restart: %v", res)
	}
	if res["next_open_question"] != "Does the middleware observe token lifecycle?" || res["next_focus_node"] == "" {
		t.Errorf("resume hints: %v", res)
	}
	if l := r.must("trail_list", map[string]any{"agent_id": "jimi", "filter_tags": []string{"security"}}); l["total_count"] != 2.0 {
		t.Errorf("trail_list after restart: %v", l)
	}
	// Agent A's perspective, lock and memory are still there.
	pl := list(r.must("perspective_list", map[string]any{"agent_id": "agent-a"})["perspectives"])
	if len(pl) != 1 || pl[0].(map[string]any)["focus_node"] != f["focus_node"] || pl[0].(map[string]any)["history_depth"] != 1.0 {
		t.Errorf("perspective after restart: %v", pl)
	}
	if d := r.must("lock_diff", map[string]any{"agent_id": "agent-a", "lock_id": lockID})["diff"].(map[string]any); d["no_changes"] != true || d["baseline_stale"] != true {
		t.Errorf("lock_diff after restart: %v", d)
	}
	if g := r.must("boot_memory", map[string]any{"agent_id": "agent-a", "action": "get", "key": "task/current"}); fmt.Sprint(g["value"]) != fmt.Sprintf("map[lock:%v]", lockID) {
		t.Errorf("boot memory after restart: %v", g)
	}
	m := r.must("trail_merge", map[string]any{"agent_id": "jimi", "trail_ids": []any{ta["trail_id"], tb["trail_id"]}, "label": "combined-auth-investigation"})
	if len(list(m["conflicts"])) != 1 || !strings.Contains(fmt.Sprint(m["shared_nodes"]), "session.py") {
		t.Errorf("trail_merge: %v", m)
	}
	if err := r.closeAndWait(); err != nil {
		t.Fatal(err)
	}
}

// TestKillDuringContinuityWrites kills the server with SIGKILL 0–40 ms
// after sending trail_save and lock_create calls, 24 times. After every
// restart each trail and lock file loads or was set aside (none is served
// half-written), every acknowledged save is there, and the server works.
func TestKillDuringContinuityWrites(t *testing.T) {
	repo := fixture.Write(t)
	rt := t.TempDir()
	p := startIn(t, rt)
	p.must("ingest", map[string]any{"agent_id": "k", "path": repo})
	p.closeAndWait()
	rng := rand.New(rand.NewPCG(5, 17))
	acked := map[string]bool{}
	const trials = 24
	stats := map[string]int{}
	for trial := range trials {
		p := startIn(t, rt)
		ids := make(chan string, 16)
		go func() { // read acknowledgements until the kill
			defer close(ids)
			for {
				body, _, err := p.out.Next()
				if err != nil {
					return
				}
				var m struct {
					Result struct {
						Content []struct{ Text string } `json:"content"`
						IsError bool                    `json:"isError"`
					} `json:"result"`
				}
				if json.Unmarshal(body, &m) != nil || m.Result.IsError || len(m.Result.Content) == 0 {
					continue
				}
				var out map[string]any
				json.Unmarshal([]byte(m.Result.Content[0].Text), &out)
				for _, k := range []string{"trail_id", "lock_id"} {
					if id, ok := out[k].(string); ok {
						ids <- id
					}
				}
			}
		}()
		agent := fmt.Sprintf("k%d", trial%4)
		for i := range 3 {
			p.nextID++
			name, args := "trail_save", map[string]any{"agent_id": agent, "label": fmt.Sprintf("t%d-%d", trial, i), "open_questions": []string{strings.Repeat("why? ", 200)},
				"visited_nodes": []map[string]any{{"node_external_id": "file::backend/auth.py"}, {"node_external_id": "file::backend/session.py"}}}
			if i == 1 {
				name, args = "lock_create", map[string]any{"agent_id": agent, "scope": "subgraph", "root_nodes": []string{"file::backend/auth.py"}, "radius": 2}
			}
			p.send(transport.Line, map[string]any{"jsonrpc": "2.0", "id": p.nextID, "method": "tools/call", "params": map[string]any{"name": name, "arguments": args}})
		}
		time.Sleep(time.Duration(rng.IntN(41)) * time.Millisecond)
		p.cmd.Process.Signal(syscall.SIGKILL)
		p.cmd.Wait()
		for id := range ids {
			acked[id] = true
			stats["acknowledged"]++
		}
		if trial == trials/2 { // a torn file from elsewhere must be set aside too
			os.WriteFile(filepath.Join(rt, "continuity", "trails", "trail_k0_999_000000.json"), []byte(`{"format":1,"trail_id":"trail_k0_9`), 0o644)
		}
		r := startIn(t, rt)
		checkContinuity(t, r, rt, acked, trial, stats)
		stats["torn_writes_swept"] += strings.Count(r.stderr.String(), "continuity: removed")
		// Keep under the per-agent lock limit: release what this trial made.
		for _, l := range lockFiles(t, rt) {
			agent := strings.Split(l, "_")[1]
			r.must("lock_release", map[string]any{"agent_id": agent, "lock_id": l})
			delete(acked, l)
		}
		r.killNow()
	}
	if stats["acknowledged"] == 0 || stats["trails_loaded"] == 0 {
		t.Errorf("the kills never let a write through: %v", stats)
	}
	t.Logf("kill -9 during continuity writes: %d trials, %v", trials, stats)
}

func lockFiles(t *testing.T, rt string) []string {
	m, _ := filepath.Glob(filepath.Join(rt, "continuity", "locks", "*.json"))
	var out []string
	for _, f := range m {
		out = append(out, strings.TrimSuffix(filepath.Base(f), ".json"))
	}
	return out
}

// checkContinuity: every *.json file left in trails/ and locks/ is served
// (it loaded) and every acknowledged id is among them; set-aside files
// are reported as load warnings; no temp file survives the start.
func checkContinuity(t *testing.T, r *proc, rt string, acked map[string]bool, trial int, stats map[string]int) {
	t.Helper()
	l := r.must("trail_list", map[string]any{"agent_id": "check", "limit": 500})
	served := map[string]bool{}
	for _, x := range list(l["trails"]) {
		tr := x.(map[string]any)
		served[tr["trail_id"].(string)] = true
		if tr["label"] == "" || tr["node_count"] != 2.0 {
			t.Fatalf("trial %d: a trail served with missing content: %v", trial, tr)
		}
	}
	files, _ := filepath.Glob(filepath.Join(rt, "continuity", "trails", "*.json"))
	if len(files) != len(served) {
		t.Fatalf("trial %d: %d trail files on disk, %d served (warnings %v)", trial, len(files), len(served), l["load_warnings"])
	}
	stats["trails_loaded"] = len(served)
	for _, f := range files {
		if id := strings.TrimSuffix(filepath.Base(f), ".json"); !served[id] {
			t.Fatalf("trial %d: %s on disk but not served", trial, id)
		}
	}
	if w := list(l["load_warnings"]); len(w) > 0 {
		stats["set_aside"] += len(w)
	}
	for _, lk := range lockFiles(t, rt) {
		agent := strings.Split(lk, "_")[1]
		if d, isErr := r.tool(transport.Line, "lock_diff", map[string]any{"agent_id": agent, "lock_id": lk}); isErr {
			t.Fatalf("trial %d: lock %s on disk but not served: %v", trial, lk, d)
		}
		stats["locks_loaded"]++
	}
	for id := range acked {
		if strings.HasPrefix(id, "trail_") && !served[id] {
			t.Fatalf("trial %d: acknowledged trail %s lost", trial, id)
		}
		if strings.HasPrefix(id, "lock_") {
			if _, err := os.Stat(filepath.Join(rt, "continuity", "locks", id+".json")); err != nil {
				t.Fatalf("trial %d: acknowledged lock %s lost", trial, id)
			}
		}
	}
	for _, dir := range []string{"trails", "locks"} {
		if m, _ := filepath.Glob(filepath.Join(rt, "continuity", dir, ".*.tmp-*")); len(m) > 0 {
			t.Fatalf("trial %d: temp files served or left: %v", trial, m)
		}
	}
}
