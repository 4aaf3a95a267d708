package tools

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
)

// countedOut counts how often an answer is encoded.
type countedOut struct {
	n *atomic.Int32
}

func (c countedOut) MarshalJSON() ([]byte, error) {
	c.n.Add(1)
	return []byte(`{"node_id":"file::a.go","note":"<b>&"}`), nil
}

// A dispatched answer is encoded once: the call log, the transport and
// every later Text read the same bytes (each used to encode it again).
// The text is what json.Marshal of the value gives.
func TestAnswerEncodedOnce(t *testing.T) {
	s := openMemory(t)
	defer s.Close()
	var n atomic.Int32
	r := NewRegistry()
	Add(r, Tool{Name: "probe", Title: "probe", Description: "test", Class: Read, Example: map[string]any{"agent_id": "t"}},
		func(c *Call, in probeIn) (countedOut, error) { return countedOut{&n}, nil })
	d := &Dispatcher{Registry: r, Session: s}
	res := d.Call(context.Background(), "probe", json.RawMessage(`{"agent_id":"one"}`), nil)
	first, second := res.Text(), res.Text()
	if got := n.Load(); got != 1 {
		t.Errorf("answer encoded %d times, want once", got)
	}
	want, _ := json.Marshal(countedOut{new(atomic.Int32)})
	if first != string(want) || second != first {
		t.Errorf("text %q then %q, want %q", first, second, want)
	}
	if recs := Calls(s).Records(""); len(recs) != 1 || recs[0].AnswerBytes != len(want) {
		t.Errorf("call log %+v, want one record of %d bytes", recs, len(want))
	}
}

// A Result made outside Call (a transport's own error) still encodes.
func TestTextOfAPlainResult(t *testing.T) {
	r := Result{Value: map[string]string{"error": "a<b"}, IsError: true}
	if got, want := r.Text(), `{"error":"a\u003cb"}`; got != want {
		t.Errorf("Text() = %s, want %s", got, want)
	}
}
