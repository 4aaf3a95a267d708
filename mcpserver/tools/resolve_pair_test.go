package tools

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// pairGraph is a prometheus- and zap-like layout: the same file name in
// two packages (codec.go, encoder.go, level.go), the shallower one not
// the one a neighbour imports; and a method name defined in two files
// alike.
func pairGraph(t *testing.T) *graph.Graph {
	t.Helper()
	g := graph.New()
	add := nodeAdder(t, g)
	for _, f := range []string{"prompb/codec.go", "prompb/types.go", "storage/remote/codec.go", "storage/remote/queue_manager.go",
		"encoder.go", "level.go", "logger.go", "zapcore/encoder.go", "zapcore/json_encoder.go", "zapcore/level.go", "zapcore/sampler.go",
		"main.go", "a/x.go", "b/y.go", "web/api.go", "rules/alerting.go", "web/api/v1/api.go", "promql/engine.go"} {
		add("file::"+f, graph.File)
	}
	add("file::rules/alerting.go::AlertingRule", graph.Struct, "go", "struct")
	add("file::web/api/v1/api.go::AlertingRule", graph.Struct, "go", "struct")
	add("file::promql/engine.go::Engine", graph.Struct, "go", "struct")
	for _, f := range []string{"a/x.go", "b/y.go"} {
		add("file::"+f+"::T", graph.Struct, "go", "struct")
		add("file::"+f+"::T::Close", graph.Function, "go", "method")
	}
	edge := func(a, b, rel string) {
		if err := g.AddEdgeByID("file::"+a, "file::"+b, graph.Edge{Relation: rel, Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"a/x.go", "b/y.go"} {
		edge(f, f+"::T", "contains")
		edge(f+"::T", f+"::T::Close", "contains")
	}
	edge("storage/remote/queue_manager.go", "storage/remote/codec.go", "imports")
	edge("web/api/v1/api.go", "promql/engine.go", "imports")
	edge("storage/remote/codec.go", "prompb/types.go", "imports")
	edge("encoder.go", "zapcore/json_encoder.go", "imports")
	edge("zapcore/json_encoder.go", "zapcore/encoder.go", "imports")
	edge("zapcore/sampler.go", "zapcore/level.go", "imports")
	edge("level.go", "zapcore/level.go", "imports")
	edge("logger.go", "level.go", "imports")
	edge("main.go", "a/x.go", "imports")
	g.Finalize()
	return g
}

func TestResolvePair(t *testing.T) {
	b := &session.Bundle{Graph: pairGraph(t)}
	tests := []struct {
		name     string
		a, b     string
		directed bool
		want     [2]string
	}{
		// The other side decides between files of one name.
		{"imported beside", "queue_manager", "codec", true, [2]string{"storage/remote/queue_manager.go", "storage/remote/codec.go"}},
		{"undirected pair", "codec", "queue_manager", false, [2]string{"storage/remote/codec.go", "storage/remote/queue_manager.go"}},
		{"claimed direction first", "json_encoder", "encoder", true, [2]string{"zapcore/json_encoder.go", "zapcore/encoder.go"}},
		{"sampler's level", "sampler", "level", true, [2]string{"zapcore/sampler.go", "zapcore/level.go"}},
		// The names alone are already nearest: nothing changes.
		{"shallower kept", "encoder", "json_encoder", true, [2]string{"encoder.go", "zapcore/json_encoder.go"}},
		{"logger's level", "logger", "level", true, [2]string{"logger.go", "level.go"}},
		// Nothing connects the pair: the names alone decide.
		{"unconnected", "api", "codec", true, [2]string{"web/api.go", "prompb/codec.go"}},
		// A namesake far deeper is no rival, connected or not.
		{"shallow declaration kept", "AlertingRule", "Engine", true, [2]string{"rules/alerting.go::AlertingRule", "promql/engine.go::Engine"}},
		// Ambiguous alone, one candidate nearest.
		{"ambiguous alone", "main", "Close", true, [2]string{"main.go", "a/x.go::T::Close"}},
		{"exact id stands", "file::b/y.go::T::Close", "main", false, [2]string{"b/y.go::T::Close", "main.go"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ra, rb, err := ResolvePair(b, tc.a, "source", tc.b, "target", tc.directed)
			if err != nil {
				t.Fatal(err)
			}
			got := [2]string{strings.TrimPrefix(b.Graph.ExternalID(ra.ID), "file::"), strings.TrimPrefix(b.Graph.ExternalID(rb.ID), "file::")}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ResolvePair(%q, %q) (-want +got):\n%s", tc.a, tc.b, diff)
			}
		})
	}
}

// TestResolvePairReports: a name the other side re-read says so, with
// the name alone's answer first among the alternatives.
func TestResolvePairReports(t *testing.T) {
	b := &session.Bundle{Graph: pairGraph(t)}
	ra, rb, err := ResolvePair(b, "queue_manager", "source", "codec", "target", true)
	if err != nil {
		t.Fatal(err)
	}
	want := []ResolvedName{{Name: "codec", NodeID: "file::storage/remote/codec.go", Alternatives: []string{"file::prompb/codec.go"}}}
	if diff := cmp.Diff(want, ResolvedNames(b.Graph, ra, rb)); diff != "" {
		t.Errorf("resolved_as (-want +got):\n%s", diff)
	}
}

// TestResolvePairErrors: a name nothing connects stays an error that
// teaches; an unknown name is reported as unknown.
func TestResolvePairErrors(t *testing.T) {
	b := &session.Bundle{Graph: pairGraph(t)}
	for _, tc := range []struct{ a, b, want string }{
		{"Close", "web/api.go", `source "Close" matches 2 nodes`},
		{"main", "nowhere", `target "nowhere" is not a node`},
		{"nowhere", "Close", `source "nowhere" is not a node`},
	} {
		if _, _, err := ResolvePair(b, tc.a, "source", tc.b, "target", true); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ResolvePair(%q, %q): %v, want %q", tc.a, tc.b, err, tc.want)
		}
	}
}

// nodeAdder adds a node by external id to g: a file's label is its base
// name, an entity's the id's last part, its source path the id's file.
func nodeAdder(t *testing.T, g *graph.Graph) func(id string, typ graph.NodeType, tags ...string) {
	return func(id string, typ graph.NodeType, tags ...string) {
		t.Helper()
		rest := strings.Split(strings.TrimPrefix(id, "file::"), "::")
		label := rest[len(rest)-1]
		if len(rest) == 1 {
			label = PathBase(rest[0])
		}
		if _, err := g.AddNode(graph.Node{ExternalID: id, Label: label, Type: typ, Tags: tags, Provenance: graph.Provenance{SourcePath: rest[0]}}); err != nil {
			t.Fatal(err)
		}
	}
}
