package transport

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzReader: any byte stream yields messages, frame errors or EOF, never a
// panic or an endless loop.
func FuzzReader(f *testing.F) {
	f.Add([]byte("Content-Length: 2\r\n\r\n{}"))
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n[1,2]\n"))
	f.Add([]byte("Content-Length: 99999999999\r\n\r\n"))
	f.Add([]byte("x: y\nz\n\n{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fr := NewReader(bytes.NewReader(data), 1024)
		for i := 0; i <= len(data)+1; i++ {
			_, _, err := fr.Next()
			var fe *FrameError
			if err == nil || errors.As(err, &fe) {
				continue
			}
			if !errors.Is(err, io.EOF) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		t.Fatal("reader made no progress")
	})
}

// FuzzConn feeds arbitrary input to a connection: decoding must not panic.
func FuzzConn(f *testing.F) {
	f.Add([]byte(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"x":1}]` + "\n"))
	f.Add([]byte(`{"jsonrpc":"2.0","id":null,"method":"a"}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		c := NewConn(bytes.NewReader(data), &out, 4096, nil)
		ctx := context.Background()
		for {
			m, err := c.Read(ctx)
			if err != nil {
				break
			}
			// Answer every call, as the server would, so end of input drains.
			if req, ok := m.(*jsonrpc.Request); ok && req.IsCall() {
				c.Write(ctx, &jsonrpc.Response{ID: req.ID, Result: []byte("{}")})
			}
		}
		c.Close()
	})
}

// FuzzResync checks the package doc's promise: whatever garbage comes
// first, the well-formed requests after it and a newline — each on its own
// line, plus one Content-Length frame among them — are each answered
// exactly once.
func FuzzResync(f *testing.F) {
	for _, g := range []string{
		"", "hello", "\xEF\xBB\xBF", "INFO: started: ok", "Content-Length: 5\r\n", "Content-Length: 5\r\n\r",
		"Content-Length: 100000000000\r\n\r\n", "Content-Length: 300\r\n\r\n{", "Content-Length: 9\r\n\r\n[\"",
		`{"a":"`, "[", "X: y\r\nContent-Length: 3", `{"jsonrpc":"2.0","id":1,"method":"ping"}}`, "Content-Length: 41\r\n\r",
		"Content-Length: 2\r\n\r\n{}Content-Length: 7\r\n\r\n",
	} {
		f.Add([]byte(g), uint8(0))
		f.Add([]byte(g), uint8(1))
	}
	f.Fuzz(func(t *testing.T, garbage []byte, layout uint8) {
		if bytes.Contains(garbage, []byte("zq")) || bytes.Contains(garbage, []byte("8446744")) {
			t.Skip("the garbage names an expected id")
		}
		ids := []string{`"zq1"`, `18446744073709551616`, `"zq3"`, `"zqF"`}
		line := func(i int) string { return `{"jsonrpc":"2.0","id":` + ids[i] + `,"method":"ping"}` }
		framed := frameOf(line(3))
		var input string
		if layout%2 == 0 {
			input = "\n" + line(0) + "\n" + line(1) + "\n" + framed + line(2) + "\n"
		} else {
			input = "\n" + framed + line(0) + "\n" + line(1) + "\n" + line(2)
		}
		data := append(bytes.Clone(garbage), input...)
		_, replies := serve(t, string(data), 1<<16)
		count := map[string]int{}
		for _, r := range replies {
			count[r.ID]++
		}
		for _, id := range ids {
			if count[id] != 1 {
				t.Errorf("id %s answered %d times; replies %v", id, count[id], replies)
			}
		}
	})
}
