package openclaw

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestLineReader(t *testing.T) {
	t.Parallel()
	const max = 1 << 20
	long := `{"id":"big","tool":"seek","arguments":{"trace":"` + strings.Repeat("a", max) + "\"}}\n"
	in := long + "{\"id\":1}\r\n" + strings.Repeat("b", 40<<10) + "\n" + "tail"
	b := &budget{limit: 4 * max}
	lr := &lineReader{r: bufio.NewReaderSize(strings.NewReader(in), 4<<10), max: max, budget: b}

	var d *discardedError
	if _, err := lr.next(); !errors.As(err, &d) || d.reason != errLineTooLong || string(d.id) != `"big"` || d.cause != nil {
		t.Fatalf("long line: %v %+v", err, d)
	}
	if l, err := lr.next(); err != nil || string(l) != `{"id":1}` {
		t.Fatalf("after long line: %q %v", l, err)
	}
	if l, err := lr.next(); err != nil || len(l) != 40<<10 || b.used.Load() == 0 {
		t.Fatalf("line past the read buffer: %d %v, %d held", len(l), err, b.used.Load())
	}
	if l, err := lr.next(); err != io.EOF || string(l) != "tail" || b.used.Load() != 0 {
		t.Fatalf("last line: %q %v, %d held", l, err, b.used.Load())
	}
	if p := b.peak.Load(); p > 4*max || p == 0 {
		t.Errorf("peak %d", p)
	}
}

func TestLineReaderBudget(t *testing.T) {
	t.Parallel()
	b := &budget{limit: 100 << 10}
	other := &lineReader{budget: b}
	if !b.reserve(90 << 10) {
		t.Fatal("reserve")
	}
	other.held = 90 << 10
	in := strings.Repeat("c", 50<<10) + "\n{}\n"
	lr := &lineReader{r: bufio.NewReaderSize(strings.NewReader(in), 4<<10), max: 1 << 20, budget: b}
	var d *discardedError
	if _, err := lr.next(); !errors.As(err, &d) || d.reason != errOverBudget {
		t.Fatalf("over budget: %v", err)
	}
	if b.used.Load() != 90<<10 {
		t.Errorf("discarded line still holds %d", b.used.Load()-90<<10)
	}
	other.release()
	if l, err := lr.next(); err != nil || string(l) != "{}" || b.used.Load() != 0 {
		t.Fatalf("next: %q %v %d", l, err, b.used.Load())
	}
}
