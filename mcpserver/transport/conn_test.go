package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// reply is one response seen on a Conn's output.
type reply struct {
	Mode  Mode
	ID    string // raw JSON, byte for byte
	Code  int    // 0 for a result
	Batch bool
}

// serve runs a Conn over input as the server would: every call is answered
// with an empty result. It returns the messages handed to the server and
// the replies written, sorted (errors and results may interleave).
func serve(t *testing.T, input string, max int) ([]jsonrpc.Message, []reply) {
	t.Helper()
	var out bytes.Buffer
	c := NewConn(strings.NewReader(input), &out, max, nil)
	defer c.Close()
	msgs := make(chan []jsonrpc.Message, 1)
	go func() {
		var got []jsonrpc.Message
		ctx := context.Background()
		for {
			m, err := c.Read(ctx)
			if err != nil {
				msgs <- got
				return
			}
			got = append(got, m)
			if req, ok := m.(*jsonrpc.Request); ok && req.IsCall() {
				c.Write(ctx, &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)})
			}
		}
	}()
	select {
	case got := <-msgs:
		return got, parseReplies(t, out.Bytes())
	case <-time.After(time.Minute): // hang guard only
		t.Fatal("connection did not drain")
		return nil, nil
	}
}

func parseReplies(t *testing.T, out []byte) []reply {
	t.Helper()
	fr := NewReader(bytes.NewReader(out), 0)
	var replies []reply
	for {
		body, mode, err := fr.Next()
		if err != nil {
			break
		}
		elems := []json.RawMessage{body}
		batch := body[0] == '['
		if batch {
			if err := json.Unmarshal(body, &elems); err != nil {
				t.Fatalf("batch reply %q: %v", body, err)
			}
		}
		for _, e := range elems {
			var r struct {
				ID    json.RawMessage `json:"id"`
				Error *struct{ Code int }
			}
			if err := json.Unmarshal(e, &r); err != nil {
				t.Fatalf("reply %q: %v", e, err)
			}
			rp := reply{Mode: mode, ID: string(r.ID), Batch: batch}
			if r.Error != nil {
				rp.Code = r.Error.Code
			}
			replies = append(replies, rp)
		}
	}
	sort.Slice(replies, func(i, j int) bool {
		return fmt.Sprint(replies[i]) < fmt.Sprint(replies[j])
	})
	return replies
}

func req(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`
}

func frameOf(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

func sorted(r ...reply) []reply {
	sort.Slice(r, func(i, j int) bool { return fmt.Sprint(r[i]) < fmt.Sprint(r[j]) })
	return r
}

// TestConnAnswersEveryRequestAfterGarbage: the probe's inputs. Every valid
// request is answered, every bad input gets one error, each in the framing
// the input used.
func TestConnAnswersEveryRequestAfterGarbage(t *testing.T) {
	bomReqs := strings.Repeat("\xEF\xBB\xBF"+req("1")+"\n", 5)
	tests := []struct {
		name  string
		input string
		max   int
		want  []reply
	}{
		{"BOM before each request", bomReqs, 0, sorted(reply{Line, "1", 0, false}, reply{Line, "1", 0, false}, reply{Line, "1", 0, false}, reply{Line, "1", 0, false}, reply{Line, "1", 0, false})},
		{"garbage line is answered line-framed", "hello world\n" + req("1") + "\n", 0, sorted(reply{Line, "null", -32700, false}, reply{Line, "1", 0, false})},
		{"log line with a colon", "INFO: up\n" + req("1") + "\n" + `{"jsonrpc":"2.0","id":2,"method":"a:b"}` + "\n", 0, sorted(reply{Line, "null", -32700, false}, reply{Line, "1", 0, false}, reply{Line, "2", 0, false})},
		{"garbage in a framed stream is answered framed", frameOf(req("1")) + "oops\n" + frameOf(req("2")), 0, sorted(reply{Framed, "1", 0, false}, reply{Framed, "null", -32700, false}, reply{Framed, "2", 0, false})},
		{"Content-Length too short", "Content-Length: 10\r\n\r\n" + req("1") + "\n" + req("2") + "\n", 0, sorted(reply{Framed, "null", -32700, false}, reply{Line, "1", 0, false}, reply{Line, "2", 0, false})},
		{"Content-Length too short, framed stream", "Content-Length: 10\r\n\r\n" + req("1") + frameOf(req("2")), 0, sorted(reply{Framed, "null", -32700, false}, reply{Framed, "1", 0, false}, reply{Framed, "2", 0, false})},
		{"Content-Length 100000000000", "Content-Length: 100000000000\r\n\r\n" + req("1") + "\n" + req("2") + "\n", 0, sorted(reply{Framed, "null", -32700, false}, reply{Line, "1", 0, false}, reply{Line, "2", 0, false})},
		{"invalid JSON", "{not json}\n" + req("1") + "\n", 0, sorted(reply{Line, "null", -32700, false}, reply{Line, "1", 0, false})},
		{"invalid JSON, id readable", `{"jsonrpc":"2.0","id":3,"method":"x","params":{bad}}` + "\n", 0, sorted(reply{Line, "3", -32700, false})},
		{"line cut short, id readable", `{"jsonrpc":"2.0","id":"c","method":"x","params":{` + "\n" + req("1") + "\n", 0, sorted(reply{Line, `"c"`, -32700, false}, reply{Line, "1", 0, false})},
		{"oversized line, id readable", `{"jsonrpc":"2.0","id":9,"params":"` + strings.Repeat("x", 5000) + `"}` + "\n" + req("1") + "\n", 4096, sorted(reply{Line, "9", -32700, false}, reply{Line, "1", 0, false})},
		{"invalid batch", `[` + req("1") + `,{"x"]` + "\n", 0, sorted(reply{Line, "null", -32700, false})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, got := serve(t, tc.input, tc.max)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("replies (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConnEchoesIDs: ids come back byte for byte, whatever the SDK could
// represent, in results, errors and batches of either framing.
func TestConnEchoesIDs(t *testing.T) {
	ids := []string{`1`, `"abc"`, `1.5`, `18446744073709551616`, `9007199254740993`, `-0`, `1e400`, `1E2`, `""`,
		`"` + strings.Repeat("long", 3000) + `"`, `"a<b>&\u00e9\"q"`, `"\u0061"`, `"é"`}
	for _, id := range ids {
		name := id
		if len(name) > 20 {
			name = name[:20]
		}
		t.Run(name, func(t *testing.T) {
			bad := `{"jsonrpc":"1.0","id":` + id + `,"method":"ping"}`
			deep := `{"jsonrpc":"2.0","method":"ping","params":` + strings.Repeat("[", 1500) + strings.Repeat("]", 1500) + `,"id":` + id + `}`
			input := req(id) + "\n" + frameOf(req(id)) + "[" + req(id) + "," + bad + "]\n" + bad + "\n" + frameOf(deep)
			_, got := serve(t, input, 0)
			want := sorted(reply{Line, id, 0, false}, reply{Framed, id, 0, false}, reply{Line, id, 0, true},
				reply{Line, id, -32600, true}, reply{Line, id, -32600, false}, reply{Framed, id, -32600, false})
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("replies (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConnDeepNesting: a request nested too deeply for the decoder is
// refused with its own id, not with null.
func TestConnDeepNesting(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	tests := []struct{ name, input string }{
		{"just past the SDK limit", `{"jsonrpc":"2.0","id":77,"method":"x","params":` + nest(1000) + "}"},
		{"past encoding/json's limit", `{"jsonrpc":"2.0","id":77,"method":"x","params":` + nest(20000) + "}"},
		{"id after params", `{"jsonrpc":"2.0","method":"x","params":{"a":` + nest(20000) + `},"id":77}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, in := range []struct {
				text string
				want reply
			}{
				{tc.input + "\n", reply{Line, "77", -32600, false}},
				{frameOf(tc.input), reply{Framed, "77", -32600, false}},
				{"[" + tc.input + "," + req("1") + "]\n", reply{Line, "77", -32600, true}},
			} {
				_, got := serve(t, in.text, 0)
				if len(got) == 0 || !cmp.Equal(got[len(got)-1], in.want) && !cmp.Equal(got[0], in.want) {
					t.Errorf("%.30q: replies %v, want %v among them", in.text, got, in.want)
				}
			}
		})
	}
	// Deep but within the limit still reaches the server.
	msgs, got := serve(t, `{"jsonrpc":"2.0","id":5,"method":"x","params":{"a":`+nest(900)+"}}\n", 0)
	if len(msgs) != 1 || !cmp.Equal(got, []reply{{Line, "5", 0, false}}) {
		t.Errorf("depth 902: %d messages, replies %v", len(msgs), got)
	}
}

// TestConnCancellation: notifications/cancelled names the client's id; the
// server must see the synthetic one, and a stale id must not reach it.
func TestConnCancellation(t *testing.T) {
	var out bytes.Buffer
	// The synthetic ids start at 1; request 7 shifts them off the client's.
	input := req("7") + "\n" + req("1.5") + "\n" + req(`"s"`) + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.5,"reason":"r"}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}` + "\n" +
		`[{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"\u0073"}}]` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1.5,"progress":1}}` + "\n"
	c := NewConn(strings.NewReader(input), &out, 0, nil)
	defer c.Close()
	ctx := context.Background()
	var msgs []*jsonrpc.Request
	for range 6 {
		m, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m.(*jsonrpc.Request))
	}
	cancelOf := func(r *jsonrpc.Request) any {
		var p struct{ RequestID any }
		json.Unmarshal(r.Params, &p)
		id, _ := jsonrpc.MakeID(p.RequestID)
		return id
	}
	if msgs[3].Method != "notifications/cancelled" || cancelOf(msgs[3]) != msgs[1].ID {
		t.Errorf("cancellation %s %s, want requestId %v", msgs[3].Method, msgs[3].Params, msgs[1].ID.Raw())
	}
	if msgs[4].Method != "notifications/cancelled" || cancelOf(msgs[4]) != msgs[2].ID {
		t.Errorf("cancellation in a batch %s %s, want requestId %v", msgs[4].Method, msgs[4].Params, msgs[2].ID.Raw())
	}
	if msgs[5].Method != "notifications/progress" || !strings.Contains(string(msgs[5].Params), `"progressToken":1.5`) {
		t.Errorf("the stale cancellation reached the server, or progress was altered: %s %s", msgs[5].Method, msgs[5].Params)
	}
	for _, m := range msgs[:3] {
		c.Write(ctx, &jsonrpc.Response{ID: m.ID, Result: json.RawMessage(`{}`)})
	}
	if _, err := c.Read(ctx); err == nil {
		t.Error("more messages than sent")
	}
	if got := parseReplies(t, out.Bytes()); !cmp.Equal(got, sorted(reply{Line, "7", 0, false}, reply{Line, "1.5", 0, false}, reply{Line, `"s"`, 0, false})) {
		t.Errorf("replies %v", got)
	}
}

// TestConnServerRequests: what the server initiates, and the client's
// answers to it, pass through with their ids untouched.
func TestConnServerRequests(t *testing.T) {
	c, in, out, done := pipeConn(t)
	defer done()
	ctx := context.Background()
	go func() {
		in.Write([]byte(frameOf(req("1"))))
		in.Write([]byte(frameOf(`{"jsonrpc":"2.0","id":5,"result":{"roots":[]}}`)))
		in.Write([]byte(`{"jsonrpc":"2.0","id":"x","error":{"code":-1,"message":"no"}}` + "\n"))
	}()
	m, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	first := m.(*jsonrpc.Request)
	five, _ := jsonrpc.MakeID(float64(5))
	c.Write(ctx, &jsonrpc.Request{ID: five, Method: "roots/list"})
	c.Write(ctx, &jsonrpc.Request{Method: "notifications/message", Params: json.RawMessage(`{"level":"info"}`)})
	for _, want := range []any{int64(5), "x"} {
		m, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if r, ok := m.(*jsonrpc.Response); !ok || r.ID.Raw() != want {
			t.Errorf("client response %#v, want id %v", m, want)
		}
	}
	c.Write(ctx, &jsonrpc.Response{ID: first.ID, Result: json.RawMessage(`{}`)})
	// Server-initiated messages went out while the last inbound message was
	// framed; the answer goes in its request's framing.
	want := frameOf(`{"jsonrpc":"2.0","id":5,"method":"roots/list"}`) +
		frameOf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}`) +
		frameOf(`{"jsonrpc":"2.0","id":1,"result":{}}`)
	if got := out.String(); got != want {
		t.Errorf("output\n%q\nwant\n%q", got, want)
	}
}

func TestReencode(t *testing.T) {
	got, err := reencode([]byte(`{"result":{"a":"<&>"},"id":7,"jsonrpc":"2.0"}`), json.RawMessage(`1.50`))
	if err != nil || !bytes.Contains(got, []byte(`"id":1.50`)) || !bytes.Contains(got, []byte(`"<&>"`)) {
		t.Errorf("reencode: %s, %v", got, err)
	}
}
