package pathguard

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// layout builds:
//
//	base/repo/src/a.py
//	base/repo/src/in_link.py     → src/a.py            (inside the root)
//	base/repo/docs               → base/other          (another root)
//	base/repo/out_link           → base/secret/key.txt (outside)
//	base/repo/out_dir            → base/secret         (outside, a directory)
//	base/repo/dangling           → base/secret/missing (outside, missing)
//	base/repo/rel_up             → ../secret/key.txt   (relative, outside)
//	base/other/readme.md
//	base/secret/key.txt
//	base/rootlink                → base/repo           (the root through a symlink)
func layout(t *testing.T) (base string) {
	t.Helper()
	base = t.TempDir()
	if r, err := filepath.EvalSymlinks(base); err == nil {
		base = r
	}
	mk := func(rel, content string) {
		p := filepath.Join(base, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ln := func(target, rel string) {
		if err := os.Symlink(target, filepath.Join(base, rel)); err != nil {
			t.Skipf("symlinks unsupported: %v", err)
		}
	}
	mk("repo/src/a.py", "x = 1\n")
	mk("other/readme.md", "hi\n")
	mk("secret/key.txt", "s3cret\n")
	ln(filepath.Join(base, "repo/src/a.py"), "repo/src/in_link.py")
	ln(filepath.Join(base, "other"), "repo/docs")
	ln(filepath.Join(base, "secret/key.txt"), "repo/out_link")
	ln(filepath.Join(base, "secret"), "repo/out_dir")
	ln(filepath.Join(base, "secret/missing"), "repo/dangling")
	ln("../secret/key.txt", "repo/rel_up")
	ln(filepath.Join(base, "repo"), "rootlink")
	return base
}

func TestResolve(t *testing.T) {
	base := layout(t)
	repo := filepath.Join(base, "repo")
	other := filepath.Join(base, "other")
	type want struct {
		err     error  // nil = accepted
		rel     string // when accepted
		realRel string // when accepted and different from rel
		real    string // when accepted (relative to base)
		exists  bool
		msg     string // substring of the error message
	}
	cases := []struct {
		name  string
		roots []string
		path  string
		want  want
	}{
		{"relative file", []string{repo}, "src/a.py", want{rel: "src/a.py", real: "repo/src/a.py", exists: true}},
		{"dot slash", []string{repo}, "./src/a.py", want{rel: "src/a.py", real: "repo/src/a.py", exists: true}},
		{"inner dotdot stays inside", []string{repo}, "src/../src/a.py", want{rel: "src/a.py", real: "repo/src/a.py", exists: true}},
		{"root itself", []string{repo}, ".", want{rel: "", real: "repo", exists: true}},
		{"absolute inside", []string{repo}, filepath.Join(repo, "src/a.py"), want{rel: "src/a.py", real: "repo/src/a.py", exists: true}},
		{"missing file inside", []string{repo}, "src/nope.py", want{rel: "src/nope.py", real: "repo/src/nope.py"}},
		{"symlink inside root to inside root", []string{repo}, "src/in_link.py", want{rel: "src/in_link.py", realRel: "src/a.py", real: "repo/src/a.py", exists: true}},
		{"symlink to another root", []string{repo, other}, "docs/readme.md", want{rel: "docs/readme.md", realRel: "readme.md", real: "other/readme.md", exists: true}},
		{"relative tried in each root", []string{repo, other}, "readme.md", want{rel: "readme.md", real: "other/readme.md", exists: true}},
		{"root reached through a symlink", []string{filepath.Join(base, "rootlink")}, "src/a.py", want{rel: "src/a.py", real: "repo/src/a.py", exists: true}},
		{"real path of a symlinked root", []string{filepath.Join(base, "rootlink")}, filepath.Join(repo, "src/a.py"), want{rel: "src/a.py", real: "repo/src/a.py", exists: true}},
		{"root as given through symlink, absolute", []string{filepath.Join(base, "rootlink")}, filepath.Join(base, "rootlink/src/a.py"), want{rel: "src/a.py", real: "repo/src/a.py", exists: true}},

		{"dotdot escape", []string{repo}, "a/../../etc/passwd", want{err: ErrEscape, msg: "climbs out"}},
		{"plain dotdot", []string{repo}, "..", want{err: ErrEscape}},
		{"dotdot to sibling", []string{repo}, "../secret/key.txt", want{err: ErrEscape}},
		{"absolute elsewhere", []string{repo}, "/etc/passwd", want{err: ErrOutside, msg: "outside every ingest root"}},
		{"absolute dotdot out", []string{repo}, repo + "/src/../../secret/key.txt", want{err: ErrOutside, msg: "\"..\""}},
		{"absolute sibling with common prefix", []string{repo}, repo + "x/file", want{err: ErrOutside}},
		{"symlink out (file)", []string{repo}, "out_link", want{err: ErrSymlinkEscape, msg: "out_link"}},
		{"symlink out (directory component)", []string{repo}, "out_dir/key.txt", want{err: ErrSymlinkEscape, msg: "out_dir"}},
		{"symlink out (missing below it)", []string{repo}, "out_dir/nothing.txt", want{err: ErrSymlinkEscape}},
		{"dangling symlink out", []string{repo}, "dangling", want{err: ErrSymlinkEscape}},
		{"relative symlink out", []string{repo}, "rel_up", want{err: ErrSymlinkEscape}},
		{"symlink out, absolute", []string{repo}, filepath.Join(repo, "out_link"), want{err: ErrSymlinkEscape}},
		{"empty roots", nil, "src/a.py", want{err: ErrNoRoots, msg: "nothing has been ingested"}},
		{"empty path", []string{repo}, "  ", want{err: ErrEmpty}},
		{"NUL byte", []string{repo}, "src/a.py\x00.txt", want{err: ErrOutside, msg: "NUL"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := New(tc.roots...)
			got, err := g.Resolve(tc.path)
			if tc.want.err != nil {
				if !errors.Is(err, tc.want.err) {
					t.Fatalf("Resolve(%q) = %+v, %v; want %v", tc.path, got, err, tc.want.err)
				}
				var pe *Error
				if !errors.As(err, &pe) || pe.Hint == "" {
					t.Fatalf("error %v is not a *Error with a hint", err)
				}
				if tc.want.msg != "" && !strings.Contains(err.Error(), tc.want.msg) {
					t.Errorf("message %q does not mention %q", err.Error(), tc.want.msg)
				}
				if tc.want.err == ErrNoRoots && !strings.Contains(pe.Hint, "ingest first") {
					t.Errorf("hint %q does not say to ingest first", pe.Hint)
				}
				if tc.want.err != ErrNoRoots && len(tc.roots) > 0 && !strings.Contains(pe.Hint+pe.Msg, "root") {
					t.Errorf("error does not say what is allowed: %q / %q", pe.Msg, pe.Hint)
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tc.path, err)
			}
			if got.Rel != tc.want.rel {
				t.Errorf("Rel = %q, want %q", got.Rel, tc.want.rel)
			}
			if want := filepath.Join(base, tc.want.real); got.Real != want {
				t.Errorf("Real = %q, want %q", got.Real, want)
			}
			wantRR := tc.want.realRel
			if wantRR == "" {
				wantRR = tc.want.rel
			}
			if got.RealRel != wantRR {
				t.Errorf("RealRel = %q, want %q", got.RealRel, wantRR)
			}
			if got.Exists != tc.want.exists {
				t.Errorf("Exists = %v, want %v", got.Exists, tc.want.exists)
			}
			// The batch form agrees with the single form.
			bg, berr := g.NewBatch().Resolve(tc.path)
			if berr != nil || !reflect.DeepEqual(bg, got) {
				t.Errorf("Batch.Resolve = %+v, %v; want %+v", bg, berr, got)
			}
		})
	}
}

func TestBatchRefusesLikeResolve(t *testing.T) {
	base := layout(t)
	g := New(filepath.Join(base, "repo"))
	b := g.NewBatch()
	for _, p := range []string{"out_link", "out_dir/key.txt", "../secret/key.txt", "/etc/passwd", "rel_up"} {
		_, want := g.Resolve(p)
		_, got := b.Resolve(p)
		if want == nil || got == nil || !errors.Is(got, errors.Unwrap(want)) {
			t.Errorf("%s: batch %v, single %v", p, got, want)
		}
	}
}

func TestOpen(t *testing.T) {
	base := layout(t)
	g := New(filepath.Join(base, "repo"))
	r, err := g.Resolve("src/in_link.py")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(r)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	// Swap the real file for a symlink out after the check: Open refuses.
	real := r.Real
	if err := os.Remove(real); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "secret/key.txt"), real); err != nil {
		t.Fatal(err)
	}
	if f, err := Open(r); err == nil {
		f.Close()
		t.Fatal("Open followed a symlink swapped in after Resolve")
	} else if !errors.Is(err, ErrSymlinkEscape) {
		t.Fatalf("Open: %v, want ErrSymlinkEscape", err)
	}
}

func TestContainsAndRoots(t *testing.T) {
	base := layout(t)
	g := New(filepath.Join(base, "rootlink"), "", filepath.Join(base, "rootlink"))
	if got := g.Roots(); len(got) != 1 || got[0] != filepath.Join(base, "rootlink") {
		t.Fatalf("Roots() = %v", got)
	}
	for p, want := range map[string]bool{
		filepath.Join(base, "rootlink/x"): true,
		filepath.Join(base, "repo/x"):     true, // the real spelling
		filepath.Join(base, "repox"):      false,
		"/etc":                            false,
	} {
		if got := g.Contains(p); got != want {
			t.Errorf("Contains(%s) = %v", p, got)
		}
	}
}

// TestOpenDirectorySwap: a directory on the way to the file is replaced by
// a symlink leading out after the check (a checkout, a hostile tree): Open
// and OpenReal still refuse, whichever component moved.
func TestOpenDirectorySwap(t *testing.T) {
	base := layout(t)
	if err := os.MkdirAll(filepath.Join(base, "secret/src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "secret/src/a.py"), []byte("leak\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := New(filepath.Join(base, "repo"))
	r, err := g.Resolve("src/a.py")
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(base, "repo/src")
	if err := os.Rename(src, src+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "secret/src"), src); err != nil {
		t.Fatal(err)
	}
	for name, open := range map[string]func() (*os.File, error){
		"Open":     func() (*os.File, error) { return Open(r) },
		"OpenReal": func() (*os.File, error) { return g.OpenReal(r.Real) },
	} {
		if f, err := open(); err == nil {
			data := make([]byte, 8)
			n, _ := f.Read(data)
			f.Close()
			t.Errorf("%s read %q through a directory swapped for a symlink out", name, data[:n])
		} else if !errors.Is(err, ErrSymlinkEscape) {
			t.Errorf("%s: %v, want ErrSymlinkEscape", name, err)
		}
	}
}

// TestOpenRefusesSpecialFiles: a FIFO is refused at once, not waited on.
func TestOpenRefusesSpecialFiles(t *testing.T) {
	base := layout(t)
	fifo := filepath.Join(base, "repo/src/pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	g := New(filepath.Join(base, "repo"))
	r, err := g.Resolve("src/pipe")
	if err != nil {
		t.Fatal(err)
	}
	if f, err := Open(r); err == nil {
		f.Close()
		t.Fatal("Open accepted a FIFO")
	} else if !errors.Is(err, ErrSpecial) {
		t.Fatalf("Open(FIFO): %v, want ErrSpecial", err)
	}
	if _, err := g.OpenReal(filepath.Join(base, "secret/key.txt")); !errors.Is(err, ErrOutside) {
		t.Errorf("OpenReal outside the roots: %v, want ErrOutside", err)
	}
}

// TestResolveChoosesTheRootThatHoldsThePath: a relative path belongs to
// the root holding the longest part of it — never simply to the first
// root. Roots here: a docs folder listed first, a code root, and a docs
// root nested inside the code root.
func TestResolveChoosesTheRootThatHoldsThePath(t *testing.T) {
	base := t.TempDir()
	docs, code := filepath.Join(base, "notes"), filepath.Join(base, "flask")
	nested := filepath.Join(code, "docs")
	for _, f := range []string{"notes/refs.bib", "notes/guide/intro.md", "flask/src/flask/signals.py", "flask/src/flask/app.py", "flask/docs/index.rst", "flask/README.md", "notes/README.md"} {
		p := filepath.Join(base, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x"), 0o644)
	}
	g := New(docs, nested, code)
	cases := []struct {
		path, root, anchor string
		exists             bool
		tied               []string
	}{
		{"src/flask/new_mod.py", code, "src/flask", false, nil},
		{"src/flask/signals.py/sub.py", code, "src/flask/signals.py", false, nil},
		{"src/flask/app.py", code, "", true, nil},
		{"guide/new.md", docs, "guide", false, nil},
		{"index.rst", nested, "", true, nil},
		{"docs/index.rst", code, "", true, nil},
		{"README.md", docs, "", true, nil}, // exists in two roots: the earlier wins
		{"brand/new.py", docs, "", false, []string{nested, code}},
	}
	for _, c := range cases {
		res, err := g.Resolve(c.path)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if res.Root != c.root || res.Exists != c.exists || res.Anchor != c.anchor || !reflect.DeepEqual(res.Tied, c.tied) {
			t.Errorf("%s: root %s exists %v anchor %q tied %v; want %s %v %q %v", c.path, res.Root, res.Exists, res.Anchor, res.Tied, c.root, c.exists, c.anchor, c.tied)
		}
		if b, err := g.NewBatch().Resolve(c.path); err != nil || !reflect.DeepEqual(b, res) {
			t.Errorf("%s: batch form %+v, %v; want %+v", c.path, b, err, res)
		}
	}
}
