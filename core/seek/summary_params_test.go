package seek

import (
	"bytes"
	"strings"
	"testing"
)

// TestSummarySkipsStarParameters: a Python signature's "*," or "*args"
// line is a parameter, not a block comment's continuation, so a function
// without a docstring has no summary rather than ",".
func TestSummarySkipsStarParameters(t *testing.T) {
	for _, star := range []string{"*,", "*args,", "**kwargs,"} {
		src := []string{"class C:", "    def post(  # type: ignore[override]", "        self,", "        url,", "        " + star, "        json=None,", "    ) -> None:", "        return None"}
		lines := bytes.Split([]byte(strings.Join(src, "\n")), []byte("\n"))
		if got := entitySummary(lines, 1); got != "" {
			t.Errorf("%s: summary %q, want none", star, got)
		}
	}
	block := bytes.Split([]byte("/**\n * Adds two numbers.\n */\nint add(int a, int b) {"), []byte("\n"))
	if got, want := entitySummary(block, 3), "Adds two numbers."; got != want {
		t.Errorf("block comment summary %q, want %q", got, want)
	}
}
