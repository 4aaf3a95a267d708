package attach

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

// fakeServer is the server end of a relay's connection, driven step by
// step by the test.
type fakeServer struct {
	t    *testing.T
	conn *net.UnixConn
	fr   *transport.Reader
}

func newFake(t *testing.T) (*fakeServer, Conn) {
	a, b, err := Pair()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(); b.Close() })
	b.SetReadDeadline(time.Now().Add(2 * time.Minute)) // hang guard only
	return &fakeServer{t: t, conn: b, fr: transport.NewReader(b, 0)}, a
}

type wire struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Error  *struct {
		Code    int
		Message string
		Data    map[string]any
	} `json:"error"`
}

// next reads the next message the relay sent; io.EOF when it half-closed.
func (f *fakeServer) next() (wire, error) {
	f.t.Helper()
	body, _, err := f.fr.Next()
	if err != nil {
		return wire{}, err
	}
	var w wire
	if err := json.Unmarshal(body, &w); err != nil {
		f.t.Fatalf("relay sent %q", body)
	}
	return w, nil
}

func (f *fakeServer) expect(method, id string) wire {
	f.t.Helper()
	w, err := f.next()
	if err != nil || w.Method != method || (id != "" && string(w.ID) != id) {
		f.t.Fatalf("server got %+v (%v), want %s id %s", w, err, method, id)
	}
	return w
}

func (f *fakeServer) answer(id json.RawMessage) {
	transport.WriteFrame(f.conn, transport.Line, []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, id)))
}

// editor is the client side of a relay's stdio.
type editor struct {
	t   *testing.T
	in  *io.PipeWriter
	out *transport.Reader
}

func (e *editor) send(s string) {
	if err := transport.WriteFrame(e.in, transport.Line, []byte(s)); err != nil {
		e.t.Fatal(err)
	}
}

func (e *editor) recv() wire {
	e.t.Helper()
	ch := make(chan wire, 1)
	go func() {
		body, _, err := e.out.Next()
		if err != nil {
			ch <- wire{Method: "EOF " + err.Error()}
			return
		}
		var w wire
		json.Unmarshal(body, &w)
		ch <- w
	}()
	select {
	case w := <-ch:
		return w
	case <-time.After(time.Minute): // hang guard only
		e.t.Fatal("the relay passed nothing on")
		return wire{}
	}
}

func TestRelayHandsOverAndSurvivesACrash(t *testing.T) {
	a, aConn := newFake(t)
	b, bConn := newFake(t)
	c, cConn := newFake(t)
	dials := []struct {
		conn Conn
		pid  int
	}{{bConn, 2}, {cConn, 3}}
	r := &Relay{Logf: t.Logf, Dial: func(context.Context) (Conn, Hello, error) {
		d := dials[0]
		dials = dials[1:]
		return d.conn, Hello{Pid: d.pid}, nil
	}}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ed := &editor{t: t, in: inW, out: transport.NewReader(outR, 0)}
	ran := make(chan error, 1)
	go func() { ran <- r.Run(context.Background(), aConn, Hello{Pid: 1}, inR, outW) }()

	ed.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`)
	a.answer(a.expect("initialize", "1").ID)
	if w := ed.recv(); string(w.ID) != "1" || w.Error != nil {
		t.Fatalf("initialize answer %+v", w)
	}
	ed.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	a.expect("notifications/initialized", "")
	ed.send(`{"jsonrpc":"2.0","id":"x","method":"logging/setLevel","params":{"level":"info"}}`)
	a.answer(a.expect("logging/setLevel", `"x"`).ID)
	ed.recv()

	// Call 3 runs on A when it stops; A never read call 4.
	ed.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ingest"}}`)
	a.expect("tools/call", "3")
	ed.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"health"}}`)
	a.expect("tools/call", "4")
	transport.WriteFrame(a.conn, transport.Line, []byte(`{"jsonrpc":"2.0","method":"`+transport.HandoverMethod+`","params":{"interrupted":[3]}}`))
	if w := ed.recv(); string(w.ID) != "3" || w.Error == nil || w.Error.Code != RetryableCode || w.Error.Data["retryable"] != true || !strings.Contains(w.Error.Message, "call it again") {
		t.Fatalf("the interrupted call: %+v", w.Error)
	}
	// B gets the handshake under the relay's ids, then call 4.
	init := b.expect("initialize", "")
	if string(init.ID) == "1" {
		t.Error("initialize replayed under the client's id")
	}
	b.answer(init.ID)
	b.expect("notifications/initialized", "")
	b.answer(b.expect("logging/setLevel", "").ID)
	b.answer(b.expect("tools/call", "4").ID)
	if w := ed.recv(); string(w.ID) != "4" || w.Error != nil {
		t.Fatalf("call 4 after the handover: %+v (the replayed handshake's answers must not reach the client)", w)
	}

	// B is killed with call 5 in flight: no notification, so call 5 may
	// have run; it is answered with the retryable error, not sent again.
	ed.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"learn"}}`)
	b.expect("tools/call", "5")
	b.conn.Close()
	if w := ed.recv(); string(w.ID) != "5" || w.Error == nil || w.Error.Data["retryable"] != true || !strings.Contains(w.Error.Message, "pid 2") {
		t.Fatalf("call in flight when the server died: %+v", w)
	}
	c.answer(c.expect("initialize", "").ID)
	c.expect("notifications/initialized", "")
	c.answer(c.expect("logging/setLevel", "").ID)
	ed.send(`{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	c.answer(c.expect("ping", "6").ID)
	if w := ed.recv(); string(w.ID) != "6" {
		t.Fatalf("ping on the third server: %+v", w)
	}
	// The editor leaves: the server sees the end of input, then closes.
	inW.Close()
	if _, err := c.next(); err != io.EOF {
		t.Fatalf("server after the editor left: %v", err)
	}
	c.conn.Close()
	select {
	case err := <-ran:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Run did not return")
	}
}

// When no server comes back, the calls waiting are answered and Run says
// why.
func TestRelayGivesUp(t *testing.T) {
	a, aConn := newFake(t)
	r := &Relay{Dial: func(context.Context) (Conn, Hello, error) {
		return nil, Hello{}, fmt.Errorf("no server")
	}}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ed := &editor{t: t, in: inW, out: transport.NewReader(outR, 0)}
	ran := make(chan error, 1)
	go func() { ran <- r.Run(context.Background(), aConn, Hello{Pid: 1}, inR, outW) }()
	ed.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`)
	a.expect("tools/call", "1")
	a.conn.Close()
	if w := ed.recv(); string(w.ID) != "1" || w.Error == nil {
		t.Fatalf("%+v", w)
	}
	if err := <-ran; err == nil || !strings.Contains(err.Error(), "no server") {
		t.Errorf("Run: %v", err)
	}
}

// A call the client sends after the server died was never written whole
// (a write to a closed socket fails), so it cannot have run: it goes to
// the next server instead of coming back as a retryable error. Whether
// the relay sees the end of the connection before or after the call is
// up to the scheduler; both orders must give the same answer.
func TestRelaySendsAgainWhatTheDeadServerNeverGot(t *testing.T) {
	for trial := range 20 {
		a, aConn := newFake(t)
		b, bConn := newFake(t)
		r := &Relay{Dial: func(context.Context) (Conn, Hello, error) { return bConn, Hello{Pid: 2}, nil }}
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		ed := &editor{t: t, in: inW, out: transport.NewReader(outR, 0)}
		ran := make(chan error, 1)
		go func() { ran <- r.Run(context.Background(), aConn, Hello{Pid: 1}, inR, outW) }()
		ed.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
		a.answer(a.expect("initialize", "1").ID)
		ed.recv()
		a.conn.Close() // killed: no handover
		ed.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"health"}}`)
		b.answer(b.expect("initialize", "").ID)
		b.answer(b.expect("tools/call", "2").ID)
		if w := ed.recv(); string(w.ID) != "2" || w.Error != nil {
			t.Fatalf("trial %d: the call sent after the server died: %+v", trial, w)
		}
		inW.Close()
		b.next()
		b.conn.Close()
		if err := <-ran; err != nil {
			t.Fatal(err)
		}
	}
}
