package mcpserver

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Log is the server's log, on log/slog. Every record at Info or above goes
// to stderr through the process's logf (lines keep their "[m1nd] " form);
// every record a connected client asked for with logging/setLevel also goes
// to that client as an MCP log message. stdout carries protocol messages
// only.
type Log struct {
	logf   func(string, ...any)
	logger *slog.Logger

	mu      sync.Mutex
	clients map[*mcp.ServerSession]*clientSink
}

// NewLog returns a log writing stderr lines through logf.
func NewLog(logf func(string, ...any)) *Log {
	l := &Log{logf: logf, clients: map[*mcp.ServerSession]*clientSink{}}
	l.logger = slog.New(&logHandler{l: l})
	return l
}

// Logger returns the structured logger.
func (l *Log) Logger() *slog.Logger { return l.logger }

// Printf logs a line at Info: it is the logf the session, the attach
// socket and the startup ingest take.
func (l *Log) Printf(format string, a ...any) { l.logger.Info(fmt.Sprintf(format, a...)) }

// clientSink forwards records to one client. A queue decouples the caller
// from the client's connection: a client that stops reading must not stall
// the code that logs (a save holding a lock), so records beyond the queue
// are dropped for it (stderr still has them).
type clientSink struct {
	h     slog.Handler
	queue chan queued
	// level is the slog level the client asked for with logging/setLevel;
	// set is false until it asks. Records are judged against it when they
	// are logged: the SDK judges again when it sends, from the queue, and
	// a record logged before the client's setLevel must not pass then.
	level atomic.Int64
	set   atomic.Bool
}

// trackLevels records each client's logging/setLevel once it succeeded.
func (l *Log) trackLevels() mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method != "logging/setLevel" || err != nil {
				return res, err
			}
			p, ok := req.GetParams().(*mcp.SetLoggingLevelParams)
			ss, ok2 := req.GetSession().(*mcp.ServerSession)
			if !ok || !ok2 || p == nil {
				return res, err
			}
			l.mu.Lock()
			if s := l.clients[ss]; s != nil {
				s.level.Store(int64(slogLevel(p.Level)))
				s.set.Store(true)
			}
			l.mu.Unlock()
			return res, err
		}
	}
}

// slogLevel maps an MCP logging level to slog's scale (debug −4 … error
// 8, the levels above error beyond it).
func slogLevel(l mcp.LoggingLevel) slog.Level {
	switch l {
	case "debug":
		return slog.LevelDebug
	case "info", "notice":
		return slog.LevelInfo
	case "warning":
		return slog.LevelWarn
	case "error":
		return slog.LevelError
	}
	return slog.LevelError + 4 // critical, alert, emergency
}

type queued struct {
	h slog.Handler
	r slog.Record
}

const clientLogQueue = 256

// attach starts forwarding to ss; the returned func stops it.
func (l *Log) attach(ss *mcp.ServerSession) func() {
	s := &clientSink{h: mcp.NewLoggingHandler(ss, &mcp.LoggingHandlerOptions{LoggerName: "m1nd"}), queue: make(chan queued, clientLogQueue)}
	go func() {
		for q := range s.queue {
			q.h.Handle(context.Background(), q.r)
		}
	}()
	l.mu.Lock()
	l.clients[ss] = s
	l.mu.Unlock()
	return func() {
		l.mu.Lock()
		delete(l.clients, ss)
		close(s.queue)
		l.mu.Unlock()
	}
}

// logHandler is Log's slog.Handler. WithAttrs and WithGroup are kept as
// steps replayed on each client's handler, and as prefixed attributes for
// stderr.
type logHandler struct {
	l      *Log
	prefix string
	attrs  []slog.Attr
	steps  []func(slog.Handler) slog.Handler
}

func (h *logHandler) Enabled(ctx context.Context, level slog.Level) bool {
	if level >= slog.LevelInfo {
		return true
	}
	h.l.mu.Lock()
	defer h.l.mu.Unlock()
	return len(h.l.clients) > 0
}

func (h *logHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelInfo {
		h.l.logf("%s", h.line(r))
	}
	h.l.mu.Lock()
	defer h.l.mu.Unlock()
	for _, s := range h.l.clients {
		if !s.set.Load() || int64(r.Level) < s.level.Load() {
			continue
		}
		ch := s.h
		for _, step := range h.steps {
			ch = step(ch)
		}
		if !ch.Enabled(ctx, r.Level) {
			continue
		}
		select {
		case s.queue <- queued{ch, r.Clone()}:
		default:
		}
	}
	return nil
}

// line renders a record for stderr: the message, then key=value pairs.
func (h *logHandler) line(r slog.Record) string {
	var b strings.Builder
	if r.Level >= slog.LevelWarn {
		b.WriteString(r.Level.String() + ": ")
	}
	b.WriteString(r.Message)
	add := func(a slog.Attr) bool {
		if !a.Equal(slog.Attr{}) {
			fmt.Fprintf(&b, " %s%s=%v", h.prefix, a.Key, a.Value)
		}
		return true
	}
	for _, a := range h.attrs {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
	}
	r.Attrs(add)
	return b.String()
}

func (h *logHandler) WithAttrs(as []slog.Attr) slog.Handler {
	h2 := *h
	h2.attrs = append(h2.attrs[:len(h2.attrs):len(h2.attrs)], prefixed(h.prefix, as)...)
	h2.steps = append(h2.steps[:len(h2.steps):len(h2.steps)], func(x slog.Handler) slog.Handler { return x.WithAttrs(as) })
	return &h2
}

func (h *logHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	h2 := *h
	h2.prefix = h.prefix + name + "."
	h2.steps = append(h2.steps[:len(h2.steps):len(h2.steps)], func(x slog.Handler) slog.Handler { return x.WithGroup(name) })
	return &h2
}

func prefixed(prefix string, as []slog.Attr) []slog.Attr {
	out := make([]slog.Attr, len(as))
	for i, a := range as {
		out[i] = slog.Attr{Key: prefix + a.Key, Value: a.Value}
	}
	return out
}
