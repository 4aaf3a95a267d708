package edit

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/m1nd-go/m1nd/mcpserver/edit"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// briefOf is the brief form of a full answer of apply_batch.
func briefOf(t *testing.T, full map[string]any) map[string]any {
	t.Helper()
	data, _ := json.Marshal(full)
	var o applyOutput
	if err := json.Unmarshal(data, &o); err != nil {
		t.Fatal(err)
	}
	data, _ = json.Marshal(brief(o))
	var m map[string]any
	json.Unmarshal(data, &m)
	return m
}

// layerOf is one layer's line of a brief answer.
func layerOf(t *testing.T, brief map[string]any, layer string) map[string]any {
	t.Helper()
	v, _ := brief["verification"].(map[string]any)
	ls, _ := v["layers"].([]any)
	for _, l := range ls {
		if m := l.(map[string]any); m["layer"] == layer {
			return m
		}
	}
	t.Fatalf("no layer %s in %v", layer, v)
	return nil
}

// checkSchemas holds an answer to the tool's closed and published output
// schemas.
func checkSchemas(t *testing.T, d *tools.Dispatcher, tool string, out map[string]any) {
	t.Helper()
	tl, _ := d.Registry.Lookup(tool)
	for name, schema := range map[string]*jsonschema.Schema{"closed": tl.ClosedOutputSchema(), "published": tl.OutputSchema()} {
		rs, err := schema.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := rs.Validate(out); err != nil {
			t.Errorf("%s answer does not match its %s output schema: %v\n%s", tool, name, err, toJSONString(out))
		}
	}
}

// TestApplyAnswersBriefByDefault: without detail, a write answers with its
// outcome, each file's path, action, hash and line counts, and one line
// per verification layer; detail "full" adds the paths, modes and formats,
// the node ids, every check, the phases and the progress events. Both
// forms are what the output schema describes.
func TestApplyAnswersBriefByDefault(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	out := tooltest.MustCall(t, d, "apply_batch", map[string]any{"agent_id": "t", "verify": true, "edits": []any{
		map[string]any{"file_path": "backend/a.py", "new_content": "def a():\n    return 1\n"},
		map[string]any{"file_path": "backend/b.py", "new_content": "from backend.a import a\n\n\ndef b():\n    return a() + 1\n"},
	}})
	checkSchemas(t, d, "apply_batch", out)
	for _, k := range []string{"updated_node_ids", "progress_events", "phases", "compile_check", "test_output"} {
		if _, ok := out[k]; ok {
			t.Errorf("brief answer has %s", k)
		}
	}
	if out["progress_events_total"].(float64) < 8 || out["status"] != "applied" || out["files_written"] != 2.0 {
		t.Errorf("brief answer %v", out)
	}
	for _, r := range out["results"].([]any) {
		r := r.(map[string]any)
		for _, k := range []string{"mode", "format", "old_sha256"} {
			if _, ok := r[k]; ok {
				t.Errorf("brief result has %s: %v", k, r)
			}
		}
		// Where the write landed is in every answer (issue 23).
		if r["root"] == "" || r["root"] == nil || !strings.HasPrefix(fmt.Sprint(r["absolute_path"]), fmt.Sprint(r["root"])) {
			t.Errorf("brief result lacks root or absolute_path: %v", r)
		}
		if r["new_sha256"] == "" || r["action"] != "created" || r["lines_added"] == 0.0 {
			t.Errorf("brief result %v", r)
		}
	}
	v := out["verification"].(map[string]any)
	if v["verdict"] == "" || len(v["layers"].([]any)) != 5 {
		t.Fatalf("brief verification %v", v)
	}
	for _, k := range []string{"layer_b_compile", "layer_c_blast_radius", "layer_d_tests", "graph_diff", "pre_existing_failures"} {
		if _, ok := v[k]; ok {
			t.Errorf("brief verification has %s", k)
		}
	}

	full := tooltest.MustCall(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "backend/a.py", "new_content": "def a():\n    return 2\n", "detail": "full"})
	checkSchemas(t, d, "apply", full)
	r := full["results"].([]any)[0].(map[string]any)
	if r["absolute_path"] == nil || r["root"] == nil || r["mode"] == nil || r["format"] == nil || full["updated_node_ids"] == nil || full["phases"] == nil || full["progress_events"] == nil {
		t.Errorf("full answer lacks fields: %v", full)
	}
	if _, ok := full["progress_events_total"]; ok {
		t.Error("full answer counts the events it lists")
	}
	brief := tooltest.MustCall(t, d, "apply", map[string]any{"agent_id": "t", "file_path": "backend/a.py", "new_content": "def a():\n    return 3\n"})
	checkSchemas(t, d, "apply", brief)
	if b, f := len(toJSONString(brief)), len(toJSONString(full)); b*2 > f {
		t.Errorf("brief answer %d bytes, full %d: not lean", b, f)
	}
}

// TestBriefBoundsLists: the blast radius, the insights and the removed
// names still used are bounded, with totals for the rest; each layer says
// its status, counts and first failure.
func TestBriefBoundsLists(t *testing.T) {
	t.Parallel()
	var o applyOutput
	for i := range 30 {
		o.BlastRadius = append(o.BlastRadius, blastEntry{File: fmt.Sprintf("f%d.go", i), Distance: 1, Direction: "dependents"})
	}
	for i := range 12 {
		o.ProactiveInsights = append(o.ProactiveInsights, insight{Kind: "co_change_prediction", File: "a.go", Target: fmt.Sprintf("t%d.go", i)})
	}
	o.ProgressEvents = make([]progressEvent, 9)
	v := &verificationReport{Verdict: edit.Broken, Reasons: []string{"B: go build ./... failed (exit 1)"},
		Error:  "BROKEN: B: go build ./... failed (exit 1); restoring failed: disk full",
		LayerA: []edit.Finding{{File: "a.go", Line: 3, Kind: "stub", Severity: "warning", Detail: "Sum had real logic"}},
		LayerB: []edit.Check{
			{Command: "go build ./...", Status: "failed", Blocking: true, ExitCode: 1, Output: "a.go:3:1: syntax error"},
			{Command: "go vet ./a", Status: "passed"},
		},
		LayerC:              layerC{Files: o.BlastRadius, Total: 44},
		LayerD:              []edit.Check{{Command: "tests", Status: "skipped", Reason: "the build failed"}},
		LayerE:              []edit.Finding{},
		PreExistingFailures: []edit.PreExisting{{Layer: "B", Command: "go vet ./b"}},
	}
	for i := range 8 {
		v.RemovedNamesUsed = append(v.RemovedNamesUsed, edit.Finding{File: fmt.Sprintf("u%d.go", i), Line: i + 1, Severity: "broken", Detail: "Sum was removed"})
	}
	v.RemovedNamesUsed = append(v.RemovedNamesUsed, edit.Finding{File: "z.go", Severity: "info"})
	o.Verification = v
	b := brief(o)
	if len(b.BlastRadius) != briefBlastRadius || b.BlastRadiusTotal != 44 || len(b.ProactiveInsights) != briefInsights || b.ProactiveInsightsTotal != 12 ||
		b.ProgressEvents != nil || b.ProgressEventsTotal != 9 {
		t.Errorf("bounds: blast %d/%d, insights %d/%d, events %d/%d", len(b.BlastRadius), b.BlastRadiusTotal, len(b.ProactiveInsights), b.ProactiveInsightsTotal, len(b.ProgressEvents), b.ProgressEventsTotal)
	}
	bv := b.Verification
	if len(bv.RemovedNamesUsed) != briefRemovedNames || bv.Error == "" || bv.LayerB != nil || bv.PreExistingFailures != nil {
		t.Errorf("brief verification %+v", bv)
	}
	want := []layerSummary{
		{Layer: "A", Status: "warning", Count: 1, Failed: 1, FirstFailure: "a.go:3: Sum had real logic"},
		{Layer: "B", Status: "failed", Count: 2, Failed: 1, PreExisting: 1, FirstFailure: "go build ./... failed (exit 1): a.go:3:1: syntax error"},
		{Layer: "C", Status: "failed", Count: 44, Failed: 8, FirstFailure: "u0.go:1: Sum was removed"},
		{Layer: "D", Status: "skipped", Count: 1, FirstFailure: "tests skipped: the build failed"},
		{Layer: "E", Status: "passed"},
	}
	if got := toJSONString(bv.Layers); got != toJSONString(want) {
		t.Errorf("layers\n got %s\nwant %s", got, toJSONString(want))
	}
	// The full answer is untouched.
	if len(o.BlastRadius) != 30 || len(o.Verification.RemovedNamesUsed) != 9 || o.Verification.LayerB == nil {
		t.Error("brief changed the full answer")
	}
	// error is left out when it only repeats the reasons.
	v.Error = "BROKEN: " + v.Reasons[0]
	if brief(o).Verification.Error != "" {
		t.Error("brief repeats the reasons in error")
	}
}
