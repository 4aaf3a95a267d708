package query_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// chainRepo is a Go module of pkgs packages of funcs functions each, every
// function calling the next and the first of each package calling into
// the package before: a graph of a few thousand nodes, large enough that
// a node-sized array stands out from a call's other allocations.
func chainRepo(pkgs, funcs int) map[string]string {
	files := map[string]string{"go.mod": "module ex\n\ngo 1.22\n"}
	for p := range pkgs {
		var b strings.Builder
		fmt.Fprintf(&b, "package p%d\n\n", p)
		if p > 0 {
			fmt.Fprintf(&b, "import \"ex/p%d\"\n\n", p-1)
		}
		for f := range funcs {
			fmt.Fprintf(&b, "// Step%d handles step %d of the request pipeline.\nfunc Step%d(n int) int {\n", f, f, f)
			switch {
			case f+1 < funcs:
				fmt.Fprintf(&b, "\treturn Step%d(n + 1)\n}\n\n", f+1)
			case p > 0:
				fmt.Fprintf(&b, "\treturn p%d.Step0(n)\n}\n\n", p-1)
			default:
				b.WriteString("\treturn n\n}\n\n")
			}
		}
		files[fmt.Sprintf("p%d/steps.go", p)] = b.String()
	}
	return files
}

// ingestIdle ingests files through a fresh dispatcher and returns once
// the work behind the answer (index builds, warm-ups, the save) is over.
func ingestIdle(t *testing.T, files map[string]string) *tools.Dispatcher {
	t.Helper()
	dir := t.TempDir()
	if err := testcorpus.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	d := tooltest.NewDispatcher(t, session.Config{})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	for len(d.Session.Running()) > 0 {
		time.Sleep(5 * time.Millisecond)
	}
	return d
}

// allocated is the bytes f allocates (the process's: nothing else runs),
// after two collections: what a sync.Pool held is gone, as it is for a
// call that comes seconds after the last, and only the scratch kept on
// free lists (which outlive collections) is reused.
func allocated(f func()) int64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return int64(b.TotalAlloc - a.TotalAlloc)
}

// TestIngestWarmsFirstCalls: after an ingest and the work behind its
// answer, the first activate and the first impact allocate about what
// their second calls do — not the node-sized scratch kept on free lists
// (two activation workspaces, 40 B a node; impact's, ≈ 80) that the
// warm-ups (tools.WarmActivate, tools.WarmImpact) put there.
func TestIngestWarmsFirstCalls(t *testing.T) {
	d := ingestIdle(t, chainRepo(120, 40))
	n := int64(d.Session.Current().Graph.NumNodes())
	// The dispatcher's own first-call work (stale-file names) is not
	// what is measured.
	sk := tooltest.MustCall(t, d, "seek", map[string]any{"agent_id": "t", "query": "request pipeline step"})
	target := sk["results"].([]any)[0].(map[string]any)["node_id"].(string)
	checkFirstCallsWarm(t, d, target, n, "the ingest")
}

// checkFirstCallsWarm calls activate and impact twice each on d and fails
// when a first call allocated more than its limit a node above its second:
// its scratch was not warmed behind what came before (after). The second
// activate asks another query: an activate's seeds of a query asked before
// (the same words) come from a cache. Without the warm-ups the first call
// allocates ≈ 640 B a node more (activate), ≈ 90 (impact); with them ≈ 25
// and 8, up to ≈ 45 for activate under -race. The limit a node lies
// between.
func checkFirstCallsWarm(t *testing.T, d *tools.Dispatcher, target string, n int64, after string) {
	t.Helper()
	for _, c := range []struct {
		tool          string
		first, second map[string]any
		limit         int64
	}{
		{"activate", map[string]any{"agent_id": "t", "query": "handles step of the request pipeline"}, map[string]any{"agent_id": "t", "query": "Step12 returns the next step"}, 300},
		{"impact", map[string]any{"agent_id": "t", "node_id": target, "direction": "both"}, map[string]any{"agent_id": "t", "node_id": target, "direction": "both"}, 45},
	} {
		first := allocated(func() { tooltest.MustCall(t, d, c.tool, c.first) })
		second := allocated(func() { tooltest.MustCall(t, d, c.tool, c.second) })
		t.Logf("%s on %d nodes after %s: first call %d B, second %d B", c.tool, n, after, first, second)
		if extra := first - second; extra > c.limit*n {
			t.Errorf("the first %s after %s allocated %d B more than the second (%.1f B a node): its scratch was not warmed behind it", c.tool, after, extra, float64(extra)/float64(n))
		}
	}
}

// TestWarmUpsChangeNoAnswer: the warm-ups read the graph and learn
// nothing, so a session whose warm-ups ran four times answers activate
// and impact exactly as one whose warm-ups ran once.
func TestWarmUpsChangeNoAnswer(t *testing.T) {
	files := chainRepo(30, 20)
	answers := func(extraWarmups int) []map[string]any {
		d := ingestIdle(t, files)
		b := d.Session.Current()
		for range extraWarmups {
			if err := tools.WarmActivate(context.Background(), d.Session, b); err != nil {
				t.Fatal(err)
			}
			if err := tools.WarmImpact(context.Background(), d.Session, b); err != nil {
				t.Fatal(err)
			}
		}
		var out []map[string]any
		for _, q := range []string{"request pipeline step", "handles step 3"} {
			out = append(out, tooltest.MustCall(t, d, "activate", map[string]any{"agent_id": "t", "query": q}))
		}
		out = append(out, tooltest.MustCall(t, d, "impact", map[string]any{"agent_id": "t", "node_id": "file::p12/steps.go", "direction": "both"}))
		for _, o := range out {
			dropTimings(o)
		}
		return out
	}
	if diff := cmp.Diff(answers(0), answers(3)); diff != "" {
		t.Errorf("answers after three more warm-ups differ (-once +four times):\n%s", diff)
	}
}

// dropTimings deletes every member that is a time taken (…_ms, timings).
func dropTimings(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if strings.HasSuffix(k, "_ms") || k == "timings" {
				delete(x, k)
				continue
			}
			dropTimings(e)
		}
	case []any:
		for _, e := range x {
			dropTimings(e)
		}
	}
}

// TestPatchWarmsFirstCalls: after a daemon tick patches the graph, the
// index warm-up that rebuilds the seek index and the query engine for the
// new graph runs the warm-ups too, so the first activate and impact on
// the patched graph allocate about what their second calls do, as after
// an ingest (TestIngestWarmsFirstCalls; the engine's workspaces and
// impact's scratch belong to the graph they were made for).
func TestPatchWarmsFirstCalls(t *testing.T) {
	dir := t.TempDir()
	files := chainRepo(120, 40)
	if err := testcorpus.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	d := tooltest.NewDispatcher(t, session.Config{})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	sk := tooltest.MustCall(t, d, "seek", map[string]any{"agent_id": "t", "query": "request pipeline step"})
	target := sk["results"].([]any)[0].(map[string]any)["node_id"].(string)
	// The agent used both tools on the graph before the edit.
	tooltest.MustCall(t, d, "activate", map[string]any{"agent_id": "t", "query": "request pipeline"})
	tooltest.MustCall(t, d, "impact", map[string]any{"agent_id": "t", "node_id": target, "direction": "both"})

	edited := files["p7/steps.go"] + "// Extra is one more step.\nfunc Extra(n int) int {\n\treturn Step0(n)\n}\n"
	if err := testcorpus.Write(dir, map[string]string{"p7/steps.go": edited}); err != nil {
		t.Fatal(err)
	}
	before := d.Session.Current()
	tooltest.MustCall(t, d, "daemon_tick", map[string]any{"agent_id": "t"})
	b := d.Session.Current()
	if b == before {
		t.Fatal("the tick did not publish a new graph")
	}
	// The warm-up starts a second after the tick; wait until it is over.
	for !session.Built(b, session.EngineKey) || len(d.Session.Running()) > 0 {
		time.Sleep(10 * time.Millisecond)
	}
	checkFirstCallsWarm(t, d, target, int64(b.Graph.NumNodes()), "a patch")
}

// TestWarmActivateBuildsNoEngine: the activate warm-up warms the engine a
// graph has; on a bundle whose engine was never built (a patch of a graph
// only searched) it builds none, which would cost more than the first
// activate it spares.
func TestWarmActivateBuildsNoEngine(t *testing.T) {
	d := ingestIdle(t, chainRepo(10, 10))
	cur := d.Session.Current()
	b := &session.Bundle{Graph: cur.Graph, Roots: cur.Roots, Files: cur.Files}
	if err := tools.WarmActivate(context.Background(), d.Session, b); err != nil {
		t.Fatal(err)
	}
	if session.Built(b, session.EngineKey) {
		t.Error("WarmActivate built a query engine for a bundle that had none")
	}
}
