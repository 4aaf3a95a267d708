package change

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// The what-if family on the fixture: payments.py → middleware.py →
// session.py; auth.py is the only user of crypto.py and only
// tests/test_auth.py uses auth.py.
func TestWhatifGolden(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	for _, tc := range []struct {
		golden, tool string
		args         map[string]any
	}{
		// Removing auth.py breaks its test and leaves crypto.py unused.
		{"counterfactual_auth", "counterfactual", map[string]any{"agent_id": "t", "node_ids": []any{"backend/auth.py"}}},
		{"counterfactual_entity", "counterfactual", map[string]any{"agent_id": "t", "node_ids": []any{"AuthService.login"}, "include_cascade": false}},
		// True: a two-hop chain through middleware.py (module stems resolve).
		{"hypothesize_true", "hypothesize", map[string]any{"agent_id": "t", "claim": "payments depends on session"}},
		// False: crypto.py depends on nothing, and only shares backend/.
		{"hypothesize_false", "hypothesize", map[string]any{"agent_id": "t", "claim": "crypto.py depends on middleware.py"}},
		{"hypothesize_never_calls", "hypothesize", map[string]any{"agent_id": "t", "claim": "payments never calls hash_password"}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			tooltest.CheckGolden(t, tc.golden, tooltest.MustCall(t, d, tc.tool, tc.args), dir)
		})
	}
}

func TestWhatifAnswers(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	cf := tooltest.MustCall(t, d, "counterfactual", map[string]any{"agent_id": "t", "node_ids": []any{"file::backend/auth.py"}})
	if got := ids(cf["orphaned"]); strings.Join(got, ",") != "file::backend/crypto.py" {
		t.Errorf("orphaned %v, want crypto.py", got)
	}
	if got := ids(cf["broken"]); strings.Join(got, ",") != "file::tests/test_auth.py" {
		t.Errorf("broken %v, want test_auth.py", got)
	}
	for claim, want := range map[string]string{
		"payments depends on session":                         "likely_true",
		"changing session.py breaks payments.py":              "likely_true",
		"crypto.py depends on middleware.py":                  "likely_false",
		"auth.py imports crypto.py":                           "likely_true",
		"AuthService.login calls SessionStore.create":         "likely_true",
		"payments never calls hash_password":                  "likely_true",
		"crypto and middleware are independent":               "likely_true",
		"session.py is tested by tests/test_session.py":       "likely_true",
		"payments.py has no tests":                            "likely_true",
		"backend/auth.py and backend/session.py are coupled":  "likely_true",
		"config.py is isolated":                               "likely_true",
		"session.py is unused":                                "likely_false",
		"backend/session.py depends on backend/middleware.py": "likely_false",
	} {
		out := tooltest.MustCall(t, d, "hypothesize", map[string]any{"agent_id": "t", "claim": claim})
		if out["verdict"] != want {
			t.Errorf("%q: %v (%v), want %s\nfor: %v\nagainst: %v", claim, out["verdict"], out["confidence"], want, out["supporting_evidence"], out["contradicting_evidence"])
		}
	}
}

func ids(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(map[string]any)["node_id"].(string))
	}
	return out
}

// A snapshot saved before a change against the current graph: payments.py
// now imports crypto.py and calls hash_password.
func TestDifferentialAfterChange(t *testing.T) {
	t.Parallel()
	dir := fixture.Write(t)
	rt := t.TempDir()
	d := tooltest.NewDispatcher(t, session.Config{RuntimeDir: rt})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	tooltest.MustCall(t, d, "persist", map[string]any{"agent_id": "t", "action": "save"})
	saved, err := os.ReadFile(filepath.Join(rt, "graph.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(rt, "before.bin"), saved, 0o644); err != nil {
		t.Fatal(err)
	}
	pay := fixture.Files["backend/payments.py"] + "\n\nfrom backend.crypto import hash_password\n\n\ndef receipt(user):\n    return hash_password(user.id)\n"
	if err := os.WriteFile(filepath.Join(dir, "backend", "payments.py"), []byte(pay), 0o644); err != nil {
		t.Fatal(err)
	}
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})

	out := tooltest.MustCall(t, d, "differential", map[string]any{"agent_id": "t", "snapshot_a": "before.bin", "snapshot_b": "current"})
	tooltest.CheckGolden(t, "differential_after_change", out, dir)
	if !strings.Contains(out["summary"].(string), "new edge") {
		t.Errorf("summary %q", out["summary"])
	}
	q := tooltest.MustCall(t, d, "differential", map[string]any{"agent_id": "t", "snapshot_a": "before.bin", "snapshot_b": "current", "question": "what new coupling was introduced around crypto.py?"})
	tooltest.CheckGolden(t, "differential_question", q, dir)
	if fn := q["focus_nodes"].([]any); len(fn) != 1 || fn[0] != "file::backend/crypto.py" {
		t.Errorf("focus %v", fn)
	}
	if n := len(q["removed_edges"].([]any)); n != 0 {
		t.Errorf("a question about new coupling lists %d removed edges", n)
	}
	same := tooltest.MustCall(t, d, "differential", map[string]any{"agent_id": "t", "snapshot_a": "current", "snapshot_b": "current"})
	if same["summary"] != "no change" {
		t.Errorf("current vs current: %v", same["summary"])
	}

	// Bad snapshot names teach the ones that exist.
	for _, bad := range []string{"../../../../etc/passwd", "missing.bin", "/etc/hostname", "plasticity.json"} {
		out, isErr := tooltest.Call(t, d, "differential", map[string]any{"agent_id": "t", "snapshot_a": bad, "snapshot_b": "current"})
		if !isErr {
			t.Errorf("%q accepted: %v", bad, out["summary"])
			continue
		}
		avail, _ := out["details"].(map[string]any)["available_snapshots"].([]any)
		if len(avail) < 3 { // current, before.bin, graph.bin
			t.Errorf("%q: available snapshots %v", bad, avail)
		}
	}
	// An unknown focus node names the closest ones.
	out, isErr := tooltest.Call(t, d, "differential", map[string]any{"agent_id": "t", "snapshot_a": "before.bin", "snapshot_b": "current", "focus_nodes": []any{"sessio"}})
	if !isErr || out["details"] == nil {
		t.Errorf("unknown focus node: %v", out)
	}
}

func TestWhatifTeachingErrors(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	for _, tc := range []struct {
		name, tool string
		args       map[string]any
		detail     string // a key of details the error must carry
	}{
		{"unknown node", "counterfactual", map[string]any{"node_ids": []any{"sessio"}}, "similar_nodes"},
		{"no node", "counterfactual", map[string]any{"node_ids": []any{}}, ""},
		{"unparseable claim", "hypothesize", map[string]any{"claim": "chat_handler never validates session tokens"}, "claim_forms"},
		{"unknown claim node", "hypothesize", map[string]any{"claim": "payments depends on sessio"}, "similar_nodes"},
		{"empty claim", "hypothesize", map[string]any{"claim": "  "}, "claim_forms"},
		{"memory-only snapshot", "differential", map[string]any{"snapshot_a": "graph.bin", "snapshot_b": "current"}, "available_snapshots"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.args["agent_id"] = "t"
			out, isErr := tooltest.Call(t, d, tc.tool, tc.args)
			if !isErr {
				t.Fatalf("accepted: %v", out)
			}
			if out["hint"] == nil || out["example"] == nil {
				t.Errorf("no hint or example: %v", out)
			}
			if tc.detail != "" {
				if det, _ := out["details"].(map[string]any); det == nil || det[tc.detail] == nil {
					t.Errorf("no details.%s: %v", tc.detail, out)
				}
			}
		})
	}
}

func BenchmarkCounterfactualTool(b *testing.B) {
	d, _ := tooltest.IngestedFixture(b)
	args := map[string]any{"agent_id": "b", "node_ids": []any{"backend/session.py"}}
	for b.Loop() {
		tooltest.MustCall(b, d, "counterfactual", args)
	}
}

func BenchmarkHypothesizeTool(b *testing.B) {
	d, _ := tooltest.IngestedFixture(b)
	args := map[string]any{"agent_id": "b", "claim": "payments depends on session"}
	for b.Loop() {
		tooltest.MustCall(b, d, "hypothesize", args)
	}
}

// Diverge against the fixture's first commit (config.py and README.md
// only): every other file is new since, by hash, date or short hash alike.
func TestDivergeGolden(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	out := tooltest.MustCall(t, d, "diverge", map[string]any{"agent_id": "t", "baseline": "HEAD~5"})
	tooltest.CheckGolden(t, "diverge_first_commit", out, dir)
	first := out["baseline_commit"].(string)
	for _, bl := range []string{"2026-01-06", first, "2026-01-06T12:00:00Z"} {
		o := tooltest.MustCall(t, d, "diverge", map[string]any{"agent_id": "t", "baseline": bl})
		if o["baseline_commit"] != first || o["counts"].(map[string]any)["new"] != out["counts"].(map[string]any)["new"] {
			t.Errorf("baseline %q: commit %v counts %v, want %s like HEAD~5", bl, o["baseline_commit"], o["counts"], first)
		}
	}
	// Two commits back, scoped to backend/: auth.py and crypto.py changed
	// together twice since (never before), and payments.py is new and
	// untested.
	o := tooltest.MustCall(t, d, "diverge", map[string]any{"agent_id": "t", "baseline": "HEAD~2", "scope": "backend/*"})
	tooltest.CheckGolden(t, "diverge_scoped", o, dir)
	for _, id := range append(anyStrings(o["new_nodes"]), anyStrings(o["removed_nodes"])...) {
		if !strings.HasPrefix(id, "file::backend/") {
			t.Errorf("%s is outside the scope", id)
		}
	}
	var deficit bool
	for _, a := range o["anomalies"].([]any) {
		a := a.(map[string]any)
		deficit = deficit || (a["type"] == "test_deficit" && a["file"] == "backend/payments.py" && a["severity"] == "warning")
	}
	if !deficit {
		t.Errorf("no test deficit for the new payments.py: %v", o["anomalies"])
	}
	none := tooltest.MustCall(t, d, "diverge", map[string]any{"agent_id": "t", "baseline": "HEAD"})
	if none["structural_drift"] != 0.0 || !strings.Contains(none["summary"].(string), "nothing moved") {
		t.Errorf("HEAD against itself: %v %v", none["structural_drift"], none["summary"])
	}
	for _, tc := range []struct {
		args   map[string]any
		detail string
	}{
		{map[string]any{"baseline": "no-such-branch"}, "recent_commits"},
		{map[string]any{"baseline": "1999-01-01"}, "recent_commits"},
		{map[string]any{"baseline": "last_session"}, "available_snapshots"},
		{map[string]any{"baseline": "HEAD~1", "scope": "[oops"}, ""},
	} {
		tc.args["agent_id"] = "t"
		out, isErr := tooltest.Call(t, d, "diverge", tc.args)
		if !isErr || out["hint"] == nil {
			t.Errorf("%v: %v", tc.args, out)
			continue
		}
		if det, _ := out["details"].(map[string]any); tc.detail != "" && (det == nil || det[tc.detail] == nil) {
			t.Errorf("%v: no details.%s in %v", tc.args, tc.detail, out)
		}
	}
}

// A snapshot baseline: the graph saved before a new, untested module that
// imports payments.py arrived.
func TestDivergeSnapshot(t *testing.T) {
	t.Parallel()
	dir := fixture.Write(t)
	rt := t.TempDir()
	d := tooltest.NewDispatcher(t, session.Config{RuntimeDir: rt})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	// The ingest's snapshot is written behind its answer: save it now.
	tooltest.MustCall(t, d, "persist", map[string]any{"agent_id": "t", "action": "save"})
	saved, err := os.ReadFile(filepath.Join(rt, "graph.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(rt, "before.bin"), saved, 0o644); err != nil {
		t.Fatal(err)
	}
	audit := "from backend.payments import charge\n\n\ndef audited_charge(store, request, amount):\n    return charge(store, request, amount)\n"
	if err := os.WriteFile(filepath.Join(dir, "backend", "audit.py"), []byte(audit), 0o644); err != nil {
		t.Fatal(err)
	}
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	out := tooltest.MustCall(t, d, "diverge", map[string]any{"agent_id": "t", "baseline": "before.bin"})
	tooltest.CheckGolden(t, "diverge_snapshot", out, dir)
	if got := anyStrings(out["new_nodes"]); strings.Join(got, ",") != "file::backend/audit.py" {
		t.Errorf("new %v", got)
	}
}

func anyStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// BenchmarkWhatifCorpus runs the what-if tools through the dispatcher on a
// real tree: M1ND_BENCH_CORPUS=/path/to/tree (skipped without it). The
// first call of each tool builds the dependency view (once per graph);
// the loop measures the calls after it.
func BenchmarkWhatifCorpus(b *testing.B) {
	root := testcorpus.OptIn(b, "M1ND_BENCH_CORPUS", "a source tree")
	d := tooltest.NewDispatcher(b, session.Config{})
	tooltest.MustCall(b, d, "ingest", map[string]any{"agent_id": "b", "path": root})
	var hub, user string
	d.Session.Read(b.Context(), func(bd *session.Bundle) error {
		g := bd.Graph
		dg, err := depGraph(bd, true)
		if err != nil {
			b.Fatal(err)
		}
		best := graph.NoNode
		for v := 0; v < g.NumNodes(); v++ {
			id := graph.NodeID(v)
			if g.Type(id) == graph.File && len(dg.Dependents(id)) > 0 && (best == graph.NoNode || len(dg.Dependents(id)) > len(dg.Dependents(best))) {
				best = id
			}
		}
		hub, user = g.ExternalID(best), g.ExternalID(dg.Dependents(best)[0])
		return nil
	})
	b.Logf("hub %s, one of its users %s", hub, user)
	for _, bc := range []struct {
		name, tool string
		args       map[string]any
	}{
		{"counterfactual_hub", "counterfactual", map[string]any{"node_ids": []any{hub}}},
		{"hypothesize_true", "hypothesize", map[string]any{"claim": user + " depends on " + hub}},
		{"hypothesize_false", "hypothesize", map[string]any{"claim": hub + " depends on " + user}},
		{"hypothesize_calls", "hypothesize", map[string]any{"claim": user + " calls " + hub}},
	} {
		bc.args["agent_id"] = "b"
		tooltest.MustCall(b, d, bc.tool, bc.args)
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				tooltest.MustCall(b, d, bc.tool, bc.args)
			}
		})
	}
}

// A file moved with git mv (and lightly edited) is one renamed file, not
// one removed and one new.
func TestDivergeRename(t *testing.T) {
	t.Parallel()
	dir := fixture.Write(t)
	git := func(args ...string) {
		t.Helper()
		tooltest.Git(t, dir, "2026-02-01T10:00:00Z", args...)
	}
	git("mv", "backend/crypto.py", "backend/cipher.py")
	f, err := os.OpenFile(filepath.Join(dir, "backend", "cipher.py"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n# moved from crypto.py\n")
	f.Close()
	git("commit", "-qam", "rename crypto to cipher")
	d := tooltest.NewDispatcher(t, session.Config{})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	out := tooltest.MustCall(t, d, "diverge", map[string]any{"agent_id": "t", "baseline": "HEAD~1"})
	counts := out["counts"].(map[string]any)
	if counts["renamed"] != 1.0 || counts["new"] != 0.0 || counts["removed"] != 0.0 || counts["modified"] != 1.0 {
		t.Fatalf("counts %v", counts)
	}
	m := out["modified_nodes"].([]any)[0].(map[string]any)
	if m["file"] != "backend/cipher.py" || m["renamed_from"] != "backend/crypto.py" || m["lines_added"] != 2.0 {
		t.Errorf("renamed file %v", m)
	}
}

// A git baseline is compared with the work tree: a file edited and not
// committed is modified (its lines counted against the baseline), a new
// file not committed yet is new, a committed file deleted from disk is
// removed, and each is listed as uncommitted.
func TestDivergeWorkTree(t *testing.T) {
	t.Parallel()
	dir := fixture.Write(t)
	f, err := os.OpenFile(filepath.Join(dir, "backend", "config.py"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\nRETRIES = 3\nTIMEOUT = 10\n") // three lines: the blank one counts
	f.Close()
	if err := os.WriteFile(filepath.Join(dir, "backend", "audit.py"), []byte("def record(event):\n    return event\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "backend", "middleware.py")); err != nil {
		t.Fatal(err)
	}
	d := tooltest.NewDispatcher(t, tooltest.TestConfig())
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	out := tooltest.MustCall(t, d, "diverge", map[string]any{"agent_id": "t", "baseline": "HEAD"})
	want := []any{"file::backend/audit.py", "file::backend/config.py", "file::backend/middleware.py"}
	if got := out["uncommitted_nodes"]; !slices.Equal(got.([]any), want) {
		t.Errorf("uncommitted %v, want %v", got, want)
	}
	if !slices.Equal(out["new_nodes"].([]any), []any{"file::backend/audit.py"}) || !slices.Equal(out["removed_nodes"].([]any), []any{"file::backend/middleware.py"}) {
		t.Errorf("new %v removed %v", out["new_nodes"], out["removed_nodes"])
	}
	mods := out["modified_nodes"].([]any)
	if len(mods) != 1 {
		t.Fatalf("modified %v", mods)
	}
	if m := mods[0].(map[string]any); m["file"] != "backend/config.py" || m["uncommitted"] != true || m["lines_added"] != 3.0 || m["lines_deleted"] != 0.0 {
		t.Errorf("modified %v", m)
	}
	if c := out["counts"].(map[string]any); c["uncommitted"] != 3.0 || c["new"] != 1.0 || c["removed"] != 1.0 || c["modified"] != 1.0 {
		t.Errorf("counts %v", c)
	}
	// Asked again (the files' hashes now remembered): the same answer.
	if again := tooltest.MustCall(t, d, "diverge", map[string]any{"agent_id": "t", "baseline": "HEAD"}); tooltest.ToJSON(again["modified_nodes"]) != tooltest.ToJSON(out["modified_nodes"]) {
		t.Errorf("second call: modified %v, first %v", again["modified_nodes"], out["modified_nodes"])
	}
	// Committed, the same changes are no longer uncommitted but still
	// since the baseline.
	git := exec.Command("git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qam", "wip")
	git.Dir = dir
	exec.Command("git", "-C", dir, "add", "-A").Run()
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("commit: %v %s", err, out)
	}
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir, "incremental": true})
	again := tooltest.MustCall(t, d, "diverge", map[string]any{"agent_id": "t", "baseline": "HEAD~1"})
	if u, ok := again["uncommitted_nodes"]; ok && len(u.([]any)) > 0 {
		t.Errorf("after the commit, uncommitted %v", u)
	}
	if c := again["counts"].(map[string]any); c["new"] != 1.0 || c["removed"] != 1.0 || c["modified"] != 1.0 {
		t.Errorf("after the commit, counts %v", c)
	}
}

// TestDifferentialSavedLearning: "graph.bin" is the graph as saved, with
// the learned weights saved on top of it since: after a learned-only save
// (an auto-persist) the saved graph against the served one shows no
// weight moved, where before that save it showed the learning.
func TestDifferentialSavedLearning(t *testing.T) {
	t.Parallel()
	dir := fixture.Write(t)
	rt := t.TempDir()
	d := tooltest.NewDispatcher(t, session.Config{RuntimeDir: rt})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	tooltest.MustCall(t, d, "persist", map[string]any{"agent_id": "t", "action": "save"})
	for range 3 {
		tooltest.MustCall(t, d, "learn", map[string]any{"agent_id": "t", "query": "session store", "feedback": "correct", "node_ids": []string{"file::backend/session.py", "file::backend/auth.py"}, "strength": 1})
	}
	diff := func() []any {
		out := tooltest.MustCall(t, d, "differential", map[string]any{"agent_id": "t", "snapshot_a": "graph.bin", "snapshot_b": "current"})
		return out["weight_changes"].([]any)
	}
	if moved := diff(); len(moved) == 0 {
		t.Fatal("learning not yet saved: graph.bin against current shows no weight moved")
	}
	if res, err := d.Session.PersistLearned("auto"); err != nil || !res.LearnedOnly {
		t.Fatalf("PersistLearned: %+v, %v; want a learned-only save", res, err)
	}
	if moved := diff(); len(moved) != 0 {
		t.Errorf("after a learned-only save graph.bin against current shows %d weights moved, first %v", len(moved), moved[0])
	}
}
