// Command m1nd-modproxy writes a file-system Go module proxy holding this
// repository's modules at the versions named in a versions file, built from
// the working tree, so that module-mode commands outside the workspace
// (GOWORK=off builds, `go install …@version`, a program that requires core)
// resolve github.com/m1nd-go/m1nd/* the way they will once the modules are
// tagged and published:
//
//	m1nd-modproxy -versions release/versions.txt -o /tmp/m1nd-proxy
//	GOPROXY=file:///tmp/m1nd-proxy,$(go env GOPROXY) GONOSUMDB=github.com/m1nd-go/m1nd \
//	    go install github.com/m1nd-go/m1nd/mcpserver/cmd/m1nd-mcp@v0.1.0
//
// The versions file has one module a line: its directory (relative to the
// repository root) and its version, e.g. "core v0.1.0"; # starts a comment.
// A module's zip holds what the tag would: the files git tracks or would
// track (ignored files such as node_modules/ are left out), minus nested
// modules, plus the repository's LICENSE, exactly as the go command packs a
// module in a subdirectory of a git repository (golang.org/x/mod/zip).
// Its .mod is the module's go.mod. For each module it prints the go.sum lines
// of the zip and go.mod it wrote.
//
// With -tags, a module whose release tag DIR/VERSION exists in the
// repository is packed from that tag instead (git archive, as the go command
// fetches a tagged version): a released version never changes.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	"golang.org/x/mod/sumdb/dirhash"
	modzip "golang.org/x/mod/zip"
)

func main() {
	versions := flag.String("versions", "release/versions.txt", "versions file: `DIR VERSION` per line, relative to -root")
	out := flag.String("o", "", "proxy directory to write (required; created if missing)")
	root := flag.String("root", ".", "repository root")
	fromTags := flag.Bool("tags", false, "pack a module whose tag DIR/VERSION exists from that tag, not from the working tree")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: m1nd-modproxy [-versions FILE] [-root DIR] [-tags] -o PROXYDIR")
		os.Exit(2)
	}
	if err := run(*root, *versions, *out, *fromTags, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "m1nd-modproxy:", err)
		os.Exit(1)
	}
}

type entry struct {
	dir, version string
}

func run(root, versionsFile, out string, fromTags bool, stdout io.Writer) error {
	root, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	if !filepath.IsAbs(versionsFile) {
		versionsFile = filepath.Join(root, versionsFile)
	}
	entries, err := readVersions(versionsFile)
	if err != nil {
		return err
	}
	stamp := commitTime(root)
	for _, e := range entries {
		tag := ""
		if fromTags && gitOK(root, "rev-parse", "-q", "--verify", "refs/tags/"+e.dir+"/"+e.version) {
			tag = e.dir + "/" + e.version
		}
		if err := writeModule(root, e, tag, stamp, out, stdout); err != nil {
			return fmt.Errorf("%s %s: %w", e.dir, e.version, err)
		}
	}
	return nil
}

func readVersions(file string) ([]entry, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var entries []entry
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 || !semver.IsValid(f[1]) || semver.Canonical(f[1]) != f[1] {
			return nil, fmt.Errorf("%s:%d: want `DIR vMAJOR.MINOR.PATCH`, got %q", file, n, sc.Text())
		}
		entries = append(entries, entry{dir: filepath.ToSlash(filepath.Clean(f[0])), version: f[1]})
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("%s: no modules", file)
	}
	return entries, sc.Err()
}

func writeModule(root string, e entry, tag string, stamp time.Time, out string, stdout io.Writer) error {
	dir := filepath.Join(root, filepath.FromSlash(e.dir))
	var gomod []byte
	var err error
	if tag != "" {
		gomod, err = exec.Command("git", "-C", root, "show", tag+":"+e.dir+"/go.mod").Output()
		if t, terr := tagTime(root, tag); terr == nil {
			stamp = t
		}
	} else {
		gomod, err = os.ReadFile(filepath.Join(dir, "go.mod"))
	}
	if err != nil {
		return err
	}
	mf, err := modfile.Parse("go.mod", gomod, nil)
	if err != nil {
		return err
	}
	if mf.Module == nil {
		return errors.New("go.mod has no module line")
	}
	if len(mf.Replace) > 0 {
		// A released go.mod must not point at the file system: the
		// go command ignores replace directives of dependencies, so what
		// works here would not work for a user.
		return fmt.Errorf("go.mod has replace directives (go.work covers local development)")
	}
	m := module.Version{Path: mf.Module.Mod.Path, Version: e.version}
	if err := module.Check(m.Path, m.Version); err != nil {
		return err
	}
	escPath, err := module.EscapePath(m.Path)
	if err != nil {
		return err
	}
	escVer, err := module.EscapeVersion(m.Version)
	if err != nil {
		return err
	}
	vdir := filepath.Join(out, filepath.FromSlash(escPath), "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return err
	}
	base := filepath.Join(vdir, escVer)

	var zbuf bytes.Buffer
	if tag != "" {
		err = modzip.CreateFromVCS(&zbuf, m, root, tag, e.dir)
	} else {
		var files []modzip.File
		files, err = moduleFiles(root, e.dir)
		if err != nil {
			return err
		}
		if files == nil { // not a git checkout: pack the directory as it is
			err = modzip.CreateFromDir(&zbuf, m, dir)
		} else {
			err = modzip.Create(&zbuf, m, files)
		}
	}
	if err != nil {
		return err
	}
	info, _ := json.Marshal(struct {
		Version string
		Time    time.Time
	}{m.Version, stamp})
	for _, f := range []struct {
		name string
		data []byte
	}{{base + ".mod", gomod}, {base + ".zip", zbuf.Bytes()}, {base + ".info", info}} {
		if err := os.WriteFile(f.name, f.data, 0o644); err != nil {
			return err
		}
	}
	if err := addToList(filepath.Join(vdir, "list"), m.Version); err != nil {
		return err
	}

	zh, err := dirhash.HashZip(base+".zip", dirhash.Hash1)
	if err != nil {
		return err
	}
	mh, err := dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(gomod)), nil
	})
	if err != nil {
		return err
	}
	from := "working tree"
	if tag != "" {
		from = "tag " + tag
	}
	fmt.Fprintf(stderr, "m1nd-modproxy: %s %s from the %s\n", m.Path, m.Version, from)
	fmt.Fprintf(stdout, "%s %s %s\n%s %s/go.mod %s\n", m.Path, m.Version, zh, m.Path, m.Version, mh)
	return nil
}

// moduleFiles lists the files of the module in dir (slash path relative to
// root) that a tag of the working tree would hold: tracked files still on
// disk plus untracked files git does not ignore. It returns nil, nil when
// root is not a git work tree.
func moduleFiles(root, dir string) ([]modzip.File, error) {
	cmd := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		if _, lookErr := exec.LookPath("git"); lookErr != nil || strings.Contains(stderr.String(), "not a git repository") {
			return nil, nil
		}
		return nil, fmt.Errorf("git ls-files: %v: %s", err, stderr.String())
	}
	prefix := dir + "/"
	seen := map[string]bool{}
	files := []modzip.File{}
	for _, p := range strings.Split(string(outb), "\x00") {
		if p == "" || seen[p] || !strings.HasPrefix(p, prefix) {
			continue
		}
		seen[p] = true
		full := filepath.Join(root, filepath.FromSlash(p))
		fi, err := os.Lstat(full)
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the working tree
		}
		if err != nil {
			return nil, err
		}
		files = append(files, diskFile{rel: strings.TrimPrefix(p, prefix), full: full, info: fi})
	}
	// As the go command packs a module in a subdirectory of a repository
	// (and zip.CreateFromVCS does): without a LICENSE of its own, the
	// repository's LICENSE goes in.
	if !seen[prefix+"LICENSE"] {
		full := filepath.Join(root, "LICENSE")
		if fi, err := os.Lstat(full); err == nil && fi.Mode().IsRegular() {
			files = append(files, diskFile{rel: "LICENSE", full: full, info: fi})
		}
	}
	return files, nil
}

type diskFile struct {
	rel, full string
	info      os.FileInfo
}

func (f diskFile) Path() string                 { return f.rel }
func (f diskFile) Lstat() (os.FileInfo, error)  { return f.info, nil }
func (f diskFile) Open() (io.ReadCloser, error) { return os.Open(f.full) }

func addToList(file, version string) error {
	data, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	vs := strings.Fields(string(data))
	if !slices.Contains(vs, version) {
		vs = append(vs, version)
	}
	semver.Sort(vs)
	return os.WriteFile(file, []byte(strings.Join(vs, "\n")+"\n"), 0o644)
}

var stderr io.Writer = os.Stderr

func gitOK(root string, args ...string) bool {
	return exec.Command("git", append([]string{"-C", root}, args...)...).Run() == nil
}

func tagTime(root, tag string) (time.Time, error) {
	outb, err := exec.Command("git", "-C", root, "log", "-1", "--format=%cI", tag).Output()
	if err != nil {
		return time.Time{}, err
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(string(outb)))
	return t.UTC(), err
}

// commitTime is the time of HEAD, so the same tree gives the same .info;
// the current time when there is no git history.
func commitTime(root string) time.Time {
	outb, err := exec.Command("git", "-C", root, "log", "-1", "--format=%cI").Output()
	if err == nil {
		if t, err := time.Parse(time.RFC3339, strings.TrimSpace(string(outb))); err == nil {
			return t.UTC()
		}
	}
	return time.Now().UTC().Truncate(time.Second)
}
