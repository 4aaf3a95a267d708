package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/m1nd-go/m1nd/mcpserver/internal/race"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

type plainEchoIn struct {
	Say string `json:"say" jsonschema:"what to say back"`
}

type plainEchoOut struct {
	Said string `json:"said"`
}

type plainHoldIn struct{}

type plainHoldOut struct {
	Stopped string `json:"stopped"`
}

// plainDispatcher serves tools whose answers do not depend on time: echo
// (read-only; says its arguments back, or fails on "fail"), hold (waits
// to be called off), slow (exclusive; answers after a pause), and hidden
// (in a toolset that is off).
func plainDispatcher(t testing.TB) (*tools.Dispatcher, chan struct{}) {
	t.Helper()
	held := make(chan struct{}, 16)
	r := tools.NewRegistry()
	ex := map[string]any{"agent_id": "t"}
	tools.Add(r, tools.Tool{Name: "echo", Title: "echo", Description: "says it back", Class: tools.Read, Example: ex, Aliases: []string{"old.echo"}},
		func(c *tools.Call, in plainEchoIn) (plainEchoOut, error) {
			if in.Say == "fail" {
				return plainEchoOut{}, tools.Errorf("say something else", "asked to fail <&>")
			}
			return plainEchoOut{Said: in.Say}, nil
		})
	tools.Add(r, tools.Tool{Name: "hold", Title: "hold", Description: "waits to be called off", Class: tools.Read, Example: ex},
		func(c *tools.Call, _ plainHoldIn) (plainHoldOut, error) {
			held <- struct{}{}
			<-c.Ctx.Done()
			return plainHoldOut{Stopped: context.Cause(c.Ctx).Error()}, nil
		})
	tools.Add(r, tools.Tool{Name: "slow", Title: "slow", Description: "an exclusive call", Class: tools.Exclusive, Example: ex},
		func(c *tools.Call, _ plainHoldIn) (plainHoldOut, error) {
			time.Sleep(100 * time.Millisecond) // a later call overtakes it unless the barrier holds it
			return plainHoldOut{Stopped: "no"}, nil
		})
	r.InFamily("extra", func(r *tools.Registry) {
		tools.Add(r, tools.Tool{Name: "hidden", Title: "hidden", Description: "off by default", Class: tools.Read, Example: ex},
			func(c *tools.Call, _ plainHoldIn) (plainHoldOut, error) { return plainHoldOut{Stopped: "hidden"}, nil })
	})
	cfg := session.DefaultConfig()
	cfg.AllowRoots = []string{os.TempDir()}
	cfg.OutputSchemas = true
	st, err := session.Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	st.SetToolsets([]string{"core"}) // hidden's family is off
	return &tools.Dispatcher{Registry: r, Session: st}, held
}

// wire is one server session on pipes, read a line at a time.
type wire struct {
	in       *io.PipeWriter
	out      *bufio.Reader
	plain    atomic.Int32 // calls the transport answered itself
	released atomic.Int32 // their answers it handed back (Stdio.Release)
	stop     func()       // ends the session and waits for it
}

// startWire serves d on pipes through the stdio transport; with plain,
// wired as connect does, the transport answering plain calls itself.
func startWire(t testing.TB, d *tools.Dispatcher, plain bool) *wire {
	t.Helper()
	log := NewLog(t.Logf)
	srv := NewMCPServer(d, log)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	w := &wire{in: inW, out: bufio.NewReader(outR)}
	tr := &transport.Stdio{In: inR, Out: outW, Barrier: exclusiveCall(d.Registry)}
	var ss atomic.Pointer[mcp.ServerSession]
	if plain {
		calls := plainCalls(d, log, &ss)
		tr.Call = func(name string, args json.RawMessage) func(context.Context) (json.RawMessage, error) {
			run := calls(name, args)
			if run != nil {
				w.plain.Add(1)
			}
			return run
		}
		tr.Release = func(b json.RawMessage) {
			w.released.Add(1)
			releaseAnswer(b)
		}
	}
	s, err := srv.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	ss.Store(s)
	w.stop = sync.OnceFunc(func() {
		inW.Close()
		s.Wait()
		outW.Close()
	})
	t.Cleanup(w.stop)
	return w
}

func (w *wire) send(t testing.TB, line string) {
	t.Helper()
	if _, err := io.WriteString(w.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (w *wire) recv(t testing.TB) string {
	t.Helper()
	line, err := w.out.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return line
}

const (
	plainInit        = `{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	plainInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// plainStep is a message and how many answers follow it; hold waits
// until a hold call runs before the message is sent.
type plainStep struct {
	msg     string
	answers int
	hold    bool
}

func call(id, params string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + params + `}`
}

// runSteps plays steps on a fresh session and returns what it answered.
func runSteps(t *testing.T, plain bool, steps []plainStep) ([]string, int32) {
	d, held := plainDispatcher(t)
	w := startWire(t, d, plain)
	var got []string
	for _, s := range steps {
		if s.hold {
			<-held
		}
		w.send(t, s.msg)
		for range s.answers {
			got = append(got, w.recv(t))
		}
	}
	// The events hook saw the same calls (their times aside).
	evs, _, cancel := EventsOf(d).Subscribe(0)
	cancel()
	for _, ev := range evs {
		if c, ok := ev.Data.(CallEvent); ok {
			c.ElapsedMs = 0
			b, _ := json.Marshal(c)
			got = append(got, "event "+string(b))
		}
	}
	return got, w.plain.Load()
}

// A plain tools/call answered by the transport is answered with the
// bytes the SDK would have written, for the same sequence of requests;
// what it leaves to the SDK is the SDK's to answer.
func TestPlainCallsAnswerAsSDK(t *testing.T) {
	initialized := []plainStep{{plainInit, 1, false}, {plainInitialized, 0, false}}
	cases := []struct {
		name  string
		steps []plainStep
		plain int32 // calls the transport must have answered itself
	}{
		{"before initialize", []plainStep{{call(`1`, `{"name":"echo","arguments":{"agent_id":"a","say":"hi"}}`), 1, false}}, 0},
		{"success", append(initialized,
			plainStep{call(`1`, `{"name":"echo","arguments":{"agent_id":"a","say":"<&> \u2028 \"q\" é"}}`), 1, false},
			plainStep{call(`"s"`, `{ "arguments" : { "say" : "spaced" , "agent_id":"a" } , "name" : "echo" }`), 1, false},
			plainStep{call(`1.50`, `{"name":"old.echo","arguments":{"agent_id":"a","say":"alias"}}`), 1, false},
			plainStep{call(`2`, `{"name":"m1nd.echo","arguments":{"agent_id":"a"}}`), 1, false}), 4},
		{"tool error", append(initialized,
			plainStep{call(`1`, `{"name":"echo","arguments":{"agent_id":"a","say":"fail"}}`), 1, false},
			plainStep{call(`2`, `{"name":"echo","arguments":{"say":"no agent"}}`), 1, false},
			plainStep{call(`3`, `{"name":"echo"}`), 1, false},
			plainStep{call(`4`, `{"name":"echo","arguments":{"agent_id":"a","say":7}}`), 1, false}), 4},
		{"unknown or hidden tool", append(initialized,
			plainStep{call(`1`, `{"name":"ecco","arguments":{"agent_id":"a"}}`), 1, false},
			plainStep{call(`2`, `{"name":"hidden","arguments":{"agent_id":"a"}}`), 1, false},
			plainStep{call(`3`, `{"name":"","arguments":{"agent_id":"a"}}`), 1, false}), 0},
		{"bad params", append(initialized,
			plainStep{call(`1`, `{"name":5}`), 1, false},
			plainStep{call(`2`, `[]`), 1, false},
			plainStep{call(`3`, `{"arguments":{}}`), 1, false},
			plainStep{call(`4`, `{"name":"echo","arguments":[1]}`), 1, false},
			plainStep{call(`5`, `{"name":"echo","arguments":null}`), 1, false},
			plainStep{call(`6`, `{"name":"echo","name":"echo"}`), 1, false},
			plainStep{`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`, 1, false}), 0},
		{"left to the SDK", append(initialized,
			plainStep{call(`1`, `{"name":"echo","arguments":{"agent_id":"a","say":"m"},"_meta":{"progressToken":"p"}}`), 1, false},
			plainStep{call(`2`, `{"name":"ech\u006f","arguments":{"agent_id":"a"}}`), 1, false},
			plainStep{`[` + call(`3`, `{"name":"echo","arguments":{"agent_id":"a"}}`) + `]`, 1, false}), 0},
		{"cancelled", append(initialized,
			plainStep{call(`"h"`, `{"name":"hold","arguments":{"agent_id":"a"}}`), 0, false},
			plainStep{`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"h"}}`, 1, true},
			plainStep{call(`2`, `{"name":"echo","arguments":{"agent_id":"a","say":"after"}}`), 1, false}), 2},
		{"barrier", append(initialized,
			plainStep{call(`1`, `{"name":"slow","arguments":{"agent_id":"a"}}`), 0, false},
			plainStep{call(`2`, `{"name":"echo","arguments":{"agent_id":"a","say":"next"}}`), 2, false}), 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, _ := runSteps(t, false, c.steps)
			got, plain := runSteps(t, true, c.steps)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("answers differ from the SDK's (-SDK +transport):\n%s", diff)
			}
			if plain != c.plain {
				t.Errorf("transport answered %d calls itself, want %d", plain, c.plain)
			}
		})
	}
}

// Fuzz: whatever a tools/call's params hold, an initialised session
// answers it with the SDK's bytes, whether the transport takes it or not.
func FuzzPlainCallsAnswerAsSDK(f *testing.F) {
	for _, s := range []string{
		`{"name":"echo","arguments":{"agent_id":"a","say":"hi"}}`,
		`{"name":"echo","arguments":{"agent_id":"a","say":"fail"}}`,
		`{"name":"old.echo","arguments":{ "agent_id" : "a" }}`,
		`{"name":"nope"}`,
		`{"name":"echo","arguments":{"agent_id":"a"},"_meta":{}}`,
		`{"name":"echo","arguments":{"agent_id":"a","say":"\ud800 <\u2028>"}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, params string) {
		if strings.ContainsAny(params, "\r\n") || !json.Valid([]byte(params)) {
			return // one line of JSON: framing and parse errors are the transport's alike
		}
		steps := []plainStep{{plainInit, 1, false}, {plainInitialized, 0, false}, {call(`9`, params), 1, false}}
		want, _ := runSteps(t, false, steps)
		got, _ := runSteps(t, true, steps)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("params %s: answers differ (-SDK +transport):\n%s", params, diff)
		}
	})
}

// Every answer the transport wrote for a plain call is handed back once
// (Stdio.Release, which pools its buffer for the next answer), and the
// answers written from reused buffers are the SDK's.
func TestPlainAnswersAreReleased(t *testing.T) {
	d, _ := plainDispatcher(t)
	w := startWire(t, d, true)
	w.send(t, plainInit)
	w.recv(t)
	w.send(t, plainInitialized)
	for i, say := range []string{"a long answer " + strings.Repeat("x", 5000), "short", "fail", "<&>"} {
		id := strconv.Itoa(i + 1)
		w.send(t, call(id, `{"name":"echo","arguments":{"agent_id":"a","say":"`+say+`"}}`))
		got := w.recv(t)
		if !strings.Contains(got, `"id":`+id+`,`) || (say != "fail" && say != "<&>" && !strings.Contains(got, say[:min(len(say), 20)])) {
			t.Errorf("call %s: answer %.200s", id, got)
		}
	}
	w.stop()
	if p, r := w.plain.Load(), w.released.Load(); p != 4 || r != p {
		t.Errorf("transport answered %d calls and released %d answers, want 4 and 4", p, r)
	}
}

// TestPooledAnswerAllocation: a plain call's answer is written into a
// buffer the transport hands back, so answering again allocates a small
// part of the answer's size, not a fresh copy of it.
func TestPooledAnswerAllocation(t *testing.T) {
	if race.Enabled {
		t.Skip("allocation is not measured under the race detector")
	}
	text := `{"activated":[` + strings.Repeat(`{"id":"file::src/a/b.go::func::Name","score":0.25},`, 200) + `{}]}`
	a := toolAnswer{sdkResult(t, "", text, false, nil)}
	want, err := a.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	cycle := func() {
		b, err := pooledAnswer(a)
		if err != nil || string(b) != string(want) {
			t.Fatalf("pooled answer %.100s (%v), want %.100s", b, err, want)
		}
		releaseAnswer(b)
	}
	cycle()
	// The fewest bytes of five rounds: the counter is the process's, and
	// goroutines an earlier test left winding down allocate too.
	per := uint64(math.MaxUint64)
	for range 5 {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		for range 20 {
			cycle()
		}
		runtime.ReadMemStats(&m1)
		per = min(per, (m1.TotalAlloc-m0.TotalAlloc)/20)
	}
	if per*8 > uint64(len(text)) {
		t.Errorf("%d B allocated an answer, want at most an eighth of its %d-byte text", per, len(text))
	}
}
