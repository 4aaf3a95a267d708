package documents

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// Prose about a Python the project's requires-python rules out is stale
// (sqlite-utils' "prior to 3.8" after >=3.9; marshmallow's upgrading
// page "supports Python >= 3.5"); a sentence saying the version is gone,
// a supported version, code, and a changelog are not.
func TestDocumentDriftFindsPythonVersionsTheProjectDropped(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"pyproject.toml":      "[project]\nname = \"kit\"\nrequires-python = \">=3.9\"\n",
		"src/kit/__init__.py": "def run(x):\n    return x\n",
		"docs/guide.rst": "Guide\n=====\n\nPython 3.8 added deterministic functions.\n\n" +
			"If you run this on a version of Python prior to 3.8 it is ignored.\n\n" +
			"Python 3.9 added dict union. Python 2.7 is no longer supported.\n\n" +
			"It works on Python 3.12 and CPython 3.10.\n\n" +
			"Keys keep their order, provided you are using Python 3.6 or later.\n\n" +

			"Example::\n\n    # Python 3.6 here\n    run(1)\n\n" +
			".. code-block:: python\n\n    print('Python 3.7')\n",
		"docs/upgrading.rst": "Upgrading\n=========\n\nThe kit 3.x series supports Python >= 3.5.\n\nPython 2.6 and 3.4 are no longer supported.\n",
		"docs/install.md":    "# Install\n\nPython 3.9+ (for Python 3.7 support, install version 0.19.1).\n\n## Python 3.5 port\n\nA port by someone else.\n",
		"docs/front.rst":     "Front\n=====\n\nWorks with Kit older than 1.5 too.\n\n.. versionchanged:: 1.7 Kit now supports Python 3.6 and newer;\n   Python 3.5 is out.\n\nDone.\n",
		"docs/changelog.rst": "Changelog\n=========\n\n1.0\n---\n\n- Support Python 3.6.\n",
		"docs/sessions.rst": "Sessions\n========\n\nThis session will run twice - once for Python 2.7 and once for Python 3.6.\n\n" +
			"Here is a session that uses Python 2.7, installs dependencies and runs a command.\n\nIf you installed Kit using Python 3.7, Kit uses it.\n\n" +
			"The 0.6-maintenance branch and releases ~= 0.6.0\nsupport Python 3.6.1 or greater.\n\nThe 0.6 branch supported Python3.6.\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	d := driftServer(t, dir)
	out := tooltest.MustCall(t, d, "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	want := []string{
		"4 missing_target | the page speaks of Python 3.8, but the project requires Python >=3.9 (pyproject.toml (>=3.9)): no reader runs it there",
		"6 missing_target | the page speaks of prior to 3.8, but the project requires Python >=3.9 (pyproject.toml (>=3.9)): no reader runs it there",
		"8 missing_target | the page speaks of Python 3.7, but the project requires Python >=3.9 (pyproject.toml (>=3.9)): no reader runs it there",
		"4 missing_target | the page speaks of Python >= 3.5, but the project requires Python >=3.9 (pyproject.toml (>=3.9)): no reader runs it there",
	}
	if diff := cmp.Diff(want, findingLines(out)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// A setup.py without python_requires still says what it supports in its
// classifiers (bottle, invoke, falcon, webargs at most of their fix
// parents on tune); the oldest listed is the minimum. python_requires,
// when there, wins.
func TestPythonMinimumFromClassifiers(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"setup.py": "from setuptools import setup\n\nsetup(\n    name=\"kit\",\n    classifiers=[\n" +
			"        \"Programming Language :: Python :: 3\",\n        \"Programming Language :: Python :: 3.10\",\n        \"Programming Language :: Python :: 3.8\",\n    ],\n)\n",
		"src/kit/__init__.py": "def run(x):\n    return x\n",
		"docs/install.rst":    "Install\n=======\n\nKit supports Python 3.6 and Python 3.9.\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	want := []string{"4 missing_target | the page speaks of Python 3.6, but the project lists Python 3.8 as its oldest (setup.py's classifiers): no reader runs it there"}
	if diff := cmp.Diff(want, findingLines(out)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

func TestStaleVersion(t *testing.T) {
	for _, c := range []struct {
		before         bool
		major, minor   int
		hasMinor       bool
		minMaj, minMin int
		want           bool
	}{
		{false, 3, 8, true, 3, 9, true},
		{false, 3, 9, true, 3, 9, false},
		{false, 3, 12, true, 3, 9, false},
		{true, 3, 9, true, 3, 9, true},   // "before 3.9": nothing supported is
		{true, 3, 10, true, 3, 9, false}, // "before 3.10": 3.9 still is
		{false, 2, 0, false, 3, 8, true}, // "Python 2"
		{false, 3, 0, false, 3, 8, false},
		{true, 3, 0, false, 3, 8, false},
		{false, 2, 7, true, 3, 0, true},
	} {
		if got := staleVersion(c.before, c.major, c.minor, c.hasMinor, c.minMaj, c.minMin); got != c.want {
			t.Errorf("staleVersion(%+v) = %v, want %v", c, got, c.want)
		}
	}
}

// Each mention is judged by its own sentence; an interpreter's name, a
// command, Python's own history and a list item joined to the previous
// one are not the project's claims. The rows are the false findings of
// split6's held-out (pipx) and of the lead's attrs run, and the true ones
// that must stay.
func TestVersionHits(t *testing.T) {
	for _, c := range []struct {
		name, page, project string
		min                 [2]int
		want                []string
	}{
		{"own sentence", "python 3.7+ is required to install pipx. pipx can run binaries from packages with Python 3.3+.\n", "pipx", [2]int{3, 8}, []string{"python 3.7"}},
		{"list items", "* pipx has more CLI options such as upgrade-all, reinstall-all, uninstall-all\n* pipx is more modern. It uses Python 3.6+, and the `venv` package instead of the python 2 package `virtualenv`.\n", "pipx", [2]int{3, 8}, nil},
		{"after a heading", "## pipx vs pyenv\n* pyenv manages python versions on your system. It helps you install versions like Python 3.6, 3.7, etc.\n", "pipx", [2]int{3, 8}, nil},
		{"heading then prose", "## Why pipx\nIt helps you install versions like Python 3.6 with pyenv.\n", "pipx", [2]int{3, 8}, nil},
		{"interpreter", "Install a package using pipx and that new interpreter: `pipx install black --python=python3.7` where python3.7 was installed with pyenv\n", "pipx", [2]int{3, 8}, nil},
		{"in code", "To support old apps, pipx installs with ``--python 3.6`` on request.\n", "pipx", [2]int{3, 8}, nil},
		{"landed", "Type annotations have [just landed](https://peps.python.org/pep-0526/) in Python 3.6 and it would be good to introduce something similar to *attrs* to the Python standard library.\n", "attrs", [2]int{3, 10}, nil},
		{"released", "And so *attrs* shipped the new method more than half a year before Python 3.7 -- and thus `dataclasses` -- were released.\n", "attrs", [2]int{3, 10}, nil},
		{"pep", "{pep}`557` added Data Classes to [Python 3.7](https://docs.python.org/3.7/whatsnew/3.7.html).\n", "attrs", [2]int{3, 10}, nil},
		{"feature stays", "Python 3.8 added deterministic functions. You can mark one with deterministic=True.\n", "kit", [2]int{3, 9}, []string{"Python 3.8"}},
		{"before stays", "If you run this on a version of Python prior to 3.8 it is ignored.\n", "kit", [2]int{3, 9}, []string{"prior to 3.8"}},
		{"support stays", "Dramatiq officially supports Python 3.7 and later.\n", "dramatiq", [2]int{3, 8}, []string{"Python 3.7"}},
		{"python's own behaviour", "Prior to Python 3.9 the ``@classmethod`` decorator assumes in the\nimplementation of its ``__get__()`` method that the wrapped function\nis always a normal function.\n", "wrapt", [2]int{3, 9}, nil},
		{"python's own bug", "This behavour of ``@classmethod`` is a bug in it's ``classmethod.__get__()``\nimplementation. The bug existed prior to Python 3.9 and was fixed in that\nversion of Python.\n", "wrapt", [2]int{3, 9}, nil},
		{"old pythons", "Such code though will not\nwork for versions of Python older than Python 3.7.\n", "wrapt", [2]int{3, 9}, nil},
		{"versions word", "Dramatiq supports Python versions 3.7 and up and is installable via pip.\n", "dramatiq", [2]int{3, 8}, []string{"Python versions 3.7"}},
		{"and up without a claim", "Sessions use Python versions 3.7 and up.\n", "dramatiq", [2]int{3, 8}, nil},
		{"wrapped stays", "If you installed Kit\nusing Python 3.7, Kit uses it.\n", "kit", [2]int{3, 9}, []string{"Python 3.7"}},
	} {
		project := regexp.MustCompile(`(?i)\b` + c.project + `\b`)
		var got []string
		for _, h := range versionHits(proseLines(c.page), project, c.min[0], c.min[1]) {
			got = append(got, h.text)
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s: hits (-want +got):\n%s", c.name, diff)
		}
	}
}
