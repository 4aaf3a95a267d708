package documents

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// evidenceRepo is a project whose history removed old_api (renamed to
// new_api) and the module kit.legacy, and never had never_was; helper
// lives in kit.util, not kit.core; the project requires Python 3.9.
var evidenceRepo = map[string]string{
	"pyproject.toml":      "[project]\nname = \"kit\"\nrequires-python = \">=3.9\"\n",
	"src/kit/__init__.py": "",
	"src/kit/core.py":     "class Engine:\n    def __init__(self, size):\n        self.size = size\n\n\ndef old_api(x):\n    return x\n",
	"src/kit/legacy.py":   "class Thing:\n    pass\n",
	"src/kit/util.py":     "def helper():\n    return 1\n",
	"src/kit/table.py":    "class Table:\n    def csv(self):\n        return ''\n",
	"docs/guide.md": "# Guide\n\nCall `kit.core.old_api` to start, then `kit.core.helper`. `kit.core.never_was` is the fallback; `kit.legacy` holds the rest.\n\n" +
		"Installing kit requires Python 3.7 or later. `Table.csv` exports a table.\n\n```python\nfrom kit.legacy import Thing\nfrom kit.core import Engine\n\nEngine(size=1, speed=2)\n```\n",
}

// evidenceFixture commits evidenceRepo on 2023-01-01, renames old_api and
// deletes kit/legacy.py on 2023-06-01, and commits the guide on
// 2024-01-01: every evidence class has one finding.
func evidenceFixture(t *testing.T) string {
	dir := srcCommitted(t, evidenceRepo)
	commitAt(t, dir, "2023-01-01T00:00:00Z", "pyproject.toml")
	core := filepath.Join(dir, "src/kit/core.py")
	if err := os.WriteFile(core, []byte("class Engine:\n    def __init__(self, size):\n        self.size = size\n\n\ndef new_api(x):\n    return x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitAt(t, dir, "2023-06-01T00:00:00Z", "rm", "-q", "src/kit/legacy.py")
	// Table's formats now come from a registry, set on the class.
	table := "class Table:\n    pass\n\n\nfor _name in (\"csv\",):\n    setattr(Table, _name, property(lambda self: ''))\n"
	if err := os.WriteFile(filepath.Join(dir, "src/kit/table.py"), []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	gitAt(t, dir, "2023-06-01T00:00:00Z", "add", "src/kit/core.py", "src/kit/table.py")
	gitAt(t, dir, "2023-06-01T00:00:00Z", "commit", "-qm", "rename old_api to new_api; drop kit.legacy")
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	return dir
}

// The default answer reports as drift only what strong evidence backs (a
// checked call; a name and a module git shows removed, which no code
// defines now) and sets the rest apart, counted, with their evidence: a
// name defined elsewhere now, one no commit ever defined, a member of a
// class whose members setattr makes now (its def was removed), a Python
// version read from prose. lower_confidence true lists them all.
func TestDocumentDriftSpeaksOnlyWithEvidence(t *testing.T) {
	t.Parallel()
	dir := evidenceFixture(t)
	d := driftServer(t, dir)
	type row struct{ Kind, Mention, Evidence, Detail string }
	rows := func(v any) []row {
		var out []row
		for _, f := range asList(v) {
			m := f.(map[string]any)
			out = append(out, row{m["kind"].(string), m["mention"].(string), m["evidence"].(string), m["detail"].(string)})
		}
		return out
	}
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t"})
	doc := out["documents"].([]any)[0].(map[string]any)
	sum := out["summary"].(map[string]any)
	got := map[string]any{
		"findings":               rows(doc["findings"]),
		"lower_confidence":       rows(doc["lower_confidence"]),
		"lower_confidence_total": doc["lower_confidence_total"],
		"total_findings":         sum["total_findings"],
		"summary_lower":          sum["lower_confidence"],
		"hint":                   out["next_step_hint"],
	}
	tooltest.CheckGoldenFile(t, filepath.Join("testdata", "drift_evidence.json"), got)

	all := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	allDoc := all["documents"].([]any)[0].(map[string]any)
	if n, want := len(asList(allDoc["findings"])), len(asList(doc["findings"]))+int(doc["lower_confidence_total"].(float64)); n != want {
		t.Errorf("lower_confidence true lists %d findings, want %d (the strong and the lower-confidence ones)", n, want)
	}
	if allDoc["lower_confidence"] != nil {
		t.Errorf("lower_confidence true still lists some apart: %v", allDoc["lower_confidence"])
	}
}

// Without a git history nothing can show a name removed: every name
// finding is set apart, none is reported as drift.
func TestDocumentDriftWithoutHistoryIsLowConfidence(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for p, s := range evidenceRepo {
		if p == "src/kit/core.py" {
			s = "class Engine:\n    def __init__(self, size):\n        self.size = size\n"
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t"})
	doc := out["documents"].([]any)[0].(map[string]any)
	var strong []string
	for _, f := range asList(doc["findings"]) {
		m := f.(map[string]any)
		if m["kind"] == document.DriftMissing {
			strong = append(strong, m["mention"].(string))
		}
	}
	if len(strong) > 0 {
		t.Errorf("missing_target findings without history: %v, want none (no commit can show a removal)", strong)
	}
	if doc["lower_confidence_total"] == nil {
		t.Error("no lower-confidence findings: the names should be set apart, counted")
	}
}

// classify reads a finding's evidence from what produced it.
func TestClassifyEvidence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		f      document.Finding
		class  string
		names  []string
		paths  []string
		asking bool
	}{
		{"call", document.Finding{Kind: document.DriftExample}, evCall, nil, nil, false},
		{"page signature", document.Finding{Kind: document.DriftCodeChanged, Line: 4}, evSignature, nil, nil, false},
		{"date only", document.Finding{Kind: document.DriftCodeChanged}, evDateOnly, nil, nil, false},
		{"version", document.Finding{Kind: document.DriftMissing, Detail: "the page speaks of Python 3.7, but the project requires Python >=3.9"}, evVersion, nil, nil, false},
		{"keyword", document.Finding{Kind: document.DriftMissing, Detail: "the page passes x=1 to f(), but no def f takes x"}, evKeyword, nil, nil, false},
		{"keyword an older def took", document.Finding{Kind: document.DriftMissing, Commit: "fbdd794", Detail: "the page passes x=1 to f(), but no def f takes x"}, evSigChanged, nil, nil, false},
		{"page signature an older def fitted", document.Finding{Kind: document.DriftCodeChanged, Line: 4, Commit: "fbdd794"}, evSigChanged, nil, nil, false},
		{"extra", document.Finding{Kind: document.DriftMissing, Detail: "the page installs kit[x], but pyproject.toml declares no such extra"}, evExtra, nil, nil, false},
		{"cli", document.Finding{Kind: document.DriftMissing, Detail: "the page runs kit with --x, which its parser (cli.py) does not declare"}, evCLI, nil, nil, false},
		{"deprecated", document.Finding{Kind: document.DriftMissing, Detail: "the page gives f, which the code marks deprecated (a.py: x): name its replacement"}, evDeprecated, nil, nil, false},
		{"alias", document.Finding{Kind: document.DriftMissing, Detail: "the page names kit.old, which kit/__init__.py keeps only as an alias of new, noting the rename: use kit.new"}, evAlias, nil, nil, false},
		{"module", document.Finding{Kind: document.DriftMissing, Detail: "the example imports kit.legacy, which is no module of the project (moved or renamed?)"}, "", nil, []string{"kit/legacy.py", "kit/legacy/__init__.py"}, true},
		{"imported names", document.Finding{Kind: document.DriftMissing, Detail: "the example imports a, b from kit, whose source (src/kit/__init__.py) does not define it"}, "", []string{"a", "b"}, nil, true},
		{"qualified", document.Finding{Kind: document.DriftMissing, Detail: "the page names kit.core.old_api, but kit.core (src/kit/core.py) does not define or import old_api (renamed, moved or removed?)"}, "", []string{"old_api"}, []string{"kit/core/old_api.py", "kit/core/old_api/__init__.py"}, true},
		{"qualified module", document.Finding{Kind: document.DriftMissing, Detail: "the page names kit.serving, but kit (src/kit/__init__.py) does not define or import serving (renamed, moved or removed?)"}, "", []string{"serving"}, []string{"kit/serving.py", "kit/serving/__init__.py"}, true},
		{"member", document.Finding{Kind: document.DriftMissing, Detail: "shop.Shop is in the graph but has no member checkout (renamed or removed?)"}, "", []string{"checkout"}, nil, true},
		{"file", document.Finding{Kind: document.DriftMissing, Detail: "no file src/kit/gone.py in the graph, though src/kit/ is there (moved or deleted?)"}, "", nil, []string{"src/kit/gone.py"}, true},
		{"changelog", document.Finding{Kind: document.DriftMissing, Mention: document.Mention{Text: "`make_thing()`"}, Detail: "the page names make_thing, which no code defines now; CHANGES.rst:7 says: …"}, "", []string{"make_thing"}, nil, true},
		{"no name", document.Finding{Kind: document.DriftMissing, Mention: document.Mention{Text: "a b"}}, evNever, nil, nil, false},
	}
	for _, tt := range tests {
		class, c := classify(tt.f)
		if class != tt.class || (c != nil) != tt.asking {
			t.Errorf("%s: classify = %q, claim %v; want %q, claim %v", tt.name, class, c != nil, tt.class, tt.asking)
			continue
		}
		if c != nil {
			if tt.name == "member" && c.owner != "Shop" {
				t.Errorf("member: owner %q, want Shop (the class whose setattr calls are read)", c.owner)
			}
			got := *c
			got.owner = ""
			if diff := cmp.Diff(nameClaim{names: tt.names, paths: tt.paths}, got, cmp.AllowUnexported(nameClaim{})); diff != "" {
				t.Errorf("%s: claim (-want +got):\n%s", tt.name, diff)
			}
		}
	}
}

func TestEvidenceNoteCounts(t *testing.T) {
	for n, want := range map[int]string{
		0: "",
		1: " 1 lower-confidence finding (evidence that was mostly wrong when judged) is listed apart",
		4: " 4 lower-confidence findings (evidence that was mostly wrong when judged) are listed apart",
	} {
		if got := evidenceNote(n); !strings.HasPrefix(got, want) || (want == "") != (got == "") {
			t.Errorf("evidenceNote(%d) = %q, want prefix %q", n, got, want)
		}
	}
}

// A history too long to read in the budget (git log -G took a minute on
// sympy's 62 K commits) leaves the claims unjudged instead of holding the
// answer: a git that does not answer in time reads as no history.
func TestHistoryOfIsBounded(t *testing.T) {
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\nexec /bin/sleep 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	defer func(b time.Duration) { historyBudget = b }(historyBudget)
	historyBudget = 50 * time.Millisecond
	fs := historyOf(context.Background(), t.TempDir(), []*nameClaim{{names: []string{"frobnicate"}}})
	if fs.namesOK {
		t.Fatal("a git that did not answer within the budget read as a history")
	}
	if class, _ := fs.judge(&nameClaim{names: []string{"frobnicate"}}); class != evNoHistory {
		t.Errorf("judge = %s, want %s", class, evNoHistory)
	}
}

// A def-diff query past its budget leaves the cheap path query its own:
// a module git shows deleted is still removed_in_history, while the
// names wait (no_history). kombu's reference pages for deleted modules
// lost their evidence this way at load 40 (split10's held-out, seen).
func TestHistoryOfBudgetsEachQuery(t *testing.T) {
	bin := t.TempDir()
	git := "#!/bin/sh\nfor a in \"$@\"; do [ \"$a\" = -G ] && exec /bin/sleep 3; done\n" +
		"case \"$*\" in *diff-filter=DR*) printf '@@abc1234 drop kit.legacy\\n\\nD\\tsrc/kit/legacy.py\\n';; esac\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(git), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	defer func(b time.Duration) { historyBudget = b }(historyBudget)
	historyBudget = 200 * time.Millisecond
	module := &nameClaim{paths: modulePaths("kit.legacy")}
	name := &nameClaim{names: []string{"frobnicate"}}
	fs := historyOf(context.Background(), t.TempDir(), []*nameClaim{module, name})
	tests := []struct {
		name      string
		c         *nameClaim
		class, by string
	}{
		{"deleted module", module, evRemoved, "abc1234 drop kit.legacy"},
		{"name past the budget", name, evNoHistory, ""},
	}
	for _, tc := range tests {
		if class, by := fs.judge(tc.c); class != tc.class || by != tc.by {
			t.Errorf("%s: judge = %s %q, want %s %q", tc.name, class, by, tc.class, tc.by)
		}
	}
}
