package documents

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/internal/fixture"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// docsFixture is the fixture backend with its documents merged in; the
// documents' files are dated docTime.
func docsFixture(t testing.TB, cfg session.Config, docTime time.Time) (*tools.Dispatcher, string) {
	t.Helper()
	dir := fixture.Write(t)
	d := tooltest.NewDispatcher(t, cfg)
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "test", "path": dir})
	tooltest.CopyDocs(t, dir)
	if !docTime.IsZero() {
		for _, f := range []string{"README.md", "docs/guide.md", "docs/sessions.rst", "manual.adoc", "notes.txt", "page.html"} {
			if err := os.Chtimes(filepath.Join(dir, f), docTime, docTime); err != nil {
				t.Fatal(err)
			}
		}
	}
	out := tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "test", "path": dir, "adapter": "universal", "mode": "merge"})
	if out["files_processed"].(float64) != 6 {
		t.Fatalf("universal ingest processed %v files, want 6: %v", out["files_processed"], out["stats"])
	}
	return d, dir
}

func TestDocumentsMergeWithoutDisturbingCode(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	before := tooltest.MustCall(t, d, "impact", map[string]any{"agent_id": "t", "node_id": "file::backend/session.py", "direction": "reverse"})
	d2, _ := docsFixture(t, session.Config{}, time.Time{})
	after := tooltest.MustCall(t, d2, "impact", map[string]any{"agent_id": "t", "node_id": "file::backend/session.py", "direction": "reverse"})
	ids := func(m map[string]any) []string {
		var out []string
		for _, x := range m["blast_radius"].([]any) {
			out = append(out, x.(map[string]any)["node_id"].(string))
		}
		slices.Sort(out)
		return out
	}
	if b, a := ids(before), ids(after); !slices.Equal(b, a) {
		t.Errorf("documents changed session.py's impact:\nbefore %v\nafter  %v", b, a)
	}
	for _, id := range ids(after) {
		if strings.HasPrefix(id, "doc::") {
			t.Errorf("impact lists a document node %s", id)
		}
	}
}

func TestDocumentBindings(t *testing.T) {
	t.Parallel()
	d, _ := docsFixture(t, session.Config{}, time.Time{})
	out := tooltest.MustCall(t, d, "document_bindings", map[string]any{"agent_id": "t", "path": "docs/guide.md"})
	if out["mode"] != "document" {
		t.Fatalf("mode %v", out["mode"])
	}
	type row struct{ section, target, kind string }
	var got []row
	for _, x := range out["bindings"].([]any) {
		b := x.(map[string]any)
		got = append(got, row{b["section_id"].(string), b["target_node_id"].(string), b["mention_kind"].(string)})
	}
	for _, w := range []row{
		{"doc::docs/guide.md#authentication", "file::backend/config.py", "path"},
		{"doc::docs/guide.md#authentication", "file::backend/auth.py::AuthService::login", "qual"},
		{"doc::docs/guide.md#authentication", "file::backend/config.py::SESSION_TTL", "config"},
		{"doc::docs/guide.md#setext-heading", "file::backend/middleware.py::require_session", "ident"},
	} {
		if !slices.Contains(got, w) {
			t.Errorf("binding %v missing from %v", w, got)
		}
	}
	first := out["bindings"].([]any)[0].(map[string]any)
	if first["score"].(float64) != 1 || first["confidence"] != "exact" {
		t.Errorf("best binding %v", first)
	}
	// The reverse question: which documents describe session.py.
	rev := tooltest.MustCall(t, d, "document_bindings", map[string]any{"agent_id": "t", "node_id": "file::backend/session.py"})
	var secs []string
	for _, x := range rev["bindings"].([]any) {
		secs = append(secs, x.(map[string]any)["section_id"].(string))
	}
	for _, w := range []string{"doc::docs/sessions.rst#sessions", "doc::docs/sessions.rst#creating", "doc::notes.txt#known-issues"} {
		if !slices.Contains(secs, w) {
			t.Errorf("section %s missing from the documents of session.py: %v", w, secs)
		}
	}
	if rev["mode"] != "code" || rev["next_suggested_tool"] != "document_drift" {
		t.Errorf("reverse answer %v", rev)
	}
	// top_k cuts and says so.
	cut := tooltest.MustCall(t, d, "document_bindings", map[string]any{"agent_id": "t", "path": "docs/guide.md", "top_k": 1})
	if len(cut["bindings"].([]any)) != 1 || cut["truncated"] != true {
		t.Errorf("top_k 1: %v", cut)
	}
}

func TestDocumentResolve(t *testing.T) {
	t.Parallel()
	rt := t.TempDir()
	d, dir := docsFixture(t, session.Config{RuntimeDir: rt}, time.Time{})
	for _, p := range []string{"docs/guide.md", filepath.Join(dir, "docs", "guide.md"), "guide.md"} {
		out := tooltest.MustCall(t, d, "document_resolve", map[string]any{"agent_id": "t", "path": p})
		if out["node_id"] != "doc::docs/guide.md" || out["section_count"].(float64) != 4 || out["format"] != "markdown" || out["title"] != "Backend guide" {
			t.Fatalf("resolve %s: %v", p, out)
		}
		if !slices.Contains(out["links_to"].([]any), any("docs/sessions.rst")) || !slices.Contains(out["linked_from"].([]any), any("manual.adoc")) {
			t.Errorf("links %v / %v", out["links_to"], out["linked_from"])
		}
		for _, k := range []string{"canonical_markdown_path", "canonical_json_path", "claims_path"} {
			if p, _ := out[k].(string); p == "" || !strings.HasPrefix(p, rt) {
				t.Errorf("%s = %q, want a file under the runtime dir", k, p)
			} else if _, err := os.Stat(p); err != nil {
				t.Errorf("%s: %v", k, err)
			}
		}
	}
	// A section's node resolves to its document.
	out := tooltest.MustCall(t, d, "document_resolve", map[string]any{"agent_id": "t", "node_id": "doc::docs/sessions.rst#creating"})
	if out["source_path"] != "docs/sessions.rst" {
		t.Errorf("section → %v", out["source_path"])
	}
	// The code adapter's node of a document file names the document.
	out = tooltest.MustCall(t, d, "document_resolve", map[string]any{"agent_id": "t", "node_id": "file::README.md"})
	if out["node_id"] != "doc::README.md" {
		t.Errorf("file::README.md → %v", out["node_id"])
	}
}

func TestDocumentDrift(t *testing.T) {
	t.Parallel()
	// Documents dated long before the fixture's commits: everything they
	// bind to changed since.
	d, _ := docsFixture(t, session.Config{}, time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC))
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true, "unchecked": true, "path": "docs/guide.md"})
	sum := out["summary"].(map[string]any)
	if sum["stale_bindings"].(float64) == 0 || sum["code_change_unreflected"].(float64) == 0 {
		t.Errorf("old guide not stale: %v", sum)
	}
	var missing []string
	for _, x := range out["documents"].([]any)[0].(map[string]any)["findings"].([]any) {
		f := x.(map[string]any)
		if f["kind"] == "missing_target" {
			missing = append(missing, f["mention"].(string))
		}
	}
	if !slices.Contains(missing, "backend/app.py") {
		t.Errorf("backend/app.py (backend/ exists, app.py does not) not reported missing: %v", missing)
	}
	// Fresh documents: no binding is stale.
	d2, _ := docsFixture(t, session.Config{}, time.Time{})
	all := tooltest.MustCall(t, d2, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true, "unchecked": true})
	if s := all["summary"].(map[string]any); s["stale_bindings"].(float64) != 0 || s["documents"].(float64) != 6 {
		t.Errorf("fresh docs drift: %v", s)
	}
}

func TestDocumentReingestReplacesSections(t *testing.T) {
	t.Parallel()
	d, dir := docsFixture(t, session.Config{}, time.Time{})
	guide := filepath.Join(dir, "docs", "guide.md")
	if err := os.WriteFile(guide, []byte("# Backend guide\n\n## Only section\n\nSee `SessionStore.lookup`.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": filepath.Join(dir, "docs"), "adapter": "universal", "mode": "merge"})
	out := tooltest.MustCall(t, d, "document_resolve", map[string]any{"agent_id": "t", "path": "docs/guide.md"})
	var heads []string
	for _, s := range out["sections"].([]any) {
		heads = append(heads, s.(map[string]any)["heading"].(string))
	}
	if !slices.Equal(heads, []string{"Backend guide", "Only section"}) {
		t.Errorf("sections after re-ingest %v (deleted sections linger?)", heads)
	}
	// Documents outside the re-ingested directory are kept, and so is code.
	tooltest.MustCall(t, d, "document_resolve", map[string]any{"agent_id": "t", "path": "manual.adoc"})
	tooltest.MustCall(t, d, "impact", map[string]any{"agent_id": "t", "node_id": "file::backend/session.py"})
}

func TestIngestAutoRoutes(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	// A source tree through the router is a code ingest.
	out := tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir, "adapter": "auto"})
	if out["adapter"] != "code" {
		t.Errorf("auto on a source tree → %v", out["adapter"])
	}
	tooltest.CopyDocs(t, dir)
	out = tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": filepath.Join(dir, "docs"), "adapter": "document", "mode": "merge"})
	if out["adapter"] != "auto" || out["files_processed"].(float64) != 2 {
		t.Errorf("document adapter on docs/: %v", out)
	}
	langs := out["languages"].(map[string]any)
	if langs["markdown"] != 1.0 || langs["rst"] != 1.0 {
		t.Errorf("languages %v", langs)
	}
}

func TestDocumentToolsTeach(t *testing.T) {
	t.Parallel()
	d, _ := tooltest.IngestedFixture(t)
	if out, isErr := tooltest.Call(t, d, "document_resolve", map[string]any{"agent_id": "t", "path": "README.md"}); !isErr || !strings.Contains(out["hint"].(string), "universal") {
		t.Errorf("no documents: %v", out)
	}
	d2, _ := docsFixture(t, session.Config{}, time.Time{})
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"document_resolve", map[string]any{}, "path or node_id is required"},
		{"document_resolve", map[string]any{"path": "docs/guid.md"}, "no ingested document"},
		{"document_resolve", map[string]any{"node_id": "file::backend/auth.py"}, "not part of an ingested document"},
		{"document_resolve", map[string]any{"node_id": "doc::nope.md"}, "not a node"},
		{"document_drift", map[string]any{"path": "/etc/passwd"}, "no ingested document"},
		{"document_bindings", map[string]any{"path": "nothing/here.md"}, "no ingested document"},
		{"document_bindings", map[string]any{"top_k": 0}, "top_k"},
	} {
		args := map[string]any{"agent_id": "t"}
		for k, v := range tc.args {
			args[k] = v
		}
		tooltest.Teaches(t, d2, tc.tool, args, tc.want, false)
	}
	if out, isErr := tooltest.Call(t, d2, "document_resolve", map[string]any{"agent_id": "t", "path": "docs/guid.md"}); isErr {
		if dm, _ := out["details"].(map[string]any)["did_you_mean"].([]any); !slices.Contains(dm, any("docs/guide.md")) {
			t.Errorf("did_you_mean %v", out["details"])
		}
	}
}

func TestDocumentProviderHealth(t *testing.T) {
	t.Parallel()
	d := tooltest.NewDispatcher(t, session.Config{})
	out := tooltest.MustCall(t, d, "document_provider_health", map[string]any{"agent_id": "t"})
	names := map[string]bool{}
	for _, x := range out["providers"].([]any) {
		p := x.(map[string]any)
		names[p["name"].(string)] = true
		if p["available"] == false && p["install_hint"] == "" {
			t.Errorf("absent provider without a hint: %v", p)
		}
	}
	for _, n := range []string{"pdftotext", "pandoc", "docling", "grobid"} {
		if !names[n] {
			t.Errorf("provider %s not reported", n)
		}
	}
}

func TestStructuredAdaptersThroughIngest(t *testing.T) {
	t.Parallel()
	d, dir := tooltest.IngestedFixture(t)
	src := "../../../ingest/document/testdata/structured"
	for _, f := range []string{"session-spec.md", "refs.bib", "article.nxml", "rfc9999.xml", "work.json", "patent.xml"} {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, "papers"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "papers", f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": filepath.Join(dir, "papers"), "adapter": "auto", "mode": "merge"})
	if out["files_processed"].(float64) != 6 {
		t.Fatalf("auto on papers/: %v", out["stats"])
	}
	b := tooltest.MustCall(t, d, "document_bindings", map[string]any{"agent_id": "t", "path": "papers/session-spec.md"})
	var targets []string
	for _, x := range b["bindings"].([]any) {
		targets = append(targets, x.(map[string]any)["target_node_id"].(string))
	}
	for _, w := range []string{"file::backend/session.py", "file::tests/test_session.py", "file::backend/session.py::SessionStore::lookup"} {
		if !slices.Contains(targets, w) {
			t.Errorf("L1GHT spec not bound to %s: %v", w, targets)
		}
	}
	r := tooltest.MustCall(t, d, "document_resolve", map[string]any{"agent_id": "t", "path": "papers/rfc9999.xml"})
	if r["format"] != "rfc" || r["producer"] != "rfc:internal" || r["section_count"].(float64) != 5 {
		t.Errorf("rfc resolve: %v", r)
	}
	// An explicit structured adapter refuses nothing silently: the RFC
	// adapter on the whole directory reads the RFC and fails the patent.
	out = tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": filepath.Join(dir, "papers"), "adapter": "rfc", "mode": "merge"})
	if st := out["stats"].(map[string]any); st["files_parsed"].(float64) != 1 || st["files_failed"].(float64) != 1 {
		t.Errorf("rfc adapter stats %v", st)
	}
	// ... and replaces only the RFC documents it read again.
	tooltest.MustCall(t, d, "document_resolve", map[string]any{"agent_id": "t", "path": "papers/session-spec.md"})
}

// seek and activate answer with document sections once documents are in
// the graph, and activation crosses bindings into the code.
func TestSeekAndActivateReachDocuments(t *testing.T) {
	t.Parallel()
	d, _ := docsFixture(t, session.Config{}, time.Time{})
	seek := tooltest.MustCall(t, d, "seek", map[string]any{"agent_id": "t", "query": "release notes known issues", "top_k": 5})
	top := seek["results"].([]any)[0].(map[string]any)
	if !strings.HasPrefix(top["node_id"].(string), "doc::notes.txt") {
		t.Errorf("seek top hit %v, want a section of notes.txt", top["node_id"])
	}
	act := tooltest.MustCall(t, d, "activate", map[string]any{"agent_id": "t", "query": "operator manual login", "top_k": 8})
	var ids []string
	for _, x := range act["activated"].([]any) {
		ids = append(ids, x.(map[string]any)["node_id"].(string))
	}
	for _, w := range []string{"doc::manual.adoc#login", "file::backend/auth.py::AuthService::login"} {
		if !slices.Contains(ids, w) {
			t.Errorf("activate misses %s: %v", w, ids)
		}
	}
}
