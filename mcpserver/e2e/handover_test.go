package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

// TestSDKCloseHandsTheGraphOver: two editors on one runtime directory
// through the official TypeScript SDK (npm/handover.mjs). The first
// editor's close() — stdin ended, SIGTERM 2 s later, SIGKILL 2 s after
// that — stops the process that holds the graph; the second editor's
// session goes on without an error (its process takes the graph over)
// and sees the learning it does after; when it closes too, no m1nd
// process is left and the runtime directory is free, with the learning
// saved.
func TestSDKCloseHandsTheGraphOver(t *testing.T) {
	dir := npmClient(t, "@modelcontextprotocol/sdk")
	repo, rt := fixture.Write(t), t.TempDir()
	cmd := exec.Command("node", "handover.mjs", serverBin, repo, rt)
	cmd.Dir = dir
	var stderr syncBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client failed: %v\n%s\n%s", err, out, stderr.String())
	}
	t.Logf("handover summary: %s", out)
	var sum struct {
		Pids       []int     `json:"pids"`
		Nodes      []float64 `json:"nodes"`
		CloseOneMs float64   `json:"close_one_ms"`
		OneEnded   ended     `json:"one_ended"`
		DuringOK   int       `json:"during_ok"`
		DuringErrs []string  `json:"during_errors"`
		Seek       int       `json:"seek_results"`
		LearnedTop string    `json:"learned_top"`
		RankAfter  int       `json:"learned_rank_after"`
		Learned    float64   `json:"learned_edges"`
		CloseTwoMs float64   `json:"close_two_ms"`
		TwoEnded   ended     `json:"two_ended"`
	}
	if err := json.Unmarshal(out, &sum); err != nil {
		t.Fatalf("client output %q: %v", out, err)
	}
	logs := stderr.String()
	if testing.Verbose() {
		t.Logf("the servers' logs:\n%s", logs)
	}
	if sum.Nodes[0] == 0 || sum.Nodes[1] != sum.Nodes[0] || sum.Nodes[2] != sum.Nodes[0] {
		t.Errorf("node counts owner %v, attached %v, after the handover %v", sum.Nodes[0], sum.Nodes[1], sum.Nodes[2])
	}
	// The owner stopped on the SDK's SIGTERM and exited by itself (0),
	// not by the SIGKILL that follows 2 s later.
	if sum.OneEnded.Signal != "" || sum.OneEnded.Code == nil || *sum.OneEnded.Code != 0 {
		t.Errorf("the first server ended with %+v (SIGKILL means it did not stop within 2 s of SIGTERM)\n%s", sum.OneEnded, logs)
	}
	for _, e := range sum.DuringErrs {
		// Allowed, but only as the relay's retryable answer.
		if !strings.Contains(e, "call it again") {
			t.Errorf("a call during the handover failed without saying it can be retried: %s", e)
		}
	}
	if sum.DuringOK == 0 {
		t.Errorf("no call succeeded while the first client closed")
	}
	if sum.Seek == 0 {
		t.Errorf("seek after the handover found nothing")
	}
	if sum.RankAfter >= 0 && sum.RankAfter < 3 {
		t.Errorf("after learn wrong ×3 on the new server, %s is still #%d", sum.LearnedTop, sum.RankAfter+1)
	}
	// The second server, owner by now with no one attached, stops at the
	// end of its stdin (normally before the SDK's SIGTERM; either way
	// cleanly).
	if sum.TwoEnded.Signal != "" || sum.TwoEnded.Code == nil || *sum.TwoEnded.Code != 0 {
		t.Errorf("the second server ended with %+v after %v ms\n%s", sum.TwoEnded, sum.CloseTwoMs, logs)
	}
	for _, want := range []string{"handing 1 attached client(s) over", "took the runtime directory over"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the servers' logs lack %q:\n%s", want, logs)
		}
	}
	for _, pid := range sum.Pids {
		if syscall.Kill(pid, 0) == nil {
			t.Errorf("m1nd-mcp pid %d still runs", pid)
		}
	}
	t.Logf("close of the first client took %v ms (SDK: 2 s wait after stdin's end, then SIGTERM); %d calls answered during it, %d errors", sum.CloseOneMs, sum.DuringOK, len(sum.DuringErrs))

	// The runtime directory is free, and holds what was learned.
	f, err := os.OpenFile(filepath.Join(rt, session.LockFileName), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Errorf("the runtime directory is still locked: %v", err)
	}
	f.Close()
	r := start(t, nil, "--runtime-dir", rt, "--no-attach")
	r.initialize(transport.Line)
	if h, _ := r.tool(transport.Line, "health", map[string]any{"agent_id": "r"}); num(h, "node_count") != sum.Nodes[0] || num(h, "plasticity", "learned_edges") == 0 {
		t.Errorf("restart after both clients left: %v nodes, plasticity %v", h["node_count"], h["plasticity"])
	}
	r.closeAndWait()
}

type ended struct {
	Code   *int   `json:"exit_code"`
	Signal string `json:"signal"`
}

// TestAttachedTakesOverWhenOwnerStops (it replaces the test that wanted
// attached clients told and dropped): SIGTERM to the owner; its two
// attached processes carry on — one takes the runtime directory over and
// loads the saved graph, the other attaches to it — with the learning
// done before and after; both leave cleanly and the state is saved.
func TestAttachedTakesOverWhenOwnerStops(t *testing.T) {
	repo, rt := fixture.Write(t), t.TempDir()
	a := startOwner(t, rt, repo)
	b := start(t, nil, "--runtime-dir", rt)
	b.initialize(transport.Line)
	c := start(t, nil, "--runtime-dir", rt)
	c.initialize(transport.Framed)
	hb, _ := b.tool(transport.Line, "health", map[string]any{"agent_id": "b"})
	if l, isErr := b.tool(transport.Line, "learn", map[string]any{"agent_id": "b", "query": "session store", "feedback": "correct", "node_ids": []string{"file::backend/session.py"}}); isErr {
		t.Fatalf("learn: %v", l)
	}

	a.cmd.Process.Signal(syscall.SIGTERM)
	if err := waitExit(t, a); err != nil {
		t.Fatalf("owner after SIGTERM: %v (stderr: %s)", err, a.stderr.String())
	}
	for _, p := range []*proc{b, c} {
		mode := transport.Line
		if p == c {
			mode = transport.Framed
		}
		h, isErr := p.tool(mode, "health", map[string]any{"agent_id": "x"})
		if isErr || num(h, "node_count") != num(hb, "node_count") || num(h, "plasticity", "learned_edges") == 0 {
			t.Errorf("after the owner stopped: %v nodes (want %v), plasticity %v", h["node_count"], hb["node_count"], h["plasticity"])
		}
	}
	// One graph still: c's learning shows in b's answers.
	lc, _ := c.tool(transport.Framed, "learn", map[string]any{"agent_id": "c", "query": "login", "feedback": "correct", "node_ids": []string{"file::backend/auth.py"}})
	lb, _ := b.tool(transport.Line, "learn", map[string]any{"agent_id": "b", "query": "payments", "feedback": "correct", "node_ids": []string{"file::backend/payments.py"}})
	if num(lb, "plasticity_generation") <= num(lc, "plasticity_generation") {
		t.Errorf("plasticity generation %v after the other client's %v: two graphs", lb["plasticity_generation"], lc["plasticity_generation"])
	}
	took, followed := 0, 0
	for _, p := range []*proc{b, c} {
		if strings.Contains(p.stderr.String(), "took the runtime directory over") {
			took++
		}
		if strings.Contains(p.stderr.String(), "the session continues on the server pid") {
			followed++
		}
	}
	if took != 1 || followed != 2 {
		t.Errorf("%d processes took over, %d sessions continued:\n%s\n%s", took, followed, b.stderr.String(), c.stderr.String())
	}
	// Whichever took over serves the other until it leaves: end both
	// clients' input first, then wait for both.
	for _, p := range []*proc{b, c} {
		p.in.Close()
	}
	for _, p := range []*proc{b, c} {
		if err := waitExit(t, p); err != nil {
			t.Errorf("exit: %v (stderr: %s)", err, p.stderr.String())
		}
	}
	r := start(t, nil, "--runtime-dir", rt, "--no-attach")
	r.initialize(transport.Line)
	if h, _ := r.tool(transport.Line, "health", map[string]any{"agent_id": "r"}); num(h, "plasticity", "learned_edges") == 0 {
		t.Errorf("restart: plasticity %v", h["plasticity"])
	}
	r.closeAndWait()
}

// TestAttachedTakesOverWhenOwnerIsKilled: kill -9 gives no handover; the
// attached process still takes the directory over, from the last durable
// state — which holds every acknowledged learn.
func TestAttachedTakesOverWhenOwnerIsKilled(t *testing.T) {
	repo, rt := fixture.Write(t), t.TempDir()
	a := startOwner(t, rt, repo)
	b := start(t, nil, "--runtime-dir", rt)
	b.initialize(transport.Line)
	if l, isErr := b.tool(transport.Line, "learn", map[string]any{"agent_id": "b", "query": "session store", "feedback": "correct", "node_ids": []string{"file::backend/session.py"}}); isErr || l["durable"] != true {
		t.Fatalf("learn: %v", l)
	}
	a.killNow()
	h, isErr := b.tool(transport.Line, "health", map[string]any{"agent_id": "b"})
	if isErr || num(h, "node_count") == 0 || num(h, "plasticity", "learned_edges") == 0 {
		t.Errorf("after the owner was killed: %v", h)
	}
	if !strings.Contains(b.stderr.String(), "was lost (was it killed?)") {
		t.Errorf("stderr: %s", b.stderr.String())
	}
	if err := b.closeAndWait(); err != nil {
		t.Fatal(err)
	}
}

// TestHandoverCallsOffALongCall: an attached client's ingest runs on the
// owner when it is stopped; the call gets a retryable JSON-RPC error (not
// a hang), nothing of it is kept, and the session goes on.
func TestHandoverCallsOffALongCall(t *testing.T) {
	repo, rt := fixture.Write(t), t.TempDir()
	big, slow := slowHistoryRepo(t)
	a := start(t, slow, "--runtime-dir", rt, "--ingest", repo)
	a.initialize(transport.Line)
	b := start(t, nil, "--runtime-dir", rt)
	b.initialize(transport.Line)
	before, _ := b.tool(transport.Line, "health", map[string]any{"agent_id": "b"})
	b.send(transport.Line, map[string]any{"jsonrpc": "2.0", "id": 42, "method": "tools/call", "params": map[string]any{
		"name": "ingest", "arguments": map[string]any{"agent_id": "b", "path": big}, "_meta": map[string]any{"progressToken": "p"}}})
	if m := b.awaitProgress(42); m != nil {
		t.Fatalf("the ingest finished before it could be interrupted (the input is too small for this machine): %v", m)
	}
	stopped := time.Now()
	a.cmd.Process.Signal(syscall.SIGTERM)
	var m map[string]any
	for {
		m, _ = b.recv()
		if m["id"] == float64(42) {
			break
		}
	}
	answered := time.Since(stopped)
	e, _ := m["error"].(map[string]any)
	data, _ := e["data"].(map[string]any)
	if e == nil || data["retryable"] != true || !strings.Contains(fmt.Sprint(e["message"]), "call it again") {
		t.Fatalf("the call in flight got %v", m)
	}
	t.Logf("the ingest in flight was answered %v after the owner's SIGTERM: %v", answered.Round(time.Millisecond), e["message"])
	if err := waitExit(t, a); err != nil {
		t.Fatal(err)
	}
	h, _ := b.tool(transport.Line, "health", map[string]any{"agent_id": "b"})
	if num(h, "node_count") != num(before, "node_count") || fmt.Sprint(h["ingest_roots"]) != fmt.Sprint(before["ingest_roots"]) {
		t.Errorf("after the handover: %v nodes, roots %v; before: %v, %v", h["node_count"], h["ingest_roots"], before["node_count"], before["ingest_roots"])
	}
	if err := b.closeAndWait(); err != nil {
		t.Fatal(err)
	}
}
