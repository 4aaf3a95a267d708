package document

import (
	"bytes"
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

var htmlTitleComment = regexp.MustCompile(`"Title"\s*:\s*"([^"]+)"`)

// htmlState is the tokenizer's walk through one page.
type htmlState struct {
	c       *Canonical
	line    int
	skip    int // inside script/style/template/svg
	para    strings.Builder
	head    *strings.Builder
	headLv  int
	headLn  int
	pre     *strings.Builder
	preLang string
	preLn   int
	code    *strings.Builder // an inline <code> outside <pre>
	link    *Link
	linkTxt strings.Builder
	table   *Table
	cell    *strings.Builder
	rowIdx  int
	title   *strings.Builder
}

// ParseHTML normalizes an HTML page: h1–h6 headings, <pre> blocks (with a
// language-x class), inline <code>, links, tables (first row as header),
// the <title> (or a Go-style {"Title": …} comment); scripts, styles and
// templates are skipped.
func ParseHTML(path string, data []byte) *Canonical {
	st := &htmlState{c: newCanonical(path, HTML), line: 1}
	z := html.NewTokenizer(bytes.NewReader(data))
	z.SetMaxBuf(len(data) + 1)
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		raw := z.Raw()
		startLine := st.line
		nl := bytes.Count(raw, []byte{'\n'})
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			st.start(tok, startLine, tt == html.SelfClosingTagToken)
		case html.EndTagToken:
			st.end(z.Token().DataAtom)
		case html.TextToken:
			if st.skip == 0 {
				st.text(html.UnescapeString(string(raw)))
			}
		case html.CommentToken:
			if m := htmlTitleComment.FindSubmatch(raw); m != nil && st.c.Title == "" {
				st.c.Title = string(m[1])
			}
		}
		st.line += nl
	}
	st.flush()
	st.c.Finish(st.line)
	return st.c
}

func attr(t html.Token, name string) string {
	for _, a := range t.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

func (st *htmlState) start(t html.Token, line int, selfClosing bool) {
	switch t.DataAtom {
	case atom.Script, atom.Style, atom.Template, atom.Svg, atom.Noscript:
		if !selfClosing {
			st.skip++
		}
		return
	}
	if st.skip > 0 {
		return
	}
	switch t.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		st.flush()
		st.head, st.headLv, st.headLn = &strings.Builder{}, int(t.Data[1]-'0'), line
	case atom.Title:
		st.title = &strings.Builder{}
	case atom.Pre:
		st.flush()
		st.pre, st.preLn, st.preLang = &strings.Builder{}, line, langOf(attr(t, "class"))
	case atom.Code:
		if st.pre != nil {
			if l := langOf(attr(t, "class")); l != "" {
				st.preLang = l
			}
		} else {
			st.code = &strings.Builder{}
		}
	case atom.A:
		if href := attr(t, "href"); href != "" {
			st.link = &Link{Target: href, Line: line}
			st.linkTxt.Reset()
		}
	case atom.Table:
		st.flush()
		st.table, st.rowIdx = &Table{Line: line}, 0
	case atom.Tr:
		if st.table != nil {
			st.rowIdx++
			st.table.Rows++
		}
	case atom.Td, atom.Th:
		st.cell = &strings.Builder{}
	case atom.Br:
		st.flush()
	}
}

func (st *htmlState) end(a atom.Atom) {
	switch a {
	case atom.Script, atom.Style, atom.Template, atom.Svg, atom.Noscript:
		if st.skip > 0 {
			st.skip--
		}
		return
	}
	if st.skip > 0 {
		return
	}
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		if st.head != nil {
			st.c.open(st.head.String(), st.headLv, st.headLn)
			st.head = nil
		}
	case atom.Title:
		if st.title != nil && st.c.Title == "" {
			st.c.Title = strings.Join(strings.Fields(st.title.String()), " ")
		}
		st.title = nil
	case atom.Pre:
		if st.pre != nil {
			st.c.cur().Blocks = append(st.c.cur().Blocks, Block{Lang: st.preLang, Line: st.preLn, EndLine: st.line, Text: strings.Trim(st.pre.String(), "\n")})
			st.pre = nil
		}
	case atom.Code:
		if st.code != nil {
			if s := strings.TrimSpace(st.code.String()); s != "" {
				st.c.cur().Spans = append(st.c.cur().Spans, s)
			}
			st.code = nil
		}
	case atom.A:
		if st.link != nil {
			st.link.Text = strings.TrimSpace(st.linkTxt.String())
			st.c.cur().Links = append(st.c.cur().Links, *st.link)
			st.link = nil
		}
	case atom.Td, atom.Th:
		if st.cell != nil && st.table != nil && st.rowIdx == 1 {
			st.table.Header = append(st.table.Header, strings.Join(strings.Fields(st.cell.String()), " "))
		}
		st.cell = nil
		st.flush()
	case atom.Table:
		if st.table != nil {
			st.table.EndLine = st.line
			st.c.cur().Tables = append(st.c.cur().Tables, *st.table)
			st.table = nil
		}
	case atom.P, atom.Li, atom.Div, atom.Dd, atom.Dt, atom.Blockquote, atom.Tr, atom.Section, atom.Article:
		st.flush()
	}
}

func (st *htmlState) text(s string) {
	switch {
	case st.title != nil:
		st.title.WriteString(s)
		return
	case st.head != nil:
		st.head.WriteString(s)
		return
	case st.pre != nil:
		if st.pre.Len() < maxProse {
			st.pre.WriteString(s)
		}
		return
	}
	if st.code != nil {
		st.code.WriteString(s)
	}
	if st.link != nil {
		st.linkTxt.WriteString(s)
	}
	if st.cell != nil {
		st.cell.WriteString(s)
	}
	if st.para.Len() < maxProse {
		st.para.WriteString(s)
	}
}

// flush ends the current paragraph.
func (st *htmlState) flush() {
	if p := strings.Join(strings.Fields(st.para.String()), " "); p != "" {
		st.c.cur().AddProse(p)
	}
	st.para.Reset()
}

// langOf reads "language-go" / "lang-go" from a class attribute.
func langOf(class string) string {
	for _, c := range strings.Fields(class) {
		for _, p := range []string{"language-", "lang-"} {
			if l, ok := strings.CutPrefix(c, p); ok {
				return strings.ToLower(l)
			}
		}
	}
	return ""
}
