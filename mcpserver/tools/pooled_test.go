package tools

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/internal/race"
)

type pooledIn struct {
	N int `json:"n"`
}

type pooledOut struct {
	Items []string `json:"items"`
	Note  string   `json:"note,omitempty"`
}

// pooledDispatcher serves "items", an answer of n strings with HTML
// characters (escaped alike by both encodings); n < 0 fails.
func pooledDispatcher(t *testing.T) *Dispatcher {
	s := openMemory(t)
	t.Cleanup(func() { s.Close() })
	r := NewRegistry()
	Add(r, Tool{Name: "items", Title: "items", Description: "test", Class: Read, Example: map[string]any{"agent_id": "t"}},
		func(c *Call, in pooledIn) (pooledOut, error) {
			if in.N < 0 {
				return pooledOut{}, Errorf("n must be at least 0", "asked for %d <items>", in.N)
			}
			out := pooledOut{Note: "<&>\u2028"}
			for i := range in.N {
				out.Items = append(out.Items, strings.Repeat("x<", i%7)+"file::src/a.go")
			}
			return out, nil
		})
	return &Dispatcher{Registry: r, Session: s}
}

// TestPooledAnswersAsOwn: under PooledAnswers a call's text is the same
// bytes as without, answers and failures, across releases and reuse of
// the buffers.
func TestPooledAnswersAsOwn(t *testing.T) {
	d := pooledDispatcher(t)
	for _, n := range []int{300, 0, -1, 5, 1000, 2} {
		args := json.RawMessage(`{"agent_id":"t","n":` + itoa(n) + `}`)
		own := d.Call(context.Background(), "items", args, nil)
		pooled := d.Call(PooledAnswers(context.Background()), "items", args, nil)
		if pooled.Text() != own.Text() || pooled.IsError != own.IsError {
			t.Fatalf("n=%d: pooled %.120q, own %.120q", n, pooled.Text(), own.Text())
		}
		if own.buf != nil {
			t.Fatalf("n=%d: a call without PooledAnswers got a pooled buffer", n)
		}
		pooled.Release()
		own.Release() // no buffer: nothing happens
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestPooledAnswersAllocation: a released answer's buffer takes the next
// one, so a call under PooledAnswers allocates well under its answer's
// size, and a call without it a copy of its own (the fewest bytes of
// five rounds: the counter is the process's).
func TestPooledAnswersAllocation(t *testing.T) {
	if race.Enabled {
		t.Skip("allocation is not measured under the race detector")
	}
	d := pooledDispatcher(t)
	args := json.RawMessage(`{"agent_id":"t","n":300}`)
	size := len(d.Call(context.Background(), "items", args, nil).Text())
	perCall := func(ctx context.Context) uint64 {
		best := ^uint64(0)
		for range 5 {
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			for range 20 {
				d.Call(ctx, "items", args, nil).Release()
			}
			runtime.ReadMemStats(&m1)
			best = min(best, (m1.TotalAlloc-m0.TotalAlloc)/20)
		}
		return best
	}
	own, pooled := perCall(context.Background()), perCall(PooledAnswers(context.Background()))
	t.Logf("%d-byte answer: %d B a call, %d B pooled", size, own, pooled)
	if own-pooled < uint64(size)*3/4 {
		t.Errorf("pooled calls allocate %d B, own %d B: want at least three quarters of the %d-byte answer less", pooled, own, size)
	}
}
