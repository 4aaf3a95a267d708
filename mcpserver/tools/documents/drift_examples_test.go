package documents

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// exampleRepo: a package whose functions and classes a guide (Markdown)
// and an API page (reST) call in examples, with renamed keywords and a
// constructor that lost its argument in the history scripted below.
var exampleRepo = map[string]string{
	"src/kit/__init__.py": "from .core import connect, Client, wrapped, loose\nfrom .shapes import Box\n",
	"src/kit/core.py": "import functools\n\n\ndef connect(host, timeout=10):\n    return host\n\n\nclass Client:\n    def __init__(self, url, retries=3):\n        self.url = url\n\n" +
		"    @classmethod\n    def from_env(cls, name):\n        return cls(name)\n\n    def close(self, force=False):\n        return force\n\n\ndef register(f):\n    return f\n\n\n@register\ndef wrapped(a):\n    return a\n\n\ndef loose(*args, **kwargs):\n    return args\n",
	"src/kit/shapes.py": "class Base:\n    def __init__(self, width):\n        self.width = width\n\n\nclass Box(Base):\n    pass\n",
	"docs/guide.md": "# Guide\n\n```python\nimport kit\n\nkit.connect(\"db\", timeout=5)\nkit.loose(1, 2, anything=3)\nkit.wrapped(1, b=2)\nother.connect(timeout=1)\n```\n\n" +
		"## Clients\n\n```pycon\n>>> from kit import Client\n>>> c = Client(\"u\",\n...            retries=1)\n>>> Client.from_env(\"X\")\n>>> c.close(force=True)\n>>> sorted([1], key=lambda a, b=1: a)\n```\n\n" +
		"Your own function of the same name is yours:\n\n```python\ndef connect(host, timeout):\n    pass\n\nconnect(\"h\", timeout=1)\n```\n",
	"docs/api.rst":      "API\n===\n\n.. code-block:: python\n\n    from kit.shapes import Box\n    Box(3)\n\n>>> import kit as k\n>>> k.Client(\"u\")\n",
	"docs/upgrading.md": "# Upgrading\n\n```python\nimport kit\n# 1.x\nkit.connect(\"db\", timeout=5)\n```\n",
}

// A call in an example is checked against today's signature: a renamed
// keyword and a lost positional argument are found, with the doc line
// and the commit that made the call fail; calls through *args/**kwargs,
// unknown decorators, unimported or redefined names, and upgrading pages
// are left alone.
func TestDocumentDriftChecksExampleCalls(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, exampleRepo)
	commitAt(t, dir, "2023-06-01T00:00:00Z", "docs")
	core := fileEditor(t, dir, "src/kit/core.py")
	core("2024-02-01T00:00:00Z", "def connect(host, timeout=10):", "def connect(host, deadline=10):")
	core("2024-03-01T00:00:00Z", "def __init__(self, url, retries=3):", "def __init__(self, url, *, max_retries=3):")
	fileEditor(t, dir, "src/kit/shapes.py")("2024-04-01T00:00:00Z", "def __init__(self, width):\n        self.width = width", "def __init__(self):\n        self.width = 1")
	core("2024-05-01T00:00:00Z", "def close(self, force=False):\n        return force", "def close(self, hard=False):\n        return hard")

	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	var got []string
	for _, doc := range out["documents"].([]any) {
		for _, f := range doc.(map[string]any)["findings"].([]any) {
			m := f.(map[string]any)
			if m["kind"] == "example_call_rejected" {
				param, _ := m["parameter"].(string)
				got = append(got, fmt.Sprint(doc.(map[string]any)["source_path"], ":", m["line"], " ", param, " ", m["code_changed_at"], " | ", m["detail"]))
			}
		}
	}
	want := []string{
		`docs/api.rst:7  2024-04-01T00:00:00Z | kit.shapes.Box: takes 0 positional arguments, the example passes 1 (src/kit/shapes.py: def Base.__init__); it fit until ` + head(t, dir, "2024-04-01") + ` (2024-04-01, "at 2024-04-01T00:00:00Z")`,
		`docs/guide.md:16 retries 2024-03-01T00:00:00Z | kit.Client: no parameter retries (src/kit/core.py: def Client.__init__); it fit until ` + head(t, dir, "2024-03-01") + ` (2024-03-01, "at 2024-03-01T00:00:00Z"), which renamed retries to max_retries`,
		`docs/guide.md:19 force 2024-05-01T00:00:00Z | kit.Client.close: no parameter force (src/kit/core.py: def Client.close); it fit until ` + head(t, dir, "2024-05-01") + ` (2024-05-01, "at 2024-05-01T00:00:00Z"), which renamed force to hard`,
		`docs/guide.md:6 timeout 2024-02-01T00:00:00Z | kit.connect: no parameter timeout (src/kit/core.py: def connect); it fit until ` + head(t, dir, "2024-02-01") + ` (2024-02-01, "at 2024-02-01T00:00:00Z"), which renamed timeout to deadline`,
	}
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("example findings (-want +got):\n%s", diff)
	}
	sum := out["summary"].(map[string]any)
	// connect, Client(2), from_env, Box, wrapped is refused (decorator),
	// loose has **kwargs, c.close on the object Client made: 7 checked.
	if sum["example_calls_checked"] != float64(7) || sum["example_calls_rejected"] != float64(4) {
		t.Errorf("summary checked %v rejected %v, want 7 and 4", sum["example_calls_checked"], sum["example_calls_rejected"])
	}
}

// head is the short hash of the first-parent commit made on day (the
// scripted commits are one a day).
func head(t *testing.T, dir, day string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "log", "--first-parent", "--format=%H", "--since="+day+"T00:00:00Z", "--until="+day+"T00:00:01Z").Output()
	if err != nil {
		t.Fatal(err)
	}
	return short(strings.TrimSpace(string(out)))
}

func TestExampleCalls(t *testing.T) {
	doc := "# T\n\n```py\nfrom kit import run as go, Box\nimport kit.sub\ngo(1, 2, *rest, k=1)\nkit.sub.f(x=\"a, b=c\", **kw)\nBox(lambda a, b: a, key=1)\nBox = 3\nBox(1)\nobj.go(1)\npkg.f(1)\npkg(2)\nb = kit.Box(1)\nb.grow(by=2)\nb.x.y(1)\n```\n\n" +
		".. doctest::\n\n   >>> go(\n   ...   y=2)\n   3\n" +
		"\n```python\n>>> go(1,  # (\n        z=2)\n'out'\n>>> go(3)\n```\n" +
		"\n```python\nfrom kit import Box\ndef make(self, Box, n):\n    return [Box(queues=n)]\n```\n" + // a parameter shadows the import (kombu)
		"\n```python\nd = kit.make(kit.now(1))\nd.shift(by=2)\nkit.now().shift(2).go(x=1)\nobj.now().go(1)\n```\n"
	var got []string
	for _, c := range exampleCalls(pyExamples(doc), func(p string) bool { return p == "pkg" }) {
		got = append(got, fmt.Sprintf("%d %s pos=%d kws=%v *=%v **=%v", c.line, c.target, c.pos, c.kws, c.starPos, c.starKw))
	}
	want := []string{
		"6 kit.run pos=2 kws=[k] *=true **=false",
		"7 kit.sub.f pos=0 kws=[x] *=false **=true",
		"8 kit.Box pos=1 kws=[key] *=false **=false",
		"12 pkg.f pos=1 kws=[] *=false **=false",
		"14 kit.Box pos=1 kws=[] *=false **=false",
		"15 kit.Box.grow pos=0 kws=[by] *=false **=false",
		"21 kit.run pos=0 kws=[y] *=false **=false",
		"26 kit.run pos=1 kws=[z] *=false **=false", // argument lines without "..." (pendulum)
		"29 kit.run pos=1 kws=[] *=false **=false",
		"39 kit.make pos=1 kws=[] *=false **=false",
		"39 kit.now pos=1 kws=[] *=false **=false",
		"40 kit.make.shift pos=0 kws=[by] *=false **=false", // d is what kit.make returns, not kit.now
		"41 kit.now pos=0 kws=[] *=false **=false",
		"41 kit.now.shift pos=1 kws=[] *=false **=false", // a method of a call's result; .go on shift's result is not read
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

// A call that leaves out a parameter without a default fails as surely as
// one with a keyword the def lacks (tenacity's example called
// retry_if_exception() without its predicate). A keyword supplying it, or
// a star argument that may, is no finding.
func TestDocumentDriftFindsLeftOutArguments(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"src/kit/__init__.py": "from .core import connect, Pred\n",
		"src/kit/core.py":     "def connect(host, timeout=10):\n    return host\n\n\nclass Pred:\n    def __init__(self, predicate):\n        self.predicate = predicate\n",
		"docs/guide.md": "# Guide\n\n```python\nimport kit\n\nkit.Pred()\nkit.Pred(**cfg)\nkit.Pred(predicate=bool)\n" +
			"kit.connect(host=\"h\")\nkit.connect(*hosts)\nkit.connect(\"h\")\nkit.connect(timeout=1)\n```\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	got := findingLines(out)
	want := []string{
		"6 example_call_rejected | kit.Pred: requires predicate, which the example does not pass (src/kit/core.py: def Pred.__init__); no commit named: no version in the 1 commits read accepts the call",
		"12 example_call_rejected | kit.connect: requires host, which the example does not pass (src/kit/core.py: def connect); no commit named: no version in the 1 commits read accepts the call",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// findingLines is each finding of a document_drift answer as
// "line kind | detail", in the answer's order.
func findingLines(out map[string]any) []string {
	var got []string
	for _, doc := range out["documents"].([]any) {
		for _, f := range doc.(map[string]any)["findings"].([]any) {
			m := f.(map[string]any)
			got = append(got, fmt.Sprint(m["line"], " ", m["kind"], " | ", m["detail"]))
		}
	}
	return got
}

// A reST literal block ("::") without an import is read as Python when
// every statement is a call (anyio's basics.rst: `run(main,
// backend="asyncio", debug=True)` after the page imported run); a shell
// session or prose in a literal block is not.
func TestLiteralBlocksOfCallsAreRead(t *testing.T) {
	doc := "Title\n=====\n\nRun it::\n\n    from kit import run\n\n    run(main)\n\nOptions::\n\n    run(main, backend=\"asyncio\", debug=True)\n    run(\n        main,\n        backend=\"trio\",\n    )\n\nA shell::\n\n    $ run(main, x=1)\n\nText::\n\n    run(main, y=1) then see\n"
	var got []string
	for _, c := range exampleCalls(pyExamples(doc), func(string) bool { return false }) {
		got = append(got, fmt.Sprintf("%d %s pos=%d kws=%v", c.line, c.target, c.pos, c.kws))
	}
	want := []string{
		"8 kit.run pos=1 kws=[]",
		"12 kit.run pos=1 kws=[backend debug]",
		"13 kit.run pos=1 kws=[backend]",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	for _, c := range []struct {
		lines []string
		want  bool
	}{
		{[]string{"x = kit.make(1)", "await x.go("}, false},
		{[]string{"x = kit.make(1)", "await x.go()"}, true},
		{[]string{"# comment", "f(a)[0]"}, true},
		{[]string{"f(a) + 1"}, false},
		{[]string{"Traceback (most recent call last):"}, false},
		{[]string{"pip install kit"}, false},
		{[]string{""}, false},
	} {
		if got := pythonStatements(c.lines); got != c.want {
			t.Errorf("pythonStatements(%q) = %v, want %v", c.lines, got, c.want)
		}
	}
}
