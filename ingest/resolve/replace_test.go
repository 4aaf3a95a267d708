package resolve

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/ingest/extract"
)

// probe is a reference resolved before and after an index changes.
type probe struct {
	from, src, name, rel string
	hint                 extract.RefHint
}

// resolveProbes resolves the probes, without the positions (which differ
// between an index changed in place and one built anew).
func resolveProbes(ix *Index, refs []probe) []Result {
	var out []Result
	for _, r := range refs {
		src := Source{ID: extract.FileID(r.from) + "::" + r.src, File: r.from}
		res := ix.Resolve(src, r.name, r.rel, r.hint)
		res.File, res.Node = 0, 0
		out = append(out, res)
	}
	return out
}

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
	refs := []probe{
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
		if diff := cmp.Diff(resolveProbes(New(results, nil), refs), resolveProbes(ix, refs)); diff != "" {
			t.Errorf("edit %d: ReplaceFile resolves differently from New (-new +replaced):\n%s", i, diff)
		}
	}
	if New(base(), nil).ReplaceFile(file("nope.py", "python")) {
		t.Fatal("ReplaceFile accepted a path the index does not hold")
	}
}

// TestAddRemoveFileEqualsNew adds and removes files of an index in place
// and checks every reference resolves as in an index built from scratch
// over the same files: modules appear and vanish, directories with them,
// star imports find other modules.
func TestAddRemoveFileEqualsNew(t *testing.T) {
	star := func(r *extract.Result, module string) *extract.Result {
		r.Imports = append(r.Imports, extract.Import{Module: module, Names: []string{"*"}})
		return r
	}
	base := func() []*extract.Result {
		return []*extract.Result{
			file("app/models.py", "python", "class User", "func User::save"),
			star(file("app/views.py", "python", "func render"), "app.extra"),
			file("lib/util.py", "python", "func helper", "func save"),
			file("pkg/a.go", "go", "struct Server", "func Server::Run", "func helper"),
			file("pkg/b.go", "go", "func Run", "func main"),
			file("cmd/main.go", "go", "func main"),
			file("tools/gen.go", "go", "func gen"),
		}
	}
	type change struct {
		add    []*extract.Result
		remove []string
	}
	changes := []change{
		{add: []*extract.Result{file("app/extra.py", "python", "func extra", "func helper")}},
		{add: []*extract.Result{file("new/deep/mod.py", "python", "func helper")}},
		{remove: []string{"lib/util.py"}},
		{remove: []string{"app/models.py", "pkg/b.go"}},
		{add: []*extract.Result{file("lib/more.py", "python", "func save")}, remove: []string{"lib/util.py"}},
		{add: []*extract.Result{file("pkg/c.go", "go", "func Run")}, remove: []string{"pkg/a.go"}},
		{remove: []string{"tools/gen.go"}},
		{add: []*extract.Result{file("tools/more/gen.go", "go", "func gen")}},
	}
	refs := []probe{
		{"app/views.py", "render", "save", extract.RelCalls, extract.RefHint{}},
		{"app/views.py", "render", "extra", extract.RelCalls, extract.RefHint{}},
		{"app/views.py", "render", "helper", extract.RelCalls, extract.RefHint{}},
		{"app/views.py", "render", "User", extract.RelImports, extract.RefHint{Module: "app.models"}},
		{"app/views.py", "render", "helper", extract.RelCalls, extract.RefHint{Module: "lib.util"}},
		{"app/views.py", "render", "helper", extract.RelCalls, extract.RefHint{Module: "mod"}},
		{"app/views.py", "render", "helper", extract.RelCalls, extract.RefHint{Module: "deep.mod"}},
		{"pkg/b.go", "main", "Run", extract.RelCalls, extract.RefHint{}},
		{"pkg/b.go", "main", "helper", extract.RelCalls, extract.RefHint{}},
		{"pkg/b.go", "main", "Run", extract.RelCalls, extract.RefHint{Receiver: "s", ReceiverType: "Server"}},
		{"cmd/main.go", "main", "tools", extract.RelImports, extract.RefHint{Module: "tools"}},
		{"cmd/main.go", "main", "more", extract.RelImports, extract.RefHint{Module: "tools/more"}},
	}
	for i, c := range changes {
		results := base()
		ix := New(results, nil)
		for _, p := range c.remove {
			if !ix.RemoveFile(p) {
				t.Fatalf("change %d: %s not indexed", i, p)
			}
			results = slices.DeleteFunc(results, func(r *extract.Result) bool { return r.Path == p })
		}
		for _, r := range c.add {
			if !ix.AddFile(r) {
				t.Fatalf("change %d: %s already indexed", i, r.Path)
			}
			results = append(results, r)
		}
		if diff := cmp.Diff(resolveProbes(New(results, nil), refs), resolveProbes(ix, refs)); diff != "" {
			t.Errorf("change %d: AddFile/RemoveFile resolve differently from New (-new +changed):\n%s", i, diff)
		}
	}
	ix := New(base(), nil)
	if ix.AddFile(file("lib/util.py", "python")) || ix.RemoveFile("nope.py") {
		t.Fatal("AddFile took an indexed path or RemoveFile one the index does not hold")
	}
	if !ix.RemoveFile("lib/util.py") || ix.RemoveFile("lib/util.py") {
		t.Fatal("RemoveFile twice: want true, then false")
	}
	if _, ok := ix.FileIndex("lib/util.py"); ok {
		t.Fatal("a removed file still has an index")
	}
}
