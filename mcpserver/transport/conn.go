package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Stdio is an mcp.Transport over a reader and a writer (normally os.Stdin
// and os.Stdout) that speaks both framings.
type Stdio struct {
	In  io.Reader
	Out io.Writer
	// MaxMessage bounds one inbound message; 0 means DefaultMaxMessage.
	MaxMessage int
	// OnEOF, if set, is called once when the input ends.
	OnEOF func()
	// Barrier, if set, marks requests that must finish before any later
	// message is handed to the server (the server's exclusive tools):
	// requests are otherwise handled concurrently, and a pipelined client
	// expects an ingest to complete before the query it sent next.
	Barrier func(req *jsonrpc.Request) bool
}

// Connect implements mcp.Transport.
func (t *Stdio) Connect(context.Context) (mcp.Connection, error) {
	c := NewConn(t.In, t.Out, t.MaxMessage, t.OnEOF)
	c.barrier = t.Barrier
	return c, nil
}

// Conn is a JSON-RPC connection over a byte stream with per-message framing
// detection. It implements mcp.Connection.
type Conn struct {
	out     io.Writer
	writeMu sync.Mutex

	incoming chan []jsonrpc.Message
	closed   chan struct{}
	once     sync.Once
	closer   io.Closer

	queue []jsonrpc.Message // rest of the current batch (Read is serial)

	barrier func(*jsonrpc.Request) bool
	holdFor *jsonrpc.ID // barrier request still unanswered (Read is serial)

	mu      sync.Mutex
	pending map[jsonrpc.ID]*route // request id → how to answer it
	// answered is signalled after each response write, so a Read waiting
	// at end of input can tell when every request has its answer.
	answered chan struct{}
	last     atomic.Uint32 // framing of the latest inbound message
}

// route says how a response must go back: its framing, and the batch it
// belongs to, if any.
type route struct {
	mode  Mode
	batch *batch
}

// batch collects the responses to one inbound batch; it is written as one
// array when the last one arrives.
type batch struct {
	mode      Mode
	waiting   int
	responses []json.RawMessage
}

// NewConn starts reading in from a goroutine (so Close can unblock a Read
// stuck on stdin) and returns the connection.
func NewConn(in io.Reader, out io.Writer, max int, onEOF func()) *Conn {
	c := &Conn{
		out:      out,
		incoming: make(chan []jsonrpc.Message),
		closed:   make(chan struct{}),
		pending:  map[jsonrpc.ID]*route{},
		answered: make(chan struct{}, 1),
	}
	if cl, ok := in.(io.Closer); ok {
		c.closer = cl
	}
	go c.readLoop(NewReader(in, max), onEOF)
	return c
}

func (c *Conn) readLoop(fr *Reader, onEOF func()) {
	defer close(c.incoming)
	for {
		body, mode, err := fr.Next()
		var fe *FrameError
		switch {
		case errors.As(err, &fe):
			c.writeError(fe.Mode, nil, jsonrpc.CodeParseError, "Parse error: "+fe.Msg)
			continue
		case err != nil:
			if onEOF != nil {
				onEOF()
			}
			return
		}
		c.last.Store(uint32(mode))
		msgs := c.decode(body, mode)
		if len(msgs) == 0 {
			continue
		}
		select {
		case c.incoming <- msgs:
		case <-c.closed:
			return
		}
	}
}

// decode turns one frame into messages, answering what cannot be decoded.
func (c *Conn) decode(body []byte, mode Mode) []jsonrpc.Message {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var raws []json.RawMessage
		if err := json.Unmarshal(trimmed, &raws); err != nil {
			c.writeError(mode, nil, jsonrpc.CodeParseError, "Parse error: "+err.Error())
			return nil
		}
		if len(raws) == 0 {
			c.writeError(mode, nil, jsonrpc.CodeInvalidRequest, "Invalid Request: empty batch")
			return nil
		}
		b := &batch{mode: mode}
		var msgs []jsonrpc.Message
		c.mu.Lock()
		for _, raw := range raws {
			msg, err := jsonrpc.DecodeMessage(raw)
			if err != nil {
				b.responses = append(b.responses, errorBody(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error()))
				continue
			}
			if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
				if _, dup := c.pending[req.ID]; dup {
					b.responses = append(b.responses, errorBody(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: duplicate id in flight"))
					continue
				}
				b.waiting++
				c.pending[req.ID] = &route{mode: mode, batch: b}
			}
			msgs = append(msgs, msg)
		}
		c.mu.Unlock()
		if b.waiting == 0 && len(b.responses) > 0 {
			c.writeBatch(b)
		}
		return msgs
	}
	msg, err := jsonrpc.DecodeMessage(trimmed)
	if err != nil {
		code := jsonrpc.CodeInvalidRequest
		if !json.Valid(trimmed) {
			code = jsonrpc.CodeParseError
		}
		c.writeError(mode, idOf(trimmed), int64(code), codeText(code)+": "+err.Error())
		return nil
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.mu.Lock()
		c.pending[req.ID] = &route{mode: mode}
		c.mu.Unlock()
	}
	return []jsonrpc.Message{msg}
}

func codeText(code int) string {
	if code == jsonrpc.CodeParseError {
		return "Parse error"
	}
	return "Invalid Request"
}

// idOf salvages the id of an otherwise invalid request so the error can be
// correlated; nil when there is none.
func idOf(body []byte) any {
	var probe struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(body, &probe) != nil {
		return nil
	}
	switch probe.ID.(type) {
	case string, float64:
		return probe.ID
	}
	return nil
}

func errorBody(id any, code int64, msg string) json.RawMessage {
	b, _ := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	return b
}

func (c *Conn) writeError(mode Mode, id any, code int64, msg string) {
	c.writeRaw(mode, errorBody(id, code, msg))
}

func (c *Conn) writeRaw(mode Mode, body []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	return WriteFrame(c.out, mode, body)
}

func (c *Conn) writeBatch(b *batch) error {
	body, err := json.Marshal(b.responses)
	if err != nil {
		return err
	}
	return c.writeRaw(b.mode, body)
}

// Read implements mcp.Connection.
func (c *Conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := c.waitBarrier(ctx); err != nil {
		return nil, err
	}
	if len(c.queue) > 0 {
		m := c.queue[0]
		c.queue = c.queue[1:]
		return c.mark(m), nil
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case msgs, ok := <-c.incoming:
		if !ok {
			return nil, c.drain(ctx)
		}
		c.queue = msgs[1:]
		return c.mark(msgs[0]), nil
	}
}

// mark remembers m when it is a barrier request.
func (c *Conn) mark(m jsonrpc.Message) jsonrpc.Message {
	if req, ok := m.(*jsonrpc.Request); ok && req.IsCall() && c.barrier != nil && c.barrier(req) {
		id := req.ID
		c.holdFor = &id
	}
	return m
}

// waitBarrier blocks while the last barrier request is unanswered.
func (c *Conn) waitBarrier(ctx context.Context) error {
	for c.holdFor != nil {
		c.mu.Lock()
		_, open := c.pending[*c.holdFor]
		c.mu.Unlock()
		if !open {
			c.holdFor = nil
			return nil
		}
		select {
		case <-c.answered:
		case <-c.closed:
			return io.EOF
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// drain waits, at end of input, until every request read so far has been
// answered: a client that writes its requests and closes stdin (a script,
// a pipe) still gets all its responses. Then it reports io.EOF.
func (c *Conn) drain(ctx context.Context) error {
	for {
		c.mu.Lock()
		n := len(c.pending)
		c.mu.Unlock()
		if n == 0 {
			return io.EOF
		}
		select {
		case <-c.answered:
		case <-c.closed:
			return io.EOF
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Write implements mcp.Connection: a response goes back in its request's
// framing (inside its batch, if it came in one); anything the server
// initiates uses the framing the client used last.
func (c *Conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	select {
	case <-c.closed:
		return mcp.ErrConnectionClosed
	default:
	}
	body, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	mode := Mode(c.last.Load())
	if resp, ok := msg.(*jsonrpc.Response); ok {
		defer func() {
			select {
			case c.answered <- struct{}{}:
			default:
			}
		}()
		c.mu.Lock()
		r := c.pending[resp.ID]
		delete(c.pending, resp.ID)
		if r != nil && r.batch != nil {
			r.batch.responses = append(r.batch.responses, body)
			r.batch.waiting--
			done := r.batch.waiting == 0
			c.mu.Unlock()
			if done {
				return c.writeBatch(r.batch)
			}
			return nil
		}
		c.mu.Unlock()
		if r != nil {
			mode = r.mode
		}
	}
	return c.writeRaw(mode, body)
}

// Close implements mcp.Connection.
func (c *Conn) Close() error {
	var err error
	c.once.Do(func() {
		close(c.closed)
		if c.closer != nil {
			err = c.closer.Close()
		}
	})
	return err
}

// SessionID implements mcp.Connection; stdio has a single session.
func (c *Conn) SessionID() string { return "" }
