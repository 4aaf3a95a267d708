package openclaw

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// hangGuard bounds every blocking step so a bug fails the test instead of
// hanging it; it is not a speed requirement.
const hangGuard = 2 * time.Minute

// serveOn runs b.Serve on a fresh socket until the test ends and fails
// the test if Serve returned before that.
func serveOn(t *testing.T, b *Bridge) string {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "s.sock")
	ln, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Serve(ctx, ln) }()
	t.Cleanup(func() {
		select {
		case err := <-done:
			t.Errorf("Serve returned before the end of the test: %v", err)
			return
		default:
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return sock
}

type client struct {
	net.Conn
	r *bufio.Reader
}

func dial(t *testing.T, sock string) *client {
	t.Helper()
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(hangGuard))
	t.Cleanup(func() { c.Close() })
	return &client{c, bufio.NewReader(c)}
}

// call sends one line and returns the answer line ("" and the error if
// the connection ended first).
func (c *client) call(line string) (string, error) {
	if _, err := io.WriteString(c, line+"\n"); err != nil {
		return "", err
	}
	return c.read()
}

func (c *client) read() (string, error) {
	l, err := c.r.ReadString('\n')
	if err != nil {
		return "", err
	}
	return l, nil
}

// closedByServer reports whether the server has closed c (EOF, or a reset
// when the server closed with unread input).
func (c *client) closedByServer() bool {
	_, err := c.r.ReadByte()
	return errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) || strings.Contains(fmt.Sprint(err), "reset")
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(hangGuard); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited too long for %s", what)
		}
	}
}

const health = `{"id":1,"tool":"health"}`

func okAnswer(line string) bool { return strings.Contains(line, `"ok":true`) }

func TestSocketManyIdleConnections(t *testing.T) {
	t.Parallel()
	b := newBridge(t)
	b.MaxConnections = 600
	sock := serveOn(t, b)
	idle := make([]*client, 500)
	for i := range idle {
		idle[i] = dial(t, sock)
	}
	waitFor(t, "500 connections served", func() bool { return b.Stats().Connections == 500 })

	if got, err := dial(t, sock).call(health); !okAnswer(got) {
		t.Fatalf("fresh client beside 500 idle ones: %s %v", got, err)
	}
	if got, err := idle[250].call(health); !okAnswer(got) {
		t.Fatalf("idle client: %s %v", got, err)
	}
	for _, c := range idle {
		c.Close()
	}
	waitFor(t, "connections to end", func() bool { return b.Stats().Connections == 1 })
}

func TestSocketConnectionLimit(t *testing.T) {
	t.Parallel()
	b := newBridge(t)
	b.MaxConnections = 3
	sock := serveOn(t, b)
	held := make([]*client, 3)
	for i := range held {
		held[i] = dial(t, sock)
		if got, err := held[i].call(health); !okAnswer(got) {
			t.Fatalf("client %d: %s %v", i, got, err)
		}
	}

	over := dial(t, sock)
	got, err := over.read()
	if err != nil || !strings.Contains(got, "too many connections") || !strings.Contains(got, "at most 3") || !strings.Contains(got, "--max-connections") {
		t.Fatalf("over the limit: %q %v", got, err)
	}
	if !over.closedByServer() {
		t.Error("refused connection left open")
	}
	resp, _, err := Call(sock, "health", nil, hangGuard)
	if err != nil || resp.OK || !strings.Contains(fmt.Sprint(resp.Error), "too many connections") {
		t.Errorf("Call over the limit: %+v %v", resp, err)
	}
	if s := b.Stats(); s.Refused != 2 || s.Connections != 3 {
		t.Errorf("stats %+v", s)
	}

	// A freed slot serves a new client; the others never noticed.
	held[0].Close()
	waitFor(t, "a free slot", func() bool { return b.Stats().Connections == 2 })
	if resp, _, err := Call(sock, "health", nil, hangGuard); err != nil || !resp.OK {
		t.Errorf("after a slot freed: %+v %v", resp, err)
	}
	for _, c := range held[1:] {
		if got, err := c.call(health); !okAnswer(got) {
			t.Errorf("held client: %s %v", got, err)
		}
	}
}

func TestSocketSlowClient(t *testing.T) {
	b := newBridge(t)
	b.ReadTimeout = 20 * time.Millisecond
	sock := serveOn(t, b)

	slow := dial(t, sock)
	io.WriteString(slow, `{"id":1,"tool":"hea`)
	got, err := slow.read()
	if !strings.Contains(got, "not completed within 20ms") || !strings.Contains(got, "--read-timeout") {
		t.Fatalf("slow client: %q %v", got, err)
	}
	if !slow.closedByServer() {
		t.Error("slow client left open")
	}
	if got, err := dial(t, sock).call(health); !okAnswer(got) {
		t.Errorf("other client: %s %v", got, err)
	}
}

func TestSocketIdleTimeout(t *testing.T) {
	b := newBridge(t)
	b.IdleTimeout = 20 * time.Millisecond
	sock := serveOn(t, b)
	c := dial(t, sock)
	io.WriteString(c, "\n\n") // blank lines are not requests
	got, err := c.read()
	if !strings.Contains(got, "no request for 20ms") || !strings.Contains(got, "--idle-timeout") {
		t.Fatalf("idle client: %q %v", got, err)
	}
	if !c.closedByServer() {
		t.Error("idle client left open")
	}
	waitFor(t, "the idle connection to end", func() bool { return b.Stats().Connections == 0 })
}

// A client that sends requests but never reads the answers is cut off by
// the write deadline instead of pinning its goroutine.
func TestSocketClientNeverReads(t *testing.T) {
	b := newBridge(t)
	b.WriteTimeout = 20 * time.Millisecond
	sock := serveOn(t, b)
	c := dial(t, sock)
	// Each answer echoes a 1 MiB id: far more than the socket buffers hold.
	req := fmt.Sprintf(`{"id":"%s","tool":"health"}`+"\n", strings.Repeat("i", 1<<20))
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 4 {
			if _, err := io.WriteString(c, req); err != nil {
				return // the server gave up on us
			}
		}
	})
	waitFor(t, "the stuck connection to end", func() bool { return b.Stats().Connections == 0 })
	c.Close()
	wg.Wait()
}

// Unterminated and oversized lines from several clients at once: the
// bytes held stay under the budget, lines past the cap are answered with
// their id, the bridge keeps answering others, and everything held comes
// back when the connections close.
func TestSocketHugeLines(t *testing.T) {
	t.Parallel()
	const maxReq, maxBuf = 2 << 20, 4 << 20
	b := newBridge(t)
	b.MaxRequestBytes, b.MaxBufferedBytes = maxReq, maxBuf
	b.ReadTimeout = hangGuard
	sock := serveOn(t, b)

	// Hogs send lines under the per-request cap but together far over the
	// budget, and stall before the newline.
	hogs := make([]*client, 8)
	var wg sync.WaitGroup
	for i := range hogs {
		hogs[i] = dial(t, sock)
		wg.Go(func() {
			fmt.Fprintf(hogs[i], `{"id":"hog-%d","tool":"health","arguments":{"x":"%s`, i, strings.Repeat("x", 2000<<10))
		})
	}
	// Floods never end their line; one long line does.
	floods := make([]*client, 3)
	for i := range floods {
		floods[i] = dial(t, sock)
		wg.Go(func() {
			for range 20 {
				if _, err := io.WriteString(floods[i], strings.Repeat("f", 1<<20)); err != nil {
					t.Errorf("flood %d: %v", i, err)
					return
				}
			}
		})
	}
	long := dial(t, sock)
	wg.Go(func() {
		fmt.Fprintf(long, `{"id":"long","tool":"seek","arguments":{"x":"%s"}}`+"\n", strings.Repeat("l", 3<<20))
	})
	wg.Wait()

	fresh := dial(t, sock)
	if got, err := fresh.call(health); !okAnswer(got) {
		t.Errorf("fresh client during the flood: %s %v", got, err)
	}
	fresh.Close()
	if got, err := long.read(); !strings.HasPrefix(got, `{"id":"long","ok":false`) || !strings.Contains(got, fmt.Sprintf("exceeds %d bytes", maxReq)) {
		t.Errorf("long line: %.300s %v", got, err)
	}
	overBudget := 0
	for i, c := range hogs {
		got, err := c.call(`"}}`)
		if !strings.HasPrefix(got, fmt.Sprintf(`{"id":"hog-%d"`, i)) {
			t.Errorf("hog %d: %.300s %v", i, got, err)
		}
		if strings.Contains(got, "buffer budget") {
			overBudget++
		}
	}
	if overBudget == 0 {
		t.Error("no hog was refused for the buffer budget")
	}
	if s := b.Stats(); s.PeakBufferedBytes > maxBuf || s.PeakBufferedBytes == 0 {
		t.Errorf("peak buffered %d, budget %d", s.PeakBufferedBytes, maxBuf)
	}
	for _, c := range append(append(hogs, floods...), long) {
		c.Close()
	}
	waitFor(t, "connections to end and release their buffers", func() bool {
		s := b.Stats()
		return s.Connections == 0 && s.BufferedBytes == 0
	})
}

func TestSocketEchoesID(t *testing.T) {
	t.Parallel()
	b := newBridge(t)
	sock := serveOn(t, b)
	c := dial(t, sock)
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	tests := []struct{ id, line string }{
		{`1.5`, `{"id":1.5,"tool":"health"}`},
		{`18446744073709551616`, `{"id":18446744073709551616,"tool":"health"}`},
		{`-0.0e+1`, `{"id":-0.0e+1,"tool":"health"}`},
		{`"req-7"`, `{"id":"req-7","tool":"health"}`},
		{`"a<b>&\u00e9é"`, `{"id":"a<b>&\u00e9é","tool":"health"}`},
		{`[1,{"k":null}]`, `{"id":[1,{"k":null}],"tool":"health"}`},
		{`null`, `{"tool":"health"}`},
		{`18446744073709551616`, `{"id":18446744073709551616,"tool":"health","arguments":{"a":` + deep + `}}`},
		{`"x"`, `{"tool":"health","arguments":` + deep + `,"id":"x"}`},
		{`7`, `{"id":7,"tool":"health","arguments":{"a":tru}}`},
	}
	for _, tc := range tests {
		got, err := c.call(tc.line)
		if want := `{"id":` + tc.id + `,"ok":`; !strings.HasPrefix(got, want) || !json.Valid([]byte(got)) {
			t.Errorf("%.60s: got %.200s %v, want %s…", tc.line, got, err, want)
		}
	}
}
