package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

// TestKillAfterAcknowledgement kills the server with SIGKILL 0–60 ms after
// it acknowledged an ingest, learn calls, or a persist, 119 times, and
// checks after every restart that nothing acknowledged was lost and that
// graph, roots, learned weights, feedback memory and drift baseline agree:
//
//   - after an ingest of repository X: roots name X and the graph is X's
//     (node count of a reference ingest), never the previous repository's;
//   - after learn calls (and persists, and auto-persists of learned state
//     alone): the learned weights and feedback memory equal those of a
//     reference server that got the same calls and was never killed.
func TestKillAfterAcknowledgement(t *testing.T) {
	repos := []string{fixture.Write(t), frozenCopy(t, filepath.Join(repoRoot(t), "core", "seed"))}
	nodes := make([]float64, len(repos))
	for i, r := range repos {
		nodes[i] = referenceNodes(t, r)
	}
	rng := rand.New(rand.NewPCG(11, 3))
	const trials = 34 // of each kind
	stats := map[string]int{}

	// Ingest trials: alternate the two repositories in one runtime dir.
	rt := t.TempDir()
	for i := range trials {
		k := i % 2
		p := startIn(t, rt)
		if out, isErr := p.tool(transport.Line, "ingest", map[string]any{"agent_id": "k", "path": repos[k]}); isErr || out["persisted"].(map[string]any)["durable"] != true {
			t.Fatalf("ingest trial %d: %v", i, out)
		}
		killSoon(p, rng)
		r := startIn(t, rt)
		h, _ := r.tool(transport.Line, "health", map[string]any{"agent_id": "check"})
		roots := h["ingest_roots"].([]any)
		if len(roots) != 1 || roots[0].(map[string]any)["path"] != repos[k] || h["node_count"] != nodes[k] {
			t.Fatalf("ingest trial %d: after the kill the server holds %v nodes with roots %v; want %v nodes of %s\nkilled server:\n%s\nrestart:\n%s", i, h["node_count"], roots, nodes[k], repos[k], p.stderr.String(), r.stderr.String())
		}
		checkDrift(t, r, fmt.Sprintf("ingest trial %d", i))
		r.killNow()
		stats["ingest"]++
	}

	// Learn and persist trials: the same calls go to a reference server.
	rt, refRT := t.TempDir(), t.TempDir()
	ref := startIn(t, refRT)
	ref.tool(transport.Line, "ingest", map[string]any{"agent_id": "k", "path": repos[0]})
	seed := startIn(t, rt)
	seed.tool(transport.Line, "ingest", map[string]any{"agent_id": "k", "path": repos[0]})
	seed.killNow()
	targets := []string{"file::backend/auth.py", "file::backend/session.py", "file::backend/payments.py", "file::backend/middleware.py", "file::backend/crypto.py"}
	queries := []string{"login credentials", "session expiry", "charge a card", "request middleware", "password hashing"}
	feedbacks := []string{"correct", "wrong", "partial"}
	for i := range 2 * trials {
		p := startIn(t, rt)
		for range 1 + rng.IntN(4) {
			args := map[string]any{"agent_id": "k", "query": queries[rng.IntN(len(queries))], "feedback": feedbacks[rng.IntN(len(feedbacks))],
				"node_ids": []string{targets[rng.IntN(len(targets))]}, "strength": float64(1+rng.IntN(10)) / 10}
			for _, s := range []*proc{p, ref} {
				if out, isErr := s.tool(transport.Line, "learn", args); isErr || out["durable"] != true {
					t.Fatalf("learn trial %d: %v", i, out)
				}
			}
		}
		kind := "learn"
		if i%2 == 1 {
			kind = "persist"
			if _, isErr := p.tool(transport.Line, "persist", map[string]any{"agent_id": "k", "action": "save"}); isErr {
				t.Fatalf("persist trial %d failed", i)
			}
		}
		killSoon(p, rng)
		r := startIn(t, rt)
		h, _ := r.tool(transport.Line, "health", map[string]any{"agent_id": "check"})
		if roots := h["ingest_roots"].([]any); len(roots) != 1 || roots[0].(map[string]any)["path"] != repos[0] || h["node_count"] != nodes[0] {
			t.Fatalf("%s trial %d: graph or roots changed: %v nodes, roots %v", kind, i, h["node_count"], roots)
		}
		checkDrift(t, r, fmt.Sprintf("%s trial %d", kind, i))
		sameLearnedState(t, fmt.Sprintf("%s trial %d", kind, i), r, rt, ref, refRT)
		r.killNow()
		stats[kind]++
	}

	// Auto-persist trials: on the saved graph an auto-persist writes the
	// learned state alone; calls answered after it are journaled on top.
	for i := range trials / 2 {
		p := start(t, []string{"M1ND_AUTO_PERSIST_INTERVAL=1"}, "--runtime-dir", rt)
		p.initialize(transport.Line)
		before := learnedStamp(t, rt)
		learnBoth := func() {
			args := map[string]any{"agent_id": "k", "query": queries[rng.IntN(len(queries))], "feedback": feedbacks[rng.IntN(len(feedbacks))],
				"node_ids": []string{targets[rng.IntN(len(targets))]}, "strength": float64(1+rng.IntN(10)) / 10}
			for _, s := range []*proc{p, ref} {
				if out, isErr := s.tool(transport.Line, "learn", args); isErr || out["durable"] != true {
					t.Fatalf("auto trial %d: %v", i, out)
				}
			}
		}
		for range 1 + rng.IntN(3) {
			learnBoth()
		}
		for learnedStamp(t, rt) == before { // the save after a pause in the calls
			time.Sleep(10 * time.Millisecond)
		}
		for range rng.IntN(3) {
			learnBoth()
		}
		killSoon(p, rng)
		r := startIn(t, rt)
		sameLearnedState(t, fmt.Sprintf("auto trial %d", i), r, rt, ref, refRT)
		r.killNow()
		stats["auto"]++
	}
	t.Logf("kill -9 trials after acknowledgement: %v, all consistent", stats)
}

// learnedStamp is the stamp of a learned-only save in rt's plasticity file
// ("" when the file was written with the graph).
func learnedStamp(t *testing.T, rt string) string {
	var doc struct {
		Stamp string          `json:"stamp"`
		Meta  json.RawMessage `json:"meta"`
	}
	data, err := os.ReadFile(filepath.Join(rt, "plasticity.json"))
	if err != nil || json.Unmarshal(data, &doc) != nil || len(doc.Meta) == 0 {
		return ""
	}
	return doc.Stamp
}

func startIn(t *testing.T, rt string) *proc {
	p := start(t, nil, "--runtime-dir", rt)
	p.initialize(transport.Line)
	return p
}

// referenceNodes is the node count a complete ingest of repo gives.
func referenceNodes(t *testing.T, repo string) float64 {
	p := start(t, nil)
	p.initialize(transport.Line)
	out, isErr := p.tool(transport.Line, "ingest", map[string]any{"agent_id": "ref", "path": repo})
	if isErr {
		t.Fatalf("reference ingest of %s: %v", repo, out)
	}
	p.closeAndWait()
	return out["graph"].(map[string]any)["node_count"].(float64)
}

// killSoon sends SIGKILL 0–60 ms from now and waits for the process.
func killSoon(p *proc, rng *rand.Rand) {
	time.Sleep(time.Duration(rng.IntN(61)) * time.Millisecond)
	p.killNow()
}

func (p *proc) killNow() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.cmd.Wait()
}

// checkDrift: drift against the previous session answers (its baseline
// was saved with, or before, the graph the server loaded).
func checkDrift(t *testing.T, p *proc, what string) {
	t.Helper()
	d, isErr := p.tool(transport.Line, "drift", map[string]any{"agent_id": "check", "since": "last_session"})
	if isErr {
		t.Fatalf("%s: drift failed: %v", what, d)
	}
	if base, _ := d["baseline"].(map[string]any); base == nil || base["taken"] == "" {
		t.Fatalf("%s: drift has no baseline: %v", what, d)
	}
}

// sameLearnedState persists both servers and compares their learned
// weights and feedback memory.
func sameLearnedState(t *testing.T, what string, p *proc, rt string, ref *proc, refRT string) {
	t.Helper()
	for _, s := range []*proc{p, ref} {
		if out, isErr := s.tool(transport.Line, "persist", map[string]any{"agent_id": "check", "action": "save"}); isErr {
			t.Fatalf("%s: persist: %v", what, out)
		}
	}
	got, want := learnedWeights(t, rt), learnedWeights(t, refRT)
	if len(got) != len(want) {
		t.Fatalf("%s: %d learned edges after the kill, reference has %d", what, len(got), len(want))
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || math.Abs(g-w) > 1e-5 {
			t.Fatalf("%s: edge %s weight %v after the kill, reference %v", what, k, got[k], w)
		}
	}
	if g, w := feedbackRecords(t, rt), feedbackRecords(t, refRT); g != w {
		t.Fatalf("%s: %d feedback records after the kill, reference has %d", what, g, w)
	}
}

func learnedWeights(t *testing.T, rt string) map[string]float64 {
	var doc struct {
		Edges []struct {
			Source   string  `json:"source_label"`
			Target   string  `json:"target_label"`
			Relation string  `json:"relation"`
			Weight   float64 `json:"current_weight"`
		} `json:"edges"`
	}
	readJSON(t, filepath.Join(rt, "plasticity.json"), &doc)
	out := map[string]float64{}
	for _, e := range doc.Edges {
		out[e.Source+" "+e.Relation+" "+e.Target] = e.Weight
	}
	return out
}

func feedbackRecords(t *testing.T, rt string) int {
	var doc struct {
		Records []json.RawMessage `json:"records"`
	}
	readJSON(t, filepath.Join(rt, "feedback.json"), &doc)
	return len(doc.Records)
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
