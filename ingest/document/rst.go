package document

import (
	"regexp"
	"strings"
)

var (
	rstDirCode  = regexp.MustCompile(`^\s*\.\.\s+(?:code-block|code|sourcecode|literalinclude)::\s*(\S*)`)
	rstDirTable = regexp.MustCompile(`^\s*\.\.\s+(?:list-table|csv-table|table)::\s*(.*)$`)
	rstDirInc   = regexp.MustCompile(`^\s*\.\.\s+(?:include|toctree|image|figure)::\s*(\S*)`)
	rstTarget   = regexp.MustCompile(`^\s*\.\.\s+_([^:]+):\s*(\S+)\s*$`)
	rstLink     = regexp.MustCompile("`([^`<]*?)\\s*<([^>`]+)>`__?")
	rstRole     = regexp.MustCompile(":(?:py:|c:|cpp:|js:)?(func|class|meth|mod|attr|data|obj|exc|envvar|const|var|type|member|file|program|option|command|doc|ref|term|samp|code)(?::[a-z]+)?:`([^`]+)`")
	rstLiteral  = regexp.MustCompile("``([^`]+)``")
	rstGridSep  = regexp.MustCompile(`^\s*\+[-=+]+\+\s*$`)
	rstSimpleTb = regexp.MustCompile(`^\s*=+(\s+=+)+\s*$`)
)

// ParseRST normalizes reStructuredText: section titles (underlined, or
// over- and underlined; levels in the order styles first appear),
// literal and code-block directives, grid, simple and directive tables,
// hyperlinks, :doc: links, inline literals and cross-reference roles.
func ParseRST(path string, data []byte) *Canonical {
	c := newCanonical(path, RST)
	lines := splitLines(data)
	styles := map[string]int{}
	level := func(style string) int {
		if l, ok := styles[style]; ok {
			return l
		}
		styles[style] = len(styles) + 1
		return styles[style]
	}
	for i := 0; i < len(lines); i++ {
		l, n := lines[i], i+1
		t := strings.TrimSpace(l)
		// Over- and underlined title.
		if isAdornment(l) && i+2 < len(lines) && isAdornment(lines[i+2]) && lines[i+2][0] == l[0] && strings.TrimSpace(lines[i+1]) != "" {
			c.open(rstInline(lines[i+1]), level("o"+l[:1]), n+1)
			i += 2
			continue
		}
		// Underlined title.
		if t != "" && !isAdornment(l) && i+1 < len(lines) && isAdornment(lines[i+1]) &&
			len(strings.TrimRight(lines[i+1], " ")) >= len(t) && !strings.HasPrefix(l, " ") {
			c.open(rstInline(t), level("u"+lines[i+1][:1]), n)
			i++
			continue
		}
		if m := rstDirCode.FindStringSubmatch(l); m != nil {
			end, text := rstIndented(lines, i+1)
			lang := m[1]
			if strings.Contains(l, "literalinclude") {
				c.cur().Links = append(c.cur().Links, Link{Target: m[1], Line: n})
				lang = ""
			}
			c.cur().Blocks = append(c.cur().Blocks, Block{Lang: strings.ToLower(lang), Line: n, EndLine: end, Text: text})
			i = end - 1
			continue
		}
		if m := rstDirTable.FindStringSubmatch(l); m != nil {
			end, text := rstIndented(lines, i+1)
			tb := Table{Line: n, EndLine: end}
			for _, row := range strings.Split(text, "\n") {
				if r := strings.TrimSpace(row); strings.HasPrefix(r, "* - ") {
					tb.Rows++
					if tb.Header == nil {
						tb.Header = []string{strings.TrimPrefix(r, "* - ")}
					}
				} else if strings.HasPrefix(r, "- ") && tb.Rows == 1 {
					tb.Header = append(tb.Header, strings.TrimPrefix(r, "- "))
				}
			}
			if tb.Header == nil && strings.TrimSpace(m[1]) != "" {
				tb.Header = []string{strings.TrimSpace(m[1])}
			}
			c.cur().Tables = append(c.cur().Tables, tb)
			c.cur().AddProse(text)
			rstInlineRefs(c.cur(), text, n)
			i = end - 1
			continue
		}
		if m := rstDirInc.FindStringSubmatch(l); m != nil {
			if m[1] != "" {
				c.cur().Links = append(c.cur().Links, Link{Target: m[1], Line: n})
			}
			if strings.Contains(l, "toctree") {
				end, text := rstIndented(lines, i+1)
				for _, e := range strings.Split(text, "\n") {
					if e = strings.TrimSpace(e); e != "" && !strings.HasPrefix(e, ":") {
						c.cur().Links = append(c.cur().Links, Link{Target: rstDocTarget(e), Line: n})
					}
				}
				i = end - 1
			}
			continue
		}
		if m := rstTarget.FindStringSubmatch(l); m != nil {
			c.cur().Links = append(c.cur().Links, Link{Target: m[2], Text: m[1], Line: n})
			continue
		}
		if rstGridSep.MatchString(l) || rstSimpleTb.MatchString(l) {
			j := i + 1
			for j < len(lines) && strings.TrimSpace(lines[j]) != "" {
				j++
			}
			tb := Table{Line: n, EndLine: j}
			for _, row := range lines[i+1 : j] {
				if rstGridSep.MatchString(row) || rstSimpleTb.MatchString(row) {
					continue
				}
				tb.Rows++
				if tb.Header == nil {
					for _, cell := range strings.FieldsFunc(row, func(r rune) bool { return r == '|' }) {
						if cell = strings.TrimSpace(cell); cell != "" {
							tb.Header = append(tb.Header, cell)
						}
					}
					if len(tb.Header) <= 1 {
						tb.Header = strings.Fields(row)
					}
				}
				c.cur().AddProse(row)
				rstInlineRefs(c.cur(), row, j)
			}
			c.cur().Tables = append(c.cur().Tables, tb)
			i = j - 1
			continue
		}
		if t == "" || strings.HasPrefix(t, "..") && !strings.Contains(t, "::") {
			continue // blank, or a comment
		}
		c.cur().AddProse(l)
		rstInlineRefs(c.cur(), l, n)
		// A paragraph ending in "::" introduces a literal block.
		if strings.HasSuffix(t, "::") && i+1 < len(lines) {
			end, text := rstIndented(lines, i+1)
			if strings.TrimSpace(text) != "" {
				c.cur().Blocks = append(c.cur().Blocks, Block{Line: i + 2, EndLine: end, Text: text})
				i = end - 1
			}
		}
	}
	c.Finish(len(lines))
	return c
}

// isAdornment reports whether l is a section adornment: three or more of
// one punctuation character.
func isAdornment(l string) bool {
	t := strings.TrimRight(l, " \t")
	if len(t) < 3 || !strings.ContainsRune("=-~^\"'`#*+:._", rune(t[0])) {
		return false
	}
	return strings.Trim(t, t[:1]) == ""
}

// rstIndented reads the indented block starting at index from (blank
// lines inside it included, directive options skipped): it returns the
// index of the first line after it — also the block's last line, 1-based
// — and its text.
func rstIndented(lines []string, from int) (int, string) {
	var b strings.Builder
	j := from
	for j < len(lines) {
		l := lines[j]
		if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "\t") {
			break
		}
		if t := strings.TrimSpace(l); !(strings.HasPrefix(t, ":") && strings.Count(t, ":") >= 2 && b.Len() == 0) {
			if b.Len() < maxProse {
				b.WriteString(strings.TrimPrefix(strings.TrimPrefix(l, "    "), "\t"))
				b.WriteByte('\n')
			}
		}
		j++
	}
	for j > from && strings.TrimSpace(lines[j-1]) == "" {
		j--
	}
	return j, strings.Trim(b.String(), "\n")
}

// rstInlineRefs collects links, roles and literals of a line.
func rstInlineRefs(s *Section, l string, n int) {
	for _, m := range rstLink.FindAllStringSubmatch(l, -1) {
		s.Links = append(s.Links, Link{Target: m[2], Text: m[1], Line: n})
	}
	for _, m := range rstRole.FindAllStringSubmatch(l, -1) {
		target := m[2]
		if i := strings.IndexByte(target, '<'); i >= 0 && strings.HasSuffix(target, ">") {
			target = target[i+1 : len(target)-1]
		}
		target = strings.TrimPrefix(strings.TrimPrefix(target, "~"), "!")
		switch m[1] {
		case "doc":
			s.Links = append(s.Links, Link{Target: rstDocTarget(target), Line: n})
		case "ref", "term", "option", "command", "program":
		default:
			s.Spans = append(s.Spans, target)
		}
	}
	for _, m := range rstLiteral.FindAllStringSubmatch(l, -1) {
		s.Spans = append(s.Spans, m[1])
	}
}

// rstDocTarget turns a :doc: or toctree entry into a file path.
func rstDocTarget(t string) string {
	t = strings.TrimSpace(t)
	if i := strings.IndexByte(t, '<'); i >= 0 && strings.HasSuffix(t, ">") {
		t = t[i+1 : len(t)-1]
	}
	if t == "" || strings.Contains(t, "://") || strings.HasSuffix(t, ".rst") {
		return t
	}
	return t + ".rst"
}

// rstInline strips inline markup from a title.
func rstInline(s string) string {
	s = rstRole.ReplaceAllString(s, "$2")
	s = rstLiteral.ReplaceAllString(s, "$1")
	s = rstLink.ReplaceAllString(s, "$1")
	return strings.NewReplacer("**", "", "*", "", "`", "").Replace(strings.TrimSpace(s))
}
