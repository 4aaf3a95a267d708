package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=e2e", "-c", "user.email=e2e@example.com"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// eventually polls a tool until cond holds; the bound only keeps a broken
// daemon from hanging the run.
func eventually(t *testing.T, p *proc, what string, cond func() bool) {
	t.Helper()
	for i := 0; i < 1500; i++ {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	st, _ := p.tool(transport.Line, "daemon_status", map[string]any{"agent_id": "e2e"})
	t.Fatalf("timed out waiting for %s; daemon status %v\nstderr:\n%s", what, st, p.stderr.String())
}

func inGraph(p *proc, id string) bool {
	_, isErr := p.tool(transport.Line, "impact", map[string]any{"agent_id": "e2e", "node_id": id, "top_k": 1})
	return !isErr
}

// A branch switch touching hundreds of files is one coalesced update; the
// daemon resumes after a restart; a FIFO, a dangling symlink and finally
// the deletion of the watched tree itself raise alerts, never a crash.
func TestDaemonThroughTheBinary(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo, rt := fixture.Write(t), t.TempDir()
	git(t, repo, "checkout", "-q", "-b", "feature")
	for i := 0; i < 300; i++ {
		os.MkdirAll(filepath.Join(repo, "feature", fmt.Sprintf("m%02d", i%30)), 0o755)
		os.WriteFile(filepath.Join(repo, "feature", fmt.Sprintf("m%02d", i%30), fmt.Sprintf("f%03d.py", i)), []byte(fmt.Sprintf("def feature_%d():\n    return %d\n", i, i)), 0o644)
	}
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "feature: 300 files")
	git(t, repo, "checkout", "-q", "master")

	p := start(t, nil, "--runtime-dir", rt)
	p.initialize(transport.Line)
	if out, isErr := p.tool(transport.Line, "ingest", map[string]any{"agent_id": "e2e", "path": repo}); isErr {
		t.Fatalf("ingest: %v", out)
	}
	if st, isErr := p.tool(transport.Line, "daemon_start", map[string]any{"agent_id": "e2e"}); isErr || st["active"] != true {
		t.Fatalf("daemon_start: %v", st)
	}
	git(t, repo, "checkout", "-q", "feature")
	eventually(t, p, "the feature branch in the graph", func() bool { return inGraph(p, "file::feature/m29/f299.py") })
	time.Sleep(1500 * time.Millisecond) // let any straggling tick run before counting
	st, _ := p.tool(transport.Line, "daemon_status", map[string]any{"agent_id": "e2e"})
	if ticks := st["tick_count"].(float64); ticks > 2 {
		t.Errorf("a checkout of 300 files took %v ticks, want one update (two at most on a loaded machine)", ticks)
	}
	alerts, _ := p.tool(transport.Line, "alerts_list", map[string]any{"agent_id": "e2e"})
	if !strings.Contains(fmt.Sprint(alerts), "head_moved") {
		t.Errorf("no head_moved alert after a branch switch: %v", alerts)
	}
	if err := p.closeAndWait(); err != nil {
		t.Fatal(err)
	}

	// A restart resumes watching, and first reconciles what changed while
	// no server watched.
	os.WriteFile(filepath.Join(repo, "backend", "while_down.py"), []byte("def offline():\n    return 0\n"), 0o644)
	p = start(t, nil, "--runtime-dir", rt)
	p.initialize(transport.Line)
	if st, _ := p.tool(transport.Line, "daemon_status", map[string]any{"agent_id": "e2e"}); st["active"] != true {
		t.Fatalf("daemon not resumed after a restart: %v", st)
	}
	eventually(t, p, "a file written while the server was down", func() bool { return inGraph(p, "file::backend/while_down.py") })
	os.WriteFile(filepath.Join(repo, "backend", "after_restart.py"), []byte("def later():\n    return 1\n"), 0o644)
	eventually(t, p, "a file written after the restart", func() bool { return inGraph(p, "file::backend/after_restart.py") })

	// Files nobody can read as source: the daemon goes on.
	syscall.Mkfifo(filepath.Join(repo, "backend", "pipe.py"), 0o644)
	os.Symlink(filepath.Join(repo, "nowhere.py"), filepath.Join(repo, "backend", "dangling.py"))
	os.WriteFile(filepath.Join(repo, "backend", "after_fifo.py"), []byte("def fifo_ok():\n    return 2\n"), 0o644)
	eventually(t, p, "a file written next to a FIFO", func() bool { return inGraph(p, "file::backend/after_fifo.py") })

	// The watched tree disappears: an alert, and the server still answers.
	// The watcher's own tick may see the deletion first and raise the
	// alert (the manual tick then repeats nothing): count the alerts.
	alertIDs := func() map[string]bool {
		list, _ := p.tool(transport.Line, "alerts_list", map[string]any{"agent_id": "e2e"})
		ids := map[string]bool{}
		for _, a := range list["alerts"].([]any) {
			ids[a.(map[string]any)["alert_id"].(string)] = true
		}
		return ids
	}
	before := alertIDs()
	os.RemoveAll(repo)
	tick, isErr := p.tool(transport.Line, "daemon_tick", map[string]any{"agent_id": "e2e"})
	if isErr {
		t.Fatalf("daemon_tick after the tree was deleted: %v", tick)
	}
	newAlerts := 0
	for id := range alertIDs() {
		if !before[id] {
			newAlerts++
		}
	}
	if newAlerts < 1 {
		t.Errorf("no alert when the watched tree vanished: %v", tick)
	}
	if _, isErr := p.tool(transport.Line, "health", map[string]any{"agent_id": "e2e"}); isErr {
		t.Error("health fails after the watched tree vanished")
	}
	if err := p.closeAndWait(); err != nil {
		t.Fatalf("server exit: %v\n%s", err, p.stderr.String())
	}
}

// seekFinds reports whether seek's answer to query names a node of path.
func seekFinds(p *proc, query, path string) bool {
	out, isErr := p.tool(transport.Line, "seek", map[string]any{"agent_id": "e2e", "query": query, "top_k": 5})
	if isErr {
		return false
	}
	rs, _ := out["results"].([]any)
	for _, r := range rs {
		if m, _ := r.(map[string]any); m["file_path"] == path {
			return true
		}
	}
	return false
}

// dependents lists the node ids impact names as depending on id.
func dependents(p *proc, id string) string {
	out, isErr := p.tool(transport.Line, "impact", map[string]any{"agent_id": "e2e", "node_id": id, "top_k": 50})
	if isErr {
		return ""
	}
	return fmt.Sprint(out["blast_radius"])
}

// With the daemon on, a file created, edited, renamed and deleted in the
// checkout is followed by seek and impact with no call but queries.
func TestDaemonFollowsEdits(t *testing.T) {
	repo := fixture.Write(t)
	p := start(t, nil, "--runtime-dir", t.TempDir())
	p.initialize(transport.Line)
	if out, isErr := p.tool(transport.Line, "ingest", map[string]any{"agent_id": "e2e", "path": repo}); isErr {
		t.Fatalf("ingest: %v", out)
	}
	if st, isErr := p.tool(transport.Line, "daemon_start", map[string]any{"agent_id": "e2e"}); isErr || st["active"] != true {
		t.Fatalf("daemon_start: %v", st)
	}
	ledger := filepath.Join(repo, "backend", "ledger.py")
	os.WriteFile(ledger, []byte("def reconcile_ledger_entries(entries):\n    return sorted(entries)\n"), 0o644)
	eventually(t, p, "seek to find a created file", func() bool {
		return seekFinds(p, "reconcile ledger entries", "backend/ledger.py")
	})

	os.WriteFile(ledger, []byte("from backend.payments import charge\n\n\ndef reconcile_ledger_entries(store, request, entries):\n    return [charge(store, request, e) for e in sorted(entries)]\n"), 0o644)
	eventually(t, p, "impact to see an edit's new import", func() bool {
		return strings.Contains(dependents(p, "file::backend/payments.py"), "backend/ledger.py")
	})

	books := filepath.Join(repo, "backend", "books.py")
	if err := os.Rename(ledger, books); err != nil {
		t.Fatal(err)
	}
	eventually(t, p, "a rename to replace the old file by the new", func() bool {
		d := dependents(p, "file::backend/payments.py")
		return strings.Contains(d, "backend/books.py") && !strings.Contains(d, "backend/ledger.py") && !inGraph(p, "file::backend/ledger.py")
	})

	os.Remove(books)
	eventually(t, p, "a deleted file to leave the graph", func() bool {
		return !inGraph(p, "file::backend/books.py") && !strings.Contains(dependents(p, "file::backend/payments.py"), "backend/books.py")
	})

	// A manifest: a new one adds the package, a dependency added to it
	// its node; one removed takes it away.
	manifest := filepath.Join(repo, "pyproject.toml")
	os.WriteFile(manifest, []byte("[project]\nname = \"shop\"\ndependencies = [\"requests\"]\n"), 0o644)
	eventually(t, p, "a new manifest's package", func() bool { return inGraph(p, "package::pypi::requests") })
	os.WriteFile(manifest, []byte("[project]\nname = \"shop\"\ndependencies = [\"requests\", \"stripe\"]\n"), 0o644)
	eventually(t, p, "a dependency added to a manifest", func() bool { return inGraph(p, "package::pypi::stripe") })
	os.WriteFile(manifest, []byte("[project]\nname = \"shop\"\ndependencies = [\"requests\"]\n"), 0o644)
	eventually(t, p, "a dependency removed from a manifest", func() bool { return !inGraph(p, "package::pypi::stripe") })
	if err := p.closeAndWait(); err != nil {
		t.Fatalf("server exit: %v\n%s", err, p.stderr.String())
	}
}
