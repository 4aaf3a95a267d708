package document

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/adapter"
)

func readStructured(t *testing.T, name string) *Canonical {
	t.Helper()
	return parseTestdata(t, "structured", name)
}

func TestParseStructuredFormats(t *testing.T) {
	type ent struct{ Kind, Key, Relation string }
	tests := []struct {
		file     string
		format   Format
		title    string
		headings []string
		entities []ent // among the document's entities
		mentions map[int][]string
	}{
		{
			file: "session-spec.md", format: Light, title: "Session store",
			headings: []string{"# Session store", "## Expiry", "## Lookup"},
			entities: []ent{
				{"node", "node:sessionstore", "declares_node"}, {"node", "node:authservice", "depends_on"},
				{"node", "node:sessionrevocation", "next_binding"}, {"state", "state:production", "has_state"},
				{"protocol", "protocol:l1ght/1.0", "defines_protocol"}, {"entity", "entity:sessionstore", "declares_entity"},
				{"binding", "binding:backend/session.py", "binds_to"}, {"evidence", "evidence:tests/test_session.py", "evidenced_by"},
				{"blocker", "blocker:no revocation list yet", "declares_blocker"}, {"event", "event:token_expired", "declares_event"},
				{"warning", "warning:clock skew between workers", "declares_warning"}, {"confidence", "confidence:high", "epistemic_confidence"},
			},
			mentions: map[int][]string{2: {"path:backend/session.py", "path:tests/test_session.py", "config:SESSION_TTL"}, 3: {"qual:SessionStore.lookup"}},
		},
		{
			file: "refs.bib", format: BibTeX, title: "Bibliography refs.bib",
			headings: []string{"# Time, Clocks, and the Ordering of Events in a Distributed System", "# Principled Design of the Modern Web Architecture", "# Session Expiry in Practice"},
			entities: []ent{
				{"doi", "10.1145/359545.359563", "identified_by"}, {"author", "leslie lamport", "authored_by"},
				{"author", "roy t. fielding", "authored_by"}, {"keyword", "distributed systems", "has_keyword"},
				{"keyword", "rest", "has_keyword"}, {"citekey", "bibkey:lamport1978time", "cites"},
			},
			mentions: map[int][]string{3: {"path:backend/session.py", "qual:SessionStore.lookup"}},
		},
		{
			file: "article.nxml", format: JATS, title: "Token Expiry Under Clock Skew",
			headings: []string{"# Abstract", "# Introduction", "## Setup", "# Results", "# References"},
			entities: []ent{
				{"doi", "10.5555/jss.2024.001", "identified_by"}, {"pmid", "pmid:31415926", "identified_by"},
				{"orcid", "0000-0002-1825-0097", "has_orcid"}, {"author", "josiah carberry", "authored_by"},
				{"keyword", "session expiry", "has_keyword"}, {"citation", "10.1145/359545.359563", "cites"},
			},
			mentions: map[int][]string{1: {"qual:SessionStore.lookup"}, 3: {"path:backend/session.py"}},
		},
		{
			file: "patent.xml", format: Patent, title: "Session token expiry with skew-tolerant clocks",
			headings: []string{"# Abstract", "# Description", "## BACKGROUND", "## SUMMARY", "# Claims", "## Claim 1", "## Claim 2"},
			entities: []ent{
				{"patent", "patent:US09999999", "identified_by"}, {"patent", "patent:US07654321", "cites"},
				{"author", "jane doe", "authored_by"}, {"keyword", "ipc:h04l", "has_keyword"},
			},
		},
		{
			file: "rfc9999.xml", format: RFC, title: "Expiring Session Tokens Under Clock Skew",
			headings: []string{"# Abstract", "# Introduction", "## Model", "# Parameters", "# Normative References"},
			entities: []ent{
				{"rfc", "rfc:9999", "identified_by"}, {"doi", "10.17487/rfc9999", "identified_by"},
				{"citation", "rfc:2119", "cites"}, {"keyword", "clocks", "has_keyword"},
			},
			mentions: map[int][]string{3: {"qual:SessionStore.lookup"}},
		},
		{
			file: "work.json", format: CrossRef, title: "Token Expiry Under Clock Skew",
			headings: []string{"# Token Expiry Under Clock Skew"},
			entities: []ent{
				{"doi", "10.5555/jss.2024.001", "identified_by"}, {"orcid", "0000-0002-1825-0097", "has_orcid"},
				{"keyword", "clocks", "has_keyword"}, {"citation", "10.1145/359545.359563", "cites"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			c := readStructured(t, tc.file)
			if c.Format != tc.format || c.Title != tc.title {
				t.Errorf("format %s title %q, want %s %q", c.Format, c.Title, tc.format, tc.title)
			}
			if diff := cmp.Diff(tc.headings, headings(c)); diff != "" {
				t.Errorf("headings (-want +got):\n%s", diff)
			}
			var got []ent
			for _, e := range c.Entities {
				got = append(got, ent{e.Kind, e.Key, e.Relation})
			}
			for _, w := range tc.entities {
				if !slices.Contains(got, w) {
					t.Errorf("entity %v missing from %v", w, got)
				}
			}
			for i, want := range tc.mentions {
				got := mentionTexts(&c.Sections[i])
				for _, w := range want {
					if !slices.Contains(got, w) {
						t.Errorf("section %d mentions %v, missing %s", i, got, w)
					}
				}
			}
		})
	}
}

func TestStructuredParseErrorsTeach(t *testing.T) {
	for _, tc := range []struct {
		f    Format
		data string
	}{
		{BibTeX, "this is no bibliography"},
		{JATS, "<article><front>"},
		{JATS, "<book/>"},
		{Patent, "<rfc/>"},
		{RFC, "<not-rfc/>"},
		{CrossRef, `{"message": {"title": ["no doi"]}}`},
		{CrossRef, `{broken`},
	} {
		if c, err := Parse(tc.f, "x", []byte(tc.data)); err == nil {
			t.Errorf("%s %q parsed: %+v", tc.f, tc.data, c)
		}
	}
}

func TestRouterReadsEveryFamily(t *testing.T) {
	out, err := Router.Ingest(context.Background(), adapter.Request{Root: filepath.Join("testdata", "structured"), NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"light": 1, "bibtex": 1, "jats": 1, "patent": 1, "rfc": 1, "crossref": 1}
	if diff := cmp.Diff(want, out.Stats.Languages); diff != "" {
		t.Errorf("formats read (-want +got):\n%s", diff)
	}
	g := out.Graph
	// Citing and cited documents meet on one entity per identifier.
	doi, ok := g.Lookup("doc::entity::doi::10.1145/359545.359563")
	if !ok {
		t.Fatal("no entity for the Lamport DOI")
	}
	if n := g.InDegree(doi); n < 3 {
		t.Errorf("the Lamport DOI has %d incoming edges, want the bib entry, the article and the CrossRef work", n)
	}
	// The structured adapters take only their own files.
	out, err = RFCXML.Ingest(context.Background(), adapter.Request{Root: filepath.Join("testdata", "structured"), NoGit: true})
	if err != nil || out.Stats.FilesParsed != 1 || out.Stats.FilesFailed != 1 {
		t.Errorf("rfc adapter on the directory: %+v %v (patent.xml must fail as RFC)", out.Stats, err)
	}
}

func TestCrossDomainBridges(t *testing.T) {
	ingest := func(file, ns string) *graph.Graph {
		out, err := Router.Ingest(context.Background(), adapter.Request{Root: filepath.Join("testdata", "structured", file), Namespace: ns, NoGit: true})
		if err != nil {
			t.Fatal(err)
		}
		return out.Graph
	}
	g := graph.New()
	for _, x := range []struct{ file, ns string }{{"article.nxml", "papers"}, {"work.json", "crossref"}, {"refs.bib", "bib"}} {
		if err := g.Merge(ingest(x.file, x.ns)); err != nil {
			t.Fatal(err)
		}
	}
	st := Bridge(g)
	g.Finalize()
	if st.IdentityMatches == 0 || st.ORCIDBridges == 0 || st.AuthorBridges == 0 || st.KeywordBridges == 0 {
		t.Errorf("bridges %+v: want identity, ORCID, author and keyword bridges", st)
	}
	a, _ := g.Lookup("papers::doc::entity::doi::10.5555/jss.2024.001")
	b, _ := g.Lookup("crossref::doc::entity::doi::10.5555/jss.2024.001")
	if _, ok := g.FindEdgeByName(b, a, RelSameAs); !ok {
		if _, ok := g.FindEdgeByName(a, b, RelSameAs); !ok {
			t.Error("the article and its CrossRef record are not same_as")
		}
	}
	// Same namespace: no bridge (one node already); over the keyword cap:
	// none either.
	h := graph.New()
	for i := range KeywordCap + 1 {
		ns := "ns" + itoa(i)
		if _, err := h.AddNode(graph.Node{ExternalID: ns + "::doc::entity::keyword::x", Label: "x", Type: graph.Concept, Tags: []string{TagKeyPrefix + "keyword:x"}, Provenance: graph.Provenance{Namespace: ns}}); err != nil {
			t.Fatal(err)
		}
	}
	if st := Bridge(h); st.KeywordBridges != 0 {
		t.Errorf("keyword shared by %d entities bridged: %+v", KeywordCap+1, st)
	}
}

func TestLightBindsToCode(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "structured", "session-spec.md"))
	if err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(t.TempDir(), "session-spec.md") // outside git: the path is the file name
	if err := os.WriteFile(spec, data, 0o644); err != nil {
		t.Fatal(err)
	}
	g := boundToCode(t, LightMD, spec)
	sec, _ := g.Lookup("doc::session-spec.md#expiry")
	file, _ := g.Lookup("file::backend/session.py")
	if _, ok := g.FindEdgeByName(sec, file, RelDocuments); !ok {
		t.Error("[⟁ binds_to: backend/session.py] is no documents edge to the file")
	}
}
