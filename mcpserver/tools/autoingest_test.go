package tools

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
)

func TestAutoIngestFollowsDocuments(t *testing.T) {
	d, dir := ingestedFixture(t)
	copyDocs(t, dir)
	docs := filepath.Join(dir, "docs")
	start := mustCall(t, d, "auto_ingest_start", map[string]any{"agent_id": "t", "roots": []string{docs}, "formats": []string{"universal"}, "debounce_ms": 50})
	boot := start["bootstrap"].(map[string]any)
	if got := boot["ingested_paths"].([]any); len(got) != 2 {
		t.Fatalf("bootstrap ingested %v, want guide.md and sessions.rst", got)
	}
	mustCall(t, d, "document_resolve", map[string]any{"agent_id": "t", "path": "docs/guide.md"})
	// The code graph is untouched and bindings exist.
	b := mustCall(t, d, "document_bindings", map[string]any{"agent_id": "t", "node_id": "file::backend/session.py"})
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
	tick := mustCall(t, d, "auto_ingest_tick", map[string]any{"agent_id": "t"})
	if !slices.Equal(tick["ingested_paths"].([]any), []any{guide}) || len(tick["removed_paths"].([]any)) != 1 {
		t.Errorf("tick %v", tick)
	}
	res := mustCall(t, d, "document_resolve", map[string]any{"agent_id": "t", "path": "docs/guide.md"})
	var heads []string
	for _, s := range res["sections"].([]any) {
		heads = append(heads, s.(map[string]any)["heading"].(string))
	}
	if !slices.Equal(heads, []string{"Backend guide", "Revocation"}) {
		t.Errorf("sections after the edit: %v", heads)
	}
	if out, isErr := call(t, d, "document_resolve", map[string]any{"agent_id": "t", "path": "docs/sessions.rst"}); !isErr {
		t.Errorf("deleted document still resolves: %v", out)
	}
	st := mustCall(t, d, "auto_ingest_status", map[string]any{"agent_id": "t"})
	if st["running"] != true || st["tracked_documents"].(float64) != 1 || st["semantic_document_count"].(float64) != 1 || st["tick_count"].(float64) < 2 {
		t.Errorf("status %v", st)
	}
	stop := mustCall(t, d, "auto_ingest_stop", map[string]any{"agent_id": "t"})
	if stop["stopped"] != true || stop["manifest_entries"].(float64) != 1 {
		t.Errorf("stop %v", stop)
	}
	if out, isErr := call(t, d, "auto_ingest_tick", map[string]any{"agent_id": "t"}); !isErr || !strings.Contains(out["hint"].(string), "auto_ingest_start") {
		t.Errorf("tick after stop: %v", out)
	}
	// The documents stay; the code too.
	mustCall(t, d, "document_resolve", map[string]any{"agent_id": "t", "path": "docs/guide.md"})
	mustCall(t, d, "impact", map[string]any{"agent_id": "t", "node_id": "file::backend/session.py"})
}

func TestAutoIngestTeaches(t *testing.T) {
	d, dir := ingestedFixture(t)
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
		out, isErr := call(t, d, "auto_ingest_start", args)
		if !isErr || !strings.Contains(out["error"].(string), tc.want) || out["hint"] == "" {
			t.Errorf("auto_ingest_start(%v): %v, want an error about %q", tc.args, out, tc.want)
		}
	}
	if st := mustCall(t, d, "auto_ingest_status", map[string]any{"agent_id": "t"}); st["running"] != false {
		t.Errorf("refused starts left it running: %v", st)
	}
}

// The auto-ingest examples watch the fixture's README.md.
func init() {
	readme := func(d *Dispatcher) string {
		for _, r := range d.Session.Current().Roots {
			if r.Adapter == "code" {
				return filepath.Join(r.Path, "README.md")
			}
		}
		return "README.md"
	}
	exampleSetup["auto_ingest_start"] = func(t *testing.T, d *Dispatcher) map[string]any {
		return map[string]any{"roots": []string{readme(d)}, "formats": []string{"universal"}, "debounce_ms": 200}
	}
	exampleSetup["auto_ingest_tick"] = func(t *testing.T, d *Dispatcher) map[string]any {
		mustCall(t, d, "auto_ingest_start", map[string]any{"agent_id": "setup", "roots": []string{readme(d)}})
		return map[string]any{}
	}
}

// A document watch running when the server stops is running again after
// a restart on the same runtime directory, with its roots and formats.
func TestAutoIngestResumes(t *testing.T) {
	dir := fixture.Write(t)
	copyDocs(t, dir)
	docs := filepath.Join(dir, "docs")
	cfg := testConfig()
	cfg.RuntimeDir = t.TempDir()
	d := newDispatcher(t, cfg)
	mustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	mustCall(t, d, "auto_ingest_start", map[string]any{"agent_id": "t", "roots": []string{docs}, "formats": []string{"universal"}, "debounce_ms": 50})
	if err := d.Session.Close(); err != nil { // the server stops
		t.Fatal(err)
	}

	d2 := newDispatcher(t, cfg)
	ResumeAutoIngest(d2)
	var st map[string]any
	for i := 0; i < 3000; i++ { // a bound against a hang, not a speed limit
		if st = mustCall(t, d2, "auto_ingest_status", map[string]any{"agent_id": "t"}); st["running"] == true && st["tick_count"].(float64) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if st["running"] != true || !slices.Equal(st["roots"].([]any), []any{docs}) || !slices.Equal(st["formats"].([]any), []any{"universal"}) {
		t.Fatalf("after the restart: %v", st)
	}
	mustCall(t, d2, "document_resolve", map[string]any{"agent_id": "t", "path": "docs/guide.md"})
	// Stopped, it stays stopped.
	mustCall(t, d2, "auto_ingest_stop", map[string]any{"agent_id": "t"})
	d2.Session.Close()
	d3 := newDispatcher(t, cfg)
	ResumeAutoIngest(d3)
	if st := mustCall(t, d3, "auto_ingest_status", map[string]any{"agent_id": "t"}); st["running"] == true {
		t.Errorf("a stopped watch resumed: %v", st)
	}
}
