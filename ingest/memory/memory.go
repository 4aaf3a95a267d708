// Package memory is the "memory" ingest adapter: it turns markdown and text
// notes (.md, .markdown, .txt) into a graph agents can activate alongside
// code.
//
// For each document:
//
//	memory::{ns}::file::{slug}                    the document (File)
//	memory::{ns}::section::{slug}::{heading}-{n}  one per heading (Concept);
//	                                              nested by heading level
//	memory::{ns}::entry::{slug}::{line}::{text}   list items, checkboxes,
//	                                              table rows, short lines (Process)
//	memory::{ns}::reference::{path}               file paths mentioned (Reference)
//
// Edges: document/section contains section; section contains entry
// (contains is bidirectional); entry references a file reference; each entry
// follows the previous entry of its section. Entries are classified by
// content: task (TODO, FIXME, pending, implement, checkboxes), decision
// (decision:, decided:, chose), state (status:, state:, current:), event
// (a YYYY-MM-DD date), otherwise note — as a "memory:{class}" tag.
//
// Canonical sources — daily notes (2026-03-12.md), MEMORY.md, *-active.md,
// *-history.md, briefings, and documents whose front matter says
// "canonical: true" — have provenance.canonical set on all their nodes.
package memory

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/code"
	"github.com/m1nd-go/m1nd/ingest/internal/slug"
	"github.com/m1nd-go/m1nd/ingest/walk"
)

// Adapter is the "memory" adapter.
type Adapter struct{}

// Name implements adapter.Adapter.
func (Adapter) Name() string { return "memory" }

// Domain implements adapter.Adapter.
func (Adapter) Domain() string { return "memory" }

// DefaultNamespace is used when the request names none.
const DefaultNamespace = "memory"

// Accepted reports whether a file name is a memory document.
func Accepted(name string) bool {
	switch walk.Ext(name) {
	case ".md", ".markdown", ".txt":
		return true
	}
	return false
}

// Ingest implements adapter.Adapter.
func (Adapter) Ingest(ctx context.Context, req adapter.Request) (*adapter.Output, error) {
	start := time.Now()
	maxNodes, deadline := req.Budget(start)
	ns := strings.ToLower(strings.TrimSpace(req.Namespace))
	if ns == "" {
		ns = DefaultNamespace
	}
	wr, err := walk.Walk(ctx, req.Root, walk.Options{IncludeDotfiles: req.IncludeDotfiles, DotfilePatterns: req.DotfilePatterns})
	if err != nil {
		return nil, fmt.Errorf("memory adapter: %w", err)
	}
	st := adapter.Stats{Adapter: "memory", Languages: map[string]int{}, FilesIgnored: wr.SkippedIgnored, FilesSkippedLarge: wr.SkippedLarge}
	b := newBuilder(ns)
	var docs []walk.File
	for _, f := range wr.Files {
		if Accepted(f.Rel) {
			docs = append(docs, f)
		}
	}
	st.FilesScanned = len(docs)
	for i, f := range docs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if b.g.NumNodes() >= maxNodes || time.Now().After(deadline) {
			st.Partial = true
			st.BudgetExhausted = "max_nodes"
			if b.g.NumNodes() < maxNodes {
				st.BudgetExhausted = "timeout"
			}
			break
		}
		data, err := walk.ReadFile(f.Abs, 0)
		if err != nil {
			continue
		}
		switch walk.Classify(data) {
		case walk.Binary:
			st.FilesSkippedBinary++
			continue
		case walk.Undecodable:
			st.FilesSkippedEncoding++
			continue
		}
		b.document(f.Rel, data, f.ModTime())
		st.FilesParsed++
		lang := "markdown"
		if walk.Ext(f.Rel) == ".txt" {
			lang = "text"
		}
		st.Languages[lang]++
		req.Report(adapter.Progress{Phase: adapter.PhaseBuild, Done: i + 1, Total: len(docs)})
	}
	b.g.Finalize()
	st.LabelCollisions = b.collisions
	st.NodesCreated = b.g.NumNodes()
	st.EdgesCreated = adapter.CountEdges(b.g)
	st.ReferencesResolved = b.refs
	st.GraphNodes, st.GraphEdges = st.NodesCreated, st.EdgesCreated
	st.ElapsedMs = float64(time.Since(start).Microseconds()) / 1000
	req.Report(adapter.Progress{Phase: adapter.PhaseDone, Done: st.FilesParsed, Total: len(docs)})
	return &adapter.Output{Graph: b.g, Stats: st, Root: adapter.RootInfo{Path: wr.Root}}, nil
}

// Build parses one document into a finalized graph (what Ingest does per
// file; exported for tests and fuzzing).
func Build(rel string, data []byte, ns string, mtime float64) *graph.Graph {
	b := newBuilder(ns)
	b.document(rel, data, mtime)
	b.g.Finalize()
	return b.g
}

// Entry classes.
const (
	ClassTask     = "task"
	ClassDecision = "decision"
	ClassState    = "state"
	ClassEvent    = "event"
	ClassNote     = "note"
)

var (
	headingRe  = regexp.MustCompile(`^(#{1,6})\s+(.+?)\s*#*\s*$`)
	bulletRe   = regexp.MustCompile(`^\s*(?:[-*+]|\d{1,3}[.)])\s+(.+?)\s*$`)
	checkboxRe = regexp.MustCompile(`^\[[ xX]\]\s*`)
	tableSepRe = regexp.MustCompile(`^\s*\|?[\s:-]+\|[\s|:-]*$`)
	dateRe     = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b`)
	// File references: relative paths with a known extension, optionally
	// with directories ("src/auth.py", "./x.ts", "Cargo.toml").
	fileRefRe = regexp.MustCompile(`(?:^|[\s(\[` + "`" + `"'])((?:\.{1,2}/)?[A-Za-z0-9_@.-]+(?:/[A-Za-z0-9_@.-]+)*\.(?:` +
		`py|pyi|rs|go|ts|tsx|js|jsx|mjs|cjs|java|kt|kts|scala|rb|php|c|h|cc|cpp|hpp|cs|swift|m|mm|lua|sh|bash|zsh|sql|` +
		`json|toml|yaml|yml|md|markdown|txt|html|css|scss|vue|svelte|proto|graphql|ex|exs|erl|hs|ml|jl|zig|dart|r|tf|ini|cfg|conf|lock|xml))` +
		`(?::\d+)?(?:$|[\s)\]` + "`" + `"',;:.!?])`)
	dailyRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}\.(md|markdown|txt)$`)
)

// Classify returns the class of an entry's text (the first match in order
// task, decision, state, event, note).
func Classify(text string, checkbox bool) string {
	l := strings.ToLower(text)
	switch {
	case checkbox || containsAny(l, "todo", "fixme", "pending", "implement"):
		return ClassTask
	case containsAny(l, "decision:", "decided:", "chose"):
		return ClassDecision
	case containsAny(l, "status:", "state:", "current:"):
		return ClassState
	case dateRe.MatchString(text):
		return ClassEvent
	}
	return ClassNote
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// DocumentKind is "daily-note", "long-term-memory" or "memory-note".
func DocumentKind(rel string) string {
	base := strings.ToLower(path.Base(rel))
	switch {
	case dailyRe.MatchString(base):
		return "daily-note"
	case base == "memory.md":
		return "long-term-memory"
	}
	return "memory-note"
}

// Canonical reports whether a document is a canonical source by its name.
func Canonical(rel string) bool {
	base := strings.ToLower(path.Base(rel))
	stem := strings.TrimSuffix(base, path.Ext(base))
	return dailyRe.MatchString(base) || base == "memory.md" || strings.HasSuffix(stem, "-active") ||
		strings.HasSuffix(stem, "-history") || strings.Contains(base, "briefing")
}

// Slug lower-cases s and turns every run of other characters into one dash.
func Slug(s string) string { return slug.Make(s, "entry") }

type builder struct {
	ns         string
	g          *graph.Graph
	collisions int
	refs       int
}

func newBuilder(ns string) *builder { return &builder{ns: ns, g: graph.New()} }

// node adds a node. A file reference mentioned again is the same node
// (reuse); any other duplicate ID — two documents whose paths slug alike —
// is a collision and is skipped.
func (b *builder) node(n graph.Node) (graph.NodeID, bool) {
	id, err := b.g.AddNode(n)
	if err != nil {
		if id != graph.NoNode && n.Type == graph.Reference {
			return id, true
		}
		b.collisions++
		return graph.NoNode, false
	}
	return id, true
}

func (b *builder) edge(src, dst graph.NodeID, rel string, w float32) {
	if src == graph.NoNode || dst == graph.NoNode || src == dst {
		return
	}
	cs, dir := code.CausalStrength(rel)
	_ = b.g.AddEdge(graph.Edge{Source: src, Target: dst, Relation: rel, Weight: w, Direction: dir, CausalStrength: cs})
}

// excerpt cuts s to 220 bytes on a rune boundary.
func excerpt(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= 220 {
		return s
	}
	cut := 220
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

type section struct {
	id    graph.NodeID
	level int
	last  graph.NodeID // previous entry, for follows
}

// document adds one document's nodes and edges.
func (b *builder) document(rel string, data []byte, mtime float64) {
	text := string(data)
	fileSlug := Slug(rel)
	canonical := Canonical(rel) || frontMatterCanonical(text)
	nsTag := "namespace:" + b.ns
	prov := func(line int) graph.Provenance {
		return graph.Provenance{SourcePath: rel, LineStart: uint32(line), LineEnd: uint32(line), Namespace: b.ns, Canonical: canonical}
	}
	docProv := prov(0)
	docProv.Excerpt = path.Base(rel)
	doc, ok := b.node(graph.Node{
		ExternalID: "memory::" + b.ns + "::file::" + fileSlug, Label: path.Base(rel), Type: graph.File,
		Tags:         []string{"memory", nsTag, "kind:" + DocumentKind(rel)},
		LastModified: mtime, ChangeFrequency: 0.6, Provenance: docProv,
	})
	if !ok {
		return
	}
	stack := []section{{id: doc, level: 0, last: graph.NoNode}}
	counts := map[string]int{}
	inCode := false
	lines := strings.Split(text, "\n")
	start := 0
	if fmEnd := frontMatterEnd(lines); fmEnd > 0 {
		start = fmEnd
	}
	for i := start; i < len(lines); i++ {
		lineNo := i + 1
		t := strings.TrimSpace(strings.TrimSuffix(lines[i], "\r"))
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inCode = !inCode
			continue
		}
		if inCode || t == "" || t == "---" || t == "***" {
			continue
		}
		if m := headingRe.FindStringSubmatch(t); m != nil {
			level := len(m[1])
			heading := m[2]
			hs := Slug(heading)
			counts[hs]++
			p := prov(lineNo)
			p.Excerpt = excerpt(heading)
			id, ok := b.node(graph.Node{
				ExternalID: fmt.Sprintf("memory::%s::section::%s::%s-%d", b.ns, fileSlug, hs, counts[hs]),
				Label:      heading, Type: graph.Concept,
				Tags:         []string{"memory", "memory:section", nsTag},
				LastModified: mtime, ChangeFrequency: 0.45, Provenance: p,
			})
			if !ok {
				continue
			}
			for len(stack) > 1 && stack[len(stack)-1].level >= level {
				stack = stack[:len(stack)-1]
			}
			b.edge(stack[len(stack)-1].id, id, "contains", 1)
			stack = append(stack, section{id: id, level: level, last: graph.NoNode})
			continue
		}
		if tableSepRe.MatchString(t) {
			continue
		}
		entry, checkbox := "", false
		switch {
		case bulletRe.MatchString(t):
			entry = bulletRe.FindStringSubmatch(t)[1]
			if loc := checkboxRe.FindStringIndex(entry); loc != nil {
				checkbox = true
				entry = entry[loc[1]:]
			}
		case strings.Count(t, "|") >= 2:
			var cells []string
			for _, c := range strings.Split(t, "|") {
				if c = strings.TrimSpace(c); c != "" {
					cells = append(cells, c)
				}
			}
			entry = strings.Join(cells, " | ")
		case len(t) >= 8 && len(t) <= 240:
			entry = t
		}
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		class := Classify(entry, checkbox)
		p := prov(lineNo)
		p.Excerpt = excerpt(entry)
		label := entry
		if len(label) > 200 {
			label = excerpt(label)
		}
		id, ok := b.node(graph.Node{
			ExternalID: fmt.Sprintf("memory::%s::entry::%s::%d::%s", b.ns, fileSlug, lineNo, Slug(entry)),
			Label:      label, Type: graph.Process,
			Tags:         []string{"memory", "memory:entry", "memory:" + class, nsTag},
			LastModified: mtime, ChangeFrequency: 0.5, Provenance: p,
		})
		if !ok {
			continue
		}
		top := &stack[len(stack)-1]
		b.edge(top.id, id, "contains", 1)
		if top.last != graph.NoNode {
			b.edge(id, top.last, "follows", 0.8)
		}
		top.last = id
		for _, m := range fileRefRe.FindAllStringSubmatch(entry, -1) {
			refPath := strings.TrimPrefix(m[1], "./")
			rp := prov(lineNo)
			rp.Excerpt = refPath
			rid, ok := b.node(graph.Node{
				ExternalID: "memory::" + b.ns + "::reference::" + Slug(refPath),
				Label:      refPath, Type: graph.Reference,
				Tags:         []string{"memory", "memory:reference", nsTag},
				LastModified: mtime, ChangeFrequency: 0.35, Provenance: rp,
			})
			if ok {
				b.edge(id, rid, "references", 0.7)
				b.refs++
			}
		}
	}
}

// frontMatterEnd returns the index of the first line after a leading
// "---" ... "---" block, or 0.
func frontMatterEnd(lines []string) int {
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "---" {
		return 0
	}
	for i := 1; i < len(lines) && i < 200; i++ {
		if strings.TrimSpace(lines[i]) == "---" {
			return i + 1
		}
	}
	return 0
}

func frontMatterCanonical(text string) bool {
	lines := strings.SplitN(text, "\n", 202)
	end := frontMatterEnd(lines)
	for _, l := range lines[:end] {
		k, v, ok := strings.Cut(l, ":")
		if ok && strings.EqualFold(strings.TrimSpace(k), "canonical") && strings.EqualFold(strings.TrimSpace(v), "true") {
			return true
		}
	}
	return false
}
