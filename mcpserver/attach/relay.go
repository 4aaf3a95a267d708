package attach

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

// Conn is a connection to the server of a runtime directory, past its
// Hello: a Client, or one end of a Pair whose other end this process
// serves.
type Conn interface {
	io.Reader
	io.Writer
	CloseWrite() error
	Close() error
}

// Read reads the owner's MCP messages (after the Hello).
func (c *Client) Read(p []byte) (int, error) { return c.r.Read(p) }

// Write sends MCP messages to the owner.
func (c *Client) Write(p []byte) (int, error) { return c.conn.Write(p) }

// CloseWrite ends what this side sends; the owner answers what it got,
// then closes.
func (c *Client) CloseWrite() error { return c.conn.CloseWrite() }

// Pair returns the two ends of a connected Unix socket pair: a process
// that takes a runtime directory over serves one end as its relay's
// session and hands the relay the other.
func Pair() (*net.UnixConn, *net.UnixConn, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("socket pair: %w", err)
	}
	var ends [2]*net.UnixConn
	for i, fd := range fds {
		syscall.CloseOnExec(fd)
		f := os.NewFile(uintptr(fd), "m1nd-pair")
		c, err := net.FileConn(f)
		f.Close()
		if err != nil {
			if i == 1 {
				ends[0].Close()
			} else {
				syscall.Close(fds[1])
			}
			return nil, nil, fmt.Errorf("socket pair: %w", err)
		}
		ends[i] = c.(*net.UnixConn)
	}
	return ends[0], ends[1], nil
}

// Dialer connects a relay to the server of its runtime directory after the
// one it used stopped: the process that holds the directory now, or this
// process once it has taken the directory over. It waits for either, and
// fails only when neither comes.
type Dialer func(ctx context.Context) (Conn, Hello, error)

// RetryableCode is the JSON-RPC error code of the answer a relay gives a
// call the server stopped during; the error's data says
// {"retryable": true}.
const RetryableCode = -32000

// Relay carries one editor's MCP session (its stdio) to the server of the
// runtime directory, and over to the next server when that one stops.
//
// It reads the messages both ways, so it knows the calls in flight and
// the client's initialize. When the server hands the session over
// (transport.HandoverMethod), the calls it called off are answered with a
// retryable error and those it never read are sent again to the next
// server; when the connection is lost without that notification (the
// server was killed), every call in flight gets the retryable error. The
// relay then dials (Dial), replays the client's initialize (its answer is
// not passed on: the client saw the first one), notifications/initialized
// and logging/setLevel, and carries on: the client sees one session
// throughout.
//
// Batches (an MCP version before 2025-06-18) are relayed, but a batch in
// flight at a handover is answered with errors, never sent again.
type Relay struct {
	Dial Dialer
	Logf func(format string, args ...any)

	out   io.Writer
	outMu sync.Mutex

	mu          sync.Mutex
	cur         *link // nil while the relay dials
	init        *message
	initialized *message
	setLevel    *message
	pending     []*message          // requests not yet answered, in the order sent
	open        map[string]*message // id key → its pending message
	later       []*message          // notifications the client sent while the relay dialed
	stdinDone   bool
	own         map[string]chan []byte // the relay's replayed requests → their answers
	seq         int
}

// message is one frame of the client's: a request, a notification, a
// response to the server, or a batch.
type message struct {
	body   []byte
	mode   transport.Mode
	batch  bool
	method string
	ids    []json.RawMessage // the requests' ids
	waits  int               // how many of ids are unanswered
	sentOn *link             // the last link it was written to whole
}

// link is one connection to a server.
type link struct {
	conn  Conn
	hello Hello
	q     *sendQueue
	ended chan struct{} // the reader stopped
	bye   *transport.HandoverParams
}

// Run relays stdin and stdout through first, the connection to the server
// that greeted with hello, and after it through the connections Dial
// makes. It returns nil once stdin has ended and every call is answered,
// ctx's error when ctx ends, or the error of a Dial that failed (after
// answering the calls in flight with it).
func (r *Relay) Run(ctx context.Context, first Conn, hello Hello, stdin io.Reader, stdout io.Writer) error {
	if r.Logf == nil {
		r.Logf = func(string, ...any) {}
	}
	r.out = stdout
	r.open = map[string]*message{}
	r.own = map[string]chan []byte{}
	l := r.start(first, hello)
	r.mu.Lock()
	r.cur = l
	r.mu.Unlock()
	go r.readClient(stdin)
	for {
		select {
		case <-l.ended:
		case <-ctx.Done():
			l.conn.Close()
			return ctx.Err()
		}
		l.q.close()
		l.conn.Close()
		<-l.q.done // what was written whole is known before settling
		lostAt := time.Now()
		lost, resend, done := r.settle(l)
		for _, f := range lost {
			r.write(f.mode, f.body)
		}
		if done {
			return nil
		}
		if l.bye != nil {
			r.Logf("the server (pid %d) stopped and handed this session over; %d call(s) called off, %d to send again; finding the next server", l.hello.Pid, len(lost), resend)
		} else {
			r.Logf("the connection to the server (pid %d) was lost (was it killed?); calls in flight were answered with a retryable error; finding the next server", l.hello.Pid)
		}
		for {
			conn, hello, err := r.Dial(ctx)
			if err != nil {
				r.fail(fmt.Sprintf("the m1nd server (pid %d) stopped and no other could take over (%v); restart this MCP server in your editor", l.hello.Pid, err))
				return err
			}
			next := r.start(conn, hello)
			if err := r.resume(ctx, next); err != nil {
				next.q.close()
				conn.Close()
				if ctx.Err() != nil {
					return ctx.Err()
				}
				r.Logf("resuming the session on the server (pid %d): %v; trying again", hello.Pid, err)
				continue
			}
			r.Logf("the session continues on the server pid %d, %v after the last one stopped", hello.Pid, time.Since(lostAt).Round(time.Millisecond))
			l = next
			break
		}
	}
}

// start begins reading from and writing to conn.
func (r *Relay) start(conn Conn, hello Hello) *link {
	l := &link{conn: conn, hello: hello, q: newSendQueue(), ended: make(chan struct{})}
	l.q.sent = func(m *message) {
		r.mu.Lock()
		m.sentOn = l
		r.mu.Unlock()
	}
	go l.q.run(conn)
	go r.readServer(l)
	return l
}

// resume replays the client's handshake on l, then sends what waits: the
// calls the previous server never read, and what the client sent since.
func (r *Relay) resume(ctx context.Context, l *link) error {
	r.mu.Lock()
	init, initialized, setLevel := r.init, r.initialized, r.setLevel
	if init != nil && init.waits > 0 {
		init = nil // never answered: it is sent again with the other calls
	}
	r.mu.Unlock()
	if init != nil {
		if err := r.replay(ctx, l, init); err != nil {
			return fmt.Errorf("initialize: %w", err)
		}
	}
	if initialized != nil {
		l.q.push(initialized.mode, initialized.body)
	}
	if setLevel != nil {
		if err := r.replay(ctx, l, setLevel); err != nil {
			return fmt.Errorf("logging/setLevel: %w", err)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range r.pending {
		l.q.pushMsg(m)
	}
	for _, m := range r.later {
		l.q.pushMsg(m)
	}
	r.later = nil
	if r.stdinDone {
		l.q.closeWrite()
	}
	r.cur = l
	return nil
}

// replayWait bounds the wait for the answer to a replayed request.
const replayWait = time.Minute

// replay sends m again under an id of the relay's own and waits for its
// answer, which the client does not see.
func (r *Relay) replay(ctx context.Context, l *link, m *message) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(m.body, &fields); err != nil {
		return err
	}
	r.mu.Lock()
	r.seq++
	id, _ := json.Marshal(fmt.Sprintf("m1nd-relay-%d", r.seq))
	ch := make(chan []byte, 1)
	r.own[idKey(id)] = ch
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.own, idKey(id))
		r.mu.Unlock()
	}()
	fields["id"] = id
	body, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	l.q.push(m.mode, body)
	select {
	case resp := <-ch:
		var res struct {
			Error *struct{ Message string } `json:"error"`
		}
		if json.Unmarshal(resp, &res) == nil && res.Error != nil {
			return errors.New(res.Error.Message)
		}
		return nil
	case <-l.ended:
		return errors.New("the connection ended")
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(replayWait):
		return fmt.Errorf("no answer within %v", replayWait)
	}
}

// readClient reads the client's messages and sends them on.
func (r *Relay) readClient(stdin io.Reader) {
	fr := transport.NewReader(stdin, 0)
	for {
		body, mode, err := fr.Next()
		var fe *transport.FrameError
		if errors.As(err, &fe) {
			// What the server would answer; the bad bytes are gone.
			r.write(fe.Mode, errorBody(fe.ID, -32700, "Parse error: "+fe.Msg, false))
			continue
		}
		if err != nil {
			r.mu.Lock()
			r.stdinDone = true
			if r.cur != nil {
				r.cur.q.closeWrite()
			}
			r.mu.Unlock()
			return
		}
		r.fromClient(bytes.Clone(body), mode)
	}
}

func (r *Relay) fromClient(body []byte, mode transport.Mode) {
	m := &message{body: body, mode: mode}
	trimmed := bytes.TrimSpace(body)
	isCall := false
	if len(trimmed) > 0 && trimmed[0] == '[' {
		m.batch = true
		elems, _ := transport.SplitBatch(trimmed)
		for _, e := range elems {
			if id, hasMethod := transport.Peek(e); id != nil && hasMethod {
				m.ids = append(m.ids, bytes.Clone(id))
			}
		}
		isCall = len(m.ids) > 0
	} else {
		id, hasMethod := transport.Peek(trimmed)
		if hasMethod {
			m.method = methodOf(trimmed)
		}
		if hasMethod && id != nil {
			m.ids = []json.RawMessage{bytes.Clone(id)}
			isCall = true
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch m.method {
	case "initialize":
		r.init = m
	case "notifications/initialized":
		r.initialized = m
	case "logging/setLevel":
		r.setLevel = m
	}
	if isCall {
		for _, id := range m.ids {
			r.open[idKey(id)] = m
		}
		m.waits = len(m.ids)
		r.pending = append(r.pending, m)
	}
	switch {
	case r.cur != nil:
		r.cur.q.pushMsg(m)
	case !isCall && m.method != "" && m.method != "notifications/initialized":
		// A notification while the relay dials (a response to the
		// stopped server's request is no one's business any more).
		r.later = append(r.later, m)
	}
}

// readServer passes the server's messages to the client until the
// connection ends or the server hands the session over.
func (r *Relay) readServer(l *link) {
	defer close(l.ended)
	fr := transport.NewReader(l.conn, math.MaxInt32)
	for {
		body, mode, err := fr.Next()
		var fe *transport.FrameError
		if errors.As(err, &fe) {
			continue
		}
		if err != nil {
			return
		}
		trimmed := bytes.TrimSpace(body)
		if len(trimmed) > 0 && trimmed[0] == '[' {
			elems, _ := transport.SplitBatch(trimmed)
			for _, e := range elems {
				if id, hasMethod := transport.Peek(e); id != nil && !hasMethod {
					r.answered(id)
				}
			}
			r.write(mode, body)
			continue
		}
		id, hasMethod := transport.Peek(trimmed)
		switch {
		case hasMethod && id == nil && bytes.Contains(trimmed, []byte(transport.HandoverMethod)) && methodOf(trimmed) == transport.HandoverMethod:
			var n struct {
				Params transport.HandoverParams `json:"params"`
			}
			json.Unmarshal(trimmed, &n)
			l.bye = &n.Params
			return
		case !hasMethod && id != nil:
			r.mu.Lock()
			ch, own := r.own[idKey(id)]
			r.mu.Unlock()
			if own {
				select {
				case ch <- bytes.Clone(trimmed):
				default:
				}
				continue
			}
			r.answered(id)
		}
		r.write(mode, body)
	}
}

// answered forgets a call the server answered.
func (r *Relay) answered(id json.RawMessage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := idKey(id)
	m := r.open[k]
	if m == nil {
		return
	}
	delete(r.open, k)
	if m.waits--; m.waits == 0 {
		r.dropPending(m)
	}
}

func (r *Relay) dropPending(m *message) {
	for i, p := range r.pending {
		if p == m {
			r.pending = append(r.pending[:i], r.pending[i+1:]...)
			return
		}
	}
}

type frame struct {
	mode transport.Mode
	body []byte
	m    *message // the client's message it carries, if any
}

// settle decides, once l has ended, the fate of each call in flight: the
// answers to give now (retryable errors), the rest kept to send again.
// done reports that the session is over: stdin ended and nothing waits.
func (r *Relay) settle(l *link) (lost []frame, resend int, done bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cur = nil
	interrupted := map[string]bool{}
	if l.bye != nil {
		for _, id := range l.bye.Interrupted {
			interrupted[idKey(id)] = true
		}
	}
	var keep []*message
	for _, m := range r.pending {
		var why string
		switch {
		case l.bye == nil && m.sentOn != l:
			// Never written whole to the server that died (a write to a
			// closed socket fails): it cannot have run, so the next
			// server gets it.
			keep = append(keep, m)
			continue
		case l.bye == nil:
			why = fmt.Sprintf("the m1nd server (pid %d) stopped while this call was in flight (it was killed, or crashed): it may or may not have run; the graph continues from its last save in the process that takes over — call it again", l.hello.Pid)
		case m.batch:
			why = fmt.Sprintf("the m1nd server (pid %d) stopped while this batch was in flight and handed the graph over to another process: a batch is not sent again — send it again", l.hello.Pid)
		case interrupted[idKey(m.ids[0])]:
			why = fmt.Sprintf("the m1nd server (pid %d) stopped while this call ran and handed the graph over to another process: the call was called off (an ingest or an edit lands whole or not at all) — call it again", l.hello.Pid)
		default:
			keep = append(keep, m) // never read: it goes to the next server
			continue
		}
		var bodies [][]byte
		for _, id := range m.ids {
			if r.open[idKey(id)] == m {
				bodies = append(bodies, errorBody(id, RetryableCode, why, true))
				delete(r.open, idKey(id))
			}
		}
		if m.batch {
			lost = append(lost, frame{mode: m.mode, body: append(append([]byte{'['}, bytes.Join(bodies, []byte{','})...), ']')})
		} else if len(bodies) > 0 {
			lost = append(lost, frame{mode: m.mode, body: bodies[0]})
		}
	}
	r.pending = keep
	return lost, len(keep), r.stdinDone && len(keep) == 0
}

// fail answers every call in flight with why.
func (r *Relay) fail(why string) {
	r.mu.Lock()
	var lost []frame
	for _, m := range r.pending {
		for _, id := range m.ids {
			lost = append(lost, frame{mode: m.mode, body: errorBody(id, RetryableCode, why, false)})
		}
	}
	r.pending = nil
	r.mu.Unlock()
	for _, f := range lost {
		r.write(f.mode, f.body)
	}
}

func (r *Relay) write(mode transport.Mode, body []byte) {
	r.outMu.Lock()
	defer r.outMu.Unlock()
	transport.WriteFrame(r.out, mode, body) // a client gone shows as the end of stdin
}

// errorBody is a JSON-RPC error response; id is raw JSON (nil: null).
func errorBody(id json.RawMessage, code int, msg string, retryable bool) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	e := map[string]any{"code": code, "message": msg}
	if retryable {
		e["data"] = map[string]any{"retryable": true}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": e})
	return body
}

// methodOf is the method of a message ("" when it has none).
func methodOf(body []byte) string {
	var m struct {
		Method string `json:"method"`
	}
	json.Unmarshal(body, &m)
	return m.Method
}

// idKey identifies an id however it is spelled: strings by value, numbers
// by their text.
func idKey(raw json.RawMessage) string {
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return "s" + s
	}
	return "n" + string(bytes.TrimSpace(raw))
}

// sendQueue writes frames to a connection in order without ever blocking
// the one who queues them (a server busy with an exclusive call stops
// reading; the relay must still pass its answers on).
type sendQueue struct {
	mu     sync.Mutex
	wake   chan struct{}
	frames []frame
	shut   bool // closeWrite after the queued frames
	closed bool
	sent   func(*message) // told of each client message written whole
	done   chan struct{}  // closed when run returns
}

func newSendQueue() *sendQueue {
	return &sendQueue{wake: make(chan struct{}, 1), done: make(chan struct{})}
}

func (q *sendQueue) push(mode transport.Mode, body []byte) {
	q.pushFrame(frame{mode: mode, body: body})
}

// pushMsg queues a client's message; q.sent hears when it is written.
func (q *sendQueue) pushMsg(m *message) {
	q.pushFrame(frame{mode: m.mode, body: m.body, m: m})
}

func (q *sendQueue) pushFrame(f frame) {
	q.mu.Lock()
	q.frames = append(q.frames, f)
	q.mu.Unlock()
	q.poke()
}

func (q *sendQueue) closeWrite() {
	q.mu.Lock()
	q.shut = true
	q.mu.Unlock()
	q.poke()
}

func (q *sendQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.poke()
}

func (q *sendQueue) poke() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *sendQueue) run(c Conn) {
	defer close(q.done)
	for range q.wake {
		q.mu.Lock()
		frames, shut, closed := q.frames, q.shut, q.closed
		q.frames = nil
		q.mu.Unlock()
		if closed {
			return
		}
		for _, f := range frames {
			if transport.WriteFrame(c, f.mode, f.body) != nil {
				return // the reader sees the end too
			}
			if f.m != nil && q.sent != nil {
				q.sent(f.m)
			}
		}
		if shut {
			c.CloseWrite()
			return
		}
	}
}
