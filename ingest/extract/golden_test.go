package extract

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// golden is the reviewable form of a Result: one line per node, edge and
// import, so a diff shows exactly what changed.
type golden struct {
	Language    string   `json:"language"`
	Package     string   `json:"package,omitempty"`
	ParseErrors int      `json:"parse_errors"`
	Nodes       []string `json:"nodes"`
	Edges       []string `json:"edges"`
	Imports     []string `json:"imports,omitempty"`
}

func goldenOf(r *Result) golden {
	g := golden{Language: r.Language, Package: r.Package, ParseErrors: r.ParseErrors}
	for _, n := range r.Nodes {
		g.Nodes = append(g.Nodes, fmt.Sprintf("L%d-%d %s %s %q [%s] | %s",
			n.Line, n.EndLine, n.Type, n.ID, n.Label, strings.Join(n.Tags, " "), n.Excerpt))
	}
	for _, e := range r.Edges {
		g.Edges = append(g.Edges, fmt.Sprintf("L%d %s -%s-> %s%s", e.Line, e.Source, e.Relation, e.Target, hintString(e.Hint)))
	}
	for _, im := range r.Imports {
		s := fmt.Sprintf("L%d %s", im.Line, im.Module)
		if im.Alias != "" {
			s += " as " + im.Alias
		}
		if len(im.Names) > 0 {
			s += " names=" + strings.Join(im.Names, ",")
		}
		g.Imports = append(g.Imports, s)
	}
	return g
}

func hintString(h RefHint) string {
	var parts []string
	if h.Module != "" {
		parts = append(parts, "module="+h.Module)
	}
	if h.Receiver != "" {
		parts = append(parts, "recv="+h.Receiver)
	}
	if h.ReceiverType != "" {
		parts = append(parts, "type="+h.ReceiverType)
	}
	if n, ok := h.ArgCount(); ok {
		parts = append(parts, fmt.Sprintf("args=%d", n))
	}
	if len(parts) == 0 {
		return ""
	}
	return " {" + strings.Join(parts, " ") + "}"
}

// fixtures lists testdata/<lang>/<file> inputs (not the golden files).
func fixtures(t testing.TB) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || strings.HasSuffix(p, ".golden.json") || strings.Contains(p, "/fuzz/") {
			return nil
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func TestGolden(t *testing.T) {
	for _, p := range fixtures(t) {
		rel := strings.TrimPrefix(filepath.ToSlash(p), "testdata/")
		t.Run(rel, func(t *testing.T) {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			r, err := ExtractFile(rel, src)
			if err != nil {
				t.Fatalf("ExtractFile: %v", err)
			}
			checkInvariants(t, r)
			got := goldenOf(r)
			gp := p + ".golden.json"
			if *update {
				var buf bytes.Buffer
				enc := json.NewEncoder(&buf)
				enc.SetEscapeHTML(false)
				enc.SetIndent("", "  ")
				if err := enc.Encode(got); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(gp, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			b, err := os.ReadFile(gp)
			if err != nil {
				t.Fatalf("missing golden file (run go test -update): %v", err)
			}
			var want golden
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("extraction of %s differs from %s (-want +got):\n%s", rel, gp, d)
			}
		})
	}
}

// checkInvariants holds for every result of every extractor: one file node
// first, unique node IDs nested under the file, edges from extracted nodes,
// contains edges between extracted nodes, sane lines, and UnresolvedRefs
// equal to the distinct ref:: targets.
func checkInvariants(t testing.TB, r *Result) {
	t.Helper()
	if len(r.Nodes) == 0 || r.Nodes[0].ID != FileID(r.Path) {
		t.Fatalf("first node must be the file node %q", FileID(r.Path))
	}
	ids := map[string]bool{}
	for _, n := range r.Nodes {
		if ids[n.ID] {
			t.Errorf("duplicate node ID %q", n.ID)
		}
		ids[n.ID] = true
		if n.ID != r.Nodes[0].ID && !strings.HasPrefix(n.ID, r.Nodes[0].ID+"::") {
			t.Errorf("node %q is not nested under its file", n.ID)
		}
		if n.Line == 0 || n.EndLine < n.Line {
			t.Errorf("node %q has lines %d-%d", n.ID, n.Line, n.EndLine)
		}
		if n.Label == "" {
			t.Errorf("node %q has an empty label", n.ID)
		}
		if len(n.Excerpt) > maxExcerpt {
			t.Errorf("node %q excerpt is %d bytes", n.ID, len(n.Excerpt))
		}
	}
	refs := map[string]bool{}
	for _, e := range r.Edges {
		if !ids[e.Source] {
			t.Errorf("edge source %q is not an extracted node (%s → %s)", e.Source, e.Relation, e.Target)
		}
		if strings.HasPrefix(e.Target, RefPrefix) {
			refs[e.Target] = true
			if e.Target == RefPrefix {
				t.Errorf("empty ref target from %q", e.Source)
			}
		} else if !ids[e.Target] {
			t.Errorf("edge target %q is neither extracted nor a ref", e.Target)
		}
		if e.Relation == RelContains && strings.HasPrefix(e.Target, RefPrefix) {
			t.Errorf("contains edge to a ref: %v", e)
		}
	}
	var want []string
	for r := range refs {
		want = append(want, r)
	}
	slices.Sort(want)
	if !slices.Equal(want, r.UnresolvedRefs) {
		t.Errorf("UnresolvedRefs = %v, want %v", r.UnresolvedRefs, want)
	}
}
