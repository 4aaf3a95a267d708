package transport

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A plain tools/call — alone, not in a batch, params {"name", "arguments"}
// and nothing else (no _meta, so no progress token) — may be run here,
// beside the server, when Stdio.Call takes it. Why: the SDK decodes the
// params of every call twice, each time with a fresh 32 KB buffer; on
// go-std that was over a quarter of what an activate call allocates
// (activate-speed12.md). The connection keeps for such a call what the
// SDK would: it is delivered and marked in order (barrier, handover), its
// answer is written as the SDK's would be, and notifications/cancelled
// and the connection's end call it off.

// CallFunc is Stdio.Call: given a plain tools/call's tool name and raw
// arguments (nil when absent), it returns the function that answers it —
// the result's JSON, as the server would have sent it — or nil to leave
// the call to the server.
type CallFunc func(name string, args json.RawMessage) func(context.Context) (json.RawMessage, error)

const methodCall = "tools/call"

// answerHere runs m beside the server when it is a plain tools/call that
// c.call takes, or calls off such a call when m is a cancellation naming
// it; it reports whether m was consumed.
func (c *Conn) answerHere(m jsonrpc.Message) bool {
	req, ok := m.(*jsonrpc.Request)
	if !ok || c.call == nil {
		return false
	}
	if req.Method == "notifications/cancelled" {
		return c.cancelHere(req)
	}
	if req.Method != methodCall || !req.IsCall() {
		return false
	}
	name, args, ok := callParams(req.Params)
	if !ok {
		return false
	}
	c.mu.Lock()
	r := c.pending[req.ID]
	c.mu.Unlock()
	if r == nil || r.batch != nil {
		return false
	}
	run := c.call(name, args)
	if run == nil {
		return false
	}
	ctx, cancel := context.WithCancel(c.callCtx)
	c.mu.Lock()
	r.cancel = cancel
	c.mu.Unlock()
	c.calls.Add(1)
	go func() {
		defer c.calls.Done()
		defer cancel()
		res, err := run(ctx)
		c.answer(req.ID, r, res, err)
		if c.release != nil && res != nil {
			c.release(res)
		}
	}()
	return true
}

// answer writes a call's result as Write would have, then forgets the
// call. A result that cannot be encoded gets no answer, as from the SDK.
func (c *Conn) answer(id jsonrpc.ID, r *route, res json.RawMessage, err error) {
	defer c.finish(id, r)
	select {
	case <-c.closed:
		return
	default:
	}
	if err == nil && len(res) > 0 {
		c.writeResult(r, res)
	}
}

// cancelHere calls off the call a notifications/cancelled names (its
// requestId already the synthetic one, mapCancel) when it runs here.
func (c *Conn) cancelHere(req *jsonrpc.Request) bool {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(req.Params, &p) != nil {
		return false
	}
	n, err := strconv.ParseInt(string(p.RequestID), 10, 64)
	if err != nil {
		return false
	}
	c.mu.Lock()
	r := c.pending[synID(n)]
	c.mu.Unlock()
	if r == nil || r.cancel == nil {
		return false
	}
	r.cancel()
	return true
}

// endCalls calls off the calls running here and waits for them, as the
// SDK does for its own when the connection's reading ends.
func (c *Conn) endCalls() {
	c.stopCalls()
	c.calls.Wait()
}

// callParams reads params that are exactly an object of a "name" (a
// string of plain ASCII) and at most one "arguments" (an object), keys
// unescaped, each once; ok is false for any other shape.
func callParams(b []byte) (name string, args json.RawMessage, ok bool) {
	i := skipWS(b, 0)
	if i == len(b) || b[i] != '{' {
		return "", nil, false
	}
	var rawName []byte
	for i = skipWS(b, i+1); i < len(b) && b[i] == '"'; i = skipWS(b, i+1) {
		key, vs, ve, ok := member(b, i)
		if !ok {
			return "", nil, false
		}
		switch v := b[vs:ve]; {
		case string(key) == `"name"` && rawName == nil && v[0] == '"' && plainASCII(v):
			rawName = v
		case string(key) == `"arguments"` && args == nil && v[0] == '{':
			args = v
		default:
			return "", nil, false
		}
		if i = skipWS(b, ve); b[i] == '}' {
			if rawName == nil || skipWS(b, i+1) != len(b) {
				return "", nil, false
			}
			return string(rawName[1 : len(rawName)-1]), args, true
		}
	}
	return "", nil, false
}
