package documents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// defaultsRepo: the page writes ttl_cache's defaults as they were; a
// later commit changes ttl's. lru_bounded's maxsize was never 64, nor
// memo's size 10 (a decorator directive): the page was wrong from its
// first day. lru_bounded's eol='\n' against the code's LF is a literal
// against a name, not compared.
var defaultsRepo = map[string]string{
	"src/kit/__init__.py": "from .cache import ttl_cache, lru_bounded, memo\n",
	"src/kit/cache.py": "LF = b'\\n'\n\n\ndef ttl_cache(maxsize=128, ttl=3600, timer=None):\n    return maxsize\n\n\n" +
		"def lru_bounded(maxsize=128, eol=LF):\n    return maxsize\n\n\ndef memo(size=12):\n    return size\n",
	"docs/api.rst": "API\n===\n\n.. function:: ttl_cache(maxsize=128, ttl=3600, timer=None)\n\n   A cache with a time to live.\n\n" +
		".. function:: lru_bounded(maxsize=64, eol='\\n')\n\n   A bounded cache.\n\n.. decorator:: memo(size=10)\n\n   Memoize.\n",
}

// A default the page writes that the def no longer has is a signature
// claim git can date (signature_changed, naming the commit); one no
// version had stays lower confidence (page_signature).
func TestDocumentDriftDefaultLeftByHistory(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, defaultsRepo)
	commitAt(t, dir, "2023-02-01T00:00:00Z", "docs")
	later := strings.Replace(defaultsRepo["src/kit/cache.py"], "ttl=3600", "ttl=600", 1)
	if err := os.WriteFile(filepath.Join(dir, "src/kit/cache.py"), []byte(later), 0o644); err != nil {
		t.Fatal(err)
	}
	gitAt(t, dir, "2023-06-01T00:00:00Z", "add", "src/kit/cache.py")
	gitAt(t, dir, "2023-06-01T00:00:00Z", "commit", "-qm", "ttl: ten minutes")

	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	doc := out["documents"].([]any)[0].(map[string]any)
	type row struct{ Kind, Mention, Evidence, Commit, Detail string }
	rows := func(v any) []row {
		var rs []row
		for _, f := range asList(v) {
			m := f.(map[string]any)
			c, _ := m["commit"].(string)
			rs = append(rs, row{m["kind"].(string), m["mention"].(string), m["evidence"].(string), c, m["detail"].(string)})
		}
		return rs
	}
	got := map[string]any{"findings": rows(doc["findings"]), "lower_confidence": rows(doc["lower_confidence"])}
	tooltest.CheckGoldenFile(t, filepath.Join("testdata", "drift_defaults.json"), got)
}
