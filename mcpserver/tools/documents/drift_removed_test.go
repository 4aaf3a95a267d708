package documents

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A name the prose gives that binds to no code and that a changelog says
// was removed or renamed is stale (starlette's database.md: `DatabaseMiddleware`
// "is currently still available" after release-notes.md said it was
// dropped). An unbound name the changelog does not mention, a bound one,
// one several defs carry (textual's post_message), a class attribute the
// graph has no node for (cursor_coordinate), a page saying the name is
// gone, and code blocks are no finding.
func TestDocumentDriftFindsNamesTheChangelogRemoved(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"CHANGES.rst":           "Changes\n=======\n\n2.0\n---\n\n- Renamed ``make_thing`` to ``build``.\n- Renamed ``Table.cursor_cell`` to ``Table.cursor_coordinate``.\n- Dropped ``emit``; use ``post_message``.\n- New ``kit drop-table`` command, see :ref:`cli_drop_table`.\n",
		"src/kit/__init__.py":   "class NewMiddleware:\n    pass\n\n\ndef build(x):\n    return x\n\n\nclass Table:\n    cursor_coordinate = 0\n\n    def post_message(self):\n        pass\n\n\nclass Pump:\n    def post_message(self):\n        pass\n",
		"docs/release-notes.md": "# Release notes\n\n## 1.0.0\n\n* `OldMiddleware` is now dropped in favour of `NewMiddleware`\n* Removed `gone_helper`.\n* Dropped support for PyPy 3.6 and JythonCore.\n",
		"docs/guide.md": "# Guide\n\nUse `NewMiddleware`.\n\nThe built-in `OldMiddleware` is still available.\n\n" +
			"Call `make_thing()` first. `OtherThing` is a library's. It runs on PyPy and `JythonCore`.\n\nMove `cursor_coordinate`, then `post_message()`. See `cli_drop_table`.\n\n```python\ngone_helper(1)\n```\n",
		"docs/old.md": "# Old\n\n`gone_helper` was removed in 1.0.\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	want := []string{
		"5 missing_target | the page names OldMiddleware, which no code defines now; docs/release-notes.md:5 says: * `OldMiddleware` is now dropped in favour of `NewMiddleware`",
		"7 missing_target | the page names make_thing, which no code defines now; CHANGES.rst:7 says: - Renamed ``make_thing`` to ``build``.",
	}
	if diff := cmp.Diff(want, findingLines(out)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
