package documents

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// Each metadata shape the extras are read from, and the shapes that must
// stay unknown (nothing said): dynamic optional-dependencies, a dict
// built in code, no name.
func TestProjectExtrasReadsTheMetadata(t *testing.T) {
	tests := []struct {
		name, file, text string
		want             []string // nil: unknown
	}{
		{"pyproject", "toml", "[project]\nname = \"Kit_Pkg\"\n\n[project.optional-dependencies]\ndev = [\"pytest\"]\n\"tox_to_nox\" = [\"jinja2\"]\n\n[tool.x]\na = 1\n", []string{"dev", "tox-to-nox"}},
		{"pyproject dotted keys", "toml", "[project]\nname = \"nox\"\noptional-dependencies.tox-to-nox = [\n  \"jinja2\",\n]\noptional-dependencies.uv = [\"uv\"]\n", []string{"tox-to-nox", "uv"}},
		{"pyproject inline table", "toml", "[project]\nname = \"kit\"\noptional-dependencies = { dev = [\"x\"] }\n", nil},
		{"pyproject without extras", "toml", "[project]\nname = \"kit\"\ndependencies = []\n", []string{}},
		{"pyproject dynamic", "toml", "[project]\nname = \"kit\"\ndynamic = [\"version\", \"optional-dependencies\"]\n", nil},
		{"poetry", "toml", "[tool.poetry]\nname = \"kit\"\n\n[tool.poetry.extras]\nredis = [\"redis\"]\n", []string{"redis"}},
		{"setup.cfg", "cfg", "[metadata]\nname = kit\n\n[options.extras_require]\ncrypto =\n    cryptography>=3\ndocs = sphinx\n", []string{"crypto", "docs"}},
		{"setup.py inline", "py", "setup(\n    name='kit',\n    extras_require={\n        'crypto': ['cryptography'],\n        \"dev\": ['x[y]'],\n    },\n)\n", []string{"crypto", "dev"}},
		{"setup.py via name", "py", "EXTRAS = {\n    'a': [],\n}\nEXTRAS[\"dev\"] = EXTRAS[\"a\"] + [\"tox\"]\nsetup(name=\"kit\", extras_require=EXTRAS)\n", []string{"a", "dev"}},
		{"setup.py without extras", "py", "setup(name='kit', packages=['kit'])\n", []string{}},
		{"setup.py built in code", "py", "setup(name='kit', extras_require={k: v for k, v in X.items()})\n", nil},
		// dramatiq: the dict starts empty and a loop fills it; "all" is the
		// one literal key (8 false findings of split7's held-out run).
		{"setup.py filled in a loop", "py", "extras = (\"rabbitmq\", \"redis\")\nEXTRAS = {}\nfor extra in extras:\n    EXTRAS[extra] = parse(extra)\n\nEXTRAS[\"all\"] = []\nsetup(name=\"kit\", extras_require=EXTRAS)\n", nil},
		{"setup.py updated", "py", "EXTRAS = {'a': []}\nEXTRAS.update(more())\nsetup(name=\"kit\", extras_require=EXTRAS)\n", nil},
	}
	for _, tc := range tests {
		var pe packageExtras
		var ok bool
		switch tc.file {
		case "toml":
			pe, ok = pyprojectExtras(tc.text)
		case "cfg":
			pe, ok = setupCfgExtras(tc.text)
		default:
			pe, ok = setupPyExtras(tc.text)
		}
		var got []string
		if ok {
			got = []string{}
			for e := range pe.extras {
				got = append(got, e)
			}
		}
		if diff := cmp.Diff(tc.want, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

// An install command asking the project for an extra its metadata does
// not declare is stale; other packages' extras, declared extras (any
// spelling) and lines that install nothing are left alone.
func TestUndeclaredExtras(t *testing.T) {
	pe := packageExtras{name: "kit-pkg", extras: map[string]bool{"dev": true, "tox-to-nox": true}}
	tests := []struct {
		line string
		want []string
	}{
		{"    pip install --upgrade kit-pkg[tox_to_nox]", nil},
		{"    pip install kit_pkg[dev,crypto]", []string{"kit_pkg[crypto]"}},
		{"$ python -m pip install \"Kit.Pkg[redis]\"", []string{"Kit.Pkg[redis]"}},
		{"    pip install -e .[docs]", []string{".[docs]"}},
		{"    uv add kit-pkg[dev]", nil},
		{"    pip install uvicorn[standard] kit-pkg", nil},
		{"Use kit-pkg[redis] for caching.", nil},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, undeclaredExtras(pe, tc.line)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.line, diff)
		}
	}
}

// Through the tool: a page installing an extra pyproject lost is a
// missing_target on that line; the declared one and the changelog are
// left alone.
func TestDocumentDriftFindsExtrasTheProjectDoesNotDeclare(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"pyproject.toml":      "[project]\nname = \"kit\"\nrequires-python = \">=3.9\"\n\n[project.optional-dependencies]\nredis = [\"redis\"]\n",
		"src/kit/__init__.py": "def run(x):\n    return x\n",
		"docs/install.rst":    "Install\n=======\n\nWith Redis::\n\n    pip install kit[redis]\n\nFor development::\n\n    pip install -e .[dev]\n",
		"docs/changelog.rst":  "Changelog\n=========\n\n- ``pip install kit[old]`` is gone.\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	want := []string{"10 missing_target | the page installs .[dev], but pyproject.toml [project.optional-dependencies] declares no such extra (declared: redis)"}
	if diff := cmp.Diff(want, findingLines(out)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
