package mcpcmd

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"sync"

	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

// earlyStdin reads stdin from the moment the process starts, so the end of
// the input is seen while the server is still starting (loading its graph,
// the start-up ingest), when nothing else reads it yet: a client that
// closes before the server is ready (the MCP SDKs' close() ends stdin
// first) is not kept waiting for an ingest nobody will use. The server
// then reads the same bytes through Read, in order.
type earlyStdin struct {
	chunks chan []byte
	done   chan struct{} // closed once the input ended (every chunk queued)
	err    error         // why it ended; read after done
	closed chan struct{}
	once   sync.Once
	cur    []byte

	mu   sync.Mutex
	head []byte // the first headMax bytes, to tell what the client asked
}

const headMax = 1 << 20

func newEarlyStdin(r io.Reader) *earlyStdin {
	e := &earlyStdin{chunks: make(chan []byte, 16), done: make(chan struct{}), closed: make(chan struct{})}
	go e.pump(r)
	return e
}

func (e *earlyStdin) pump(r io.Reader) {
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			e.mu.Lock()
			if len(e.head) < headMax {
				e.head = append(e.head, buf[:min(n, headMax-len(e.head))]...)
			}
			e.mu.Unlock()
			select {
			case e.chunks <- bytes.Clone(buf[:n]):
			case <-e.closed:
				return
			}
		}
		if err != nil {
			e.err = err
			close(e.done)
			return
		}
	}
}

// Read implements io.Reader over the bytes pumped from stdin.
func (e *earlyStdin) Read(p []byte) (int, error) {
	for len(e.cur) == 0 {
		select {
		case c := <-e.chunks:
			e.cur = c
		case <-e.closed:
			return 0, os.ErrClosed
		case <-e.done:
			select {
			case c := <-e.chunks: // queued before the end
				e.cur = c
			default:
				return 0, e.err
			}
		}
	}
	n := copy(p, e.cur)
	e.cur = e.cur[n:]
	return n, nil
}

// Close unblocks Read (the transport closes its input to end a session).
func (e *earlyStdin) Close() error {
	e.once.Do(func() { close(e.closed) })
	return nil
}

// askedForWork reports whether the input, once ended, carried a request
// other than the handshake (initialize, ping): a client that piped its
// calls and closed its input expects them answered, on the graph the
// server was starting to build; one that only said hello has left.
func (e *earlyStdin) askedForWork() bool {
	e.mu.Lock()
	head := e.head
	e.mu.Unlock()
	if len(head) >= headMax {
		return true
	}
	fr := transport.NewReader(bytes.NewReader(head), 0)
	for {
		body, _, err := fr.Next()
		if _, bad := err.(*transport.FrameError); bad {
			continue
		}
		if err != nil {
			return false
		}
		msgs := [][]byte{body}
		if b := bytes.TrimSpace(body); len(b) > 0 && b[0] == '[' {
			msgs, _ = transport.SplitBatch(b)
		}
		for _, m := range msgs {
			id, hasMethod := transport.Peek(m)
			if id == nil || !hasMethod {
				continue
			}
			var req struct {
				Method string `json:"method"`
			}
			json.Unmarshal(m, &req)
			if req.Method != "initialize" && req.Method != "ping" {
				return true
			}
		}
	}
}
