package documents

import (
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
	rewriteAt(t, dir, "2023-06-01T00:00:00Z", "src/kit/cache.py", later, "ttl: ten minutes")

	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	doc := out["documents"].([]any)[0].(map[string]any)
	got := map[string]any{"findings": evidenceRows(doc["findings"]), "lower_confidence": evidenceRows(doc["lower_confidence"])}
	tooltest.CheckGoldenFile(t, filepath.Join("testdata", "drift_defaults.json"), got)
}
