package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/edit"
)

func init() {
	// edit_commit's example needs a preview of its own.
	exampleSetup["edit_commit"] = func(t *testing.T, d *Dispatcher) map[string]any {
		out := mustCall(t, d, "edit_preview", map[string]any{"agent_id": "setup", "file_path": "backend/config.py", "new_content": "DEBUG = False\n"})
		return map[string]any{"agent_id": "claude", "preview_id": out["preview_id"], "confirm": true}
	}
	outputCalls["apply_batch"] = append(outputCalls["apply_batch"], map[string]any{"agent_id": "schema", "verify": true, "edits": []any{
		map[string]any{"file_path": "backend/crypto.py", "new_content": "\"\"\"Password hashing.\"\"\"\nimport hashlib\n\n\ndef hash_password(password):\n    return hashlib.sha256(password.encode()).hexdigest()\n"},
	}})
}

func readFile(t testing.TB, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestApplyWritesAndRefreshesTheGraph: apply writes the file, keeps its
// conventions, and the next query sees the new function.
func TestApplyWritesAndRefreshesTheGraph(t *testing.T) {
	d, dir := ingestedFixture(t)
	p := filepath.Join(dir, "backend", "payments.py")
	old := readFile(t, p)
	sum := edit.SHA256([]byte(old))
	next := strings.TrimSuffix(old, "\n") + "\n\ndef refund(user, amount):\n    return charge(user, -amount)"
	out := mustCall(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "backend/payments.py", "new_content": next, "expected_sha256": sum})
	if got := readFile(t, p); got != next+"\n" {
		t.Fatalf("file after apply:\n%s", got)
	}
	res := out["results"].([]any)[0].(map[string]any)
	if res["action"] != "modified" || res["format"].(map[string]any)["trailing_newline_added"] != true || res["old_sha256"] != sum {
		t.Errorf("result %v", res)
	}
	if !slices.Contains(toStrings(out["updated_node_ids"]), "file::backend/payments.py::refund") {
		t.Errorf("updated_node_ids %v lack the new function", out["updated_node_ids"])
	}
	if _, ok := d.Session.Current().Graph.Lookup("file::backend/payments.py::refund"); !ok {
		t.Error("the served graph does not have the new function")
	}
	if out["reingest"].(map[string]any)["patched"] != true {
		t.Errorf("reingest %v, want the incremental patch", out["reingest"])
	}
	if out["active_phase"] != "done" || out["progress_pct"] != 100.0 || out["batch_id"] == "" {
		t.Errorf("progress state %v %v %v", out["active_phase"], out["progress_pct"], out["batch_id"])
	}
	// The hash it returned is the next write's expected_sha256; the old
	// one is refused, teaching, with nothing written.
	_, isErr := call(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "backend/payments.py", "new_content": "x", "expected_sha256": sum})
	if !isErr || readFile(t, p) != next+"\n" {
		t.Fatal("a stale expected_sha256 was accepted")
	}
	mustCall(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "backend/payments.py", "new_content": old, "expected_sha256": res["new_sha256"]})
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// TestApplyBatchProgress: the events name the batch, move through the
// phases in order and end complete; the client gets them as
// notifications too.
func TestApplyBatchProgress(t *testing.T) {
	d, _ := ingestedFixture(t)
	var mu sync.Mutex
	var notes []string
	raw, _ := json.Marshal(map[string]any{"agent_id": "t", "edits": []any{
		map[string]any{"file_path": "backend/a.py", "new_content": "def a():\n    return 1\n"},
		map[string]any{"file_path": "backend/b.py", "new_content": "from backend.a import a\n\n\ndef b():\n    return a() + 1\n"},
	}})
	res := d.Call(context.Background(), "apply_batch", raw, func(done, total float64, msg string) {
		mu.Lock()
		notes = append(notes, fmt.Sprintf("%v/%v %s", done, total, msg))
		mu.Unlock()
	})
	if res.IsError {
		t.Fatal(res.Text())
	}
	var out applyOutput
	json.Unmarshal([]byte(res.Text()), &out)
	var seq []string
	for _, e := range out.ProgressEvents {
		if e.BatchID != out.BatchID {
			t.Fatalf("event of another batch: %+v", e)
		}
		seq = append(seq, e.Event+":"+e.Phase)
	}
	want := []string{"phase_started:validate", "phase_completed:validate", "phase_started:write", "file_written:write", "file_written:write", "phase_completed:write",
		"phase_started:reingest", "phase_completed:reingest", "phase_started:done", "batch_completed:done"}
	if d := cmp.Diff(want, seq); d != "" {
		t.Errorf("event sequence (-want +got):\n%s", d)
	}
	last := out.ProgressEvents[len(out.ProgressEvents)-1]
	if last.ProgressPct != 100 || last.RemainingPhaseCount != 0 || last.ProofState == "" || out.PhaseCount != 4 {
		t.Errorf("last event %+v", last)
	}
	if len(notes) != len(out.ProgressEvents) || !strings.Contains(notes[0], out.BatchID) {
		t.Errorf("notifications %v", notes)
	}
	if _, ok := d.Session.Current().Graph.Lookup("file::backend/b.py::b"); !ok {
		t.Error("new files are not in the graph")
	}
}
