package audit

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func TestAuditProfiles(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	q := tooltest.MustCall(t, d, "audit", map[string]any{"agent_id": "jimi", "path": "backend", "profile": "quick"})
	if q["verdict"] != "healthy" || q["scope"] != "backend" || q["profile_effective"] != "quick" || fmt.Sprint(q["sections"]) != "[ingest_state topology hotspots]" {
		t.Errorf("quick: %v", q)
	}
	hs := q["hotspots"].([]any)
	if len(hs) == 0 || !strings.HasPrefix(hs[0].(map[string]any)["path"].(string), "backend/") {
		t.Errorf("hotspots: %v", hs)
	}
	if tp := q["topology"].(map[string]any); tp["files_in_scope"] != 6.0 || tp["dependency_edges"].(float64) == 0 {
		t.Errorf("topology: %v", tp)
	}
	p := tooltest.MustCall(t, d, "audit", map[string]any{"agent_id": "jimi", "path": dir, "profile": "production", "depth": "shallow"})
	for _, s := range []string{"cross_verify", "external_references", "coordination"} {
		if !strings.Contains(fmt.Sprint(p["sections"]), s) {
			t.Errorf("production lacks %s: %v", s, p["sections"])
		}
	}
	if cv := p["cross_verify"].(map[string]any); cv["verdict"] != "in_sync" {
		t.Errorf("cross_verify summary: %v", cv)
	}
	// Two agents lock overlapping regions; a file changes on disk (a new
	// server: staleness is cached for a moment per graph).
	d, dir = tooltest.IngestedFixture(t)
	tooltest.CreateLock(t, d, "agent-a", map[string]any{"scope": "subgraph", "root_nodes": []string{"backend/auth.py"}, "radius": 1})
	tooltest.CreateLock(t, d, "agent-b", map[string]any{"scope": "node", "root_nodes": []string{"backend/auth.py"}})
	tooltest.EditFile(t, dir, "backend/config.py", "SESSION_TTL = 60\n")
	a := tooltest.MustCall(t, d, "audit", map[string]any{"agent_id": "jimi", "path": dir})
	if a["verdict"] != "stale" || a["profile_effective"] != "coordination" || !strings.Contains(fmt.Sprint(a["sections"]), "cross_verify") {
		t.Errorf("auto after an edit: %v", a)
	}
	kinds := ""
	for _, f := range a["findings"].([]any) {
		kinds += f.(map[string]any)["kind"].(string) + " "
	}
	if !strings.Contains(kinds, "files_changed") || !strings.Contains(kinds, "overlapping_locks") || a["next_suggested_tool"] != "ingest" {
		t.Errorf("findings %s, guidance %v", kinds, a["next_suggested_tool"])
	}
	if co := a["coordination"].(map[string]any); co["locks"] != 2.0 || len(co["overlapping_locks"].([]any)) != 1 {
		t.Errorf("coordination: %v", co)
	}
}

func TestAuditTeachingErrors(t *testing.T) {
	t.Parallel()
	empty := tooltest.NewDispatcher(t, session.Config{})
	if out, isErr := tooltest.Call(t, empty, "audit", map[string]any{"agent_id": "jimi", "path": "/tmp"}); !isErr || !strings.Contains(fmt.Sprint(out["error"]), "empty") {
		t.Errorf("empty graph: %v", out)
	}
	d, dir := tooltest.IngestedFixture(t)
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"agent_id": "jimi", "path": filepath.Dir(dir)}, "not inside an ingested root"},
		{map[string]any{"agent_id": "jimi", "path": "nowhere/"}, "no file of the graph"},
		{map[string]any{"agent_id": "jimi", "path": "backend", "profile": "paranoid"}, "must be one of"},
	} {
		tooltest.Teaches(t, d, "audit", c.args, c.want, false)
	}
}
