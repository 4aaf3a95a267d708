package dynamics

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// otelFixture ingests the instrumented program of testdata/otelfixture and
// returns its spans.json (written by the OpenTelemetry Go SDK: go run .
// there) as the spans parameter.
func otelFixture(t *testing.T) (spans []any, call func(args map[string]any) (map[string]any, bool), must func(tool string, args map[string]any) map[string]any) {
	t.Helper()
	files := map[string]string{}
	for _, f := range []string{"go.mod", "main.go", "shop.go"} {
		b, err := os.ReadFile(filepath.Join("testdata", "otelfixture", f))
		if err != nil {
			t.Fatal(err)
		}
		files[f] = string(b)
	}
	d, _ := tooltest.FixtureRepo(t, files)
	b, err := os.ReadFile(filepath.Join("testdata", "otelfixture", "spans.json"))
	if err != nil {
		t.Fatal(err)
	}
	var req map[string]any
	if err := json.Unmarshal(b, &req); err != nil {
		t.Fatal(err)
	}
	return req["resourceSpans"].([]any),
		func(args map[string]any) (map[string]any, bool) { return tooltest.Call(t, d, "runtime_overlay", args) },
		func(tool string, args map[string]any) map[string]any { return tooltest.MustCall(t, d, tool, args) }
}

// The SDK's spans map onto the program's functions exactly: three
// checkouts (one declined) each make POST /checkout (handleCheckout),
// loadCart, Cart.Total, chargeCard and a driver span SELECT carts that no
// code attribute names.
func TestRuntimeOverlayMapsSDKSpans(t *testing.T) {
	spans, _, must := otelFixture(t)
	out := must("runtime_overlay", map[string]any{"agent_id": "t", "spans": spans, "service_name": "checkout"})
	got := map[string][2]float64{}
	for _, n := range out["nodes"].([]any) {
		m := n.(map[string]any)
		got[m["node_id"].(string)] = [2]float64{m["calls"].(float64), m["errors"].(float64)}
	}
	want := map[string][2]float64{
		"file::shop.go::handleCheckout": {3, 1}, "file::shop.go::loadCart": {3, 0},
		"file::shop.go::Cart::Total": {3, 0}, "file::shop.go::chargeCard": {3, 1},
	}
	if len(got) != len(want) {
		t.Errorf("nodes %v, want %v", got, want)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: calls/errors %v, want %v", id, got[id], w)
		}
	}
	if out["spans"] != 15.0 || out["mapped"] != 12.0 || out["unmapped"] != 3.0 || !slices.Equal(tooltest.ToStrings(out["unmapped_names"]), []string{"SELECT carts"}) {
		t.Errorf("counts: %v", out)
	}
	// By name only, the server span (an HTTP route) maps to nothing.
	byName := must("runtime_overlay", map[string]any{"agent_id": "t", "spans": spans, "mapping_strategy": "label_match"})
	if byName["mapped"] != 9.0 {
		t.Errorf("label_match mapped %v, want 9", byName["mapped"])
	}
	// Another service's spans are left out.
	none := must("runtime_overlay", map[string]any{"agent_id": "t", "spans": spans, "service_name": "billing"})
	if none["spans"] != 0.0 || none["other_services"] != 15.0 {
		t.Errorf("service filter: %v", none)
	}
}

// The overlay stays in the session: impact reports each dependent's
// runtime figures.
func TestRuntimeOverlayReachesImpact(t *testing.T) {
	spans, _, must := otelFixture(t)
	must("runtime_overlay", map[string]any{"agent_id": "t", "spans": spans})
	imp := must("impact", map[string]any{"agent_id": "t", "node_id": "file::shop.go::chargeCard"})
	found := false
	for _, n := range imp["blast_radius"].([]any) {
		m := n.(map[string]any)
		if m["node_id"] == "file::shop.go::handleCheckout" {
			rt, ok := m["runtime"].(map[string]any)
			found = ok && rt["calls"] == 3.0 && rt["errors"] == 1.0 && rt["mean_ms"].(float64) > 0
			if !found {
				t.Errorf("handleCheckout's runtime in impact: %v", m)
			}
		}
	}
	if !found {
		t.Errorf("impact of chargeCard does not list handleCheckout: %v", imp["blast_radius"])
	}
}

func TestRuntimeOverlayTeachingErrors(t *testing.T) {
	_, call, _ := otelFixture(t)
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"agent_id": "t", "spans": []any{map[string]any{"name": "x", "startTimeUnixNano": "soon"}}}, "spans[0]"},
		{map[string]any{"agent_id": "t", "spans": []any{}, "mapping_strategy": "fuzzy"}, "mapping_strategy"},
		{map[string]any{"agent_id": "t"}, "spans"},
	} {
		out, isErr := call(tc.args)
		msg, _ := out["error"].(string)
		if !isErr || !strings.Contains(msg, tc.want) || out["hint"] == nil || out["example"] == nil {
			t.Errorf("runtime_overlay(%v) = %v, want a teaching error about %s", tc.args, out, tc.want)
		}
	}
}

// The overlay is saved beside the graph and read back by the next
// session on the same runtime directory.
func TestRuntimeOverlayPersists(t *testing.T) {
	spans, _, _ := otelFixture(t)
	dir := t.TempDir()
	cfg := tooltest.TestConfig()
	cfg.RuntimeDir = dir
	st, err := session.Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	d := &tools.Dispatcher{Registry: tooltest.Builtin(), Session: st}
	repo := tooltest.WriteRepo(t, "shop", map[string]string{"shop.go": "package main\n\nfunc chargeCard() {}\n"})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": repo})
	tooltest.MustCall(t, d, "runtime_overlay", map[string]any{"agent_id": "t", "spans": spans})
	st.Close()
	st2, err := session.Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	if h, ok := tools.Runtime(st2).Heat("file::shop.go::chargeCard"); !ok || h.Calls != 3 || h.Errors != 1 {
		t.Errorf("after restart: %+v %v", h, ok)
	}
}
