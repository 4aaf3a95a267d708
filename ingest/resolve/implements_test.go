package resolve

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/workspace"
)

func TestGoImplements(t *testing.T) {
	dir := t.TempDir()
	srcs := map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.22\n",
		"shape/shape.go":  "package shape\n\ntype Shape interface {\n\tArea() float64\n\tName() string\n}\n\ntype Square struct{}\n\nfunc (Square) Area() float64 { return 1 }\n",
		"shape/square.go": "package shape\n\nfunc (s Square) Name() string { return \"square\" }\n",
		"shape/circle.go": "package shape\n\ntype Circle struct{}\n\nfunc (c *Circle) Area() float64 { return 3 }\n",
		"other/tri.go":    "package other\n\nimport \"example.com/m/shape\"\n\nvar _ shape.Shape = Tri{}\n\ntype Tri struct{}\n\nfunc (Tri) Area() float64 { return 0 }\nfunc (Tri) Name() string { return \"tri\" }\n",
		"lone/x.go":       "package lone\n\ntype X struct{}\n\nfunc (X) Area() float64 { return 0 }\nfunc (X) Name() string { return \"x\" }\n",
		"shape/bad.go":    "package shape\n\ntype Bad struct{}\n\nfunc (Bad) Area(scale int) float64 { return 0 }\nfunc (Bad) Name() (string, error) { return \"\", nil }\n",
	}
	var paths []string
	var results []*extract.Result
	for _, p := range []string{"go.mod", "shape/shape.go", "shape/square.go", "shape/circle.go", "shape/bad.go", "other/tri.go", "lone/x.go"} {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(srcs[p]), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		if filepath.Ext(p) == ".go" {
			r, err := extract.ExtractFile(p, []byte(srcs[p]))
			if err != nil {
				t.Fatal(err)
			}
			results = append(results, r)
		}
	}
	ws := workspace.Detect(dir, paths)
	got := GoImplements(results, ws)
	want := []Implementation{
		{Type: "file::other/tri.go::Tri", Interface: "file::shape/shape.go::Shape"},
		{Type: "file::shape/shape.go::Square", Interface: "file::shape/shape.go::Shape"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("GoImplements = %v\nwant %v (Circle lacks Name; Bad's methods take and return other counts; lone does not import shape)", got, want)
	}
	if got := GoImplements(results, nil); len(got) != 1 || got[0].Type != "file::shape/shape.go::Square" {
		t.Errorf("without a workspace: %v, want only the same-package Square", got)
	}
}
