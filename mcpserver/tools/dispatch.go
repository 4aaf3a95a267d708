package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strings"
	"time"
	"unsafe"

	"github.com/m1nd-go/m1nd/mcpserver/internal/bufpool"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// Result is a tool's answer: a JSON-able value, or a teaching error.
type Result struct {
	Value   any
	IsError bool
	// enc is Value's encoding, made once by Dispatcher.Call and never
	// written again: the stale check, the call log and the transport all
	// read the answer's JSON, and encoding it for each was ≈ 90 KB of an
	// activate's allocation on go-std (activate-speed9.md).
	enc []byte
	// buf is the pooled buffer enc lies in (PooledAnswers), nil when enc
	// is a slice of its own.
	buf *bytes.Buffer
}

// Text renders the result as the JSON the MCP text content carries:
// compact, since agents pay for every byte and parse it anyway.
func (r Result) Text() string {
	if r.enc != nil {
		return unsafeString(r.enc)
	}
	return string(encode(r.Value))
}

// encoded returns r with its text made, once.
func (r Result) encoded() Result {
	if r.enc == nil {
		r.enc = encode(r.Value)
	}
	return r
}

// encodedIn is encoded, into a pooled buffer when pooled.
func (r Result) encodedIn(pooled bool) Result {
	if r.enc != nil || !pooled {
		return r.encoded()
	}
	buf := bufpool.Get()
	if err := json.NewEncoder(buf).Encode(r.Value); err != nil { // json.Marshal's bytes and a newline
		bufpool.Put(buf)
		return r.encoded() // the teaching error, as encode writes it
	}
	r.enc, r.buf = buf.Bytes()[:buf.Len()-1], buf
	return r
}

// Release gives back the pooled buffer r's text lies in, if it has one
// (PooledAnswers): neither r's Text nor anything taken from it may be
// read afterwards.
func (r Result) Release() {
	bufpool.Put(r.buf) // the answer's JSON was ≈ 10 KB of a go-std activate's garbage
}

type pooledKey struct{}

// PooledAnswers marks ctx's calls as answered by a caller that calls
// Result.Release once it has written the answer and keeps nothing of its
// text (the stdio transport's plain calls): Dispatcher.Call then encodes
// the answer into a pooled buffer. Any other caller gets a text of its own.
func PooledAnswers(ctx context.Context) context.Context {
	return context.WithValue(ctx, pooledKey{}, true)
}

// encode is Value's JSON, or the teaching error saying why it has none.
func encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(&Error{Message: "internal error: result is not serialisable: " + err.Error()})
	}
	return b
}

// unsafeString is b as a string without a copy: Result.enc is written
// once, when made (encode's json.Marshal returns a fresh slice).
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Dispatcher runs tool calls against a session. Every transport (MCP stdio,
// the OpenClaw socket) goes through Call, so all of them behave the same.
type Dispatcher struct {
	Registry *Registry
	Session  *session.State
}

// Call resolves name (any accepted spelling), validates args, runs the
// handler and converts every failure — including a panic — into a teaching
// error result. progress may be nil.
func (d *Dispatcher) Call(ctx context.Context, name string, args json.RawMessage, progress Progress) (res Result) {
	t, ok := d.Registry.Lookup(name)
	if !ok {
		return Result{Value: d.unknownTool(name), IsError: true}
	}
	pooled := ctx.Value(pooledKey{}) != nil
	parsed, perr := parseArgs(t, args)
	if perr != nil {
		return Result{Value: asToolError(t, perr), IsError: true}
	}
	var agent string
	json.Unmarshal(parsed["agent_id"], &agent)
	if strings.TrimSpace(agent) == "" {
		return Result{Value: asToolError(t, missing(t, AgentIDParam)), IsError: true}
	}
	if progress == nil {
		progress = func(float64, float64, string) {}
	}
	ctx, cancel := context.WithTimeout(ctx, CallBudget(t))
	defer cancel()
	c := &Call{Ctx: ctx, Tool: t, AgentID: agent, Session: d.Session, Progress: progress, Registry: d.Registry, args: parsed}
	d.Session.Touch(agent)
	start := time.Now()
	defer func() {
		if p := recover(); p != nil {
			d.Session.Logf("panic in tool %s: %v\n%s", t.Name, p, debug.Stack())
			res = Result{Value: asToolError(t, &Error{
				Message:           fmt.Sprintf("internal error in %s: %v", t.Name, p),
				Hint:              "This is a bug in m1nd, not in your call. The server is still running and the graph is unchanged.",
				SuggestedNextStep: "Call health to confirm the server state, then retry or try a related tool.",
			}), IsError: true}
		}
		d.Session.QueryDone()
		res = res.encodedIn(pooled)
		logCall(d.Session, c, args, res, time.Since(start)) // savings and report read it
	}()
	v, err := t.Run(c)
	if err != nil {
		return Result{Value: asToolError(t, err), IsError: true}
	}
	if t.Class == Read {
		recordCoverage(d.Session, c, v) // what the agent was shown (coverage_session)
	}
	res = Result{Value: v}
	if t.flagsStale() {
		res = d.flagStale(res.encodedIn(pooled))
	}
	return res
}

// flagStale adds stale_files to an answer that names files changed or
// deleted on disk since the graph was built from them: their entities and
// line numbers may no longer be what the answer says. Only the files the
// answer names are stat'ed, at the answer (session.NamedFiles says why).
// The answer is encoded here once, for the check and for the transport.
func (d *Dispatcher) flagStale(r Result) Result {
	nf := d.Session.NamedFiles(d.Session.Current())
	if nf == nil {
		return r
	}
	r = r.encoded()
	data := r.enc
	if len(data) == 0 || data[0] != '{' {
		return r
	}
	eachString(data, nf.Note)
	named := nf.Stale()
	if len(named) == 0 {
		return r
	}
	extra, err := json.Marshal(StaleFiles{
		Files: named,
		Hint:  "These files changed or were deleted on disk after the graph was built: what this answer says of them (entities, lines, edges) may be out of date. Re-ingest with incremental: true to refresh.",
	})
	if err != nil || data[len(data)-1] != '}' {
		return r
	}
	// The answer's own JSON with one more member: no decoding into a map
	// and encoding again.
	out := make([]byte, 0, len(data)+len(extra)+16)
	out = append(out, data[:len(data)-1]...)
	if len(bytes.TrimSpace(data[1:len(data)-1])) > 0 {
		out = append(out, ',')
	}
	out = append(out, `"stale_files":`...)
	out = append(out, extra...)
	out = append(out, '}')
	r.Release() // copied into out
	return Result{Value: json.RawMessage(out), enc: out}
}

// eachString calls f with every string of data (valid JSON, as Marshal
// writes it), keys included, unescaped.
func eachString(data []byte, f func([]byte)) {
	for i := 0; i < len(data); i++ {
		if data[i] != '"' {
			continue
		}
		j, escaped := i+1, false
		for ; data[j] != '"'; j++ {
			if data[j] == '\\' {
				escaped = true
				j++
			}
		}
		var s string
		switch {
		case !escaped:
			f(data[i+1 : j])
		case json.Unmarshal(data[i:j+1], &s) == nil:
			f([]byte(s))
		}
		i = j
	}
}

// Per-call time budgets: the call's context ends then, so waits (for the
// read semaphore, the graph lock) and the loops that check it give up
// instead of holding the server. An ingest of a large repository takes
// minutes; nothing else should.
const (
	ReadBudget   = 2 * time.Minute
	IngestBudget = session.MaxIngestTimeout
)

// CallBudget is the time a call of t may take.
func CallBudget(t *Tool) time.Duration {
	if t.Class == Read {
		return ReadBudget
	}
	return IngestBudget
}

func (d *Dispatcher) unknownTool(name string) *Error {
	sugg := d.Registry.Suggest(name)
	e := &Error{
		Message:           fmt.Sprintf("unknown tool %q", name),
		Hint:              "Tool names are bare (activate, seek, ingest); m1nd.activate, m1nd_activate and lock.create style aliases are accepted too.",
		SuggestedNextStep: "Call help (no arguments) for the list of tools.",
		Example:           map[string]any{"name": "help", "arguments": map[string]any{"agent_id": "claude"}},
	}
	if len(sugg) > 0 {
		e.Hint = fmt.Sprintf("Did you mean %s? ", strings.Join(sugg, " or ")) + e.Hint
		e.Extra = map[string]any{"closest_tools": sugg}
	}
	return e
}
