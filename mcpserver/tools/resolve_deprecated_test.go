package tools

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// deprecatedGraph is junit4's layout: two TestClass.java, the internal
// one's class deprecated, more depended on than the model one (old
// runners) and linked straight to BlockJUnit4ClassRunner (a javadoc
// import), which itself depends on the model one; and a Go function
// deprecated beside its replacement of the same name in another package.
func deprecatedGraph(t *testing.T) *graph.Graph {
	t.Helper()
	g := graph.New()
	add := nodeAdder(t, g)
	const internal, model, runner = "src/main/java/org/junit/internal/runners/TestClass.java",
		"src/main/java/org/junit/runners/model/TestClass.java", "src/main/java/org/junit/runners/BlockJUnit4ClassRunner.java"
	for _, f := range []string{internal, model, runner, "a/old.go", "b/new.go", "c/use.go", "d/use.go", "e/use.go"} {
		add("file::"+f, graph.File)
	}
	add("file::"+internal+"::TestClass", graph.Class, "java", "class", "deprecated")
	add("file::"+model+"::TestClass", graph.Class, "java", "class")
	add("file::"+runner+"::BlockJUnit4ClassRunner", graph.Class, "java", "class")
	add("file::"+internal+"::TestClass::getAnnotatedMethods", graph.Function, "java", "method")
	add("file::"+model+"::TestClass::getAnnotatedMethods", graph.Function, "java", "method")
	add("file::"+model+"::TestClass::Builder", graph.Class, "java", "class")
	add("file::"+model+"::TestClass::Builder::Builder", graph.Function, "java", "method", "constructor")
	add("file::a/old.go::Parse", graph.Function, "go", "function", "deprecated")
	add("file::b/new.go::Parse", graph.Function, "go", "function")
	edge := func(a, b string) {
		if err := g.AddEdgeByID("file::"+a, "file::"+b, graph.Edge{Relation: "imports", Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	edge(internal, runner)
	edge(runner, model)
	for _, u := range []string{"c/use.go", "d/use.go", "e/use.go"} {
		edge(u, "a/old.go::Parse")
	}
	g.Finalize()
	return g
}

// TestResolveDeprecatedLast: of two candidates alike, the one not
// deprecated is meant, however central the deprecated one, alone and in
// a pair that links the deprecated one closer; it stays the alternative.
func TestResolveDeprecatedLast(t *testing.T) {
	b := &session.Bundle{Graph: deprecatedGraph(t)}
	g := b.Graph
	const internal, model = "file::src/main/java/org/junit/internal/runners/TestClass.java",
		"file::src/main/java/org/junit/runners/model/TestClass.java"
	tests := []struct {
		ref, want string
		alts      []string
	}{
		{"TestClass", model, []string{internal, model + "::TestClass", internal + "::TestClass"}},
		{"TestClass.java", model, []string{internal}},
		{"Parse", "file::b/new.go::Parse", []string{"file::a/old.go::Parse"}},
		{"internal/runners/TestClass.java", internal, nil},
		// A constructor never means more than its class.
		{"Builder", model + "::TestClass::Builder", nil},
		// A member of the deprecated class is not meant either.
		{"TestClass.getAnnotatedMethods", model + "::TestClass::getAnnotatedMethods", []string{internal + "::TestClass::getAnnotatedMethods"}},
	}
	for _, tc := range tests {
		r, err := ResolveIn(g, tc.ref, "node_id")
		if err != nil {
			t.Fatal(err)
		}
		var alts []string
		for _, a := range r.Alternatives {
			alts = append(alts, g.ExternalID(a))
		}
		if diff := cmp.Diff([]any{tc.want, tc.alts}, []any{g.ExternalID(r.ID), alts}); diff != "" {
			t.Errorf("ResolveIn(%q) (-want +got):\n%s", tc.ref, diff)
		}
	}
	ra, _, err := ResolvePair(b, "TestClass", "subject", "BlockJUnit4ClassRunner", "object", true)
	if err != nil {
		t.Fatal(err)
	}
	if got := g.ExternalID(ra.ID); got != model {
		t.Errorf("pair: TestClass resolved to %s, want %s", got, model)
	}
}
