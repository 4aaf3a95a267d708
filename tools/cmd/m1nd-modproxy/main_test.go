package main

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A repository with two modules, one in a subdirectory without a LICENSE:
// the proxy serves the working tree (untracked files included, ignored ones
// not), and once tagged, -tags packs the same bytes from the tag.
func TestProxy(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	stderr = io.Discard
	repo := t.TempDir()
	write := func(name, data string) {
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write("LICENSE", "MIT\n")
	write(".gitignore", "node_modules/\n")
	write("a/go.mod", "module example.com/r/a\n\ngo 1.26\n")
	write("a/a.go", "package a\n")
	write("a/node_modules/x.js", "ignored\n")
	write("a/testdata/nested/go.mod", "module nested\n")
	write("b/go.mod", "module example.com/r/b\n\ngo 1.26\n\nrequire example.com/r/a v0.2.0\n")
	write("b/b.go", "package b\n")
	write("versions.txt", "# modules\na v0.2.0\nb v1.0.0 # next\n")
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "init")
	write("a/new.go", "package a\n") // untracked: in the zip

	out := t.TempDir()
	var sums bytes.Buffer
	if err := run(repo, "versions.txt", out, false, &sums); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"example.com/r/a/@v/list", "example.com/r/a/@v/v0.2.0.info", "example.com/r/a/@v/v0.2.0.mod", "example.com/r/b/@v/v1.0.0.zip"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	names := zipNames(t, filepath.Join(out, "example.com/r/a/@v/v0.2.0.zip"))
	if want := "LICENSE a.go go.mod new.go"; names != want {
		t.Errorf("zip of a holds %q, want %q", names, want)
	}
	if !strings.Contains(sums.String(), "example.com/r/b v1.0.0/go.mod h1:") {
		t.Errorf("sums: %s", sums.String())
	}

	// Tagged, -tags packs from the tag: same hash as the working tree.
	git("add", "-A")
	git("commit", "-q", "-m", "new")
	git("tag", "a/v0.2.0")
	var fromTree, fromTag bytes.Buffer
	if err := run(repo, "versions.txt", t.TempDir(), false, &fromTree); err != nil {
		t.Fatal(err)
	}
	if err := run(repo, "versions.txt", t.TempDir(), true, &fromTag); err != nil {
		t.Fatal(err)
	}
	if fromTree.String() != fromTag.String() {
		t.Errorf("working tree and tag differ:\n%s\n%s", fromTree.String(), fromTag.String())
	}

	// A replace directive is refused: users of the module would not get it.
	write("b/go.mod", "module example.com/r/b\n\ngo 1.26\n\nreplace example.com/r/a => ../a\n")
	if err := run(repo, "versions.txt", t.TempDir(), false, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "replace") {
		t.Errorf("replace directive: err = %v", err)
	}
}

func zipNames(t *testing.T, file string) string {
	t.Helper()
	z, err := zip.OpenReader(file)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	var names []string
	for _, f := range z.File {
		names = append(names, strings.TrimPrefix(f.Name, "example.com/r/a@v0.2.0/"))
	}
	slices.Sort(names)
	return strings.Join(names, " ")
}
