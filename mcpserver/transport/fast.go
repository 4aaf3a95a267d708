package transport

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/m1nd-go/m1nd/mcpserver/internal/bufpool"
)

// The common message — a request or a notification with a plain method
// and object or array params — is decoded here, and a result response is
// written from one pooled buffer. Why: the SDK's decoder takes a fresh
// 32 KB read buffer for every message, and its encoder, the id swap and
// the framing each copied the answer again; on go-std those were about a
// fifth of what an activate call allocates (activate-speed10.md), and
// every byte allocated brings the next full mark of a ≈ 300 MB live heap
// closer. Anything else goes through the SDK as before.

// decodeRequest decodes b when it is an object whose members are exactly
// "jsonrpc":"2.0", a "method" string of plain ASCII, at most one "id"
// (a number: the synthetic id, syn) and at most one "params" (an object or
// an array), each once, keys unescaped. ok is false for any other shape;
// for this one the answer is what jsonrpc.DecodeMessage would return
// (FuzzDecodeRequestAgreesWithSDK). b must be valid JSON.
func decodeRequest(b []byte, syn int64) (req *jsonrpc.Request, ok bool) {
	i := skipWS(b, 0)
	if i == len(b) || b[i] != '{' {
		return nil, false
	}
	var version, method, id, params []byte
	for i = skipWS(b, i+1); i < len(b) && b[i] == '"'; i = skipWS(b, i+1) {
		key, vs, ve, ok := member(b, i)
		if !ok {
			return nil, false
		}
		var slot *[]byte
		switch string(key) {
		case `"jsonrpc"`:
			slot = &version
		case `"method"`:
			slot = &method
		case `"id"`:
			slot = &id
		case `"params"`:
			slot = &params
		default:
			return nil, false
		}
		if *slot != nil {
			return nil, false // a repeated member: the decoder's last-wins rule is left to it
		}
		*slot = b[vs:ve]
		if i = skipWS(b, ve); b[i] == '}' {
			if skipWS(b, i+1) != len(b) {
				return nil, false
			}
			return request(version, method, id, params, syn)
		}
	}
	return nil, false
}

// request builds the request from decodeRequest's members, or reports
// that they are not the plain shape.
func request(version, method, id, params []byte, syn int64) (*jsonrpc.Request, bool) {
	switch {
	case string(version) != `"2.0"`, len(method) < 2, method[0] != '"', !plainASCII(method):
		return nil, false
	case params != nil && params[0] != '{' && params[0] != '[':
		return nil, false
	}
	req := &jsonrpc.Request{Method: string(method[1 : len(method)-1]), Params: json.RawMessage(params)}
	if id != nil {
		var a [20]byte
		if !bytes.Equal(id, strconv.AppendInt(a[:0], syn, 10)) {
			return nil, false
		}
		req.ID = synID(syn)
	}
	return req, true
}

// plainASCII reports whether a JSON string reads as its bytes: printable
// ASCII, no escapes (the decoder rewrites invalid UTF-8, for one).
func plainASCII(s []byte) bool {
	for _, c := range s {
		if c < 0x20 || c > 0x7e || c == '\\' {
			return false
		}
	}
	return true
}

// writeResult writes a result response to the request r routes (alone,
// not in a batch) with the client's id, as EncodeMessage and the id swap
// would have laid it out, framed, in one buffer and one write.
func (c *Conn) writeResult(r *route, result json.RawMessage) error {
	buf := bufpool.Get()
	defer bufpool.Put(buf)
	buf.WriteString(`{"jsonrpc":"2.0","id":`)
	buf.Write(r.id)
	buf.WriteString(`,"result":`)
	if err := json.Compact(buf, result); err != nil {
		// The SDK's encoder fails on the same bytes: let it say so.
		_, err := encodeResponse(&jsonrpc.Response{ID: synID(r.syn), Result: result}, r)
		return err
	}
	buf.WriteByte('}')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if c.said {
		return nil // handed over: the notification told the client what is unanswered
	}
	if r.mode == Framed {
		return WriteFrame(c.out, Framed, buf.Bytes())
	}
	buf.WriteByte('\n')
	_, err := c.out.Write(buf.Bytes())
	return err
}
