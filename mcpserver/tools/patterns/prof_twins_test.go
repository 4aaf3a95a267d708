package patterns

import (
	"context"
	"crypto/sha256"
	"encoding/json"

	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestProfTwinIndex measures the twins index's build on a tree
// (M1ND_TWINS_CORPUS) in process: wall, CPU profile
// (M1ND_TWINS_PROF=prefix: prefix.cpu, prefix.alloc), the heap it allocated,
// and a digest of twins answers (elapsed_ms zeroed) for comparing builds.
// It checks nothing and is skipped by default.
func TestProfTwinIndex(t *testing.T) {
	root := testcorpus.OptIn(t, "M1ND_TWINS_CORPUS", "a tree to ingest")
	prefix := os.Getenv("M1ND_TWINS_PROF")
	cfg := tooltest.TestConfig()
	cfg.AllowRoots = append(cfg.AllowRoots, root)
	d := tooltest.NewDispatcher(t, cfg)
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": root})
	b := d.Session.Current()
	// The work behind the ingest's answer (engine, seek index) first: the
	// figures are the build's alone.
	<-tools.BuildIndexesSoon(&tools.Call{Session: d.Session, Registry: d.Registry}, b)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if prefix != "" {
		f, _ := os.Create(prefix + ".cpu")
		defer f.Close()
		pprof.StartCPUProfile(f)
	}
	start := time.Now()
	x, _ := buildTwinIndex(context.Background(), b)
	wall := time.Since(start)
	if prefix != "" {
		pprof.StopCPUProfile()
		f, _ := os.Create(prefix + ".alloc")
		pprof.Lookup("allocs").WriteTo(f, 0)
		f.Close()
	}
	runtime.ReadMemStats(&after)
	runtime.GC()
	var held runtime.MemStats
	runtime.ReadMemStats(&held)
	t.Logf("TWINIDX build %v, allocated %.1f MB, live after %.1f MB (before %.1f), units %d short %d",
		wall, float64(after.TotalAlloc-before.TotalAlloc)/(1<<20),
		float64(held.HeapAlloc)/(1<<20), float64(before.HeapAlloc)/(1<<20), x.Units(), x.Short())
	t.Logf("TWINSTATS %+v", x.Stats())
	h := sha256.New()
	for _, args := range twinDigestCalls() {
		args["agent_id"] = "t"
		out := tooltest.MustCall(t, d, "twins", args)
		out["elapsed_ms"] = 0
		js, _ := json.Marshal(out)
		h.Write(js)
		t.Logf("TWINCALL %v: %d pairs, %.12x", args, int(out["total_pairs"].(float64)), sha256.Sum256(js))
	}
	t.Logf("TWINDIGEST %x", h.Sum(nil))
}

// twinDigestCalls are the answers the digest covers: defaults, every node
// type, lower thresholds, scopes.
func twinDigestCalls() []map[string]any {
	calls := []map[string]any{{}, {"top_k": 200}, {"similarity_threshold": 0.5, "top_k": 200}, {"similarity_threshold": 0.3, "top_k": 200}}
	for _, ty := range []string{"class", "struct", "enum", "type"} {
		calls = append(calls, map[string]any{"node_types": []string{ty}, "top_k": 200, "similarity_threshold": 0.5})
	}
	calls = append(calls, map[string]any{"node_types": []string{"function", "struct", "type"}, "top_k": 200, "similarity_threshold": 0.6})
	for _, s := range []string{"net/", "crypto/", "**/*_test.go", "encoding/json/", "src/"} {
		calls = append(calls, map[string]any{"scope": s, "top_k": 200, "similarity_threshold": 0.6})
	}
	return calls
}
