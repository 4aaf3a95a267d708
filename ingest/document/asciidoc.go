package document

import (
	"regexp"
	"strings"
)

var (
	adocTitle  = regexp.MustCompile(`^(={1,6})\s+(\S.*)$`)
	adocAttr   = regexp.MustCompile(`^:([\w-]+):\s*(.*)$`)
	adocSource = regexp.MustCompile(`^\[(?:source|listing)(?:,\s*([\w+#-]+))?[^\]]*\]\s*$`)
	adocLink   = regexp.MustCompile(`(?:link:|xref:|include::)([^\s\[]+)\[([^\]]*)\]|((?:https?|ftp)://[^\s\[]+)\[([^\]]*)\]|<<([^,>]+)(?:,([^>]*))?>>`)
	adocMono   = regexp.MustCompile("`([^`]+)`|\\+([^+\\s][^+]*)\\+")
)

// ParseAsciiDoc normalizes AsciiDoc: the document title and section
// titles (= to ======), document attributes, listing and literal blocks
// (with their [source,lang] line), |=== tables, link:/xref:/include::
// and URL links, <<cross references>>, monospace spans.
func ParseAsciiDoc(path string, data []byte) *Canonical {
	c := newCanonical(path, AsciiDoc)
	lines := splitLines(data)
	lang := ""
	inHeader := true
	for i := 0; i < len(lines); i++ {
		l, n := lines[i], i+1
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "//") && !strings.HasPrefix(t, "////") {
			continue // a comment line
		}
		if m := adocTitle.FindStringSubmatch(l); m != nil {
			level := len(m[1])
			if level == 1 {
				c.Title = strings.TrimSpace(m[2])
				if inHeader {
					continue // the document title is the document node
				}
			}
			c.open(adocInline(m[2]), max(level-1, 1), n)
			inHeader = false
			continue
		}
		if m := adocAttr.FindStringSubmatch(l); m != nil && inHeader {
			c.Meta[strings.ToLower(m[1])] = strings.TrimSpace(m[2])
			continue
		}
		if t != "" {
			inHeader = false
		}
		if m := adocSource.FindStringSubmatch(t); m != nil {
			lang = strings.ToLower(m[1])
			continue
		}
		if delim := adocDelimiter(t); delim != "" {
			j := i + 1
			var b strings.Builder
			for j < len(lines) && strings.TrimSpace(lines[j]) != delim {
				if b.Len() < maxProse {
					b.WriteString(lines[j])
					b.WriteByte('\n')
				}
				j++
			}
			switch delim[0] {
			case '-', '.':
				c.cur().Blocks = append(c.cur().Blocks, Block{Lang: lang, Line: n, EndLine: min(j+1, len(lines)), Text: strings.TrimRight(b.String(), "\n")})
			case '/':
			default: // |=== table
				tb := Table{Line: n, EndLine: min(j+1, len(lines))}
				for _, row := range strings.Split(b.String(), "\n") {
					r := strings.TrimSpace(row)
					if !strings.HasPrefix(r, "|") {
						continue
					}
					tb.Rows++
					if tb.Header == nil {
						for _, cell := range strings.Split(strings.TrimPrefix(r, "|"), "|") {
							tb.Header = append(tb.Header, strings.TrimSpace(cell))
						}
					}
					c.cur().AddProse(r)
					adocRefs(c.cur(), r, n)
				}
				c.cur().Tables = append(c.cur().Tables, tb)
			}
			lang = ""
			i = j
			continue
		}
		if t == "" {
			continue
		}
		c.cur().AddProse(l)
		adocRefs(c.cur(), l, n)
	}
	c.Finish(len(lines))
	return c
}

// adocDelimiter returns a block delimiter line ("----", "....", "|===",
// "////"), or "".
func adocDelimiter(t string) string {
	if len(t) < 4 {
		return ""
	}
	if strings.HasPrefix(t, "|===") && strings.Trim(t[1:], "=") == "" {
		return t
	}
	switch t[0] {
	case '-', '.', '/':
		if strings.Trim(t, t[:1]) == "" {
			return t
		}
	}
	return ""
}

func adocRefs(s *Section, l string, n int) {
	for _, m := range adocLink.FindAllStringSubmatch(l, -1) {
		switch {
		case m[1] != "":
			s.Links = append(s.Links, Link{Target: m[1], Text: m[2], Line: n})
		case m[3] != "":
			s.Links = append(s.Links, Link{Target: m[3], Text: m[4], Line: n})
		case m[5] != "":
			target := m[5]
			if strings.Contains(target, ".adoc") {
				s.Links = append(s.Links, Link{Target: target, Text: m[6], Line: n})
			}
		}
	}
	for _, m := range adocMono.FindAllStringSubmatch(l, -1) {
		if m[1] != "" {
			s.Spans = append(s.Spans, m[1])
		} else if m[2] != "" && !strings.ContainsAny(m[2], " ") {
			s.Spans = append(s.Spans, m[2])
		}
	}
}

func adocInline(s string) string {
	s = adocMono.ReplaceAllString(s, "$1$2")
	return strings.ReplaceAll(strings.TrimSpace(s), "*", "")
}
