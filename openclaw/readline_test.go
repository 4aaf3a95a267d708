package openclaw

import (
	"bufio"
	"strings"
	"testing"
)

func TestReadLineTooLongThenNext(t *testing.T) {
	in := strings.Repeat("a", maxLine+10) + "\n{\"id\":1}\n"
	r := bufio.NewReader(strings.NewReader(in))
	if _, err := readLine(r); err != errLineTooLong {
		t.Fatalf("first: %v", err)
	}
	if l, err := readLine(r); err != nil || string(l) != `{"id":1}` {
		t.Fatalf("second: %q %v", l, err)
	}
}
