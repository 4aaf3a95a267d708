package walk

import (
	"os"
	"path/filepath"
	"testing"
)

func TestIgnorer(t *testing.T) {
	repo := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(repo, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(".gitignore", "app/out/\n")
	write("app/.gitignore", "*.log\n!keep.log\n")
	write("app/sub/.gitignore", "gen/\n")
	write("app/build", "a file named like a skipped directory\n")
	write("app/src/Cargo.toml", "[package]\n") // so src/target is the build's output
	if err := os.MkdirAll(filepath.Join(repo, "app", "sub", "gen"), 0o755); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(repo, "app")
	for _, rel := range []string{"out/a.go", "x.log", "keep.log", "node_modules/p/index.js", "src/target/x.rs", "src/a.go", "sub/gen/x.go", "gen/x.go"} {
		write("app/"+rel, "x\n")
	}
	ig := NewIgnorer(root, Options{})
	// The walk and the Ignorer agree: what the walk takes is not ignored,
	// and what it leaves out (of the files above) is.
	wr, err := Walk(t.Context(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	taken := map[string]bool{}
	for _, f := range wr.Files {
		taken[f.Rel] = true
		if ig.Ignored(f.Abs) {
			t.Errorf("the walk takes %s, the Ignorer ignores it", f.Rel)
		}
	}
	for _, rel := range []string{"out/a.go", "x.log", "node_modules/p/index.js", "src/target/x.rs", "sub/gen/x.go"} {
		if taken[rel] {
			t.Errorf("the walk takes %s", rel)
		}
	}
	// A .gitignore is never ignored; asking about one is an event on it
	// (the rules are read again), so it is asked before the rest (a map's
	// order would put it anywhere, and the edit below must meet rules read
	// before it).
	if ig.Ignored(filepath.Join(root, ".gitignore")) {
		t.Error("a .gitignore is ignored")
	}
	for rel, want := range map[string]bool{
		"out/a.go":                  true, // the repository's .gitignore, above the root
		"x.log":                     true,
		"keep.log":                  false, // negated
		"node_modules/p/index.js":   true,  // a skipped directory name
		"src/target/x.rs":           true,
		"build":                     false, // a file, not a directory
		"src/a.go":                  false,
		"sub/gen":                   true, // a directory the nested .gitignore names
		"sub/gen/x.go":              true,
		"gen/x.go":                  false, // that rule holds under sub/ only
		"../elsewhere/out/a.go":     false, // outside the root
		"sub/deleted-dir/file.go":   false,
		"src/node_modules_notes.md": false,
	} {
		if got := ig.Ignored(filepath.Join(root, filepath.FromSlash(rel))); got != want {
			t.Errorf("Ignored(%s) = %v, want %v", rel, got, want)
		}
	}
	// A .gitignore edited: the event on it makes the rules read again.
	write("app/.gitignore", "*.tmp\n")
	if ig.Ignored(filepath.Join(root, "x.log")) != true {
		t.Error("the rules changed before an event on .gitignore said so")
	}
	ig.Ignored(filepath.Join(root, ".gitignore"))
	if ig.Ignored(filepath.Join(root, "x.log")) || !ig.Ignored(filepath.Join(root, "y.tmp")) {
		t.Error("after the .gitignore event the old rules still hold")
	}
	if !NewIgnorer(root, Options{}).Ignored(filepath.Join(root, "out", "a.go")) || NewIgnorer(root, Options{NoGitignore: true}).Ignored(filepath.Join(root, "out", "a.go")) {
		t.Error("NoGitignore is not honoured")
	}
}
