package history_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/core/seek"
)

// attrsShape is issue 27's attrs on a small scale: make.py holds many
// entities whose names carry the task's words, validators.py is named by
// them and its body repeats one, but no entity of it is named so.
func attrsShape(t *testing.T) (*graph.Graph, *seek.Index) {
	t.Helper()
	g := graph.New()
	file := func(p string) graph.NodeID {
		id, _ := g.AddNode(graph.Node{ExternalID: "file::" + p, Label: p, Type: graph.File,
			Provenance: graph.Provenance{SourcePath: p, LineStart: 1, LineEnd: 40}})
		return id
	}
	mk := file("make.py")
	for i := range uint32(12) {
		name := fmt.Sprintf("empty_validator_%d", i)
		fn, _ := g.AddNode(graph.Node{ExternalID: "file::make.py::" + name, Label: name, Type: graph.Function,
			Provenance: graph.Provenance{SourcePath: "make.py", LineStart: 1 + 3*i, LineEnd: 3 + 3*i}})
		g.AddEdge(graph.Edge{Source: mk, Target: fn, Relation: "contains", Weight: 1})
	}
	va := file("validators.py")
	fn, _ := g.AddNode(graph.Node{ExternalID: "file::validators.py::instance_of", Label: "instance_of", Type: graph.Function,
		Provenance: graph.Provenance{SourcePath: "validators.py", LineStart: 1, LineEnd: 40}})
	g.AddEdge(graph.Edge{Source: va, Target: fn, Relation: "contains", Weight: 1})
	file("other.py")
	g.Finalize()
	o := seek.DefaultOptions()
	o.ReadFile = func(p string) ([]byte, error) {
		switch p {
		case "validators.py":
			return []byte(strings.Repeat("validator = instance_of(validator)\n", 40)), nil
		case "other.py":
			return []byte("def sub(a, b): return a - b\n"), nil
		}
		return []byte(strings.Repeat("pass\n", 40)), nil
	}
	sx, err := seek.Build(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	return g, sx
}

func TestTaskFilesFileLevel(t *testing.T) {
	g, sx := attrsShape(t)
	for _, tc := range []struct {
		task string
		n    int
		want string // a file the list must hold
	}{
		// The 4n entity hits are all make.py's: validators.py comes in
		// by its own text.
		{"add a not_empty validator", 2, "validators.py"},
		{"add a not_empty validator", 2, "make.py"},
	} {
		var got []string
		for _, f := range history.TaskFiles(sx, tc.task, tc.n) {
			got = append(got, g.Label(f))
		}
		if len(got) > tc.n {
			t.Errorf("TaskFiles(%q, %d) = %v: more than %d", tc.task, tc.n, got, tc.n)
		}
		if !slices.Contains(got, tc.want) {
			t.Errorf("TaskFiles(%q, %d) = %v, want %s among them", tc.task, tc.n, got, tc.want)
		}
	}
}
