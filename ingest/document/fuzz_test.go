package document

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

var fuzzFormats = []Format{Markdown, RST, AsciiDoc, Text, HTML, Light, BibTeX, JATS, Patent, RFC, CrossRef}

// FuzzParse feeds every parser outside input: no panic, sections well
// formed, mentions and anchors valid UTF-8.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"universal", "universal/docs", "structured"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*"))
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(uint8(0), data)
				for i, ff := range fuzzFormats {
					if DetectFile(p, data) == ff {
						f.Add(uint8(i), data)
					}
				}
			}
		}
	}
	f.Add(uint8(0), []byte("```\nunterminated"))
	f.Add(uint8(1), []byte("===\nTitle\n===\n.. code-block::\n"))
	f.Add(uint8(4), []byte("<pre><code class=language-go>x</pre><h2>"))
	f.Add(uint8(6), []byte("@article{k, title = {unterminated"))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		format := fuzzFormats[int(which)%len(fuzzFormats)]
		c, err := Parse(format, "docs/x", data)
		if err != nil {
			return
		}
		if len(c.Sections) == 0 || c.Sections[0].Level != 0 {
			t.Fatalf("%s: no preamble section", format)
		}
		for i, s := range c.Sections {
			if s.EndLine < s.Line {
				t.Fatalf("%s: section %d ends at %d before it starts at %d", format, i, s.EndLine, s.Line)
			}
			if i > 0 && (s.Parent < 0 || s.Parent >= i) {
				t.Fatalf("%s: section %d has parent %d", format, i, s.Parent)
			}
			if !utf8.ValidString(s.Anchor) {
				t.Fatalf("%s: anchor %q", format, s.Anchor)
			}
			for _, m := range s.Mentions {
				if m.Text == "" {
					t.Fatalf("%s: empty mention", format)
				}
				if _, ok := ParseMentionTag(m.Tag()); !ok {
					t.Fatalf("%s: mention %+v does not round-trip its tag", format, m)
				}
			}
		}
	})
}
