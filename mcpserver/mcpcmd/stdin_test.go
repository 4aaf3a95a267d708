package mcpcmd

import (
	"io"
	"strings"
	"testing"
	"time"
)

func TestEarlyStdin(t *testing.T) {
	hello := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	call := "Content-Length: 47\r\n\r\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/call"}`
	batch := `[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","id":4,"method":"tools/list"}]` + "\n"
	for in, work := range map[string]bool{
		"":                 false,
		hello:              false,
		hello + call:       true,
		"garbage\n" + call: true,
		batch:              true,
		`[{"jsonrpc":"2.0","id":3,"method":"ping"}]`: false,
	} {
		e := newEarlyStdin(strings.NewReader(in))
		select {
		case <-e.done:
		case <-time.After(time.Minute):
			t.Fatal("end of input not seen")
		}
		if got := e.askedForWork(); got != work {
			t.Errorf("%q: asked for work %v, want %v", in, got, work)
		}
		// The server reads the same bytes afterwards.
		if got, err := io.ReadAll(e); err != nil || string(got) != in {
			t.Errorf("read back %q, %v", got, err)
		}
	}
	// Close unblocks a Read on an input that never ends.
	r, _ := io.Pipe()
	e := newEarlyStdin(r)
	go func() { time.Sleep(10 * time.Millisecond); e.Close() }()
	if _, err := e.Read(make([]byte, 8)); err == nil {
		t.Error("Read after Close")
	}
}
