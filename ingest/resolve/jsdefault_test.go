package resolve

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/ingest/extract"
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
	got := map[string]string{}
	for _, r := range results {
		if r.Path != "test/main.ts" {
			continue
		}
		for _, e := range r.Edges {
			name, ok := strings.CutPrefix(e.Target, extract.RefPrefix)
			if !ok || e.Hint.Module == "" || name == e.Hint.Module {
				continue // the whole-module ref
			}
			o := ix.Resolve(Source{ID: e.Source, File: r.Path}, name, e.Relation, e.Hint)
			got[e.Relation+" "+name] = strings.TrimPrefix(o.Target, "file::")
		}
	}
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
