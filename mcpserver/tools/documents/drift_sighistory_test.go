package documents

import (
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// sigHistoryRepo: Server took debug and serve took timeout when the page
// was written; a later commit renamed both. connect never took attempts
// or verbose: the page was wrong from its first line, like a reader's
// own function or a placeholder.
var sigHistoryRepo = map[string]string{
	"src/kit/__init__.py": "",
	"src/kit/server.py": "class Server:\n    def __init__(self, host, port=80, debug=False):\n        self.host = host\n\n\n" +
		"def serve(app, timeout=10):\n    return app\n\n\ndef connect(url, retries=3):\n    return url\n",
	"docs/api.rst": "API\n===\n\nSignature: ``Server(host, port=80, debug=False)``\n\nSignature: ``connect(url, attempts=3)``\n\n" +
		"You can pass ``timeout=5`` to ``serve()`` to stop early.\n\nYou can pass ``verbose=True`` to ``connect()`` to log.\n",
}

// A page's signature or keyword that an older def in git took is one the
// code left behind (signature_changed, a finding, naming the commit);
// one no version ever took stays lower confidence.
func TestDocumentDriftSignatureLeftByHistory(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, sigHistoryRepo)
	commitAt(t, dir, "2023-02-01T00:00:00Z", "docs")
	later := "class Server:\n    def __init__(self, host, port=80, verbose=False):\n        self.host = host\n\n\n" +
		"def serve(app, deadline=10):\n    return app\n\n\ndef connect(url, retries=3):\n    return url\n"
	rewriteAt(t, dir, "2023-06-01T00:00:00Z", "src/kit/server.py", later, "rename debug to verbose, timeout to deadline")

	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t"})
	doc := out["documents"].([]any)[0].(map[string]any)
	got := map[string]any{"findings": evidenceRows(doc["findings"]), "lower_confidence": evidenceRows(doc["lower_confidence"])}
	tooltest.CheckGoldenFile(t, filepath.Join("testdata", "drift_sighistory.json"), got)
}

// quoteFits needs the def to name what the page claims: a **kwargs
// that would swallow a keyword proves nothing about it.
func TestQuoteFits(t *testing.T) {
	t.Parallel()
	sig := func(head string) pySig {
		s, ok := parseSig(head)
		if !ok {
			t.Fatalf("parseSig(%q) failed", head)
		}
		return s
	}
	tests := []struct {
		name  string
		quote string
		def   string
		want  bool
	}{
		{"same parameters", "Server(host, port=80)", "def Server(host, port=80):", true},
		{"keyword renamed since", "Server(host, debug=False)", "def Server(host, verbose=False):", false},
		{"swallowed by kwargs", "Server(host, debug=False)", "def Server(host, **kw):", false},
		{"whole signature lacks a parameter", "Server(host)", "def Server(host, port=80):", false},
		{"default changed since", "Server(host, port=80)", "def Server(host, port=8080):", false},
		{"same default, other quotes and spelling", "Server(host, name='a', n=1_000)", "def Server(host, name=\"a\", n=1000):", true},
		{"literal against a name is not compared", "Server(host, eol='\\n')", "def Server(host, eol=LF):", true},
		{"placeholder default is not compared", "Server(host, port=...)", "def Server(host, port=80):", true},
		{"sentinel default is not compared", "Server(host, ignore=quoted_string)", "def Server(host, ignore=_NOT_GIVEN):", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			qs := quotedSignatures([]string{"Signature: ``" + tc.quote + "``"})
			if len(qs) != 1 {
				t.Fatalf("quotes of %q: %d, want 1", tc.quote, len(qs))
			}
			if got := quoteFits(qs[0])(sig(tc.def)); got != tc.want {
				t.Errorf("quoteFits(%q)(%q) = %v, want %v", tc.quote, tc.def, got, tc.want)
			}
		})
	}
}

// An inline quote that is no whole signature is a call: its name=value
// passes a value, and claims no default.
func TestInlineCallClaimsNoDefault(t *testing.T) {
	t.Parallel()
	qs := quotedSignatures([]string{"Use ``Word(printables, exclude_chars='.')`` to stop at dots."})
	if len(qs) != 1 {
		t.Fatalf("quotes: %d, want 1", len(qs))
	}
	sig, _ := parseSig("def Word(init_chars, exclude_chars=None):")
	if why := qs[0].mismatch(sig); why != "" {
		t.Errorf("mismatch %q, want none", why)
	}
}
