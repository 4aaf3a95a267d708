package document

import (
	"regexp"
	"strings"
)

// L1GHT header fields and what they become: a relation from the document
// to an entity of a kind.
var lightHeader = map[string]struct{ kind, rel string }{
	"protocol":   {"protocol", "defines_protocol"},
	"node":       {"node", "declares_node"},
	"state":      {"state", "has_state"},
	"color":      {"color", "has_color"},
	"glyph":      {"glyph", "has_glyph"},
	"depends on": {"node", "depends_on"},
	"depends_on": {"node", "depends_on"},
	"next":       {"node", "next_binding"},
}

// L1GHT inline markers: "[⍂ entity: X]" → (kind, relation).
var lightMarkers = map[string]struct{ kind, rel string }{
	"entity":     {"entity", "declares_entity"},
	"state":      {"state", "declares_state"},
	"event":      {"event", "declares_event"},
	"depends_on": {"node", "depends_on"},
	"binds_to":   {"binding", "binds_to"},
	"tests":      {"test", "declares_test"},
	"blocker":    {"blocker", "declares_blocker"},
	"warning":    {"warning", "declares_warning"},
	"confidence": {"confidence", "epistemic_confidence"},
	"ambiguity":  {"ambiguity", "epistemic_ambiguity"},
	"evidence":   {"evidence", "evidenced_by"},
}

var (
	lightMarkerRe = regexp.MustCompile(`\[(⍂|⍐|⍌|𝔻|⟁|RED|AMBER)\s+([a-z_ ]+?):\s*([^\]]+)\]`)
	lightFieldRe  = regexp.MustCompile(`^([A-Z][A-Za-z _-]{1,30}):\s*(.*)$`)
)

// ParseLight reads L1GHT Markdown: the Markdown structure, the header
// fields (Protocol, Node, State, Color, Glyph, Depends on, Next — in front
// matter or as leading "Key: value" lines) and the inline semantic
// markers, as typed entities with typed relations. binds_to and evidence
// markers also name code: they become mentions of their section, so the
// binder ties them to the code they point at.
func ParseLight(path string, data []byte) *Canonical {
	// The Markdown structure is read with each marker replaced by its
	// value, so "entity:" or "binds_to" are no prose mentions.
	c := ParseMarkdown(path, []byte(lightMarkerRe.ReplaceAllString(string(data), "$3")))
	c.Format = Light
	lines := splitLines(data)
	lightFields(c, lines)
	hint := 0
	for i, l := range lines {
		if !strings.Contains(l, "[") {
			continue
		}
		for _, m := range lightMarkerRe.FindAllStringSubmatch(l, -1) {
			name := strings.TrimSpace(m[2])
			kr, ok := lightMarkers[strings.ReplaceAll(name, " ", "_")]
			if !ok {
				kr = struct{ kind, rel string }{"metadata", "declares_metadata"}
			}
			sec := sectionAt(c, i+1, &hint)
			val := strings.TrimSpace(m[3])
			c.entity(sec, kr.kind, val, kr.kind+":"+normName(val), kr.rel, i+1)
			if kr.rel == "binds_to" || kr.rel == "evidenced_by" || kr.rel == "depends_on" {
				addMention(&c.Sections[sec], val)
			}
		}
	}
	if n := c.Meta["node"]; n != "" && c.Title == "" {
		c.Title = n
	}
	return c
}

// lightFields reads the header fields from the front matter (already in
// Meta) or from "Key: value" lines before the first section.
func lightFields(c *Canonical, lines []string) {
	if c.Meta["protocol"] == "" {
		key := ""
		for i, l := range lines {
			if i > 40 || len(c.Sections) > 1 && i+1 >= c.Sections[1].Line && c.Sections[1].Line > 2 {
				break
			}
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "- ") && key != "" {
				c.Meta[key] = strings.TrimPrefix(c.Meta[key]+", "+strings.TrimSpace(t[2:]), ", ")
				continue
			}
			if m := lightFieldRe.FindStringSubmatch(t); m != nil {
				key = strings.ToLower(m[1])
				c.Meta[key] = strings.TrimSpace(m[2])
			}
		}
	}
	for k, v := range c.Meta {
		kr, ok := lightHeader[k]
		if !ok {
			continue
		}
		for _, val := range strings.Split(v, ",") {
			if val = strings.TrimSpace(val); val != "" {
				c.entity(0, kr.kind, val, kr.kind+":"+normName(val), kr.rel, 1)
			}
		}
	}
	sortEntities(c.Entities)
}

// sortEntities orders header entities deterministically (Meta is a map).
func sortEntities(es []Entity) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && less(es[j], es[j-1]); j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

func less(a, b Entity) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Relation != b.Relation {
		return a.Relation < b.Relation
	}
	return a.Name < b.Name
}

// sectionAt is the index of the section holding line: the last one
// starting at or before it. Lines are asked in order, so the search
// resumes from *hint.
func sectionAt(c *Canonical, line int, hint *int) int {
	i := *hint
	for i+1 < len(c.Sections) && c.Sections[i+1].Line <= line {
		i++
	}
	*hint = i
	return i
}

// addMention adds a marker value as a mention of the section, the way a
// code span would be read.
func addMention(s *Section, val string) {
	seen := map[Mention]bool{}
	for _, m := range s.Mentions {
		seen[m] = true
	}
	spanMentions(val, func(k MentionKind, t string) {
		m := Mention{Kind: k, Text: t}
		if !seen[m] && len(s.Mentions) < MaxMentions {
			seen[m] = true
			s.Mentions = append(s.Mentions, m)
		}
	})
}
