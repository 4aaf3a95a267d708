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

// runtimeLock is an advisory flock on <runtime>/m1nd.lock. The kernel drops
// it when the process dies, even by kill -9, so a stale file never blocks.
type runtimeLock struct{ f *os.File }

func acquireRuntimeLock(dir string) (*runtimeLock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create runtime directory %s: %w", dir, err)
	}
	path := filepath.Join(dir, LockFileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock file %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		owner, _ := os.ReadFile(path)
		f.Close()
		who := strings.TrimSpace(string(owner))
		if who == "" {
			who = "unknown process"
		}
		return nil, fmt.Errorf("%w: %s is held by %s. Two servers writing the same graph would corrupt each other's files: stop the other server, or start this one with a different --runtime-dir (or M1ND_RUNTIME_DIR)", ErrRuntimeDirBusy, path, who)
	}
	f.Truncate(0)
	fmt.Fprintf(f, "pid %d, started %s\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339))
	f.Sync()
	return &runtimeLock{f: f}, nil
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
