package structure

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"

	core "github.com/m1nd-go/m1nd/core/structure"
)

// corpusNeighbourhood is the set of backend files within hops of center
// in the corpus's own file-level edge list (either direction).
func corpusNeighbourhood(center string, hops int) []string {
	fileOf := func(id string) string {
		p, _, _ := strings.Cut(strings.TrimPrefix(id, "file::"), "::")
		return p
	}
	adj := map[string][]string{}
	for _, e := range testcorpus.Edges {
		a, b := fileOf(e.Source), fileOf(e.Target)
		_, okA := testcorpus.Backend[a]
		_, okB := testcorpus.Backend[b]
		if a != b && okA && okB {
			adj[a], adj[b] = append(adj[a], b), append(adj[b], a)
		}
	}
	seen := map[string]bool{center: true}
	frontier := []string{center}
	for h := 0; h < hops; h++ {
		var next []string
		for _, v := range frontier {
			for _, w := range adj[v] {
				if !seen[w] {
					seen[w] = true
					next = append(next, w)
				}
			}
		}
		frontier = next
	}
	var out []string
	for v := range seen {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

func TestDiagramNeighbourhood(t *testing.T) {
	d, _ := tooltest.IngestedFixture(t)
	for _, format := range []string{"mermaid", "dot"} {
		out := tooltest.MustCall(t, d, "diagram", map[string]any{"agent_id": "t", "center": "backend/session.py", "format": format, "depth": 2})
		text := out["diagram"].(string)
		want := corpusNeighbourhood("backend/session.py", 2)
		var missing []string
		for _, f := range want {
			if !strings.Contains(text, f) {
				missing = append(missing, f)
			}
		}
		if len(missing) > 0 || out["node_count"] != float64(len(want)) {
			t.Errorf("%s: %v nodes, want %d %v; missing %v\n%s", format, out["node_count"], len(want), want, missing, text)
		}
		// Every corpus dependency between drawn files is one arrow.
		pairs := corpusPairs(want)
		if out["edge_count"] != float64(len(pairs)) {
			t.Errorf("%s: %v arrows, want %d: %v", format, out["edge_count"], len(pairs), pairs)
		}
		for _, p := range pairs {
			if format == "dot" && !regexpLine(text, p[0], p[1]) {
				t.Errorf("no arrow %s -> %s in\n%s", p[0], p[1], text)
			}
		}
		checkRenders(t, format, text)
	}
	top := tooltest.MustCall(t, d, "diagram", map[string]any{"agent_id": "t", "max_nodes": 3})
	if top["node_count"] != float64(3) || top["nodes_omitted"] != float64(len(testcorpus.Backend)-3) {
		t.Errorf("top-3 diagram: %v nodes, %v omitted (want 3 and the rest of the %d files)", top["node_count"], top["nodes_omitted"], len(testcorpus.Backend))
	}
	checkRenders(t, "mermaid", top["diagram"].(string))
	res, isErr := tooltest.Call(t, d, "diagram", map[string]any{"agent_id": "t", "center": "no_such_thing_here.py"})
	if !isErr || res["hint"] == nil {
		t.Errorf("unknown center: %v", res)
	}
}

// corpusPairs are the corpus's file-level dependencies among files.
func corpusPairs(files []string) [][2]string {
	in := map[string]bool{}
	for _, f := range files {
		in[f] = true
	}
	seen := map[[2]string]bool{}
	var out [][2]string
	for _, e := range testcorpus.Edges {
		a, _, _ := strings.Cut(strings.TrimPrefix(e.Source, "file::"), "::")
		b, _, _ := strings.Cut(strings.TrimPrefix(e.Target, "file::"), "::")
		if k := [2]string{a, b}; a != b && in[a] && in[b] && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// regexpLine reports whether a DOT edge goes from the node labelled a to
// the node labelled b.
func regexpLine(dot, a, b string) bool {
	ids := map[string]string{}
	for _, l := range strings.Split(dot, "\n") {
		l = strings.TrimSpace(l)
		if id, rest, ok := strings.Cut(l, " [label=\""); ok && !strings.Contains(id, "->") {
			ids[id] = rest
		}
	}
	for _, l := range strings.Split(dot, "\n") {
		from, to, ok := strings.Cut(strings.TrimSpace(l), " -> ")
		if !ok {
			continue
		}
		to, _, _ = strings.Cut(strings.TrimSuffix(to, ";"), " ")
		if strings.Contains(ids[from], a) && strings.Contains(ids[to], b) {
			return true
		}
	}
	return false
}

// Labels that need escaping in both languages still render.
func TestDiagramHostileLabels(t *testing.T) {
	dg := core.Diagram{Nodes: []core.DiagramNode{
		{Label: `src/a"b#c<d>.py`, PageRank: 0.5, Center: true},
		{Label: "lib/back\\slash `tick` [x] {y} (z) | end", PageRank: 0.25},
		{Label: "graph/subgraph end;", PageRank: 0.1},
	}, Edges: []core.DiagramEdge{{From: 0, To: 1, Label: "calls"}, {From: 1, To: 2, Label: "im|ports\"x"}, {From: 2, To: 0}}}
	for _, dir := range []string{"TD", "LR"} {
		checkRenders(t, "mermaid", dg.Mermaid(dir, true))
		checkRenders(t, "dot", dg.DOT(dir, true))
	}
}

// checkRenders parses Mermaid with mermaid's own parser (node, the
// mermaid package of mcpserver/e2e/npm) and renders DOT with Graphviz's
// dot. Each skips when its tool is missing, except under CI, which
// installs both (.ci/run).
func checkRenders(t *testing.T, format, text string) {
	t.Helper()
	var cmd *exec.Cmd
	switch format {
	case "dot":
		if _, err := exec.LookPath("dot"); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("CI must render DOT: %v (apt-get install graphviz)", err)
			}
			t.Skip("no Graphviz dot (apt-get install graphviz)")
		}
		cmd = exec.Command("dot", "-Tsvg")
	default:
		dir, _ := filepath.Abs("../../e2e/npm")
		_, nodeErr := exec.LookPath("node")
		_, modErr := os.Stat(filepath.Join(dir, "node_modules", "mermaid"))
		if nodeErr != nil || modErr != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("CI must parse Mermaid: node %v, mermaid %v (npm ci in mcpserver/e2e/npm)", nodeErr, modErr)
			}
			t.Skip("no node or mermaid (npm ci in mcpserver/e2e/npm installs it)")
		}
		cmd = exec.Command("node", filepath.Join(dir, "mermaid-parse.mjs"))
	}
	cmd.Stdin = strings.NewReader(text)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s does not render: %v\n%s\n--- text ---\n%s", format, err, out, text)
	}
	if format == "dot" && !strings.Contains(string(out), "<svg") {
		t.Fatalf("dot gave no SVG: %.200s", out)
	}
}
