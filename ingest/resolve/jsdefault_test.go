package resolve

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/workspace"
)

// TestJSDefaultImports: a default import binds what the module exports as
// default — `export default ky` (index.ts's const, not the same-named
// function createInstance declares inside), `export default function`
// and `export default class` under another local name, `export { x as
// default }` — in imports and in calls.
func TestJSDefaultImports(t *testing.T) {
	files := map[string]string{
		"source/index.ts":          "const createInstance = () => {\n\tconst ky = (input) => input;\n\treturn ky;\n};\nconst ky = createInstance();\nexport default ky;\n",
		"source/utils/delay.ts":    "export default async function delay(ms) {\n\treturn ms;\n}\n",
		"source/core/Ky.ts":        "export default class Ky {\n\tstatic create() {}\n}\n",
		"source/utils/is-error.ts": "function isRawNetworkError(e) {\n\treturn true;\n}\nexport {isRawNetworkError as default};\n",
		"test/main.ts":             "import ky from '../source/index.js';\nimport wait from '../source/utils/delay.js';\nimport K from '../source/core/Ky.js';\nimport isErr from '../source/utils/is-error.js';\n\nexport async function run() {\n\tky('x');\n\tawait wait(1);\n\tisErr(new Error());\n\treturn new K();\n}\n",
	}
	results := extractAll(t, files)
	ix := New(results, nil)
	got := importBindings(ix, results, "test/main.ts", "")
	want := map[string]string{
		"imports ky":       "source/index.ts::ky",
		"imports wait":     "source/utils/delay.ts::delay",
		"imports K":        "source/core/Ky.ts::Ky",
		"imports Ky":       "source/core/Ky.ts::Ky", // the module's own ref, named like its class
		"imports delay":    "source/utils/delay.ts::delay",
		"imports index":    "source/index.ts", // the module's own ref: the file
		"imports is-error": "source/utils/is-error.ts",
		"imports isErr":    "source/utils/is-error.ts::isRawNetworkError",
		"calls ky":         "source/index.ts::ky",
		"calls wait":       "source/utils/delay.ts::delay",
		"calls isErr":      "source/utils/is-error.ts::isRawNetworkError",
		"calls K":          "source/core/Ky.ts::Ky",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("bindings (-want +got):\n%s", d)
	}
}

// TestJSNamedImportIsNotTheDefault: a name imported by name is the
// module's declaration of that name, never its default export. dayjs's
// package entry is its build (not in the tree), so 'dayjs' is the whole
// package with src/index.js as its file; its type files import {
// ConfigType } from 'dayjs', which types/index.d.ts declares in a
// namespace — not src/index.js's `export default dayjs`. A default import
// under another name (`import d from 'dayjs'`) still binds that export.
func TestJSNamedImportIsNotTheDefault(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"package.json":              `{"name": "dayjs", "main": "dayjs.min.js", "types": "index.d.ts"}`,
		"src/index.js":              "class Dayjs {}\nconst dayjs = function (d) {\n\treturn new Dayjs(d)\n}\nexport default dayjs\n",
		"types/index.d.ts":          "export = dayjs;\ndeclare function dayjs (date?: dayjs.ConfigType): dayjs.Dayjs\ndeclare namespace dayjs {\n  export type ConfigType = string | number\n  export type OpUnitType = string\n  class Dayjs {}\n}\n",
		"types/plugin/utc.d.ts":     "import { PluginFunc, ConfigType } from 'dayjs'\n\ndeclare module 'dayjs' {\n  interface Dayjs {\n    isBetween(a: ConfigType): boolean\n  }\n}\n",
		"test/negativeYear.test.js": "import d from 'dayjs'\n\nexport function run() {\n\treturn d(1)\n}\n",
	}
	paths := slices.Sorted(maps.Keys(files))
	for _, p := range paths {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(files[p]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sources := maps.Clone(files)
	delete(sources, "package.json")
	results := extractAll(t, sources)
	ix := New(results, workspace.Detect(dir, paths))
	got := importBindings(ix, results, "types/plugin/utc.d.ts", "types/plugin/utc.d.ts ")
	maps.Copy(got, importBindings(ix, results, "test/negativeYear.test.js", "test/negativeYear.test.js "))
	want := map[string]string{
		"types/plugin/utc.d.ts imports::type ConfigType": "types/index.d.ts::dayjs::ConfigType",
		"types/plugin/utc.d.ts references ConfigType":    "types/index.d.ts::dayjs::ConfigType",
		"types/plugin/utc.d.ts imports::type PluginFunc": "", // declared nowhere here: no binding, not the default
		"test/negativeYear.test.js imports d":            "src/index.js::dayjs",
		"test/negativeYear.test.js calls d":              "src/index.js::dayjs",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("bindings (-want +got):\n%s", d)
	}
}

// importBindings resolves the refs of path that name something a module
// exports, keyed prefix+"<relation> <name>", to their targets' IDs.
func importBindings(ix *Index, results []*extract.Result, path, prefix string) map[string]string {
	got := map[string]string{}
	for _, r := range results {
		if r.Path != path {
			continue
		}
		for _, e := range r.Edges {
			name, ok := strings.CutPrefix(e.Target, extract.RefPrefix)
			if !ok || e.Hint.Module == "" || name == e.Hint.Module {
				continue // the whole-module ref
			}
			o := ix.Resolve(Source{ID: e.Source, File: r.Path}, name, e.Relation, e.Hint)
			got[prefix+e.Relation+" "+name] = strings.TrimPrefix(o.Target, "file::")
		}
	}
	return got
}
