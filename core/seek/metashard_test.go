package seek

import (
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// TestMetaShardMatchesPlain checks the metadata shard (path documents
// copied between a file's nodes, qualifiers read in place) against
// tokenising each node's label, path and "qualifiers excerpt" string
// whole, as the index first did: same documents, terms and vocabulary.
func TestMetaShardMatchesPlain(t *testing.T) {
	g := graph.New()
	for _, n := range []graph.Node{
		{ExternalID: "dir::web/api", Label: "api", Type: graph.Directory, Provenance: graph.Provenance{SourcePath: "web/api"}},
		{ExternalID: "file::web/api/http_server.go", Label: "http_server.go", Type: graph.File, Provenance: graph.Provenance{SourcePath: "web/api/http_server.go"}},
		{ExternalID: "file::web/api/http_server.go::Server", Label: "Server", Type: graph.Struct, Provenance: graph.Provenance{SourcePath: "web/api/http_server.go", Excerpt: "type Server struct"}},
		{ExternalID: "file::web/api/http_server.go::Server::method::ServeHTTP", Label: "ServeHTTP", Type: graph.Function,
			Provenance: graph.Provenance{SourcePath: "web/api/http_server.go", Excerpt: "func (s *Server) ServeHTTP(w, r)"}},
		{ExternalID: "file::web/api/http_server.go::Outer::Inner::fn::helper", Label: "helper", Type: graph.Function, Provenance: graph.Provenance{SourcePath: "web/api/http_server.go"}},
		{ExternalID: "file::web/api/http_server.go::x::helper::y", Label: "y", Type: graph.Function, Provenance: graph.Provenance{SourcePath: "web/api/http_server.go", Excerpt: "var y"}},
		{ExternalID: "file::web/api/routes.go", Label: "routes.go", Type: graph.File, Provenance: graph.Provenance{SourcePath: "web/api/routes.go"}},
		{ExternalID: "file::web/api/routes.go::Route::Handle", Label: "Handle", Type: graph.Function, Provenance: graph.Provenance{SourcePath: "web/api/routes.go"}},
		{ExternalID: "file::web/api/http_server.go::Late::lateFn", Label: "lateFn", Type: graph.Function, Provenance: graph.Provenance{SourcePath: "web/api/http_server.go"}},
		{ExternalID: "file::web/api/routes.go::Route::impl::Handle::Handle", Label: "Handle", Type: graph.Function, Provenance: graph.Provenance{SourcePath: "web/api/routes.go"}},
		{ExternalID: "ext::no_path", Label: "noPath"},
	} {
		mustAdd(t, g, n)
	}
	g.Finalize()
	x := &Index{g: g, n: g.NumNodes(), terms: newTermIndex()}
	got := x.metaShard(newShardWriter(), 0, x.n)
	want := plainMetaShard(x, newShardWriter(), 0, x.n)
	if len(got.docNode) < 10 {
		t.Fatalf("only %d documents", len(got.docNode))
	}
	if !slices.Equal(got.ids, want.ids) || !slices.Equal(got.docNode, want.docNode) || !slices.Equal(got.docField, want.docField) ||
		!slices.Equal(got.docLen, want.docLen) || !slices.Equal(got.docOff, want.docOff) || !slices.Equal(got.terms, want.terms) || !slices.Equal(got.tfs, want.tfs) {
		t.Errorf("metadata shard differs from tokenising whole strings:\n got docs %v lens %v\nwant docs %v lens %v", got.docField, got.docLen, want.docField, want.docLen)
	}
}

// plainMetaShard is metaShard as first written: every string tokenised.
func plainMetaShard(x *Index, w *shardWriter, lo, hi int) *shard {
	g := x.g
	w.start()
	for i := lo; i < hi; i++ {
		id := graph.NodeID(i)
		typ, label, src := g.Type(id), g.Label(id), g.SourcePath(id)
		if typ == graph.File {
			label = stem(label)
		}
		if n := w.text(label); n > 0 {
			w.close(id, Label, n, 0)
		}
		if src != "" {
			dir, base := path.Split(src)
			if typ != graph.Directory {
				base = stem(base)
			}
			if n := w.text(dir) + w.text(base); n > 0 {
				w.close(id, Path, n, 0)
			}
		}
		doc := g.Provenance(id).Excerpt
		if q := plainQualifiers(g.ExternalID(id), src, label); q != "" {
			doc = q + " " + doc
		}
		if n := w.text(doc); n > 0 {
			w.close(id, Doc, n, 0)
		}
	}
	return w.finish(x.terms)
}

func plainQualifiers(ext, src, label string) string {
	rest, ok := strings.CutPrefix(ext, "file::"+src+"::")
	parts := strings.Split(rest, "::")
	if !ok || len(parts) < 2 {
		return ""
	}
	var out []string
	for _, p := range parts[:len(parts)-1] {
		switch p {
		case "fn", "class", "method", "struct", "enum", "type", "module", "impl", "ref", label:
			continue
		}
		out = append(out, p)
	}
	return strings.Join(out, " ")
}
