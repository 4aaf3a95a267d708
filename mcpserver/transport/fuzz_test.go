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
