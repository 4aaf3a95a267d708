package docsgen

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/toolset"
)

// TestCommittedDocsAreCurrent fails when docs/tools.md no longer matches
// the registry: run `make docs` and commit the result.
func TestCommittedDocsAreCurrent(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(file), "..", "..", "docs", "tools.md")
	committed, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v (run `make docs`)", path, err)
	}
	want := Markdown(toolset.Builtin())
	if string(committed) != want {
		t.Fatalf("%s is stale: run `make docs` and commit it", path)
	}
}

func TestEveryToolDocumented(t *testing.T) {
	md := Markdown(toolset.Builtin())
	for _, tool := range toolset.Builtin().All() {
		if !strings.Contains(md, "\n## "+tool.Name+"\n") {
			t.Errorf("tool %s has no section", tool.Name)
		}
		for _, p := range tool.AllParams() {
			if !strings.Contains(md, "| `"+p.Name+"` |") {
				t.Errorf("tool %s: parameter %s undocumented", tool.Name, p.Name)
			}
		}
		section := md[strings.Index(md, "\n## "+tool.Name+"\n"):]
		if end := strings.Index(section[1:], "\n## "); end >= 0 {
			section = section[:end]
		}
		if !strings.Contains(section, "*"+tool.Title+"*") || !strings.Contains(section, "closed world") || !strings.Contains(section, "Result (`structuredContent`") {
			t.Errorf("tool %s: title, annotations or result fields undocumented", tool.Name)
		}
	}
}
