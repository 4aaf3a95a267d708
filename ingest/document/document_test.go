package document

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/adapter"
)

// parsed reads a universal fixture as the lane would.
func parsed(t *testing.T, rel string) *Canonical {
	t.Helper()
	return parseTestdata(t, "universal", rel)
}

// parseTestdata reads testdata/dir/rel as the lane would.
func parseTestdata(t *testing.T, dir, rel string) *Canonical {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	f := DetectFile(rel, data)
	c, err := Parse(f, rel, data)
	if err != nil {
		t.Fatalf("%s (%s): %v", rel, f, err)
	}
	return c
}

// boundToCode ingests root through the adapter a, merges it into
// codeGraph and binds the documents to the code.
func boundToCode(t *testing.T, a Adapter, root string) *graph.Graph {
	t.Helper()
	out, err := a.Ingest(context.Background(), adapter.Request{Root: root, NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	g := codeGraph(t)
	if err := g.Merge(out.Graph); err != nil {
		t.Fatal(err)
	}
	Bind(g)
	g.Finalize()
	return g
}

func headings(c *Canonical) []string {
	var out []string
	for _, s := range c.Sections[1:] {
		out = append(out, strings.Repeat("#", s.Level)+" "+s.Heading)
	}
	return out
}

func mentionTexts(s *Section) []string {
	var out []string
	for _, m := range s.Mentions {
		out = append(out, string(m.Kind)+":"+m.Text)
	}
	return out
}

func TestParseUniversalFormats(t *testing.T) {
	tests := []struct {
		file     string
		format   Format
		title    string
		headings []string
		// section index → mentions expected among its mentions
		mentions map[int][]string
		links    map[int][]string // resolved links
		blocks   map[int]int
		tables   map[int]int
	}{
		{
			file: "docs/guide.md", format: Markdown, title: "Backend guide",
			headings: []string{"# Backend guide", "## Authentication", "### Errors", "## Setext heading"},
			mentions: map[int][]string{
				1: {"path:backend", "path:backend/app.py"},
				2: {"qual:AuthService.login", "ident:hash_password", "word:SessionStore", "config:SESSION_TTL", "path:backend/config.py", "code:crypto.hash_password"},
				4: {"ident:charge", "ident:refund", "ident:require_session"},
			},
			links:  map[int][]string{1: {"docs/sessions.rst", "manual.adoc"}},
			blocks: map[int]int{2: 1}, tables: map[int]int{2: 1},
		},
		{
			file: "docs/sessions.rst", format: RST, title: "Sessions",
			headings: []string{"# Sessions", "## Creating", "### Lookup"},
			mentions: map[int][]string{
				1: {"qual:backend.config.SESSION_TTL", "ident:SessionStore", "qual:SessionStore.lookup"},
				2: {"qual:SessionStore.create", "code:store.create"},
				3: {"ident:lookup"},
			},
			links:  map[int][]string{2: {"docs/guide.md", "docs/guide.rst"}},
			blocks: map[int]int{2: 2}, tables: map[int]int{2: 1},
		},
		{
			file: "manual.adoc", format: AsciiDoc, title: "Operator manual",
			headings: []string{"# Login", "## Payments"},
			mentions: map[int][]string{0: {"path:backend/middleware.py"}, 1: {"qual:AuthService.login"}},
			links:    map[int][]string{1: {"docs/guide.md"}},
			blocks:   map[int]int{1: 1}, tables: map[int]int{2: 1},
		},
		{
			file: "notes.txt", format: Text, title: "Release notes",
			headings: []string{"# Release notes", "## Known issues"},
			mentions: map[int][]string{1: {"path:backend/crypto.py", "word:hash_password"}, 2: {"qual:SessionStore.lookup"}},
		},
		{
			file: "page.html", format: HTML, title: "API reference",
			headings: []string{"# API reference", "## Middleware"},
			mentions: map[int][]string{1: {"qual:backend.payments.charge", "path:backend/payments.py"}, 2: {"ident:require_session", "path:backend/middleware.py"}},
			links:    map[int][]string{1: {"backend/payments.py", "docs/guide.md"}},
			blocks:   map[int]int{2: 1}, tables: map[int]int{2: 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			c := parsed(t, tc.file)
			if c.Format != tc.format || c.Title != tc.title {
				t.Errorf("format %s title %q, want %s %q", c.Format, c.Title, tc.format, tc.title)
			}
			if diff := cmp.Diff(tc.headings, headings(c)); diff != "" {
				t.Errorf("headings (-want +got):\n%s", diff)
			}
			for i, want := range tc.mentions {
				got := mentionTexts(&c.Sections[i])
				for _, w := range want {
					if !slices.Contains(got, w) {
						t.Errorf("section %d mentions %v, missing %s", i, got, w)
					}
				}
			}
			for i, want := range tc.links {
				var got []string
				for _, l := range c.Sections[i].Links {
					if l.Resolved != "" {
						got = append(got, l.Resolved)
					}
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("section %d links (-want +got):\n%s", i, diff)
				}
			}
			for i, n := range tc.blocks {
				if got := len(c.Sections[i].Blocks); got != n {
					t.Errorf("section %d has %d code blocks, want %d", i, got, n)
				}
			}
			for i, n := range tc.tables {
				if got := len(c.Sections[i].Tables); got != n {
					t.Errorf("section %d has %d tables, want %d", i, got, n)
				}
			}
			for i, s := range c.Sections {
				if s.EndLine < s.Line {
					t.Errorf("section %d ends (%d) before it starts (%d)", i, s.EndLine, s.Line)
				}
			}
		})
	}
}

func TestMentionsRefuseNoise(t *testing.T) {
	s := &Section{}
	s.AddProse("See e.g. the docs at www.example.com, i.e. version 1.2.3 and Node.js; a, an, x.y.")
	s.Spans = []string{"x", "id", "{\"a\": 1}"}
	if got := extractMentions(s); len(got) != 0 {
		t.Errorf("noise gave mentions %v", got)
	}
}

// A span's text is blanked in the prose only where it stands whole: the
// span "Hit" left "textual.command.Discovery" of the reference
// "textual.command.DiscoveryHit" (textual's command_palette.md).
func TestMentionsKeepNamesAroundASpan(t *testing.T) {
	s := &Section{}
	s.AddProse("yields DiscoveryHit textual.command.DiscoveryHit (instead of Hit textual.command.Hit)")
	s.Spans = []string{"DiscoveryHit", "Hit"}
	var quals []string
	for _, m := range extractMentions(s) {
		if m.Kind == MentionQualified {
			quals = append(quals, m.Text)
		}
	}
	want := []string{"textual.command.DiscoveryHit", "textual.command.Hit"}
	if !slices.Equal(quals, want) {
		t.Errorf("qualified mentions %v, want %v", quals, want)
	}
}

func TestDetectFile(t *testing.T) {
	tests := []struct {
		name string
		head string
		want Format
	}{
		{"refs.bib", "", BibTeX},
		{"spec.md", "---\nProtocol: L1GHT/1.0\nNode: X\n---\n", Light},
		{"readme.md", "# Title\n", Markdown},
		{"guide.rst", "", RST},
		{"manual.adoc", "", AsciiDoc},
		{"notes.txt", "", Text},
		{"page.html", "", HTML},
		{"paper.pdf", "", PDF},
		{"memo.docx", "", DOCX},
		{"rfc9999.xml", `<?xml version="1.0"?><!DOCTYPE rfc SYSTEM "rfc2629.dtd"><rfc version="3">`, RFC},
		{"article.nxml", `<?xml version="1.0"?><!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96)"><article><front>`, JATS},
		{"grant.xml", `<?xml version="1.0"?><us-patent-grant lang="EN">`, Patent},
		{"pom.xml", `<?xml version="1.0"?><project>`, Code},
		{"work.json", `{"DOI": "10.1/x", "publisher": "P", "type": "journal-article"}`, CrossRef},
		{"package.json", `{"name": "x"}`, Code},
		{"main.go", "package main", Code},
	}
	for _, tc := range tests {
		if got := DetectFile(tc.name, []byte(tc.head)); got != tc.want {
			t.Errorf("DetectFile(%s) = %s, want %s", tc.name, got, tc.want)
		}
	}
}

// copyUniversal copies the universal fixtures into a fresh directory
// (outside any git work tree, so paths are root-relative).
func copyUniversal(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join("testdata", "universal")
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestUniversalAdapter(t *testing.T) {
	dir := copyUniversal(t)
	out, err := Universal.Ingest(context.Background(), adapter.Request{Root: dir, NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	g := out.Graph
	if out.Stats.FilesParsed != 5 {
		t.Errorf("parsed %d files, want 5 (%+v)", out.Stats.FilesParsed, out.Stats)
	}
	for _, id := range []string{
		"doc::docs/guide.md", "doc::docs/guide.md#authentication", "doc::docs/guide.md#authentication/code-1",
		"doc::docs/guide.md#authentication/table-1", "doc::docs/sessions.rst#creating", "doc::manual.adoc#payments",
		"doc::notes.txt#known-issues", "doc::page.html#middleware/code-1",
	} {
		if _, ok := g.Lookup(id); !ok {
			t.Errorf("node %s missing", id)
		}
	}
	// Section nesting and links between documents.
	sec, _ := g.Lookup("doc::docs/guide.md#errors")
	parent, _ := g.Lookup("doc::docs/guide.md#authentication")
	if _, ok := g.FindEdgeByName(parent, sec, RelContains); !ok {
		t.Error("Authentication does not contain Errors")
	}
	from, _ := g.Lookup("doc::docs/guide.md#backend-guide")
	to, _ := g.Lookup("doc::docs/sessions.rst")
	if _, ok := g.FindEdgeByName(from, to, RelLinksTo); !ok {
		t.Error("the guide's link to sessions.rst is no links_to edge")
	}
	if !g.HasTag(sec, TagSection) || g.Provenance(sec).Namespace != DefaultNamespace {
		t.Errorf("section tags %v namespace %q", g.Tags(sec), g.Provenance(sec).Namespace)
	}
}

func TestUniversalAdapterNamespaceAndErrors(t *testing.T) {
	dir := copyUniversal(t)
	out, err := Universal.Ingest(context.Background(), adapter.Request{Root: filepath.Join(dir, "notes.txt"), Namespace: "wiki", NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := out.Graph.Lookup("wiki::doc::notes.txt#known-issues"); !ok {
		t.Errorf("namespaced section missing; nodes: %d", out.Graph.NumNodes())
	}
	if _, err := Universal.Ingest(context.Background(), adapter.Request{Root: dir, Namespace: "a::b"}); err == nil {
		t.Error("namespace with :: accepted")
	}
	if _, err := Universal.Ingest(context.Background(), adapter.Request{Root: filepath.Join(dir, "missing")}); err == nil {
		t.Error("missing root accepted")
	}
}

// codeGraph is a small code graph shaped like the code adapter's output.
func codeGraph(t *testing.T) *graph.Graph {
	t.Helper()
	g := graph.New()
	add := func(id, label string, typ graph.NodeType) {
		if _, err := g.AddNode(graph.Node{ExternalID: id, Label: label, Type: typ, Provenance: graph.Provenance{SourcePath: strings.Split(strings.TrimPrefix(id, "file::"), "::")[0]}}); err != nil {
			t.Fatal(err)
		}
	}
	add("dir::backend", "backend", graph.Directory)
	for _, f := range []string{"auth", "session", "crypto", "config", "payments", "middleware"} {
		add("file::backend/"+f+".py", f+".py", graph.File)
	}
	add("file::backend/auth.py::AuthService", "AuthService", graph.Class)
	add("file::backend/auth.py::AuthService::login", "login", graph.Function)
	add("file::backend/session.py::SessionStore", "SessionStore", graph.Class)
	add("file::backend/session.py::SessionStore::lookup", "lookup", graph.Function)
	add("file::backend/session.py::SessionStore::create", "create", graph.Function)
	add("file::backend/crypto.py::hash_password", "hash_password", graph.Function)
	add("file::backend/config.py::SESSION_TTL", "SESSION_TTL", graph.Type)
	add("file::backend/payments.py::charge", "charge", graph.Function)
	add("file::backend/payments.py::refund", "refund", graph.Function)
	add("file::backend/middleware.py::require_session", "require_session", graph.Function)
	// "create" is also a function elsewhere: an ambiguous label; so is
	// make_token.
	add("file::other/a.py::create", "create", graph.Function)
	add("file::other/a.py::make_token", "make_token", graph.Function)
	add("file::other/b.py::make_token", "make_token", graph.Function)
	add("file::fixtures/golden.json::agent_id", "agent_id", graph.Type)
	add("file::other/a_test.go::helper", "helper", graph.Function)
	add("file::other/c.py::outer", "outer", graph.Function)
	add("file::other/c.py::outer::inner", "inner", graph.Function)
	add("file::README.md", "README.md", graph.File)
	return g
}

func TestBindScoresAndAmbiguity(t *testing.T) {
	dir := copyUniversal(t)
	g := boundToCode(t, Universal, dir)
	x := NewIndex(g)
	type bound struct {
		Target string
		Score  float32
		Reason string
	}
	get := func(sec string) []bound {
		id, ok := g.Lookup(sec)
		if !ok {
			t.Fatalf("no %s", sec)
		}
		var out []bound
		for _, b := range x.SectionBindings(id) {
			out = append(out, bound{g.ExternalID(b.Target), b.Score, b.Reason})
			if _, ok := g.FindEdgeByName(id, b.Target, RelDocuments); !ok {
				t.Errorf("%s → %s has no documents edge", sec, g.ExternalID(b.Target))
			}
		}
		return out
	}
	got := get("doc::docs/guide.md#authentication")
	want := []bound{
		{"file::backend/config.py", ScoreExactPath, "exact path"},
		{"file::backend/auth.py::AuthService::login", ScoreQualified, "qualified name"},
		{"file::backend/config.py::SESSION_TTL", ScoreConfig, "configuration key"},
		{"file::backend/crypto.py::hash_password", ScoreCodeCall, "call in a code block"},
		{"file::backend/session.py::SessionStore", ScoreWord, "unique label named in prose, in a directory the section names otherwise"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Authentication bindings (-want +got):\n%s", diff)
	}
	// `backend/` is a directory; PermissionError names nothing.
	if got := get("doc::docs/guide.md#errors"); len(got) != 0 {
		t.Errorf("Errors bound to %v", got)
	}
	// "SessionStore.create" is qualified (unique); the bare "create" label
	// is shared by two functions and only down-weighted.
	got = get("doc::docs/sessions.rst#creating")
	if len(got) == 0 || got[0].Target != "file::backend/session.py::SessionStore::create" || got[0].Score != ScoreQualified {
		t.Errorf("Creating bindings %v", got)
	}
	// A top-level declaration wins over a method of the same name; a
	// plain word binds only when unique; an identifier-shaped one is
	// split over up to three candidates.
	if c := x.Resolve(Mention{Kind: MentionIdent, Text: "create"}); len(c) != 1 || g.ExternalID(c[0].Node) != "file::other/a.py::create" {
		t.Errorf("create resolved to %+v", c)
	}
	if c := x.Resolve(Mention{Kind: MentionIdent, Text: "lookup"}); len(c) != 1 {
		t.Errorf("unique plain word resolved to %+v", c)
	}
	if c := x.Resolve(Mention{Kind: MentionIdent, Text: "make_token"}); len(c) != 2 || c[0].Score != ScoreLabel/2 {
		t.Errorf("ambiguous label resolved to %+v", c)
	}
	// Keys of data files, test helpers and closures are no targets of a
	// bare name.
	for _, name := range []string{"agent_id", "helper", "inner"} {
		if c := x.Resolve(Mention{Kind: MentionIdent, Text: name}); len(c) != 0 {
			t.Errorf("%s resolved to %+v", name, c)
		}
	}
	if c := x.Resolve(Mention{Kind: MentionPath, Text: "README.md"}); len(c) != 0 {
		t.Errorf("a markdown file bound as code: %+v", c)
	}
	// The document itself reaches code through links to source files.
	got = get("doc::page.html#api-reference")
	if len(got) == 0 || got[0].Target != "file::backend/payments.py" {
		t.Errorf("page bindings %v", got)
	}
}

// PDF and DOCX without their providers are skipped, counted and
// explained — never an ingest failure.
func TestProviderlessFormatsAreSkipped(t *testing.T) {
	if _, ok := providerFor(PDF); ok {
		t.Skip("pdftotext is installed")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "paper.pdf"), []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.md"), []byte("# Notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := Universal.Ingest(context.Background(), adapter.Request{Root: dir, NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	if out.Stats.FilesParsed != 1 || len(out.Stats.Warnings) != 1 || !strings.Contains(out.Stats.Warnings[0], "pdftotext") {
		t.Errorf("stats %+v", out.Stats)
	}
	_, ps := ProviderHealth(context.Background())
	for _, p := range ps {
		if p.Name == "pdftotext" && (p.Available || p.InstallHint == "") {
			t.Errorf("pdftotext reported %+v", p)
		}
	}
}

// Prose text in code's shape that names no code: reST/MyST cross-reference
// targets (alembic's ":ref:`alembic.command.toplevel`", ten false findings
// of the held-out run of drift-prose.md) and quoted values in a signature
// (apscheduler's "jobs_key='apscheduler.jobs'"). The last rows keep names
// that are code.
func TestMentionsSkipReferenceTargetsAndQuotedValues(t *testing.T) {
	tests := []struct {
		prose string
		want  []string
	}{
		{"See :ref:`alembic.command.toplevel` for the commands.", nil},
		{"See :ref:`the commands <alembic.command.toplevel>`.", nil},
		{"Read :doc:`api.overview` and :term:`foo.bar`, :std:ref:`x.y`.", nil},
		{"Read {ref}`alembic.config.toplevel` first.", nil},
		{".. autoclass:: RedisJobStore(jobs_key='apscheduler.jobs', run_times_key=\"apscheduler.run_times\")", nil},
		{"Call alembic.command.upgrade after :ref:`alembic.command.toplevel`.", []string{"alembic.command.upgrade"}},
		{"Use :func:`alembic.command.stamp` (a code role).", []string{"alembic.command.stamp"}},
	}
	for _, tc := range tests {
		s := &Section{}
		s.AddProse(tc.prose)
		var quals []string
		for _, m := range extractMentions(s) {
			if m.Kind == MentionQualified {
				quals = append(quals, m.Text)
			}
		}
		if !slices.Equal(quals, tc.want) {
			t.Errorf("%q: qualified mentions %v, want %v", tc.prose, quals, tc.want)
		}
	}
}

// Release pages are history by their path too: a version-named file or a
// changes/ or news-fragments directory (falcon's docs/changes/4.0.0.rst,
// 28 false findings on drift-precision5.md's held-out run).
func TestHistoryPath(t *testing.T) {
	for p, want := range map[string]bool{
		"docs/changes/4.0.0.rst":            true,
		"docs/_newsfragments/2630.misc.rst": true,
		"docs/whatsnew/index.rst":           true,
		"docs/whats_new_in_3_0_0.rst":       true,
		"docs/v2.1.md":                      true,
		"CHANGES.rst":                       true,
		"docs/blog/posts/release.md":        true,
		"docs/api/routing.rst":              false,
		"docs/user/tutorial.rst":            false,
		"docs/changing-settings.md":         false,
		"docs/howto/release-a-package.md":   false,
	} {
		if got := HistoryPath(p); got != want {
			t.Errorf("HistoryPath(%q) = %v, want %v", p, got, want)
		}
	}
}

// A Ruby module reopened in each of its files is one declaration: a
// document's Rack::Protection binds to the file its name names, not an
// ambiguous_target of 5 candidates; same-named Python classes in
// different files stay ambiguous.
func TestReopenedModuleIsOneTarget(t *testing.T) {
	g := graph.New()
	add := func(id string, typ graph.NodeType, lines uint32) {
		p := strings.Split(strings.TrimPrefix(id, "file::"), "::")[0]
		if _, err := g.AddNode(graph.Node{ExternalID: id, Label: id[strings.LastIndex(id, "::")+2:], Type: typ,
			Provenance: graph.Provenance{SourcePath: p, LineStart: 1, LineEnd: lines}}); err != nil {
			t.Fatal(err)
		}
	}
	for i, f := range []string{"base", "host_authorization", "json_csrf", "xss_header"} {
		add("file::lib/rack/protection/"+f+".rb::Rack::Protection", graph.Module, uint32(200+i))
	}
	add("file::lib/rack/protection.rb::Rack::Protection", graph.Module, 40)
	for _, f := range []string{"a", "b", "c", "d"} {
		add("file::pkg/"+f+".py::Outer::Config", graph.Class, 10)
	}
	x := NewIndex(g)
	m := Mention{Kind: MentionQualified, Text: "Rack.Protection"}
	c := x.Resolve(m)
	if len(c) != 1 || g.ExternalID(c[0].Node) != "file::lib/rack/protection.rb::Rack::Protection" || x.Ambiguity(m) != 0 {
		t.Errorf("Rack.Protection resolved to %+v, ambiguity %d", c, x.Ambiguity(m))
	}
	py := Mention{Kind: MentionQualified, Text: "Outer.Config"}
	if c := x.Resolve(py); len(c) != 0 || x.Ambiguity(py) != 4 {
		t.Errorf("four different Outer.Config resolved to %+v, ambiguity %d", c, x.Ambiguity(py))
	}
}
