package dynamics

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

var varTags = map[string][]string{"counter": {"go", "variable", "private"}, "limit": {"go", "constant"},
	"mu": {"go", "variable"}, "Export": {"go", "function", "exported"}}
var varTypes = map[string]graph.NodeType{"counter": graph.Reference, "limit": graph.Reference, "mu": graph.Reference}

// Two entry points (main and a request handler) reach one variable
// through bump: exactly one turbulence point, with both entries and
// their paths. The constant both read is no turbulence.
func TestFlowTwoEntriesOneSharedVariable(t *testing.T) {
	g, id := build(t, []edge{
		{"main", "calls", "bump"}, {"handleIndex", "calls", "bump"}, {"bump", "references", "counter"},
		{"main", "references", "limit"}, {"handleIndex", "references", "limit"},
		{"main", "calls", "setup"}, {"setup", "calls", "helper"},
	}, nil, varTypes, varTags)
	res, err := Flow(context.Background(), g, DefaultFlowParams())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Entries) != 2 || res.Entries[0] != (EntryPoint{id["main"], EntryMain}) || res.Entries[1] != (EntryPoint{id["handleIndex"], EntryHTTPHandler}) {
		t.Fatalf("entries %+v", res.Entries)
	}
	if len(res.Turbulence) != 1 || res.Below != 0 {
		t.Fatalf("turbulence %+v (below %d), want one point", res.Turbulence, res.Below)
	}
	tp := res.Turbulence[0]
	wantEntries := []graph.NodeID{id["main"], id["handleIndex"]}
	slices.Sort(wantEntries)
	if tp.Node != id["counter"] || !slices.Equal(tp.Entries, wantEntries) || tp.Guarded || tp.Score != 0.5 || tp.Severity != "high" {
		t.Errorf("turbulence point %+v", tp)
	}
	for i, p := range tp.Paths {
		want := []graph.NodeID{tp.Entries[i], id["bump"], id["counter"]}
		if !slices.Equal(p, want) {
			t.Errorf("path %d = %v, want %v", i, p, want)
		}
	}
	// main's particle visits main, bump, limit, setup, counter, helper;
	// handleIndex's handleIndex, bump, limit, counter.
	if res.Steps != 6+4 || res.Truncated {
		t.Errorf("steps %d truncated %v", res.Steps, res.Truncated)
	}
}

// A handler that takes the lock guards its path; the collision is still
// reported when every path is guarded, at half the score.
func TestFlowValvesGuard(t *testing.T) {
	edges := []edge{
		{"main", "calls", "bump"}, {"handleIndex", "calls", "bump"}, {"bump", "references", "counter"},
		{"handleIndex", "references", "mu"},
	}
	g, id := build(t, edges, nil, varTypes, varTags)
	p := DefaultFlowParams()
	p.TurbulenceThreshold = 0
	res, err := Flow(context.Background(), g, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Turbulence) != 1 || res.Turbulence[0].Guarded {
		t.Errorf("main's path takes no lock: %+v", res.Turbulence)
	}
	if len(res.Valves) != 1 || res.Valves[0] != (Valve{id["mu"], 1}) {
		t.Errorf("valves %+v", res.Valves)
	}
	g2, _ := build(t, append(edges, edge{"main", "references", "mu"}), nil, varTypes, varTags)
	res, _ = Flow(context.Background(), g2, p)
	if len(res.Turbulence) != 1 || !res.Turbulence[0].Guarded || res.Turbulence[0].Score != 0.25 || res.Turbulence[0].Severity != "low" {
		t.Errorf("both paths guarded: %+v", res.Turbulence)
	}
	p.TurbulenceThreshold = 0.5
	if res, _ = Flow(context.Background(), g2, p); len(res.Turbulence) != 0 || res.Below != 1 {
		t.Errorf("guarded collision under the threshold: %+v", res)
	}
}

func TestFlowNoEntryPointsAndScope(t *testing.T) {
	g, _ := build(t, []edge{{"helper", "calls", "other"}}, nil, nil, nil)
	if _, err := Flow(context.Background(), g, DefaultFlowParams()); !errors.Is(err, ErrNoEntryPoints) {
		t.Errorf("err %v, want ErrNoEntryPoints", err)
	}
	g, _ = build(t, []edge{{"main", "calls", "bump"}}, nil, nil, nil)
	p := DefaultFlowParams()
	p.Scope = "elsewhere/"
	if _, err := Flow(context.Background(), g, p); !errors.Is(err, ErrNoEntryPoints) {
		t.Errorf("scope with no entries: err %v", err)
	}
}

// A public function nobody calls is an entry; one that is called, or a
// test, is not. Handler-named methods (asyncore's handle_read, a
// visitor's visit_ExceptHandler) are not request handlers; ServeHTTP is.
func TestDiscoverEntryPoints(t *testing.T) {
	tags := map[string][]string{"Export": {"exported"}, "Called": {"exported"}, "TestX": {"test", "exported"}, "ServeHTTP": {"method"}}
	g, id := build(t, []edge{
		{"Export", "calls", "a"}, {"Export", "calls", "Called"}, {"Called", "calls", "b"}, {"Called", "calls", "c"},
		{"TestX", "calls", "Export"}, {"TestX", "calls", "d"}, {"runCommand", "calls", "a"},
		{"Dispatcher", "contains", "handle_read"}, {"Dispatcher", "contains", "visit_ExceptHandler"}, {"handle_read", "calls", "a"},
		{"ServeHTTP", "calls", "a"}, {"blockHandler", "calls", "a"},
		// Named like handlers, but the code calls them: helpers
		// (lookup_exception_handler returns one); a handler the code
		// registers by value is referenced and stays an entry.
		{"lookup_exception_handler", "calls", "a"}, {"ServeHTTP", "calls", "lookup_exception_handler"},
		{"registeredHandler", "calls", "a"}, {"Export", "references", "registeredHandler"},
	}, nil, map[string]graph.NodeType{"Dispatcher": graph.Class}, tags)
	got := DiscoverEntryPoints(g, "")
	want := []EntryPoint{{id["ServeHTTP"], EntryHTTPHandler}, {id["blockHandler"], EntryHTTPHandler}, {id["registeredHandler"], EntryHTTPHandler}, {id["runCommand"], EntryCLICommand}, {id["Export"], EntryPublic}}
	if !slices.Equal(got, want) {
		t.Errorf("entries %+v, want %+v", got, want)
	}
}

func TestIsValve(t *testing.T) {
	for label, want := range map[string]bool{"mu": true, "cacheLock": true, "RATE_LIMITER": true, "sync.RWMutex": true,
		"withLock": true, "block": false, "clock": false, "counter": false, "menu": false, "workerPool": true} {
		if IsValve(label) != want {
			t.Errorf("IsValve(%q) = %v", label, !want)
		}
	}
}

// Go sentinel errors (ErrNotFound, errClosed) are set at init and only
// compared: two entries returning one are no turbulence, while a
// variable that merely starts with "err" (errorCount) still is.
func TestFlowSentinelErrorsAreNoTurbulence(t *testing.T) {
	tags := map[string][]string{"ErrNotFound": {"go", "variable", "exported"}, "errClosed": {"go", "variable", "private"},
		"errorCount": {"go", "variable", "private"}}
	types := map[string]graph.NodeType{"ErrNotFound": graph.Reference, "errClosed": graph.Reference, "errorCount": graph.Reference}
	g, id := build(t, []edge{
		{"main", "calls", "lookup"}, {"handleIndex", "calls", "lookup"},
		{"lookup", "references", "ErrNotFound"}, {"lookup", "references", "errClosed"}, {"lookup", "references", "errorCount"},
	}, nil, types, tags)
	res, err := Flow(context.Background(), g, DefaultFlowParams())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Turbulence) != 1 || res.Turbulence[0].Node != id["errorCount"] {
		t.Errorf("turbulence %+v, want errorCount only", res.Turbulence)
	}
}
