// Package pathguard decides whether a user-supplied path may be read or
// written: it must name something inside one of the allowed roots (the
// ingest roots). A path is refused when
//
//   - it climbs out of its root with ".." (ErrEscape),
//   - it is absolute and lies outside every root (ErrOutside),
//   - it, or any directory on the way to it, is a symbolic link whose
//     target lies outside every root (ErrSymlinkEscape),
//   - or there are no roots at all because nothing was ingested yet
//     (ErrNoRoots).
//
// Roots are compared by their real paths (symlinks resolved), so a root
// that is itself reached through a symlink works, and a symlink inside one
// root pointing elsewhere inside the roots is allowed. Every refusal is a
// *Error that says why and what is allowed, written for the agent that
// sent the path.
package pathguard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// Sentinel kinds of refusal; test with errors.Is.
var (
	ErrNoRoots       = errors.New("no ingest roots")
	ErrEmpty         = errors.New("empty path")
	ErrEscape        = errors.New("path escapes its root")
	ErrOutside       = errors.New("path outside the ingest roots")
	ErrSymlinkEscape = errors.New("symlink leads outside the ingest roots")
	ErrSpecial       = errors.New("not a regular file")
)

// Error is a refused path. Message says what happened, Hint what is
// allowed instead.
type Error struct {
	Kind  error  // one of the Err* sentinels
	Path  string // the path as the caller gave it
	Msg   string
	Hint  string
	Roots []string // the allowed roots, as ingested
}

func (e *Error) Error() string { return e.Msg }

// Unwrap lets errors.Is match the sentinel kind.
func (e *Error) Unwrap() error { return e.Kind }

// root is one allowed root: the path as ingested and its real path.
type root struct {
	given string // cleaned absolute path as ingested
	real  string // symlinks resolved ("" when the root no longer exists)
	// dir is real opened as an os.Root on first read (OpenReal), kept for
	// the guard's life: a search opens thousands of files.
	dir *lazyRoot
}

type lazyRoot struct {
	once sync.Once
	r    *os.Root
	err  error
}

func (l *lazyRoot) get(path string) (*os.Root, error) {
	l.once.Do(func() { l.r, l.err = os.OpenRoot(path) })
	return l.r, l.err
}

// Guard checks paths against a fixed set of roots. It is immutable and
// safe for concurrent use; build a new one when the roots change.
type Guard struct {
	roots []root
}

// New returns a guard for the given root directories (absolute, or
// relative to the working directory). A root that does not exist (any
// more) is kept — paths under it are still judged lexically — but nothing
// under it can be resolved.
func New(roots ...string) *Guard {
	g := &Guard{}
	for _, r := range roots {
		if strings.TrimSpace(r) == "" {
			continue
		}
		abs, err := filepath.Abs(r)
		if err != nil {
			continue
		}
		rt := root{given: abs, dir: &lazyRoot{}}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			rt.real = real
		}
		if !slices.ContainsFunc(g.roots, func(o root) bool { return o.given == rt.given }) {
			g.roots = append(g.roots, rt)
		}
	}
	return g
}

// Roots returns the roots as given (cleaned, absolute).
func (g *Guard) Roots() []string {
	out := make([]string, len(g.roots))
	for i, r := range g.roots {
		out[i] = r.given
	}
	return out
}

// Resolved is an accepted path.
type Resolved struct {
	// Abs is the cleaned absolute path as named (under Root, symlinks
	// not resolved).
	Abs string
	// Real is Abs with every symlink resolved; it lies inside a root's
	// real path. When the path does not exist, Real resolves the longest
	// existing prefix and appends the rest. Open Real, not Abs, so a
	// symlink swapped in after the check cannot redirect the read.
	Real string
	// Root is the root Abs was found under, as ingested.
	Root string
	// Rel is Abs relative to Root with forward slashes ("" for the root
	// itself): the path the graph knows the file by.
	Rel string
	// Exists reports whether Real exists.
	Exists bool
	// RealRel is Real relative to the real path of the root that contains
	// it (forward slashes): the name of the symlink's target, which is
	// what an index built from the target knows it by. Equal to Rel when
	// no symlink is involved.
	RealRel string
	// Anchor (a relative path that does not exist) is the deepest part of
	// it that exists under Root ("" when only the root does), with
	// forward slashes: what chose the root.
	Anchor string
	// Tied are the other roots where as much of a missing relative path
	// exists as under Root (the choice among them was by root order).
	Tied []string
}

// Resolve judges p: relative to a root (the root holding the longest
// existing part of p: the file itself, else its deepest existing parent;
// ties go to the earlier root), or absolute. It returns
// a *Error for every refusal.
func (g *Guard) Resolve(p string) (Resolved, error) {
	if len(g.roots) == 0 {
		return Resolved{}, &Error{
			Kind: ErrNoRoots, Path: p,
			Msg:  fmt.Sprintf("cannot read %q: nothing has been ingested yet, so no directory is allowed", p),
			Hint: "ingest first: call ingest with the repository path (e.g. {\"path\": \"/abs/path/to/repo\"}); files under an ingested root can then be read.",
		}
	}
	if strings.TrimSpace(p) == "" {
		return Resolved{}, g.refuse(ErrEmpty, p, "the path is empty",
			"Pass a file path relative to an ingest root (e.g. \"src/main.go\") or an absolute path inside one.")
	}
	if strings.IndexByte(p, 0) >= 0 {
		return Resolved{}, g.refuse(ErrOutside, p, fmt.Sprintf("the path %q contains a NUL byte", p),
			"Pass a plain file path relative to an ingest root or an absolute path inside one.")
	}
	if filepath.IsAbs(p) {
		return g.resolveAbs(p)
	}
	return g.resolveRel(p)
}

func (g *Guard) resolveRel(p string) (Resolved, error) {
	slashed := filepath.ToSlash(p)
	clean := filepath.Clean(filepath.FromSlash(slashed))
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return Resolved{}, g.refuse(ErrEscape, p,
			fmt.Sprintf("the path %q climbs out of the ingest root with \"..\"", p),
			"Relative paths are resolved inside an ingest root and may not leave it; name the file relative to the root (e.g. \"src/main.go\"), or pass an absolute path inside "+g.rootList()+".")
	}
	// The root a relative path belongs to is the one holding the longest
	// part of it: the file itself, else its deepest existing ancestor (a
	// new file goes beside its siblings, never into whichever root comes
	// first). Ties go to the earlier root.
	best, bestDepth := -1, -1
	for i, rt := range g.roots {
		if d := existingDepth(rt.given, clean); d > bestDepth {
			best, bestDepth = i, d
		}
	}
	rt := g.roots[best]
	res, err := g.check(p, filepath.Join(rt.given, clean), rt)
	if err != nil {
		return Resolved{}, err
	}
	if !res.Exists {
		parts := strings.Split(filepath.ToSlash(clean), "/")
		res.Anchor = strings.Join(parts[:min(bestDepth, len(parts))], "/")
		for i, o := range g.roots {
			if i != best && existingDepth(o.given, clean) == bestDepth {
				res.Tied = append(res.Tied, o.given)
			}
		}
	}
	return res, nil
}

// existingDepth counts the leading components of rel (clean, relative)
// that exist under root; a component that exists but is not a directory
// ends the count (nothing can exist below a file).
func existingDepth(root, rel string) int {
	parts := strings.Split(rel, string(filepath.Separator))
	cur := root
	n := 0
	for _, part := range parts {
		if part == "" || part == "." {
			continue
		}
		cur = filepath.Join(cur, part)
		fi, err := os.Stat(cur)
		if err != nil {
			break
		}
		n++
		if !fi.IsDir() {
			break
		}
	}
	return n
}

func (g *Guard) resolveAbs(p string) (Resolved, error) {
	abs := filepath.Clean(p)
	// Match against the roots as ingested first, then against their real
	// paths (the caller may have been given either spelling).
	for _, rt := range g.roots {
		if within(abs, rt.given) {
			return g.check(p, abs, rt)
		}
	}
	for _, rt := range g.roots {
		if rt.real != "" && within(abs, rt.real) {
			// Re-express under the root as ingested so Rel matches the
			// graph's paths.
			rel, _ := filepath.Rel(rt.real, abs)
			return g.check(p, filepath.Join(rt.given, rel), rt)
		}
	}
	msg := fmt.Sprintf("the path %q is outside every ingest root", p)
	if strings.Contains(filepath.ToSlash(p), "/../") || strings.HasSuffix(p, "/..") {
		msg = fmt.Sprintf("the path %q uses \"..\" to leave the ingest roots", p)
	}
	return Resolved{}, g.refuse(ErrOutside, p, msg,
		"Only files under "+g.rootList()+" can be read. Pass a path relative to a root, or ingest the other directory first (ingest with mode \"merge\" keeps the current graph).")
}

// check resolves symlinks of abs (which is lexically inside rt) and makes
// sure the real path stays inside some root.
func (g *Guard) check(p, abs string, rt root) (Resolved, error) {
	rel, err := filepath.Rel(rt.given, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return Resolved{}, g.refuse(ErrEscape, p, fmt.Sprintf("the path %q leaves the ingest root %s", p, rt.given),
			"Name the file relative to the root, without \"..\" that climbs above it.")
	}
	if rel == "." {
		rel = ""
	}
	real, exists := evalExisting(abs)
	if !g.inAnyReal(real) {
		link, target := g.culprit(abs, rt)
		msg := fmt.Sprintf("the path %q resolves through a symlink to %s, which is outside every ingest root", p, real)
		if link != "" {
			msg = fmt.Sprintf("the path %q goes through the symlink %s → %s, which is outside every ingest root", p, link, target)
		}
		return Resolved{}, g.refuse(ErrSymlinkEscape, p, msg,
			"Symlinks may only point inside "+g.rootList()+". Read the target through its own ingested root, or ingest the directory it points to first.")
	}
	return Resolved{Abs: abs, Real: real, Root: rt.given, Rel: filepath.ToSlash(rel), Exists: exists, RealRel: g.realRel(real, rt)}, nil
}

// realRel expresses real relative to the real path of the root holding
// it, preferring rt.
func (g *Guard) realRel(real string, rt root) string {
	try := func(r root) (string, bool) {
		if r.real == "" || !within(real, r.real) {
			return "", false
		}
		rel, err := filepath.Rel(r.real, real)
		if err != nil {
			return "", false
		}
		if rel == "." {
			rel = ""
		}
		return filepath.ToSlash(rel), true
	}
	if rel, ok := try(rt); ok {
		return rel
	}
	for _, r := range g.roots {
		if rel, ok := try(r); ok {
			return rel
		}
	}
	return ""
}

// evalExisting resolves symlinks in the longest existing prefix of abs and
// appends the remaining (missing) components. exists reports whether abs
// itself exists.
func evalExisting(abs string) (real string, exists bool) {
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r, true
	}
	// A dangling final symlink must not be treated as "missing file
	// under the root": resolve its target text lexically.
	if fi, err := os.Lstat(abs); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if t, err := os.Readlink(abs); err == nil {
			if !filepath.IsAbs(t) {
				t = filepath.Join(filepath.Dir(abs), t)
			}
			dir, _ := evalExisting(filepath.Dir(filepath.Clean(t)))
			return filepath.Join(dir, filepath.Base(t)), false
		}
	}
	dir, base := filepath.Split(abs)
	dir = filepath.Clean(dir)
	if dir == abs { // filesystem root
		return abs, false
	}
	rd, _ := evalExisting(dir)
	return filepath.Join(rd, base), false
}

// culprit finds the first symlink on the way from rt to abs whose target
// leaves the roots, for the error message.
func (g *Guard) culprit(abs string, rt root) (link, target string) {
	rel, err := filepath.Rel(rt.given, abs)
	if err != nil {
		return "", ""
	}
	cur := rt.given
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if part == "." || part == "" {
			continue
		}
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if err != nil {
			return "", ""
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		real, _ := evalExisting(cur)
		if !g.inAnyReal(real) {
			return cur, real
		}
	}
	return "", ""
}

func (g *Guard) inAnyReal(real string) bool {
	for _, rt := range g.roots {
		if rt.real != "" && within(real, rt.real) {
			return true
		}
	}
	return false
}

// Contains reports whether an absolute path lies lexically inside a root
// (as ingested or as its real path), without touching the filesystem.
func (g *Guard) Contains(abs string) bool {
	abs = filepath.Clean(abs)
	for _, rt := range g.roots {
		if within(abs, rt.given) || (rt.real != "" && within(abs, rt.real)) {
			return true
		}
	}
	return false
}

// within reports whether p equals dir or lies below it (both clean).
func within(p, dir string) bool {
	if p == dir {
		return true
	}
	if dir == string(filepath.Separator) {
		return strings.HasPrefix(p, dir)
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

func (g *Guard) rootList() string {
	rs := g.Roots()
	if len(rs) == 1 {
		return "the ingest root " + rs[0]
	}
	return "the ingest roots " + strings.Join(rs, ", ")
}

func (g *Guard) refuse(kind error, p, msg, hint string) *Error {
	return &Error{Kind: kind, Path: p, Msg: msg, Hint: hint, Roots: g.Roots()}
}

// Batch checks many root-relative paths at once (building a file index),
// resolving each directory's symlinks only once. It is not safe for
// concurrent use.
type Batch struct {
	g    *Guard
	dirs map[string]string // abs dir → real dir ("" = unresolvable)
}

// NewBatch starts a batch check.
func (g *Guard) NewBatch() *Batch { return &Batch{g: g, dirs: map[string]string{}} }

// Resolve judges one path the way Guard.Resolve does, reusing directory
// resolutions from earlier calls. A path whose file does not exist is
// returned with Exists false (and no error) so callers can report it.
func (b *Batch) Resolve(p string) (Resolved, error) {
	g := b.g
	if len(g.roots) == 0 || strings.TrimSpace(p) == "" {
		return g.Resolve(p)
	}
	var abs string
	var rt root
	if filepath.IsAbs(p) {
		abs = filepath.Clean(p)
		found := false
		for _, r := range g.roots {
			if within(abs, r.given) {
				rt, found = r, true
				break
			}
		}
		if !found {
			return g.Resolve(p) // slow path: real-path roots and the error
		}
	} else {
		clean := filepath.Clean(filepath.FromSlash(p))
		if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
			return g.Resolve(p)
		}
		if len(g.roots) > 1 {
			return g.Resolve(p) // needs an existence probe per root
		}
		rt = g.roots[0]
		abs = filepath.Join(rt.given, clean)
	}
	dir := filepath.Dir(abs)
	rd, ok := b.dirs[dir]
	if !ok {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			rd = r
		}
		b.dirs[dir] = rd
	}
	fi, err := os.Lstat(abs)
	if err != nil && !filepath.IsAbs(p) {
		return g.Resolve(p) // missing: the single form says where it would go
	}
	if rd == "" || err != nil || fi.Mode()&fs.ModeSymlink != 0 {
		return g.check(p, abs, rt) // missing, odd or a symlink: full check
	}
	real := filepath.Join(rd, filepath.Base(abs))
	if !g.inAnyReal(real) {
		return g.check(p, abs, rt)
	}
	rel, _ := filepath.Rel(rt.given, abs)
	if rel == "." {
		rel = ""
	}
	return Resolved{Abs: abs, Real: real, Root: rt.given, Rel: filepath.ToSlash(rel), Exists: true, RealRel: b.g.realRel(real, rt)}, nil
}

// Open opens an accepted path for reading, through an os.Root of the root
// that holds its real path: a component swapped for a symlink after
// Resolve (a checkout replacing a directory, say) is followed only while it
// stays inside that root, so the read can never land outside it. Only
// regular files and directories open; a FIFO, device or socket is refused
// without blocking.
func Open(r Resolved) (*os.File, error) {
	rootReal := r.Real
	if r.RealRel != "" {
		rootReal = strings.TrimSuffix(r.Real, string(filepath.Separator)+filepath.FromSlash(r.RealRel))
	}
	return openUnder(rootReal, r.RealRel, r.Abs)
}

// OpenReal opens a real path (as Resolved.Real gives it) under whichever
// root holds it, as Open does; a path under no root is refused.
func (g *Guard) OpenReal(real string) (*os.File, error) {
	for _, rt := range g.roots {
		if rt.real != "" && within(real, rt.real) {
			rel, err := filepath.Rel(rt.real, real)
			if err != nil {
				break
			}
			if rel == "." {
				rel = ""
			}
			r, err := rt.dir.get(rt.real)
			if err != nil {
				return nil, err
			}
			return openIn(r, filepath.ToSlash(rel), real)
		}
	}
	return nil, g.refuse(ErrOutside, real, fmt.Sprintf("%s is outside the ingest roots", real),
		"Only files under the ingested roots can be read.")
}

// openUnder opens rel inside rootDir without leaving it, refusing special
// files. shown names the file in errors.
func openUnder(rootDir, rel, shown string) (*os.File, error) {
	root, err := os.OpenRoot(rootDir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return openIn(root, rel, shown)
}

func openIn(root *os.Root, rel, shown string) (*os.File, error) {
	name := filepath.FromSlash(rel)
	if name == "" {
		name = "."
	}
	// O_NONBLOCK: opening a FIFO must not wait for a writer.
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if strings.Contains(err.Error(), "escapes from parent") || strings.Contains(err.Error(), "path escapes") {
			return nil, &Error{Kind: ErrSymlinkEscape, Path: shown,
				Msg:  fmt.Sprintf("%s now leads outside its root through a symlink (it changed after it was checked)", shown),
				Hint: "Symlinks may only point inside the ingest roots; re-ingest if the tree changed."}
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if m := fi.Mode(); !m.IsRegular() && !m.IsDir() {
		f.Close()
		return nil, &Error{Kind: ErrSpecial, Path: shown,
			Msg:  fmt.Sprintf("%s is not a regular file (%s)", shown, m.Type()),
			Hint: "Only regular files and directories can be read; pipes, devices and sockets are refused."}
	}
	return f, nil
}
