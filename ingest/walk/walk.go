// Package walk discovers the files an ingest should read: it applies the
// skip rules of docs/design.md#walk-rules (dependency and build
// directories, lock files, hidden directories), honours the repository's
// .gitignore files as git does, never follows symlinks, and classifies file
// content as text, binary or undecodable.
package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// DefaultSkipDirs are directory names never descended into, at any depth
// (build, dist and target only beside a manifest whose build writes them:
// outputOf)
// (docs/design.md#walk-rules).
var DefaultSkipDirs = []string{
	".git", "node_modules", "__pycache__", ".venv",
	"target", "dist", "build", ".next", "vendor",
}

// outputOf names, for the DefaultSkipDirs that are build output, the
// manifests whose builds write them beside themselves. Such a directory
// is skipped only beside one of them: elsewhere the name is source — the
// Java package org.apache.commons.io.build, Go's go/build and cmd/dist.
var outputOf = map[string][]string{
	"build": {"build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "CMakeLists.txt",
		"meson.build", "build.xml", "setup.py", "pyproject.toml", "package.json", "Makefile", "GNUmakefile"},
	"dist":   {"package.json", "setup.py", "setup.cfg", "pyproject.toml"},
	"target": {"Cargo.toml", "pom.xml", "build.sbt", "project.clj"},
}

// skipDirs decides which directories a walk does not enter: the names of
// a list, and of the default list the output directories beside a
// manifest only (outputOf). A list given in Options is taken as written.
type skipDirs struct {
	names     map[string]bool
	byDefault bool
}

func newSkipDirs(list []string) skipDirs {
	return skipDirs{names: toSet(list, DefaultSkipDirs), byDefault: list == nil}
}

// skips reports whether the directory name, in the directory parentAbs,
// is not entered.
func (s skipDirs) skips(parentAbs, name string) bool {
	if !s.names[name] {
		return false
	}
	ms, output := outputOf[name]
	if !s.byDefault || !output {
		return true
	}
	for _, m := range ms {
		if st, err := os.Stat(filepath.Join(parentAbs, m)); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// SkipsDir reports whether a walk with the default options leaves out
// the directory name found in the directory parentAbs.
func SkipsDir(parentAbs, name string) bool {
	return newSkipDirs(nil).skips(parentAbs, name)
}

// DefaultSkipFiles are file names never ingested (lock files carry no
// structure and are huge).
var DefaultSkipFiles = []string{
	"package-lock.json", "yarn.lock", "Cargo.lock", "poetry.lock",
	"pnpm-lock.yaml", "Gemfile.lock", "composer.lock", "go.sum",
	"Pipfile.lock", "uv.lock", "bun.lockb", "npm-shrinkwrap.json",
}

// DefaultMaxFileSize bounds the size of an ingested file. Larger files are
// almost always generated (bundles, fixtures, data dumps); parsing them costs
// more than they tell.
const DefaultMaxFileSize = 4 << 20

// Options configure a walk. The zero value applies the defaults of
// docs/design.md#walk-rules.
type Options struct {
	// SkipDirs replaces DefaultSkipDirs when non-nil.
	SkipDirs []string
	// SkipFiles replaces DefaultSkipFiles when non-nil.
	SkipFiles []string
	// IncludeDotfiles admits hidden files and directories (names starting
	// with "."). With DotfilePatterns set, only the hidden entries matching
	// a pattern are admitted. Skip rules (.git, .venv, .next) still apply.
	IncludeDotfiles bool
	// DotfilePatterns admit matching hidden entries even when
	// IncludeDotfiles is false. A pattern is a root-relative path with
	// gitignore-style globs: ".github/**", ".env.example", "**/.eslintrc*".
	DotfilePatterns []string
	// NoGitignore disables .gitignore and .git/info/exclude handling.
	NoGitignore bool
	// MaxFileSize skips larger files (0 = DefaultMaxFileSize, <0 = no limit).
	MaxFileSize int64
	// IncludeSecrets admits files that look like credentials
	// (DefaultSecretPatterns), which are never taken otherwise.
	IncludeSecrets bool
	// MaxFiles and MaxTotalBytes bound one walk (0: DefaultMaxFiles,
	// DefaultMaxTotalBytes; < 0: no bound): past them the walk stops
	// taking files and says so in Result.Truncated.
	MaxFiles      int
	MaxTotalBytes int64
}

// Default budgets of one walk: far above any source repository, far below
// what a walk of / or a mount of data would take in.
const (
	DefaultMaxFiles      = 500_000
	DefaultMaxTotalBytes = 4 << 30
)

// File is one discovered file.
type File struct {
	// Abs is the absolute path on disk.
	Abs string
	// Rel is the path relative to the walk root, with forward slashes.
	Rel string
	// Ext is the lower-case extension with its dot (".py"), "" if none.
	Ext string
	// Size in bytes and modification time (Unix nanoseconds) from lstat.
	Size      int64
	ModTimeNS int64
}

// ModTime is the modification time in fractional Unix seconds, the unit of
// graph.Node.LastModified.
func (f File) ModTime() float64 { return float64(f.ModTimeNS) / 1e9 }

// Result is what a walk found.
type Result struct {
	// Root is the absolute, cleaned walk root (a directory).
	Root string
	// RepoRoot is the git work tree containing Root ("" if none): the
	// directory holding ".git".
	RepoRoot string
	// Files are sorted by Rel.
	Files []File
	// Counters of what was left out, for the ingest statistics.
	SkippedDirs     int // skip-list and hidden directories
	SkippedIgnored  int // files and directories matched by .gitignore
	SkippedFiles    int // skip-list and hidden files
	SkippedSymlinks int
	SkippedLarge    int
	SkippedSecrets  int // credentials files (IsSecret)
	// Truncated names the budget that stopped the walk ("max_files",
	// "max_total_bytes"), "" when it saw everything.
	Truncated string
	bytes     int64
}

// Walk lists the files under root. A root that is a file yields that one
// file. The walk stops with ctx.Err() when ctx is cancelled.
func Walk(ctx context.Context, root string, opt Options) (*Result, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("walk: cannot make %q absolute: %w", root, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("walk: %s does not exist; pass the path of a directory (or file) to ingest", abs)
		}
		return nil, fmt.Errorf("walk: %w", err)
	}
	w := &walker{ctx: ctx, opt: opt, res: &Result{}}
	w.skipDirs = newSkipDirs(opt.SkipDirs)
	w.skipFiles = toSet(opt.SkipFiles, DefaultSkipFiles)
	w.maxSize = opt.MaxFileSize
	if w.maxSize == 0 {
		w.maxSize = DefaultMaxFileSize
	}
	for _, p := range opt.DotfilePatterns {
		p = strings.Trim(strings.TrimPrefix(strings.TrimSpace(p), "./"), "/")
		if p != "" {
			w.dotPatterns = append(w.dotPatterns, strings.Split(p, "/"))
		}
	}

	if !st.IsDir() {
		dir := filepath.Dir(abs)
		w.res.Root = dir
		w.res.RepoRoot = FindRepoRoot(dir)
		name := filepath.Base(abs)
		if st.Size() > w.maxSize && w.maxSize > 0 {
			w.res.SkippedLarge++
			return w.res, nil
		}
		w.res.Files = append(w.res.Files, File{Abs: abs, Rel: name, Ext: Ext(name), Size: st.Size(), ModTimeNS: st.ModTime().UnixNano()})
		return w.res, nil
	}

	w.res.Root = abs
	w.res.RepoRoot = FindRepoRoot(abs)
	var ign ignoreSet
	prefix := "" // repo-relative path of the walk root
	if w.res.RepoRoot != "" && !opt.NoGitignore {
		prefix, ign = rootIgnores(w.res.RepoRoot, abs)
	}
	w.noIgnore = opt.NoGitignore
	w.tracked = &tracked{repoRoot: w.res.RepoRoot}
	if err := w.dir(abs, "", prefix, ign, false, false); err != nil {
		return nil, err
	}
	slices.SortFunc(w.res.Files, func(a, b File) int { return strings.Compare(a.Rel, b.Rel) })
	return w.res, nil
}

type walker struct {
	ctx         context.Context
	opt         Options
	res         *Result
	skipDirs    skipDirs
	skipFiles   map[string]bool
	dotPatterns [][]string
	maxSize     int64
	noIgnore    bool
	tracked     *tracked
}

// dir walks one directory. rel is root-relative ("" for the root), repoRel
// repo-relative; ign are the ignore patterns inherited from above. gated is
// set inside a hidden directory entered only because a dotfile pattern could
// match below it: there every entry must qualify on its own.
//
// onlyTracked is set inside a directory .gitignore ignores but git tracks
// files in: only those files are taken.
func (w *walker) dir(abs, rel, repoRel string, ign ignoreSet, gated, onlyTracked bool) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if !w.noIgnore && w.res.RepoRoot != "" {
		ign = ign.with(filepath.Join(abs, ".gitignore"), repoRel)
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		if rel == "" {
			return fmt.Errorf("walk: cannot read %s: %w", abs, err)
		}
		// An unreadable subdirectory (permissions) should not sink the
		// whole ingest; it is simply not part of what we can see.
		w.res.SkippedDirs++
		return nil
	}
	for _, e := range entries {
		name := e.Name()
		childRel := join(rel, name)
		childRepo := join(repoRel, name)
		t := e.Type()
		if t&fs.ModeSymlink != 0 {
			w.res.SkippedSymlinks++
			continue
		}
		if e.IsDir() {
			childGated := gated
			skip := w.skipDirs.skips(abs, name)
			if !skip && (gated || isHidden(name)) {
				var admit bool
				admit, childGated = w.hiddenDirAllowed(childRel)
				if !admit {
					w.res.SkippedDirs++
					continue
				}
			}
			if skip {
				w.res.SkippedDirs++
				continue
			}
			childOnlyTracked := onlyTracked
			if ign.ignored(childRepo, true) {
				if !w.tracked.under(childRepo) {
					w.res.SkippedIgnored++
					continue
				}
				childOnlyTracked = true
			}
			if err := w.dir(filepath.Join(abs, name), childRel, childRepo, ign, childGated, childOnlyTracked); err != nil {
				return err
			}
			continue
		}
		if !t.IsRegular() {
			continue // sockets, devices, pipes
		}
		if w.skipFiles[name] || ((gated || isHidden(name)) && !w.hiddenFileAllowed(childRel)) {
			w.res.SkippedFiles++
			continue
		}
		if (onlyTracked || ign.ignored(childRepo, false)) && !w.tracked.file(childRepo) {
			w.res.SkippedIgnored++
			continue
		}
		if !w.opt.IncludeSecrets && IsSecret(name) {
			w.res.SkippedSecrets++
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // vanished between ReadDir and Lstat
		}
		if w.maxSize > 0 && info.Size() > w.maxSize {
			w.res.SkippedLarge++
			continue
		}
		if w.res.Truncated != "" || w.overBudget(info.Size()) {
			continue
		}
		w.res.Files = append(w.res.Files, File{
			Abs: filepath.Join(abs, name), Rel: childRel, Ext: Ext(name),
			Size: info.Size(), ModTimeNS: info.ModTime().UnixNano(),
		})
	}
	return nil
}

// overBudget counts a file against the walk's budgets and reports whether
// it no longer fits (recording which budget ran out).
func (w *walker) overBudget(size int64) bool {
	maxFiles, maxBytes := w.opt.MaxFiles, w.opt.MaxTotalBytes
	if maxFiles == 0 {
		maxFiles = DefaultMaxFiles
	}
	if maxBytes == 0 {
		maxBytes = DefaultMaxTotalBytes
	}
	switch {
	case maxFiles > 0 && len(w.res.Files) >= maxFiles:
		w.res.Truncated = "max_files"
	case maxBytes > 0 && w.res.bytes+size > maxBytes:
		w.res.Truncated = "max_total_bytes"
	default:
		w.res.bytes += size
		return false
	}
	return true
}

func (w *walker) hiddenFileAllowed(rel string) bool {
	if len(w.dotPatterns) == 0 {
		return w.opt.IncludeDotfiles
	}
	segs := strings.Split(rel, "/")
	for _, p := range w.dotPatterns {
		if matchSegs(p, segs) || matchInside(p, segs) {
			return true
		}
	}
	return false
}

// hiddenDirAllowed admits a hidden directory when a pattern names it (or a
// directory above it), and then everything inside is admitted; or when a
// pattern could match something below it, and then the directory is entered
// gated: only matching entries are taken.
func (w *walker) hiddenDirAllowed(rel string) (admit, gated bool) {
	if len(w.dotPatterns) == 0 {
		return w.opt.IncludeDotfiles, false
	}
	segs := strings.Split(rel, "/")
	for _, p := range w.dotPatterns {
		if matchSegs(p, segs) || matchInside(p, segs) {
			return true, false
		}
	}
	for _, p := range w.dotPatterns {
		if prefixCouldMatch(p, segs) {
			return true, true
		}
	}
	return false, false
}

// matchInside reports whether segs lies inside a directory the pattern
// names (".github" admits ".github/workflows/ci.yml").
func matchInside(p, segs []string) bool {
	for i := 1; i < len(segs); i++ {
		if matchSegs(p, segs[:i]) {
			return true
		}
	}
	return false
}

// prefixCouldMatch reports whether some path below the directory segs could
// match p.
func prefixCouldMatch(p, segs []string) bool {
	for i, s := range segs {
		if i >= len(p) {
			return false
		}
		if p[i] == "**" {
			return true
		}
		if !globMatch(p[i], s) {
			return false
		}
	}
	return len(p) > len(segs)
}

// rootIgnores collects the patterns that apply to the walk root from the
// repository: .git/info/exclude and every .gitignore from the work tree root
// down to (but excluding) the walk root itself, whose own .gitignore the walk
// reads. It returns the walk root's repo-relative path.
func rootIgnores(repoRoot, root string) (string, ignoreSet) {
	var ign ignoreSet
	if gd := gitDir(repoRoot); gd != "" {
		ign = ign.with(filepath.Join(gd, "info", "exclude"), "")
	}
	relPath, err := filepath.Rel(repoRoot, root)
	if err != nil || relPath == "." {
		return "", ign
	}
	relPath = filepath.ToSlash(relPath)
	dir, base := repoRoot, ""
	for _, seg := range strings.Split(relPath, "/") {
		ign = ign.with(filepath.Join(dir, ".gitignore"), base)
		dir = filepath.Join(dir, seg)
		base = join(base, seg)
	}
	return relPath, ign
}

// FindRepoRoot returns the nearest directory at or above dir that contains
// ".git" (a directory, or a file as in worktrees and submodules), or "".
func FindRepoRoot(dir string) string {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// gitDir resolves the git directory of a work tree: ".git" itself, or the
// target of a "gitdir:" file.
func gitDir(repoRoot string) string {
	p := filepath.Join(repoRoot, ".git")
	st, err := os.Stat(p)
	if err != nil {
		return ""
	}
	if st.IsDir() {
		return p
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	line := strings.TrimSpace(string(data))
	if !strings.HasPrefix(line, "gitdir:") {
		return ""
	}
	gd := strings.TrimSpace(strings.TrimPrefix(line, "gitdir:"))
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(repoRoot, gd)
	}
	return gd
}

// Content classifies file bytes.
type Content uint8

const (
	// Text is valid UTF-8 without NUL bytes in its first 8 KB.
	Text Content = iota
	// Binary has a NUL byte in its first 8 KB.
	Binary
	// Undecodable is not valid UTF-8.
	Undecodable
)

// SniffLen is how many leading bytes Classify searches for NUL.
const SniffLen = 8 << 10

// Classify tells text from binary and undecodable content.
func Classify(data []byte) Content {
	head := data
	if len(head) > SniffLen {
		head = head[:SniffLen]
	}
	if slices.Contains(head, 0) {
		return Binary
	}
	if !utf8.Valid(data) {
		return Undecodable
	}
	return Text
}

// Ext returns the lower-case extension of name with its dot, or "".
func Ext(name string) string {
	e := path.Ext(name)
	if e == name { // ".bashrc" has no extension, it is a name
		return ""
	}
	return strings.ToLower(e)
}

func isHidden(name string) bool { return len(name) > 1 && name[0] == '.' }

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

func toSet(list, def []string) map[string]bool {
	if list == nil {
		list = def
	}
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[s] = true
	}
	return m
}
