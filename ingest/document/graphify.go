package document

import (
	"path"
	"strings"

	"github.com/m1nd-go/m1nd/core/graph"
)

// DefaultNamespace is the namespace of document nodes when the request
// names none.
const DefaultNamespace = "doc"

// Relations the document lane creates. All but contains are associations
// (see core/analysis): a document never makes code depend on anything.
const (
	RelContains  = "contains"
	RelLinksTo   = "links_to"
	RelDocuments = "documents"
	RelCites     = "cites"
	RelMentions  = "mentions_entity"
)

// Tags the lane puts on its nodes.
const (
	TagDoc      = "doc"
	TagDocument = "doc:document"
	TagSection  = "doc:section"
	TagBlock    = "doc:code"
	TagTable    = "doc:table"
	TagEntity   = "doc:entity"
	// TagBasePrefix + absolute directory: what the document's path is
	// relative to (its git work tree, or the ingested root).
	TagBasePrefix = "doc:base="
	// TagLinkPrefix + repository-relative path: a local link target.
	TagLinkPrefix = "link:"
	// TagKeyPrefix + kind + ":" + key: an entity's identity across
	// documents and namespaces (doi, orcid, author, keyword).
	TagKeyPrefix = "key:"
)

// IDPrefix is the external ID prefix of a namespace's document nodes.
func IDPrefix(ns string) string {
	if ns == "" || ns == DefaultNamespace {
		return "doc::"
	}
	return ns + "::doc::"
}

// DocumentID is the external ID of the document at path in namespace ns.
func DocumentID(ns, p string) string { return IDPrefix(ns) + p }

// IsDocID reports whether an external ID belongs to the document lane.
func IsDocID(ext string) bool {
	if strings.HasPrefix(ext, "doc::") {
		return true
	}
	i := strings.Index(ext, "::doc::")
	return i > 0 && !strings.Contains(ext[:i], "::")
}

// builder graphifies canonical documents into one graph.
type builder struct {
	g          *graph.Graph
	ns         string
	base       string
	collisions int
}

func newBuilder(ns, base string) *builder {
	return &builder{g: graph.New(), ns: ns, base: base}
}

func (b *builder) node(n graph.Node) graph.NodeID {
	id, err := b.g.AddNode(n)
	if err != nil {
		if id != graph.NoNode && n.Type == graph.Concept && hasTag(n.Tags, TagEntity) {
			return id // an entity named again is the same node
		}
		b.collisions++
		return graph.NoNode
	}
	return id
}

func hasTag(tags []string, t string) bool {
	for _, x := range tags {
		if x == t {
			return true
		}
	}
	return false
}

func (b *builder) edge(src, dst graph.NodeID, rel string, w float32) {
	if src == graph.NoNode || dst == graph.NoNode || src == dst {
		return
	}
	dir, cs := graph.Forward, float32(0.2)
	if rel == RelContains {
		dir, cs = graph.Bidirectional, 0.3
	}
	_ = b.g.AddEdge(graph.Edge{Source: src, Target: dst, Relation: rel, Weight: w, Direction: dir, CausalStrength: cs})
}

// add graphifies one document; t is its last change (Unix seconds) and
// freq its change frequency. It returns the document node.
func (b *builder) add(c *Canonical, t float64, freq float32, lines int) graph.NodeID {
	nsTag := "namespace:" + b.ns
	docID := DocumentID(b.ns, c.Path)
	prov := func(line, end int, excerpt string) graph.Provenance {
		return graph.Provenance{SourcePath: c.Path, LineStart: uint32(max(line, 0)), LineEnd: uint32(max(end, line, 0)), Excerpt: cut(excerpt, 220), Namespace: b.ns}
	}
	tags := []string{TagDoc, TagDocument, "format:" + string(c.Format), nsTag}
	if b.base != "" {
		tags = append(tags, TagBasePrefix+b.base)
	}
	title := c.Title
	if title == "" {
		title = path.Base(c.Path)
	}
	doc := b.node(graph.Node{
		ExternalID: docID, Label: path.Base(c.Path), Type: graph.File,
		Tags:         append(tags, sectionTags(&c.Sections[0])...),
		LastModified: t, ChangeFrequency: freq, Provenance: prov(1, lines, title),
	})
	if doc == graph.NoNode {
		return doc
	}
	ids := make([]graph.NodeID, len(c.Sections))
	ids[0] = doc
	b.content(doc, docID, &c.Sections[0], nsTag, t, freq, prov)
	for i := 1; i < len(c.Sections); i++ {
		s := &c.Sections[i]
		secID := docID + "#" + s.Anchor
		id := b.node(graph.Node{
			ExternalID: secID, Label: s.Heading, Type: graph.Concept,
			Tags:         append([]string{TagDoc, TagSection, nsTag}, sectionTags(s)...),
			LastModified: t, ChangeFrequency: freq, Provenance: prov(s.Line, s.EndLine, firstProse(s)),
		})
		ids[i] = id
		if id == graph.NoNode {
			continue
		}
		parent := doc
		if s.Parent > 0 && s.Parent < i && ids[s.Parent] != graph.NoNode {
			parent = ids[s.Parent]
		}
		b.edge(parent, id, RelContains, 1)
		b.content(id, secID, s, nsTag, t, freq, prov)
	}
	for _, e := range c.Entities {
		b.entity(e, ids, doc, nsTag, t, freq, prov)
	}
	return doc
}

// content adds a section's code blocks and tables under node.
func (b *builder) content(node graph.NodeID, id string, s *Section, nsTag string, t float64, freq float32, prov func(int, int, string) graph.Provenance) {
	for j, bl := range s.Blocks {
		tags := []string{TagDoc, TagBlock, nsTag}
		if bl.Lang != "" {
			tags = append(tags, "lang:"+bl.Lang)
		}
		label := firstLine(bl.Text)
		if label == "" {
			label = "code block"
		}
		n := b.node(graph.Node{
			ExternalID: id + "/code-" + itoa(j+1), Label: cut(label, 120), Type: graph.Process, Tags: tags,
			LastModified: t, ChangeFrequency: freq, Provenance: prov(bl.Line, bl.EndLine, bl.Text),
		})
		b.edge(node, n, RelContains, 1)
	}
	for j, tb := range s.Tables {
		label := "table: " + strings.Join(tb.Header, " | ")
		n := b.node(graph.Node{
			ExternalID: id + "/table-" + itoa(j+1), Label: cut(label, 160), Type: graph.Process,
			Tags:         []string{TagDoc, TagTable, nsTag},
			LastModified: t, ChangeFrequency: freq, Provenance: prov(tb.Line, tb.EndLine, label),
		})
		b.edge(node, n, RelContains, 1)
	}
}

// entity adds (or reuses) an entity node and links it from the section
// or document that names it.
func (b *builder) entity(e Entity, ids []graph.NodeID, doc graph.NodeID, nsTag string, t float64, freq float32, prov func(int, int, string) graph.Provenance) {
	key := e.Key
	if key == "" {
		key = normName(e.Name)
	}
	if key == "" || e.Name == "" {
		return
	}
	kind := keyKind(e.Kind, key)
	id := b.node(graph.Node{
		ExternalID: IDPrefix(b.ns) + "entity::" + kind + "::" + entitySlug(key), Label: cut(e.Name, 200), Type: graph.Concept,
		Tags:         []string{TagDoc, TagEntity, "entity:" + kind, nsTag, TagKeyPrefix + kind + ":" + key},
		LastModified: t, ChangeFrequency: freq, Provenance: prov(e.Line, e.Line, e.Name),
	})
	from := doc
	if e.Section > 0 && e.Section < len(ids) && ids[e.Section] != graph.NoNode {
		from = ids[e.Section]
	}
	rel := e.Relation
	if rel == "" {
		rel = RelMentions
	}
	b.edge(from, id, rel, 0.8)
}

// keyKind is the identity family of an entity: a citation with a DOI is
// the DOI's entity (so citing and cited documents meet on one node).
func keyKind(kind, key string) string {
	switch {
	case doiKey(key) != "":
		return "doi"
	case strings.HasPrefix(key, "rfc:"):
		return "rfc"
	case strings.HasPrefix(key, "patent:"):
		return "patent"
	case strings.HasPrefix(key, "pmid:"):
		return "pmid"
	case strings.HasPrefix(key, "bibkey:"):
		return "citekey"
	}
	return kind
}

// entitySlug keeps keys readable in IDs: DOIs and ORCIDs as they are
// (lower-cased), names slugged.
func entitySlug(key string) string {
	k := strings.ToLower(strings.TrimSpace(key))
	if strings.ContainsAny(k, " \t\n") {
		return Slug(k)
	}
	return cut(k, 200)
}

// normName is a name's identity: lower-case, single spaces.
func normName(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// sectionTags are a section's mention and link tags.
func sectionTags(s *Section) []string {
	var tags []string
	for _, m := range s.Mentions {
		tags = append(tags, m.Tag())
	}
	seen := map[string]bool{}
	for _, l := range s.Links {
		if l.Resolved != "" && !seen[l.Resolved] {
			seen[l.Resolved] = true
			tags = append(tags, TagLinkPrefix+l.Resolved)
		}
	}
	return tags
}

func firstProse(s *Section) string {
	p := s.Prose()
	if len(p) > 400 {
		p = cut(p, 400)
	}
	return strings.Join(strings.Fields(p), " ")
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(l); t != "" {
			return t
		}
	}
	return ""
}
