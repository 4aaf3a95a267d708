package structure

import (
	"fmt"
	"testing"
)

// stack is a four-layer set of modules, two per layer, with one upward
// import: util/a.py imports service/x.py.
func stack() *Units {
	names := []string{"app/a.py", "app/b.py", "service/x.py", "service/y.py", "store/a.py", "store/b.py", "util/a.py", "util/b.py"}
	idx := map[string]int{}
	for i, s := range names {
		idx[s] = i
	}
	links := map[[2]int]int{}
	for _, e := range [][2]string{
		{"app/a.py", "service/x.py"}, {"app/b.py", "service/y.py"}, {"app/b.py", "service/x.py"},
		{"service/x.py", "store/a.py"}, {"service/x.py", "store/b.py"}, {"service/y.py", "store/b.py"},
		{"store/a.py", "util/a.py"}, {"store/a.py", "util/b.py"}, {"store/b.py", "util/a.py"},
		{"util/a.py", "service/x.py"}, // the upward import
	} {
		links[[2]int{idx[e[0]], idx[e[1]]}] = 1
	}
	return FromLinks(names, links)
}

func describe(L *Layering) []string {
	var out []string
	for _, ly := range L.Layers {
		s := fmt.Sprintf("L%d:", ly.Level)
		for _, v := range ly.Units {
			s += " " + L.Units.Names[v]
		}
		out = append(out, s)
	}
	for _, v := range L.Violations {
		out = append(out, fmt.Sprintf("%s %s %s(L%d) -> %s(L%d)", v.Severity, v.Kind, L.Units.Names[v.From], v.FromLevel, L.Units.Names[v.To], v.Level))
	}
	return out
}

func TestDetectLayersOneUpwardImport(t *testing.T) {
	L := DetectLayers(stack(), LayerOptions{})
	got := describe(L)
	want := []string{
		"L0: util/a.py util/b.py",
		"L1: store/a.py store/b.py",
		"L2: service/x.py service/y.py",
		"L3: app/a.py app/b.py",
		"High UpwardDependency util/a.py(L0) -> service/x.py(L2)",
		"High CircularDependency util/a.py(L0) -> service/x.py(L2)",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("layers:\n got %q\nwant %q", got, want)
	}
	if len(L.Cycles) != 1 || len(L.Cycles[0]) != 4 {
		t.Errorf("cycles = %v, want one of 4 units (service/x, store/a, store/b, util/a)", L.Cycles)
	}
	// 10 links, one points up.
	if L.Edges != 10 || L.Clean != 9 {
		t.Errorf("edges %d clean %d, want 10 and 9", L.Edges, L.Clean)
	}
	if h := L.Layers[0].Health; h.Up != 1 || h.Separation != 0 {
		t.Errorf("bottom layer health %+v, want Up 1, separation 0 (the bottom layer's only link goes up)", h)
	}
}

func TestDetectLayersTable(t *testing.T) {
	for _, tc := range []struct {
		name  string
		names []string
		links [][3]int
		opt   LayerOptions
		want  []string
	}{
		{"empty", nil, nil, LayerOptions{}, nil},
		{"orphans only", []string{"a", "b"}, nil, LayerOptions{}, nil},
		{"sparse chain kept: one layer would say nothing", []string{"a", "b", "c"}, [][3]int{{0, 1, 1}, {1, 2, 1}}, LayerOptions{}, []string{"L0: c", "L1: b", "L2: a"}},
		{"a sparse cycle stays one layer", []string{"a", "b", "c"}, [][3]int{{0, 1, 1}, {1, 2, 1}, {2, 0, 1}}, LayerOptions{}, []string{"L0: a b c", "Medium CircularDependency c(L0) -> a(L0)"}},
		{"one package and its users", []string{"core", "ex1", "ex2", "ex3"}, [][3]int{{1, 0, 1}, {2, 0, 1}, {3, 0, 1}}, LayerOptions{}, []string{"L0: core", "L1: ex1 ex2 ex3"}},
		{"sparse layer merged into a neighbour", []string{"a", "b", "c", "d", "e"}, [][3]int{{0, 2, 1}, {1, 2, 1}, {2, 3, 1}, {2, 4, 1}}, LayerOptions{}, []string{"L0: c d e", "L1: a b"}},
		{"chain kept with min size 1", []string{"a", "b", "c"}, [][3]int{{0, 1, 1}, {1, 2, 1}}, LayerOptions{MinLayerSize: 1}, []string{"L0: c", "L1: b", "L2: a"}},
		{"deep chain compressed", []string{"a", "b", "c", "d"}, [][3]int{{0, 1, 1}, {1, 2, 1}, {2, 3, 1}}, LayerOptions{MinLayerSize: 1, MaxLayers: 2}, []string{"L0: c d", "L1: a b"}},
		{"two-cycle: heavier side wins", []string{"a", "b", "c", "d"}, [][3]int{{0, 1, 3}, {1, 0, 1}, {2, 3, 1}}, LayerOptions{MinLayerSize: 1},
			[]string{"L0: b d", "L1: a c", "Medium UpwardDependency b(L0) -> a(L1)", "Low CircularDependency b(L0) -> a(L1)"}},
		{"skip layer around b", []string{"a", "b", "c", "d"}, [][3]int{{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {0, 2, 1}}, LayerOptions{MinLayerSize: 1},
			[]string{"L0: d", "L1: c", "L2: b", "L3: a", "Low SkipLayer a(L3) -> c(L1)"}},
		{"skip without an intermediary is fine", []string{"a", "b", "c", "d"}, [][3]int{{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {0, 3, 1}}, LayerOptions{MinLayerSize: 1},
			[]string{"L0: d", "L1: c", "L2: b", "L3: a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			links := map[[2]int]int{}
			for _, l := range tc.links {
				links[[2]int{l[0], l[1]}] = l[2]
			}
			got := describe(DetectLayers(FromLinks(tc.names, links), tc.opt))
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestStronglyConnected(t *testing.T) {
	adj := [][]int{{1}, {2}, {0, 3}, {4}, {3}, {}}
	got := fmt.Sprint(StronglyConnected(adj))
	if want := "[[3 4] [0 1 2] [5]]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// A chain long enough to overflow a recursive walk's stack budget
	// in spirit: the iterative walk handles it.
	long := make([][]int, 200000)
	for i := 0; i+1 < len(long); i++ {
		long[i] = []int{i + 1}
	}
	long[len(long)-1] = []int{0}
	if c := StronglyConnected(long); len(c) != 1 || len(c[0]) != len(long) {
		t.Errorf("ring of %d: %d components", len(long), len(c))
	}
}

func TestUtilities(t *testing.T) {
	// top uses log at L0 from three layers; hub links two pairs.
	names := []string{"a1", "a2", "b1", "b2", "c1", "c2", "log", "lonely"}
	links := map[[2]int]int{}
	for _, l := range [][2]int{{0, 2}, {1, 3}, {2, 4}, {3, 5}, {0, 6}, {2, 6}, {4, 6}, {1, 6}, {3, 6}, {5, 6}} {
		links[l] = 1
	}
	L := DetectLayers(FromLinks(names, links), LayerOptions{MinLayerSize: 1})
	var got []string
	for _, u := range L.Utility {
		got = append(got, fmt.Sprintf("%s %s %d", names[u.Unit], u.Kind, u.Layers))
	}
	want := []string{"log CrossCutting 3", "lonely Orphan 0"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestArticulationBridge(t *testing.T) {
	// Two triangles joined through hub: hub is a bridge; a pendant is not.
	names := []string{"a", "b", "c", "hub", "x", "y", "z", "leaf"}
	links := map[[2]int]int{}
	for _, l := range [][2]int{{0, 1}, {1, 2}, {0, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {4, 6}, {7, 0}} {
		links[l] = 1
	}
	cut := articulation(FromLinks(names, links))
	var got []string
	for v, c := range cut {
		if c {
			got = append(got, names[v])
		}
	}
	if want := "[c hub x]"; fmt.Sprint(got) != want {
		t.Errorf("bridges %v, want %s", got, want)
	}
}
