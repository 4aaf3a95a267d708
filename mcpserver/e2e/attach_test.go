package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

// startOwner starts the server that holds rt, ingesting repo, and returns
// once it answers (its socket is up before it serves stdio).
func startOwner(t *testing.T, rt, repo string, args ...string) *proc {
	t.Helper()
	a := start(t, nil, append([]string{"--runtime-dir", rt, "--ingest", repo}, args...)...)
	a.initialize(transport.Line)
	return a
}

// waitStderr waits until p has logged want (a hang guard, not a timing
// assertion).
func waitStderr(t *testing.T, p *proc, want string) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); !strings.Contains(p.stderr.String(), want); {
		if time.Now().After(deadline) {
			t.Fatalf("stderr never said %q: %s", want, p.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func num(m map[string]any, keys ...string) float64 {
	for _, k := range keys[:len(keys)-1] {
		m, _ = m[k].(map[string]any)
	}
	f, _ := m[keys[len(keys)-1]].(float64)
	return f
}

func TestAttachSharesGraphAndLearning(t *testing.T) {
	repo, other, rt := fixture.Write(t), fixture.Write(t), t.TempDir()
	a := startOwner(t, rt, repo)
	ha, _ := a.tool(transport.Line, "health", map[string]any{"agent_id": "a"})
	if num(ha, "plasticity", "learned_edges") != 0 {
		t.Fatalf("learned edges before any learn: %v", ha["plasticity"])
	}

	b := start(t, nil, "--runtime-dir", rt, "--ingest", other)
	b.initialize(transport.Framed)
	hb, _ := b.tool(transport.Framed, "health", map[string]any{"agent_id": "b"})
	if num(hb, "node_count") == 0 || num(hb, "node_count") != num(ha, "node_count") || num(hb, "edge_count") != num(ha, "edge_count") {
		t.Errorf("attached health %v nodes %v edges, owner %v / %v", hb["node_count"], hb["edge_count"], ha["node_count"], ha["edge_count"])
	}
	if fmt.Sprint(hb["ingest_roots"]) != fmt.Sprint(ha["ingest_roots"]) {
		t.Errorf("attached roots %v, owner %v", hb["ingest_roots"], ha["ingest_roots"])
	}
	lb, isErr := b.tool(transport.Line, "learn", map[string]any{"agent_id": "b", "query": "session store", "feedback": "correct", "node_ids": []string{"file::backend/session.py"}})
	if isErr || num(lb, "edges_adjusted") == 0 {
		t.Fatalf("learn through the attached client: %v", lb)
	}

	// The owner's engine has the attached client's learning.
	if h, _ := a.tool(transport.Framed, "health", map[string]any{"agent_id": "a"}); num(h, "plasticity", "learned_edges") == 0 {
		t.Errorf("owner's health shows no learned edges: %v", h["plasticity"])
	}
	la, _ := a.tool(transport.Line, "learn", map[string]any{"agent_id": "a", "query": "login", "feedback": "correct", "node_ids": []string{"file::backend/auth.py"}})
	if num(la, "plasticity_generation") <= num(lb, "plasticity_generation") {
		t.Errorf("plasticity generation %v after the attached client's %v: not one counter", la["plasticity_generation"], lb["plasticity_generation"])
	}

	if err := b.closeAndWait(); err != nil {
		t.Fatalf("attached client exit: %v", err)
	}
	for _, want := range []string{
		fmt.Sprintf("attached to the running server (pid %d)", a.cmd.Process.Pid),
		"--ingest " + other + " not done",
	} {
		if !strings.Contains(b.stderr.String(), want) {
			t.Errorf("attached stderr lacks %q: %s", want, b.stderr.String())
		}
	}
	// The owner outlives it, and did not ingest the other root.
	if h, _ := a.tool(transport.Framed, "health", map[string]any{"agent_id": "a"}); num(h, "node_count") != num(ha, "node_count") || fmt.Sprint(h["ingest_roots"]) != fmt.Sprint(ha["ingest_roots"]) {
		t.Errorf("owner after the attached client left: %v nodes, roots %v", h["node_count"], h["ingest_roots"])
	}
	if err := a.closeAndWait(); err != nil {
		t.Fatal(err)
	}
}

func TestAttachOwnerOutlivesItsStdin(t *testing.T) {
	repo, rt := fixture.Write(t), t.TempDir()
	a := startOwner(t, rt, repo)
	b := start(t, nil, "--runtime-dir", rt)
	b.initialize(transport.Framed)
	c := start(t, nil, "--runtime-dir", rt)
	c.initialize(transport.Line)

	a.in.Close() // the first editor leaves
	waitStderr(t, a, "still serving 2 attached client(s)")
	if l, isErr := b.tool(transport.Framed, "learn", map[string]any{"agent_id": "b", "query": "payments", "feedback": "correct", "node_ids": []string{"file::backend/payments.py"}}); isErr {
		t.Fatalf("learn after the owner's stdin closed: %v", l)
	}
	if err := b.closeAndWait(); err != nil {
		t.Fatal(err)
	}
	if h, _ := c.tool(transport.Line, "health", map[string]any{"agent_id": "c"}); num(h, "plasticity", "learned_edges") == 0 {
		t.Errorf("last attached client: %v", h)
	}
	if err := c.closeAndWait(); err != nil {
		t.Fatal(err)
	}
	if err := waitExit(t, a); err != nil {
		t.Fatalf("owner after the last attached client left: %v (stderr: %s)", err, a.stderr.String())
	}

	// It persisted: the next server owns the directory and has the learning.
	r := start(t, nil, "--runtime-dir", rt)
	r.initialize(transport.Line)
	if h, _ := r.tool(transport.Line, "health", map[string]any{"agent_id": "r"}); num(h, "node_count") == 0 || num(h, "plasticity", "learned_edges") == 0 {
		t.Errorf("restart after the owner left: %v nodes, plasticity %v", h["node_count"], h["plasticity"])
	}
	if err := r.closeAndWait(); err != nil || strings.Contains(r.stderr.String(), "attached to") {
		t.Errorf("restart should own the directory: %v (stderr: %s)", err, r.stderr.String())
	}
}

func TestNoAttachRefuses(t *testing.T) {
	repo, rt := fixture.Write(t), t.TempDir()
	a := startOwner(t, rt, repo)
	b := start(t, nil, "--runtime-dir", rt, "--no-attach")
	if err := waitExit(t, b); err == nil || !strings.Contains(b.stderr.String(), fmt.Sprintf("in use by another m1nd server: %s", rt)) || !strings.Contains(b.stderr.String(), fmt.Sprintf("pid %d", a.cmd.Process.Pid)) || !strings.Contains(b.stderr.String(), "--runtime-dir") {
		t.Errorf("--no-attach next to a running server: %v (stderr: %s)", err, b.stderr.String())
	}
	a.closeAndWait()

	// An owner started with --no-attach offers no socket.
	a = startOwner(t, rt, repo, "--no-attach")
	c := start(t, nil, "--runtime-dir", rt)
	if err := waitExit(t, c); err == nil || !strings.Contains(c.stderr.String(), "accepts no attached clients") {
		t.Errorf("attach to a --no-attach server: %v (stderr: %s)", err, c.stderr.String())
	}
	a.closeAndWait()
}

// Two editors opening the project at once: whichever takes the runtime
// directory serves, the other waits for its socket and attaches.
func TestAttachWhenBothStartAtOnce(t *testing.T) {
	repo, rt := fixture.Write(t), t.TempDir()
	a := start(t, nil, "--runtime-dir", rt, "--ingest", repo)
	b := start(t, nil, "--runtime-dir", rt, "--ingest", repo)
	a.initialize(transport.Line)
	b.initialize(transport.Framed)
	ha, _ := a.tool(transport.Line, "health", map[string]any{"agent_id": "a"})
	hb, _ := b.tool(transport.Framed, "health", map[string]any{"agent_id": "b"})
	if num(ha, "node_count") == 0 || num(ha, "node_count") != num(hb, "node_count") {
		t.Errorf("node counts %v and %v", ha["node_count"], hb["node_count"])
	}
	a.in.Close()
	b.in.Close()
	for _, p := range []*proc{a, b} {
		if err := waitExit(t, p); err != nil {
			t.Errorf("exit: %v (stderr: %s)", err, p.stderr.String())
		}
	}
	attached := 0
	for _, p := range []*proc{a, b} {
		if strings.Contains(p.stderr.String(), "attached to the running server") {
			attached++
		}
	}
	if attached != 1 {
		t.Errorf("%d of two processes attached:\n%s\n%s", attached, a.stderr.String(), b.stderr.String())
	}
}

// An attached process that dies without a goodbye ends its session; the
// owner, whose own client already left, then persists and exits.
func TestAttachedClientKilled(t *testing.T) {
	repo, rt := fixture.Write(t), t.TempDir()
	a := startOwner(t, rt, repo)
	b := start(t, nil, "--runtime-dir", rt)
	b.initialize(transport.Framed)
	a.in.Close()
	waitStderr(t, a, "still serving 1 attached client(s)")
	b.cmd.Process.Kill()
	b.cmd.Wait()
	if err := waitExit(t, a); err != nil {
		t.Fatalf("owner after its attached client was killed: %v", err)
	}
}
