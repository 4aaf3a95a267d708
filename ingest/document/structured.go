package document

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Entity relations of the structured formats.
const (
	RelAuthoredBy   = "authored_by"
	RelIdentifiedBy = "identified_by"
	RelHasKeyword   = "has_keyword"
	RelHasORCID     = "has_orcid"
)

// docEntity adds an entity of the document (or section i).
func (c *Canonical) entity(i int, kind, name, key, rel string, line int) {
	name = strings.Join(strings.Fields(name), " ")
	if name == "" {
		return
	}
	c.Entities = append(c.Entities, Entity{Kind: kind, Name: cut(name, 300), Key: key, Relation: rel, Section: i, Line: line})
}

// doiKey normalizes a DOI ("https://doi.org/10.1/X" → "10.1/x").
func doiKey(s string) string {
	s = strings.TrimSpace(strings.ToLower(s))
	for _, p := range []string{"https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/", "doi:"} {
		s = strings.TrimPrefix(s, p)
	}
	if !strings.HasPrefix(s, "10.") {
		return ""
	}
	return s
}

// orcidKey normalizes an ORCID to its 16-character identifier.
func orcidKey(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) != 19 {
		return ""
	}
	return strings.ToUpper(s)
}

func pathBase(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// ---------------------------------------------------------------- BibTeX

var (
	bibEntryRe = regexp.MustCompile(`@([A-Za-z]+)\s*[{(]`)
	bibAndRe   = regexp.MustCompile(`\s+and\s+`)
)

// ParseBibTeX reads a BibTeX file: each entry is a section named by its
// title (anchor: the citation key), with its authors, keywords and DOI as
// entities; a crossref field cites the entry it names.
func ParseBibTeX(path string, data []byte) (*Canonical, error) {
	c := newCanonical(path, BibTeX)
	text := string(data)
	locs := bibEntryRe.FindAllStringSubmatchIndex(text, -1)
	entries, line, counted := 0, 1, 0
	for i, loc := range locs {
		typ := strings.ToLower(text[loc[2]:loc[3]])
		body := text[loc[1]:]
		if i+1 < len(locs) {
			body = text[loc[1]:locs[i+1][0]]
		}
		line += strings.Count(text[counted:loc[0]], "\n") // lines counted once, entry by entry
		counted = loc[0]
		switch typ {
		case "comment", "preamble", "string":
			continue
		}
		key, fields, ok := bibFields(body)
		if !ok {
			continue
		}
		entries++
		title := fields["title"]
		if title == "" {
			title = key
		}
		si := c.open(title, 1, line)
		s := &c.Sections[si]
		s.AddProse(fmt.Sprintf("%s %s. %s", typ, key, fields["abstract"]))
		for _, k := range []string{"journal", "booktitle", "publisher", "year", "note"} {
			if v := fields[k]; v != "" {
				s.AddProse(k + ": " + v)
			}
		}
		c.entity(si, "citekey", key, "bibkey:"+key, RelIdentifiedBy, line)
		if d := doiKey(fields["doi"]); d != "" {
			c.entity(si, "doi", d, d, RelIdentifiedBy, line)
		}
		for _, a := range splitAuthors(fields["author"]) {
			c.entity(si, "author", a, normName(a), RelAuthoredBy, line)
		}
		for _, k := range strings.FieldsFunc(fields["keywords"], func(r rune) bool { return r == ',' || r == ';' }) {
			c.entity(si, "keyword", strings.TrimSpace(k), normName(k), RelHasKeyword, line)
		}
		if cr := fields["crossref"]; cr != "" {
			c.entity(si, "citekey", cr, "bibkey:"+cr, RelCites, line)
		}
		if u := fields["url"]; u != "" {
			s.Links = append(s.Links, Link{Target: u, Line: line})
		}
	}
	if entries == 0 && strings.TrimSpace(text) != "" {
		return nil, errors.New("no BibTeX entry (@type{key, field = {value}, …}) found")
	}
	c.Meta["entries"] = itoa(entries)
	c.Title = "Bibliography " + pathBase(path)
	c.Finish(lineCount(data))
	return c, nil
}

// bibFields reads "key, name = {value}, name = "value", name = 2020" up to
// the entry's closing brace.
func bibFields(body string) (string, map[string]string, bool) {
	key, rest, ok := strings.Cut(body, ",")
	key = strings.TrimSpace(key)
	if !ok || key == "" || strings.ContainsAny(key, "{}= \n") {
		return "", nil, false
	}
	fields := map[string]string{}
	for {
		rest = strings.TrimLeft(rest, " \t\r\n,")
		eq := strings.IndexByte(rest, '=')
		if eq <= 0 || strings.HasPrefix(rest, "}") || strings.HasPrefix(rest, ")") {
			break
		}
		name := strings.ToLower(strings.TrimSpace(rest[:eq]))
		rest = strings.TrimLeft(rest[eq+1:], " \t\r\n")
		var val string
		switch {
		case strings.HasPrefix(rest, "{"):
			depth, j := 0, 0
			for j = 0; j < len(rest); j++ {
				if rest[j] == '{' {
					depth++
				} else if rest[j] == '}' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if j >= len(rest) {
				return key, fields, true // unterminated: keep what was read
			}
			val, rest = rest[1:j], rest[j+1:]
		case strings.HasPrefix(rest, "\""):
			j := strings.IndexByte(rest[1:], '"')
			if j < 0 {
				return key, fields, true
			}
			val, rest = rest[1:j+1], rest[j+2:]
		default:
			j := strings.IndexAny(rest, ",}\n")
			if j < 0 {
				j = len(rest)
			}
			val, rest = rest[:j], rest[j:]
		}
		if name != "" && len(name) < 40 {
			fields[name] = strings.Join(strings.Fields(strings.NewReplacer("{", "", "}", "").Replace(val)), " ")
		}
	}
	return key, fields, true
}

// splitAuthors splits a BibTeX author list and turns "Last, First" into
// "First Last".
func splitAuthors(s string) []string {
	var out []string
	for _, a := range bibAndRe.Split(s, -1) {
		a = strings.TrimSpace(a)
		if last, first, ok := strings.Cut(a, ","); ok {
			a = strings.TrimSpace(first) + " " + strings.TrimSpace(last)
		}
		if a != "" && !strings.EqualFold(a, "others") {
			out = append(out, a)
		}
	}
	return out
}

// ------------------------------------------------------------------ JATS

// ParseJATS reads a JATS (NLM) article: title, DOI, authors with ORCIDs,
// keywords, abstract, body sections (nested <sec>), tables, code, and the
// reference list as citations.
func ParseJATS(path string, data []byte) (*Canonical, error) {
	root, err := parseXML(data)
	if err != nil {
		return nil, err
	}
	if root.name != "article" {
		return nil, fmt.Errorf("root element <%s> is not a JATS <article>", root.name)
	}
	c := newCanonical(path, JATS)
	meta := root.path("front", "article-meta")
	c.Title = meta.path("title-group", "article-title").inner()
	c.Meta["journal"] = xnodes(root.path("front", "journal-meta").all("journal-title")).first()
	for _, id := range meta.all("article-id") {
		switch id.attr("pub-id-type") {
		case "doi":
			c.Meta["doi"] = id.inner()
			c.entity(0, "doi", id.inner(), doiKey(id.inner()), RelIdentifiedBy, id.line)
		case "pmid":
			c.entity(0, "pmid", id.inner(), "pmid:"+id.inner(), RelIdentifiedBy, id.line)
		}
	}
	for _, ct := range meta.all("contrib") {
		if t := ct.attr("contrib-type"); t != "" && t != "author" {
			continue
		}
		name := strings.TrimSpace(ct.path("name", "given-names").inner() + " " + ct.path("name", "surname").inner())
		c.entity(0, "author", name, normName(name), RelAuthoredBy, ct.line)
		for _, cid := range ct.all("contrib-id") {
			if k := orcidKey(cid.inner()); k != "" && strings.Contains(strings.ToLower(cid.attr("contrib-id-type")+cid.inner()), "orcid") {
				c.entity(0, "orcid", k, k, RelHasORCID, cid.line)
			}
		}
	}
	for _, k := range meta.all("kwd") {
		c.entity(0, "keyword", k.inner(), normName(k.inner()), RelHasKeyword, k.line)
	}
	if ab := meta.child("abstract"); ab != nil {
		i := c.open("Abstract", 1, ab.line)
		c.Sections[i].AddProse(ab.inner())
	}
	if body := root.child("body"); body != nil {
		jatsSections(c, body, 1)
	}
	if refs := root.path("back", "ref-list"); refs != nil {
		i := c.open("References", 1, refs.line)
		for _, r := range refs.all("ref") {
			title := xnodes(r.all("article-title")).first()
			if title == "" {
				title = r.inner()
			}
			c.Sections[i].AddProse(cut(title, 300))
			key := "ref:" + r.attr("id")
			for _, pid := range r.all("pub-id") {
				if pid.attr("pub-id-type") == "doi" {
					key = doiKey(pid.inner())
				}
			}
			c.entity(i, "citation", cut(title, 300), key, RelCites, r.line)
		}
	}
	c.Finish(lineCount(data))
	return c, nil
}

// xnodes is a list of elements.
type xnodes []*xnode

// first returns the inner text of the first node ("" when none).
func (ns xnodes) first() string {
	if len(ns) == 0 {
		return ""
	}
	return ns[0].inner()
}

// jatsSections opens a section per <sec> (by its <title>), nested.
func jatsSections(c *Canonical, n *xnode, level int) {
	for _, k := range n.kids {
		switch k.name {
		case "sec":
			title := k.child("title").inner()
			if title == "" {
				title = "Section " + k.attr("id")
			}
			i := c.open(title, level, k.line)
			addParagraphs(c, i, k)
			jatsSections(c, k, level+1)
		}
	}
}

// addParagraphs adds a section element's own paragraphs, code and tables
// (not those of nested sections).
func addParagraphs(c *Canonical, i int, n *xnode) {
	for _, k := range n.kids {
		s := &c.Sections[i]
		switch k.name {
		case "p", "t", "list", "def-list", "disp-quote", "ul", "ol", "dl", "blockquote", "aside":
			s.AddProse(k.inner())
			inlineSpans(k, s)
			for _, x := range append(k.all("ext-link"), k.all("eref")...) {
				s.Links = append(s.Links, Link{Target: x.attr("href") + x.attr("target"), Text: x.inner(), Line: x.line})
			}
		case "code", "preformat", "sourcecode", "artwork":
			s.Blocks = append(s.Blocks, Block{Lang: strings.ToLower(k.attr("language") + k.attr("type")), Line: k.line, EndLine: k.lastLine(), Text: k.ownText()})
		case "table-wrap", "table":
			tb := Table{Line: k.line, EndLine: k.lastLine()}
			for _, row := range k.all("tr") {
				tb.Rows++
				if tb.Header == nil {
					for _, cell := range row.kids {
						tb.Header = append(tb.Header, cell.inner())
					}
				}
			}
			s.Tables = append(s.Tables, tb)
		}
	}
}

// ---------------------------------------------------------------- Patent

// ParsePatent reads a patent document (USPTO us-patent-grant /
// us-patent-application, EPO ep-patent-document and similar): its number,
// title, inventors, classifications as keywords, abstract, description
// headings and claims, and the patents it cites.
func ParsePatent(path string, data []byte) (*Canonical, error) {
	root, err := parseXML(data)
	if err != nil {
		return nil, err
	}
	if !strings.Contains(root.name, "patent") {
		return nil, fmt.Errorf("root element <%s> is not a patent document", root.name)
	}
	c := newCanonical(path, Patent)
	c.Title = xnodes(root.all("invention-title")).first()
	if pub := root.all("publication-reference"); len(pub) > 0 {
		if num := patentNumber(pub[0]); num != "" {
			c.Meta["number"] = num
			c.entity(0, "patent", num, "patent:"+num, RelIdentifiedBy, pub[0].line)
		}
	}
	for _, inv := range append(root.all("inventor"), root.all("applicant")...) {
		name := strings.TrimSpace(xnodes(inv.all("first-name")).first() + " " + xnodes(inv.all("last-name")).first())
		if name == "" {
			name = xnodes(inv.all("name")).first()
		}
		c.entity(0, "author", name, normName(name), RelAuthoredBy, inv.line)
	}
	for _, cl := range root.all("classification-ipcr") {
		code := strings.TrimSpace(xnodes(cl.all("section")).first() + xnodes(cl.all("class")).first() + xnodes(cl.all("subclass")).first())
		if code != "" {
			c.entity(0, "keyword", "IPC "+code, "ipc:"+strings.ToLower(code), RelHasKeyword, cl.line)
		}
	}
	for _, pc := range root.all("patcit") {
		if num := patentNumber(pc); num != "" {
			c.entity(0, "patent", num, "patent:"+num, RelCites, pc.line)
		}
	}
	if ab := root.child("abstract"); ab != nil {
		i := c.open("Abstract", 1, ab.line)
		c.Sections[i].AddProse(ab.inner())
	}
	if desc := root.child("description"); desc != nil {
		i := c.open("Description", 1, desc.line)
		for _, k := range desc.kids {
			if k.name == "heading" {
				i = c.open(k.inner(), 2, k.line)
				continue
			}
			if k.name == "p" {
				c.Sections[i].AddProse(k.inner())
				inlineSpans(k, &c.Sections[i])
			}
		}
	}
	if claims := root.child("claims"); claims != nil {
		c.open("Claims", 1, claims.line)
		for _, cl := range claims.all("claim") {
			num := cl.attr("num")
			j := c.open("Claim "+strings.TrimLeft(num, "0"), 2, cl.line)
			c.Sections[j].AddProse(cl.inner())
		}
	}
	c.Finish(lineCount(data))
	return c, nil
}

// patentNumber reads country + doc-number (+ kind) of a document-id.
func patentNumber(n *xnode) string {
	id := n.all("document-id")
	if len(id) == 0 {
		return ""
	}
	num := strings.TrimSpace(id[0].child("doc-number").inner())
	if num == "" {
		return ""
	}
	return strings.ToUpper(strings.TrimSpace(id[0].child("country").inner()) + num)
}

// ------------------------------------------------------------------- RFC

// ParseRFC reads an RFC in the v3 XML vocabulary (RFC 7991): title,
// number and DOI, authors, keywords, abstract, nested <section>s named by
// <name> (or a v2 title attribute), <sourcecode>/<artwork> blocks,
// tables, <eref> links, and the references as citations.
func ParseRFC(path string, data []byte) (*Canonical, error) {
	root, err := parseXML(data)
	if err != nil {
		return nil, err
	}
	if root.name != "rfc" {
		return nil, fmt.Errorf("root element <%s> is not <rfc>", root.name)
	}
	c := newCanonical(path, RFC)
	front := root.child("front")
	c.Title = front.child("title").inner()
	if n := root.attr("number"); n != "" {
		c.Meta["number"] = n
		c.entity(0, "rfc", "RFC "+n, "rfc:"+n, RelIdentifiedBy, root.line)
	}
	for _, si := range front.all("seriesinfo") {
		if strings.EqualFold(si.attr("name"), "DOI") {
			c.entity(0, "doi", si.attr("value"), doiKey(si.attr("value")), RelIdentifiedBy, si.line)
		}
	}
	for _, a := range front.all("author") {
		name := a.attr("fullname")
		if name == "" {
			name = strings.TrimSpace(a.attr("initials") + " " + a.attr("surname"))
		}
		c.entity(0, "author", name, normName(name), RelAuthoredBy, a.line)
	}
	for _, k := range front.all("keyword") {
		c.entity(0, "keyword", k.inner(), normName(k.inner()), RelHasKeyword, k.line)
	}
	if ab := front.child("abstract"); ab != nil {
		i := c.open("Abstract", 1, ab.line)
		c.Sections[i].AddProse(ab.inner())
	}
	if mid := root.child("middle"); mid != nil {
		rfcSections(c, mid, 1)
	}
	for _, refs := range root.path("back").all("references") {
		name := refs.child("name").inner()
		if name == "" {
			name = refs.attr("title")
		}
		if name == "" {
			name = "References"
		}
		i := c.open(name, 1, refs.line)
		for _, r := range refs.kids {
			if r.name != "reference" {
				continue
			}
			title := r.path("front", "title").inner()
			key := "ref:" + strings.ToLower(r.attr("anchor"))
			for _, si := range r.all("seriesinfo") {
				switch strings.ToUpper(si.attr("name")) {
				case "RFC":
					key = "rfc:" + si.attr("value")
				case "DOI":
					if key == "ref:"+strings.ToLower(r.attr("anchor")) {
						key = doiKey(si.attr("value"))
					}
				}
			}
			c.Sections[i].AddProse(title)
			c.entity(i, "citation", title, key, RelCites, r.line)
		}
	}
	c.Finish(lineCount(data))
	return c, nil
}

func rfcSections(c *Canonical, n *xnode, level int) {
	for _, k := range n.kids {
		if k.name != "section" {
			continue
		}
		title := k.child("name").inner()
		if title == "" {
			title = k.attr("title")
		}
		i := c.open(title, level, k.line)
		addParagraphs(c, i, k)
		rfcSections(c, k, level+1)
	}
}
