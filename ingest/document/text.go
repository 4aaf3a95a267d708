package document

import (
	"regexp"
	"strings"
)

var textUnderline = regexp.MustCompile(`^\s*(=+|-+|~+)\s*$`)

// ParseText normalizes plain text: a short line underlined with =, - or
// ~ (at least as long as three quarters of it) starts a section; the rest
// is prose, whose paths and distinctive identifiers become mentions.
func ParseText(path string, data []byte) *Canonical {
	c := newCanonical(path, Text)
	lines := splitLines(data)
	styles := map[byte]int{}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if i+1 < len(lines) && len(t) <= 100 && !textUnderline.MatchString(l) {
			if m := textUnderline.FindStringSubmatch(lines[i+1]); m != nil && len(m[1])*4 >= len(t)*3 && len(m[1]) >= 3 {
				lv, ok := styles[m[1][0]]
				if !ok {
					lv = len(styles) + 1
					styles[m[1][0]] = lv
				}
				c.open(t, lv, i+1)
				i++
				continue
			}
		}
		c.cur().AddProse(l)
	}
	c.Finish(len(lines))
	return c
}
