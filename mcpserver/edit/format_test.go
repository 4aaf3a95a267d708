package edit

import "testing"

func TestPreserve(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, old, next, want string
		f                     Format
	}{
		{"lf kept", "a\nb\n", "a\nc\n", "a\nc\n", Format{LineEndings: "lf"}},
		{"crlf from lf", "a\r\nb\r\n", "a\nc\n", "a\r\nc\r\n", Format{LineEndings: "crlf", Converted: true}},
		{"crlf mixed input", "a\r\nb\r\n", "a\r\nc\nd", "a\r\nc\r\nd\r\n", Format{LineEndings: "crlf", Converted: true, TrailingNewlineAdded: true}},
		{"crlf already", "a\r\n", "x\r\ny\r\n", "x\r\ny\r\n", Format{LineEndings: "crlf"}},
		{"lf from crlf", "a\nb\n", "x\r\ny\r\n", "x\ny\n", Format{LineEndings: "lf", Converted: true}},
		{"trailing newline added", "a\n", "b", "b\n", Format{LineEndings: "lf", TrailingNewlineAdded: true}},
		{"trailing newline removed", "a\nb", "a\nc\n", "a\nc", Format{LineEndings: "lf", TrailingNewlineRemoved: true}},
		{"crlf trailing removed", "a\r\nb", "a\r\nc\r\n", "a\r\nc", Format{LineEndings: "crlf", TrailingNewlineRemoved: true}},
		{"one line no newline", "a", "b", "b", Format{}},
		{"mixed left alone", "a\r\nb\nc\n", "x\ny\r\n", "x\ny\r\n", Format{}},
		{"empty new", "a\n", "", "", Format{LineEndings: "lf"}},
		{"empty old", "", "x", "x", Format{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, f := Preserve([]byte(c.old), []byte(c.next))
			if string(got) != c.want || f != c.f {
				t.Errorf("Preserve(%q, %q) = %q %+v, want %q %+v", c.old, c.next, got, f, c.want, c.f)
			}
		})
	}
}
