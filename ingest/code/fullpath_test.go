package code

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

// TestFullWithoutStoreEqualsWithStore checks that a run without a cache
// store, which keeps no resolution outcomes and drops its extractions
// before Finalize, builds the same graph, in the same node order, with the
// same counts as a run that keeps everything for the next one.
func TestFullWithoutStoreEqualsWithStore(t *testing.T) {
	for _, tc := range []struct {
		name string
		dir  func(t *testing.T) string
	}{
		{"fixture repository", func(t *testing.T) string { return newFixtureRepo(t).Dir }},
		{"Go source slice", func(t *testing.T) string {
			dir, _ := goSourceSlice(t, "go/token", "go/scanner", "go/ast", "text/tabwriter")
			return dir
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.dir(t)
			bare := ingest(t, adapter.Request{Root: dir})
			kept := ingest(t, adapter.Request{Root: dir, CacheDir: t.TempDir()})
			if diff := cmp.Diff(graphdump.Of(kept.Graph), graphdump.Of(bare.Graph)); diff != "" {
				t.Fatalf("graphs differ (-with store +without):\n%s", diff)
			}
			if diff := cmp.Diff(nodeOrder(kept.Graph), nodeOrder(bare.Graph)); diff != "" {
				t.Fatalf("node order differs (-with store +without):\n%s", diff)
			}
			ks, bs := kept.Stats, bare.Stats
			counts := func(s adapter.Stats) []int {
				return []int{s.FilesParsed, s.NodesCreated, s.EdgesCreated, s.ReferencesResolved, s.ReferencesAmbiguous, s.ReferencesUnresolved, s.LabelCollisions}
			}
			if diff := cmp.Diff(counts(ks), counts(bs)); diff != "" {
				t.Fatalf("counts differ (-with store +without):\n%s", diff)
			}
		})
	}
}

// goSourceSlice copies packages of the Go source tree (real code with
// cross-file calls, methods and imports) into a temporary root with a
// go.mod, and lists the files copied.
func goSourceSlice(t *testing.T, pkgs ...string) (dir string, files []string) {
	t.Helper()
	src := filepath.Join(runtime.GOROOT(), "src")
	dir = t.TempDir()
	for _, pkg := range pkgs {
		entries, err := os.ReadDir(filepath.Join(src, pkg))
		if err != nil {
			t.Skipf("Go source tree not readable: %v", err)
		}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
				continue
			}
			data, err := os.ReadFile(filepath.Join(src, pkg, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			rel := pkg + "/" + e.Name()
			writeFiles(t, dir, map[string]string{rel: string(data)})
			files = append(files, rel)
		}
	}
	writeFiles(t, dir, map[string]string{"go.mod": "module std\n\ngo 1.26\n"})
	return dir, files
}
