package session

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// Allowed roots: the directories ingest may read. An agent is a
// semi-trusted caller — without them, "ingest /etc" followed by "view
// /etc/shadow" would read anything the server's user can. They are the
// --ingest path, the --allow-root flags, the allow_roots config key and
// M1ND_ALLOW_ROOTS (paths separated by the OS list separator), the roots
// the connected clients say their users work in (MCP roots/list), and the
// roots of the graph already loaded (and, while a restart builds them
// again, of the ingests answered before it: ingestjournal.go); with none
// of those set, the server's working directory.

// AllowedRoots returns the directories ingest may read, absolute, with
// symlinks resolved where they exist.
func (s *State) AllowedRoots() []string {
	var raw []string
	raw = append(raw, s.cfg.AllowRoots...)
	if s.cfg.IngestOnStart != "" {
		raw = append(raw, s.cfg.IngestOnStart)
	}
	for _, r := range s.Current().Roots {
		raw = append(raw, r.Path)
	}
	s.clientMu.Lock()
	for _, paths := range s.clientRoots {
		raw = append(raw, paths...)
	}
	raw = append(raw, s.recoveryRoots...)
	s.clientMu.Unlock()
	if len(raw) == 0 {
		if wd, err := os.Getwd(); err == nil {
			raw = append(raw, wd)
		}
	}
	var out []string
	for _, r := range raw {
		if p, ok := realAbs(r); ok && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// realAbs is p absolute and cleaned, with symlinks resolved when it exists.
func realAbs(p string) (string, bool) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", false
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real, true
	}
	return filepath.Clean(abs), true
}

// CheckIngestPath refuses a path outside the allowed roots, or on a pseudo
// file system (/proc, /sys, /dev and the like, whose files are not source
// and may never end), with an error that says how to allow it.
func (s *State) CheckIngestPath(p string) error {
	real, ok := realAbs(p)
	if !ok {
		return fmt.Errorf("cannot resolve %q", p)
	}
	if fs := pseudoFS(real); fs != "" {
		return &RootError{Path: real, Msg: fmt.Sprintf("%s is on a %s pseudo file system, not source code; it cannot be ingested", real, fs)}
	}
	roots := s.AllowedRoots()
	for _, r := range roots {
		if real == r || strings.HasPrefix(real, r+string(filepath.Separator)) || r == string(filepath.Separator) {
			return nil
		}
	}
	return &RootError{Path: real, Roots: roots, Msg: fmt.Sprintf("%s is outside the directories this server may ingest (%s)", real, strings.Join(roots, ", "))}
}

// RootError is an ingest path refused by CheckIngestPath.
type RootError struct {
	Path  string
	Roots []string
	Msg   string
}

func (e *RootError) Error() string { return e.Msg }

// Hint says how to allow a path.
func (e *RootError) Hint() string {
	if e.Roots == nil {
		return "Ingest a repository directory; /proc, /sys and /dev hold no source."
	}
	return "The server ingests only under its allowed roots: the --ingest path, --allow-root DIR (repeatable), the allow_roots config key or M1ND_ALLOW_ROOTS, the roots your MCP client reports (roots/list), and roots ingested before; with none set, its working directory. Add the directory to your client's roots, or restart the server with --allow-root " + e.Path + " to allow this one."
}

// pseudoFS names the pseudo file system p lies on ("" for a real one).
func pseudoFS(p string) string {
	var st syscall.Statfs_t
	if err := syscall.Statfs(p, &st); err != nil {
		return ""
	}
	switch uint64(st.Type) {
	case 0x9fa0:
		return "proc"
	case 0x62656572:
		return "sysfs"
	case 0x1373:
		return "devfs"
	case 0x1cd1:
		return "devpts"
	case 0x27e0eb, 0x63677270:
		return "cgroup"
	case 0x64626720:
		return "debugfs"
	case 0x74726163:
		return "tracefs"
	case 0x73636673:
		return "securityfs"
	}
	return ""
}
