package document

import (
	"regexp"
	"strings"
)

var (
	mdATX      = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$`)
	mdFence    = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})[ \t]*([^`\\s]*)")
	mdSetext   = regexp.MustCompile(`^ {0,3}(=+|-+)[ \t]*$`)
	mdTableSep = regexp.MustCompile(`^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$`)
	mdLink     = regexp.MustCompile(`\[([^\]\n]{0,200})\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	mdRefDef   = regexp.MustCompile(`^ {0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s+.*)?$`)
	mdAuto     = regexp.MustCompile(`<((?:https?|ftp)://[^>\s]+)>`)
	mdHTMLHead = regexp.MustCompile(`(?i)^\s*<h([1-6])[^>]*>(.*?)</h[1-6]>\s*$`)
	htmlTagRe  = regexp.MustCompile(`<[^>]{0,200}>`)
)

// ParseMarkdown normalizes CommonMark/GFM Markdown: ATX and setext
// headings, fenced code blocks, pipe tables, inline and reference links,
// autolinks, inline code spans; YAML/TOML front matter goes to Meta.
func ParseMarkdown(path string, data []byte) *Canonical {
	c := newCanonical(path, Markdown)
	lines := splitLines(data)
	start := frontMatter(lines, c.Meta)
	var fence string
	var block *Block
	var code strings.Builder
	inComment := false
	for i := start; i < len(lines); i++ {
		l, n := lines[i], i+1
		if block != nil {
			if t := strings.TrimSpace(l); strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				block.EndLine, block.Text = n, code.String()
				c.cur().Blocks = append(c.cur().Blocks, *block)
				block, fence = nil, ""
				continue
			}
			if code.Len() < maxProse {
				code.WriteString(l)
				code.WriteByte('\n')
			}
			continue
		}
		if inComment {
			if strings.Contains(l, "-->") {
				inComment = false
			}
			continue
		}
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "<!--") {
			inComment = !strings.Contains(t, "-->")
			continue
		}
		if m := mdFence.FindStringSubmatch(l); m != nil {
			fence = m[1]
			block = &Block{Lang: strings.ToLower(strings.Trim(m[2], "{}.")), Line: n}
			code.Reset()
			continue
		}
		if m := mdATX.FindStringSubmatch(l); m != nil {
			c.open(stripInline(m[2]), len(m[1]), n)
			continue
		}
		if m := mdHTMLHead.FindStringSubmatch(l); m != nil {
			c.open(htmlTagRe.ReplaceAllString(m[2], ""), int(m[1][0]-'0'), n)
			continue
		}
		if i+1 < len(lines) && isSetextTarget(l) {
			if m := mdSetext.FindStringSubmatch(lines[i+1]); m != nil && (m[1][0] == '=' || len(m[1]) >= 2) {
				level := 1
				if m[1][0] == '-' {
					level = 2
				}
				c.open(stripInline(l), level, n)
				i++
				continue
			}
		}
		if i+1 < len(lines) && strings.Contains(l, "|") && mdTableSep.MatchString(lines[i+1]) && strings.Contains(lines[i+1], "-") {
			j := i + 2
			for j < len(lines) && strings.Contains(lines[j], "|") && strings.TrimSpace(lines[j]) != "" {
				c.cur().AddProse(tableRowText(lines[j]))
				mdInline(c.cur(), lines[j], j+1)
				j++
			}
			c.cur().Tables = append(c.cur().Tables, Table{Line: n, EndLine: j, Header: splitRow(l), Rows: j - i - 2})
			mdInline(c.cur(), l, n)
			i = j - 1
			continue
		}
		if m := mdRefDef.FindStringSubmatch(l); m != nil {
			c.cur().Links = append(c.cur().Links, Link{Target: m[2], Text: m[1], Line: n})
			continue
		}
		if strings.TrimSpace(l) == "" {
			continue
		}
		c.cur().AddProse(l)
		mdInline(c.cur(), l, n)
	}
	if block != nil { // unterminated fence: the block runs to the end
		block.EndLine, block.Text = len(lines), code.String()
		c.cur().Blocks = append(c.cur().Blocks, *block)
	}
	c.Finish(len(lines))
	return c
}

// isSetextTarget reports whether l can be the text line of a setext
// heading (not blank, not a list item, quote or table row).
func isSetextTarget(l string) bool {
	t := strings.TrimSpace(l)
	if t == "" || strings.HasPrefix(l, "    ") || strings.HasPrefix(t, ">") || strings.HasPrefix(t, "|") {
		return false
	}
	if t[0] == '-' || t[0] == '*' || t[0] == '+' {
		return false
	}
	return !mdSetext.MatchString(l)
}

// mdInline collects the links and code spans of a line.
func mdInline(s *Section, l string, n int) {
	for _, m := range mdLink.FindAllStringSubmatch(l, -1) {
		s.Links = append(s.Links, Link{Target: m[2], Text: stripInline(m[1]), Line: n})
	}
	for _, m := range mdAuto.FindAllStringSubmatch(l, -1) {
		s.Links = append(s.Links, Link{Target: m[1], Line: n})
	}
	s.Spans = append(s.Spans, codeSpans(l)...)
}

// codeSpans returns the backtick code spans of a line.
func codeSpans(l string) []string {
	var out []string
	for i := 0; i < len(l); {
		if l[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(l) && l[j] == '`' {
			j++
		}
		tick := l[i:j]
		k := strings.Index(l[j:], tick)
		if k < 0 {
			break
		}
		if span := strings.TrimSpace(l[j : j+k]); span != "" {
			out = append(out, span)
		}
		i = j + k + len(tick)
	}
	return out
}

// stripInline removes emphasis, code ticks and link syntax from heading
// text.
func stripInline(s string) string {
	s = mdLink.ReplaceAllString(s, "$1")
	s = htmlTagRe.ReplaceAllString(s, "")
	return strings.NewReplacer("`", "", "**", "", "__", "", "*", "").Replace(strings.TrimSpace(s))
}

func splitRow(l string) []string {
	var cells []string
	for _, c := range strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|") {
		cells = append(cells, strings.TrimSpace(stripInline(c)))
	}
	return cells
}

func tableRowText(l string) string { return strings.Join(splitRow(l), " | ") }

// frontMatter reads a leading YAML ("---") or TOML ("+++") block of
// "key: value" / "key = value" lines into meta and returns the index of
// the first line after it (0 when there is none). List items under a key
// are joined with ", ".
func frontMatter(lines []string, meta map[string]string) int {
	if len(lines) == 0 {
		return 0
	}
	delim := strings.TrimSpace(lines[0])
	if delim != "---" && delim != "+++" {
		return 0
	}
	end := 0
	for i := 1; i < len(lines) && i < 400; i++ {
		if strings.TrimSpace(lines[i]) == delim {
			end = i
			break
		}
	}
	if end == 0 {
		return 0
	}
	key := ""
	for _, l := range lines[1:end] {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "- ") && key != "" {
			v := unquote(strings.TrimSpace(t[2:]))
			if meta[key] != "" {
				meta[key] += ", " + v
			} else {
				meta[key] = v
			}
			continue
		}
		sep := ":"
		if delim == "+++" {
			sep = "="
		}
		k, v, ok := strings.Cut(t, sep)
		if !ok || len(strings.TrimSpace(k)) > 40 {
			continue
		}
		key = strings.ToLower(strings.TrimSpace(k))
		if key == "" {
			continue
		}
		meta[key] = unquote(strings.TrimSpace(v))
	}
	return end + 1
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		return s[1 : len(s)-1]
	}
	return s
}
