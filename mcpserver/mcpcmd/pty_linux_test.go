package mcpcmd

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// openPty returns a pseudo-terminal pair through /dev/ptmx (no cgo, no
// x/sys): the slave is what a person's shell hands m1nd-mcp as stdin.
func openPty(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		m.Close()
		t.Skipf("TIOCGPTN: %v", e)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		m.Close()
		t.Skipf("TIOCSPTLCK: %v", e)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("open pty slave: %v", err)
	}
	t.Cleanup(func() { s.Close(); m.Close() })
	return m, s
}

func TestIsTerminalOnAPty(t *testing.T) {
	_, s := openPty(t)
	if !isTerminal(s) {
		t.Error("a pty slave is not seen as a terminal")
	}
}

// TestTerminalLineOnAPty starts the real main with a pty as stdin, as a
// person at a shell would: stderr names what it waits for and the
// inspector command with the flags given (paths absolute); stdout stays
// empty; Ctrl-D ends it cleanly.
func TestTerminalLineOnAPty(t *testing.T) {
	m, s := openPty(t)
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "--runtime-dir", "state", "--no-attach")
	cmd.Dir = dir
	cmd.Env = []string{"M1ND_MCP_TEST_MAIN=1", "PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMPDIR=" + os.TempDir()}
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s, &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.Close() // the child holds its own copy
	// Ctrl-D at the start of a line is end of input on a terminal in its
	// default (canonical) mode. Sent until the child is gone, since the
	// first may arrive before the server reads.
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
wait:
	for {
		if _, werr := m.Write([]byte{4}); werr != nil {
			err = <-done
			break
		}
		select {
		case err = <-done:
			break wait
		case <-time.After(200 * time.Millisecond):
		}
	}
	if err != nil {
		t.Fatalf("m1nd-mcp on a terminal: %v\nstderr:\n%s", err, stderr.String())
	}
	want := "try it with: npx @modelcontextprotocol/inspector -- " + os.Args[0] + " --runtime-dir " + filepath.Join(dir, "state") + " --no-attach"
	exe, _ := filepath.EvalSymlinks(os.Args[0])
	wantResolved := strings.Replace(want, os.Args[0], exe, 1)
	if got := stderr.String(); !strings.Contains(got, "[m1nd] m1nd-mcp is an MCP server on stdio and waits for an MCP client") ||
		(!strings.Contains(got, want) && !strings.Contains(got, wantResolved)) {
		t.Errorf("stderr:\n%s\nwant a line with:\n%s", got, want)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout carries more than protocol: %q", stdout.String())
	}
}
