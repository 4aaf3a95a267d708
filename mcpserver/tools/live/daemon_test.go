package live

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/daemon"
	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
	"github.com/m1nd-go/m1nd/mcpserver/watch"
)

func hasNode(t *testing.T, d *tools.Dispatcher, id string) bool {
	t.Helper()
	_, isErr := tooltest.Call(t, d, "impact", map[string]any{"agent_id": "t", "node_id": id, "top_k": 1})
	return !isErr
}

// daemonFixture is the fixture ingested by a server with a runtime
// directory, as the daemon runs.
func daemonFixture(t *testing.T) (*tools.Dispatcher, string) {
	t.Helper()
	dir := fixture.Write(t)
	cfg := tooltest.TestConfig()
	cfg.RuntimeDir = t.TempDir()
	d := tooltest.NewDispatcher(t, cfg)
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	return d, dir
}

// daemon_tick reconciles an edit, an addition, a deletion and a rename in
// one pass, and seek/impact answer about the new tree.
func TestDaemonTickReconciles(t *testing.T) {
	t.Parallel()
	d, dir := daemonFixture(t)

	write := func(rel, body string) {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("backend/refunds.py", "from backend.payments import charge\n\n\ndef refund_all(request):\n    return charge(request, 0)\n")
	write("backend/config.py", "\"\"\"Settings.\"\"\"\n\nDATABASE_URL = \"postgres://db\"\nPOOL_SIZE = 4\n")
	os.Remove(filepath.Join(dir, "tests/test_session.py"))
	os.Rename(filepath.Join(dir, "backend/crypto.py"), filepath.Join(dir, "backend/hashing.py"))

	out := tooltest.MustCall(t, d, "daemon_tick", map[string]any{"agent_id": "t"})
	if out["files_reingested"].(float64) < 4 || len(out["roots_reingested"].([]any)) != 1 {
		t.Fatalf("tick %v", out)
	}
	// Files came and went in directories the graph has: the graph is
	// patched, from what the tick's own check saw (no second walk).
	if u := out["updates"].([]any)[0].(map[string]any); u["patched"] != true || u["walk_skipped"] != true {
		t.Errorf("update %v, want patched without a walk", u)
	}
	for id, want := range map[string]bool{
		"file::backend/refunds.py": true, "file::backend/hashing.py": true,
		"file::backend/crypto.py": false, "file::tests/test_session.py": false,
	} {
		if got := hasNode(t, d, id); got != want {
			t.Errorf("after the tick, %s in graph = %v, want %v", id, got, want)
		}
	}
	seek := tooltest.MustCall(t, d, "seek", map[string]any{"agent_id": "t", "query": "refund all payments"})
	if !strings.Contains(tooltest.ToJSON(seek), "refunds.py") {
		t.Errorf("seek does not find the new file: %v", seek)
	}
	// Nothing changed since: a tick is a no-op.
	again := tooltest.MustCall(t, d, "daemon_tick", map[string]any{"agent_id": "t"})
	if again["files_reingested"].(float64) != 0 || len(again["roots_reingested"].([]any)) != 0 {
		t.Errorf("idle tick %v", again)
	}
	// Files in new directories: the check reads the new directories too, so
	// the graph is patched without a walk.
	if err := os.MkdirAll(filepath.Join(dir, "backend/jobs/nightly"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("backend/jobs/nightly/sweep.py", "def sweep():\n    return 1\n")
	out = tooltest.MustCall(t, d, "daemon_tick", map[string]any{"agent_id": "t"})
	if u := out["updates"].([]any)[0].(map[string]any); u["patched"] != true || u["walk_skipped"] != true {
		t.Errorf("update %v, want patched without a walk", u)
	}
	if !hasNode(t, d, "file::backend/jobs/nightly/sweep.py") {
		t.Error("the file in the new directory is not in the graph")
	}
	// A new manifest adds a package: the graph is rebuilt, and says why; a
	// dependency added to it later only moves package nodes: patched.
	write("pyproject.toml", "[project]\nname = \"shop\"\ndependencies = [\"requests\"]\n")
	out = tooltest.MustCall(t, d, "daemon_tick", map[string]any{"agent_id": "t"})
	if u := out["updates"].([]any)[0].(map[string]any); u["patched"] != false || !strings.Contains(fmt.Sprint(u["rebuild_reason"]), "manifest") {
		t.Errorf("update %v, want a rebuild for the new package", u)
	}
	write("pyproject.toml", "[project]\nname = \"shop\"\ndependencies = [\"requests\", \"stripe\"]\n")
	future := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(dir, "pyproject.toml"), future, future)
	out = tooltest.MustCall(t, d, "daemon_tick", map[string]any{"agent_id": "t"})
	if u := out["updates"].([]any)[0].(map[string]any); u["patched"] != true {
		t.Errorf("update %v, want the dependency patched in", u)
	}
	if !hasNode(t, d, "package::pypi::stripe") {
		t.Error("the new dependency has no package node")
	}
	st := tooltest.MustCall(t, d, "daemon_status", map[string]any{"agent_id": "t"})
	if st["tick_count"].(float64) != 5 || st["active"] != false {
		t.Errorf("status %v", st)
	}
}

// A deleted hub raises an alert; alerts are acknowledged.
func TestDaemonHubAlert(t *testing.T) {
	t.Parallel()
	d, dir := daemonFixture(t)
	os.Remove(filepath.Join(dir, "backend/session.py")) // auth, middleware and a test depend on it
	out := tooltest.MustCall(t, d, "daemon_tick", map[string]any{"agent_id": "t"})
	if out["alerts_emitted"].(float64) < 1 {
		t.Fatalf("no alert for a deleted hub: %v", out)
	}
	list := tooltest.MustCall(t, d, "alerts_list", map[string]any{"agent_id": "t"})
	alerts := list["alerts"].([]any)
	a := alerts[0].(map[string]any)
	if a["kind"] != "hub_deleted" || !strings.Contains(a["message"].(string), "session.py") {
		t.Fatalf("alert %v", a)
	}
	tooltest.MustCall(t, d, "alerts_ack", map[string]any{"agent_id": "t", "alert_ids": []string{a["alert_id"].(string)}})
	if after := tooltest.MustCall(t, d, "alerts_list", map[string]any{"agent_id": "t"}); after["unacked"].(float64) != 0 {
		t.Errorf("after ack: %v", after)
	}
	if _, isErr := tooltest.Call(t, d, "alerts_ack", map[string]any{"agent_id": "t", "alert_ids": []string{"alert-999"}}); !isErr {
		t.Error("an unknown alert id was acknowledged")
	}
}

// The watcher picks up a write without any call: the next query sees it.
func TestDaemonWatches(t *testing.T) {
	t.Parallel()
	d, dir := daemonFixture(t)
	st := tooltest.MustCall(t, d, "daemon_start", map[string]any{"agent_id": "t"})
	if st["active"] != true {
		t.Fatalf("start %v", st)
	}
	defer tooltest.MustCall(t, d, "daemon_stop", map[string]any{"agent_id": "t"})
	os.WriteFile(filepath.Join(dir, "backend/audit_log.py"), []byte("def record(event):\n    return event\n"), 0o644)
	for i := 0; i < 3000 && !hasNode(t, d, "file::backend/audit_log.py"); i++ {
		time.Sleep(10 * time.Millisecond) // a bound against a hang, not a speed limit
	}
	if !hasNode(t, d, "file::backend/audit_log.py") {
		t.Fatalf("the watcher did not bring the new file in: %v", tooltest.MustCall(t, d, "daemon_status", map[string]any{"agent_id": "t"}))
	}
}

func TestDaemonTeachingErrors(t *testing.T) {
	t.Parallel()
	d := tooltest.NewDispatcher(t, session.Config{})
	if out, isErr := tooltest.Call(t, d, "daemon_start", map[string]any{"agent_id": "t"}); !isErr || out["hint"] == nil {
		t.Errorf("daemon_start on an empty graph: %v", out)
	}
	d2, _ := tooltest.IngestedFixture(t)
	if out, isErr := tooltest.Call(t, d2, "daemon_start", map[string]any{"agent_id": "t", "watch_paths": []string{"/etc"}}); !isErr || !strings.Contains(out["error"].(string), "not inside an ingest root") {
		t.Errorf("daemon_start outside the roots: %v", out)
	}
	if out, isErr := tooltest.Call(t, d2, "alerts_ack", map[string]any{"agent_id": "t", "alert_ids": []string{}}); !isErr {
		t.Errorf("empty alert_ids: %v", out)
	}
}

// After a tick, the indexes the previous graph had built (the seek index
// here) are built for the new graph once the tree is quiet, before the
// next query asks for them.
func TestTickWarmsUsedIndexes(t *testing.T) {
	t.Parallel()
	dir := fixture.Write(t)
	d := tooltest.NewDispatcher(t, tooltest.TestConfig())
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	tooltest.MustCall(t, d, "seek", map[string]any{"agent_id": "t", "query": "hash a password"})
	if err := os.WriteFile(filepath.Join(dir, "backend", "refunds.py"), []byte("def refund(x):\n    return x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := d.Session.Current()
	tooltest.MustCall(t, d, "daemon_tick", map[string]any{"agent_id": "t"})
	b := d.Session.Current()
	if b == before {
		t.Fatal("the tick did not publish a new graph")
	}
	// Liveness only: the warm-up runs a second after the tick.
	for deadline := time.Now().Add(time.Minute); !session.Built(b, tools.SeekIndexKey); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the new graph's seek index was never built ahead of a query")
		}
	}
}

// Files changed on disk in a lock's region, or that an agent has read,
// raise alerts naming the lock or the agent; the same news is not repeated
// while unacknowledged.
func TestDaemonRegionAlerts(t *testing.T) {
	t.Parallel()
	d, dir := daemonFixture(t)
	tooltest.MustCall(t, d, "view", map[string]any{"agent_id": "reader", "file_path": "backend/payments.py"})
	lock := tooltest.MustCall(t, d, "lock_create", map[string]any{"agent_id": "locker", "scope": "node", "root_nodes": []string{"backend/crypto.py"}})["lock_id"].(string)

	appendTo := func(rel, s string) {
		f, err := os.OpenFile(filepath.Join(dir, rel), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(s)
		f.Close()
	}
	alertsOf := func(out map[string]any) map[string]string {
		got := map[string]string{}
		list := tooltest.MustCall(t, d, "alerts_list", map[string]any{"agent_id": "t"})["alerts"].([]any)
		for _, id := range out["alert_ids"].([]any) {
			for _, a := range list {
				if a := a.(map[string]any); a["alert_id"] == id {
					got[a["kind"].(string)] = a["message"].(string)
				}
			}
		}
		return got
	}
	appendTo("backend/payments.py", "\n\ndef refund():\n    return 0\n")
	appendTo("backend/crypto.py", "\n\ndef pepper():\n    return 1\n")
	appendTo("backend/config.py", "\nDEBUG = False\n") // neither read nor locked
	got := alertsOf(tooltest.MustCall(t, d, "daemon_tick", map[string]any{"agent_id": "t"}))
	if m := got[daemon.KindRegionLocked]; !strings.Contains(m, lock) || !strings.Contains(m, "file::backend/crypto.py") || !strings.Contains(m, "locker") {
		t.Errorf("locked region alert %q, want lock %s, its agent and crypto.py", m, lock)
	}
	if m := got[daemon.KindHotChanged]; !strings.Contains(m, "reader") || !strings.Contains(m, "backend/payments.py") || strings.Contains(m, "config.py") {
		t.Errorf("hot region alert %q, want agent reader and payments.py only", m)
	}
	if len(got) != 2 {
		t.Errorf("alerts %v, want one locked and one hot", got)
	}
	// The same files changed again: nothing new to say while unacked.
	appendTo("backend/payments.py", "\n# again\n")
	if again := alertsOf(tooltest.MustCall(t, d, "daemon_tick", map[string]any{"agent_id": "t"})); again[daemon.KindHotChanged] != "" {
		t.Errorf("a second change of the same read file repeated the alert: %v", again)
	}
}

// A build writing its output where the walk does not go (a skipped
// directory, a .gitignore'd one) wakes the daemon for nothing; a source
// edit after it still does.
func TestDaemonIgnoresWhatTheWalkSkips(t *testing.T) {
	t.Parallel()
	dir := fixture.Write(t) // a git repository: its .gitignore holds
	gi, err := os.OpenFile(filepath.Join(dir, ".gitignore"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	gi.WriteString("\nout/\n")
	gi.Close()
	// backend/target is a Rust build's output: a Cargo.toml sits beside it
	// (without one, a directory named target is source and is watched).
	if err := os.WriteFile(filepath.Join(dir, "backend", "Cargo.toml"), []byte("[package]\nname = \"b\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := tooltest.TestConfig()
	cfg.RuntimeDir = t.TempDir()
	d := tooltest.NewDispatcher(t, cfg)
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	if st := tooltest.MustCall(t, d, "daemon_start", map[string]any{"agent_id": "t"}); st["watcher_backend"] != "notify" {
		t.Skipf("no kernel watches here (%v): polling does not see events", st["watcher_note"])
	}
	defer tooltest.MustCall(t, d, "daemon_stop", map[string]any{"agent_id": "t"})
	for _, sub := range []string{"node_modules/pkg", "out/gen", "backend/target"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		for i := range 20 {
			os.WriteFile(filepath.Join(dir, sub, fmt.Sprintf("f%d.py", i)), []byte("x = 1\n"), 0o644)
		}
	}
	time.Sleep(600 * time.Millisecond) // a tick the writes caused would have run by now (debounce 100 ms)
	if st := tooltest.MustCall(t, d, "daemon_status", map[string]any{"agent_id": "t"}); st["tick_count"].(float64) != 0 {
		t.Fatalf("writes into skipped and ignored directories made ticks: %v", st)
	}
	os.WriteFile(filepath.Join(dir, "backend/audit_log.py"), []byte("def record(event):\n    return event\n"), 0o644)
	for i := 0; i < 3000 && !hasNode(t, d, "file::backend/audit_log.py"); i++ {
		time.Sleep(10 * time.Millisecond) // a bound against a hang, not a speed limit
	}
	if !hasNode(t, d, "file::backend/audit_log.py") {
		t.Fatalf("the watcher missed the source edit: %v", tooltest.MustCall(t, d, "daemon_status", map[string]any{"agent_id": "t"}))
	}
}

// A watch tick told which paths changed patches the graph to what a full
// ingest of the same tree builds, as the tick that checks every file does.
func TestWatchTickScopedEqualsFull(t *testing.T) {
	t.Parallel()
	d, dir := daemonFixture(t)
	tooltest.MustCall(t, d, "daemon_tick", map[string]any{"agent_id": "t"}) // the last full check
	write := func(rel, body string) {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(10 * time.Millisecond) // a directory mtime step
	write("backend/refunds.py", "from backend.payments import charge\n\n\ndef refund_all(request):\n    return charge(request, 0)\n")
	write("backend/config.py", "\"\"\"Settings.\"\"\"\n\nDATABASE_URL = \"postgres://db\"\nPOOL_SIZE = 4\n")
	os.Remove(filepath.Join(dir, "tests/test_session.py"))
	os.Rename(filepath.Join(dir, "backend/crypto.py"), filepath.Join(dir, "backend/hashing.py"))
	// A file no event names, touched without a change of content: the
	// full check would count it, the watch tick does not look at it.
	future := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(dir, "backend/payments.py"), future, future)
	var paths []string
	for _, rel := range []string{"backend/refunds.py", "backend/config.py", "tests/test_session.py", "backend/crypto.py", "backend/hashing.py"} {
		paths = append(paths, filepath.Join(dir, filepath.FromSlash(rel)))
	}
	ch := watch.Changes{Paths: paths, Complete: true, Closed: time.Now()}
	res := tools.DaemonOf(d).TickChanged(t.Context(), 0, ch)
	if res.FilesReingested != 5 || len(res.Updates) != 1 || !res.Updates[0].Patched || !res.Updates[0].WalkSkipped {
		t.Fatalf("watch tick %+v", res)
	}
	cfg := tooltest.TestConfig()
	full := tooltest.NewDispatcher(t, cfg)
	tooltest.MustCall(t, full, "ingest", map[string]any{"agent_id": "t", "path": dir})
	got, want := graphFacts(d.Session.Current().Graph), graphFacts(full.Session.Current().Graph)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("graph after the watch tick differs from a full ingest (-full +tick):\n%s", diff)
	}
}

// graphFacts lists a graph's nodes in order, each with its outgoing edges
// (target, relation, weight) sorted: a patch may order a node's edges
// differently from a build.
func graphFacts(g *graph.Graph) []string {
	var out []string
	for n := range graph.NodeID(g.NumNodes()) {
		out = append(out, "node "+g.ExternalID(n))
		lo, hi := g.OutRange(n)
		var edges []string
		for e := lo; e < hi; e++ {
			edges = append(edges, fmt.Sprintf("  -> %s %s %.4f", g.ExternalID(g.Target(e)), g.RelationName(e), g.Weight(e)))
		}
		slices.Sort(edges)
		out = append(out, edges...)
	}
	return out
}
