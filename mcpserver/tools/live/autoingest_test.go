package live

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

func TestAutoIngestFollowsDocuments(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	tooltest.CopyDocs(t, dir)
	docs := filepath.Join(dir, "docs")
	start := tooltest.MustCall(t, d, "auto_ingest_start", map[string]any{"agent_id": "t", "roots": []string{docs}, "formats": []string{"universal"}, "debounce_ms": 50})
	boot := start["bootstrap"].(map[string]any)
	if got := boot["ingested_paths"].([]any); len(got) != 2 {
		t.Fatalf("bootstrap ingested %v, want guide.md and sessions.rst", got)
	}
	tooltest.MustCall(t, d, "document_resolve", map[string]any{"agent_id": "t", "path": "docs/guide.md"})
	// The code graph is untouched and bindings exist.
	b := tooltest.MustCall(t, d, "document_bindings", map[string]any{"agent_id": "t", "node_id": "file::backend/session.py"})
	if len(b["bindings"].([]any)) == 0 {
		t.Error("no document binds session.py after the bootstrap")
	}
	// Edit one document, delete the other, tick.
	guide := filepath.Join(docs, "guide.md")
	if err := os.WriteFile(guide, []byte("# Backend guide\n\n## Revocation\n\nSee `SessionStore.lookup`.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(docs, "sessions.rst")); err != nil {
		t.Fatal(err)
	}
	tick := tooltest.MustCall(t, d, "auto_ingest_tick", map[string]any{"agent_id": "t"})
	if !slices.Equal(tick["ingested_paths"].([]any), []any{guide}) || len(tick["removed_paths"].([]any)) != 1 {
		t.Errorf("tick %v", tick)
	}
	res := tooltest.MustCall(t, d, "document_resolve", map[string]any{"agent_id": "t", "path": "docs/guide.md"})
	var heads []string
	for _, s := range res["sections"].([]any) {
		heads = append(heads, s.(map[string]any)["heading"].(string))
	}
	if !slices.Equal(heads, []string{"Backend guide", "Revocation"}) {
		t.Errorf("sections after the edit: %v", heads)
	}
	if out, isErr := tooltest.Call(t, d, "document_resolve", map[string]any{"agent_id": "t", "path": "docs/sessions.rst"}); !isErr {
		t.Errorf("deleted document still resolves: %v", out)
	}
	st := tooltest.MustCall(t, d, "auto_ingest_status", map[string]any{"agent_id": "t"})
	if st["running"] != true || st["tracked_documents"].(float64) != 1 || st["semantic_document_count"].(float64) != 1 || st["tick_count"].(float64) < 2 {
		t.Errorf("status %v", st)
	}
	stop := tooltest.MustCall(t, d, "auto_ingest_stop", map[string]any{"agent_id": "t"})
	if stop["stopped"] != true || stop["manifest_entries"].(float64) != 1 {
		t.Errorf("stop %v", stop)
	}
	if out, isErr := tooltest.Call(t, d, "auto_ingest_tick", map[string]any{"agent_id": "t"}); !isErr || !strings.Contains(out["hint"].(string), "auto_ingest_start") {
		t.Errorf("tick after stop: %v", out)
	}
	// The documents stay; the code too.
	tooltest.MustCall(t, d, "document_resolve", map[string]any{"agent_id": "t", "path": "docs/guide.md"})
	tooltest.MustCall(t, d, "impact", map[string]any{"agent_id": "t", "node_id": "file::backend/session.py"})
}

func TestAutoIngestTeaches(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"roots": []string{}}, "roots"},
		{map[string]any{"roots": []string{filepath.Join(dir, "nope")}}, "does not exist"},
		{map[string]any{"roots": []string{dir}, "formats": []string{"pptx"}}, "unknown format"},
		{map[string]any{"roots": []string{dir}, "namespace": "a::b"}, "namespace"},
		{map[string]any{"roots": []string{"/proc"}}, "proc"},
		{map[string]any{"roots": []string{dir}, "debounce_ms": 1}, "debounce_ms"},
	} {
		args := map[string]any{"agent_id": "t"}
		for k, v := range tc.args {
			args[k] = v
		}
		out, isErr := tooltest.Call(t, d, "auto_ingest_start", args)
		if !isErr || !strings.Contains(out["error"].(string), tc.want) || out["hint"] == "" {
			t.Errorf("auto_ingest_start(%v): %v, want an error about %q", tc.args, out, tc.want)
		}
	}
	if st := tooltest.MustCall(t, d, "auto_ingest_status", map[string]any{"agent_id": "t"}); st["running"] != false {
		t.Errorf("refused starts left it running: %v", st)
	}
}

// A document watch running when the server stops is running again after
// a restart on the same runtime directory, with its roots and formats.
func TestAutoIngestResumes(t *testing.T) {
	t.Parallel()
	dir := fixture.Write(t)
	tooltest.CopyDocs(t, dir)
	docs := filepath.Join(dir, "docs")
	cfg := tooltest.TestConfig()
	cfg.RuntimeDir = t.TempDir()
	d := tooltest.NewDispatcher(t, cfg)
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	tooltest.MustCall(t, d, "auto_ingest_start", map[string]any{"agent_id": "t", "roots": []string{docs}, "formats": []string{"universal"}, "debounce_ms": 50})
	if err := d.Session.Close(); err != nil { // the server stops
		t.Fatal(err)
	}

	d2 := tooltest.NewDispatcher(t, cfg)
	ResumeAutoIngest(d2)
	var st map[string]any
	for i := 0; i < 3000; i++ { // a bound against a hang, not a speed limit
		if st = tooltest.MustCall(t, d2, "auto_ingest_status", map[string]any{"agent_id": "t"}); st["running"] == true && st["tick_count"].(float64) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if st["running"] != true || !slices.Equal(st["roots"].([]any), []any{docs}) || !slices.Equal(st["formats"].([]any), []any{"universal"}) {
		t.Fatalf("after the restart: %v", st)
	}
	tooltest.MustCall(t, d2, "document_resolve", map[string]any{"agent_id": "t", "path": "docs/guide.md"})
	// Stopped, it stays stopped.
	tooltest.MustCall(t, d2, "auto_ingest_stop", map[string]any{"agent_id": "t"})
	d2.Session.Close()
	d3 := tooltest.NewDispatcher(t, cfg)
	ResumeAutoIngest(d3)
	if st := tooltest.MustCall(t, d3, "auto_ingest_status", map[string]any{"agent_id": "t"}); st["running"] == true {
		t.Errorf("a stopped watch resumed: %v", st)
	}
}
