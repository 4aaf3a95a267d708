package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// sdkDecode is what decodeOne hands the SDK's decoder: the message with
// its id replaced by the synthetic one, when it has a method and an id.
func withSyn(b []byte, syn int64) ([]byte, int64) {
	env := scanEnvelope(b)
	if env.method && env.id(b) != nil {
		return env.withID(b, syn), syn
	}
	return b, 0
}

// FuzzDecodeRequestAgreesWithSDK: whatever decodeRequest accepts, the
// SDK's decoder decodes to the same request.
func FuzzDecodeRequestAgreesWithSDK(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"activate","arguments":{"agent_id":"a","query":"q"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		` { "params" : [1, {"a" : "\u00e9"}] , "method":"x", "jsonrpc" : "2.0", "id" : "s" } `,
		`{"jsonrpc":"2.0","id":null,"method":"a"}`,
		`{"jsonrpc":"2.0","id":1,"id":2,"method":"a"}`,
		`{"jsonrpc":"2.0","id":1,"method":"a\"b"}`,
		`{"jsonrpc":"2.0","id":1,"method":"a","params":null}`,
		`{"jsonrpc":"1.0","id":1,"method":"a"}`,
		`{"JSONRPC":"2.0","id":1,"method":"a"}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"method":"a","extra":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) || nestingDepth(data) > maxDepth {
			return
		}
		raw, syn := withSyn(data, 41)
		got, ok := decodeRequest(raw, syn)
		if !ok {
			return
		}
		msg, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			t.Fatalf("decodeRequest accepted %s; the SDK: %v", raw, err)
		}
		want, isReq := msg.(*jsonrpc.Request)
		if !isReq {
			t.Fatalf("decodeRequest accepted %s; the SDK decodes a %T", raw, msg)
		}
		if got.Method != want.Method || got.ID != want.ID || !bytes.Equal(got.Params, want.Params) ||
			(got.Params == nil) != (want.Params == nil) {
			t.Fatalf("%s:\n got  %q %v %q\n want %q %v %q", raw, got.Method, got.ID, got.Params, want.Method, want.ID, want.Params)
		}
	})
}

// The shapes decodeRequest takes and leaves to the SDK.
func TestDecodeRequestShapes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		fast bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`, true},
		{`{"method":"ping","jsonrpc":"2.0","id":"abc"}`, true},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, true},
		{`{"jsonrpc":"2.0","id":1,"method":"a","params":null}`, false}, // null params: the SDK's reading
		{`{"jsonrpc":"2.0","id":1,"method":"a\u0062"}`, false},         // escaped method
		{`{"jsonrpc":"2.0","id":1,"id":2,"method":"a"}`, false},        // repeated member
		{`{"jsonrpc":"2.0","id":null,"method":"a"}`, false},            // id not the synthetic one
		{`{"jsonrpc":"2.0","id":1,"method":"a","x":1}`, false},         // unknown member
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, false},                // a response
		{`{"jsonrpc":"1.0","id":1,"method":"a"}`, false},               // wrong version
		{`{"Method":"a","jsonrpc":"2.0","id":1}`, false},               // key of another case
	} {
		raw, syn := withSyn([]byte(tc.in), 9)
		got, ok := decodeRequest(raw, syn)
		if ok != tc.fast {
			t.Errorf("%s: fast %v, want %v", tc.in, ok, tc.fast)
			continue
		}
		if !ok {
			continue
		}
		msg, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		want := msg.(*jsonrpc.Request)
		if got.Method != want.Method || got.ID != want.ID || string(got.Params) != string(want.Params) {
			t.Errorf("%s: got %+v, want %+v", tc.in, got, want)
		}
	}
}

// A result response is written byte for byte as the SDK's encoder and the
// id swap wrote it, in both framings.
func TestWriteResultAsEncodeMessage(t *testing.T) {
	results := []string{`{}`, `null`, `{"a": [1, 2] , "b":"<&>\u2028 é"}`, `"x"`, `{"text":"{\"k\":\"<v>\"}"}`}
	ids := []string{`1`, `"abc"`, `1.5e3`, `"\u0061"`, `18446744073709551616`}
	for _, mode := range []Mode{Line, Framed} {
		for _, id := range ids {
			for _, res := range results {
				r := &route{mode: mode, id: json.RawMessage(id), syn: 3}
				resp := &jsonrpc.Response{ID: synID(3), Result: json.RawMessage(res)}
				body, err := encodeResponse(resp, r)
				if err != nil {
					t.Fatal(err)
				}
				var want bytes.Buffer
				WriteFrame(&want, mode, body)
				var got bytes.Buffer
				c := &Conn{out: &got}
				if err := c.writeResult(r, resp.Result); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want.String(), got.String()); diff != "" {
					t.Errorf("mode %v id %s result %s (-encodeResponse +writeResult):\n%s", mode, id, res, diff)
				}
			}
		}
	}
	// Bytes the encoder refuses: the same error.
	c := &Conn{out: new(bytes.Buffer)}
	if err := c.writeResult(&route{id: json.RawMessage(`1`), syn: 3}, json.RawMessage(`{"a":`)); err == nil {
		t.Error("an invalid result was written")
	}
}

// A call's round trip through the connection — a tools/call read, a
// 16 KB result written — allocates less than the answer, not the SDK
// decoder's 32 KB read buffer and three copies of the answer (122 KB).
func TestRoundTripAllocatesLittle(t *testing.T) {
	const n = 200
	var in strings.Builder
	for i := range n + 1 {
		in.WriteString(`{"jsonrpc":"2.0","id":` + string(rune('1'+i%9)) + `,"method":"tools/call","params":{"name":"activate","arguments":{"agent_id":"a","query":"parse json"}}}` + "\n")
	}
	result, _ := json.Marshal(map[string]string{"text": strings.Repeat("activation ", 16<<10/11)})
	c := NewConn(strings.NewReader(in.String()), discard{}, 0, nil)
	defer c.Close()
	ctx := context.Background()
	roundTrip := func() {
		m, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Write(ctx, &jsonrpc.Response{ID: m.(*jsonrpc.Request).ID, Result: result}); err != nil {
			t.Fatal(err)
		}
	}
	roundTrip() // the pool's first buffer
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		roundTrip()
	}
	runtime.ReadMemStats(&after)
	perCall := float64(after.TotalAlloc-before.TotalAlloc) / n
	t.Logf("%.0f bytes a round trip, answer %d bytes", perCall, len(result))
	// (Under -race the pool drops a quarter of what it is given.)
	if limit := float64(len(result)); perCall > limit {
		t.Errorf("a round trip allocates %.0f bytes, want less than one copy of the %d-byte answer", perCall, len(result))
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
