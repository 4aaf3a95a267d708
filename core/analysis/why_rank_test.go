package analysis

import (
	"fmt"
	"slices"
	"testing"
)

// TestWhyDirectEdgeFirst: a direct runtime dependency between the two
// nodes is the first answer whatever its weight (ingest gives an ambiguous
// call 0.5); a forward edge before a reversed one; a type-only import still
// yields to the runtime chain.
func TestWhyDirectEdgeFirst(t *testing.T) {
	tests := []struct {
		name  string
		nodes []string
		edges []e
		want  string // first path: nodes, relations, reversed
	}{
		{
			name:  "weak call vs a cycle read backwards (referenced_by, called_by)",
			nodes: []string{"a", "b", "c"},
			edges: []e{{"a", "b", "calls", 0.5}, {"b", "c", "calls", 1}, {"c", "a", "references", 1}},
			want:  "[file::a file::b] [calls] [false]",
		},
		{
			name:  "weak call vs the same file",
			nodes: []string{"f", "a", "b"},
			edges: []e{{"f", "a", "contains", 1}, {"f", "b", "contains", 1}, {"a", "b", "calls", 0.5}},
			want:  "[file::a file::b] [calls] [false]",
		},
		{
			name:  "forward edge before a stronger reversed one",
			nodes: []string{"a", "b"},
			edges: []e{{"a", "b", "calls", 0.5}, {"b", "a", "calls", 1}},
			want:  "[file::a file::b] [calls] [false]",
		},
		{
			name:  "type-only import yields to the runtime chain",
			nodes: []string{"a", "b", "c"},
			edges: []e{{"a", "b", TypeImports, 1}, {"a", "c", "imports", 1}, {"c", "b", "imports", 1}},
			want:  "[file::a file::c file::b] [imports imports] [false false]",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := build(t, tc.nodes, tc.edges)
			res, err := Why(g, n(t, g, "a"), n(t, g, "b"), DefaultWhyParams())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range res.Paths {
				var ids []string
				for _, x := range p.Nodes {
					ids = append(ids, g.ExternalID(x))
				}
				got = append(got, fmt.Sprintf("%v %v %v", ids, p.Relations, p.Reversed))
			}
			if len(got) == 0 || got[0] != tc.want {
				t.Errorf("paths = %q\nwant first %q", got, tc.want)
			}
			one := 0
			for _, p := range res.Paths {
				if len(p.Nodes) == 2 {
					one++
				}
			}
			if one > 1 || slices.ContainsFunc(res.Paths, func(c Chain) bool { return len(c.Nodes) < 2 }) {
				t.Errorf("paths = %q: the direct hop must be listed once", got)
			}
		})
	}
}
