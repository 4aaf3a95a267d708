package code

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/internal/graphdump"
)

// TestTSReexportAliases: a name imported from a barrel (index.ts) that
// re-exports another module's entity under a new name binds to that
// entity, not to a same-named one elsewhere under the package
// (jquense/yup: test/array.ts's array() meant array.ts's create, not
// locale.ts's `array` messages).
func TestTSReexportAliases(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"src/array.ts":   "export function create() { return 1 }\n",
		"src/string.ts":  "export function create() { return 2 }\n",
		"src/number.ts":  "export function create() { return 3 }\n",
		"src/date.ts":    "export function makeDate() { return 4 }\nexport default function dflt() { return 5 }\n",
		"src/locale.ts":  "export let array = { min: 'x' }\nexport let string = { min: 'y' }\nexport let number = { min: 'z' }\nexport let makeDate = { min: 'w' }\nexport let dateDefault = { min: 'v' }\n",
		"src/number2.ts": "export { create as number } from './number'\n",
		"src/index.ts": "import { create as arrayCreate } from './array'\n" +
			"export { create as string } from './string'\n" +
			"export * from './number2'\n" +
			"export * from './date'\n" +
			"export { default as dateDefault } from './date'\n" +
			"export { arrayCreate as array }\n",
		"test/t.ts": "import { array, string, number, makeDate, dateDefault } from '../src'\n" +
			"export function useAll() { array(); string(); number(); makeDate(); dateDefault() }\n",
	}
	d := ingestFiles(t, dir, files)
	const caller = "file::test/t.ts::useAll"
	for _, c := range []struct{ form, want, wrong string }{
		{"import {a as c}; export {c as b}", "file::src/array.ts::create", "file::src/locale.ts::array"},
		{"export {a as b} from", "file::src/string.ts::create", "file::src/locale.ts::string"},
		{"export * from (of export {a as b} from)", "file::src/number.ts::create", "file::src/locale.ts::number"},
		{"export * from", "file::src/date.ts::makeDate", "file::src/locale.ts::makeDate"},
		// Default exports are not named in the graph: unbound, not wrong.
		{"export {default as b} from", "", "file::src/locale.ts::dateDefault"},
	} {
		if c.want != "" && !d.Has(caller, "calls", c.want) {
			t.Errorf("%s: missing %s -calls-> %s", c.form, caller, c.want)
		}
		if d.Has(caller, "calls", c.wrong) {
			t.Errorf("%s: wrong edge %s -calls-> %s", c.form, caller, c.wrong)
		}
	}
}

// TestTSNamedBarrel: a barrel that is no index (immer's src/internal.ts,
// `export * from` each module; src/immer.ts, `export { current } from
// "./internal"`) leads a name to its definition: immer's getCurrentScope
// had no caller.
func TestTSNamedBarrel(t *testing.T) {
	d := ingestFiles(t, t.TempDir(), map[string]string{
		"src/core/scope.ts":   "export function getCurrentScope() { return 1 }\nexport function enterScope() { return 2 }\n",
		"src/core/current.ts": "export function current() { return 3 }\n",
		"src/internal.ts":     "export * from './core/scope'\nexport * from './core/current'\n",
		"src/immer.ts":        "import { enterScope } from './internal'\nexport { current } from './internal'\nexport function produce() { return enterScope() }\n",
		"src/core/proxy.ts":   "import { getCurrentScope } from '../internal'\nexport function createProxy() { return getCurrentScope() }\n",
		"test/t.ts":           "import { current, produce } from '../src/immer'\nexport function useAll() { current(); produce() }\n",
	})
	for _, e := range [][2]string{
		{"file::src/core/proxy.ts::createProxy", "file::src/core/scope.ts::getCurrentScope"},
		{"file::src/immer.ts::produce", "file::src/core/scope.ts::enterScope"},
		{"file::test/t.ts::useAll", "file::src/core/current.ts::current"},
		{"file::test/t.ts::useAll", "file::src/immer.ts::produce"},
	} {
		if !d.Has(e[0], "calls", e[1]) {
			t.Errorf("missing %s -calls-> %s", e[0], e[1])
		}
	}
}

// ingestFiles writes files under dir and ingests it.
func ingestFiles(t *testing.T, dir string, files map[string]string) graphdump.Dump {
	t.Helper()
	for p, s := range files {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return graphdump.Of(ingest(t, adapter.Request{Root: dir}).Graph)
}
