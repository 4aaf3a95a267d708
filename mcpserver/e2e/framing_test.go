package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/mcpserver/transport"
)

// TestGarbageThenRequestsThroughTheBinary: the adversarial probe's inputs
// through the real server. Garbage before requests (a byte-order mark, a
// log line with a colon, a too-short or absurd Content-Length, a stray
// line) costs one error each and no request; deep nesting is refused with
// the request's id; odd ids come back byte for byte.
func TestGarbageThenRequestsThroughTheBinary(t *testing.T) {
	p := start(t, nil)
	p.initialize(transport.Line)
	ping := func(id string) string { return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}` }
	framed := func(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }
	deep := `{"jsonrpc":"2.0","id":111,"method":"ping","params":{"a":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}}`
	odd := []string{`1.5`, `18446744073709551616`, `-0`, `1e400`, `"e2e-\u0041<&>"`, `""`}

	var in strings.Builder
	want := map[string]transport.Mode{} // raw id → framing of its answer
	for _, id := range []string{"101", "102", "103", "104", "105"} {
		in.WriteString("\xEF\xBB\xBF" + ping(id) + "\n")
		want[id] = transport.Line
	}
	in.WriteString("INFO: stray log line: with colons\n" + ping("106") + "\n")
	in.WriteString("Content-Length: 10\r\n\r\n" + ping("107") + "\n" + ping("108") + "\n")
	in.WriteString("Content-Length: 100000000000\r\n\r\n" + ping("109") + "\n")
	in.WriteString("garbage\n" + framed(ping("110")))
	in.WriteString(deep + "\n")
	for _, k := range []string{"106", "107", "108", "109", "111"} {
		want[k] = transport.Line
	}
	want["110"] = transport.Framed
	for _, id := range odd {
		in.WriteString(ping(id) + "\n")
		want[id] = transport.Line
	}
	if _, err := io.WriteString(p.in, in.String()); err != nil {
		t.Fatal(err)
	}

	nullErrors := 0
	for len(want) > 0 {
		body, mode := p.recvRaw()
		var r struct {
			ID    json.RawMessage `json:"id"`
			Error *struct{ Code int }
		}
		if err := json.Unmarshal(body, &r); err != nil {
			t.Fatalf("response %q: %v", body, err)
		}
		id := string(r.ID)
		switch m, ok := want[id]; {
		case id == "null":
			nullErrors++
		case !ok:
			t.Fatalf("unexpected response %s", body)
		case mode != m:
			t.Errorf("id %s answered %v, want %v", id, mode, m)
		case id == "111" && (r.Error == nil || r.Error.Code != -32600):
			t.Errorf("deep request: %s", body)
		case id != "111" && r.Error != nil:
			t.Errorf("id %s: %s", id, body)
		}
		delete(want, id)
	}
	// The log line, the two bad frames and the stray line.
	if nullErrors != 4 {
		t.Errorf("%d errors with id null, want 4", nullErrors)
	}
	if m := p.request(transport.Line, "ping", map[string]any{}); m["result"] == nil {
		t.Errorf("still alive: %v", m)
	}
	if err := p.closeAndWait(); err != nil {
		t.Fatal(err)
	}
}
