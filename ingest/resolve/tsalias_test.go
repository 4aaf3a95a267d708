package resolve

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/ingest/extract"
	"github.com/m1nd-go/m1nd/ingest/workspace"
)

// TestTSConfigAliases: imports through a tsconfig's "paths" and baseUrl
// bind the app's own files — "@/lib/format" as Next.js and Vite apps
// write it, a longer alias prefix over a shorter one, an alias set in a
// config the app's extends, baseUrl's bare names, and the nearest config
// for a package of a monorepo. Before, "@/…" was never resolved and a
// bare "components/button" was read as an npm package.
func TestTSConfigAliases(t *testing.T) {
	dir := t.TempDir()
	write := func(p, c string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644)
	}
	write("tsconfig.base.json", `{
		// shared by the apps
		"compilerOptions": {"paths": {"@ui/*": ["packages/ui/src/*"],}},
	}`)
	write("tsconfig.json", `{"extends": "./tsconfig.base.json",
		"compilerOptions": {"baseUrl": "src", /* the app's sources */ "paths": {
			"@/*": ["./*"], "@/lib/special/*": ["./vendor/special/*"], "@ui/*": ["../packages/ui/src/*"]}}}`)
	write("packages/admin/tsconfig.json", `{"compilerOptions": {"paths": {"@/*": ["./app/*"]}}}`)
	ws := workspace.Detect(dir, []string{"packages/admin/tsconfig.json", "tsconfig.json"})
	ix := New([]*extract.Result{
		file("src/pages/home.tsx", "typescript", "func Home"),
		file("src/lib/format.ts", "typescript", "func fmtDate"),
		file("src/vendor/special/x.ts", "typescript", "func fmtDate"),
		file("src/components/button/index.tsx", "typescript", "func Button"),
		file("packages/ui/src/card.tsx", "typescript", "func Card"),
		file("packages/admin/app/users.ts", "typescript", "func listUsers"),
		file("packages/admin/app/page.tsx", "typescript", "func Page"),
		file("packages/admin/node/users.ts", "typescript", "func listUsers"),
	}, ws)
	run(t, ix, []rcase{
		{name: "@/ alias", from: "src/pages/home.tsx", srcEnt: "Home", ref: "fmtDate",
			hint: extract.RefHint{Module: "@/lib/format"}, want: "file::src/lib/format.ts::fmtDate", status: Resolved},
		{name: "the longest prefix wins", from: "src/pages/home.tsx", srcEnt: "Home", ref: "fmtDate",
			hint: extract.RefHint{Module: "@/lib/special/x"}, want: "file::src/vendor/special/x.ts::fmtDate", status: Resolved},
		{name: "a directory's index", from: "src/pages/home.tsx", srcEnt: "Home", ref: "Button",
			hint: extract.RefHint{Module: "@/components/button"}, want: "file::src/components/button/index.tsx::Button", status: Resolved},
		{name: "baseUrl bare name", from: "src/pages/home.tsx", srcEnt: "Home", ref: "Button",
			hint: extract.RefHint{Module: "components/button"}, want: "file::src/components/button/index.tsx::Button", status: Resolved},
		{name: "the app's paths replace the base config's", from: "src/pages/home.tsx", srcEnt: "Home", ref: "Card",
			hint: extract.RefHint{Module: "@ui/card"}, want: "file::packages/ui/src/card.tsx::Card", status: Resolved},
		{name: "the nearest config", from: "packages/admin/app/page.tsx", srcEnt: "Page", ref: "listUsers",
			hint: extract.RefHint{Module: "@/users"}, want: "file::packages/admin/app/users.ts::listUsers", status: Resolved},
	})
}

// TestJSNamedImportOfModuleStem: `import { db } from "@/lib/db"` names the
// module's export db, not the module; a default import named like its
// module (`import db from "./db"`, no such name imported) still binds the
// module. Before, both bound lib/db.ts itself: taxonomy's pages imported
// no prisma client.
func TestJSNamedImportOfModuleStem(t *testing.T) {
	page := file("app/page.ts", "typescript", "func Page")
	page.Imports = []extract.Import{{Module: "../lib/db", Names: []string{"db"}}}
	other := file("app/other.ts", "typescript", "func Other")
	other.Imports = []extract.Import{{Module: "../lib/db", Alias: "db"}}
	ix := New([]*extract.Result{page, other, file("lib/db.ts", "typescript", "const db", "func connect")}, nil)
	run(t, ix, []rcase{
		{name: "named import", from: "app/page.ts", ref: "db", rel: extract.RelImports,
			hint: extract.RefHint{Module: "../lib/db"}, want: "file::lib/db.ts::db", status: Resolved},
		{name: "default import", from: "app/other.ts", ref: "db", rel: extract.RelImports,
			hint: extract.RefHint{Module: "../lib/db"}, want: "file::lib/db.ts", status: Resolved},
	})
}
