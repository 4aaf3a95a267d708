package attach

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSocketPathFallsBackWhenTooLong(t *testing.T) {
	short := "/home/u/project/.m1nd"
	if got := socketPath(short, "/tmp"); got != short+"/"+SocketName {
		t.Errorf("short runtime dir: %s", got)
	}
	long := "/home/u/" + strings.Repeat("deep/", 20) + ".m1nd"
	got := socketPath(long, "/var/tmp")
	if len(got) > maxSocketPath || !strings.HasPrefix(got, privateDir("/var/tmp")+"/") || !strings.HasSuffix(got, ".sock") {
		t.Errorf("long runtime dir: %s (%d bytes)", got, len(got))
	}
	if again := socketPath(long, "/var/tmp"); again != got {
		t.Errorf("not deterministic: %s, then %s", got, again)
	}
	if otherDir := socketPath(long+"2", "/var/tmp"); otherDir == got {
		t.Errorf("two runtime directories share %s", got)
	}
	hugeTmp := "/" + strings.Repeat("t", 100)
	if p := socketPath(long, hugeTmp); len(p) > maxSocketPath || !strings.HasPrefix(p, privateDir("/tmp")) {
		t.Errorf("long temp dir: %s", p)
	}
}

// echoOwner listens for runtimeDir and echoes each session's bytes back.
func echoOwner(t *testing.T, runtimeDir string, g *Gate) net.Listener {
	t.Helper()
	ln, err := Listen(runtimeDir)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Serve(ln, g, func() Hello { return Hello{Pid: 42, Roots: []string{"/repo"}} },
			func(c net.Conn) { io.Copy(c, c) }, t.Logf)
	}()
	t.Cleanup(func() { ln.Close(); <-done })
	return ln
}

func TestListenDialPipeWithLongRuntimeDir(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir := filepath.Join(t.TempDir(), strings.Repeat("d", 120))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var g Gate
	ln := echoOwner(t, dir, &g)
	path := ln.Addr().String()
	if path != SocketPath(dir) || strings.HasPrefix(path, dir) {
		t.Fatalf("socket at %s, want the fallback %s", path, SocketPath(dir))
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode: %v %v", fi.Mode(), err)
	}
	if fi, _ := os.Stat(filepath.Dir(path)); fi.Mode().Perm() != 0o700 {
		t.Errorf("fallback directory mode %v", fi.Mode())
	}
	cl, err := Dial(path)
	if err != nil {
		t.Fatal(err)
	}
	if cl.Hello.Pid != 42 || cl.Hello.Version != Version || len(cl.Hello.Roots) != 1 {
		t.Errorf("hello %+v", cl.Hello)
	}
	var out bytes.Buffer
	in := "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\nContent-Length: 2\r\n\r\n{}"
	if err := cl.Pipe(context.Background(), strings.NewReader(in), &out); err != nil || out.String() != in {
		t.Errorf("pipe: %v, got %q", err, out.String())
	}
}

func TestListenReplacesStaleSocketAndRefusesAFile(t *testing.T) {
	dir := t.TempDir()
	ln, err := Listen(dir)
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false) // as if the owner was killed
	ln.Close()
	ln, err = Listen(dir)
	if err != nil {
		t.Fatalf("stale socket not replaced: %v", err)
	}
	ln.Close()
	os.WriteFile(filepath.Join(dir, SocketName), []byte("mine"), 0o644)
	if _, err := Listen(dir); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("a regular file at the socket path: %v", err)
	}
}

func TestShutGateRefusesWithoutHello(t *testing.T) {
	var g Gate
	ln := echoOwner(t, t.TempDir(), &g)
	cl, err := Dial(ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	shut := make(chan error, 1)
	go func() { shut <- g.Shut(context.Background()) }()
	// Shut waits for the open session, which this stdin ends.
	if err := cl.Pipe(context.Background(), strings.NewReader("x"), io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := <-shut; err != nil {
		t.Fatal(err)
	}
	if g.Enter() {
		t.Error("a shut gate admitted a session")
	}
	if _, err := Dial(ln.Addr().String()); !errors.Is(err, ErrRefused) || !Retryable(err) {
		t.Errorf("dial after shut: %v", err)
	}
}

func TestPipeSaysWhenTheOwnerStops(t *testing.T) {
	dir := t.TempDir()
	ln, err := Listen(dir)
	if err != nil {
		t.Fatal(err)
	}
	var g Gate
	go Serve(ln, &g, func() Hello { return Hello{Pid: 7} }, func(net.Conn) {}, t.Logf)
	defer ln.Close()
	cl, err := Dial(ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	stdin, w := io.Pipe() // an editor still connected
	defer w.Close()
	if err := cl.Pipe(context.Background(), stdin, io.Discard); err == nil || !strings.Contains(err.Error(), "pid 7") {
		t.Errorf("owner closed first: %v", err)
	}
	if _, err := Dial(filepath.Join(dir, "none.sock")); !Retryable(err) {
		t.Errorf("missing socket should be retryable: %v", err)
	}
}
