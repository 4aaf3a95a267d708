package analysis

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
)

// A test reaches a module through modules without behaviour of their own
// — rich's test_palette.py imports _palettes.py, whose palettes are
// palette.py's objects — so the module is tested. A module with
// behaviour in between (a Go file calling its package's helpers) does not
// test what it calls, nor does a path longer than three hops.
func TestStructuralHolesUntestedReachesThroughData(t *testing.T) {
	base := []string{"tests/test_a.py>pkg/a.py", "tests/test_b.py>pkg/b.py", "tests/test_c.py>pkg/c.py",
		"pkg/cli.py>pkg/palette.py"} // an untested user: not tested through its users
	data := []string{"pkg/_palettes.py", "pkg/__init__.py", "pkg/_more.py"}
	for _, c := range []struct {
		name  string
		edges []string
		want  []string
	}{
		{"no test reaches it", nil, []string{"untested pkg/palette.py"}},
		{"through a data module", []string{"tests/test_pal.py>pkg/_palettes.py", "pkg/_palettes.py>pkg/palette.py"}, nil},
		{"through a re-export file and a data module", []string{"tests/test_pal.py>pkg/__init__.py",
			"pkg/__init__.py>pkg/_palettes.py", "pkg/_palettes.py>pkg/palette.py"}, nil},
		{"through a module with behaviour", []string{"tests/test_v.py>pkg/viper.py", "pkg/viper.py>pkg/palette.py"},
			[]string{"untested pkg/palette.py"}},
		{"four hops away", []string{"tests/test_pal.py>pkg/__init__.py", "pkg/__init__.py>pkg/_more.py",
			"pkg/_more.py>pkg/_palettes.py", "pkg/_palettes.py>pkg/palette.py"}, []string{"untested pkg/palette.py"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := dataGraph(t, append(slices.Clone(base), c.edges...), data)
			var act []graph.Scored
			for i, p := range []string{"pkg/a.py", "pkg/b.py", "pkg/c.py", "pkg/palette.py"} {
				id, _ := g.Lookup("file::" + p)
				act = append(act, graph.Scored{Node: id, Score: 1 - 0.1*float32(i)})
			}
			if diff := cmp.Diff(c.want, holeLines(t, g, act)); diff != "" {
				t.Errorf("holes (-want +got):\n%s", diff)
			}
		})
	}
}
