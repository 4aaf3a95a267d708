package resolve

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// TestReplaceFileEqualsNew edits files of an index in place and checks
// every reference resolves as in an index built from scratch over the
// edited results: definitions appear and vanish, methods change owner,
// inheritance comes and goes.
func TestReplaceFileEqualsNew(t *testing.T) {
	base := func() []*extract.Result {
		return []*extract.Result{
			inherits(file("app/models.py", "python", "class User", "func User::save", "class Admin", "func Admin::ban"), "Admin", "User"),
			file("app/views.py", "python", "func save", "func render"),
			file("lib/util.py", "python", "func helper", "func save"),
			file("pkg/a.go", "go", "struct Server", "func Server::Run", "func helper"),
			file("pkg/b.go", "go", "func Run", "func main"),
		}
	}
	edits := [][]*extract.Result{
		{inherits(file("app/models.py", "python", "class User", "class Admin", "func Admin::save", "func Admin::ban"), "Admin", "User")},
		{file("app/models.py", "python", "class User", "func User::save")},
		{file("app/models.py", "python", "class User", "func User::save", "class Admin", "func Admin::ban")},
		{file("app/views.py", "python", "func render"), file("lib/util.py", "python", "func save", "func helper", "func render")},
		{file("pkg/a.go", "go", "struct Server", "func helper"), file("pkg/b.go", "go", "func Server::Run", "func Run")},
		{inherits(file("app/views.py", "python", "class View", "func View::ban"), "View", "Admin")},
	}
	refs := []struct {
		from, src, name, rel string
		hint                 extract.RefHint
	}{
		{"app/views.py", "save", "save", extract.RelCalls, extract.RefHint{}},
		{"app/views.py", "render", "ban", extract.RelCalls, extract.RefHint{ReceiverType: "Admin"}},
		{"app/views.py", "render", "save", extract.RelCalls, extract.RefHint{ReceiverType: "Admin"}},
		{"app/views.py", "render", "save", extract.RelCalls, extract.RefHint{ReceiverType: "View"}},
		{"app/views.py", "render", "User", extract.RelImports, extract.RefHint{Module: "app.models"}},
		{"app/views.py", "render", "helper", extract.RelCalls, extract.RefHint{Module: "lib.util"}},
		{"lib/util.py", "helper", "render", extract.RelCalls, extract.RefHint{}},
		{"app/models.py", "Admin", "User", extract.RelInherits, extract.RefHint{}},
		{"pkg/b.go", "main", "Run", extract.RelCalls, extract.RefHint{}},
		{"pkg/b.go", "main", "helper", extract.RelCalls, extract.RefHint{}},
		{"pkg/b.go", "main", "Run", extract.RelCalls, extract.RefHint{Receiver: "s", ReceiverType: "Server"}},
	}
	resolveAll := func(ix *Index) []Result {
		var out []Result
		for _, r := range refs {
			src := Source{ID: extract.FileID(r.from) + "::" + r.src, File: r.from}
			res := ix.Resolve(src, r.name, r.rel, r.hint)
			res.File, res.Node = 0, 0 // positions differ by construction
			out = append(out, res)
		}
		return out
	}
	for i, edit := range edits {
		results := base()
		ix := New(results, nil)
		for _, r := range edit {
			if !ix.ReplaceFile(r) {
				t.Fatalf("edit %d: %s not indexed", i, r.Path)
			}
			for k := range results {
				if results[k].Path == r.Path {
					results[k] = r
				}
			}
		}
		if diff := cmp.Diff(resolveAll(New(results, nil)), resolveAll(ix)); diff != "" {
			t.Errorf("edit %d: ReplaceFile resolves differently from New (-new +replaced):\n%s", i, diff)
		}
	}
	if New(base(), nil).ReplaceFile(file("nope.py", "python")) {
		t.Fatal("ReplaceFile accepted a path the index does not hold")
	}
}
