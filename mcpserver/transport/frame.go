// Package transport carries MCP JSON-RPC messages over a byte stream (stdio)
// in either framing, detected per message after any whitespace and UTF-8
// byte-order marks: '{' or '[' starts one JSON message per line; a line
// that looks like a header ("Name: value", the name an HTTP token) starts
// LSP-style headers, a blank line and Content-Length bytes of body. Each
// response goes out in the framing of the request it answers.
//
// Bad input is answered with a JSON-RPC parse error (id null unless the
// request's id can still be read), never silently swallowed, and the
// reader resynchronises by these rules:
//
//   - A line that is neither JSON nor a header is one error; it ends at its
//     newline or at a "Content-Length:" inside it, where headers start.
//   - A '{' or '[' line must close its object or array before the newline;
//     if it does not, the line is one error. If more text follows the value
//     on the line, the value is a message and the rest is read anew (so a
//     framed stream that lost sync resumes at the next header).
//   - A header block ends at a blank line, or just before a line that is
//     not a header: a '{' or '[' line after headers is a message, never a
//     header. A block without a usable Content-Length (missing, invalid,
//     over the size limit, no blank line after it) is an error and claims
//     no body: what follows is read as usual.
//   - A frame is well-formed when its Content-Length bytes hold exactly one
//     JSON object or array, judged by bracket structure (a syntax error
//     inside is answered for that message). Otherwise it is an error, and
//     the reader resumes at the first line start in the body bytes it read
//     (the body's own start included) whose line begins with a complete
//     object or array; failing that it skips those bytes if they begin with
//     '{' or '['. It stops reading a body as soon as the body cannot be
//     well-formed, and headers inside those bytes announce no body.
//
// Hence a well-formed request on a line of its own is always answered,
// unless an earlier complete header block announced a length reaching into
// it and the bytes so claimed hold one JSON value enclosing it; while they
// still could, the reader waits for them (or for the end of input).
//
// An error about a well-formed message is answered in its framing; other
// errors in the stream's framing: that of the latest Content-Length header
// or well-formed line message, Line before either.
package transport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Mode is a message framing.
type Mode uint8

const (
	// Line is one JSON object (or batch array) per line.
	Line Mode = iota
	// Framed is Content-Length headers, a blank line, then the body.
	Framed
)

func (m Mode) String() string {
	if m == Framed {
		return "framed"
	}
	return "line"
}

// DefaultMaxMessage bounds a single inbound message (64 MiB): large enough
// for a pasted bug report or a whole-file edit, small enough to refuse a
// runaway client.
const DefaultMaxMessage = 64 << 20

const (
	maxHeaderLine = 8 << 10
	readChunk     = 64 << 10
)

var (
	bom           = []byte{0xEF, 0xBB, 0xBF}
	contentLength = []byte("content-length")
	contentType   = []byte("content-type")
)

// FrameError is a recoverable problem with the input: the bad part is
// skipped, an error response goes back, and the connection carries on.
type FrameError struct {
	Mode Mode
	Msg  string
	// ID is the raw id of the request the bad input carried, when it could
	// be read and the input will not be read again; nil otherwise.
	ID json.RawMessage
}

func (e *FrameError) Error() string { return e.Msg }

// Reader splits a byte stream into messages.
type Reader struct {
	src    io.Reader
	buf    []byte // unread input is buf[pos:]
	pos    int
	err    error // why src stopped; reported once buf is drained
	max    int
	stream Mode // the framing errors are answered in
	claim  int  // body bytes of a malformed frame still to settle
	// base is the stream offset of buf[0]; claimEnd the stream offset
	// where the last settled claim ended.
	base, claimEnd int64
}

// NewReader returns a Reader refusing messages larger than max bytes
// (DefaultMaxMessage when max <= 0).
func NewReader(r io.Reader, max int) *Reader {
	if max <= 0 {
		max = DefaultMaxMessage
	}
	return &Reader{src: r, max: max}
}

// Next returns the next message body and its framing. A *FrameError means
// some input was bad and skipped; call Next again. io.EOF means the stream
// ended (a header block cut short by EOF is dropped).
func (fr *Reader) Next() ([]byte, Mode, error) {
	if fr.claim > 0 {
		fr.settleClaim()
	}
	if !fr.skipSpace() {
		return nil, fr.stream, fr.endErr()
	}
	if c := fr.buf[fr.pos]; c == '{' || c == '[' {
		return fr.readLine()
	}
	line, complete := fr.peekLine(0, maxHeaderLine)
	if complete && isHeader(bytes.TrimSpace(line)) {
		return fr.readFramed()
	}
	return nil, fr.stream, fr.skipGarbage()
}

func (fr *Reader) endErr() error {
	if errors.Is(fr.err, io.ErrUnexpectedEOF) {
		return io.EOF
	}
	return fr.err
}

// fill reads more input into buf; false when there is none.
func (fr *Reader) fill() bool {
	if fr.err != nil {
		return false
	}
	fr.base += int64(fr.pos)
	if fr.pos == len(fr.buf) && cap(fr.buf) > 4*readChunk {
		fr.buf, fr.pos = nil, 0 // let a large message's buffer go
	}
	if fr.pos > 0 {
		n := copy(fr.buf, fr.buf[fr.pos:])
		fr.buf, fr.pos = fr.buf[:n], 0
	}
	if cap(fr.buf)-len(fr.buf) < readChunk {
		grown := make([]byte, len(fr.buf), 2*cap(fr.buf)+readChunk)
		copy(grown, fr.buf)
		fr.buf = grown
	}
	for range 100 {
		n, err := fr.src.Read(fr.buf[len(fr.buf):cap(fr.buf)])
		fr.buf = fr.buf[:len(fr.buf)+n]
		if err != nil {
			fr.err = err
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	fr.err = io.ErrNoProgress
	return false
}

// ensure buffers at least n unread bytes; false if the input ends first.
func (fr *Reader) ensure(n int) bool {
	for len(fr.buf)-fr.pos < n {
		if !fr.fill() {
			return false
		}
	}
	return true
}

// skipSpace skips whitespace and byte-order marks; false at end of input.
func (fr *Reader) skipSpace() bool {
	for fr.ensure(1) {
		c := fr.buf[fr.pos]
		switch {
		case isSpace(c):
			fr.pos++
		case c == bom[0] && fr.ensure(3) && bytes.HasPrefix(fr.buf[fr.pos:], bom):
			fr.pos += len(bom)
		default:
			return true
		}
	}
	return false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// peekLine returns the unread line starting off bytes ahead, with its
// newline, without consuming it. complete is false when the line runs past
// limit bytes (line is then cut there); at the end of input the rest counts
// as a complete line.
func (fr *Reader) peekLine(off, limit int) (line []byte, complete bool) {
	searched := 0
	for {
		rest := fr.buf[fr.pos+off:]
		if i := bytes.IndexByte(rest[searched:], '\n'); i >= 0 {
			if n := searched + i; n <= limit {
				return rest[:n+1], true
			}
			return rest[:limit], false
		}
		if len(rest) > limit {
			return rest[:limit], false
		}
		searched = len(rest)
		if !fr.fill() {
			return fr.buf[fr.pos+off:], true
		}
	}
}

// skipLine consumes input through the next newline.
func (fr *Reader) skipLine() {
	for {
		if i := bytes.IndexByte(fr.buf[fr.pos:], '\n'); i >= 0 {
			fr.pos += i + 1
			return
		}
		fr.pos = len(fr.buf)
		if !fr.fill() {
			return
		}
	}
}

// skipGarbage consumes a line that is neither JSON nor a header, up to a
// "Content-Length:" inside it.
func (fr *Reader) skipGarbage() error {
	line, _ := fr.peekLine(0, maxHeaderLine)
	err := &FrameError{Mode: fr.stream, Msg: fmt.Sprintf("malformed input %q: expected a JSON message or a Content-Length header", clip(trimEOL(line)))}
	if i := indexFold(line, "content-length:"); i > 0 {
		fr.pos += i
		return err
	}
	fr.skipLine()
	return err
}

// readLine reads a line-framed message: the object or array starting here,
// which must close before the line ends. It scans only as far as the value
// and the blanks after it, so a line of many values stays linear.
func (fr *Reader) readLine() ([]byte, Mode, error) {
	var s shape
	for i := 0; ; i++ {
		switch {
		case i >= fr.max:
			id := salvageID(fr.buf[fr.pos : fr.pos+i])
			fr.skipLine()
			return nil, fr.stream, &FrameError{fr.stream, fmt.Sprintf("message exceeds the %d-byte limit", fr.max), id}
		case !fr.ensure(i+1) || fr.buf[fr.pos+i] == '\n':
			id := salvageID(fr.buf[fr.pos : fr.pos+i])
			fr.skipLine()
			return nil, fr.stream, &FrameError{fr.stream, "line ends inside a JSON value", id}
		case s.step(fr.buf[fr.pos+i]):
			return fr.afterValue(i + 1)
		}
	}
}

// afterValue delivers the n-byte value at the read position: as a line
// message when only blanks follow it on its line; otherwise (typically a
// framed stream that lost sync, a body glued to the next header) in the
// stream's framing, leaving the rest of the line to be read anew.
func (fr *Reader) afterValue(n int) ([]byte, Mode, error) {
	value := bytes.Clone(fr.buf[fr.pos : fr.pos+n])
	j := n
	for fr.ensure(j+1) && (fr.buf[fr.pos+j] == ' ' || fr.buf[fr.pos+j] == '\t' || fr.buf[fr.pos+j] == '\r') {
		j++
	}
	if fr.ensure(j+1) && fr.buf[fr.pos+j] != '\n' {
		fr.pos += n
		return value, fr.stream, nil
	}
	fr.pos = min(fr.pos+j+1, len(fr.buf))
	fr.stream = Line
	return value, Line, nil
}

// indexFold is bytes.Index ignoring ASCII case; sep is lower case.
func indexFold(b []byte, sep string) int {
next:
	for i := 0; i+len(sep) <= len(b); i++ {
		for j := range len(sep) {
			c := b[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != sep[j] {
				continue next
			}
		}
		return i
	}
	return -1
}

func trimEOL(b []byte) []byte { return bytes.TrimRight(b, "\r\n") }

// isHeader reports whether a (trimmed) line looks like a real header, not
// a log line or a fragment of JSON that happens to hold a colon.
func isHeader(line []byte) bool {
	name, value, ok := bytes.Cut(line, []byte{':'})
	name = bytes.TrimRight(name, " \t")
	if !ok || len(name) == 0 {
		return false
	}
	for _, c := range name {
		if !isTokenChar(c) {
			return false
		}
	}
	if bytes.EqualFold(name, contentLength) || bytes.EqualFold(name, contentType) {
		return true
	}
	return !bytes.ContainsAny(value, `{}[]"`)
}

// isTokenChar: RFC 9110 tchar.
func isTokenChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return bytes.IndexByte([]byte("!#$%&'*+-.^_`|~"), c) >= 0
}

// readFramed reads a header block and the body it announces.
func (fr *Reader) readFramed() ([]byte, Mode, error) {
	first, _ := fr.peekLine(0, maxHeaderLine)
	first = bytes.Clone(trimEOL(first))
	inClaim := fr.base+int64(fr.pos) < fr.claimEnd
	length, problem, ok := fr.readHeaders()
	if !ok {
		return nil, fr.stream, fr.endErr()
	}
	switch {
	case problem != "":
	case inClaim && length >= 0:
		// Bytes a malformed frame read are not claimed twice: that keeps
		// resynchronising linear.
		problem = "Content-Length inside the body of a malformed frame"
	case length < 0:
		problem = fmt.Sprintf("malformed input %q: expected a JSON message or a Content-Length header", clip(first))
	case length > fr.max:
		problem = fmt.Sprintf("message of %d bytes exceeds the %d-byte limit", length, fr.max)
	default:
		read, why := fr.checkBody(length)
		if why == "" {
			body := bytes.Clone(fr.buf[fr.pos : fr.pos+length])
			fr.pos += length
			return body, Framed, nil
		}
		problem, fr.claim = why, read
	}
	return nil, fr.stream, &FrameError{Mode: fr.stream, Msg: problem}
}

// readHeaders consumes a header block. length is -1 without a
// Content-Length; problem says why the block is unusable; ok is false if
// the input ended inside the block.
func (fr *Reader) readHeaders() (length int, problem string, ok bool) {
	length = -1
	for {
		line, complete := fr.peekLine(0, maxHeaderLine)
		if len(line) == 0 {
			return length, problem, false
		}
		text := bytes.TrimSpace(line)
		if len(text) == 0 {
			fr.pos += len(line)
			return length, problem, true
		}
		if !complete || !isHeader(text) {
			if problem == "" && length >= 0 {
				problem = "headers not followed by a blank line"
			}
			return length, problem, true
		}
		fr.pos += len(line)
		name, value, _ := bytes.Cut(text, []byte{':'})
		if !bytes.EqualFold(bytes.TrimSpace(name), contentLength) {
			continue
		}
		fr.stream = Framed
		v := string(bytes.TrimSpace(value))
		n, err := strconv.Atoi(v)
		switch {
		case problem != "":
		case err != nil || n < 0:
			problem = fmt.Sprintf("invalid Content-Length %q", clip([]byte(v)))
		case length >= 0 && n != length:
			problem = "conflicting Content-Length headers"
		default:
			length = n
		}
	}
}

// checkBody looks at the n bytes after a header block without consuming
// them. It returns "" when they hold exactly one JSON object or array, else
// why not and how many bytes it read before it could tell; it does not
// wait for bytes that cannot make the body well-formed.
func (fr *Reader) checkBody(n int) (read int, why string) {
	var s shape
	started, closed := false, false
	for i := 0; i < n; i++ {
		if !fr.ensure(i + 1) {
			return i, "input ended inside a frame"
		}
		c := fr.buf[fr.pos+i]
		switch {
		case started && !closed:
			closed = s.step(c)
		case isSpace(c):
		case closed:
			return i, fmt.Sprintf("Content-Length %d runs past the end of the JSON value", n)
		case c != '{' && c != '[':
			return i, "frame body is not a JSON object or array"
		default:
			started = true
			s.step(c)
		}
	}
	if !closed {
		return n, fmt.Sprintf("frame body ends inside its JSON value (Content-Length %d too short?)", n)
	}
	return n, ""
}

// settleClaim decides where to resume after a malformed frame whose first
// fr.claim body bytes are still unread (see the package doc).
func (fr *Reader) settleClaim() {
	n := fr.claim
	fr.claim = 0
	fr.claimEnd = fr.base + int64(fr.pos+n)
	for p := 0; p < n; {
		if fr.startsCompleteValue(p) {
			fr.pos += p
			return
		}
		i := bytes.IndexByte(fr.buf[fr.pos+p:fr.pos+n], '\n')
		if i < 0 {
			break
		}
		p += i + 1
	}
	if t := bytes.TrimLeft(fr.buf[fr.pos:fr.pos+n], " \t\r\n"); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		fr.pos += n
	}
}

// startsCompleteValue reports whether the line off bytes ahead begins with
// a JSON object or array that closes on that line.
func (fr *Reader) startsCompleteValue(off int) bool {
	line, _ := fr.peekLine(off, fr.max)
	line = bytes.TrimLeft(line, " \t")
	if len(line) == 0 || (line[0] != '{' && line[0] != '[') {
		return false
	}
	_, ok := valueEnd(trimEOL(line))
	return ok
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}

// shape follows the bracket structure of JSON text, skipping strings,
// without validating it: enough to find where an object or array ends, at
// any depth, in one pass.
type shape struct {
	depth    int
	str, esc bool
}

// step feeds one byte; it reports whether the byte closed the outermost
// bracket.
func (s *shape) step(c byte) bool {
	switch {
	case s.str:
		switch {
		case s.esc:
			s.esc = false
		case c == '\\':
			s.esc = true
		case c == '"':
			s.str = false
		}
	case c == '"':
		s.str = true
	case c == '{' || c == '[':
		s.depth++
	case c == '}' || c == ']':
		s.depth--
		return s.depth <= 0
	}
	return false
}

// valueEnd returns the end of the object or array that b starts with, and
// false if it does not close within b.
func valueEnd(b []byte) (int, bool) {
	var s shape
	for i, c := range b {
		if s.step(c) {
			return i + 1, true
		}
	}
	return len(b), false
}

// WriteFrame writes one message body in the given framing.
func WriteFrame(w io.Writer, mode Mode, body []byte) error {
	if mode == Framed {
		if _, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
			return err
		}
		_, err := w.Write(body)
		return err
	}
	buf := make([]byte, 0, len(body)+1)
	buf = append(buf, body...)
	buf = append(buf, '\n')
	_, err := w.Write(buf)
	return err
}
