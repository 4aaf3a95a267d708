package edit

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/pathguard"
)

// guarded is a root with a symlink leading out of it, one staying in, a
// directory, and a file where a directory would be.
func guarded(t testing.TB) (root, outside string) {
	t.Helper()
	root, outside = t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o644)
	os.MkdirAll(filepath.Join(root, "src", "pkg"), 0o755)
	os.WriteFile(filepath.Join(root, "src", "a.go"), []byte("package src\n"), 0o644)
	os.WriteFile(filepath.Join(root, "plain"), []byte("x"), 0o644)
	os.Symlink(outside, filepath.Join(root, "out"))
	os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "secret-link"))
	os.Symlink(filepath.Join(root, "src"), filepath.Join(root, "inlink"))
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	return root, outside
}

func TestValidateRefuses(t *testing.T) {
	t.Parallel()
	root, outside := guarded(t)
	g := pathguard.New(root)
	big := make([]byte, MaxFileSize+1)
	cases := []struct {
		name  string
		edits []Edit
		kind  error
		msg   string
	}{
		{"empty batch", nil, ErrEmptyBatch, "no edits"},
		{"outside", []Edit{{Path: filepath.Join(outside, "x.go")}}, pathguard.ErrOutside, "outside every ingest root"},
		{"dotdot", []Edit{{Path: "../x.go"}}, pathguard.ErrEscape, "climbs out"},
		{"symlink dir escape", []Edit{{Path: "out/new.go"}}, pathguard.ErrSymlinkEscape, "symlink"},
		{"symlink file escape", []Edit{{Path: "secret-link"}}, pathguard.ErrSymlinkEscape, "symlink"},
		{"directory", []Edit{{Path: "src/pkg"}}, ErrDirectory, "is a directory"},
		{"root itself", []Edit{{Path: "."}}, ErrDirectory, "root itself"},
		{"parent is a file", []Edit{{Path: "plain/x.go"}}, ErrParent, "plain is a file"},
		{"git metadata", []Edit{{Path: ".git/config"}}, ErrProtected, ".git"},
		{"git metadata in capitals", []Edit{{Path: ".GIT/hooks/pre-commit"}}, ErrProtected, ".git"},
		{"newline in path", []Edit{{Path: "src/a\n.go"}}, ErrInvalidChars, "control characters"},
		{"too large", []Edit{{Path: "src/big.go", Content: big}}, ErrTooLarge, "over the"},
		{"duplicate through symlink", []Edit{{Path: "src/a.go"}, {Path: "inlink/a.go"}}, ErrDuplicate, "both write"},
		{"stale", []Edit{{Path: "src/a.go", ExpectedSHA256: strings.Repeat("0", 64)}}, ErrStale, "changed since you read it"},
		{"bad hash", []Edit{{Path: "src/a.go", ExpectedSHA256: "abc"}}, ErrBadHash, "not a SHA-256"},
		{"expected absent", []Edit{{Path: "src/a.go", ExpectedSHA256: "absent"}}, ErrStale, "expected to be absent"},
		{"gone", []Edit{{Path: "src/gone.go", ExpectedSHA256: SHA256([]byte("x"))}}, ErrStale, "no longer exists"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := snapshot(t, root)
			_, err := Validate(g, c.edits)
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, c.kind) || !strings.Contains(e.Msg, c.msg) || e.Hint == "" {
				t.Fatalf("err %v (%T), want kind %v with %q and a hint", err, err, c.kind, c.msg)
			}
			if d := cmp.Diff(before, snapshot(t, root)); d != "" {
				t.Fatalf("validation changed the tree:\n%s", d)
			}
		})
	}
}

func TestValidateAccepts(t *testing.T) {
	t.Parallel()
	root, _ := guarded(t)
	g := pathguard.New(root)
	ts, err := Validate(g, []Edit{
		{Path: "src/a.go", Content: []byte("package src\n\nvar X = 1\n"), ExpectedSHA256: SHA256([]byte("package src\n"))},
		{Path: "inlink/b.go", Content: []byte("package src\n")},
		{Path: filepath.Join(root, "new", "dir", "c.py"), Content: []byte("x = 1\n"), ExpectedSHA256: "absent"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !ts[0].Existed || ts[0].RelReal != "src/a.go" || ts[0].Mode != 0o644 {
		t.Errorf("target 0: %+v", ts[0])
	}
	if ts[1].Existed || ts[1].RelReal != "src/b.go" {
		t.Errorf("a file named through a symlink inside the root is written at its target: %+v", ts[1])
	}
	if d := cmp.Diff([]string{"new", "new/dir"}, ts[2].NewDirs); d != "" {
		t.Errorf("new directories: %s", d)
	}
}

// FuzzValidatePath: whatever path an agent sends, validation never
// panics, never writes, and what it accepts is a non-directory strictly
// inside the root's real path.
func FuzzValidatePath(f *testing.F) {
	for _, s := range []string{"src/a.go", "../x", "out/x", "secret-link", "src/pkg", ".", "/etc/passwd", "inlink/../../x", "a/./b/../c", "plain/x", ".git/x", "src//a.go", "~/x", "\x00", "src/pkg/", "inlink/a.go"} {
		f.Add(s)
	}
	root, _ := guarded(f)
	realRoot, _ := filepath.EvalSymlinks(root)
	g := pathguard.New(root)
	f.Fuzz(func(t *testing.T, p string) {
		ts, err := Validate(g, []Edit{{Path: p, Content: []byte("x")}})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Msg == "" || e.Hint == "" {
				t.Fatalf("refusal of %q does not teach: %v", p, err)
			}
			return
		}
		tg := ts[0]
		if !strings.HasPrefix(tg.Res.Real, realRoot+string(filepath.Separator)) {
			t.Fatalf("%q accepted at %s, outside %s", p, tg.Res.Real, realRoot)
		}
		if fi, err := os.Lstat(tg.Res.Real); err == nil && (fi.IsDir() || !fi.Mode().IsRegular()) {
			t.Fatalf("%q accepted a %v", p, fi.Mode())
		}
		if protected(tg.RelReal) != "" {
			t.Fatalf("%q accepted inside version-control metadata", p)
		}
		for _, d := range tg.NewDirs {
			if _, err := os.Lstat(filepath.Join(realRoot, d)); err == nil {
				t.Fatalf("%q: validation created %s", p, d)
			}
		}
	})
}

// An agent that saw only some lines passes them; the edit is refused
// when the file no longer has them there.
func TestExpectedLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		lines *Lines
		err   error
	}{
		{"same lines", &Lines{Start: 2, Text: "\nfunc A() {}\n"}, nil},
		{"same lines, CRLF as read", &Lines{Start: 3, Text: "func A() {}\r\n"}, nil},
		{"moved", &Lines{Start: 1, Text: "func A() {}"}, ErrStale},
		{"past the end", &Lines{Start: 3, Text: "func A() {}\nfunc B() {}\n"}, ErrStale},
		{"no text", &Lines{Start: 1, Text: ""}, ErrBadHash},
		{"line zero", &Lines{Start: 0, Text: "x"}, ErrBadHash},
	} {
		root := t.TempDir()
		os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n\nfunc A() {}\n"), 0o644)
		_, err := Validate(pathguard.New(root), []Edit{{Path: "a.go", Content: []byte("package a\n"), ExpectedLines: tc.lines}})
		if !errors.Is(err, tc.err) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.err)
		}
	}
}

// TestProtectedSpellings: every spelling that some file system (macOS's
// case-insensitive HFS+/APFS, Windows' NTFS) opens as .git is refused,
// as git's own verify_path refuses them; look-alikes that are other
// names on every file system are not.
func TestProtectedSpellings(t *testing.T) {
	t.Parallel()
	cases := []struct {
		rel  string
		want string
	}{
		{".git/config", ".git"},
		{".GIT/hooks/pre-commit", ".git"},
		{".Git/HEAD", ".git"},
		{"sub/.gIt/hooks/post-checkout", ".git"},
		{".g\u200cit/hooks/pre-commit", ".git"},
		{"\ufeff.git/config", ".git"},
		{".git./config", ".git"},
		{".git .../config", ".git"},
		{".git::$INDEX_ALLOCATION/config", ".git"},
		{"GIT~1/config", ".git"},
		{"git~2/hooks/pre-commit", ".git"},
		{"\uff0e\uff47\uff49\uff54/config", ".git"},
		{".HG/hgrc", ".hg"},
		{".Svn/entries", ".svn"},
		{".JJ/repo", ".jj"},
		{"src/.gitignore", ""},
		{".github/workflows/ci.yml", ""},
		{"git/config", ""},
		{"src/my.git.go", ""},
		{".gitx/config", ""},
		{"docs/git~/x", ""},
	}
	for _, c := range cases {
		rel, err := strconv.Unquote(`"` + c.rel + `"`)
		if err != nil {
			t.Fatal(err)
		}
		if got := protected(rel); got != c.want {
			t.Errorf("protected(%q) = %q, want %q", rel, got, c.want)
		}
	}
}
