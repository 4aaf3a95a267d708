package ingest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if err := testcorpus.Write(dir, files); err != nil {
		t.Fatal(err)
	}
}

var project = map[string]string{
	"app/models.py":  "class User:\n    def save(self):\n        return True\n",
	"app/service.py": "from .models import User\n\n\ndef run():\n    User().save()\n    return helper()\n\n\ndef helper():\n    return 1\n",
}

func run(t *testing.T, cfg Config, existing *graph.Graph) *Output {
	t.Helper()
	out, err := Run(context.Background(), cfg, existing)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestRunErrorsTeach(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, project)
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, "path is empty"},
		{Config{Root: dir, Adapter: "pdf"}, "available adapters are article, auto, bibtex, code, crossref, json, light, memory, patent, rfc, universal"},
		{Config{Root: dir, Mode: "append"}, `use "replace"`},
		{Config{Root: dir, Adapter: "memory", Incremental: true}, "code adapter only"},
		{Config{Root: filepath.Join(dir, "nope")}, "does not exist"},
	} {
		_, err := Run(context.Background(), c.cfg, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want it to mention %q", c.cfg, err, c.want)
		}
	}
}

func TestMergeMemoryIntoCode(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, project)
	notes := t.TempDir()
	write(t, notes, map[string]string{"MEMORY.md": "# Auth\n- TODO: User.save in app/models.py must validate\n- Decision: keep service.py small\n"})

	code := run(t, Config{Root: dir}, nil)
	before := graphdump.Of(code.Graph)
	merged := run(t, Config{Root: notes, Adapter: "memory", Mode: Merge, Namespace: "team"}, code.Graph)

	if diff := cmp.Diff(before, graphdump.Of(code.Graph)); diff != "" {
		t.Fatalf("merge modified the existing graph:\n%s", diff)
	}
	d := graphdump.Of(merged.Graph)
	if !d.Has("memory::team::reference::app-models-py", "references", "file::app/models.py") {
		t.Errorf("note reference not bridged to the code file:\n%s", strings.Join(d.EdgeStrings(), "\n"))
	}
	// service.py is mentioned without a directory: it still names one file.
	if !d.Has("memory::team::reference::service-py", "references", "file::app/service.py") {
		t.Error("bare file name not bridged")
	}
	if merged.Stats.GraphNodes != code.Graph.NumNodes()+merged.Stats.NodesCreated || !merged.Graph.Finalized() {
		t.Errorf("merged totals: %+v (code graph %d nodes)", merged.Stats, code.Graph.NumNodes())
	}
	if _, ok := d.Node("file::app/service.py::run"); !ok {
		t.Error("code nodes lost in merge")
	}

	// The other order: code merged into a graph holding the notes.
	notesFirst := run(t, Config{Root: notes, Adapter: "memory", Namespace: "team"}, nil)
	codeSecond := run(t, Config{Root: dir, Mode: Merge}, notesFirst.Graph)
	if !graphdump.Of(codeSecond.Graph).Has("memory::team::reference::app-models-py", "references", "file::app/models.py") {
		t.Error("notes ingested before the code were not bridged")
	}

	// Replace discards what was there.
	repl := run(t, Config{Root: notes, Adapter: "memory"}, merged.Graph)
	if _, ok := repl.Graph.Lookup("file::app/service.py"); ok {
		t.Error("replace kept the old graph")
	}
}

func TestMergeUpdatesExistingNodes(t *testing.T) {
	dir := t.TempDir()
	desc := filepath.Join(dir, "g.json")
	write(t, dir, map[string]string{"g.json": `{"nodes":[{"id":"a","label":"first"},{"id":"b"}],"edges":[{"source":"a","target":"b","relation":"calls"}]}`})
	first := run(t, Config{Root: desc, Adapter: "json"}, nil)
	write(t, dir, map[string]string{"g.json": `{"nodes":[{"id":"a","label":"second"},{"id":"c"}],"edges":[{"source":"a","target":"c","relation":"calls"}]}`})
	second := run(t, Config{Root: desc, Adapter: "json", Mode: Merge}, first.Graph)
	g := second.Graph
	a, _ := g.Lookup("a")
	if g.NumNodes() != 3 || g.Label(a) != "second" || second.Stats.GraphEdges != 2 {
		t.Errorf("merge: %d nodes, label %q, %d edges", g.NumNodes(), g.Label(a), second.Stats.GraphEdges)
	}
}

func TestIncrementalCarriesWeights(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, project)
	cacheDir := t.TempDir()
	c := NewCache(cacheDir)
	first := run(t, Config{Root: dir, Cache: c}, nil)
	g := first.Graph
	find := func(g *graph.Graph, src, rel, dst string) graph.EdgeIdx {
		t.Helper()
		s, ok1 := g.Lookup(src)
		d, ok2 := g.Lookup(dst)
		e, ok3 := g.FindEdgeByName(s, d, rel)
		if !ok1 || !ok2 || !ok3 {
			t.Fatalf("edge %s -%s-> %s not found", src, rel, dst)
		}
		return e
	}
	// Learned state on two edges; one of them disappears with the edit.
	kept := find(g, "file::app/service.py::run", "calls", "file::app/models.py::User::save")
	gone := find(g, "file::app/service.py::run", "calls", "file::app/service.py::helper")
	for _, e := range []graph.EdgeIdx{kept, gone} {
		if err := g.AtomicWriteWeight(e, 2.5); err != nil {
			t.Fatal(err)
		}
		g.EdgePlasticity().Strengthen[e] = 4
	}

	write(t, dir, map[string]string{"app/service.py": "from .models import User\n\n\ndef run():\n    User().save()\n\n\ndef helper():\n    return 1\n"})
	at := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(dir, "app/service.py"), at, at)
	second := run(t, Config{Root: dir, Cache: c, Incremental: true}, g)
	if inc := second.Stats.Incremental; inc == nil || inc.Full || !inc.Patched || inc.Changed != 1 || inc.Reused != 1 {
		t.Fatalf("incremental stats %+v", second.Stats.Incremental)
	}
	if second.WeightsCarried != 1 {
		t.Errorf("WeightsCarried = %d, want 1", second.WeightsCarried)
	}
	e := find(second.Graph, "file::app/service.py::run", "calls", "file::app/models.py::User::save")
	if w := second.Graph.Weight(e); w != 2.5 || second.Graph.EdgePlasticity().Strengthen[e] != 4 {
		t.Errorf("carried weight %v strengthen %d", w, second.Graph.EdgePlasticity().Strengthen[e])
	}
	// Without incremental, replace starts from ingested weights.
	third := run(t, Config{Root: dir}, second.Graph)
	e = find(third.Graph, "file::app/service.py::run", "calls", "file::app/models.py::User::save")
	if w := third.Graph.Weight(e); w != 1 || third.WeightsCarried != 0 {
		t.Errorf("full replace kept learned weight %v", w)
	}
}

// docAdapter stands in for the document adapters of a later issue.
type docAdapter struct{}

func (docAdapter) Name() string   { return "doc" }
func (docAdapter) Domain() string { return "document" }
func (docAdapter) Ingest(_ context.Context, req adapter.Request) (*adapter.Output, error) {
	g := graph.New()
	if _, err := g.AddNode(graph.Node{ExternalID: "doc::" + filepath.Base(req.Root)}); err != nil {
		return nil, err
	}
	g.Finalize()
	return &adapter.Output{Graph: g, Stats: adapter.Stats{Adapter: "doc", NodesCreated: 1}}, nil
}

func TestRegistry(t *testing.T) {
	reg := adapter.NewRegistry()
	if err := reg.Register(docAdapter{}, "PDF", "article"); err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(docAdapter{}); err == nil {
		t.Error("registered the same name twice")
	}
	for _, n := range []string{"doc", "DOC", "pdf", " article "} {
		if a, err := reg.Lookup(n); err != nil || a.Name() != "doc" {
			t.Errorf("Lookup(%q) = %v, %v", n, a, err)
		}
	}
	out := run(t, Config{Root: "/tmp/paper.pdf", Adapter: "pdf", Registry: reg}, nil)
	if _, ok := out.Graph.Lookup("doc::paper.pdf"); !ok || out.Stats.GraphNodes != 1 {
		t.Errorf("custom adapter output %+v", out.Stats)
	}
	if got := Adapters().Names(); !cmp.Equal(got, []string{"article", "auto", "bibtex", "code", "crossref", "json", "light", "memory", "patent", "rfc", "universal"}) {
		t.Errorf("default adapters %v", got)
	}
}
