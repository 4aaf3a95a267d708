package toolset

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// TestSurfaceGolden pins what every tool publishes — description, input
// and output schemas, annotations, guidance, example — so that changing
// how a tool is declared cannot change what clients see unnoticed.
// -update rewrites testdata/golden/tools_surface.json.
func TestSurfaceGolden(t *testing.T) {
	t.Parallel()
	type entry struct {
		Name        string         `json:"name"`
		Title       string         `json:"title"`
		Description string         `json:"description"`
		Class       string         `json:"class"`
		Annotations tools.Hints    `json:"annotations"`
		Input       map[string]any `json:"input_schema"`
		Output      any            `json:"output_schema"`
		WhenToUse   string         `json:"when_to_use,omitempty"`
		AvoidWhen   string         `json:"avoid_when,omitempty"`
		Next        []string       `json:"next,omitempty"`
		Example     map[string]any `json:"example,omitempty"`
		Aliases     []string       `json:"aliases,omitempty"`
	}
	var got []entry
	for _, tl := range Builtin().All() {
		got = append(got, entry{tl.Name, tl.Title, tl.Description, tl.Class.String(), tl.Annotations(), tl.InputSchema(), tl.OutputSchema(), tl.WhenToUse, tl.AvoidWhen, tl.Next, tl.Example, tl.Aliases})
	}
	data, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "golden", "tools_surface.json")
	if *tooltest.UpdateGolden {
		if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestSurfaceGolden -update)", err)
	}
	if d := cmp.Diff(string(want), string(data)+"\n"); d != "" {
		t.Errorf("the published tool surface changed (-want +got):\n%s", d)
	}
}
