package documents

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/mcpserver/pathguard"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// documentRefParams names one document (or, for document_bindings, a
// code node). document_bindings and document_drift take the same two
// and spell them out rather than embed this struct: toolset's
// TestBindAgreesWithAccessors looks a parameter up among a struct's own
// fields.
type documentRefParams struct {
	Path   string `json:"path" help:"The document's path: as ingested (\"docs/guide.md\"), relative to an ingest root, or absolute inside one."`
	NodeID string `json:"node_id" jsonschema:"A doc:: node; bindings also take a code node." help:"A document-lane node (\"doc::docs/guide.md\", a section \"doc::docs/guide.md#install\"); document_bindings also takes a code node."`
}

type documentBindingsParams struct {
	Path   string `json:"path" help:"The document's path: as ingested (\"docs/guide.md\"), relative to an ingest root, or absolute inside one."`
	NodeID string `json:"node_id" jsonschema:"A doc:: node; bindings also take a code node." help:"A document-lane node (\"doc::docs/guide.md\", a section \"doc::docs/guide.md#install\"); document_bindings also takes a code node."`
	TopK   int    `json:"top_k" help:"Maximum bindings returned." tool:"default=50,min=1,max=1000"`
}

type documentDriftParams struct {
	Path   string `json:"path" help:"The document's path: as ingested (\"docs/guide.md\"), relative to an ingest root, or absolute inside one."`
	NodeID string `json:"node_id" jsonschema:"A doc:: node; bindings also take a code node." help:"A document-lane node (\"doc::docs/guide.md\", a section \"doc::docs/guide.md#install\"); document_bindings also takes a code node."`
	TopK   int    `json:"top_k" jsonschema:"Documents listed, most findings first." help:"Maximum documents listed (most findings first)." tool:"default=20,min=1,max=1000"`
	// Unchecked lists every date-only change as a finding: the dating is
	// still worth reading in full when an agent asks for leads.
	Unchecked bool `json:"unchecked" help:"Also list as code_change_unreflected findings the bound code that changed after the document with nothing on the page shown to disagree (low confidence; by default counted, the first 3 per document listed under unchecked)." tool:"default=false"`
	// LowerConfidence lists the findings set apart for weak evidence
	// among the findings.
	LowerConfidence bool `json:"lower_confidence" help:"Also list as findings those whose evidence was mostly wrong when judged (a name no commit defined or defined elsewhere, a Python version or keyword read from prose; by default counted, the first 3 per document listed under lower_confidence)." tool:"default=false"`
}

func registerDocuments(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "document_resolve",
		Title:       "Resolve a document",
		Description: "An ingested document's sections, node ids, links and artifacts, by path or node.",
		Details: "Resolve an ingested document (by path or node) to its canonical form: format, title, sections with their lines and nesting, links in and out, " +
			"binding and claim counts, and canonical artifacts (canonical.md, canonical.json, claims.json) written to the runtime directory.",
		Class:     tools.Read,
		WhenToUse: "A document was ingested (adapter universal/auto/light/…) and you need its structure, its section node ids, or the canonical artifact paths.",
		AvoidWhen: "The document is not ingested yet (ingest it with adapter \"universal\", mode \"merge\"); raw text only (view).",
		Next:      []string{"document_bindings", "document_drift", "view"},
		Example:   map[string]any{"agent_id": "claude", "path": "README.md"},
	}, runDocumentResolve)
	tools.Add(r, tools.Tool{
		Name:        "document_bindings",
		Title:       "Document ↔ code bindings",
		Description: "Which code a document describes, or which documents describe a code node.",
		Details: "Which code a document describes, or which documents describe a code node: the deterministic bindings of document sections to the code they name " +
			"(exact path 1.0 > path suffix 0.9 > qualified name 0.85 > configuration key 0.75 > call in a code block 0.7 > unique label 0.6; ambiguous names split over ≤3 candidates or dropped), with the mention and the reason.",
		Class:     tools.Read,
		WhenToUse: "\"Which code implements this doc?\" before changing code to match a spec, or \"which docs describe this file?\" before changing the file.",
		AvoidWhen: "You need the document's structure (document_resolve) or staleness (document_drift).",
		Next:      []string{"document_drift", "impact", "view"},
		Example:   map[string]any{"agent_id": "claude", "node_id": "file::backend/session.py", "top_k": 20},
	}, runDocumentBindings)
	tools.Add(r, tools.Tool{
		Name:        "document_drift",
		Title:       "Stale documents",
		Description: "Documents whose examples or bound code no longer match the code, or whose named code is gone.",
		Details: "Stale documentation: Python examples (fenced python/pycon blocks, reST code-block/doctest, >>> lines) calling the project's function or class, or a method of what an annotated function returns — resolved through the page's imports and the package's re-exports — with a keyword or more positional arguments than its current signature takes, with the doc line and the commit that made the call fail; hand-written signatures (\"Signature: `Name(a, b=None)`\", reST function/class/decorator directives) that name a parameter the def does not take, leave out one it takes or give another default; " +
			"paths, members and module-qualified names (pkg.mod.Name, in prose or an example) a document names that are gone although their directory, owner or module is there, or that the module keeps only as a renamed function's alias, and names too ambiguous to bind (listed last, not counted as findings); prose naming a Python below the project's requires-python, or a name no code defines that its changelog says was removed or renamed, or that git shows the project removed. " +
			"Bound code that changed after the document with nothing on the page shown to disagree (git-dated; a Python def or class only when its surface differs from the document's date, saying what changed) is no finding: counted, the first 3 per document listed under unchecked (all as findings with unchecked=true). One document (path/node_id) or all.",
		Class:     tools.Read,
		WhenToUse: "After refactors or moves, before trusting a spec or README, to find the docs to update.",
		AvoidWhen: "No document is ingested yet, or no code is in the graph to compare with.",
		Next:      []string{"document_bindings", "timeline", "view"},
		Example:   map[string]any{"agent_id": "claude", "top_k": 10},
	}, runDocumentDrift)
	tools.Add(r, tools.Tool{
		Name:        "document_provider_health",
		Title:       "Document providers",
		Description: "Optional document converters (pdftotext, pandoc, …) present, with install hints.",
		Details:     "Which optional document providers this machine has (pdftotext for PDF, pandoc for DOCX; docling, trafilatura, markitdown, GROBID reported), with install hints. Never fails: an absent provider is reported, and its formats are skipped (and counted) at ingest.",
		Class:       tools.Read,
		WhenToUse:   "Before ingesting PDF or office documents, or when an ingest reports skipped files.",
		Next:        []string{"ingest", "document_resolve"},
		Example:     map[string]any{"agent_id": "claude"},
	}, runProviderHealth)
}

type docSectionJSON struct {
	NodeID       string `json:"node_id"`
	Heading      string `json:"heading"`
	ParentID     string `json:"parent_id"`
	LineStart    uint32 `json:"line_start"`
	LineEnd      uint32 `json:"line_end"`
	CodeBlocks   int    `json:"code_blocks"`
	Tables       int    `json:"tables"`
	BindingCount int    `json:"binding_count"`
}

type documentResolveOutput struct {
	SourcePath   string           `json:"source_path"`
	AbsolutePath string           `json:"absolute_path,omitempty"`
	NodeID       string           `json:"node_id"`
	Format       string           `json:"format"`
	Title        string           `json:"title"`
	Namespace    string           `json:"namespace"`
	Producer     string           `json:"producer" jsonschema:"Which lane produced the document (universal:internal, light:internal, universal:pdftotext, …)."`
	LastModified string           `json:"last_modified,omitempty" jsonschema:"The document's last change (git last commit, else file time), RFC 3339."`
	SectionCount int              `json:"section_count"`
	Sections     []docSectionJSON `json:"sections"`
	LinksTo      []string         `json:"links_to" jsonschema:"Documents this one links to."`
	LinkedFrom   []string         `json:"linked_from" jsonschema:"Documents linking to this one."`
	BindingCount int              `json:"binding_count"`
	ClaimCount   int              `json:"claim_count" jsonschema:"Normative statements (MUST, SHALL, SHOULD, must, never) in the document."`
	document.Artifacts
	ArtifactsNote string  `json:"artifacts_note,omitempty" jsonschema:"Why canonical artifacts were not written."`
	ElapsedMs     float64 `json:"elapsed_ms"`
	tools.Guidance
}

type bindingJSON struct {
	SectionID      string  `json:"section_id"`
	SectionHeading string  `json:"section_heading"`
	SourcePath     string  `json:"source_path"`
	LineStart      uint32  `json:"line_start"`
	TargetNodeID   string  `json:"target_node_id"`
	TargetLabel    string  `json:"target_label"`
	TargetType     string  `json:"target_type"`
	Relation       string  `json:"relation"`
	Score          float64 `json:"score"`
	Confidence     string  `json:"confidence" jsonschema:"exact (≥0.9), parsed (≥0.6), heuristic, or ambiguous (split among candidates)."`
	Reason         string  `json:"reason"`
	Mention        string  `json:"mention"`
	MentionKind    string  `json:"mention_kind" jsonschema:"path, qual, config, code (a call in a code block) or ident."`
}

type documentBindingsOutput struct {
	Mode       string        `json:"mode" jsonschema:"document: the code a document names; code: the documents naming a code node."`
	NodeID     string        `json:"node_id"`
	SourcePath string        `json:"source_path,omitempty"`
	Bindings   []bindingJSON `json:"bindings"`
	Total      int           `json:"total"`
	Truncated  bool          `json:"truncated"`
	ElapsedMs  float64       `json:"elapsed_ms"`
	tools.Guidance
}

type providerHealthOutput struct {
	Python         string                    `json:"python" jsonschema:"The python3 found on PATH (\"\" when none)."`
	Providers      []document.ProviderStatus `json:"providers"`
	NativeFormats  []string                  `json:"native_formats" jsonschema:"Formats read without any provider."`
	ProviderFormat map[string]string         `json:"provider_formats" jsonschema:"Format → the provider it needs."`
	tools.Guidance
}

// docIndex is the binding index of a bundle's graph, built once.
var docIndexKey = session.NewKey[*document.Index]("document.index")

func docIndex(b *session.Bundle) *document.Index {
	v, _ := session.Derive(b, docIndexKey, func(g *graph.Graph) (*document.Index, error) {
		x := document.NewIndex(g)
		bundleSources(b).attach(x)
		return x, nil
	})
	return v
}

// noDocumentsErr teaches how documents enter the graph.
func noDocumentsErr(b *session.Bundle) *tools.Error {
	path := "/path/to/docs"
	for _, r := range b.Roots {
		path = r.Path
		break
	}
	return tools.Errorf("Documents enter the graph through ingest with a document adapter: adapter \"universal\" (Markdown, reStructuredText, AsciiDoc, text, HTML), \"auto\" (detects every family), \"light\", \"bibtex\", …; mode \"merge\" keeps the code.",
		"no document has been ingested").
		WithNext("Call ingest with adapter \"universal\" and mode \"merge\" on the docs directory, then retry.").
		WithCall("ingest", map[string]any{"agent_id": "claude", "path": path, "adapter": "universal", "mode": "merge"})
}

// resolveDocument finds the document node a path or node reference
// names; a section reference returns the section as well.
func resolveDocument(b *session.Bundle, p, nodeID string) (doc, node graph.NodeID, err error) {
	g := b.Graph
	if g.NumNodes() == 0 {
		return 0, 0, tools.EmptyGraphErr()
	}
	cat := document.Catalog(g)
	if len(cat) == 0 {
		return 0, 0, noDocumentsErr(b)
	}
	switch {
	case strings.TrimSpace(nodeID) != "":
		id, err := resolveDocNode(b, nodeID)
		if err != nil {
			return 0, 0, err
		}
		d, ok := document.DocumentOf(g, id)
		if !ok {
			return 0, 0, tools.Errorf("node_id must be a document-lane node: \"doc::docs/guide.md\" or one of its sections; document_bindings also takes code nodes.",
				"node_id %q (%s) is not part of an ingested document", nodeID, g.ExternalID(id))
		}
		return d, id, nil
	case strings.TrimSpace(p) != "":
		d, err := docByPath(b, cat, p)
		return d, d, err
	}
	return 0, 0, tools.Errorf("Pass path (the document's path, e.g. \"docs/guide.md\") or node_id (\"doc::docs/guide.md\").", "path or node_id is required").
		WithExample(map[string]any{"agent_id": "claude", "path": cat[0].Path})
}

// resolveDocNode resolves a node reference, preferring the document lane:
// "docs/guide.md" is the document before it is the code adapter's file
// node of the same path.
func resolveDocNode(b *session.Bundle, ref string) (graph.NodeID, error) {
	g := b.Graph
	ref = strings.TrimSpace(ref)
	if id, ok := g.Lookup(ref); ok {
		return asDocument(b, id), nil
	}
	if id, ok := g.Lookup(document.DocumentID(document.DefaultNamespace, strings.TrimPrefix(ref, "./"))); ok {
		return id, nil
	}
	id, err := tools.ResolveNode(b, ref, "node_id")
	if err != nil {
		return 0, err
	}
	return asDocument(b, id), nil
}

// asDocument maps the code adapter's node of a document file (the
// generic "file::README.md") to the document node of that file.
func asDocument(b *session.Bundle, id graph.NodeID) graph.NodeID {
	g := b.Graph
	if g.Type(id) == graph.File && !document.IsDocID(g.ExternalID(id)) {
		if d, ok := docIndex(b).Document(g.SourcePath(id)); ok {
			return d
		}
	}
	return id
}

// docByPath matches a path against the catalog: absolute, as ingested,
// relative to a root, or a unique suffix.
func docByPath(b *session.Bundle, cat []document.DocInfo, p string) (graph.NodeID, error) {
	raw := p
	p = strings.TrimPrefix(filepath.ToSlash(strings.TrimSpace(p)), "./")
	var hits []document.DocInfo
	match := func(ok func(d document.DocInfo) bool) {
		if len(hits) > 0 {
			return
		}
		for _, d := range cat {
			if ok(d) {
				hits = append(hits, d)
			}
		}
	}
	if filepath.IsAbs(raw) {
		abs := filepath.Clean(raw)
		match(func(d document.DocInfo) bool { return d.Abs == abs })
	}
	match(func(d document.DocInfo) bool { return d.Path == p })
	match(func(d document.DocInfo) bool {
		return d.Abs != "" && slices.ContainsFunc(b.Roots, func(r session.Root) bool { return filepath.Join(r.Path, filepath.FromSlash(p)) == d.Abs })
	})
	match(func(d document.DocInfo) bool { return strings.HasSuffix(d.Path, "/"+p) })
	switch {
	case len(hits) == 1:
		return hits[0].Node, nil
	case len(hits) > 1:
		for _, h := range hits {
			if h.Namespace == document.DefaultNamespace && h.Path == hits[0].Path {
				return h.Node, nil
			}
		}
		var names []string
		for _, h := range hits[:min(8, len(hits))] {
			names = append(names, h.Path)
		}
		e := tools.Errorf("Pass the document's full path (one of details.candidates) or its node_id.", "path %q matches %d documents", raw, len(hits))
		e.Extra = map[string]any{"candidates": names}
		return 0, e
	}
	near := closestDocs(cat, p, 5)
	e := tools.Errorf("Paths are as ingested (\"docs/guide.md\"), relative to an ingest root, or absolute; document_drift without arguments lists every document.", "no ingested document at %q", raw)
	if len(near) > 0 {
		e.Extra = map[string]any{"did_you_mean": near}
		e.Hint = fmt.Sprintf("Closest documents: %s.", strings.Join(near, ", "))
	}
	return 0, e.WithNext("Ingest the file (ingest with adapter \"universal\", mode \"merge\") or call document_drift to list the documents.")
}

// closestDocs ranks document paths by how close their base name is to
// p's (edit distance, containment), closest first.
func closestDocs(cat []document.DocInfo, p string, n int) []string {
	base := strings.ToLower(filepath.Base(p))
	type cand struct {
		p string
		d int
	}
	var cs []cand
	for _, d := range cat {
		b := strings.ToLower(filepath.Base(d.Path))
		dist := tools.EditDistance(b, base)
		if strings.Contains(b, base) || strings.Contains(base, strings.TrimSuffix(b, filepath.Ext(b))) {
			dist = min(dist, 1)
		}
		if dist <= max(2, len(base)/3) {
			cs = append(cs, cand{d.Path, dist})
		}
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if a.d != b.d {
			return a.d - b.d
		}
		return strings.Compare(a.p, b.p)
	})
	var out []string
	for _, c := range cs[:min(n, len(cs))] {
		out = append(out, c.p)
	}
	return out
}

// unixTime renders a Unix time (seconds) as RFC 3339, "" for none.
func unixTime(t float64) string {
	if t <= 0 || !graph.IsFinite(float32(t)) {
		return ""
	}
	sec := int64(t)
	return time.Unix(sec, int64((t-float64(sec))*1e9)).UTC().Format(time.RFC3339)
}

func runDocumentResolve(c *tools.Call, in documentRefParams) (documentResolveOutput, error) {
	start := time.Now()
	var out documentResolveOutput
	err := c.Session.Read(c.Ctx, func(b *session.Bundle) error {
		doc, _, err := resolveDocument(b, in.Path, in.NodeID)
		if err != nil {
			return err
		}
		out = resolveAnswer(c, b, doc)
		return nil
	})
	if err != nil {
		return documentResolveOutput{}, err
	}
	out.ElapsedMs = tools.Ms(time.Since(start))
	return out, nil
}

// resolveAnswer describes one document.
func resolveAnswer(c *tools.Call, b *session.Bundle, doc graph.NodeID) documentResolveOutput {
	g, x := b.Graph, docIndex(b)
	info := document.Info(g, doc)
	out := documentResolveOutput{SourcePath: info.Path, AbsolutePath: info.Abs, NodeID: g.ExternalID(doc), Format: string(info.Format), Title: info.Title,
		Namespace: info.Namespace, Producer: producerOf(info.Format), LastModified: unixTime(g.LastModified(doc)), Sections: []docSectionJSON{}}
	out.BindingCount = len(x.SectionBindings(doc))
	for _, s := range document.Sections(g, doc) {
		p := g.Provenance(s)
		sec := docSectionJSON{NodeID: g.ExternalID(s), Heading: g.Label(s), LineStart: p.LineStart, LineEnd: p.LineEnd, BindingCount: len(x.SectionBindings(s))}
		lo, hi := g.InRange(s)
		for i := lo; i < hi; i++ {
			if e := g.InEdge(i); g.RelationName(e) == document.RelContains && !g.IsMirror(e) {
				sec.ParentID = g.ExternalID(g.InSource(i))
			}
		}
		elo, ehi := g.OutRange(s)
		for e := elo; e < ehi; e++ {
			if g.RelationName(e) == document.RelContains && !g.IsMirror(e) {
				switch t := g.Target(e); {
				case g.HasTag(t, document.TagBlock):
					sec.CodeBlocks++
				case g.HasTag(t, document.TagTable):
					sec.Tables++
				}
			}
		}
		out.BindingCount += sec.BindingCount
		out.Sections = append(out.Sections, sec)
	}
	out.SectionCount = len(out.Sections)
	out.LinksTo, out.LinkedFrom = docLinks(g, doc)
	out.Artifacts, out.ClaimCount, out.ArtifactsNote = artifactsFor(c, b, info)
	gd := tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "document_bindings"), NextSuggestedTarget: out.NodeID,
		NextStepHint: "See which code this document names with document_bindings, or whether that code moved on with document_drift."}
	if out.BindingCount == 0 {
		gd.NextStepHint = "No section names code in the graph: ingest the code it describes (or merge this document into the code graph), then call document_bindings."
		gd.NextSuggestedTool = tools.FirstTool(c.Registry, "ingest")
	}
	out.Guidance = gd
	return out
}

// docLinks lists the documents doc links to and those linking to it.
func docLinks(g *graph.Graph, doc graph.NodeID) (to, from []string) {
	nodes := append([]graph.NodeID{doc}, document.Sections(g, doc)...)
	seenTo, seenFrom := map[string]bool{}, map[string]bool{}
	for _, n := range nodes {
		lo, hi := g.OutRange(n)
		for e := lo; e < hi; e++ {
			if g.RelationName(e) == document.RelLinksTo {
				seenTo[g.SourcePath(g.Target(e))] = true
			}
		}
	}
	lo, hi := g.InRange(doc)
	for i := lo; i < hi; i++ {
		if e := g.InEdge(i); g.RelationName(e) == document.RelLinksTo {
			if d, ok := document.DocumentOf(g, g.InSource(i)); ok && d != doc {
				seenFrom[g.SourcePath(d)] = true
			}
		}
	}
	return docKeys(seenTo), docKeys(seenFrom)
}

func producerOf(f document.Format) string {
	switch f {
	case document.PDF:
		return "universal:pdftotext"
	case document.DOCX:
		return "universal:pandoc"
	case document.Light, document.BibTeX, document.JATS, document.Patent, document.RFC, document.CrossRef:
		return string(f) + ":internal"
	}
	return "universal:internal"
}

// artifactsFor writes the canonical artifacts of a document (re-read
// through the path guard) into the runtime directory.
func artifactsFor(c *tools.Call, b *session.Bundle, info document.DocInfo) (document.Artifacts, int, string) {
	cache := c.Session.RuntimePath("l1ght-cache")
	if cache == "" {
		return document.Artifacts{}, 0, "memory-only session (no --runtime-dir): canonical artifacts are not written"
	}
	if info.Format == document.PDF || info.Format == document.DOCX {
		return document.Artifacts{}, 0, "canonical artifacts of provider-converted documents are not written"
	}
	data, err := readDocSource(b, info.Abs)
	if err != nil {
		return document.Artifacts{}, 0, err.Error()
	}
	cn, err := document.Parse(info.Format, info.Path, data)
	if err != nil {
		return document.Artifacts{}, 0, "the document no longer parses: " + err.Error()
	}
	a, err := document.WriteArtifacts(cache, cn, data)
	if err != nil {
		return document.Artifacts{}, a.Claims, "canonical artifacts not written: " + err.Error()
	}
	return a, a.Claims, ""
}

// maxDocSource bounds a document re-read for its artifacts.
const maxDocSource = 8 << 20

// readDocSource reads a document's file through the path guard of the
// bundle's roots (a root that is the file itself admits that one file).
func readDocSource(b *session.Bundle, abs string) ([]byte, error) {
	if abs == "" {
		return nil, errors.New("the document carries no location on disk")
	}
	var f *os.File
	if slices.ContainsFunc(b.Roots, func(r session.Root) bool { return r.Path == abs }) {
		st, err := os.Lstat(abs)
		if err != nil || !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s is no longer a regular file", abs)
		}
		if f, err = os.Open(abs); err != nil {
			return nil, err
		}
	} else {
		res, err := tools.BundleGuard(b).Resolve(abs)
		if err != nil {
			var pe *pathguard.Error
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("not read: %s", pe.Msg)
			}
			return nil, err
		}
		if f, err = pathguard.Open(res); err != nil {
			return nil, fmt.Errorf("not read: %v", err)
		}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxDocSource+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxDocSource {
		return nil, fmt.Errorf("%s is over %d bytes", abs, maxDocSource)
	}
	return data, nil
}

func runProviderHealth(c *tools.Call, _ struct{}) (providerHealthOutput, error) {
	py, ps := document.ProviderHealth(c.Ctx)
	out := providerHealthOutput{Python: py, Providers: ps,
		NativeFormats:  []string{"markdown", "rst", "asciidoc", "text", "html", "light", "bibtex", "jats", "patent", "rfc", "crossref"},
		ProviderFormat: map[string]string{"pdf": "pdftotext", "docx": "pandoc"}}
	missing := []string{}
	for _, p := range ps {
		if p.Used && !p.Available {
			missing = append(missing, p.Name)
		}
	}
	out.Guidance = tools.Guidance{ProofState: "triaging", NextSuggestedTool: tools.FirstTool(c.Registry, "ingest"),
		NextStepHint: "Every native format is read without providers; ingest with adapter \"auto\" to detect them."}
	if len(missing) > 0 {
		out.NextStepHint = fmt.Sprintf("Missing: %s — those formats are skipped (and counted) at ingest; the install_hint says how to add them.", strings.Join(missing, ", "))
	}
	return out, nil
}

// docKeys returns a set's keys in order.
func docKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
