package extract

import (
	"slices"
	"strings"
	"testing"
)

// importRels maps each import edge's target name to its relations.
func importRels(t *testing.T, path, src string) map[string][]string {
	t.Helper()
	r, err := ExtractFile(path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, e := range r.Edges {
		if e.Relation == RelImports || e.Relation == RelTypeImports {
			name := strings.TrimPrefix(e.Target, RefPrefix)
			if !slices.Contains(out[name], e.Relation) {
				out[name] = append(out[name], e.Relation)
			}
		}
	}
	return out
}

func checkImportRels(t *testing.T, got map[string][]string, want map[string]string) {
	t.Helper()
	for name, rel := range want {
		if !slices.Equal(got[name], []string{rel}) {
			t.Errorf("%s: relations %v, want [%s]", name, got[name], rel)
		}
	}
}

// An import under `if TYPE_CHECKING:` runs for the type checker only;
// its else branch, and every other if, run at run time.
func TestPythonTypeCheckingImports(t *testing.T) {
	src := `from __future__ import annotations
import typing
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from .models import Model
    import pkg.types
else:
    from .fallback import Fallback
if typing.TYPE_CHECKING:
    from .app import App
if not TYPE_CHECKING:
    from .runtime import Loop
if TYPE_CHECKING or DEBUG:
    from .debug import Tracer
def f():
    if TYPE_CHECKING:
        from .inner import Inner
    from .lazy import Lazy
`
	got := importRels(t, "pkg/mod.py", src)
	checkImportRels(t, got, map[string]string{
		"Model": RelTypeImports, ".models": RelTypeImports, "types": RelTypeImports,
		"App": RelTypeImports, "Inner": RelTypeImports,
		"Fallback": RelImports, "Loop": RelImports, "Tracer": RelImports, "Lazy": RelImports,
		"typing": RelImports, "TYPE_CHECKING": RelImports,
	})
}

// TypeScript's import type, export type and all-`type` specifier lists
// are erased from the output; a mixed list imports its values.
func TestTypeScriptTypeOnlyImports(t *testing.T) {
	src := `import type { Atom } from './atom'
import type * as T from './types'
import { type Getter, type Setter } from './getset'
import { type Store, createStore } from './store'
import type from './named-type'
import { type } from './type-name'
import Default, { type Opt } from './opts'
export type { Snap } from './snap'
export { type Ref, useRef } from './ref'
export type * from './all-types'
export * from './all-values'
`
	got := importRels(t, "src/index.ts", src)
	checkImportRels(t, got, map[string]string{
		"Atom": RelTypeImports, "./atom": RelTypeImports,
		"types": RelTypeImports, "./types": RelTypeImports,
		"Getter": RelTypeImports, "Setter": RelTypeImports, "./getset": RelTypeImports,
		"Store": RelTypeImports, "createStore": RelImports, "./store": RelImports,
		"./named-type": RelImports, "type": RelImports, "./type-name": RelImports,
		"Opt": RelTypeImports, "./opts": RelImports,
		"Snap": RelTypeImports, "./snap": RelTypeImports,
		"Ref": RelTypeImports, "useRef": RelImports, "./ref": RelImports,
		"./all-types": RelTypeImports, "./all-values": RelImports,
	})
}

// A stub (.pyi) and a declaration file (.d.ts) are read by the type
// checker only: every import of theirs is type-only.
func TestStubAndDeclarationImportsAreTypeOnly(t *testing.T) {
	checkImportRels(t, importRels(t, "pkg/mod.pyi", "from .models import Model\nimport os\n"),
		map[string]string{"Model": RelTypeImports, ".models": RelTypeImports, "os": RelTypeImports})
	checkImportRels(t, importRels(t, "src/index.d.ts", "import { Atom } from './atom'\nexport { Store } from './store'\n"),
		map[string]string{"Atom": RelTypeImports, "./atom": RelTypeImports, "Store": RelTypeImports, "./store": RelTypeImports})
	checkImportRels(t, importRels(t, "src/index.ts", "import { Atom } from './atom'\n"),
		map[string]string{"Atom": RelImports, "./atom": RelImports})
}
