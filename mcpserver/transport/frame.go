// Package transport carries MCP JSON-RPC messages over a byte stream (stdio)
// in either framing, detected per message from its first non-whitespace
// byte: '{' or '[' starts one JSON message per line; anything else starts
// LSP-style "Content-Length: N" headers, a blank line and N bytes of JSON.
// Each response goes out in the framing of the request it answers.
package transport

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
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

const maxHeaderLine = 8 << 10

// FrameError is a recoverable problem with one inbound frame: the frame is
// skipped, an error response goes back, and the connection carries on.
type FrameError struct {
	Mode Mode
	Msg  string
}

func (e *FrameError) Error() string { return e.Msg }

// Reader splits a byte stream into messages.
type Reader struct {
	r   *bufio.Reader
	max int
}

// NewReader returns a Reader refusing messages larger than max bytes
// (DefaultMaxMessage when max <= 0).
func NewReader(r io.Reader, max int) *Reader {
	if max <= 0 {
		max = DefaultMaxMessage
	}
	return &Reader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// Next returns the next message body and its framing. A *FrameError means
// that frame was bad and skipped; call Next again. io.EOF means the stream
// ended (a message cut short by EOF is dropped).
func (fr *Reader) Next() ([]byte, Mode, error) {
	// Skip whitespace between messages.
	for {
		b, err := fr.r.ReadByte()
		if err != nil {
			return nil, Line, eof(err)
		}
		if b == ' ' || b == '\t' || b == '\r' || b == '\n' {
			continue
		}
		fr.r.UnreadByte()
		if b == '{' || b == '[' {
			return fr.readLine()
		}
		return fr.readFramed()
	}
}

func eof(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return io.EOF
	}
	return err
}

// readLine reads up to the next newline, refusing (and skipping) lines over
// the limit.
func (fr *Reader) readLine() ([]byte, Mode, error) {
	var buf []byte
	for {
		chunk, err := fr.r.ReadSlice('\n')
		if len(buf)+len(chunk) > fr.max {
			if err == nil {
				return nil, Line, &FrameError{Line, fmt.Sprintf("message exceeds the %d-byte limit", fr.max)}
			}
			if err := fr.skipLine(); err != nil {
				return nil, Line, err
			}
			return nil, Line, &FrameError{Line, fmt.Sprintf("message exceeds the %d-byte limit", fr.max)}
		}
		buf = append(buf, chunk...)
		switch {
		case err == nil:
			return trimEOL(buf), Line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(buf) > 0:
			// A final message without a trailing newline is still a message.
			return trimEOL(buf), Line, nil
		default:
			return nil, Line, eof(err)
		}
	}
}

func (fr *Reader) skipLine() error {
	for {
		_, err := fr.r.ReadSlice('\n')
		if err == nil {
			return nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return eof(err)
		}
	}
}

func trimEOL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// readFramed reads "Header: value" lines up to a blank line, then the body.
func (fr *Reader) readFramed() ([]byte, Mode, error) {
	length := -1
	first := true
	for {
		line, err := fr.readHeaderLine()
		if err != nil {
			return nil, Framed, err
		}
		if line == "" {
			if first {
				continue
			}
			break
		}
		first = false
		name, value, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(name) == "" {
			// Not a header at all: report and resynchronise at the next line.
			return nil, Framed, &FrameError{Framed, fmt.Sprintf("malformed input %q: expected a JSON message or a Content-Length header", clip(line))}
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				fr.skipToBlank()
				return nil, Framed, &FrameError{Framed, fmt.Sprintf("invalid Content-Length %q", clip(strings.TrimSpace(value)))}
			}
			length = n
		}
	}
	if length < 0 {
		return nil, Framed, &FrameError{Framed, "frame has headers but no Content-Length"}
	}
	if length > fr.max {
		if _, err := io.CopyN(io.Discard, fr.r, int64(length)); err != nil {
			return nil, Framed, eof(err)
		}
		return nil, Framed, &FrameError{Framed, fmt.Sprintf("message of %d bytes exceeds the %d-byte limit", length, fr.max)}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(fr.r, body); err != nil {
		return nil, Framed, eof(err)
	}
	return body, Framed, nil
}

func (fr *Reader) readHeaderLine() (string, error) {
	var buf []byte
	for {
		chunk, err := fr.r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > maxHeaderLine {
			if errors.Is(err, bufio.ErrBufferFull) {
				if err := fr.skipLine(); err != nil {
					return "", err
				}
			}
			return "", &FrameError{Framed, "header line too long"}
		}
		if err == nil {
			return strings.TrimRight(string(buf), "\r\n"), nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return "", eof(err)
		}
	}
}

// skipToBlank discards the rest of a bad header block.
func (fr *Reader) skipToBlank() {
	for {
		line, err := fr.readHeaderLine()
		if err != nil || line == "" {
			return
		}
	}
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
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
