package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

// The reliability probe of the writing tools, through the binary: a path
// swapped for a symlink between preview and commit, and two agents on two
// processes (owner and attached) committing previews of one file from the
// same base, round after round.

// TestWriteProbeSymlinkSwappedBeforeCommit: after a preview, the file's
// directory is replaced by a symlink to a copy outside the roots (same
// bytes, so the hash check alone would pass). The commit must not write
// outside the roots.
func TestWriteProbeSymlinkSwappedBeforeCommit(t *testing.T) {
	repo, rt, outside := fixture.Write(t), t.TempDir(), t.TempDir()
	p := startOwner(t, rt, repo)
	pv, isErr := p.tool(transport.Line, "edit_preview", map[string]any{"agent_id": "a", "file_path": "backend/session.py", "new_content": "SWAPPED = True\n"})
	if isErr {
		t.Fatalf("preview: %v", pv)
	}
	if out, err := exec.Command("cp", "-r", filepath.Join(repo, "backend"), filepath.Join(outside, "backend")).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	if err := os.Rename(filepath.Join(repo, "backend"), filepath.Join(repo, "backend.orig")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "backend"), filepath.Join(repo, "backend")); err != nil {
		t.Fatal(err)
	}
	out, isErr := p.tool(transport.Line, "edit_commit", map[string]any{"agent_id": "a", "preview_id": pv["preview_id"], "confirm": true})
	if !isErr {
		t.Errorf("commit through a swapped-in symlink was acknowledged: %v", out)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "backend", "session.py")); strings.Contains(string(b), "SWAPPED") {
		t.Fatal("the commit wrote outside the ingest roots")
	}
	t.Logf("refused: %v", out["error"])
}

// TestWriteProbeTwoAgentsOneFile: the owner's agent and an attached
// process's agent preview one file from the same base, then both commit
// at once. Every round exactly one commit is acknowledged and the file
// holds its content; the other is refused as stale.
func TestWriteProbeTwoAgentsOneFile(t *testing.T) {
	repo, rt := fixture.Write(t), t.TempDir()
	a := startOwner(t, rt, repo)
	b := start(t, nil, "--runtime-dir", rt, "--ingest", repo)
	b.initialize(transport.Line)
	rounds := 60
	if testing.Short() {
		rounds = 15
	}
	file := filepath.Join(repo, "docs", "notes.md")
	both := 0
	for r := range rounds {
		var ids [2]any
		for i, p := range []*proc{a, b} {
			pv, isErr := p.tool(transport.Line, "edit_preview", map[string]any{"agent_id": fmt.Sprintf("agent%d", i), "file_path": "docs/notes.md", "new_content": fmt.Sprintf("round %d by agent %d\n", r, i)})
			if isErr {
				t.Fatalf("round %d preview %d: %v", r, i, pv)
			}
			ids[i] = pv["preview_id"]
		}
		for i, p := range []*proc{a, b} {
			p.nextID++
			p.send(transport.Line, map[string]any{"jsonrpc": "2.0", "id": p.nextID, "method": "tools/call", "params": map[string]any{
				"name": "edit_commit", "arguments": map[string]any{"agent_id": fmt.Sprintf("agent%d", i), "preview_id": ids[i], "confirm": true, "reingest": false}}})
		}
		acked := -1
		for i, p := range []*proc{a, b} {
			m, _ := p.recv()
			res, _ := m["result"].(map[string]any)
			if res == nil {
				t.Fatalf("round %d: commit %d: %v", r, i, m)
			}
			if isErr, _ := res["isError"].(bool); isErr {
				text := res["content"].([]any)[0].(map[string]any)["text"].(string)
				var e map[string]any
				json.Unmarshal([]byte(text), &e)
				// Stale either way: the other commit changed the file, or
				// (round 0, when the previews create it) created it first.
				if msg := fmt.Sprint(e["error"]); !strings.Contains(msg, "changed") && !strings.Contains(msg, "expected to be absent but exists") {
					t.Fatalf("round %d: commit %d refused for another reason: %v", r, i, e)
				}
				continue
			}
			if acked >= 0 {
				both++
			}
			acked = i
		}
		got, _ := os.ReadFile(file)
		if acked < 0 || string(got) != fmt.Sprintf("round %d by agent %d\n", r, acked) {
			t.Fatalf("round %d: acknowledged %d, file holds %q", r, acked, got)
		}
	}
	if both > 0 {
		t.Fatalf("%d of %d rounds acknowledged both commits", both, rounds)
	}
}

// TestWriteProbeRootsThroughTheBinary: a server started on a code root
// with a docs folder merged beside it (ingested first) and a docs root
// nested in the code root, then restarted: apply_batch of a path under a
// file is refused and creates nothing; apply and edit_preview of a new
// module land in the code root and say so.
func TestWriteProbeRootsThroughTheBinary(t *testing.T) {
	base := t.TempDir()
	notes, code := filepath.Join(base, "notes"), filepath.Join(base, "flask")
	for rel, body := range map[string]string{
		"notes/refs.bib":              "@book{x, title={X}}\n",
		"notes/guide/intro.md":        "# Intro\n",
		"flask/src/flask/__init__.py": "from .signals import send\n",
		"flask/src/flask/signals.py":  "def send():\n    return 1\n",
		"flask/docs/index.rst":        "Flask\n=====\n",
	} {
		p := filepath.Join(base, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	rt := t.TempDir()
	p := start(t, nil, "--runtime-dir", rt, "--allow-root", base)
	p.initialize(transport.Line)
	must := func(p *proc, name string, args map[string]any) map[string]any {
		t.Helper()
		args["agent_id"] = "probe"
		out, isErr := p.tool(transport.Line, name, args)
		if isErr {
			t.Fatalf("%s: %v", name, out)
		}
		return out
	}
	must(p, "ingest", map[string]any{"path": notes, "adapter": "universal"})
	must(p, "ingest", map[string]any{"path": code, "mode": "merge"})
	must(p, "ingest", map[string]any{"path": filepath.Join(code, "docs"), "adapter": "universal", "mode": "merge"})
	if err := p.closeAndWait(); err != nil {
		t.Fatal(err)
	}
	// After a restart, as the probe found it.
	p = start(t, nil, "--runtime-dir", rt, "--allow-root", base)
	p.initialize(transport.Line)
	out, isErr := p.tool(transport.Line, "apply_batch", map[string]any{"agent_id": "probe", "edits": []any{
		map[string]any{"file_path": "src/flask/signals.py/sub.py", "new_content": "x = 1\n"}}})
	if !isErr || !strings.Contains(fmt.Sprint(out["error"]), "signals.py is a file") {
		t.Fatalf("a path under a file: %v", out)
	}
	out = must(p, "apply", map[string]any{"file_path": "src/flask/new_mod.py", "new_content": "def f():\n    return 2\n"})
	res := out["results"].([]any)[0].(map[string]any)
	if res["root"] != code || res["absolute_path"] != filepath.Join(code, "src", "flask", "new_mod.py") {
		t.Fatalf("apply wrote %v under root %v", res["absolute_path"], res["root"])
	}
	pv := must(p, "edit_preview", map[string]any{"file_path": "src/flask/other.py", "new_content": "y = 3\n"})
	if pv["root"] != code {
		t.Fatalf("edit_preview would write under %v", pv["root"])
	}
	if _, err := os.Stat(filepath.Join(notes, "src")); err == nil {
		t.Fatal("a write created directories in the docs folder")
	}
}
