package openclaw

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"time"
)

// maxResponseLine bounds one response line read by Call.
const maxResponseLine = 64 << 20

// Call sends one request over the socket at path and returns the response.
func Call(path, tool string, args json.RawMessage, timeout time.Duration) (*Response, json.RawMessage, error) {
	conn, err := net.DialTimeout("unix", path, 5*time.Second)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot reach m1nd-openclaw at %s: %w (is it running? start it with m1nd-openclaw --socket %s)", path, err, path)
	}
	defer conn.Close()
	if timeout > 0 {
		conn.SetDeadline(time.Now().Add(timeout))
	}
	req, err := json.Marshal(Request{ID: json.RawMessage("1"), Tool: tool, Arguments: args})
	if err != nil {
		return nil, nil, err
	}
	// A failed write still reads: a bridge at its connection limit answers
	// with an error line and closes before reading the request.
	_, werr := conn.Write(append(req, '\n'))
	lr := &lineReader{r: bufio.NewReaderSize(conn, 1<<20), max: maxResponseLine}
	line, err := lr.next()
	switch {
	case errors.Is(err, errLineTooLong):
		return nil, nil, fmt.Errorf("response exceeds %d bytes", maxResponseLine)
	case err != nil && len(line) == 0 && werr != nil:
		return nil, nil, werr
	case err != nil && len(line) == 0:
		return nil, nil, fmt.Errorf("no response: %w", err)
	}
	var raw struct {
		Response
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(line, &raw); err != nil {
		return nil, nil, fmt.Errorf("invalid response: %w", err)
	}
	resp := raw.Response
	return &resp, raw.Result, nil
}
