package snapshot

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	stdcmp "cmp"
	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/plasticity"
	"slices"
)

// dump is a comparable description of a graph's content (not its NodeIDs).
type dumpNode struct {
	graph.Node
	PageRank float32
}
type dumpEdge struct {
	Src, Dst, Rel  string
	Weight, Causal float32
	Dir            graph.Direction
	Inhibitory     bool
}

func dump(g *graph.Graph) ([]dumpNode, []dumpEdge) {
	var ns []dumpNode
	for i := 0; i < g.NumNodes(); i++ {
		n := g.Node(graph.NodeID(i))
		if len(n.Tags) == 0 {
			n.Tags = nil
		}
		ns = append(ns, dumpNode{n, g.PageRank(graph.NodeID(i))})
	}
	var es []dumpEdge
	for e := 0; e < g.NumEdges(); e++ {
		ei := graph.EdgeIdx(e)
		es = append(es, dumpEdge{g.ExternalID(g.Source(ei)), g.ExternalID(g.Target(ei)), g.RelationName(ei), g.Weight(ei), g.CausalStrength(ei), g.EdgeDirection(ei), g.Inhibitory(ei)})
	}
	// Edge order within a target depends on interning order; compare as sets.
	slices.SortFunc(es, func(a, b dumpEdge) int {
		return stdcmp.Compare(a.Src+"\x00"+a.Dst+"\x00"+a.Rel, b.Src+"\x00"+b.Dst+"\x00"+b.Rel)
	})
	return ns, es
}

func fixture() *graph.Graph {
	g := graphtest.PowerLaw(3000, 8000, 11)
	return g
}

func TestJSONRoundTrip(t *testing.T) {
	g := fixture()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, g); err != nil {
		t.Fatal(err)
	}
	h, err := ReadJSON(&buf)
	if err != nil {
		t.Fatal(err)
	}
	n1, e1 := dump(g)
	n2, e2 := dump(h)
	if diff := cmp.Diff(n1, n2); diff != "" {
		t.Errorf("nodes differ: %s", diff)
	}
	if diff := cmp.Diff(e1, e2); diff != "" {
		t.Errorf("edges differ: %s", diff)
	}
}

func TestJSONFieldsAndCompat(t *testing.T) {
	// A hand-written document in the JSON v3 shape
	// (docs/design.md#json-snapshot), with the variants a reader must
	// accept: serde-style Custom, numeric type, endpoints by external id.
	doc := `{"version":3,"nodes":[
	 {"external_id":"file::a.py","label":"a.py","node_type":"File","tags":["python"],"last_modified":1700000000,"change_frequency":0.5,
	  "provenance":{"source_path":"a.py","line_start":1,"line_end":40,"namespace":"code"}},
	 {"external_id":"file::a.py::f","label":"f","node_type":2,"last_modified":0,"change_frequency":0.1},
	 {"external_id":"x","label":"x","node_type":{"Custom":4},"last_modified":0,"change_frequency":0}],
	 "edges":[{"source":0,"target":1,"relation":"contains","weight":1,"direction":"bidirectional","inhibitory":false,"causal_strength":0.8},
	          {"source":"x","target":"file::a.py::f","relation":"suppresses","weight":0.5,"direction":"forward","inhibitory":true,"causal_strength":0.4}]}`
	g, err := ReadJSON(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	x, _ := g.Lookup("x")
	f, _ := g.Lookup("file::a.py::f")
	if g.Type(x) != graph.Custom(4) || g.Type(f) != graph.Function {
		t.Errorf("types %v %v", g.Type(x), g.Type(f))
	}
	e, ok := g.FindEdgeByName(x, f, "suppresses")
	if !ok || !g.Inhibitory(e) {
		t.Error("inhibitory edge by external id")
	}
	if g.NumEdges() != 3 {
		t.Errorf("edges %d, want 3 (bidirectional expanded)", g.NumEdges())
	}
	var out bytes.Buffer
	WriteJSON(&out, g)
	for _, field := range []string{`"version":3`, `"external_id"`, `"node_type":"Custom(4)"`, `"source_path":"a.py"`, `"causal_strength":0.8`, `"direction":"bidirectional"`} {
		if !strings.Contains(out.String(), field) {
			t.Errorf("written snapshot lacks %s", field)
		}
	}
	if strings.Count(out.String(), `"relation":"contains"`) != 1 {
		t.Error("bidirectional edge written twice")
	}
}

func TestJSONErrors(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"version", `{"version":2,"nodes":[],"edges":[]}`, "version 2 is not supported"},
		{"garbage", `{"version":3,`, "not a JSON graph snapshot"},
		{"not json", `hello`, "not a JSON graph snapshot"},
		{"trailing", `{"version":3,"nodes":[],"edges":[]} {}`, "trailing data"},
		{"no id", `{"version":3,"nodes":[{"label":"a","node_type":"File"}],"edges":[]}`, "no external_id"},
		{"dup id", `{"version":3,"nodes":[{"external_id":"a","node_type":0},{"external_id":"a","node_type":0}],"edges":[]}`, "duplicate external id"},
		{"bad type", `{"version":3,"nodes":[{"external_id":"a","node_type":"Widget"}],"edges":[]}`, "unknown node type"},
		{"bad index", `{"version":3,"nodes":[{"external_id":"a","node_type":0}],"edges":[{"source":0,"target":4,"relation":"r","weight":1,"direction":"forward"}]}`, "out of range"},
		{"bad ref", `{"version":3,"nodes":[{"external_id":"a","node_type":0}],"edges":[{"source":"a","target":"zz","relation":"r","weight":1,"direction":"forward"}]}`, `"zz" is not a node`},
		{"bad dir", `{"version":3,"nodes":[{"external_id":"a","node_type":0}],"edges":[{"source":0,"target":0,"relation":"r","weight":1,"direction":"sideways"}]}`, "unknown edge direction"},
		{"huge weight", `{"version":3,"nodes":[{"external_id":"a","node_type":0}],"edges":[{"source":0,"target":0,"relation":"r","weight":1e60,"direction":"forward"}]}`, "not a JSON graph snapshot"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadJSON(strings.NewReader(tc.doc))
			if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want ErrFormat containing %q", err, tc.want)
			}
		})
	}
}

func TestBinaryRoundTripKeepsEverything(t *testing.T) {
	g := fixture()
	p := g.EdgePlasticity()
	g.AtomicWriteWeight(5, 2.25)
	p.Strengthen[5], p.LTP[5] = 6, true
	p.Weaken[9], p.LTD[9] = 5, true
	data, err := EncodeBinary(g)
	if err != nil {
		t.Fatal(err)
	}
	h, err := DecodeBinary(data)
	if err != nil {
		t.Fatal(err)
	}
	r1, _ := g.ToRaw()
	r2, _ := h.ToRaw()
	if diff := cmp.Diff(r1, r2); diff != "" {
		t.Errorf("binary round trip differs: %s", diff)
	}
	n1, e1 := dump(g)
	n2, e2 := dump(h)
	if !cmp.Equal(n1, n2) || !cmp.Equal(e1, e2) {
		t.Error("content differs")
	}
}

func TestBinaryDetectsDamage(t *testing.T) {
	g := graphtest.PowerLaw(200, 500, 2)
	data, _ := EncodeBinary(g)
	// Every truncation is detected.
	for n := 0; n < len(data); n += 1 + n/50 {
		if _, err := DecodeBinary(data[:n]); !errors.Is(err, ErrFormat) {
			t.Fatalf("truncation to %d bytes: err = %v", n, err)
		}
	}
	// Every single-byte flip is detected.
	for i := 0; i < len(data); i += 1 + i/40 {
		bad := bytes.Clone(data)
		bad[i] ^= 0x5a
		if _, err := DecodeBinary(bad); err == nil {
			t.Fatalf("flip at byte %d not detected", i)
		}
	}
	bad := bytes.Clone(data)
	bad[8] = 9
	if _, err := DecodeBinary(bad); err == nil || !strings.Contains(err.Error(), "version 9") {
		t.Errorf("unknown version: %v", err)
	}
}

func TestSaveLoadBothFormats(t *testing.T) {
	dir := t.TempDir()
	g := fixture()
	for _, name := range []string{"graph.json", "graph.bin"} {
		path := filepath.Join(dir, name)
		if err := Save(g, path); err != nil {
			t.Fatal(err)
		}
		h, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		_, e1 := dump(g)
		_, e2 := dump(h)
		if !cmp.Equal(e1, e2) {
			t.Errorf("%s: edges differ after Save/Load", name)
		}
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
	unfinal := graph.New()
	unfinal.AddNode(graph.Node{ExternalID: "a"})
	if err := Save(unfinal, filepath.Join(dir, "x.json")); !errors.Is(err, graph.ErrNotFinalized) {
		t.Errorf("saving an unfinalized graph: %v", err)
	}
}

func TestPlasticityRoundTripSurvivesRenumbering(t *testing.T) {
	build := func(reverse bool) *graph.Graph {
		g := graph.New()
		ids := []string{"file::a.py", "file::b.py", "file::c.py", "file::a.py::f"}
		if reverse {
			ids = []string{"file::a.py::f", "file::c.py", "file::b.py", "file::a.py"}
		}
		for _, id := range ids {
			label := id[strings.LastIndex(id, ":")+1:]
			g.AddNode(graph.Node{ExternalID: id, Label: label})
		}
		e := func(s, t, r string) { g.AddEdgeByID(s, t, graph.Edge{Relation: r, Weight: 1}) }
		e("file::a.py", "file::b.py", "imports")
		e("file::b.py", "file::c.py", "imports")
		e("file::a.py::f", "file::c.py", "calls")
		g.Finalize()
		return g
	}
	eng, err := plasticity.New(plasticity.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	g := build(false)
	a, _ := g.Lookup("file::a.py")
	b, _ := g.Lookup("file::b.py")
	e, _ := g.FindEdgeByName(a, b, "imports")
	g.AtomicWriteWeight(e, 1.6)
	g.EdgePlasticity().Strengthen[e] = 5
	g.EdgePlasticity().LTP[e] = true
	states := eng.ExportState(g)
	if len(states) != 1 {
		t.Fatalf("exported %d states, want only the learned edge", len(states))
	}
	path := filepath.Join(t.TempDir(), "plasticity.json")
	if err := SavePlasticity(path, states); err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadPlasticity(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(states, loaded); diff != "" {
		t.Fatalf("file round trip: %s", diff)
	}
	h := build(true)
	if st, err := eng.ImportState(h, loaded); err != nil || st.Applied != 1 {
		t.Fatalf("import: %+v %v", st, err)
	}
	a, _ = h.Lookup("file::a.py")
	b, _ = h.Lookup("file::b.py")
	e, _ = h.FindEdgeByName(a, b, "imports")
	if h.Weight(e) != 1.6 || !h.EdgePlasticity().LTP[e] || h.EdgePlasticity().Strengthen[e] != 5 || h.EdgePlasticity().Original[e] != 1 {
		t.Errorf("state not restored: w=%v", h.Weight(e))
	}
}

func TestPlasticityFileOverflowFallsBack(t *testing.T) {
	// JSON cannot spell NaN or Inf; an out-of-range number is how a
	// non-finite weight reaches a file. It must not void the whole file.
	doc := `{"version":1,"edges":[{"source_label":"file::a","target_label":"file::b","relation":"calls","original_weight":1,"current_weight":1e39}]}`
	states, err := ReadPlasticity(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	g := graph.New()
	g.AddNode(graph.Node{ExternalID: "file::a"})
	g.AddNode(graph.Node{ExternalID: "file::b"})
	g.AddEdgeByID("file::a", "file::b", graph.Edge{Relation: "calls", Weight: 0.7})
	g.Finalize()
	eng, _ := plasticity.New(plasticity.DefaultParams())
	st, err := eng.ImportState(g, states)
	if err != nil || st.NonFinite != 1 {
		t.Fatalf("stats %+v err %v", st, err)
	}
	if w := g.Weight(0); w != 1 {
		t.Errorf("non-finite weight did not fall back to the original: %v", w)
	}
}

func TestPlasticityInvalidIsSchemaError(t *testing.T) {
	for _, doc := range []string{``, `nope`, `{"version":1,"edges":[{"relation":"x"}]}`, `{"version":7,"edges":[]}`, `[{"source_label":"a","target_label":"b","relation":"r","current_weight":"high"}]`, `{"version":1,"edges":[]} x`} {
		if _, err := ReadPlasticity(strings.NewReader(doc)); !errors.Is(err, ErrFormat) {
			t.Errorf("%q: err = %v", doc, err)
		}
	}
}

// interruptSaves cuts save short at each step of WriteFileAtomic and at
// about n byte offsets of its size-byte file: each time the save must
// fail, the file at path must still hold before and load, and no temp
// file may linger beside it.
func interruptSaves(t *testing.T, path string, size, n int, before []byte, save func() error, load func(string) error) {
	t.Helper()
	boom := errors.New("simulated crash")
	points := []string{"created", "written", "synced"}
	for off := 0; off < size; off += size/n + 1 {
		points = append(points, "byte:"+strconv.Itoa(off))
	}
	defer func() { faultHook = nil }()
	for _, point := range points {
		faultHook = func(step string) error {
			if step == point || (strings.HasPrefix(point, "byte:") && strings.HasPrefix(step, "byte:") && atoi(step[5:]) >= atoi(point[5:])) {
				return boom
			}
			return nil
		}
		err := save()
		faultHook = nil
		if !errors.Is(err, boom) {
			t.Fatalf("%s: save returned %v", point, err)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Fatalf("%s: the previous file changed", point)
		}
		if err := load(path); err != nil {
			t.Fatalf("%s: previous file no longer loads: %v", point, err)
		}
		if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
			t.Fatalf("%s: temp files left behind: %v", point, entries)
		}
	}
}

// TestAtomicWriteInterrupted cuts a save short at every step and at many
// byte offsets: the previous file must stay loadable and no temp file may
// linger.
func TestAtomicWriteInterrupted(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "graph.json")
	old := graphtest.PowerLaw(100, 250, 1)
	if err := SaveJSON(old, path); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	next := graphtest.PowerLaw(400, 1000, 2)
	var size bytes.Buffer
	WriteJSON(&size, next)
	interruptSaves(t, path, size.Len(), 37, before, func() error { return SaveJSON(next, path) },
		func(p string) error { _, err := LoadJSON(p); return err })
	// A crash after the rename leaves the new file complete.
	faultHook = func(step string) error {
		if step == "renamed" {
			return errors.New("simulated crash")
		}
		return nil
	}
	SaveJSON(next, path)
	faultHook = nil
	h, err := LoadJSON(path)
	if err != nil || h.NumNodes() != 400 {
		t.Fatalf("after rename: %v", err)
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
