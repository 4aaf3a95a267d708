package documents

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// receiverRepo: moment() and now() return a Moment (a quoted and a plain
// annotation); shift is inherited from Base. The page binds dt to what
// moment() returns and calls a method on now()'s result (pendulum's
// dt = pendulum.datetime(…); dt.format(…) and pendulum.now().subtract(…)).
var receiverRepo = map[string]string{
	"src/kit/__init__.py": "from .clock import now, moment, untyped, Moment\n",
	"src/kit/clock.py": "class Base:\n    def shift(self, days=0, hours=0):\n        return self\n\n\n" +
		"class Moment(Base):\n    def format(self, fmt, locale=None, formatter=\"classic\"):\n        return fmt\n\n\n" +
		"def moment(year, month=1) -> \"Moment\":\n    return Moment()\n\n\ndef now() -> Moment:\n    return Moment()\n\n\ndef untyped():\n    return Moment()\n",
	"docs/guide.md": "# Guide\n\n```python\nimport kit\n\ndt = kit.moment(2020, month=kit.now().shift(days=1).month)\n" +
		"dt.format(\"YYYY\", formatter=\"alternative\")\nkit.now().shift(dayss=1)\nkit.now().shift(days=1)\n" +
		"u = kit.untyped()\nu.format(\"Y\", style=1)\n```\n",
}

// A method called on what a typed function returned is checked against
// the class the annotation names, through its bases: formatter, dropped
// after the page, names its commit; dayss never fitted. An unannotated
// function's result stays unchecked.
func TestDocumentDriftReceiverTyped(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, receiverRepo)
	commitAt(t, dir, "2023-02-01T00:00:00Z", "docs")
	later := strings.Replace(receiverRepo["src/kit/clock.py"], ", formatter=\"classic\"):", "):", 1)
	rewriteAt(t, dir, "2023-06-01T00:00:00Z", "src/kit/clock.py", later, "format: one formatter")

	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	type row struct {
		Line                                    float64
		Kind, Mention, Evidence, Commit, Detail string
	}
	var got []row
	for _, d := range asList(out["documents"]) {
		for _, f := range asList(d.(map[string]any)["findings"]) {
			m := f.(map[string]any)
			c, _ := m["commit"].(string)
			l, _ := m["line"].(float64)
			got = append(got, row{l, m["kind"].(string), m["mention"].(string), m["evidence"].(string), c, m["detail"].(string)})
		}
	}
	tooltest.CheckGoldenFile(t, filepath.Join("testdata", "drift_receiver.json"), map[string]any{
		"example_calls_checked": out["summary"].(map[string]any)["example_calls_checked"], "findings": got})
}
