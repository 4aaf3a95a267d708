package openclaw

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestEnvelope(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	tests := []struct{ in, id, tool string }{
		{`{"id":1.5,"tool":"health"}`, `1.5`, "health"},
		{`{"tool":"x","arguments":` + deep + `,"id":"a\"b"}`, `"a\"b"`, "x"},
		{` { "ID" : 18446744073709551616 , "Tool":"t", "arguments": {"q": "}]"`, `18446744073709551616`, "t"},
		{`{"id":12`, ``, ""},
		{`{"id":"unterminated`, ``, ""},
		{`{"id":{"a":[1,{"b":"]"}]},"tool":7}`, `{"a":[1,{"b":"]"}]}`, ""},
		{`{"id":tru,"tool":"x"}`, ``, "x"},
		{`[1]`, ``, ""},
		{``, ``, ""},
	}
	for _, tc := range tests {
		id, tool := envelope([]byte(tc.in))
		if string(id) != tc.id || tool != tc.tool {
			t.Errorf("%.60s: id %s tool %q, want %s %q", tc.in, id, tool, tc.id, tc.tool)
		}
	}
}

// FuzzEnvelope: no panic, and wherever the JSON decoder reads the request,
// the scan finds the same id and tool.
func FuzzEnvelope(f *testing.F) {
	f.Add([]byte(`{"id":1.5,"tool":"health","arguments":{"q":"}"}}`))
	f.Add([]byte(`{"ID":"a\"b","Tool":"x","id":[1,{"k":"]"}]}`))
	f.Add([]byte(`{"tool":"t","arguments":[[[[]]]],"id":18446744073709551616}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		id, tool := envelope(line)
		var req Request
		if json.NewDecoder(bytes.NewReader(line)).Decode(&req) != nil {
			return
		}
		if !bytes.Equal(id, req.ID) || tool != req.Tool {
			t.Errorf("%q: envelope %s %q, decoder %s %q", line, id, tool, req.ID, req.Tool)
		}
	})
}
