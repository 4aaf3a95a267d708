package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.b.Bytes())
}

// A handed-over connection answers what it can within the wait, names the
// delivered request it could not answer, and never delivers what came
// after: a relay resends that to the next server.
func TestConnHandover(t *testing.T) {
	in, inW := io.Pipe()
	var out lockedBuffer
	handover := make(chan struct{})
	tr := &Stdio{In: in, Out: &out, Handover: handover, HandoverWait: 200 * time.Millisecond,
		Replayable: func(r *jsonrpc.Request) bool { return r.Method == "tools/list" }}
	mc, err := tr.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c := mc.(*Conn)
	if tr.Conn() != c {
		t.Fatal("Stdio.Conn is not the connection Connect made")
	}
	defer c.Close()
	ctx := context.Background()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":"a","method":"ping"}`+"\n"+`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}`+"\n"+`{"jsonrpc":"2.0","id":8,"method":"tools/list"}`+"\n")
	m1, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Delivered and unanswered, but replayable: left for the relay to
	// send again, not named.
	if _, err := c.Read(ctx); err != nil {
		t.Fatal(err)
	}
	c.Write(ctx, &jsonrpc.Response{ID: m1.(*jsonrpc.Request).ID, Result: json.RawMessage(`{}`)})
	// The third request is read from the input but never delivered.
	go io.WriteString(inW, `Content-Length: 44`+"\r\n\r\n"+`{"jsonrpc":"2.0","id":9,"method":"ping"}    `)
	time.Sleep(50 * time.Millisecond)
	close(handover)
	start := time.Now()
	if _, err := c.Read(ctx); err != io.EOF {
		t.Fatalf("Read after handover: %v", err)
	}
	if waited := time.Since(start); waited < 150*time.Millisecond {
		t.Errorf("handover did not wait for the open request (%v)", waited)
	}
	// A late answer is dropped: the notification already said it is lost.
	c.Write(ctx, &jsonrpc.Response{ID: m2.(*jsonrpc.Request).ID, Result: json.RawMessage(`{}`)})

	fr := NewReader(bytes.NewReader(out.Bytes()), 0)
	var got []string
	for {
		body, _, err := fr.Next()
		if err != nil {
			break
		}
		got = append(got, string(body))
	}
	want := []string{
		`{"jsonrpc":"2.0","id":"a","result":{}}`,
		`{"jsonrpc":"2.0","method":"` + HandoverMethod + `","params":{"interrupted":[7]}}`,
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}

// With nothing open the handover is at once.
func TestConnHandoverIdle(t *testing.T) {
	in, _ := io.Pipe()
	var out lockedBuffer
	handover := make(chan struct{})
	close(handover)
	c := NewConn(in, &out, 0, nil)
	c.handover, c.handoverWait = handover, time.Minute
	defer c.Close()
	if _, err := c.Read(context.Background()); err != io.EOF {
		t.Fatal(err)
	}
	id, method := Peek(bytes.TrimSpace(out.Bytes()))
	if id != nil || !method || !bytes.Contains(out.Bytes(), []byte(`"interrupted":[]`)) {
		t.Errorf("notification %q", out.Bytes())
	}
}

// Replayable calls in flight are not waited for.
func TestConnHandoverDoesNotWaitForReplayable(t *testing.T) {
	in, inW := io.Pipe()
	var out lockedBuffer
	handover := make(chan struct{})
	c := NewConn(in, &out, 0, nil)
	c.handover, c.handoverWait = handover, time.Minute
	c.replayable = func(*jsonrpc.Request) bool { return true }
	defer c.Close()
	go io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`+"\n")
	if _, err := c.Read(context.Background()); err != nil {
		t.Fatal(err)
	}
	close(handover)
	start := time.Now()
	if _, err := c.Read(context.Background()); err != io.EOF || time.Since(start) > 30*time.Second {
		t.Fatalf("handover: %v after %v", err, time.Since(start))
	}
	if !bytes.Contains(out.Bytes(), []byte(`"interrupted":[]`)) {
		t.Errorf("notification %q", out.Bytes())
	}
}
