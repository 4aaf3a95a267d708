package documents

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A missing name that is the reader's, not the project's, is no drift
// (textual in benchmarks/results/drift-precision2.md): the files of the
// project a packaging how-to has the reader create (drawn in a tree, or
// imported), a handler the reader writes named on project classes in a
// dispatch explanation (`Paddle.on_key`, then `Static.on_key`), a
// template page's placeholder, a file whose content the page shows under
// its name (the reader's tests/conftest.py); nor is a member named through
// another library's module (asyncio.TaskGroup.create_task) or on a history
// page (anyio's versionhistory.rst, on the held-out of
// drift-precision3.md). The same shapes naming the project's own gone
// file, member or module name stay findings.
func TestDocumentDriftLeavesTheReadersCode(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/kit/__init__.py": "",
		"src/kit/widget.py":   "class Widget:\n    async def _on_key(self, event):\n        pass\n\n\nclass Static(Widget):\n    def render(self):\n        return 1\n",
		"docs/events.md": "# Events\n\nSay you wrote a `Paddle` widget extending `Static`: Textual calls `Paddle.on_key`, then `Static.on_key`, " +
			"and finally `Widget.on_key`.\n\n## Rendering\n\n`Static.draw` paints the widget.\n",
		"docs/package.md": "# Packaging\n\n```\ncalc/\n├── src\n│   └── calc_app\n│       ├── __about__.py\n│       └── __init__.py\n```\n\n" +
			"- `src/calc_app/__about__.py` holds your version.\n\n```python\n>>> from shop_app import main\n```\n\n" +
			"Put it in `src/shop_app/entry.py`. The project's loader is `src/kit/loader.py`.\n\n" +
			"Set up tests in `src/kit/conftest.py`.\n\n**src/kit/conftest.py**:\n\n```python\nimport kit\n```\n",
		"docs/_template.md": "# WIDGET\n\nThe WIDGET widget: see `kit.widget.WIDGET`.\n",
		"docs/guide.md":     "# Guide\n\nSee `kit.widget.Gone`.\n",
		"src/kit/tasks.py":  "class TaskGroup:\n    def start_soon(self, f):\n        return f\n",
		"docs/tasks.md": "# Tasks\n\n## Differences with asyncio.TaskGroup\n\nasyncio spawns with `asyncio.TaskGroup.create_task`; " +
			"ours with `kit.tasks.TaskGroup.start_soon`, not `kit.tasks.TaskGroup.spawn`.\n",
		"docs/versionhistory.rst": "Version history\n===============\n\n**UNRELEASED**\n\n- Removed the ``TaskGroup.spawn_later()`` method\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	var got []string
	for _, doc := range out["documents"].([]any) {
		dm := doc.(map[string]any)
		for _, f := range dm["findings"].([]any) {
			m := f.(map[string]any)
			if m["kind"] == "missing_target" {
				got = append(got, fmt.Sprint(dm["source_path"], " ", m["mention"]))
			}
		}
	}
	want := []string{
		"docs/events.md Static.draw",
		"docs/guide.md kit.widget.Gone",
		"docs/package.md src/kit/loader.py",
		"docs/tasks.md kit.tasks.TaskGroup.spawn",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("missing_target findings (-want +got):\n%s", diff)
	}
}
