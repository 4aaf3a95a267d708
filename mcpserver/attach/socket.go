// Package attach lets a second m1nd-mcp on the same runtime directory share
// the running server instead of being refused. The owner of the directory
// listens on a Unix socket and serves each connection as one more MCP
// session of its server (same tools, same graph, same learning); the second
// process becomes a Relay between its stdio and that socket.
//
// When the owner stops (SIGTERM: an MCP client's close), it hands each
// attached session over (transport.HandoverMethod) and releases the
// directory after saving; the relays then take the directory over — the
// first to get its lock loads the saved graph and serves the socket, the
// others attach to it — and carry their editors' sessions on, so the
// shared server lives as long as any editor uses it.
//
// On each accepted connection the owner first writes one JSON line, the
// Hello; after it the connection carries MCP messages, in either stdio
// framing, unchanged. The owner greets a connection only once it has
// counted it as a session it must outlive, so a connection closed without
// a Hello was refused by an owner shutting down: the client retries (and
// may become the owner) with none of its requests lost.
package attach

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
)

// SocketName is the socket's name inside the runtime directory.
const SocketName = "m1nd.sock"

// maxSocketPath is the longest socket path every Unix takes: sun_path is
// 104 bytes on macOS and the BSDs (108 on Linux), the final NUL included.
const maxSocketPath = 103

// SocketPath is where the owner of runtimeDir listens: inside it when the
// path fits in sun_path, else in a private per-user directory under the
// temp directory, named by a hash of runtimeDir. The owner records the
// path in its lock file, so a client never recomputes it in an
// environment whose temp directory differs.
func SocketPath(runtimeDir string) string {
	return socketPath(runtimeDir, os.TempDir())
}

func socketPath(runtimeDir, tmp string) string {
	p := filepath.Join(runtimeDir, SocketName)
	if len(p) <= maxSocketPath {
		return p
	}
	sum := sha256.Sum256([]byte(runtimeDir))
	name := "m1nd-" + hex.EncodeToString(sum[:8]) + ".sock"
	p = filepath.Join(privateDir(tmp), name)
	if len(p) > maxSocketPath { // a very long $TMPDIR
		p = filepath.Join(privateDir("/tmp"), name)
	}
	return p
}

func privateDir(tmp string) string {
	return filepath.Join(tmp, fmt.Sprintf("m1nd-%d", os.Getuid()))
}

// Listen creates the socket of runtimeDir, connectable by this user only.
// A socket left there by an owner that died is replaced: the caller holds
// the runtime directory's lock, so no live server uses it.
func Listen(runtimeDir string) (*net.UnixListener, error) {
	path := SocketPath(runtimeDir)
	if dir := filepath.Dir(path); dir != runtimeDir {
		if err := ensurePrivateDir(dir); err != nil {
			return nil, err
		}
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode().Type() != fs.ModeSocket {
			return nil, fmt.Errorf("cannot accept attached clients: %s exists and is not a socket; remove it and restart the server", path)
		}
		os.Remove(path)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("cannot accept attached clients: listen on %s: %w", path, err)
	}
	// Until this chmod the socket has the umask's mode, which grants no
	// other user write (connect) permission under the usual umasks.
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("cannot accept attached clients: %w", err)
	}
	return ln, nil
}

// ensurePrivateDir creates dir with mode 0700, or checks that the existing
// one is a directory of this user that no one else may enter: in a shared
// temp directory another user could otherwise plant or reach our socket.
func ensurePrivateDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !os.IsExist(err) {
		return fmt.Errorf("cannot accept attached clients: create %s: %w", dir, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("cannot accept attached clients: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok || int(st.Uid) != os.Getuid() || fi.Mode().Perm() != 0o700 {
		return fmt.Errorf("cannot accept attached clients: %s must be a directory of user %d with mode 0700 (it is %v); remove it, or use a shorter --runtime-dir so the socket fits inside it", dir, os.Getuid(), fi.Mode())
	}
	return nil
}
