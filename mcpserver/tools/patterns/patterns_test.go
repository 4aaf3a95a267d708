package patterns

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/engine"
	"github.com/m1nd-go/m1nd/mcpserver/internal/race"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// twins finds exactly the renamed copy: ParseRecords and ReadEntries,
// equal up to renaming, and nothing else (Total is as long but another
// body).
func TestTwinsFindsTheCopy(t *testing.T) {
	d, _ := tooltest.FixtureRepo(t, goFixture)
	out := tooltest.MustCall(t, d, "twins", map[string]any{"agent_id": "t"})
	twins := out["twins"].([]any)
	if len(twins) != 1 || out["total_pairs"].(float64) != 1 {
		t.Fatalf("want one pair, got %s", tooltest.ToJSON(out))
	}
	tw := twins[0].(map[string]any)
	a, b := tw["a"].(map[string]any), tw["b"].(map[string]any)
	got := [2]string{a["node_id"].(string), b["node_id"].(string)}
	want1 := [2]string{"file::records/parse.go::ParseRecords", "file::inventory/load.go::ReadEntries"}
	want2 := [2]string{want1[1], want1[0]}
	if got != want1 && got != want2 {
		t.Errorf("twins = %v, want %v", got, want1)
	}
	if tw["body_similarity"].(float64) != 1 {
		t.Errorf("a renamed copy's body is 100%% alike, got %v", tw["body_similarity"])
	}
	t.Logf("%s", tooltest.ToJSON(tw))
}

// ghost_edges on the fixture's scripted history: session.py and
// crypto.py changed together twice (commit 2 and the final commit that
// writes every file) and neither depends on the other (auth.py uses
// both). Every other pair with two joint commits is linked: auth.py
// imports crypto.py and session.py, middleware.py imports session.py,
// test_auth.py tests auth.py, which uses session.py. README and config
// are not code pairs.
func TestGhostEdgesFixture(t *testing.T) {
	d, dir := tooltest.IngestedFixture(t)
	out := tooltest.MustCall(t, d, "ghost_edges", map[string]any{"agent_id": "t"})
	ghosts := out["ghost_edges"].([]any)
	if len(ghosts) != 1 {
		t.Fatalf("want one ghost edge, got %s", tooltest.ToJSON(out))
	}
	g := ghosts[0].(map[string]any)
	// crypto.py: 3 commits, session.py: 4; 2 together.
	if g["source"] != "file::backend/crypto.py" || g["target"] != "file::backend/session.py" || g["support"] != 2.0 || g["confidence"] != 0.667 {
		t.Errorf("ghost edge %v, want crypto.py–session.py, support 2, confidence 2/3", g)
	}
	tooltest.CheckGoldenFile(t, "testdata/ghost_edges_fixture.json", tooltest.Stable(out, dir))
	week := tooltest.MustCall(t, d, "ghost_edges", map[string]any{"agent_id": "t", "depth": "7d", "scope": "backend/payments.py"})
	if n := len(week["ghost_edges"].([]any)); n != 0 {
		t.Errorf("payments.py has no ghost edge: %v", week)
	}
	// An empty answer suggests only what the call did not already try.
	for _, tc := range []struct {
		args       map[string]any
		want, deny string
	}{
		{map[string]any{"depth": "7d", "scope": "backend/payments.py"}, "try depth all", "drop scope"},
		{map[string]any{"scope": "backend/payments.py"}, "drop scope", "try depth all"},
	} {
		tc.args["agent_id"] = "t"
		hint := tooltest.MustCall(t, d, "ghost_edges", tc.args)["next_step_hint"].(string)
		if !strings.Contains(hint, tc.want) || strings.Contains(hint, tc.deny) {
			t.Errorf("ghost_edges %v hint %q: want %q, not %q", tc.args, hint, tc.want, tc.deny)
		}
	}
}

// taint_trace: Serve reads a query parameter and reaches os/exec through
// two calls, Prepare then Execute; every step's file and line is the
// call that leads on, the last one the sink.
func TestTaintTraceReachesExec(t *testing.T) {
	d, _ := tooltest.FixtureRepo(t, goFixture)
	out := tooltest.MustCall(t, d, "taint_trace", map[string]any{"agent_id": "t", "entry_nodes": []string{"api/handler.go"}})
	if out["total_paths"] != 1.0 || out["unsanitised_paths"] != 1.0 {
		t.Fatalf("want one unsanitised path, got %s", tooltest.ToJSON(out))
	}
	want := `{"sanitised":false,"sink":"shell","steps":[` +
		`{"code":"out, err := jobs.Prepare(name)","file":"api/handler.go","line":12,"node_id":"file::api/handler.go::Serve"},` +
		`{"code":"return Execute(\"report-\" + name)","file":"jobs/jobs.go","line":7,"node_id":"file::jobs/jobs.go::Prepare"},` +
		`{"code":"return exec.Command(\"sh\", \"-c\", cmd).Output()","file":"jobs/jobs.go","line":12,"node_id":"file::jobs/jobs.go::Execute"}]}`
	if got := tooltest.ToJSON(out["paths"].([]any)[0]); got != want {
		t.Errorf("path:\n got %s\nwant %s", got, want)
	}
	// ServeChecked validates the name before the same path.
	checked := tooltest.MustCall(t, d, "taint_trace", map[string]any{"agent_id": "t", "entry_nodes": []string{"ServeChecked"}})
	if p := checked["paths"].([]any); len(p) != 1 || checked["unsanitised_paths"] != 0.0 ||
		tooltest.ToJSON(p[0].(map[string]any)["sanitisers"]) != `["file::api/safe.go::ServeChecked"]` {
		t.Errorf("ServeChecked: want one path sanitised by ServeChecked, got %s", tooltest.ToJSON(checked))
	}
	// SQL sinks are not on this path; Health reaches nothing.
	for _, args := range []map[string]any{
		{"agent_id": "t", "entry_nodes": []string{"Serve"}, "taint_type": "sql"},
		{"agent_id": "t", "entry_nodes": []string{"Health"}},
	} {
		if out := tooltest.MustCall(t, d, "taint_trace", args); out["total_paths"] != 0.0 {
			t.Errorf("%v: want no path, got %s", args, tooltest.ToJSON(out))
		}
	}
}

// type_trace on the fixture's Config: NewConfig builds and returns it,
// Describe takes it, Server holds it, Server.Current returns it.
func TestTypeTraceConfig(t *testing.T) {
	d, _ := tooltest.FixtureRepo(t, goFixture)
	out := tooltest.MustCall(t, d, "type_trace", map[string]any{"agent_id": "t", "target": "Config", "group_by_file": true})
	kinds := map[string]string{}
	for _, u := range out["usages"].([]any) {
		u := u.(map[string]any)
		kinds[u["node_id"].(string)] = u["kind"].(string)
	}
	want := map[string]string{
		"file::config/config.go::NewConfig":       "constructor",
		"file::config/config.go::Describe":        "parameter",
		"file::config/config.go::Server":          "field",
		"file::config/config.go::Server::Current": "return",
	}
	if out["target"] != "file::config/config.go::Config" || out["resolved_by"] != "exact_label" {
		t.Errorf("resolved %v by %v", out["target"], out["resolved_by"])
	}
	for id, k := range want {
		if kinds[id] != k {
			t.Errorf("%s: kind %q, want %q (all: %v)", id, kinds[id], k, kinds)
		}
	}
	// Listed as the guidance reads them: what builds and holds the type
	// first, whatever the node order.
	out = tooltest.MustCall(t, d, "type_trace", map[string]any{"agent_id": "t", "target": "Config", "top_k": 2})
	var first []string
	for _, u := range out["usages"].([]any) {
		first = append(first, u.(map[string]any)["kind"].(string))
	}
	if diff := cmp.Diff([]string{"constructor", "field"}, first); diff != "" {
		t.Errorf("first two usages' kinds (-want +got):\n%s", diff)
	}
}

// fingerprint: the target's fingerprint is its activation under each
// probe, and an equivalent's similarity is the cosine of the two
// standardised vectors — both recomputed here from the engine itself.
// Serve's equivalent is ServeChecked (another handler starting the same
// job); Prepare, which Serve calls, is a complement and never listed.
func TestFingerprintServe(t *testing.T) {
	d, _ := tooltest.FixtureRepo(t, goFixture)
	out := tooltest.MustCall(t, d, "fingerprint", map[string]any{"agent_id": "t", "target_node": "Serve", "similarity_threshold": 0.6})
	probes := tooltest.ToStrings(out["probes"])
	vecs := map[string][]float64{}
	err := d.Session.Read(context.Background(), func(b *session.Bundle) error {
		eng, err := d.Session.Engine(b)
		if err != nil {
			return err
		}
		for i, q := range probes {
			res, err := eng.Activate(context.Background(), engine.Query{Text: q, TopK: 300, NoLearn: true})
			if err != nil {
				return err
			}
			for _, n := range res.Activated {
				id := b.Graph.ExternalID(n.ID)
				if vecs[id] == nil {
					vecs[id] = make([]float64, len(probes))
				}
				vecs[id][i] = float64(n.Activation)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	const serve, checked = "file::api/handler.go::Serve", "file::api/safe.go::ServeChecked"
	for i, x := range out["fingerprint"].([]any) {
		if math.Abs(x.(float64)-vecs[serve][i]) > 0.0006 {
			t.Errorf("fingerprint[%d] (%q) = %v, activation %v", i, probes[i], x, vecs[serve][i])
		}
	}
	// Standardise each probe over the nodes fingerprinted, then cosine.
	z := map[string][]float64{}
	for id := range vecs {
		z[id] = make([]float64, len(probes))
	}
	for i := range probes {
		var mean, sd float64
		for _, v := range vecs {
			mean += v[i] / float64(len(vecs))
		}
		for _, v := range vecs {
			sd += (v[i] - mean) * (v[i] - mean) / float64(len(vecs))
		}
		for id, v := range vecs {
			if sd > 0 {
				z[id][i] = (v[i] - mean) / math.Sqrt(sd)
			}
		}
	}
	var dot, na, nb float64
	for i := range probes {
		dot, na, nb = dot+z[serve][i]*z[checked][i], na+z[serve][i]*z[serve][i], nb+z[checked][i]*z[checked][i]
	}
	want := math.Round(dot/math.Sqrt(na*nb)*1000) / 1000
	found := false
	for _, e := range out["equivalents"].([]any) {
		e := e.(map[string]any)
		switch e["node_id"] {
		case checked:
			found = true
			if e["similarity"] != want {
				t.Errorf("ServeChecked similarity %v, recomputed %v", e["similarity"], want)
			}
		case "file::jobs/jobs.go::Prepare", "file::api/handler.go::Health":
			t.Errorf("a neighbour or sibling listed as an equivalent: %v", e)
		}
	}
	if !found {
		t.Errorf("ServeChecked is not among Serve's equivalents: %s", tooltest.ToJSON(out))
	}
}

func TestPatternsTeachingErrors(t *testing.T) {
	d, _ := tooltest.FixtureRepo(t, goFixture)
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"twins", map[string]any{"node_types": []string{"method"}}, "node_types"},
		{"twins", map[string]any{"similarity_threshold": 1.5}, "similarity_threshold"},
		{"twins", map[string]any{"scope": "src/[a"}, "scope"},
		{"fingerprint", map[string]any{"target_node": "NoSuchThing"}, "NoSuchThing"},
		{"ghost_edges", map[string]any{"depth": "3y"}, "depth"},
		{"taint_trace", map[string]any{}, "entry_nodes"},
		{"taint_trace", map[string]any{"entry_nodes": []string{"Serve"}, "taint_type": "custom"}, "sinks"},
		{"taint_trace", map[string]any{"entry_nodes": []string{"nowhere"}}, "nowhere"},
		{"type_trace", map[string]any{"target": "Zebra"}, "Zebra"},
		{"type_trace", map[string]any{"target": "Config", "direction": "up"}, "direction"},
	} {
		tc.args["agent_id"] = "t"
		tooltest.Teaches(t, d, tc.tool, tc.args, tc.want, true)
	}
}

// TestTwinUnitsReuseBuffers: reading the bodies for the twins index
// allocates a small part of what it reads. Each file's contents, its line
// offsets and its units were allocated anew: on go-std ≈ 100 MB per build
// on a ≈ 350 MB heap, each collection it set off scanning that heap whole,
// most of the first twins call's 3.4 s (issue 29).
func TestTwinUnitsReuseBuffers(t *testing.T) {
	if race.Enabled {
		t.Skip("allocation bounds do not hold under the race detector")
	}
	files := map[string]string{}
	read := 0
	for i := range 60 {
		var src strings.Builder
		fmt.Fprintf(&src, "package p%d\n", i)
		for f := range 10 {
			fmt.Fprintf(&src, "\nfunc F%d(xs []int) int {\n", f)
			for l := range 60 {
				fmt.Fprintf(&src, "\tif xs[%d] > %d { xs[%d] += len(xs) * %d }\n", l%7, l, (l+f)%7, i)
			}
			src.WriteString("\treturn xs[0]\n}\n")
		}
		files[fmt.Sprintf("p%d/f.go", i)] = src.String()
		read += src.Len()
	}
	d, _ := tooltest.FixtureRepo(t, files)
	b := d.Session.Current()
	<-tools.BuildIndexesSoon(&tools.Call{Session: d.Session, Registry: d.Registry}, b)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	tb := twinUnits(context.Background(), b)
	runtime.ReadMemStats(&after)
	if x := tb.Index(); x.Units() != 600 {
		t.Fatalf("%d units indexed, want the fixture's 600 functions", x.Units())
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(read)/2 {
		t.Errorf("reading %d bytes of bodies allocated %d bytes: more than half of what was read", read, alloc)
	}
}

// TestTwinIndexBuiltOnFirstCall: the twins index is not built after an
// ingest (its warm-up read every file and held ≈ 50 MB at the top of the
// go-std server's peak, issue 29), only by the first twins call.
func TestTwinIndexBuiltOnFirstCall(t *testing.T) {
	d, _ := tooltest.IngestedFixture(t)
	b := d.Session.Current()
	<-tools.BuildIndexesSoon(&tools.Call{Session: d.Session, Registry: d.Registry}, b)
	if session.Built(b, twinIndexKey) {
		t.Fatal("the twins index was built after the ingest, before any twins call")
	}
	tooltest.MustCall(t, d, "twins", map[string]any{"agent_id": "t"})
	if !session.Built(b, twinIndexKey) {
		t.Fatal("the twins call did not build the index")
	}
}
