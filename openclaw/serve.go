package openclaw

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// Defaults of the Bridge limits.
const (
	DefaultMaxConnections   = 64
	DefaultIdleTimeout      = 5 * time.Minute
	DefaultReadTimeout      = 30 * time.Second
	DefaultWriteTimeout     = 30 * time.Second
	DefaultMaxRequestBytes  = 8 << 20
	DefaultMaxBufferedBytes = 64 << 20
)

// readBufferSize is each connection's read buffer; a line that fits is
// handled in place, a longer one is copied out under the budget.
const readBufferSize = 16 << 10

// Bridge answers requests with a dispatcher. A zero limit means its
// default; limits are read when Serve first runs.
type Bridge struct {
	Dispatcher *tools.Dispatcher
	// DefaultAgent is injected as agent_id when absent (DefaultAgentID if
	// empty).
	DefaultAgent string
	// Logf receives connection-level errors (nil: discarded).
	Logf func(format string, args ...any)

	// MaxConnections bounds the connections served at once; one more is
	// answered with an error line and closed.
	MaxConnections int
	// IdleTimeout closes a connection that sends no request for this long.
	IdleTimeout time.Duration
	// ReadTimeout bounds the time from the first byte of a request line to
	// its newline, so a line that never ends cannot hold a connection.
	ReadTimeout time.Duration
	// WriteTimeout bounds writing one response, so a client that stops
	// reading cannot pin the connection.
	WriteTimeout time.Duration
	// MaxRequestBytes bounds one request line, newline included. The
	// dispatcher bounds arguments far lower (strings 8 KiB, seek's traces
	// 1 MiB).
	MaxRequestBytes int
	// MaxBufferedBytes bounds the bytes of request lines held across all
	// connections at once.
	MaxBufferedBytes int64

	once      sync.Once
	slots     chan struct{}
	buffered  budget
	conns     atomic.Int64
	refused   atomic.Int64
	discarded atomic.Int64
}

// Stats is a snapshot of the bridge's load.
type Stats struct {
	Connections       int64 // being served now
	Refused           int64 // turned away at MaxConnections
	Discarded         int64 // lines dropped for MaxRequestBytes or MaxBufferedBytes
	BufferedBytes     int64 // request bytes held now across connections
	PeakBufferedBytes int64 // the most ever held at once
}

// Stats reports the bridge's current load.
func (b *Bridge) Stats() Stats {
	return Stats{
		Connections:       b.conns.Load(),
		Refused:           b.refused.Load(),
		Discarded:         b.discarded.Load(),
		BufferedBytes:     b.buffered.used.Load(),
		PeakBufferedBytes: b.buffered.peak.Load(),
	}
}

func (b *Bridge) init() {
	b.once.Do(func() {
		b.slots = make(chan struct{}, orDefault(b.MaxConnections, DefaultMaxConnections))
		b.buffered.limit = orDefault(b.MaxBufferedBytes, DefaultMaxBufferedBytes)
	})
}

func orDefault[T int | int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

func (b *Bridge) logf(format string, args ...any) {
	if b.Logf != nil {
		b.Logf(format, args...)
	}
}

// Serve accepts connections until ctx ends or the listener is closed,
// serving each on its own goroutine. Other accept errors (EMFILE when file
// descriptors run out) are retried after a pause that doubles from 5 ms
// to 1 s, as net/http does. It waits for open connections to finish their
// current request before returning, and always returns nil.
func (b *Bridge) Serve(ctx context.Context, ln net.Listener) error {
	b.init()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer context.AfterFunc(ctx, func() { ln.Close() })()
	var delay time.Duration
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			b.logf("openclaw accept: %v; retrying in %v", err, delay)
			if !sleep(ctx, delay) {
				return nil
			}
			continue
		}
		delay = 0
		select {
		case b.slots <- struct{}{}:
		default:
			b.refuse(conn)
			continue
		}
		b.conns.Add(1)
		wg.Go(func() {
			defer func() { b.conns.Add(-1); <-b.slots }()
			b.serveConn(ctx, conn)
		})
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// refuse answers a connection over the limit and closes it. A fresh
// socket's send buffer is empty, so the write does not block the accept
// loop; the deadline is only a guard.
func (b *Bridge) refuse(conn net.Conn) {
	b.refused.Add(1)
	conn.SetWriteDeadline(time.Now().Add(time.Second))
	writeResponse(conn, Response{Error: &tools.Error{
		Message: fmt.Sprintf("too many connections: this bridge serves at most %d at once", cap(b.slots)),
		Hint:    "Close connections you are not using, or retry in a moment; the limit is m1nd-openclaw --max-connections.",
	}})
	conn.Close()
}

func (b *Bridge) serveConn(ctx context.Context, conn net.Conn) {
	defer conn.Close()
	// Shutdown interrupts a read in progress; readRequest checks ctx after
	// each deadline it sets, so it cannot undo this one unnoticed.
	defer context.AfterFunc(ctx, func() { conn.SetReadDeadline(time.Now()) })()
	lr := &lineReader{
		r:      bufio.NewReaderSize(conn, readBufferSize),
		max:    orDefault(b.MaxRequestBytes, DefaultMaxRequestBytes),
		budget: &b.buffered,
	}
	defer lr.release()
	w := bufio.NewWriter(conn)
	reply := func(resp Response) bool {
		conn.SetWriteDeadline(time.Now().Add(orDefault(b.WriteTimeout, DefaultWriteTimeout)))
		return writeResponse(w, resp) == nil && w.Flush() == nil
	}
	idleUntil := time.Now().Add(orDefault(b.IdleTimeout, DefaultIdleTimeout))
	for {
		line, err := b.readRequest(ctx, conn, lr, idleUntil)
		var d *discardedError
		switch {
		case err != nil && ctx.Err() != nil:
			return
		case errors.As(err, &d):
			b.discarded.Add(1)
			if !reply(b.discardedResponse(d)) || d.cause != nil {
				return
			}
			continue
		case err != nil && !errors.Is(err, io.EOF):
			if resp, ok := b.timeoutResponse(err); ok {
				reply(resp)
			} else {
				b.logf("openclaw connection: %v", err)
			}
			return
		}
		// Blank lines are not requests: they do not keep a connection alive.
		if len(bytes.TrimSpace(line)) > 0 {
			if !reply(b.Handle(ctx, line)) {
				return
			}
			lr.release()
			idleUntil = time.Now().Add(orDefault(b.IdleTimeout, DefaultIdleTimeout))
		}
		if err != nil {
			return
		}
	}
}

// Sentinel read errors for the two timeouts.
var (
	errIdle = errors.New("idle timeout")
	errSlow = errors.New("read timeout")
)

// readRequest waits until idleUntil for the first byte of a line, then
// ReadTimeout for the rest of it. Each deadline is set before ctx is
// checked, so a shutdown racing with it is not missed.
func (b *Bridge) readRequest(ctx context.Context, conn net.Conn, lr *lineReader, idleUntil time.Time) ([]byte, error) {
	conn.SetReadDeadline(idleUntil)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if _, err := lr.r.Peek(1); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, errIdle
		}
		return nil, err
	}
	conn.SetReadDeadline(time.Now().Add(orDefault(b.ReadTimeout, DefaultReadTimeout)))
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	line, err := lr.next()
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return nil, errSlow
	}
	return line, err
}

func (b *Bridge) timeoutResponse(err error) (Response, bool) {
	switch err {
	case errIdle:
		return Response{Error: &tools.Error{
			Message: fmt.Sprintf("connection closed: no request for %v", orDefault(b.IdleTimeout, DefaultIdleTimeout)),
			Hint:    "Reconnect when you have a request; idle connections are closed (m1nd-openclaw --idle-timeout).",
		}}, true
	case errSlow:
		return Response{Error: &tools.Error{
			Message: fmt.Sprintf("connection closed: request line not completed within %v", orDefault(b.ReadTimeout, DefaultReadTimeout)),
			Hint:    "Write each request as one line ending in a newline, all at once (m1nd-openclaw --read-timeout).",
		}}, true
	}
	return Response{}, false
}

func (b *Bridge) discardedResponse(d *discardedError) Response {
	if d.reason == errOverBudget {
		return Response{ID: d.id, Error: &tools.Error{
			Message: fmt.Sprintf("request discarded: large requests from all connections already hold the bridge's %d-byte buffer budget", b.buffered.limit),
			Hint:    "Retry in a moment or send a smaller request (the budget is m1nd-openclaw --max-buffered-bytes).",
		}}
	}
	return Response{ID: d.id, Error: &tools.Error{
		Message: fmt.Sprintf("request discarded: the line exceeds %d bytes", orDefault(b.MaxRequestBytes, DefaultMaxRequestBytes)),
		Hint:    "Tool arguments are bounded far below this (strings 8 KiB, seek's pasted traces 1 MiB): send less, one JSON object per line ending in a newline (the limit is m1nd-openclaw --max-request-bytes).",
	}}
}
