package walk

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/ingest/internal/gittest"
)

// writeTree creates files (path → content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if err := testcorpus.Write(dir, files); err != nil {
		t.Fatal(err)
	}
}

func rels(r *Result) []string {
	var out []string
	for _, f := range r.Files {
		out = append(out, f.Rel)
	}
	return out
}

func mustWalk(t *testing.T, root string, opt Options) *Result {
	t.Helper()
	r, err := Walk(context.Background(), root, opt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSkipRules(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"main.py":                     "x = 1\n",
		"pkg/mod.py":                  "y = 2\n",
		"node_modules/react/index.js": "z\n",
		"pkg/__pycache__/mod.pyc":     "c\n",
		".venv/lib/site.py":           "v\n",
		"target/debug/out.rs":         "t\n",
		"web/dist/app.js":             "d\n",
		"web/build/app.js":            "b\n",
		"web/.next/x.js":              "n\n",
		"vendor/lib.go":               "v\n",
		"package-lock.json":           "{}\n",
		"web/yarn.lock":               "y\n",
		"Cargo.lock":                  "c\n",
		"Cargo.toml":                  "[package]\n",
		"web/package.json":            "{}\n",
		"poetry.lock":                 "p\n",
		".hidden/secret.py":           "h\n",
		".env":                        "E=1\n",
		"pkg/.eslintrc":               "{}\n",
	})
	r := mustWalk(t, dir, Options{})
	want := []string{"Cargo.toml", "main.py", "pkg/mod.py", "web/package.json"}
	if diff := cmp.Diff(want, rels(r)); diff != "" {
		t.Fatalf("files (-want +got):\n%s", diff)
	}
	if r.RepoRoot != "" {
		t.Errorf("RepoRoot = %q outside any repository", r.RepoRoot)
	}
	if r.SkippedDirs < 8 || r.SkippedFiles != 6 {
		t.Errorf("SkippedDirs=%d SkippedFiles=%d", r.SkippedDirs, r.SkippedFiles)
	}
}

// A directory named build, dist or target is build output only beside a
// manifest whose build writes it there; elsewhere it is source —
// commons-io's Java package org.apache.commons.io.build (51 removals of
// Builder.get() were unchecked: the package was never ingested), Go's
// go/build. A list given in Options is taken as written. The watcher's
// Ignorer and Admit say what the walk does.
func TestOutputDirsBesideAManifestOnly(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"pom.xml": "<project/>\n",
		"src/main/java/org/x/io/build/Builder.java": "package org.x.io.build;\n",
		"target/classes/Gen.java":                   "class Gen {}\n",
		"go/build/build.go":                         "package build\n",
		"cmd/dist/main.go":                          "package main\n",
		"web/package.json":                          "{}\n",
		"web/dist/app.js":                           "d\n",
		"web/build/app.js":                          "b\n",
		"native/CMakeLists.txt":                     "project(n)\n",
		"native/build/gen.c":                        "int g;\n",
		"py/pyproject.toml":                         "[project]\n",
		"py/dist/pkg.py":                            "x = 1\n",
	})
	want := []string{"cmd/dist/main.go", "go/build/build.go", "native/CMakeLists.txt", "pom.xml", "py/pyproject.toml",
		"src/main/java/org/x/io/build/Builder.java", "web/package.json"}
	if diff := cmp.Diff(want, rels(mustWalk(t, dir, Options{}))); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	ig := NewIgnorer(dir, Options{})
	for rel, skip := range map[string]bool{"src/main/java/org/x/io/build/Builder.java": false, "go/build/build.go": false,
		"target/classes/Gen.java": true, "web/dist/app.js": true, "native/build/gen.c": true} {
		if got := ig.Ignored(filepath.Join(dir, filepath.FromSlash(rel))); got != skip {
			t.Errorf("Ignored(%s) = %v, want %v", rel, got, skip)
		}
		if ok, _ := Admit(dir, rel, Options{}); ok == skip {
			t.Errorf("Admit(%s) = %v, want %v", rel, ok, !skip)
		}
	}
	own := rels(mustWalk(t, dir, Options{SkipDirs: []string{"build"}}))
	if slices.Contains(own, "go/build/build.go") || !slices.Contains(own, "web/dist/app.js") {
		t.Errorf("SkipDirs [build] given: %v", own)
	}
}

func TestHiddenRootIsWalked(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".config")
	writeTree(t, dir, map[string]string{"a.py": "a\n"})
	r := mustWalk(t, dir, Options{})
	if diff := cmp.Diff([]string{"a.py"}, rels(r)); diff != "" {
		t.Fatal(diff)
	}
}

func TestDotfileOptions(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"a.py":                      "a\n",
		".env":                      "E=1\n",
		".github/workflows/ci.yml":  "on: push\n",
		".github/CODEOWNERS":        "* @me\n",
		"pkg/.eslintrc.json":        "{}\n",
		".git/config":               "[core]\n",
		".venv/bin/activate":        "x\n",
		".cache/deep/.hidden/x.txt": "x\n",
	})
	// .env holds credentials: even with dotfiles it stays out unless
	// secrets are asked for explicitly.
	all := mustWalk(t, dir, Options{IncludeDotfiles: true})
	want := []string{".cache/deep/.hidden/x.txt", ".github/CODEOWNERS", ".github/workflows/ci.yml", "a.py", "pkg/.eslintrc.json"}
	if diff := cmp.Diff(want, rels(all)); diff != "" {
		t.Errorf("include_dotfiles (-want +got):\n%s", diff)
	}
	if all.SkippedSecrets != 1 {
		t.Errorf("SkippedSecrets = %d, want 1 (.env)", all.SkippedSecrets)
	}
	withSecrets := mustWalk(t, dir, Options{IncludeDotfiles: true, IncludeSecrets: true})
	if !slices.Contains(rels(withSecrets), ".env") {
		t.Errorf("IncludeSecrets did not admit .env: %v", rels(withSecrets))
	}
	sel := mustWalk(t, dir, Options{DotfilePatterns: []string{".github/workflows/*.yml", "**/.eslintrc*"}})
	want = []string{".github/workflows/ci.yml", "a.py", "pkg/.eslintrc.json"}
	if diff := cmp.Diff(want, rels(sel)); diff != "" {
		t.Errorf("dotfile_patterns (-want +got):\n%s", diff)
	}
	dirPat := mustWalk(t, dir, Options{IncludeDotfiles: true, DotfilePatterns: []string{".github"}})
	want = []string{".github/CODEOWNERS", ".github/workflows/ci.yml", "a.py"}
	if diff := cmp.Diff(want, rels(dirPat)); diff != "" {
		t.Errorf("directory pattern (-want +got):\n%s", diff)
	}
}

func TestSymlinksNotFollowed(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	writeTree(t, dir, map[string]string{"a.py": "a\n"})
	writeTree(t, outside, map[string]string{"secret.py": "s\n"})
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	if err := os.Symlink(filepath.Join(dir, "a.py"), filepath.Join(dir, "b.py")); err != nil {
		t.Fatal(err)
	}
	r := mustWalk(t, dir, Options{})
	if diff := cmp.Diff([]string{"a.py"}, rels(r)); diff != "" {
		t.Fatal(diff)
	}
	if r.SkippedSymlinks != 2 {
		t.Errorf("SkippedSymlinks = %d, want 2", r.SkippedSymlinks)
	}
}

func TestMaxFileSize(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"small.py": "x\n", "big.js": strings.Repeat("x", 2000)})
	r := mustWalk(t, dir, Options{MaxFileSize: 1000})
	if diff := cmp.Diff([]string{"small.py"}, rels(r)); diff != "" || r.SkippedLarge != 1 {
		t.Fatalf("%s SkippedLarge=%d", diff, r.SkippedLarge)
	}
}

func TestRootIsFile(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"one.go": "package one\n", "two.go": "package one\n"})
	r := mustWalk(t, filepath.Join(dir, "one.go"), Options{})
	if diff := cmp.Diff([]string{"one.go"}, rels(r)); diff != "" {
		t.Fatal(diff)
	}
	if r.Files[0].Ext != ".go" || r.Files[0].Size != int64(len("package one\n")) || r.Files[0].ModTimeNS == 0 {
		t.Errorf("file metadata %+v", r.Files[0])
	}
}

func TestMissingRootTeaches(t *testing.T) {
	_, err := Walk(context.Background(), filepath.Join(t.TempDir(), "nope"), Options{})
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("err = %v", err)
	}
}

func TestCancelled(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a/b.py": "b\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Walk(ctx, dir, Options{}); err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// gitignoreRepo is a work tree exercising nested ignore files, negation,
// anchored and directory-only patterns, "**", escapes and info/exclude.
var gitignoreRepo = map[string]string{
	".git/info/exclude": "excluded_by_info.txt\n",
	".gitignore": strings.Join([]string{
		"# comment",
		"*.log",
		"!keep.log",
		"/rootonly.txt",
		"logs/",
		"docs/**/*.tmp",
		"generated/**",
		"\\#hash.txt",
		"trailing.txt   ",
		"*.txt",
		"!docs/*.txt",
		"!docs",
	}, "\n"),
	"a.log":                  "",
	"keep.log":               "",
	"rootonly.txt":           "",
	"sub/rootonly.py":        "",
	"sub/rootonly.txt":       "",
	"logs/x.py":              "",
	"sub/logs":               "a file named logs is not a directory\n",
	"docs/readme.txt":        "",
	"docs/deep/a.txt":        "",
	"docs/deep/b.tmp":        "",
	"docs/c.tmp":             "",
	"generated/x.py":         "",
	"#hash.txt":              "",
	"trailing.txt":           "",
	"excluded_by_info.txt":   "",
	"main.py":                "",
	"sub/.gitignore":         "!*.log\nlocal.py\n/anchored.py\n",
	"sub/b.log":              "",
	"sub/local.py":           "",
	"sub/deeper/local.py":    "",
	"sub/anchored.py":        "",
	"sub/deeper/anchored.py": "",
	"sub/deeper/keep.py":     "",
	"other/b.log":            "",
	"other/local.py":         "",
}

func TestGitignore(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, gitignoreRepo)
	r := mustWalk(t, dir, Options{IncludeDotfiles: true, DotfilePatterns: []string{"**/.gitignore"}})
	if r.RepoRoot != dir {
		t.Fatalf("RepoRoot = %q, want %q", r.RepoRoot, dir)
	}
	want := []string{
		".gitignore", "docs/readme.txt", "keep.log", "main.py",
		"other/local.py", "sub/.gitignore", "sub/b.log", "sub/deeper/anchored.py",
		"sub/deeper/keep.py", "sub/logs", "sub/rootonly.py",
	}
	if diff := cmp.Diff(want, rels(r)); diff != "" {
		t.Errorf("walk (-want +got):\n%s", diff)
	}

	// A walk rooted inside the repository still honours the ignore files
	// above it.
	sub := mustWalk(t, filepath.Join(dir, "sub"), Options{})
	want = []string{"b.log", "deeper/anchored.py", "deeper/keep.py", "logs", "rootonly.py"}
	if diff := cmp.Diff(want, rels(sub)); diff != "" {
		t.Errorf("walk of sub/ (-want +got):\n%s", diff)
	}

	none := mustWalk(t, dir, Options{NoGitignore: true})
	if len(none.Files) <= len(r.Files) {
		t.Errorf("NoGitignore walked %d files, want more than %d", len(none.Files), len(r.Files))
	}
}

// TestGitignoreAgainstGit cross-checks the matcher with git check-ignore
// when a git binary is present (the implementation itself never runs git).
func TestGitignoreAgainstGit(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git binary to compare with")
	}
	dir := t.TempDir()
	if out, err := exec.Command(gitBin, "init", "-q", dir).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	writeTree(t, dir, gitignoreRepo)
	var paths []string
	for p := range gitignoreRepo {
		if !strings.HasPrefix(p, ".git/") && !strings.HasSuffix(p, ".gitignore") {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	cmd := exec.Command(gitBin, append([]string{"-C", dir, "check-ignore", "--no-index", "--"}, paths...)...)
	out, _ := cmd.Output() // exit 1 when nothing is ignored
	ignoredByGit := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		ignoredByGit[l] = true
	}
	r := mustWalk(t, dir, Options{})
	walked := map[string]bool{}
	for _, f := range r.Files {
		walked[f.Rel] = true
	}
	for _, p := range paths {
		if walked[p] == ignoredByGit[p] {
			t.Errorf("%s: walked=%v but git ignored=%v", p, walked[p], ignoredByGit[p])
		}
	}
}

func TestParseIgnoreLine(t *testing.T) {
	cases := []struct {
		line     string
		rel      string
		isDir    bool
		match    bool
		negation bool
	}{
		{"*.go", "a/b/c.go", false, true, false},
		{"/a.go", "a.go", false, true, false},
		{"/a.go", "x/a.go", false, false, false},
		{"a/*.go", "a/b.go", false, true, false},
		{"a/*.go", "a/x/b.go", false, false, false},
		{"a/**/b.go", "a/b.go", false, true, false},
		{"a/**/b.go", "a/x/y/b.go", false, true, false},
		{"**/b.go", "x/y/b.go", false, true, false},
		{"a/**", "a", true, false, false},
		{"a/**", "a/x", false, true, false},
		{"build/", "build", false, false, false},
		{"build/", "x/build", true, true, false},
		{"!k.log", "k.log", false, true, true},
		{"\\!bang", "!bang", false, true, false},
		{"f[0-9].txt", "f7.txt", false, true, false},
		{"f[", "f[", false, false, false}, // malformed: never matches
	}
	for _, c := range cases {
		p, ok := parseIgnoreLine(c.line, "")
		if !ok {
			t.Errorf("%q: not parsed", c.line)
			continue
		}
		if got := p.match(c.rel, c.isDir); got != c.match || p.negate != c.negation {
			t.Errorf("%q vs %q (dir=%v): match=%v negate=%v, want %v %v", c.line, c.rel, c.isDir, got, p.negate, c.match, c.negation)
		}
	}
	for _, l := range []string{"", "# c", "   ", "/"} {
		if _, ok := parseIgnoreLine(l, ""); ok {
			t.Errorf("%q parsed as a pattern", l)
		}
	}
}

func TestClassify(t *testing.T) {
	big := make([]byte, SniffLen+10)
	for i := range big {
		big[i] = 'a'
	}
	lateNUL := append([]byte(nil), big...)
	lateNUL[SniffLen+5] = 0
	cases := []struct {
		name string
		data []byte
		want Content
	}{
		{"empty", nil, Text},
		{"ascii", []byte("hello\n"), Text},
		{"utf8", []byte("héllo ✓\n"), Text},
		{"nul", []byte("ab\x00cd"), Binary},
		{"utf16", []byte{0xff, 0xfe, 'a', 0}, Binary},
		{"latin1", []byte("caf\xe9\n"), Undecodable},
		{"nul after 8KB is not binary", lateNUL, Text},
	}
	for _, c := range cases {
		if got := Classify(c.data); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestExt(t *testing.T) {
	for in, want := range map[string]string{"a.PY": ".py", ".bashrc": "", "Makefile": "", "x.tar.gz": ".gz", "a.": "."} {
		if got := Ext(in); got != want {
			t.Errorf("Ext(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTrackedFilesBeatGitignore: .gitignore does not hide files git
// tracks (a package.json force-added under a "**/package.json" rule), nor
// tracked files inside an ignored directory; untracked ignored files stay
// out.
func TestTrackedFilesBeatGitignore(t *testing.T) {
	dir := t.TempDir()
	r := gittest.Init(t, dir)
	r.Write(map[string]string{"pkg/package.json": "{}\n", "ignored/kept.txt": "k\n", "main.go": "package main\n"})
	r.Commit("init", "dev", gittest.Epoch)
	r.Write(map[string]string{
		".gitignore":         "**/package.json\nignored/\n",
		"other/package.json": "{}\n",
		"ignored/junk.txt":   "j\n",
	})
	res, err := Walk(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Files {
		got = append(got, f.Rel)
	}
	want := []string{"ignored/kept.txt", "main.go", "pkg/package.json"}
	if !slices.Equal(got, want) {
		t.Errorf("walked %v, want %v", got, want)
	}
}

func TestSecretsAndAdmit(t *testing.T) {
	for p, want := range map[string]bool{".env": true, ".env.local": true, "prod.env": true, "config/.env.example": false, "certs/server.pem": true,
		"deploy/id_rsa": true, "deploy/id_ed25519.pub": true, "aws/credentials": true, "main.go": false, "environment.py": false, "keys.go": false} {
		if got := IsSecret(p); got != want {
			t.Errorf("IsSecret(%q) = %v, want %v", p, got, want)
		}
	}
	dir := t.TempDir()
	r := gittest.Init(t, dir)
	r.Write(map[string]string{".gitignore": "build.log\n", "src/app.py": "x\n", "src/build.log": "l\n", ".env": "K=v\n",
		"node_modules/x/index.js": "x\n", ".hidden/cfg.py": "x\n", "package-lock.json": "{}"})
	for rel, want := range map[string]bool{"src/app.py": true, "src/build.log": false, ".env": false, "node_modules/x/index.js": false,
		".hidden/cfg.py": false, "package-lock.json": false} {
		ok, why := Admit(dir, rel, Options{})
		if ok != want || (!ok && why == "") {
			t.Errorf("Admit(%s) = %v %q, want %v", rel, ok, why, want)
		}
	}
	// Admit agrees with a walk of the same tree.
	res := mustWalk(t, dir, Options{})
	for _, f := range res.Files {
		if ok, why := Admit(dir, f.Rel, Options{}); !ok {
			t.Errorf("walk took %s but Admit refuses it: %s", f.Rel, why)
		}
	}
}

func TestWalkBudgets(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.py": "aaaa\n", "b.py": "bbbb\n", "c.py": "cccc\n"})
	r := mustWalk(t, dir, Options{MaxFiles: 2})
	if len(r.Files) != 2 || r.Truncated != "max_files" {
		t.Errorf("MaxFiles 2: %d files, truncated %q", len(r.Files), r.Truncated)
	}
	r = mustWalk(t, dir, Options{MaxTotalBytes: 12})
	if len(r.Files) != 2 || r.Truncated != "max_total_bytes" {
		t.Errorf("MaxTotalBytes 12: %d files, truncated %q", len(r.Files), r.Truncated)
	}
	if r := mustWalk(t, dir, Options{}); len(r.Files) != 3 || r.Truncated != "" {
		t.Errorf("defaults: %d files, truncated %q", len(r.Files), r.Truncated)
	}
}

func TestReadFileRefusesSpecialAndGrown(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err == nil {
		if _, err := ReadFile(fifo, 0); !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadFile(FIFO) = %v, want ErrNotRegular (and no blocking)", err)
		}
	}
	big := filepath.Join(dir, "big.txt")
	os.WriteFile(big, []byte("0123456789"), 0o644)
	if _, err := ReadFile(big, 5); err == nil {
		t.Error("ReadFile accepted a file over its limit")
	}
	if d, err := ReadFile(big, 10); err != nil || string(d) != "0123456789" {
		t.Errorf("ReadFile at the limit: %q %v", d, err)
	}
}

// TestReadAtMostAfterTheStat: the read buffer is sized from a stat and not
// zeroed, so a file that shrank since must come back without the bytes
// beyond its end, and one that grew must come back whole (up to the bound).
func TestReadAtMostAfterTheStat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.txt")
	body := strings.Repeat("0123456789", 700) // past the first buffer and bytes.MinRead
	os.WriteFile(path, []byte(body), 0o644)
	for _, tc := range []struct {
		name    string
		size, n int64
		want    string
	}{
		{"shrank", 100_000, 1 << 20, body},
		{"grew", 10, 1 << 20, body},
		{"grew past the bound", 10, 7001, body},
		{"bound", 10, 25, body[:25]},
		{"empty bound", 10, 0, ""},
		{"as stated", int64(len(body)), 1 << 20, body},
	} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := readAtMost(f, tc.size, tc.n)
		f.Close()
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: readAtMost(size %d, n %d) = %d bytes %v, want %d bytes", tc.name, tc.size, tc.n, len(got), err, len(tc.want))
		}
	}
}

// TestUninitializedHasItsLength: the unzeroed buffer is exactly n bytes
// long and writable over all its capacity.
func TestUninitializedHasItsLength(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 4096, 40_000} {
		b := uninitialized(n)
		if len(b) != n || cap(b) < n {
			t.Fatalf("uninitialized(%d): len %d cap %d", n, len(b), cap(b))
		}
		b = b[:cap(b)]
		for i := range b {
			b[i] = byte(i)
		}
	}
}
