package documents

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// driftRepo is a package whose class inherits its methods from a base in
// another module, assigns attributes in its body, and has a base from a
// library; a guide names members of each kind and one that is gone.
var driftRepo = map[string]string{
	"src/shop/__init__.py": "from .app import Shop\nfrom .wrappers import Request\n",
	"src/shop/scaffold.py": "class Scaffold:\n    def __init__(self):\n        self.root_path = '.'\n\n    def route(self, rule):\n        return rule\n",
	"src/shop/app.py":      "from .scaffold import Scaffold\n\n\nclass Shop(Scaffold):\n    secret_key = None\n\n    def __init__(self):\n        super().__init__()\n        self.config = {}\n\n    def run(self):\n        return self.route('/')\n",
	"src/shop/wrappers.py": "from werkzeug import Request as RequestBase\n\n\nclass Request(RequestBase):\n    def extra(self):\n        return 1\n",
	"src/shop/old.py":      "def legacy():\n    return 0\n",
	"docs/guide.md": "# Guide\n\nCall `shop.Shop.route` and `shop.Shop.run`; set `shop.Shop.config` and `Shop.secret_key`.\n" +
		"Read `Scaffold.root_path` and `shop.Request.form`. `shop.Shop.checkout` was removed.\n\nSee `shop.old.legacy` and `src/shop/app.py`.\n",
}

// commitAt commits paths with both dates set to when.
func commitAt(t *testing.T, dir, when string, paths ...string) {
	t.Helper()
	tooltest.Git(t, dir, when, append([]string{"add", "--"}, paths...)...)
	tooltest.Git(t, dir, when, "commit", "-qm", "at "+when)
}

// Members resolve through bases and assigned attributes; dates come from
// the last commits, not from the checkout's file times (all "now" here).
func TestDocumentDriftHierarchyAndGitDates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := testcorpus.Write(dir, driftRepo); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	// Shop.run was a coroutine when the guide was written (a symbol no
	// file defined then would not be dated: the page did not describe it).
	app := filepath.Join(dir, "src/shop/app.py")
	if err := os.WriteFile(app, []byte(strings.Replace(driftRepo["src/shop/app.py"], "def run", "async def run", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	commitAt(t, dir, "2023-01-01T00:00:00Z", "src/shop")
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs/guide.md")
	if err := os.WriteFile(app, []byte(driftRepo["src/shop/app.py"]), 0o644); err != nil {
		t.Fatal(err)
	}
	commitAt(t, dir, "2024-06-01T00:00:00Z", "src/shop/app.py")
	now := time.Now()
	for p := range driftRepo {
		if err := os.Chtimes(filepath.Join(dir, p), now, now); err != nil {
			t.Fatal(err)
		}
	}
	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true, "unchecked": true, "path": "docs/guide.md"})
	doc := out["documents"].([]any)[0].(map[string]any)
	type finding struct{ Kind, Mention, File, At string }
	var got []finding
	for _, f := range doc["findings"].([]any) {
		m := f.(map[string]any)
		at, _ := m["code_changed_at"].(string)
		file, _ := m["target_file"].(string)
		got = append(got, finding{m["kind"].(string), m["mention"].(string), file, at})
	}
	want := []finding{
		{"code_change_unreflected", "shop.Shop.run", "file::src/shop/app.py", "2024-06-01T00:00:00Z"},
		{"code_change_unreflected", "src/shop/app.py", "file::src/shop/app.py", "2024-06-01T00:00:00Z"},
		{"missing_target", "shop.Shop.checkout", "", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if doc["doc_changed_at"] != "2024-01-01T00:00:00Z" {
		t.Errorf("doc_changed_at %v, want the guide's commit", doc["doc_changed_at"])
	}
	// The dates drift reads straight from git, whatever window the
	// ingest's history covers.
	times := lastCommits(dir)
	for p, when := range map[string]string{"src/shop/app.py": "2024-06-01T00:00:00Z", "docs/guide.md": "2024-01-01T00:00:00Z", "src/shop/old.py": "2023-01-01T00:00:00Z"} {
		if got := time.Unix(int64(times[p]), 0).UTC().Format(time.RFC3339); got != when {
			t.Errorf("last commit of %s: %s, want %s", p, got, when)
		}
	}
}

// gitAt runs a git command in dir with both dates set to when.
func gitAt(t *testing.T, dir, when string, args ...string) {
	t.Helper()
	tooltest.Git(t, dir, when, args...)
}

// A change written on a branch is dated by the merge that landed it on
// the first-parent chain, as git log --first-parent dates it, not by the
// branch commit (weeks earlier) nor by a later commit of the branch's
// other files.
func TestDocumentDriftDatesAMergeByItsLanding(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, driftRepo)
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs/guide.md")
	gitAt(t, dir, "2024-02-01T00:00:00Z", "checkout", "-q", "-b", "feature")
	// The branch changes run's signature (and adds a function).
	app := strings.Replace(driftRepo["src/shop/app.py"], "def run(self):\n        return self.route('/')", "def run(self, path):\n        return self.route(path)", 1)
	if err := os.WriteFile(filepath.Join(dir, "src/shop/app.py"), []byte(app+"\n\ndef helper():\n    return 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commitAt(t, dir, "2024-02-01T00:00:00Z", "src/shop/app.py")
	gitAt(t, dir, "2024-03-01T00:00:00Z", "checkout", "-q", "main")
	if err := os.WriteFile(filepath.Join(dir, "src/shop/old.py"), []byte("def legacy(n):\n    return n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commitAt(t, dir, "2024-03-01T00:00:00Z", "src/shop/old.py")
	gitAt(t, dir, "2024-04-01T00:00:00Z", "merge", "-q", "--no-ff", "-m", "merge feature", "feature")

	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true, "unchecked": true, "path": "docs/guide.md"})
	at := changedAt(out)
	want := map[string]string{"shop.Shop.run": "2024-04-01T00:00:00Z", "src/shop/app.py": "2024-04-01T00:00:00Z", "shop.old.legacy": "2024-03-01T00:00:00Z"}
	if diff := cmp.Diff(want, at); diff != "" {
		t.Errorf("code_changed_at (-want +got):\n%s", diff)
	}
}

// A Python edit of types only ("-> str", "int" → "int | None") does not
// date a symbol after its document: run's only later edit is a return
// annotation (cleared), and legacy is dated by its real change, not by
// the annotation added after it; unless the page is about type hints.
func TestDocumentDriftPassesOverTypeOnlyEdits(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, driftRepo)
	typing := "# Type hints\n\n`shop.Shop.run` returns nothing a checker can use.\n"
	if err := os.WriteFile(filepath.Join(dir, "docs/typing.md"), []byte(typing), 0o644); err != nil {
		t.Fatal(err)
	}
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs/guide.md", "docs/typing.md")
	edit := func(when, path, from, to string) {
		t.Helper()
		text, err := os.ReadFile(filepath.Join(dir, path))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, path), []byte(strings.Replace(string(text), from, to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		commitAt(t, dir, when, path)
	}
	edit("2024-02-01T00:00:00Z", "src/shop/app.py", "def run(self):", "def run(self) -> str:")
	edit("2024-03-01T00:00:00Z", "src/shop/old.py", "def legacy():", "def legacy(n):")
	edit("2024-05-01T00:00:00Z", "src/shop/old.py", "def legacy(n):", "def legacy(n: int) -> int:  # typed")

	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true, "unchecked": true, "path": "docs/guide.md"})
	at := changedAt(out)
	want := map[string]string{"src/shop/app.py": "2024-02-01T00:00:00Z", "shop.old.legacy": "2024-03-01T00:00:00Z"}
	if diff := cmp.Diff(want, at); diff != "" {
		t.Errorf("code_changed_at (-want +got):\n%s", diff)
	}
	if n := out["summary"].(map[string]any)["cleared_by_types"]; n != float64(1) {
		t.Errorf("cleared_by_types %v, want 1 (shop.Shop.run)", n)
	}
	// A page about type hints describes the annotation: it still dates run.
	out = tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true, "unchecked": true, "path": "docs/typing.md"})
	var got []string
	for _, f := range out["documents"].([]any)[0].(map[string]any)["findings"].([]any) {
		m := f.(map[string]any)
		got = append(got, fmt.Sprint(m["mention"], " ", m["code_changed_at"]))
	}
	if diff := cmp.Diff([]string{"shop.Shop.run 2024-02-01T00:00:00Z"}, got); diff != "" {
		t.Errorf("typing.md findings (-want +got):\n%s", diff)
	}
}

// payRepo has two classes a guide names: later commits change Pay only
// in a private helper's and a public method's bodies, and Refund in
// __call__.
var payRepo = map[string]string{
	"src/pay/__init__.py": "from .app import Pay, Refund\n",
	"src/pay/app.py": "class Pay:\n    \"\"\"Charges a card.\"\"\"\n\n    rate = 2\n\n    def __init__(self, card):\n        self.card = card\n\n" +
		"    def charge(self, amount):\n        \"\"\"Charge amount.\"\"\"\n        return self._fee(amount)\n\n    def _fee(self, amount):\n        return amount * self.rate\n\n\n" +
		"class Refund:\n    def __call__(self, amount):\n        return -amount\n",
	"docs/pay.md": "# Paying\n\nCreate a `pay.Pay` per card; calling a `pay.Refund` (its `__call__`) gives money back.\n",
}

// A class is dated by its surface: Pay's later edits are all inside
// method bodies (cleared), Refund's __call__ edit dates it where the
// section names __call__.
func TestDocumentDriftDatesAClassByItsSurface(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, payRepo)
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs/pay.md")
	edit := fileEditor(t, dir, "src/pay/app.py")
	edit("2024-02-01T00:00:00Z", "return amount * self.rate", "return round(amount * self.rate, 2)")
	edit("2024-03-01T00:00:00Z", "return self._fee(amount)", "return amount + self._fee(amount)")
	edit("2024-04-01T00:00:00Z", "return -amount", "return -abs(amount)")

	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true, "unchecked": true, "path": "docs/pay.md"})
	at := map[string]string{}
	for _, f := range out["documents"].([]any)[0].(map[string]any)["findings"].([]any) {
		m := f.(map[string]any)
		if s, ok := m["code_changed_at"].(string); ok {
			at[m["mention"].(string)+" "+m["dated_by"].(string)] = s
		}
	}
	want := map[string]string{"pay.Refund class surface in lines 17-19": "2024-04-01T00:00:00Z"}
	if diff := cmp.Diff(want, at); diff != "" {
		t.Errorf("code_changed_at (-want +got):\n%s", diff)
	}
	if n := out["summary"].(map[string]any)["cleared_by_surface"]; n != float64(1) {
		t.Errorf("cleared_by_surface %v, want 1 (pay.Pay)", n)
	}
}

// driftServer is a new server holding dir's code and, merged, its docs/
// (adapter universal): what document_drift reads.
func driftServer(t *testing.T, dir string) *tools.Dispatcher {
	t.Helper()
	d := tooltest.NewDispatcher(t, session.Config{})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": dir})
	tooltest.MustCall(t, d, "ingest", map[string]any{"agent_id": "t", "path": filepath.Join(dir, "docs"), "adapter": "universal", "mode": "merge"})
	return d
}

// srcCommitted writes files into a new repository (branch main) and
// commits its src/ on 2023-01-01: the start of the drift histories.
func srcCommitted(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if err := testcorpus.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	gitAt(t, dir, "2023-01-01T00:00:00Z", "init", "-q", "-b", "main")
	commitAt(t, dir, "2023-01-01T00:00:00Z", "src")
	return dir
}

// changedAt maps each finding of the answer's first document that dates
// a code change to that date, by mention.
func changedAt(out map[string]any) map[string]string {
	at := map[string]string{}
	for _, f := range out["documents"].([]any)[0].(map[string]any)["findings"].([]any) {
		m := f.(map[string]any)
		if s, ok := m["code_changed_at"].(string); ok {
			at[m["mention"].(string)] = s
		}
	}
	return at
}

// sinkRepo: a class whose constructor takes a multi-line annotation, and
// a function with a docstring; a guide names both and a second function.
var sinkRepo = map[string]string{
	"src/sink/__init__.py": "from .core import Sink, add, remove\n",
	"src/sink/core.py": "import typing\n\n\nclass Sink:\n    def __init__(\n        self,\n        target: typing.Union[\n            str,\n            bytes,\n        ],\n    ):\n        self.target = target\n\n\n" +
		"def add(sink, level=10):\n    \"\"\"Add a sink.\n\n    | level | 10 |\n    \"\"\"\n    return sink\n\n\ndef remove(sink):\n    return sink\n",
	"docs/sinks.md": "# Sinks\n\nA `sink.Sink` writes; `sink.add` adds one and `sink.remove` removes it.\n",
}

// A def or class is stale only when its surface reads differently from
// the document's date: a multi-line annotation rewritten in the same
// hunk as a body line, and a docstring table fixed, clear Sink and add;
// a renamed parameter keeps remove, and the finding names the change and
// its commit (a new optional parameter alone would not: old calls work).
func TestDocumentDriftComparesTheSurfaceAtTheDocumentsDate(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, sinkRepo)
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs/sinks.md")
	edit := fileEditor(t, dir, "src/sink/core.py")
	edit("2024-02-01T00:00:00Z", "        target: typing.Union[\n            str,\n            bytes,\n        ],\n    ):\n        self.target = target\n",
		"        target: (\n            str\n            | bytes\n        ),\n    ) -> None:\n        self.target: str | bytes = target\n")
	edit("2024-03-01T00:00:00Z", "| level | 10 |", "| level | 10 (DEBUG) |")
	edit("2024-04-01T00:00:00Z", "def remove(sink):\n    return sink", "def remove(sink, quiet=False):\n    return sink")
	edit("2024-04-02T00:00:00Z", "def remove(sink, quiet=False):\n    return sink", "def remove(target, quiet=False):\n    return target")

	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true, "unchecked": true, "path": "docs/sinks.md"})
	var got []string
	for _, f := range out["documents"].([]any)[0].(map[string]any)["findings"].([]any) {
		m := f.(map[string]any)
		got = append(got, fmt.Sprint(m["mention"], " ", m["code_changed_at"], " ", m["dated_by"], " | ", m["detail"]))
	}
	rev, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	hash := string(rev[:10])
	want := []string{"sink.remove 2024-04-02T00:00:00Z signature in lines 23-23 | since the document: parameter `sink` removed; parameter `target` added (last in commit " + hash + ")"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if n := out["summary"].(map[string]any)["cleared_by_surface"]; n != float64(2) {
		t.Errorf("cleared_by_surface %v, want 2 (Sink, add)", n)
	}
}

// A checked change of a symbol's surface comes before a file dated by its
// last commit, however recent; a bare file name ("wsgi.py", the reader's
// own file as often as the project's) and a directory are not dated.
func TestDocumentDriftRanksCheckedChangesFirst(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/app/__init__.py": "",
		"src/app/wsgi.py":     "def serve(app):\n    return app\n\n\ndef other():\n    return 1\n",
		"docs/deploy.md":      "# Deploy\n\nWrite a `wsgi.py` calling `app.wsgi.serve`; see `src/app/wsgi.py` and the `src/app/` folder.\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs/deploy.md")
	write := func(when, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "src/app/wsgi.py"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		commitAt(t, dir, when, "src/app/wsgi.py")
	}
	write("2024-02-01T00:00:00Z", "def serve(app, port):\n    return app\n\n\ndef other():\n    return 1\n")
	write("2024-05-01T00:00:00Z", "def serve(app, port):\n    return app\n\n\ndef other():\n    return 2\n")

	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true, "unchecked": true, "path": "docs/deploy.md"})
	var got []string
	for _, f := range out["documents"].([]any)[0].(map[string]any)["findings"].([]any) {
		m := f.(map[string]any)
		got = append(got, fmt.Sprint(m["mention"], " ", m["code_changed_at"], " ", m["dated_by"]))
	}
	want := []string{"app.wsgi.serve 2024-02-01T00:00:00Z signature in lines 1-1", "src/app/wsgi.py 2024-05-01T00:00:00Z file"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// fileEditor returns an edit that replaces from by to (once) in the
// repository's file and commits it at when.
func fileEditor(t *testing.T, dir, file string) func(when, from, to string) {
	return func(when, from, to string) {
		t.Helper()
		p := filepath.Join(dir, file)
		text, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(text), from, to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		commitAt(t, dir, when, file)
	}
}

// A changelog dates itself: its entries say what changed when, so code
// changing after the page was last edited does not make it stale, and a
// name it says was removed is no missing target. Pages are known by
// name (CHANGES.md) or by headings that are versions (more-itertools'
// versions.rst, flagged on the held-out run of drift-examples.md; here
// past.rst) or by a blog directory (textual's docs/blog/posts: dated
// posts, 5 false findings on the held-out run of drift-precision2.md); a
// guide naming the same function is still stale.
func TestDocumentDriftLeavesHistoryPages(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/kit/__init__.py": "",
		"src/kit/core.py":     "def connect(host):\n    return host\n\n\nclass Pool:\n    def fill(self):\n        return 1\n",
		"docs/CHANGES.md":     "# Changes\n\nNew: `kit.core.connect`. Removed `kit.core.Pool.drain`.\n",
		"docs/past.rst": "Version History\n===============\n\n1.1.0\n-----\n\n* ``kit.core.connect`` was added.\n\n" +
			"1.0.0\n-----\n\n* First release.\n\n0.9 (2022-01-01)\n----------------\n\n* Beta.\n",
		"docs/guide.md":                "# Guide\n\nCall `kit.core.connect` with the host.\n",
		"docs/upgrading.rst":           "Upgrading to 2.0\n================\n\n``kit.core.Pool.drain`` is gone; ``kit.core.connect`` takes a host.\n",
		"docs/blog/posts/release-1.md": "# Release 1.0\n\nSee `kit.core.Pool.drain` and `kit.core.connect`.\n\n```python\nfrom kit.old import Pool\n```\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	fileEditor(t, dir, "src/kit/core.py")("2024-03-01T00:00:00Z", "def connect(host):", "def connect(url):")

	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true, "unchecked": true})
	var got []string
	for _, doc := range out["documents"].([]any) {
		dm := doc.(map[string]any)
		for _, f := range dm["findings"].([]any) {
			m := f.(map[string]any)
			got = append(got, fmt.Sprint(dm["source_path"], " ", m["kind"], " ", m["mention"]))
		}
	}
	want := []string{"docs/guide.md code_change_unreflected kit.core.connect"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// A def moved to another module after the document (structlog's
// make_filtering_bound_logger into _native.py) is compared with its text
// in the old module, and a symbol no file defined when the document was
// written is not dated by its creation: the page described neither
// change. A moved def whose signature did change is still found.
func TestDocumentDriftFollowsAMovedDef(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/log/__init__.py": "from ._levels import make_logger, bind\n",
		"src/log/_levels.py":  "def make_logger(level):\n    return level\n\n\ndef bind(logger, **kw):\n    return logger\n",
		"docs/levels.md":      "# Levels\n\nCall `log.make_logger` with a level, `log.bind` to add keys, and `log.fresh` for a new one.\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs/levels.md")
	write := func(p, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("src/log/_levels.py", "LEVELS = {}\n")
	write("src/log/_native.py", "def make_logger(level):\n    \"\"\"Make one.\"\"\"\n    return level\n\n\ndef bind(logger, key, **kw):\n    return logger\n\n\ndef fresh():\n    return 1\n")
	write("src/log/__init__.py", "from ._native import make_logger, bind, fresh\n")
	commitAt(t, dir, "2024-03-01T00:00:00Z", "src")

	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true, "unchecked": true, "path": "docs/levels.md"})
	var got []string
	for _, f := range out["documents"].([]any)[0].(map[string]any)["findings"].([]any) {
		m := f.(map[string]any)
		got = append(got, fmt.Sprint(m["mention"], " | ", m["detail"]))
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "log.bind | since the document: parameter `key` added") {
		t.Errorf("findings %q, want only log.bind's new required parameter", got)
	}
}

// days_behind says how long after the page the code changed; with no
// code date (a version claim) or code older than the page it has no
// meaning and is omitted, never a negative count.
func TestDaysBehind(t *testing.T) {
	const day = 86400.0
	doc := 1.7e9
	for _, c := range []struct {
		code, doc, want float64
	}{
		{0, doc, 0},               // no code date: attrs' -19,937
		{doc - 3*day, doc, 0},     // code older than the page
		{doc, doc, 0},             // same moment
		{doc + 1.5*day, doc, 1.5}, // the ordinary case
		{doc + 10*day, 0, 0},      // no page date
		{doc + 0.04*day, doc, 0},  // under a tenth of a day rounds to 0
		{doc + 200.26*day, doc, 200.3},
	} {
		if got := daysBehind(c.code, c.doc); got != c.want {
			t.Errorf("daysBehind(%v, %v) = %v, want %v", c.code, c.doc, got, c.want)
		}
	}
}
