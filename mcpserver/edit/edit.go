// Package edit writes files for agents, safely: every edit of a batch is
// validated before anything is written (inside the ingest roots through
// the path guard, no symlink escape, no directory as target, parent
// directories that can exist, size limits, the file unchanged since the
// agent read it), then the batch is written as a set — a journal in the
// runtime directory records the old contents before any file changes, new
// contents go to temp files beside their targets (fsync), the temps are
// renamed over the targets (fsync of each directory), and only then is the
// journal dropped. A process killed at any moment leaves a journal; the
// next start rolls the batch back (Recover), so the disk never holds a mix
// of old and new files the agent did not ask for.
//
// The package also holds what the write tools verify after a write (stub
// detection, anti-patterns in the diff, compile and test runners) and the
// store of edit previews.
package edit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/m1nd-go/m1nd/mcpserver/pathguard"
)

// Limits of one batch. A source file of 4 MiB is far larger than any an
// agent writes whole (it is also the ingest walker's limit, so the graph
// can take in whatever was written).
const (
	MaxFileSize   = 4 << 20
	MaxBatchBytes = 32 << 20
	MaxBatchFiles = 64
	// MaxOldSize bounds the existing file an edit replaces: its old
	// contents are copied into the journal first.
	MaxOldSize = 64 << 20
)

// Edit is one requested write.
type Edit struct {
	// Path is the file as the agent named it (relative to a root, or
	// absolute inside one).
	Path    string
	Content []byte
	// ExpectedSHA256 (hex, optional) is the hash of the file as the agent
	// last read it; the edit is refused when the file now differs.
	// "absent" asks that the file not exist yet.
	ExpectedSHA256 string
	// ExpectedLines (optional) are lines as the agent last saw them (from
	// view or surgical_context): the edit is refused when the file no
	// longer has them at that place. It lets an agent that read only part
	// of a file write without the whole file's hash.
	ExpectedLines *Lines
	// Raw writes Content byte for byte; otherwise the file's line endings
	// (CRLF) and trailing newline are kept (see Format).
	Raw bool
}

// Lines are lines of a file as read: Text (line endings of either kind;
// a final newline optional) starting at line Start (1-based).
type Lines struct {
	Start int    `json:"start_line"`
	Text  string `json:"text"`
}

// Target is a validated edit: where it writes and what is there now.
type Target struct {
	Index int
	Given string
	Res   pathguard.Resolved
	// RootReal is the real path of the root holding the file; RelReal the
	// file's real path relative to it (forward slashes). Every write goes
	// through an os.Root of RootReal, so a directory swapped for a symlink
	// after validation cannot redirect it.
	RootReal string
	RelReal  string
	Existed  bool
	Old      []byte
	Mode     fs.FileMode
	New      []byte
	OldSHA   string // "" when the file did not exist
	NewSHA   string
	Format   Format
	// NewDirs are the missing parent directories, outermost first
	// (relative to RootReal), created before the write.
	NewDirs []string
}

// Unchanged reports whether the write would leave the file as it is.
func (t *Target) Unchanged() bool { return t.Existed && bytes.Equal(t.Old, t.New) }

// Error is a refused edit. It says which edit, what was wrong and what is
// allowed, for the agent that sent it.
type Error struct {
	Index int    // position in the batch
	Path  string // as given
	Kind  error  // one of the Err* sentinels, or a pathguard sentinel
	Msg   string
	Hint  string
	// Extra carries context (current hash, allowed roots).
	Extra map[string]any
}

func (e *Error) Error() string { return e.Msg }

// Unwrap lets errors.Is match the kind.
func (e *Error) Unwrap() error { return e.Kind }

// Sentinel kinds of refusal.
var (
	ErrTooMany      = errors.New("too many edits")
	ErrTooLarge     = errors.New("content too large")
	ErrDirectory    = errors.New("target is a directory")
	ErrNotRegular   = errors.New("target is not a regular file")
	ErrParent       = errors.New("parent is not a directory")
	ErrDuplicate    = errors.New("file edited twice in one batch")
	ErrStale        = errors.New("file changed since it was read")
	ErrBadHash      = errors.New("malformed expected hash")
	ErrProtected    = errors.New("protected path")
	ErrUnreadable   = errors.New("file cannot be read")
	ErrEmptyBatch   = errors.New("no edits")
	ErrInvalidChars = errors.New("invalid path characters")
)

// SHA256 is the hex digest the tools show and expected_sha256 takes.
func SHA256(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Validate judges every edit against the guard and the disk, reading each
// existing file once. It writes nothing. The first refusal is returned as
// an *Error; a batch is all or nothing.
func Validate(g *pathguard.Guard, edits []Edit) ([]*Target, error) {
	if len(edits) == 0 {
		return nil, &Error{Index: -1, Kind: ErrEmptyBatch, Msg: "the batch has no edits",
			Hint: "Pass at least one edit: {\"file_path\": \"src/a.py\", \"new_content\": \"...\"}."}
	}
	if len(edits) > MaxBatchFiles {
		return nil, &Error{Index: -1, Kind: ErrTooMany, Msg: fmt.Sprintf("the batch has %d edits, over the limit of %d", len(edits), MaxBatchFiles),
			Hint: fmt.Sprintf("Split the work into batches of at most %d files.", MaxBatchFiles)}
	}
	total := 0
	for i, e := range edits {
		if len(e.Content) > MaxFileSize {
			return nil, &Error{Index: i, Path: e.Path, Kind: ErrTooLarge,
				Msg:  fmt.Sprintf("edit %d (%s): new content is %d bytes, over the %d-byte limit", i, e.Path, len(e.Content), MaxFileSize),
				Hint: "Files this large are not written by agents; write a smaller file or change it with your own tools."}
		}
		total += len(e.Content)
	}
	if total > MaxBatchBytes {
		return nil, &Error{Index: -1, Kind: ErrTooLarge, Msg: fmt.Sprintf("the batch writes %d bytes, over the %d-byte limit", total, MaxBatchBytes),
			Hint: "Split the batch into smaller ones."}
	}
	out := make([]*Target, 0, len(edits))
	seen := map[string]int{}
	for i, e := range edits {
		t, err := validateOne(g, i, e)
		if err != nil {
			return nil, err
		}
		if j, dup := seen[t.Res.Real]; dup {
			return nil, &Error{Index: i, Path: e.Path, Kind: ErrDuplicate,
				Msg:  fmt.Sprintf("edits %d and %d both write %s", j, i, t.Res.Rel),
				Hint: "Each file appears once per batch: merge the two contents into one edit."}
		}
		seen[t.Res.Real] = i
		out = append(out, t)
	}
	return out, nil
}

func validateOne(g *pathguard.Guard, i int, e Edit) (*Target, error) {
	refuse := func(kind error, hint, format string, args ...any) error {
		return &Error{Index: i, Path: e.Path, Kind: kind, Msg: fmt.Sprintf("edit %d: ", i) + fmt.Sprintf(format, args...), Hint: hint}
	}
	if strings.ContainsFunc(e.Path, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return nil, refuse(ErrInvalidChars, "Pass a plain file path; control characters (newlines, NUL) are never part of one.", "the path %q contains control characters", e.Path)
	}
	res, err := g.Resolve(e.Path)
	if err != nil {
		var pe *pathguard.Error
		if errors.As(err, &pe) {
			return nil, &Error{Index: i, Path: e.Path, Kind: pe.Kind, Msg: fmt.Sprintf("edit %d: %s", i, pe.Msg), Hint: pe.Hint, Extra: map[string]any{"allowed_roots": pe.Roots}}
		}
		return nil, refuse(pathguard.ErrOutside, "Pass a path inside an ingest root.", "%v", err)
	}
	if res.RealRel == "" {
		return nil, refuse(ErrDirectory, "Name a file under the root, e.g. \"src/main.go\".", "%q is the ingest root itself, a directory", e.Path)
	}
	if p := protected(res.RealRel); p != "" {
		return nil, refuse(ErrProtected, "Edit source files; version-control metadata is changed by git itself.", "%q is inside %s, which m1nd never writes", e.Path, p)
	}
	t := &Target{Index: i, Given: e.Path, Res: res, RelReal: res.RealRel, Mode: 0o644}
	t.RootReal = strings.TrimSuffix(res.Real, string(filepath.Separator)+filepath.FromSlash(res.RealRel))
	root, err := os.OpenRoot(t.RootReal)
	if err != nil {
		return nil, refuse(ErrUnreadable, "Check that the ingest root still exists.", "cannot open the root %s: %v", t.RootReal, err)
	}
	defer root.Close()
	if err := t.inspect(root, refuse); err != nil {
		return nil, err
	}
	if err := t.checkExpected(e.ExpectedSHA256, refuse); err != nil {
		return nil, err
	}
	if err := t.checkLines(e.ExpectedLines, refuse); err != nil {
		return nil, err
	}
	t.New, t.Format = e.Content, Format{}
	if !e.Raw && t.Existed {
		t.New, t.Format = Preserve(t.Old, e.Content)
	}
	t.NewSHA = SHA256(t.New)
	return t, nil
}

// inspect reads what is at the target now: an existing regular file (its
// contents and mode) or nothing, in which case the parents must be
// directories or missing (then created).
func (t *Target) inspect(root *os.Root, refuse func(error, string, string, ...any) error) error {
	name := filepath.FromSlash(t.RelReal)
	fi, err := root.Lstat(name)
	if errors.Is(err, syscall.ENOTDIR) {
		err = fs.ErrNotExist // a parent is a file: the walk below says which
	}
	switch {
	case err == nil && fi.IsDir():
		return refuse(ErrDirectory, "apply writes files; name a file inside the directory (e.g. \""+path.Join(t.Res.Rel, "new_file.go")+"\").", "%q is a directory", t.Given)
	case err == nil && !fi.Mode().IsRegular():
		return refuse(ErrNotRegular, "Only regular files can be written (no FIFOs, devices or sockets).", "%q is not a regular file (%s)", t.Given, fi.Mode().Type())
	case err == nil:
		if fi.Size() > MaxOldSize {
			return refuse(ErrTooLarge, "Change a file this large with your own tools.", "%q is %d bytes, over the %d-byte limit of files m1nd replaces", t.Given, fi.Size(), MaxOldSize)
		}
		old, rerr := root.ReadFile(name)
		if rerr != nil {
			return refuse(ErrUnreadable, "Check the file's permissions.", "cannot read %q: %v", t.Given, rerr)
		}
		t.Existed, t.Old, t.OldSHA = true, old, SHA256(old)
		t.Mode = fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return refuse(ErrUnreadable, "Check the permissions of the file and its directory.", "cannot inspect %q: %v", t.Given, err)
	}
	// A new file: walk the parents from the root down.
	parts := strings.Split(path.Dir(t.RelReal), "/")
	cur := ""
	for k, p := range parts {
		if p == "." || p == "" {
			continue
		}
		cur = path.Join(cur, p)
		fi, err := root.Lstat(filepath.FromSlash(cur))
		if errors.Is(err, fs.ErrNotExist) {
			t.NewDirs = append(t.NewDirs, cur)
			for _, rest := range parts[k+1:] {
				cur = path.Join(cur, rest)
				t.NewDirs = append(t.NewDirs, cur)
			}
			return nil
		}
		if err != nil {
			return refuse(ErrUnreadable, "Check the directory's permissions.", "cannot inspect %s: %v", cur, err)
		}
		if !fi.IsDir() {
			return refuse(ErrParent, "A file cannot hold other files; pick another path.", "cannot create %q: %s is a file, not a directory", t.Given, cur)
		}
	}
	return nil
}

func (t *Target) checkExpected(want string, refuse func(error, string, string, ...any) error) error {
	want = strings.ToLower(strings.TrimSpace(want))
	switch {
	case want == "":
		return nil
	case want == "absent":
		if t.Existed {
			return refuse(ErrStale, "The file exists already: read it (view, surgical_context) and pass its sha256 as expected_sha256 to replace it.", "%q was expected to be absent but exists (sha256 %s, %d bytes)", t.Given, t.OldSHA, len(t.Old))
		}
		return nil
	case len(want) != 64 || strings.Trim(want, "0123456789abcdef") != "":
		return refuse(ErrBadHash, "expected_sha256 is the 64-hex-digit SHA-256 of the file as you read it (surgical_context and edit_preview return it), or \"absent\" for a new file.", "expected_sha256 %q is not a SHA-256 hex digest", want)
	case !t.Existed:
		return refuse(ErrStale, "The file is gone: re-read the directory (glob) before writing; pass expected_sha256 \"absent\" to create it.", "%q no longer exists (expected sha256 %s)", t.Given, want)
	case want != t.OldSHA:
		e := refuse(ErrStale, "Re-read the file (surgical_context or view), redo the edit on what is there now, and pass the new sha256.", "%q changed since you read it: expected sha256 %s, the file now has %s (%d bytes, %d lines)", t.Given, want, t.OldSHA, len(t.Old), countLines(t.Old)).(*Error)
		e.Extra = map[string]any{"current_sha256": t.OldSHA}
		return e
	}
	return nil
}

// checkLines refuses the edit when the file no longer holds the lines the
// agent saw where it saw them.
func (t *Target) checkLines(want *Lines, refuse func(error, string, string, ...any) error) error {
	if want == nil {
		return nil
	}
	seen := bareLines(want.Text)
	switch {
	case want.Start < 1 || len(seen) == 0:
		return refuse(ErrBadHash, "expected_lines is {start_line: the first line's number (1-based), text: those lines as you read them}.", "expected_lines needs start_line ≥ 1 and some text (got start_line %d, %d lines)", want.Start, len(seen))
	case !t.Existed:
		return refuse(ErrStale, "The file is gone: re-read the directory (glob) before writing.", "%q no longer exists (expected lines %d–%d)", t.Given, want.Start, want.Start+len(seen)-1)
	}
	have := bareLines(string(t.Old))
	end := want.Start - 1 + len(seen)
	if end <= len(have) && slices.Equal(have[want.Start-1:end], seen) {
		return nil
	}
	now := have[min(want.Start-1, len(have)):min(end, len(have))]
	e := refuse(ErrStale, "Re-read those lines (view with offset and limit, or surgical_context), redo the edit on what is there now, and pass them again.",
		"%q changed since you read it: lines %d–%d differ (the file has %d lines)", t.Given, want.Start, end, len(have)).(*Error)
	e.Extra = map[string]any{"current_lines": strings.Join(now, "\n"), "current_sha256": t.OldSHA}
	return e
}

// bareLines splits text into lines without their endings (CRLF or LF);
// a final newline does not start another line.
func bareLines(text string) []string {
	text = strings.TrimSuffix(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

// protected names the version-control directory of rel that m1nd never
// writes into (""). Components are compared the way the file systems
// users have compare them, as git itself does (verify_path): case-
// insensitively (macOS, Windows), ignoring the code points HFS+ ignores,
// trailing dots and spaces and an NTFS stream suffix (Windows), and the
// 8.3 short name GIT~1; ".GIT/hooks/pre-commit" is .git/hooks there.
func protected(rel string) string {
	for _, p := range strings.Split(rel, "/") {
		if name := vcsDir(p); name != "" {
			return name
		}
	}
	return ""
}

var vcsDirs = []string{".git", ".hg", ".svn", ".jj"}

// vcsDir is the version-control directory the path component names on
// some file system ("" for none).
func vcsDir(component string) string {
	c := strings.Map(func(r rune) rune {
		if hfsIgnorable(r) {
			return -1
		}
		return r
	}, component)
	c = norm(c)
	if i := strings.IndexByte(c, ':'); i >= 0 { // NTFS alternate data stream: ".git::$INDEX_ALLOCATION"
		c = c[:i]
	}
	c = strings.TrimRight(c, ". ") // Windows drops trailing dots and spaces
	for _, d := range vcsDirs {
		if strings.EqualFold(c, d) {
			return d
		}
	}
	if len(c) == 5 && strings.EqualFold(c[:4], "git~") && c[4] >= '1' && c[4] <= '9' {
		return ".git" // the 8.3 short name of .git on NTFS
	}
	return ""
}

// hfsIgnorable are the code points HFS+ drops when it compares names
// (the list git's is_hfs_dotgit uses).
func hfsIgnorable(r rune) bool {
	switch {
	case r == 0x200c, r == 0x200d, r == 0x200e, r == 0x200f, r == 0xfeff:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x206a && r <= 0x206f:
		return true
	}
	return false
}

// norm folds the compatibility forms a name of ASCII letters can be
// spelled with (fullwidth ．ｇｉｔ, and the like) to ASCII, so that
// normalizing file systems and tools cannot turn a harmless-looking name
// into ".git".
func norm(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 0xff01 && r <= 0xff5e { // fullwidth ASCII
			return r - 0xfee0
		}
		return r
	}, s)
}

func countLines(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
