package jsongraph

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares v, as indented JSON, with testdata/name.
func golden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

type result struct {
	Stats adapter.Stats
	Graph graphdump.Dump
}

func TestGolden(t *testing.T) {
	for _, ns := range []string{"", "studio"} {
		out, err := Adapter{}.Ingest(context.Background(), adapter.Request{Root: filepath.Join("testdata", "studio.json"), Namespace: ns})
		if err != nil {
			t.Fatal(err)
		}
		out.Stats.ElapsedMs = 0
		name := "studio.golden.json"
		if ns != "" {
			name = "studio.ns.golden.json"
		}
		golden(t, name, result{out.Stats, graphdump.Of(out.Graph)})
	}
}

func TestSemantics(t *testing.T) {
	out, err := Build([]byte(`{"nodes":[{"id":"a","type":"Widget"},{"id":"b"}],"edges":[{"source":"a","target":"b","relation":"contains"}]}`), Options{Namespace: "ns"})
	if err != nil {
		t.Fatal(err)
	}
	g := out.Graph
	a, ok := g.Lookup("ns::a")
	if !ok || g.Type(a) != graph.Custom(0) || !g.HasTag(a, "type:Widget") || g.Provenance(a).Namespace != "ns" {
		t.Fatalf("node a: %+v", g.Node(a))
	}
	// contains defaults to bidirectional 0.8, like the code adapter.
	b, _ := g.Lookup("ns::b")
	e, ok := g.FindEdgeByName(a, b, "contains")
	if !ok || g.CausalStrength(e) != 0.8 || g.EdgeDirection(e) != graph.Bidirectional || g.NumEdges() != 2 {
		t.Fatalf("contains edge: ok=%v edges=%d", ok, g.NumEdges())
	}
	if _, err := Build([]byte(`{}`), Options{}); err != nil {
		t.Errorf("empty descriptor: %v", err)
	}
	part, err := Build([]byte(`{"nodes":[{"id":"a"},{"id":"b"},{"id":"c"}],"edges":[{"source":"a","target":"c"}]}`), Options{MaxNodes: 2})
	if err != nil || !part.Stats.Partial || part.Stats.BudgetExhausted != "max_nodes" || part.Graph.NumNodes() != 2 || part.Stats.ReferencesUnresolved != 1 {
		t.Errorf("budget: %v %+v", err, part.Stats)
	}
}

func TestErrorsTeach(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{``, "empty"},
		{`{"nodes": [`, "ends early"},
		{`{"nodes": [}`, "invalid JSON at line 1, column 12"},
		{"{\n  \"nodes\": [}\n", "line 2, column"},
		{`[1, 2]`, "must be a JSON object"},
		{`{"nodes": 3}`, `"nodes" must be an array`},
		{`{"nodes": [{"label": "no id"}]}`, `nodes[0] has no "id"`},
		{`{"nodes": [{"id": 7}]}`, `nodes[0]: field "id" cannot be a JSON number`},
		{`{"nodes": [{"id": "a", "type": []}]}`, "nodes[0].type must be"},
		{`{"nodes": [{"id": "a", "change_frequency": 2}]}`, "change_frequency must be in [0, 1]"},
		{`{"nodes": [{"id": "a"}], "edges": [{"target": "a"}]}`, "edges[0].source: missing"},
		{`{"nodes": [{"id": "a"}], "edges": [{"source": "a", "target": "a", "weight": 1e300}]}`, "weight must be a finite number"},
		{`{"nodes": [{"id": "a"}], "edges": [{"source": "a", "target": "a", "direction": "up"}]}`, "unknown edge direction"},
		{`{"nodes": []} {}`, "exactly one object"},
	} {
		_, err := Build([]byte(c.in), Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Build(%q) error %v, want it to mention %q", c.in, err, c.want)
		}
	}
	if _, err := (Adapter{}).Ingest(context.Background(), adapter.Request{Root: "testdata"}); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory root: %v", err)
	}
}

// FuzzBuild: any bytes give a graph or an error, never a panic, and a graph
// is always finalized with finite weights.
func FuzzBuild(f *testing.F) {
	seed, _ := os.ReadFile(filepath.Join("testdata", "studio.json"))
	f.Add(seed)
	f.Add([]byte(`{"nodes":[{"id":"a","type":255}],"edges":[{"source":0,"target":0,"weight":-1}]}`))
	f.Add([]byte(`{"nodes":[{"id":"a","type":"Custom(3)"}],"edges":[{"source":"a","target":1e400}]}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := Build(data, Options{MaxNodes: 1000})
		if err != nil {
			return
		}
		g := out.Graph
		if !g.Finalized() {
			t.Fatal("graph not finalized")
		}
		for e := 0; e < g.NumEdges(); e++ {
			if !graph.IsFinite(g.Weight(graph.EdgeIdx(e))) {
				t.Fatal("non-finite weight")
			}
		}
	})
}
