package query

import (
	"strings"
	"testing"
)

// An answer with no result lines is "no match" only when nothing matched:
// count_only found 62 lines in loguru's tests and was told "No match".
func TestSearchGuidanceCountOnly(t *testing.T) {
	for _, c := range []struct {
		name     string
		out      SearchOutput
		wantTool string
		want     string
		never    string
	}{
		{"nothing", SearchOutput{Query: "zebra"}, "seek", "No match", ""},
		{"a file name", SearchOutput{Query: "a/b.py"}, "glob", "glob finds files", ""},
		{"counted", SearchOutput{Query: "enqueue=True", TotalMatches: 62, ContentMatches: 62, FilesMatched: 11}, "search", "62 matches in 11 files", "No match"},
	} {
		g := searchGuidance(&c.out)
		if g.NextSuggestedTool != c.wantTool || !strings.Contains(g.NextStepHint, c.want) || (c.never != "" && strings.Contains(g.NextStepHint, c.never)) {
			t.Errorf("%s: %s, %q; want %s and %q", c.name, g.NextSuggestedTool, g.NextStepHint, c.wantTool, c.want)
		}
	}
}
