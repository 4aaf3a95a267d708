package continuity

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// The lock lifecycle on a real edit: the file change is seen before the
// re-ingest (fast path), the structural change after it, the watcher
// counts the ingest, and a rebase makes the new state the reference.
func TestLockDiffAfterEditAndIngest(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir, "incremental": true})
	create := tooltest.MustCall(t, d, "lock_create", map[string]any{"agent_id": "jimi", "scope": "subgraph", "root_nodes": []string{"backend/session.py"}, "radius": 2})
	id := create["lock_id"].(string)
	if id != "lock_jimi_001" || create["baseline_nodes"].(float64) < 3 || create["baseline_files"].(float64) < 1 {
		t.Fatalf("lock_create: %v", create)
	}
	if w := tooltest.MustCall(t, d, "lock_watch", map[string]any{"agent_id": "jimi", "lock_id": id, "strategy": "on_ingest"}); w["previous_strategy"] != "manual" {
		t.Errorf("lock_watch: %v", w)
	}
	diff := func() (map[string]any, map[string]any) {
		out := tooltest.MustCall(t, d, "lock_diff", map[string]any{"agent_id": "jimi", "lock_id": id})
		return out, out["diff"].(map[string]any)
	}
	out, dd := diff()
	if dd["no_changes"] != true || dd["fast_path"] != true || out["rebase_suggested"] != nil {
		t.Fatalf("diff before any change: %v", out)
	}
	p := filepath.Join(dir, "backend", "session.py")
	data, _ := os.ReadFile(p)
	tooltest.EditFile(t, dir, "backend/session.py", string(data)+"\n    def purge(self):\n        self.sessions.clear()\n")
	out, dd = diff()
	if fc := dd["files_changed"].([]any); len(fc) != 1 || fc[0].(map[string]any)["change"] != "modified" || dd["fast_path"] != true {
		t.Fatalf("diff after the edit, before ingest: %v", dd)
	}
	if out["next_suggested_tool"] != "ingest" || out["rebase_suggested"] != "lock_rebase" {
		t.Errorf("guidance before ingest: %v", out)
	}
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir, "incremental": true})
	out, dd = diff()
	if got := strs(dd["new_nodes"]); !strings.Contains(strings.Join(got, ","), "purge") {
		t.Errorf("new nodes %v, want the purge method", got)
	}
	if dd["baseline_stale"] != true || out["watcher_events_drained"] != 1.0 || len(strs(dd["new_edges"])) == 0 {
		t.Errorf("diff after ingest: %v", out)
	}
	if out, _ := diff(); out["watcher_events_drained"] != 0.0 {
		t.Errorf("events not drained: %v", out)
	}
	rb := tooltest.MustCall(t, d, "lock_rebase", map[string]any{"agent_id": "jimi", "lock_id": id})
	if rb["watcher_preserved"] != true || rb["new_generation"].(float64) <= rb["previous_generation"].(float64) {
		t.Errorf("rebase: %v", rb)
	}
	if _, dd := diff(); dd["no_changes"] != true {
		t.Errorf("diff after rebase: %v", dd)
	}
	// Learning moves weights in the region: reported without a re-ingest.
	tooltest.MustCall(t, d, "learn", map[string]any{"agent_id": "t", "query": "session store", "feedback": "correct", "node_ids": []string{"file::backend/session.py", "file::backend/auth.py"}, "strength": 1})
	if _, dd := diff(); dd["fast_path"] != false || len(dd["weight_changes"].([]any)) == 0 {
		t.Errorf("diff after learn: %v", dd)
	}
	if r := tooltest.MustCall(t, d, "lock_release", map[string]any{"agent_id": "jimi", "lock_id": id}); r["released"] != true {
		t.Errorf("release: %v", r)
	}
	if _, isErr := tooltest.Call(t, d, "lock_diff", map[string]any{"agent_id": "jimi", "lock_id": id}); !isErr {
		t.Error("diff of a released lock succeeded")
	}
}

func TestLockScopes(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	q := tooltest.MustCall(t, d, "lock_create", map[string]any{"agent_id": "jimi", "scope": "query_neighborhood", "root_nodes": []string{"backend/auth.py"}, "query": "session expiry"})
	if q["baseline_nodes"].(float64) < 2 {
		t.Errorf("query scope: %v", q)
	}
	p := tooltest.MustCall(t, d, "lock_create", map[string]any{"agent_id": "jimi", "scope": "path", "root_nodes": []string{"backend/auth.py"},
		"path_nodes": []string{"backend/auth.py", "backend/session.py", "README.md"}})
	if p["baseline_nodes"] != 3.0 || len(p["path_gaps"].([]any)) != 1 {
		t.Errorf("path scope: %v", p)
	}
	n := tooltest.MustCall(t, d, "lock_create", map[string]any{"agent_id": "jimi", "scope": "node", "root_nodes": []string{"backend/auth.py"}})
	if n["baseline_nodes"] != 1.0 || n["baseline_files"] != 1.0 {
		t.Errorf("node scope: %v", n)
	}
}

func TestLockTeachingErrors(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	id := tooltest.CreateLock(t, d, "jimi", map[string]any{"scope": "node", "root_nodes": []string{"backend/auth.py"}})
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"lock_create", map[string]any{"agent_id": "jimi", "scope": "subgraph", "root_nodes": []string{"backend/auth.py"}}, "radius is required"},
		{"lock_create", map[string]any{"agent_id": "jimi", "scope": "node", "root_nodes": []string{"backend/auth.py"}, "radius": 2}, "takes no radius"},
		{"lock_create", map[string]any{"agent_id": "jimi", "scope": "query_neighborhood", "root_nodes": []string{"backend/auth.py"}}, "query is required"},
		{"lock_create", map[string]any{"agent_id": "jimi", "scope": "node", "root_nodes": []string{}}, "must not be empty"},
		{"lock_create", map[string]any{"agent_id": "jimi", "scope": "node", "root_nodes": []string{"file::nope.py"}}, "not a node"},
		{"lock_create", map[string]any{"agent_id": "jimi", "scope": "region", "root_nodes": []string{"backend/auth.py"}}, "must be one of"},
		{"lock_create", map[string]any{"agent_id": "jimi", "scope": "subgraph", "root_nodes": []string{"backend/auth.py"}, "radius": 9}, "<= 4"},
		{"lock_create", map[string]any{"agent_id": "a b", "scope": "node", "root_nodes": []string{"backend/auth.py"}}, "cannot own"},
		{"lock_diff", map[string]any{"agent_id": "other", "lock_id": id}, "belongs to agent"},
		{"lock_release", map[string]any{"agent_id": "other", "lock_id": id}, "belongs to agent"},
		{"lock_rebase", map[string]any{"agent_id": "jimi", "lock_id": "lock_jimi_404"}, "no lock"},
		{"lock_watch", map[string]any{"agent_id": "jimi", "lock_id": id, "strategy": "periodic"}, "must be one of"},
	} {
		tooltest.Teaches(t, d, c.tool, c.args, c.want, false)
	}
	// The owner's lock is untouched by the refused calls; the other agent
	// is told which locks are its own.
	out, _ := tooltest.Call(t, d, "lock_diff", map[string]any{"agent_id": "other", "lock_id": id})
	if fmt.Sprint(out["details"]) != "map[your_locks:[]]" {
		t.Errorf("details %v", out["details"])
	}
	tooltest.MustCall(t, d, "lock_diff", map[string]any{"agent_id": "jimi", "lock_id": id})
	for i := 1; i < 10; i++ {
		tooltest.CreateLock(t, d, "jimi", map[string]any{"scope": "node", "root_nodes": []string{"backend/auth.py"}})
	}
	if out, isErr := tooltest.Call(t, d, "lock_create", map[string]any{"agent_id": "jimi", "scope": "node", "root_nodes": []string{"backend/auth.py"}}); !isErr || !strings.Contains(fmt.Sprint(out["error"]), "already holds 10") {
		t.Errorf("11th lock: %v", out)
	}
}
