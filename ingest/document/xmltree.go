package document

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// xnode is an element of a small XML tree: enough structure for the
// scholarly, patent and RFC formats, with the line each element starts on.
type xnode struct {
	name  string
	attrs map[string]string
	kids  []*xnode
	line  int
	// order interleaves text and children for inline text: each entry
	// is a child index or -1 for a text run in runs.
	order []int
	runs  []string
}

// Limits of parsed XML: far above real documents, far below what would
// hurt.
const (
	maxXMLDepth = 256
	maxXMLNodes = 500_000
)

// parseXML builds the tree of an XML document, tolerating HTML entities
// and undeclared ones (Strict off) but not malformed structure.
func parseXML(data []byte) (*xnode, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(label string, r io.Reader) (io.Reader, error) { return r, nil }
	var root *xnode
	var stack []*xnode
	count := 0
	lineAt := func() int { l, _ := d.InputPos(); return l }
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) >= maxXMLDepth || count >= maxXMLNodes {
				return nil, errors.New("XML nests too deep or has too many elements")
			}
			count++
			n := &xnode{name: strings.ToLower(t.Name.Local), attrs: map[string]string{}, line: lineAt()}
			for _, a := range t.Attr {
				n.attrs[strings.ToLower(a.Name.Local)] = a.Value
			}
			if len(stack) == 0 {
				if root != nil {
					return nil, errors.New("XML: more than one root element")
				}
				root = n
			} else {
				p := stack[len(stack)-1]
				p.order = append(p.order, len(p.kids))
				p.kids = append(p.kids, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.order = append(p.order, -1)
				p.runs = append(p.runs, string(t))
			}
		}
	}
	if root == nil {
		return nil, errors.New("XML: no root element")
	}
	return root, nil
}

// child returns the first child named name (nil when none).
func (n *xnode) child(name string) *xnode {
	if n == nil {
		return nil
	}
	for _, k := range n.kids {
		if k.name == name {
			return k
		}
	}
	return nil
}

// path follows child names.
func (n *xnode) path(names ...string) *xnode {
	for _, nm := range names {
		n = n.child(nm)
	}
	return n
}

// all returns the descendants named name, in document order.
func (n *xnode) all(name string) []*xnode {
	var out []*xnode
	var walk func(x *xnode)
	walk = func(x *xnode) {
		for _, k := range x.kids {
			if k.name == name {
				out = append(out, k)
			}
			walk(k)
		}
	}
	if n != nil {
		walk(n)
	}
	return out
}

// inner is the element's text with its descendants' text, spaces
// normalized.
func (n *xnode) inner() string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	var walk func(x *xnode)
	walk = func(x *xnode) {
		ri := 0
		for _, o := range x.order {
			if o < 0 {
				b.WriteString(x.runs[ri])
				ri++
			} else {
				walk(x.kids[o])
				b.WriteByte(' ')
			}
			if b.Len() > maxProse {
				return
			}
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// ownText is the element's own character data (not its children's),
// at most maxProse bytes.
func (n *xnode) ownText() string {
	var b strings.Builder
	for _, r := range n.runs {
		if b.Len()+len(r) > maxProse {
			break
		}
		b.WriteString(r)
	}
	return b.String()
}

// attr returns an attribute ("" when absent).
func (n *xnode) attr(name string) string {
	if n == nil {
		return ""
	}
	return n.attrs[name]
}

// lastLine is the last line any element of the subtree starts on.
func (n *xnode) lastLine() int {
	l := n.line
	for _, k := range n.kids {
		l = max(l, k.lastLine())
	}
	return l
}

// lineCount counts a document's lines.
func lineCount(data []byte) int { return bytes.Count(data, []byte{'\n'}) + 1 }

// inlineSpans collects code-like inline elements (<monospace>, <tt>,
// <code>) of a subtree as spans.
func inlineSpans(n *xnode, s *Section) {
	for _, name := range []string{"monospace", "tt", "code"} {
		for _, c := range n.all(name) {
			if t := c.inner(); t != "" {
				s.Spans = append(s.Spans, t)
			}
		}
	}
}
