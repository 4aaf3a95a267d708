package e2e

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

// repoRoot is this checkout: a real, mid-sized repository whose snapshot
// takes long enough to write that kills land mid-write.
func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// TestCrashSafety kills the server with SIGKILL at random moments while it
// ingests, queries and auto-persists after every query; each restart must
// load a complete graph (or none before the first save), never a torn one.
func TestCrashSafety(t *testing.T) {
	repo := frozenCopy(t, filepath.Join(repoRoot(t), "core"))
	rt := t.TempDir()
	env := []string{"M1ND_AUTO_PERSIST_INTERVAL=1"}

	// Reference: the node count a complete ingest gives.
	ref := start(t, nil, "--runtime-dir", t.TempDir())
	ref.initialize(transport.Line)
	began := time.Now()
	out, isErr := ref.tool(transport.Line, "ingest", map[string]any{"agent_id": "ref", "path": repo})
	// Kills land within twice what an ingest and its save take on this
	// machine now, so about half come after the first save however loaded
	// the machine is.
	window := 2*time.Since(began) + 100*time.Millisecond
	if isErr {
		t.Fatalf("reference ingest: %v", out)
	}
	want := out["graph"].(map[string]any)["node_count"].(float64)
	ref.closeAndWait()

	rng := rand.New(rand.NewPCG(42, 7))
	trials, loadedComplete, midWrite := 24, 0, 0
	for trial := 0; trial < trials; trial++ {
		p := start(t, env, "--runtime-dir", rt)
		killAfter := time.Duration(rng.Int64N(int64(window)))
		go func() {
			time.Sleep(killAfter)
			p.cmd.Process.Signal(syscall.SIGKILL)
		}()
		// Drive work until the kill lands; write errors after it are expected.
		driveUntilDead(p, repo)
		p.cmd.Wait()

		// Restart and inspect what loaded.
		r := start(t, nil, "--runtime-dir", rt)
		r.initialize(transport.Line)
		h, _ := r.tool(transport.Line, "health", map[string]any{"agent_id": "check"})
		got := h["node_count"].(float64)
		logs := r.stderr.String()
		if strings.Contains(logs, "could not be loaded") || strings.Contains(logs, "plasticity state not loaded") {
			t.Fatalf("trial %d (kill after %v): restart found a damaged file:\n%s", trial, killAfter, logs)
		}
		_, statErr := os.Stat(filepath.Join(rt, "graph.bin"))
		switch {
		case statErr == nil && got != want:
			t.Fatalf("trial %d: restart loaded %v nodes, a complete graph has %v", trial, got, want)
		case statErr == nil:
			loadedComplete++
		case got != 0:
			t.Fatalf("trial %d: no snapshot but %v nodes", trial, got)
		}
		if err := r.closeAndWait(); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(logs, "interrupted write") {
			midWrite++
		}
		if leftovers, _ := filepath.Glob(filepath.Join(rt, ".*.tmp-*")); len(leftovers) > 0 {
			t.Errorf("trial %d: temp files survived the restart: %v", trial, leftovers)
		}
	}
	t.Logf("%d trials: %d restarts loaded a complete snapshot, %d kills landed mid-write", trials, loadedComplete, midWrite)
	if loadedComplete < trials/2 {
		t.Errorf("only %d of %d restarts had a snapshot; the kills came too early to test anything", loadedComplete, trials)
	}
}

// frozenCopy copies a source tree into a temporary directory, so files
// edited while the test runs cannot change the expected graph.
func frozenCopy(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() || strings.HasSuffix(path, ".test") || strings.HasSuffix(path, ".prof") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// driveUntilDead sends ingest and queries (line framing) until the process
// dies, without failing the test on the broken pipe that follows a kill.
func driveUntilDead(p *proc, repo string) {
	write := func(s string) bool {
		_, err := p.in.Write([]byte(s + "\n"))
		return err == nil
	}
	if !write(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"crash","version":"1"}}}`) ||
		!write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`) {
		return
	}
	go func() {
		for {
			if _, _, err := p.out.Next(); err != nil {
				return
			}
		}
	}()
	for i := 2; ; i++ {
		var msg string
		if i%4 == 2 {
			msg = `{"jsonrpc":"2.0","id":` + itoa(i) + `,"method":"tools/call","params":{"name":"ingest","arguments":{"agent_id":"crash","path":"` + repo + `"}}}`
		} else {
			msg = `{"jsonrpc":"2.0","id":` + itoa(i) + `,"method":"tools/call","params":{"name":"learn","arguments":{"agent_id":"crash","query":"graph","feedback":"correct","node_ids":["file::graph/graph.go"]}}}`
		}
		if !write(msg) {
			return
		}
		time.Sleep(20 * time.Millisecond)
		if p.cmd.ProcessState != nil {
			return
		}
		if err := p.cmd.Process.Signal(syscall.Signal(0)); err != nil {
			return
		}
	}
}

func itoa(i int) string {
	b := []byte{}
	for i > 0 {
		b = append([]byte{byte('0' + i%10)}, b...)
		i /= 10
	}
	if len(b) == 0 {
		return "0"
	}
	return string(b)
}

// TestSignalPersistsAndRestartLoads: SIGTERM persists and exits 0; the
// restart serves the same graph.
func TestSignalPersistsAndRestartLoads(t *testing.T) {
	rt := t.TempDir()
	repo := repoRoot(t)
	p := start(t, nil, "--runtime-dir", rt, "--allow-root", filepath.Join(repo, "core"))
	p.initialize(transport.Framed)
	out, isErr := p.tool(transport.Framed, "ingest", map[string]any{"agent_id": "sig", "path": filepath.Join(repo, "core")})
	if isErr {
		t.Fatal(out)
	}
	nodes := out["graph"].(map[string]any)["node_count"]
	p.tool(transport.Framed, "learn", map[string]any{"agent_id": "sig", "query": "pagerank", "feedback": "correct", "node_ids": []string{"file::graph/pagerank.go"}})
	p.cmd.Process.Signal(syscall.SIGTERM)
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v (%s)", err, p.stderr.String())
	}
	r := start(t, nil, "--runtime-dir", rt)
	r.initialize(transport.Line)
	h, _ := r.tool(transport.Line, "health", map[string]any{"agent_id": "sig"})
	if h["node_count"] != nodes || h["plasticity"].(map[string]any)["learned_edges"].(float64) == 0 {
		t.Errorf("after restart: %v nodes (want %v), plasticity %v", h["node_count"], nodes, h["plasticity"])
	}
	roots := h["ingest_roots"].([]any)
	if len(roots) != 1 || roots[0].(map[string]any)["path"] != filepath.Join(repo, "core") {
		t.Errorf("ingest roots not restored: %v", roots)
	}
	d, _ := r.tool(transport.Line, "drift", map[string]any{"agent_id": "sig", "since": "last_session"})
	if d["baseline"].(map[string]any)["source"] != "previous_session" || d["edges_changed"].(float64) == 0 {
		t.Errorf("drift since last_session after restart: %v", d)
	}
	r.closeAndWait()
}

func TestSecondServerOnRuntimeDirExplains(t *testing.T) {
	rt := t.TempDir()
	p := start(t, nil, "--runtime-dir", rt)
	p.initialize(transport.Line)
	cmd := exec.Command(serverBin, "--runtime-dir", rt, "--no-attach")
	cmd.Stdin = strings.NewReader("")
	outb, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatal("second server on the same runtime dir started")
	}
	msg := string(outb)
	for _, want := range []string{"in use", "pid", "--runtime-dir"} {
		if !strings.Contains(msg, want) {
			t.Errorf("second server's message lacks %q: %s", want, msg)
		}
	}
	p.closeAndWait()
}

func TestHelpAndVersionFlags(t *testing.T) {
	for _, arg := range []string{"--help", "--version"} {
		out, err := exec.Command(serverBin, arg).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "m1nd-mcp") {
			t.Errorf("%s: %v %s", arg, err, out)
		}
	}
	if err := exec.Command(serverBin, "--bogus").Run(); err == nil {
		t.Error("unknown flag accepted")
	}
}

// TestKillBetweenJournalAndSnapshot: an ingest is answered once its
// record is in the journal, and its snapshot is written behind the
// answer. A SIGKILL before that snapshot lands loses nothing the answer
// claimed: the restart builds the ingest again from the record (and
// replays the learn call made after it), then saves. The snapshot's place
// is taken by a directory while the server runs, so the save behind the
// answer cannot land whatever the timing.
func TestKillBetweenJournalAndSnapshot(t *testing.T) {
	repo := frozenCopy(t, filepath.Join(repoRoot(t), "core", "graph"))
	rt := t.TempDir()
	p := start(t, nil, "--runtime-dir", rt, "--allow-root", repo)
	p.initialize(transport.Line)
	snap := filepath.Join(rt, "graph.bin")
	if err := os.MkdirAll(filepath.Join(snap, "blocked"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, isErr := p.tool(transport.Line, "ingest", map[string]any{"agent_id": "kill", "path": repo})
	if isErr {
		t.Fatalf("ingest: %v", out)
	}
	persisted := out["persisted"].(map[string]any)
	if persisted["durable"] != true || !strings.Contains(fmt.Sprint(persisted["reason"]), "journaled") {
		t.Fatalf("ingest answered %v, want durable by its journal record", persisted)
	}
	nodes := out["graph"].(map[string]any)["node_count"]
	if l, isErr := p.tool(transport.Line, "learn", map[string]any{"agent_id": "kill", "query": "csr", "feedback": "correct", "node_ids": []string{"file::csr.go"}}); isErr {
		t.Fatalf("learn: %v", l)
	}
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.cmd.Wait()
	if st, err := os.Stat(snap); err != nil || !st.IsDir() {
		t.Fatalf("the snapshot landed after all (%v): the test proves nothing", err)
	}
	os.RemoveAll(snap)

	r := start(t, nil, "--runtime-dir", rt, "--allow-root", repo)
	r.initialize(transport.Line)
	h, _ := r.tool(transport.Line, "health", map[string]any{"agent_id": "check"})
	if h["node_count"] != nodes {
		t.Fatalf("restart serves %v nodes, the answered ingest had %v\n%s", h["node_count"], nodes, r.stderr.String())
	}
	if h["plasticity"].(map[string]any)["learned_edges"].(float64) == 0 {
		t.Errorf("the learn call after the ingest was lost: %v", h["plasticity"])
	}
	if !strings.Contains(r.stderr.String(), "restored the ingest") {
		t.Errorf("the restart did not say it restored the ingest:\n%s", r.stderr.String())
	}
	if _, err := os.Stat(snap); err != nil {
		t.Errorf("the recovery did not save the graph: %v", err)
	}
	r.closeAndWait()
}
