package openclaw

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"sync/atomic"
)

// budget counts the bytes of request lines held across all connections,
// so many large lines at once cannot add up past a fixed amount.
type budget struct {
	limit int64
	used  atomic.Int64
	peak  atomic.Int64
}

// reserve takes n bytes if they fit under the limit. A nil budget has no
// limit (the client reading responses).
func (b *budget) reserve(n int64) bool {
	if b == nil {
		return true
	}
	for {
		cur := b.used.Load()
		if cur+n > b.limit {
			return false
		}
		if b.used.CompareAndSwap(cur, cur+n) {
			for p := b.peak.Load(); cur+n > p && !b.peak.CompareAndSwap(p, cur+n); p = b.peak.Load() {
			}
			return true
		}
	}
}

func (b *budget) release(n int64) {
	if b != nil {
		b.used.Add(-n)
	}
}

// Why a line was discarded.
var (
	errLineTooLong = errors.New("request line too long")
	errOverBudget  = errors.New("request buffers of all connections at their limit")
)

// discardedError reports a line dropped as it streamed in.
type discardedError struct {
	reason error           // errLineTooLong or errOverBudget
	id     json.RawMessage // read from the line's start when it was there
	cause  error           // the read error that ended the line (nil: a newline did)
}

func (e *discardedError) Error() string { return e.reason.Error() }
func (e *discardedError) Unwrap() error { return e.reason }

// envelopeScan bounds how much of a discarded line is searched for its id.
const envelopeScan = 64 << 10

// lineReader reads lines from one connection holding at most max bytes of
// a line, reserved from budget until the next line or release.
type lineReader struct {
	r      *bufio.Reader
	max    int
	budget *budget
	held   int64
}

// next returns the next line without its line ending, valid until the
// next call. A line longer than max bytes (newline included), or one the
// budget cannot hold, is read to its end without being kept and reported
// as a *discardedError.
func (lr *lineReader) next() ([]byte, error) {
	lr.release()
	var buf []byte
	for {
		chunk, err := lr.r.ReadSlice('\n')
		full := errors.Is(err, bufio.ErrBufferFull)
		if buf == nil && !full && len(chunk) <= lr.max {
			// The whole line is in the read buffer: no copy, nothing to reserve.
			return trimEOL(chunk), err
		}
		if reason := lr.grow(&buf, len(chunk)); reason != nil {
			n := len(buf) + len(chunk)
			if buf == nil {
				buf = chunk
			}
			return nil, lr.discard(reason, buf, n, err)
		}
		buf = append(buf, chunk...)
		if !full {
			return trimEOL(buf), err
		}
	}
}

// grow makes room for n more bytes in buf, reserving new capacity from the
// budget. Capacity doubles (up to max) so a long line costs few copies;
// when the budget cannot cover a doubling it takes only what is needed.
func (lr *lineReader) grow(buf *[]byte, n int) error {
	need := len(*buf) + n
	if need > lr.max {
		return errLineTooLong
	}
	if need <= cap(*buf) {
		return nil
	}
	newCap := min(max(need, 2*cap(*buf)), lr.max)
	if !lr.budget.reserve(int64(newCap - cap(*buf))) {
		newCap = need
		if !lr.budget.reserve(int64(newCap - cap(*buf))) {
			return errOverBudget
		}
	}
	lr.held += int64(newCap - cap(*buf))
	grown := make([]byte, len(*buf), newCap)
	copy(grown, *buf)
	*buf = grown
	return nil
}

// discard gives back what the line held and reads past the rest of it,
// given its length so far. The id is taken from head first: head may be
// the read buffer, which the reads below overwrite. A line refused for the
// budget that turns out longer than max is reported as too long, since
// retrying it cannot help.
func (lr *lineReader) discard(reason error, head []byte, n int, err error) error {
	id, _ := envelope(head[:min(len(head), envelopeScan)])
	lr.release()
	for errors.Is(err, bufio.ErrBufferFull) {
		var chunk []byte
		chunk, err = lr.r.ReadSlice('\n')
		n += len(chunk)
	}
	if n > lr.max {
		reason = errLineTooLong
	}
	return &discardedError{reason: reason, id: id, cause: err}
}

// release gives the current line's bytes back to the budget.
func (lr *lineReader) release() {
	lr.budget.release(lr.held)
	lr.held = 0
}

func trimEOL(b []byte) []byte { return bytes.TrimRight(b, "\r\n") }
