package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

type frame struct {
	Body string
	Mode Mode
	Err  string
}

func readAll(t *testing.T, input string, max int) []frame {
	t.Helper()
	fr := NewReader(strings.NewReader(input), max)
	var out []frame
	for i := 0; i < 100; i++ {
		body, mode, err := fr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		var fe *FrameError
		if errors.As(err, &fe) {
			out = append(out, frame{Mode: fe.Mode, Err: fe.Msg})
			continue
		}
		if err != nil {
			t.Fatalf("unexpected error %v", err)
		}
		out = append(out, frame{Body: string(body), Mode: mode})
	}
	t.Fatal("reader did not reach EOF")
	return nil
}

func TestReaderFramings(t *testing.T) {
	msg := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	framed := "Content-Length: 40\r\n\r\n" + msg
	pretty := "{\n  \"jsonrpc\": \"2.0\",\n  \"params\": {\"a\": [\n {\"s\": \"}]{[\\\"\"}]}\n}"
	tests := []struct {
		name  string
		input string
		max   int
		want  []frame
	}{
		{"line", msg + "\n", 0, []frame{{Body: msg, Mode: Line}}},
		{"line crlf", msg + "\r\n", 0, []frame{{Body: msg, Mode: Line}}},
		{"line without final newline", msg, 0, []frame{{Body: msg, Mode: Line}}},
		{"batch line", "[" + msg + "]\n", 0, []frame{{Body: "[" + msg + "]", Mode: Line}}},
		{"framed", framed, 0, []frame{{Body: msg, Mode: Framed}}},
		{"framed lowercase header + extra header", "content-length: 40\r\nContent-Type: application/json\r\n\r\n" + msg, 0, []frame{{Body: msg, Mode: Framed}}},
		{"framed LF only", "Content-Length: 40\n\n" + msg, 0, []frame{{Body: msg, Mode: Framed}}},
		{"framed body with newlines and brackets in strings", fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(pretty), pretty) + framed, 0, []frame{{Body: pretty, Mode: Framed}, {Body: msg, Mode: Framed}}},
		{"mixed", framed + "\n" + msg + "\n" + framed, 0, []frame{{Body: msg, Mode: Framed}, {Body: msg, Mode: Line}, {Body: msg, Mode: Framed}}},
		{"back to back frames", framed + framed, 0, []frame{{Body: msg, Mode: Framed}, {Body: msg, Mode: Framed}}},
		{"leading whitespace", "\n\n  \t" + msg + "\n", 0, []frame{{Body: msg, Mode: Line}}},
		{"byte-order marks", "\xEF\xBB\xBF" + msg + "\n\xEF\xBB\xBF" + framed, 0, []frame{{Body: msg, Mode: Line}, {Body: msg, Mode: Framed}}},
		{"oversized line", `{"x":"` + strings.Repeat("a", 100) + "\"}\n" + msg + "\n", 64, []frame{{Err: "message exceeds the 64-byte limit", Mode: Line}, {Body: msg, Mode: Line}}},
		{"empty", "", 0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, readAll(t, tc.input, tc.max)); diff != "" {
				t.Errorf("frames (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReaderResync: bad input is reported and the reader resumes where the
// package doc says, answering in the stream's framing.
func TestReaderResync(t *testing.T) {
	msg := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	msg2 := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	framed2 := "Content-Length: 40\r\n\r\n" + msg2
	garbage := func(s string) string {
		return fmt.Sprintf("malformed input %q: expected a JSON message or a Content-Length header", s)
	}
	tests := []struct {
		name  string
		input string
		max   int
		want  []frame
	}{
		{"garbage line", "hello world\n" + msg + "\n", 0, []frame{{Err: garbage("hello world"), Mode: Line}, {Body: msg, Mode: Line}}},
		{"log line with a colon", "INFO: starting up\n" + msg + "\n" + msg2 + "\n", 0, []frame{{Err: garbage("INFO: starting up"), Mode: Line}, {Body: msg, Mode: Line}, {Body: msg2, Mode: Line}}},
		{"log line then blank line", "2024-01-02 INFO: up\n\n" + msg + "\n", 0, []frame{{Err: garbage("2024-01-02 INFO: up"), Mode: Line}, {Body: msg, Mode: Line}}},
		{"headers without length", "X-Other: 1\r\n\r\n" + msg + "\n", 0, []frame{{Err: garbage("X-Other: 1"), Mode: Line}, {Body: msg, Mode: Line}}},
		{"garbage in a framed stream", framed2 + "oops\n" + framed2, 0, []frame{{Body: msg2, Mode: Framed}, {Err: garbage("oops"), Mode: Framed}, {Body: msg2, Mode: Framed}}},
		{"garbage glued to a header", framed2 + "}}Content-Length: 40\r\n\r\n" + msg2, 0, []frame{{Body: msg2, Mode: Framed}, {Err: garbage("}}Content-Length: 40"), Mode: Framed}, {Body: msg2, Mode: Framed}}},
		{"bad length", "Content-Length: abc\r\n\r\n" + msg + "\n", 0, []frame{{Err: `invalid Content-Length "abc"`, Mode: Framed}, {Body: msg, Mode: Line}}},
		{"conflicting lengths", "Content-Length: 40\r\nContent-Length: 41\r\n\r\n" + msg + "\n", 0, []frame{{Err: "conflicting Content-Length headers", Mode: Framed}, {Body: msg, Mode: Line}}},
		{"headers then a JSON line", "Content-Length: 40\r\n" + msg + "\n" + msg2 + "\n", 0, []frame{{Err: "headers not followed by a blank line", Mode: Framed}, {Body: msg, Mode: Line}, {Body: msg2, Mode: Line}}},
		{"huge length does not eat the input", "Content-Length: 100000000000\r\n\r\n" + msg + "\n" + msg2 + "\n", 0, []frame{{Err: "message of 100000000000 bytes exceeds the 67108864-byte limit", Mode: Framed}, {Body: msg, Mode: Line}, {Body: msg2, Mode: Line}}},
		{"oversized frame", "Content-Length: 100\r\n\r\n" + `{"x":"` + strings.Repeat("x", 90) + "\"}\n" + msg + "\n", 64, []frame{{Err: "message of 100 bytes exceeds the 64-byte limit", Mode: Framed}, {Err: "message exceeds the 64-byte limit", Mode: Framed}, {Body: msg, Mode: Line}}},
		{"length too short, line stream", "Content-Length: 10\r\n\r\n" + msg + "\n" + msg2 + "\n", 0, []frame{{Err: "frame body ends inside its JSON value (Content-Length 10 too short?)", Mode: Framed}, {Body: msg, Mode: Line}, {Body: msg2, Mode: Line}}},
		{"length too short, framed stream", "Content-Length: 10\r\n\r\n" + msg + framed2, 0, []frame{{Err: "frame body ends inside its JSON value (Content-Length 10 too short?)", Mode: Framed}, {Body: msg, Mode: Framed}, {Body: msg2, Mode: Framed}}},
		{"length too long, line stream", "Content-Length: 60\r\n\r\n" + msg + "\n" + msg2 + "\n", 0, []frame{{Err: "Content-Length 60 runs past the end of the JSON value", Mode: Framed}, {Body: msg, Mode: Line}, {Body: msg2, Mode: Line}}},
		{"length too long, framed stream", "Content-Length: 50\r\n\r\n" + msg + framed2, 0, []frame{{Err: "Content-Length 50 runs past the end of the JSON value", Mode: Framed}, {Body: msg, Mode: Framed}, {Body: msg2, Mode: Framed}}},
		{"bad body glued to a line", "Content-Length: 5\r\n\r\n{nope" + msg + "\n", 0, []frame{{Err: "frame body ends inside its JSON value (Content-Length 5 too short?)", Mode: Framed}, {Body: msg, Mode: Line}}},
		{"bad body glued to a frame", "Content-Length: 5\r\n\r\n{nope" + framed2, 0, []frame{{Err: "frame body ends inside its JSON value (Content-Length 5 too short?)", Mode: Framed}, {Body: msg2, Mode: Framed}}},
		{"body is not JSON", "Content-Length: 5\r\n\r\nhello\n" + msg + "\n", 0, []frame{{Err: "frame body is not a JSON object or array", Mode: Framed}, {Err: garbage("hello"), Mode: Framed}, {Body: msg, Mode: Line}}},
		{"frame claims the next lines", "Content-Length: 200\r\n\r\n{\n" + msg + "\n" + msg2 + "\n", 0, []frame{{Err: "input ended inside a frame", Mode: Framed}, {Body: msg, Mode: Line}, {Body: msg2, Mode: Line}}},
		{"input ends inside a frame", "Content-Length: 400\r\n\r\n" + msg, 0, []frame{{Err: "input ended inside a frame", Mode: Framed}, {Body: msg, Mode: Line}}},
		{"input ends inside headers", "Content-Length: 400\r\n", 0, nil},
		{"line cut short", `{"jsonrpc":"2.0","id":7,"params":{` + "\n" + msg + "\n", 0, []frame{{Err: "line ends inside a JSON value", Mode: Line}, {Body: msg, Mode: Line}}},
		{"two values on a line", msg + " " + msg2 + "\n", 0, []frame{{Body: msg, Mode: Line}, {Body: msg2, Mode: Line}}},
		{"value then junk", msg + "}x\n" + msg2 + "\n", 0, []frame{{Body: msg, Mode: Line}, {Err: garbage("}x"), Mode: Line}, {Body: msg2, Mode: Line}}},
		{"headers inside a malformed frame claim nothing", "Content-Length: 100\r\n\r\n{\n{}\nContent-Length: 100\r\n\r\n{\n{}\n", 0, []frame{
			{Err: "input ended inside a frame", Mode: Framed}, {Body: "{}", Mode: Line},
			{Err: "Content-Length inside the body of a malformed frame", Mode: Framed}, {Err: "line ends inside a JSON value", Mode: Framed}, {Body: "{}", Mode: Line},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, readAll(t, tc.input, tc.max)); diff != "" {
				t.Errorf("frames (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReaderStaysLinear: inputs that would make a naive resynchronising
// reader rescan the same bytes over and over (minutes, not milliseconds).
func TestReaderStaysLinear(t *testing.T) {
	const n = 100000
	tests := []struct {
		name  string
		input string
		want  int // messages
	}{
		{"many values on one line", strings.Repeat("{}", n) + "\n", n},
		{"frames inside a malformed frame", strings.Repeat("Content-Length: 60000000\r\n\r\n{\n{}\n", n), n},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fr := NewReader(strings.NewReader(tc.input), 0)
			got := 0
			for {
				_, _, err := fr.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err == nil {
					got++
				}
			}
			if got != tc.want {
				t.Errorf("%d messages, want %d", got, tc.want)
			}
		})
	}
}

func TestWriteFrame(t *testing.T) {
	var b bytes.Buffer
	WriteFrame(&b, Framed, []byte(`{"a":1}`))
	WriteFrame(&b, Line, []byte(`{"b":2}`))
	if got, want := b.String(), "Content-Length: 7\r\n\r\n{\"a\":1}{\"b\":2}\n"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
}

// pipeConn builds a Conn over in-memory pipes and returns a function that
// reads what the Conn writes.
func pipeConn(t *testing.T) (*Conn, *io.PipeWriter, *bytes.Buffer, func()) {
	inR, inW := io.Pipe()
	var out safeBuffer
	c := NewConn(inR, &out, 1<<20, nil)
	return c, inW, &out.b, func() { c.Close() }
}

type safeBuffer struct {
	b  bytes.Buffer
	mu chanMutex
}

type chanMutex struct{ ch chan struct{} }

func (m *chanMutex) lock() {
	if m.ch == nil {
		m.ch = make(chan struct{}, 1)
	}
	m.ch <- struct{}{}
}
func (m *chanMutex) unlock() { <-m.ch }

func (s *safeBuffer) Write(p []byte) (int, error) {
	s.mu.lock()
	defer s.mu.unlock()
	return s.b.Write(p)
}

func TestConnAnswersInRequestFraming(t *testing.T) {
	c, in, out, done := pipeConn(t)
	defer done()
	ctx := context.Background()
	go func() {
		body := `{"jsonrpc":"2.0","id":"a","method":"tools/list"}`
		io.WriteString(in, fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
		io.WriteString(in, `{"jsonrpc":"2.0","id":7,"method":"ping"}`+"\n")
	}()
	m1, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Answer in reverse order: each answer must keep its request's framing.
	for _, m := range []jsonrpc.Message{m2, m1} {
		req := m.(*jsonrpc.Request)
		if err := c.Write(ctx, &jsonrpc.Response{ID: req.ID, Result: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	got := out.String()
	want := `{"jsonrpc":"2.0","id":7,"result":{}}` + "\n" + "Content-Length: 38\r\n\r\n" + `{"jsonrpc":"2.0","id":"a","result":{}}`
	if got != want {
		t.Errorf("output:\n%q\nwant\n%q", got, want)
	}
}

func TestConnBatch(t *testing.T) {
	c, in, out, done := pipeConn(t)
	defer done()
	ctx := context.Background()
	go io.WriteString(in, `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"bogus":true},{"jsonrpc":"2.0","id":2,"method":"ping"}]`+"\n")
	var reqs []*jsonrpc.Request
	for i := 0; i < 3; i++ {
		m, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, m.(*jsonrpc.Request))
	}
	c.Write(ctx, &jsonrpc.Response{ID: reqs[2].ID, Result: []byte(`"two"`)})
	if out.Len() != 0 {
		t.Fatalf("batch answered before complete: %q", out.String())
	}
	c.Write(ctx, &jsonrpc.Response{ID: reqs[0].ID, Result: []byte(`"one"`)})
	got := out.String()
	if !strings.HasPrefix(got, "[") || !strings.Contains(got, `"result":"one"`) || !strings.Contains(got, `"result":"two"`) || !strings.Contains(got, `-32600`) {
		t.Errorf("batch response %q", got)
	}
}

func TestConnMalformedKeepsConnection(t *testing.T) {
	c, in, out, done := pipeConn(t)
	defer done()
	ctx := context.Background()
	go io.WriteString(in, "{not json}\n"+`{"jsonrpc":"1.0","id":3,"method":"x"}`+"\n"+`[]`+"\n"+`{"jsonrpc":"2.0","id":9,"method":"ping"}`+"\n")
	m, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if req := m.(*jsonrpc.Request); req.Method != "ping" {
		t.Fatalf("got %v", req.Method)
	}
	deadline := time.Now().Add(2 * time.Second)
	for strings.Count(out.String(), "\n") < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 error responses, got %q", out.String())
	}
	for i, want := range []string{`"code":-32700`, `"id":3`, `"code":-32600`} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("line %d %q lacks %s", i, lines[i], want)
		}
	}
}

func TestConnDrainsBeforeEOF(t *testing.T) {
	c, in, _, done := pipeConn(t)
	defer done()
	ctx := context.Background()
	go func() {
		io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
		in.Close()
	}()
	m, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	eof := make(chan error, 1)
	go func() { _, err := c.Read(ctx); eof <- err }()
	select {
	case err := <-eof:
		t.Fatalf("EOF (%v) reported while a request is unanswered", err)
	case <-time.After(50 * time.Millisecond):
	}
	c.Write(ctx, &jsonrpc.Response{ID: m.(*jsonrpc.Request).ID, Result: []byte(`{}`)})
	if err := <-eof; !errors.Is(err, io.EOF) {
		t.Fatalf("after the answer: %v", err)
	}
}
