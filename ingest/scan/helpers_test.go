package scan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ruleCase is a snippet and the findings it must give, as "line rule"
// (a true negative wants none).
type ruleCase struct {
	name    string
	file    string
	pattern string
	opt     Options
	src     string
	want    []string
}

// brief renders findings as "line rule" for comparison.
func brief(fs []Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%d %s", f.Line, f.Rule))
	}
	return out
}

func runCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opt := c.opt
			if c.pattern != "" {
				opt.Patterns = []string{c.pattern}
			}
			got, err := File(c.file, []byte(strings.TrimPrefix(c.src, "\n")), opt)
			if err != nil {
				t.Fatal(err)
			}
			want := c.want
			if want == nil {
				want = []string{}
			}
			if d := cmp.Diff(want, brief(got)); d != "" {
				t.Errorf("findings (-want +got):\n%s\nall: %+v", d, got)
			}
			for _, f := range got {
				if f.Pattern != c.pattern && c.pattern != "" {
					t.Errorf("finding of pattern %s in a %s scan", f.Pattern, c.pattern)
				}
				if f.Message == "" || f.Snippet == "" || f.Severity <= 0 || f.Severity > 1 || f.EndLine < f.Line {
					t.Errorf("incomplete finding %+v", f)
				}
			}
		})
	}
}
