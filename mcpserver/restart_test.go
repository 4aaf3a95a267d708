package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// openServed opens a server on runtime directory rt; with ingest set it
// serves that tree as m1nd-mcp --ingest does (the start-up ingest).
func openServed(t *testing.T, rt, ingest string) *tools.Dispatcher {
	t.Helper()
	d, err := Open(context.Background(), Options{RuntimeDir: rt, IngestOnStart: ingest, AllowRoots: []string{os.TempDir()}},
		func(string) string { return "" }, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Session.Close() })
	return d
}

// ingestStats calls ingest incrementally on dir and returns its answer's
// stats.incremental (and the answer).
func ingestStats(t *testing.T, d *tools.Dispatcher, dir string) (map[string]any, map[string]any) {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"agent_id": "t", "path": dir, "incremental": true})
	res := d.Call(context.Background(), "ingest", raw, nil)
	var out map[string]any
	if err := json.Unmarshal([]byte(res.Text()), &out); err != nil || res.IsError {
		t.Fatalf("ingest: %s", res.Text())
	}
	stats, _ := out["stats"].(map[string]any)
	inc, _ := stats["incremental"].(map[string]any)
	return inc, out
}

// TestRestartNoChangeKeepsGraph: a server restarted on a tree where nothing
// changed keeps the graph it saved — the start-up ingest finds every file
// as stamped and the same HEAD, extracts nothing and rebuilds nothing (the
// loaded graph object is the one served; nothing is saved again); the git
// history comes from the ingest cache, not from the repository, and the
// commits are those saved beside the graph. The proof is the
// ingest's own report (restored, no file changed or added) and the graph's
// identity, not a time.
func TestRestartNoChangeKeepsGraph(t *testing.T) {
	dir := fixture.Write(t)
	rt := filepath.Join(t.TempDir(), "rt")

	first := openServed(t, rt, dir)
	b1 := first.Session.Current()
	if len(b1.Commits) == 0 || len(b1.Files) != 1 || b1.Files[0].RunKey == "" {
		t.Fatalf("first start: %d commits, files %d", len(b1.Commits), len(b1.Files))
	}
	nodes, commits := b1.Graph.NumNodes(), len(b1.Commits)
	if err := first.Session.Close(); err != nil {
		t.Fatal(err)
	}

	// The start-up path of a restart (load, then ingest as startupIngest
	// does), taken apart to see the graph loaded.
	d := openServed(t, rt, "")
	loaded := d.Session.Current()
	if loaded.Graph.NumNodes() != nodes || len(loaded.Commits) != commits {
		t.Fatalf("loaded %d nodes (want %d) and %d commits (want %d, saved beside the graph)", loaded.Graph.NumNodes(), nodes, len(loaded.Commits), commits)
	}
	inc, out := ingestStats(t, d, dir)
	if inc["restored"] != true || inc["changed"] != 0.0 || inc["added"] != 0.0 || inc["patched"] != nil || inc["rebuild_reason"] != nil {
		t.Errorf("restart with nothing changed: incremental %v", inc)
	}
	if st := out["stats"].(map[string]any); st["git_history"] != "cached" {
		t.Errorf("git history came from %v, want the ingest cache (cached)", st["git_history"])
	}
	cur := d.Session.Current()
	if cur.Graph != loaded.Graph {
		t.Error("the loaded graph was replaced: the restart rebuilt it")
	}
	if len(cur.Commits) != commits {
		t.Errorf("commits after the restart: %d, want %d", len(cur.Commits), commits)
	}
	if d.Session.PersistedGen() != cur.Gen {
		t.Errorf("generation %d is not marked saved (persisted %d): the unchanged graph would be written again", cur.Gen, d.Session.PersistedGen())
	}
	if p := out["persisted"].(map[string]any); p["durable"] != true || !strings.Contains(fmt.Sprint(p["reason"]), "unchanged") {
		t.Errorf("persisted: %v", p)
	}
	// Again in the same process: the in-memory shortcut, still restored.
	if inc, _ := ingestStats(t, d, dir); inc["restored"] != true || d.Session.Current() != cur {
		t.Errorf("second no-change ingest: %v", inc)
	}

	// The first change after it rebuilds, and says why.
	f := filepath.Join(dir, "backend", "auth.py")
	data, _ := os.ReadFile(f)
	if err := os.WriteFile(f, append(data, "\n\ndef audit(user):\n    return user\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	inc, _ = ingestStats(t, d, dir)
	if inc["restored"] == true || !strings.Contains(fmt.Sprint(inc["rebuild_reason"]), "restored from its snapshot") || inc["changed"] != 1.0 {
		t.Errorf("change after a restored start: %v", inc)
	}
	if d.Session.Current().Graph == loaded.Graph {
		t.Error("the change was not applied")
	}
}

// TestRestartThroughStartupIngest: the same through Open with --ingest (the
// path m1nd-mcp takes), then a change, a touch and a new commit made while
// the server is down: a restart keeps the graph only when nothing moved.
func TestRestartThroughStartupIngest(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := fixture.Write(t)
	rt := filepath.Join(t.TempDir(), "rt")
	restart := func() *tools.Dispatcher {
		d := openServed(t, rt, dir)
		return d
	}
	closeIt := func(d *tools.Dispatcher) {
		if err := d.Session.Close(); err != nil {
			t.Fatal(err)
		}
	}
	closeIt(restart())

	// Nothing changed: the restarted server serves the graph it loaded,
	// so the next change is a rebuild that names the restored start.
	d := restart()
	commits := len(d.Session.Current().Commits)
	f := filepath.Join(dir, "backend", "session.py")
	data, _ := os.ReadFile(f)
	if err := os.WriteFile(f, append(data, "\n# more\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	inc, _ := ingestStats(t, d, dir)
	if !strings.Contains(fmt.Sprint(inc["rebuild_reason"]), "restored from its snapshot") {
		t.Errorf("start-up with nothing changed did not keep the saved graph: next change %v", inc)
	}
	if commits == 0 {
		t.Error("no commits after a restored start")
	}
	closeIt(d)

	// A file touched (same contents, new mtime) while down: not kept.
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(f, later, later); err != nil {
		t.Fatal(err)
	}
	d = restart()
	inc, _ = ingestStats(t, d, dir) // after a real start-up ingest: the in-memory shortcut
	if inc["restored"] == true {
		t.Errorf("a touched file kept the saved graph: %v", inc)
	}
	closeIt(d)

	// A commit moved HEAD while down: not kept either (history moved).
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("add", "-A")
	git("commit", "-q", "-m", "more")
	d = restart()
	inc, _ = ingestStats(t, d, dir)
	if inc["restored"] == true {
		t.Errorf("a new HEAD kept the saved graph: %v", inc)
	}
	closeIt(d)
}

// A server started on its saved graph, with no start-up ingest, builds the
// graph's seek index and query engine on its own, before any query asks:
// the first seek after a restart does not wait for a build. (The wait
// below bounds a failure, it does not time the build.)
func TestRestartBuildsIndexesBeforeTheFirstQuery(t *testing.T) {
	dir := fixture.Write(t)
	rt := filepath.Join(t.TempDir(), "rt")
	first := openServed(t, rt, dir)
	if err := first.Session.Close(); err != nil {
		t.Fatal(err)
	}

	d := openServed(t, rt, "")
	b := d.Session.Current()
	if b.Graph.NumNodes() == 0 {
		t.Fatal("the saved graph was not loaded")
	}
	deadline := time.Now().Add(time.Minute)
	for !session.Built(b, tools.SeekIndexKey) || !session.Built(b, session.EngineKey) {
		if time.Now().After(deadline) {
			t.Fatalf("a minute after the start, with no query: seek index built %v, engine built %v",
				session.Built(b, tools.SeekIndexKey), session.Built(b, session.EngineKey))
		}
		time.Sleep(10 * time.Millisecond)
	}
	waits := tools.SeekIndexWaits()
	raw, _ := json.Marshal(map[string]any{"agent_id": "t", "query": "main"})
	if res := d.Call(context.Background(), "seek", raw, nil); res.IsError {
		t.Fatalf("seek: %s", res.Text())
	}
	if got := tools.SeekIndexWaits() - waits; got != 0 {
		t.Fatalf("the first seek after the restart found the index not built (%d waits)", got)
	}
}

// TestRestartTakesSavedSeekDocuments: the server keeps its seek index's
// documents in the runtime directory, and a restart's first index — its
// read begun beside the graph's load — takes every file from them.
func TestRestartTakesSavedSeekDocuments(t *testing.T) {
	dir := fixture.Write(t)
	rt := filepath.Join(t.TempDir(), "rt")
	first := openServed(t, rt, dir)
	if _, err := tools.SeekIndex(first.Session, first.Session.Current()); err != nil {
		t.Fatal(err)
	}
	if err := first.Session.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(rt, tools.SeekBodiesFile)); err != nil {
		t.Fatalf("no documents saved at shutdown: %v", err)
	}

	d := openServed(t, rt, "")
	x, err := tools.SeekIndex(d.Session, d.Session.Current())
	if err != nil {
		t.Fatal(err)
	}
	if st := x.Stats(); st.FilesRead == 0 || st.FilesReused != st.FilesRead+st.FilesSkipped {
		t.Errorf("restart's index: %d files read, %d skipped, %d taken from the saved documents: want all taken",
			st.FilesRead, st.FilesSkipped, st.FilesReused)
	}
}
