package openclaw

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"time"
)

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
	req, err := json.Marshal(Request{ID: 1, Tool: tool, Arguments: args})
	if err != nil {
		return nil, nil, err
	}
	if _, err := conn.Write(append(req, '\n')); err != nil {
		return nil, nil, err
	}
	r := bufio.NewReaderSize(conn, 1<<20)
	line, err := readLine(r)
	if err != nil && len(line) == 0 {
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
