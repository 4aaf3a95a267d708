package query

import (
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// A caller's line is where it names the file's code — the import, the
// call — not where the caller starts: loguru's _logger.py imports
// ExceptionFormatter on line 115 and Logger.add calls it 760 lines into
// the method, and surgical_context said lines 1 and 273.
func TestSurgicalCallerLines(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("        x = 1\n", 30)
	d, _ := tooltest.FixtureRepo(t, map[string]string{
		"pkg/fmtr.py": "class ExceptionFormatter:\n    pass\n",
		"pkg/logger.py": "\"\"\"Doc.\"\"\"\n\nimport os\nfrom .fmtr import ExceptionFormatter\n\n\nclass Logger:\n    def add(self):\n" +
			body + "        f = ExceptionFormatter()\n        return f\n",
	})
	out := tooltest.MustCall(t, d, "surgical_context", map[string]any{"agent_id": "t", "file_path": "pkg/fmtr.py"})
	got := map[string]float64{}
	for _, c := range out["callers"].([]any) {
		m := c.(map[string]any)
		got[m["node_id"].(string)+" "+m["relation"].(string)] = m["line"].(float64)
	}
	for k, want := range map[string]float64{
		"file::pkg/logger.py imports":            4,
		"file::pkg/logger.py::Logger::add calls": 39,
	} {
		if got[k] != want {
			t.Errorf("%s: line %v, want %v (all: %v)", k, got[k], want, got)
		}
	}
}

// A long caller's excerpt shows the line that calls in, not only its
// head: the call 31 lines into add is in a region.
func TestSurgicalV2ExcerptsTheCall(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("        x = 1\n", 30)
	d, _ := tooltest.FixtureRepo(t, map[string]string{
		"pkg/fmtr.py":   "class ExceptionFormatter:\n    pass\n",
		"pkg/logger.py": "from .fmtr import ExceptionFormatter\n\n\nclass Logger:\n    def add(self):\n" + body + "        f = ExceptionFormatter()\n        return f\n",
	})
	for _, detail := range []string{"full", "brief"} {
		out := tooltest.MustCall(t, d, "surgical_context_v2", map[string]any{"agent_id": "t", "file_path": "pkg/fmtr.py", "max_region_lines": 5, "context_lines": 0, "detail": detail})
		shown := false
		files, _ := out["connected_files"].([]any)
		for _, f := range files {
			regions, _ := f.(map[string]any)["regions"].([]any)
			for _, r := range regions {
				shown = shown || strings.Contains(r.(map[string]any)["content"].(string), "f = ExceptionFormatter()")
			}
		}
		if !shown {
			t.Errorf("%s: the call is in no region: %v", detail, out["connected_files"])
		}
	}
}
