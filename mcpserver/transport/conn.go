package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

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
	// Handover, if set, hands the session over when it is closed: the
	// connection stops handing messages to the server, gives the requests
	// already handed over up to HandoverWait to be answered, then sends
	// the HandoverMethod notification and ends (see Conn.Read).
	Handover     <-chan struct{}
	HandoverWait time.Duration
	// Replayable, if set, marks the requests that may run twice (a
	// read-only call, a listing): at a handover they are not waited for
	// but left for the relay to send again.
	Replayable func(req *jsonrpc.Request) bool
	// Call, if set, may answer a plain tools/call on the connection
	// instead of the server (see CallFunc and answerHere).
	Call CallFunc
	// Release, if set, is given each answer a Call function returned once
	// the connection has written or dropped it: the connection keeps no
	// reference to it, so its buffer may be used again.
	Release func(json.RawMessage)

	conn *Conn
}

// Connect implements mcp.Transport.
func (t *Stdio) Connect(context.Context) (mcp.Connection, error) {
	c := NewConn(t.In, t.Out, t.MaxMessage, t.OnEOF)
	c.barrier = t.Barrier
	c.handover, c.handoverWait, c.replayable = t.Handover, t.HandoverWait, t.Replayable
	c.call, c.release = t.Call, t.Release
	t.conn = c
	return c, nil
}

// Conn is the connection Connect made (nil before).
func (t *Stdio) Conn() *Conn { return t.conn }

// HandoverMethod is the notification a server sends on a connection it
// hands over (Stdio.Handover). Of the requests sent on the connection,
// those its params list as "interrupted" (raw ids, as the client sent
// them) ran and were called off: they will never be answered and may have
// had part of their effect. Every other request without an answer may be
// sent to the next server as it is: it was never read, or it was a
// replayable one (Stdio.Replayable) called off.
const HandoverMethod = "notifications/m1nd/handover"

// HandoverParams are the params of a HandoverMethod notification.
type HandoverParams struct {
	Interrupted []json.RawMessage `json:"interrupted"`
}

// Conn is a JSON-RPC connection over a byte stream with per-message framing
// detection. It implements mcp.Connection.
//
// Request ids reach the server as synthetic int64s: the SDK holds an id as
// an int64 or a string, so 1.5, 2^64 or "\u0061" would come back altered.
// The client's own bytes are kept and put back in the response.
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

	seq      atomic.Int64 // last synthetic id
	mu       sync.Mutex
	pending  map[jsonrpc.ID]*route // synthetic id → how to answer it
	inflight map[string]int64      // idKey of a client id → synthetic id
	// answered is signalled after each response write, so a Read waiting
	// at end of input can tell when every request has its answer.
	answered chan struct{}
	last     atomic.Uint32 // framing of the latest inbound message

	handover     <-chan struct{} // nil: never
	handoverWait time.Duration
	replayable   func(*jsonrpc.Request) bool
	handedOver   chan struct{} // closed once the notification is out
	said         bool          // the handover notification is out (writeMu)

	// call answers plain tools/calls here (Stdio.Call); callCtx is their
	// parent, ended by stopCalls when reading ends; calls counts them.
	call      CallFunc
	release   func(json.RawMessage) // Stdio.Release
	callCtx   context.Context
	stopCalls context.CancelFunc
	calls     sync.WaitGroup
}

// route says how a response must go back: its framing, the batch it
// belongs to, if any, and the id the client sent.
type route struct {
	mode  Mode
	batch *batch
	id    json.RawMessage
	syn   int64
	// delivered: Read handed the request to the server (mu); replay: it
	// may run twice (Stdio.Replayable).
	delivered, replay bool
	// cancel calls it off when it runs on the connection (answerHere).
	cancel context.CancelFunc
}

// batch collects the responses to one inbound batch; it is written as one
// array when the last one arrives.
type batch struct {
	mode      Mode
	waiting   int
	responses []json.RawMessage
}

// maxDepth is the go-sdk's nesting limit: deeper messages are refused here,
// where the id can still be read, rather than by its decoder.
const maxDepth = 1000

// NewConn starts reading in from a goroutine (so Close can unblock a Read
// stuck on stdin) and returns the connection.
func NewConn(in io.Reader, out io.Writer, max int, onEOF func()) *Conn {
	c := &Conn{
		out:        out,
		incoming:   make(chan []jsonrpc.Message),
		closed:     make(chan struct{}),
		pending:    map[jsonrpc.ID]*route{},
		inflight:   map[string]int64{},
		answered:   make(chan struct{}, 1),
		handedOver: make(chan struct{}),
	}
	c.callCtx, c.stopCalls = context.WithCancel(context.Background())
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
			c.writeError(fe.Mode, fe.ID, jsonrpc.CodeParseError, "Parse error: "+fe.Msg)
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
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		return c.decodeBatch(body, mode)
	}
	msg, errBody := c.decodeOne(body, mode, nil)
	if errBody != nil {
		c.writeRaw(mode, errBody)
	}
	if msg == nil {
		return nil
	}
	return []jsonrpc.Message{msg}
}

// decodeBatch decodes each element of a batch on its own. A batch that is
// not valid JSON gets one parse error, as JSON-RPC says, unless it is only
// too deep for encoding/json: then each element's id can still be read.
func (c *Conn) decodeBatch(body []byte, mode Mode) []jsonrpc.Message {
	elems, ok := splitArray(body)
	switch {
	case !ok || (!json.Valid(body) && nestingDepth(body) <= 10000):
		c.writeError(mode, nil, jsonrpc.CodeParseError, "Parse error: "+syntaxError(body))
		return nil
	case len(elems) == 0:
		c.writeError(mode, nil, jsonrpc.CodeInvalidRequest, "Invalid Request: empty batch")
		return nil
	}
	b := &batch{mode: mode}
	var msgs []jsonrpc.Message
	for _, raw := range elems {
		msg, errBody := c.decodeOne(raw, mode, b)
		if errBody != nil {
			b.responses = append(b.responses, errBody)
		}
		if msg != nil {
			msgs = append(msgs, msg)
		}
	}
	if b.waiting == 0 && len(b.responses) > 0 {
		c.writeBatch(b)
	}
	return msgs
}

// decodeOne decodes one message, alone or from batch b. It returns the
// message for the server (nil if there is none) or the error response.
func (c *Conn) decodeOne(raw []byte, mode Mode, b *batch) (jsonrpc.Message, json.RawMessage) {
	env := scanEnvelope(raw)
	id := env.id(raw)
	switch {
	case nestingDepth(raw) > maxDepth:
		return nil, errorBody(id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: nested deeper than %d levels", maxDepth))
	case !json.Valid(raw):
		return nil, errorBody(id, jsonrpc.CodeParseError, "Parse error: "+syntaxError(raw))
	}
	var syn int64
	if env.method && id != nil {
		syn = c.seq.Add(1)
		raw = env.withID(raw, syn)
	}
	var msg jsonrpc.Message
	if req, ok := decodeRequest(raw, syn); ok {
		msg = req
	} else {
		var err error
		if msg, err = jsonrpc.DecodeMessage(raw); err != nil {
			return nil, errorBody(id, jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
		}
	}
	if req, ok := msg.(*jsonrpc.Request); ok {
		switch {
		case req.IsCall():
			c.track(syn, id, mode, b)
		case req.Method == "notifications/cancelled" && !c.mapCancel(req):
			return nil, nil
		}
	}
	return msg, nil
}

// track registers a call under its synthetic id.
func (c *Conn) track(syn int64, id json.RawMessage, mode Mode, b *batch) {
	id = bytes.Clone(id) // not a slice of a possibly large body
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending[synID(syn)] = &route{mode: mode, batch: b, id: id, syn: syn}
	c.inflight[idKey(id)] = syn
	if b != nil {
		b.waiting++
	}
}

// synID is the SDK's form of a synthetic id (an int64, well within the
// float64 range MakeID passes it through).
func synID(n int64) jsonrpc.ID {
	id, _ := jsonrpc.MakeID(float64(n))
	return id
}

// mapCancel points a client's notifications/cancelled at the synthetic id
// of the request it names. It returns false when that request is not in
// flight: the notification is then dropped, as its id, handed over as is,
// could name another request.
func (c *Conn) mapCancel(req *jsonrpc.Request) bool {
	var p map[string]json.RawMessage
	if json.Unmarshal(req.Params, &p) != nil || p["requestId"] == nil {
		return true // the SDK rejects it
	}
	c.mu.Lock()
	syn, ok := c.inflight[idKey(p["requestId"])]
	c.mu.Unlock()
	if !ok {
		return false
	}
	p["requestId"] = json.RawMessage(strconv.FormatInt(syn, 10))
	params, err := json.Marshal(p)
	if err != nil {
		return false
	}
	req.Params = params
	return true
}

// idKey identifies a client id however it is spelled: strings by value,
// numbers by their text.
func idKey(raw json.RawMessage) string {
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return "s" + s
	}
	return "n" + string(bytes.TrimSpace(raw))
}

func syntaxError(b []byte) string {
	var v json.RawMessage
	if err := json.Unmarshal(b, &v); err != nil {
		return err.Error()
	}
	return "invalid JSON"
}

// errorBody builds an error response; id is raw JSON (nil for null),
// copied byte for byte.
func errorBody(id json.RawMessage, code int64, msg string) json.RawMessage {
	if id == nil {
		id = json.RawMessage("null")
	}
	e, _ := json.Marshal(struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, msg})
	return slices.Concat([]byte(`{"jsonrpc":"2.0","id":`), id, []byte(`,"error":`), e, []byte("}"))
}

func (c *Conn) writeError(mode Mode, id json.RawMessage, code int64, msg string) {
	c.writeRaw(mode, errorBody(id, code, msg))
}

func (c *Conn) writeRaw(mode Mode, body []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if c.said {
		return nil // handed over: the notification told the client what is unanswered
	}
	return WriteFrame(c.out, mode, body)
}

func (c *Conn) writeBatch(b *batch) error {
	body := []byte{'['}
	for i, r := range b.responses {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, r...)
	}
	return c.writeRaw(b.mode, append(body, ']'))
}

// Read implements mcp.Connection. The calls it answers itself
// (answerHere) are not returned; when reading ends it calls off those
// still running and waits for them, as the SDK does for its own.
func (c *Conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		m, err := c.next(ctx)
		if err != nil {
			c.endCalls()
			return nil, err
		}
		if !c.answerHere(m) {
			return m, nil
		}
	}
}

// next returns the next message for the server, in order.
func (c *Conn) next(ctx context.Context) (jsonrpc.Message, error) {
	if c.handingOver() {
		return nil, c.handOver(ctx)
	}
	if err := c.waitBarrier(ctx); err != nil {
		if err == errHandover {
			return nil, c.handOver(ctx)
		}
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
	case <-c.handover:
		return nil, c.handOver(ctx)
	case msgs, ok := <-c.incoming:
		if !ok {
			return nil, c.drain(ctx)
		}
		c.queue = msgs[1:]
		return c.mark(msgs[0]), nil
	}
}

// errHandover ends a wait inside Read when the session is handed over.
var errHandover = errors.New("handover")

func (c *Conn) handingOver() bool {
	select {
	case <-c.handover:
		return true
	default:
		return false
	}
}

// handOver ends a handed-over session (Stdio.Handover): it gives the
// requests already delivered to the server (but replayable ones) until
// handoverWait to be answered, then writes the HandoverMethod
// notification naming those still unanswered — later answers are dropped
// — and reports io.EOF, on which the server calls off what still runs.
// Messages read from the input but not delivered, and replayable calls,
// are left out: the relay on the other side sends them again.
func (c *Conn) handOver(ctx context.Context) error {
	deadline := time.NewTimer(c.handoverWait)
	defer deadline.Stop()
wait:
	for c.deliveredOpen() > 0 {
		select {
		case <-c.answered:
		case <-deadline.C:
			break wait
		case <-c.closed:
			return io.EOF
		case <-ctx.Done():
			break wait
		}
	}
	c.sayHandover()
	return io.EOF
}

// deliveredOpen counts the requests delivered, not replayable, and not
// yet answered.
func (c *Conn) deliveredOpen() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, r := range c.pending {
		if r.delivered && !r.replay {
			n++
		}
	}
	return n
}

// sayHandover writes the HandoverMethod notification, once.
func (c *Conn) sayHandover() {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if c.said {
		return
	}
	c.mu.Lock()
	var open []*route
	for _, r := range c.pending {
		if r.delivered && !r.replay {
			open = append(open, r)
		}
	}
	c.mu.Unlock()
	slices.SortFunc(open, func(a, b *route) int { return int(a.syn - b.syn) })
	p := HandoverParams{Interrupted: []json.RawMessage{}}
	for _, r := range open {
		p.Interrupted = append(p.Interrupted, r.id)
	}
	params, _ := json.Marshal(p)
	body, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params"`
	}{"2.0", HandoverMethod, params})
	WriteFrame(c.out, Mode(c.last.Load()), body)
	c.said = true
	close(c.handedOver)
}

// HandedOver is closed once the HandoverMethod notification is written:
// the relay knows the fate of every request, and nothing more is written.
func (c *Conn) HandedOver() <-chan struct{} { return c.handedOver }

// mark remembers m when it is a barrier request, and that a call was
// delivered.
func (c *Conn) mark(m jsonrpc.Message) jsonrpc.Message {
	req, ok := m.(*jsonrpc.Request)
	if !ok || !req.IsCall() {
		return m
	}
	replay := c.replayable != nil && c.replayable(req)
	c.mu.Lock()
	if r := c.pending[req.ID]; r != nil {
		r.delivered, r.replay = true, replay
	}
	c.mu.Unlock()
	if c.barrier != nil && c.barrier(req) {
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
		case <-c.handover:
			return errHandover
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
		case <-c.handover:
			return c.handOver(ctx)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Write implements mcp.Connection: a response goes back in its request's
// framing (inside its batch, if it came in one) with the client's id;
// anything the server initiates uses the framing the client used last.
func (c *Conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	select {
	case <-c.closed:
		return mcp.ErrConnectionClosed
	default:
	}
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		body, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			return err
		}
		return c.writeRaw(Mode(c.last.Load()), body)
	}
	c.mu.Lock()
	r := c.pending[resp.ID]
	c.mu.Unlock()
	defer c.finish(resp.ID, r)
	if r != nil && r.batch == nil && resp.Error == nil && len(resp.Result) > 0 {
		return c.writeResult(r, resp.Result)
	}
	body, err := encodeResponse(resp, r)
	switch {
	case err != nil:
		return err
	case r == nil:
		return c.writeRaw(Mode(c.last.Load()), body)
	case r.batch == nil:
		return c.writeRaw(r.mode, body)
	}
	c.mu.Lock()
	r.batch.responses = append(r.batch.responses, body)
	r.batch.waiting--
	done := r.batch.waiting == 0
	c.mu.Unlock()
	if done {
		return c.writeBatch(r.batch)
	}
	return nil
}

// finish forgets an answered request, once its answer is written, and
// wakes whoever waits for answers.
func (c *Conn) finish(id jsonrpc.ID, r *route) {
	if r != nil {
		c.mu.Lock()
		delete(c.pending, id)
		if k := idKey(r.id); c.inflight[k] == r.syn {
			delete(c.inflight, k)
		}
		c.mu.Unlock()
	}
	select {
	case c.answered <- struct{}{}:
	default:
	}
}

// encodeResponse encodes resp with the id its request came with.
func encodeResponse(resp *jsonrpc.Response, r *route) ([]byte, error) {
	body, err := jsonrpc.EncodeMessage(resp)
	if err != nil || r == nil {
		return body, err
	}
	const head = `{"jsonrpc":"2.0","id":`
	rest, ok := bytes.CutPrefix(body, []byte(head+strconv.FormatInt(r.syn, 10)))
	if ok && len(rest) > 0 && (rest[0] == ',' || rest[0] == '}') {
		return slices.Concat([]byte(head), r.id, rest), nil
	}
	return reencode(body, r.id)
}

// reencode swaps the id of an encoded response, should the SDK ever lay
// its fields out differently.
func reencode(body []byte, id json.RawMessage) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, err
	}
	m["id"] = id
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// Close implements mcp.Connection.
func (c *Conn) Close() error {
	var err error
	c.once.Do(func() {
		close(c.closed)
		c.stopCalls()
		if c.closer != nil {
			err = c.closer.Close()
		}
	})
	return err
}

// SessionID implements mcp.Connection; stdio has a single session.
func (c *Conn) SessionID() string { return "" }

// envelope is what a scan of a message's top-level members finds without
// decoding their values, so at any depth: the spans of its "id" members
// and whether it has a "method".
type envelope struct {
	ids    [][2]int
	method bool
}

// scanEnvelope scans the members of the top-level object b, as far as they
// are well-formed (a member counts once the ',' or '}' after it is seen).
func scanEnvelope(b []byte) envelope {
	var e envelope
	i := skipWS(b, 0)
	if i == len(b) || b[i] != '{' {
		return e
	}
	for i = skipWS(b, i+1); i < len(b) && b[i] == '"'; i = skipWS(b, i+1) {
		key, vs, ve, ok := member(b, i)
		if !ok {
			return e
		}
		switch keyName(key) {
		case "id":
			e.ids = append(e.ids, [2]int{vs, ve})
		case "method":
			e.method = true
		}
		if i = skipWS(b, ve); b[i] == '}' {
			return e
		}
	}
	return e
}

// member parses `"key": value` at b[i] followed by ',' or '}'.
func member(b []byte, i int) (key []byte, vs, ve int, ok bool) {
	k := stringEnd(b, i)
	if k < 0 {
		return nil, 0, 0, false
	}
	colon := skipWS(b, k)
	if colon == len(b) || b[colon] != ':' {
		return nil, 0, 0, false
	}
	vs = skipWS(b, colon+1)
	if ve = valueEndAt(b, vs); ve < 0 {
		return nil, 0, 0, false
	}
	if d := skipWS(b, ve); d == len(b) || (b[d] != ',' && b[d] != '}') {
		return nil, 0, 0, false
	}
	return b[i:k], vs, ve, true
}

func keyName(key []byte) string {
	if bytes.IndexByte(key, '\\') < 0 {
		return string(key[1 : len(key)-1])
	}
	var s string
	json.Unmarshal(key, &s)
	return s
}

// id returns the raw id when it is a valid string or number, else nil.
func (e envelope) id(b []byte) json.RawMessage {
	if len(e.ids) == 0 {
		return nil
	}
	s := e.ids[len(e.ids)-1] // the last one wins, as in the decoder
	raw := b[s[0]:s[1]]
	if c := raw[0]; (c == '"' || c == '-' || '0' <= c && c <= '9') && json.Valid(raw) {
		return raw
	}
	return nil
}

// withID returns b with every top-level id replaced by syn.
func (e envelope) withID(b []byte, syn int64) []byte {
	out := make([]byte, 0, len(b)+20)
	last := 0
	for _, s := range e.ids {
		out = append(out, b[last:s[0]]...)
		out = strconv.AppendInt(out, syn, 10)
		last = s[1]
	}
	return append(out, b[last:]...)
}

// salvageID reads the id of a message that cannot be decoded (cut short,
// too long), so its error can still be matched to the request.
func salvageID(b []byte) json.RawMessage {
	return bytes.Clone(scanEnvelope(b).id(b))
}

func skipWS(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// stringEnd returns the end of the string starting at b[i], or -1.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// valueEndAt returns the end of the value starting at b[i] (by structure
// only), or -1.
func valueEndAt(b []byte, i int) int {
	if i == len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		if n, ok := valueEnd(b[i:]); ok {
			return i + n
		}
		return -1
	}
	j := i
	for j < len(b) && !isSpace(b[j]) && bytes.IndexByte([]byte(",:{}[]\""), b[j]) < 0 {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// splitArray splits a top-level array into its elements by structure.
func splitArray(b []byte) ([][]byte, bool) {
	i := skipWS(b, 0)
	if i == len(b) || b[i] != '[' {
		return nil, false
	}
	if i = skipWS(b, i+1); i < len(b) && b[i] == ']' {
		return nil, skipWS(b, i+1) == len(b)
	}
	var elems [][]byte
	for {
		end := valueEndAt(b, i)
		if end < 0 {
			return nil, false
		}
		elems = append(elems, b[i:end])
		switch i = skipWS(b, end); {
		case i == len(b):
			return nil, false
		case b[i] == ']':
			return elems, skipWS(b, i+1) == len(b)
		case b[i] != ',':
			return nil, false
		}
		i = skipWS(b, i+1)
	}
}

// nestingDepth measures nesting the way the go-sdk's decoder does.
func nestingDepth(b []byte) int {
	var s shape
	deepest := 0
	for _, c := range b {
		s.step(c)
		deepest = max(deepest, s.depth)
		if s.depth < 0 {
			s.depth = 0
		}
	}
	return deepest
}

// Peek reads, without decoding the message, its id (raw, as sent; nil when
// it has none or it is not a string or a number) and whether it has a
// method: a request has both, a notification only a method, a response
// only an id. A relay uses it to pair answers with requests.
func Peek(body []byte) (id json.RawMessage, hasMethod bool) {
	e := scanEnvelope(body)
	return e.id(body), e.method
}

// SplitBatch splits a batch (a JSON array) into its elements, by
// structure only; false when body is not one well-formed array.
func SplitBatch(body []byte) ([][]byte, bool) { return splitArray(body) }
