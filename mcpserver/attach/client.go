package attach

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync/atomic"
	"syscall"
	"time"
)

// ErrRefused means the owner closed the connection without a Hello: it is
// shutting down. Retry; the runtime directory may be free by then.
var ErrRefused = errors.New("the running server closed the connection before greeting (it is shutting down)")

// helloWait bounds the wait for a Hello, which an owner writes as soon as
// it accepts: only a wedged owner takes longer.
const helloWait = time.Minute

// Client is a connection to the owner, greeted.
type Client struct {
	Hello  Hello
	Socket string
	conn   *net.UnixConn
	r      *bufio.Reader
}

// Retryable reports whether a Dial error may go away by itself: no socket
// yet (the owner is still loading its graph) or an owner shutting down.
func Retryable(err error) bool {
	return errors.Is(err, ErrRefused) || errors.Is(err, os.ErrNotExist) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EAGAIN)
}

// Dial connects to the owner's socket and reads its Hello.
func Dial(socket string) (*Client, error) {
	conn, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: socket, Net: "unix"})
	if err != nil {
		return nil, err
	}
	c := &Client{Socket: socket, conn: conn, r: bufio.NewReader(conn)}
	conn.SetReadDeadline(time.Now().Add(helloWait))
	line, err := c.r.ReadBytes('\n')
	conn.SetReadDeadline(time.Time{})
	switch {
	case err == io.EOF || errors.Is(err, syscall.ECONNRESET):
		err = ErrRefused
	case err != nil:
		err = fmt.Errorf("no greeting from the running server on %s: %w; it may be stuck — stop it, or start this one with --no-attach and another --runtime-dir", socket, err)
	case json.Unmarshal(line, &c.Hello) != nil || c.Hello.Version == 0:
		err = fmt.Errorf("%s is not an m1nd attach socket (it sent %.80q)", socket, line)
	case c.Hello.Version != Version:
		err = fmt.Errorf("the running server (pid %d) speaks attach version %d, this m1nd-mcp speaks %d: run the same m1nd-mcp build for every editor, or restart the server", c.Hello.Pid, c.Hello.Version, Version)
	}
	if err != nil {
		conn.Close()
		return nil, err
	}
	return c, nil
}

// Close drops the connection.
func (c *Client) Close() error { return c.conn.Close() }

// Pipe copies stdin to the owner and the owner's output to stdout. When
// stdin ends it half-closes the socket: the owner answers every request
// already sent, then closes, and Pipe returns nil once all of it is out.
// If the owner closes first (it was stopped), Pipe returns an error
// saying so. ctx's end closes the connection.
func (c *Client) Pipe(ctx context.Context, stdin io.Reader, stdout io.Writer) error {
	stop := context.AfterFunc(ctx, func() { c.conn.Close() })
	defer stop()
	var inDone atomic.Bool
	go func() {
		if _, err := io.Copy(c.conn, stdin); err == nil {
			inDone.Store(true) // before CloseWrite: the owner closes only after it
		}
		c.conn.CloseWrite()
	}()
	_, err := io.Copy(stdout, c.r)
	if errors.Is(err, syscall.ECONNRESET) {
		err = nil // the owner closed with our bytes unread: still a close
	}
	c.conn.Close()
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return fmt.Errorf("relaying the running server's answers: %w", err)
	case !inDone.Load():
		return fmt.Errorf("the running server (pid %d) closed the connection (it was stopped); restart this MCP server in your editor to start or attach to a new one", c.Hello.Pid)
	}
	return nil
}
