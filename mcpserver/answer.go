package mcpserver

import (
	"bytes"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/m1nd-go/m1nd/mcpserver/internal/bufpool"
)

// toolAnswer is a tools/call answer that writes its own JSON, the same
// bytes as the SDK's. Why: the SDK marshals the text content, then the
// result around it (each a copy of the answer, escaped again), and its
// connection copies that once more; on go-std those copies were a fifth
// of what an activate call allocates (activate-speed11.md), and every
// byte allocated brings the next mark of a ≈ 300 MB live heap closer.
// It embeds the SDK's result, so the SDK handles it as its own (it has
// already stamped the result's type by the time it reaches middleware).
type toolAnswer struct{ *mcp.CallToolResult }

// answered writes a tools/call answer as a toolAnswer.
func answered(res mcp.Result, err error) (mcp.Result, error) {
	if r, ok := res.(*mcp.CallToolResult); ok && r != nil && err == nil {
		return toolAnswer{r}, nil
	}
	return res, err
}

// emptyTextHead is how the SDK begins a result whose one content is an
// empty text with no metadata.
const emptyTextHead = `{"content":[{"type":"text","text":""}]`

// MarshalJSON writes the text content and the structured content once,
// and lets the SDK write the rest (isError, its result type) around an
// empty text. Any other shape is the SDK's to write.
func (a toolAnswer) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := a.writeTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeTo appends the answer's JSON, as MarshalJSON returns it, to buf.
func (a toolAnswer) writeTo(buf *bytes.Buffer) error {
	text, structured, ok := a.plain()
	if !ok {
		return sdkJSON(buf, a.CallToolResult)
	}
	rest := *a.CallToolResult
	rest.Content = []mcp.Content{&mcp.TextContent{}}
	rest.StructuredContent = nil
	tail, err := json.Marshal(&rest)
	if err != nil || !bytes.HasPrefix(tail, []byte(emptyTextHead)) {
		return sdkJSON(buf, a.CallToolResult)
	}
	tail = tail[len(emptyTextHead):]
	buf.Grow(len(text) + len(text)/4 + len(structured) + len(tail) + 64)
	buf.WriteString(emptyTextHead[:len(emptyTextHead)-len(`""}]`)])
	// The SDK's encoder: HTML characters, U+2028/9 and invalid UTF-8
	// escaped as json.Marshal does, the raw structured content compacted.
	enc := json.NewEncoder(buf)
	if err := enc.Encode(text); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode's newline
	buf.WriteString("}]")
	if structured != nil {
		buf.WriteString(`,"structuredContent":`)
		if err := enc.Encode(structured); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1)
	}
	buf.Write(tail)
	return nil
}

// sdkJSON appends the SDK's JSON of r to buf.
func sdkJSON(buf *bytes.Buffer, r *mcp.CallToolResult) error {
	b, err := json.Marshal(r)
	if err == nil {
		buf.Write(b)
	}
	return err
}

// pooledAnswer writes a's JSON into a pooled buffer; the transport gives
// it back once it has framed it (releaseAnswer). Why: a fresh buffer was
// ≈ 13 KB of a go-std activate's garbage.
func pooledAnswer(a toolAnswer) (json.RawMessage, error) {
	buf := bufpool.Get()
	if err := a.writeTo(buf); err != nil {
		bufpool.Put(buf)
		return nil, err
	}
	return buf.Bytes(), nil
}

// releaseAnswer is transport.Stdio.Release: the connection no longer
// reads b, a plain call's answer, so its bytes may take the next one.
func releaseAnswer(b json.RawMessage) {
	if cap(b) > 0 {
		bufpool.Put(bytes.NewBuffer(b[:0]))
	}
}

// plain returns the answer's text and raw structured content when it
// has the shape toMCP makes: one text content without metadata or
// annotations, and no metadata of its own.
func (a toolAnswer) plain() (text string, structured json.RawMessage, ok bool) {
	r := a.CallToolResult
	if r == nil || r.Meta != nil || len(r.Content) != 1 {
		return "", nil, false
	}
	t, isText := r.Content[0].(*mcp.TextContent)
	if !isText || t == nil || t.Meta != nil || t.Annotations != nil {
		return "", nil, false
	}
	switch s := r.StructuredContent.(type) {
	case nil:
	case json.RawMessage:
		if s == nil {
			return "", nil, false // a typed nil the SDK writes as null
		}
		structured = s
	default:
		return "", nil, false
	}
	return t.Text, structured, true
}
