package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// LockFileName is the runtime directory's single-owner lock.
const LockFileName = "m1nd.lock"

// ErrRuntimeDirBusy means another live server owns the runtime directory.
var ErrRuntimeDirBusy = errors.New("runtime directory is in use by another m1nd server")

// AttachSocket, when set, names the Unix socket on which the lock's owner
// will accept attached clients, given its runtime directory. It is written
// into the lock file when the lock is taken — before the graph loads — so
// a process refused the lock knows it may wait for the socket instead of
// giving up, and finds it even when the path depends on the owner's
// environment (a temp-directory fallback). m1nd-mcp sets it.
var AttachSocket func(runtimeDir string) string

// BusyError is ErrRuntimeDirBusy with what the lock file says about its
// owner, so a refused process can reach it.
type BusyError struct {
	Lock   string // the lock file
	Owner  string // "pid N, started T" as the owner wrote it; "" if not yet written
	Pid    int    // 0 when unknown
	Socket string // the owner's attach socket; "" when it accepts none
}

func (e *BusyError) Error() string {
	who := e.Owner
	if who == "" {
		who = "unknown process"
	}
	return fmt.Sprintf("%v: %s is held by %s. Two servers writing the same graph would corrupt each other's files: stop the other server, or start this one with a different --runtime-dir (or M1ND_RUNTIME_DIR)", ErrRuntimeDirBusy, e.Lock, who)
}

func (e *BusyError) Unwrap() error { return ErrRuntimeDirBusy }

// runtimeLock is an advisory flock on <runtime>/m1nd.lock. The kernel drops
// it when the process dies, even by kill -9, so a stale file never blocks.
type runtimeLock struct{ f *os.File }

func acquireRuntimeLock(dir string) (*runtimeLock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create runtime directory %s: %w", dir, err)
	}
	markRuntimeDir(dir) // best effort: a read-only marker is no reason to refuse to serve
	path := filepath.Join(dir, LockFileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock file %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		owner, _ := os.ReadFile(path)
		f.Close()
		return nil, parseOwner(path, string(owner))
	}
	note := fmt.Sprintf("pid %d, started %s\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339))
	if AttachSocket != nil {
		note += "attach " + AttachSocket(dir) + "\n"
	}
	f.Truncate(0)
	f.WriteString(note)
	f.Sync()
	return &runtimeLock{f: f}, nil
}

// parseOwner reads a lock file's content: the owner line, then optional
// "attach SOCKET".
func parseOwner(path, content string) *BusyError {
	e := &BusyError{Lock: path}
	lines := strings.Split(strings.TrimSpace(content), "\n")
	e.Owner = strings.TrimSpace(lines[0])
	fmt.Sscanf(e.Owner, "pid %d", &e.Pid)
	for _, l := range lines[1:] {
		if s, ok := strings.CutPrefix(strings.TrimSpace(l), "attach "); ok {
			e.Socket = s
		}
	}
	return e
}

func (l *runtimeLock) release() {
	if l == nil || l.f == nil {
		return
	}
	l.f.Truncate(0)
	syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
	l.f = nil
}
