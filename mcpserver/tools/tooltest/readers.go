package tooltest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

func HeldCall(d *tools.Dispatcher, tool string, args map[string]any, p tools.Progress) tools.Result {
	raw, _ := json.Marshal(args)
	return d.Call(context.Background(), tool, raw, p)
}

// within runs f and fails the test if it has not returned after a minute:
// a liveness guard (a blocked call), not a measure of speed.
func HeldWithin(t *testing.T, what string, f func() tools.Result) tools.Result {
	t.Helper()
	ch := make(chan tools.Result, 1)
	go func() { ch <- f() }()
	return HeldWait(t, ch, what)
}

func HeldWait(t *testing.T, ch <-chan tools.Result, what string) tools.Result {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(time.Minute):
		t.Fatalf("%s: no answer (blocked)", what)
		return tools.Result{}
	}
}

func HeldDecode(t *testing.T, r tools.Result) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Text()), &m); err != nil {
		t.Fatalf("non-JSON answer %q: %v", r.Text(), err)
	}
	return m
}
