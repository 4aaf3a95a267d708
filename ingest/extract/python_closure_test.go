package extract

import "testing"

// TestPythonClosureSeesEnclosingTypes: a nested function uses the
// enclosing function's parameters and locals (and a method's self) with
// their types. black's delimiter_split(line: Line) defines
// append_comments, whose line.comments_after(leaf) was bound to nothing.
func TestPythonClosureSeesEnclosingTypes(t *testing.T) {
	src := `class Line:
    def comments_after(self, leaf): ...
    def append_safe(self, leaf): ...


def delimiter_split(line: Line, n):
    current_line = Line()

    def append_comments(leaf):
        for c in line.comments_after(leaf):
            yield c

    def append_to_line(leaf):
        nonlocal current_line
        current_line.append_safe(leaf)

    def shadowed(line):
        line.comments_after(None)


class Gen:
    def visit(self, node):
        def inner():
            self.visit(node)
        return inner
`
	r, err := ExtractFile("pkg/linegen.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, r)
	f := "file::pkg/linegen.py::"
	tests := []struct {
		src, dst string
		line     uint32
		h        RefHint
	}{
		{f + "delimiter_split::append_comments", "ref::comments_after", 10, RefHint{Receiver: "line", ReceiverType: "Line"}},
		{f + "delimiter_split::append_to_line", "ref::append_safe", 15, RefHint{Receiver: "current_line", ReceiverType: "Line"}},
		// A parameter of the nested function hides the enclosing one.
		{f + "delimiter_split::shadowed", "ref::comments_after", 18, RefHint{Receiver: "line", ReceiverType: "-"}},
		{f + "Gen::visit::inner", "ref::visit", 24, RefHint{Receiver: "self", ReceiverType: "Gen"}},
	}
	for _, tc := range tests {
		wantEdge(t, r, tc.src, "calls", tc.dst, tc.line, tc.h)
	}
}
