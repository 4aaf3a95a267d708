package document

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
)

// pkgGraph is a Python package shaped like structlog and attrs: the
// package re-exports a class from a private module while a public
// submodule defines its own class of that name, and stubs (.pyi) declare
// what the sources define.
func pkgGraph(t *testing.T) *graph.Graph {
	t.Helper()
	g := graph.New()
	add := func(id string, typ graph.NodeType, tags ...string) graph.NodeID {
		segs := strings.Split(strings.TrimPrefix(id, "file::"), "::")
		n, err := g.AddNode(graph.Node{ExternalID: id, Label: segs[len(segs)-1], Type: typ, Tags: tags,
			Provenance: graph.Provenance{SourcePath: segs[0]}})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	imports := func(from, to graph.NodeID) {
		if err := g.AddEdge(graph.Edge{Source: from, Target: to, Relation: "imports", Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	init := add("file::src/slog/__init__.py", graph.File)
	add("file::src/slog/_generic.py", graph.File)
	generic := add("file::src/slog/_generic.py::BoundLogger", graph.Class)
	add("file::src/slog/_generic.py::BoundLogger::bind", graph.Function)
	add("file::src/slog/stdlib.py", graph.File)
	add("file::src/slog/stdlib.py::BoundLogger", graph.Class)
	add("file::src/slog/stdlib.py::BoundLogger::bind", graph.Function)
	add("file::src/slog/twisted.py", graph.File)
	add("file::src/slog/twisted.py::BoundLogger", graph.Class)
	imports(init, generic)
	// attr: the package re-exports attrib from _make; its stub declares it.
	attrInit := add("file::src/attr/__init__.py", graph.File)
	stubInit := add("file::src/attr/__init__.pyi", graph.File)
	add("file::src/attr/__init__.pyi::attrib", graph.Function)
	add("file::src/attr/__init__.pyi::Version", graph.Class)
	add("file::src/attr/_make.py", graph.File)
	attrib := add("file::src/attr/_make.py::attrib", graph.Function)
	imports(attrInit, attrib)
	// The import of evolve reached the method Attribute.evolve, not the
	// module-level evolve it imports.
	add("file::src/attr/_make.py::evolve", graph.Function)
	add("file::src/attr/_make.py::Attribute", graph.Class)
	imports(attrInit, add("file::src/attr/_make.py::Attribute::evolve", graph.Function))
	// A private helper class's method.
	add("file::src/attr/_make.py::_Counting", graph.Class)
	add("file::src/attr/_make.py::_Counting::validator", graph.Function)
	// A function named like the package.
	add("file::src/attr/_make.py::attr", graph.Function)
	add("file::src/attr/__init__.pyi::attr", graph.Function)
	add("file::src/attr/_version.py", graph.File)
	add("file::src/attr/_version.py::Version", graph.Class)
	add("file::src/attr/_version.py::Version::__hash__", graph.Function)
	add("file::src/attr/_version.pyi", graph.File)
	add("file::src/attr/_version.pyi::Version", graph.Class)
	_ = stubInit
	add("doc::docs/hashing.md", graph.File)
	add("doc::docs/hashing.md#bare", graph.Concept, "mention:ident:__hash__", "mention:qual:attr.attrib")
	add("doc::docs/hashing.md#owned", graph.Concept, "mention:ident:__hash__", "mention:qual:attr._version.Version.__hash__")
	// A section naming a class and a bare "__hash__" (the user's class's)
	// binds the class only.
	add("doc::docs/hashing.md#near", graph.Concept, "mention:ident:__hash__", "mention:qual:attr._version.Version")
	g.Finalize()
	return g
}

func TestResolveModuleExportsAndStubs(t *testing.T) {
	g := pkgGraph(t)
	x := NewIndex(g)
	for _, tc := range []struct {
		m    Mention
		want []string
	}{
		// The package's own export, not the submodules' classes of that name.
		{Mention{MentionQualified, "slog.BoundLogger"}, []string{"file::src/slog/_generic.py::BoundLogger"}},
		{Mention{MentionCode, "slog.BoundLogger"}, []string{"file::src/slog/_generic.py::BoundLogger"}},
		{Mention{MentionQualified, "slog.BoundLogger.bind"}, []string{"file::src/slog/_generic.py::BoundLogger::bind"}},
		// A submodule named in full is that submodule.
		{Mention{MentionQualified, "slog.stdlib.BoundLogger"}, []string{"file::src/slog/stdlib.py::BoundLogger"}},
		{Mention{MentionQualified, "slog.stdlib.BoundLogger.bind"}, []string{"file::src/slog/stdlib.py::BoundLogger::bind"}},
		// The source module before its stub, and the source definition
		// before a stub's declaration of the same name.
		{Mention{MentionQualified, "attr.attrib"}, []string{"file::src/attr/_make.py::attrib"}},
		{Mention{MentionIdent, "attrib"}, []string{"file::src/attr/_make.py::attrib"}},
		{Mention{MentionQualified, "_version.Version"}, []string{"file::src/attr/_version.py::Version"}},
		// "from m import name" imports m's module-level name.
		{Mention{MentionQualified, "attr.evolve"}, []string{"file::src/attr/_make.py::evolve"}},
		// A bare name is no private class's member.
		{Mention{MentionIdent, "validator"}, nil},
		// A plain word that names a package is the package.
		{Mention{MentionIdent, "attr"}, nil},
		// A bare protocol method names no class in particular.
		{Mention{MentionIdent, "__hash__"}, nil},
		{Mention{MentionWord, "__hash__"}, nil},
	} {
		var got []string
		for _, c := range x.Resolve(tc.m) {
			got = append(got, g.ExternalID(c.Node))
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s %q (-want +got):\n%s", tc.m.Kind, tc.m.Text, diff)
		}
	}
}

// A bare dunder binds nothing, even beside its class; Class.__hash__ does.
func TestDunderBindsOnlyQualified(t *testing.T) {
	g := pkgGraph(t)
	x := NewIndex(g)
	for sec, want := range map[string][]string{
		"doc::docs/hashing.md#bare":  {"file::src/attr/_make.py::attrib"},
		"doc::docs/hashing.md#owned": {"file::src/attr/_version.py::Version::__hash__"},
		"doc::docs/hashing.md#near":  {"file::src/attr/_version.py::Version"},
	} {
		id, _ := g.Lookup(sec)
		var got []string
		for _, b := range x.SectionBindings(id) {
			got = append(got, g.ExternalID(b.Target))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", sec, diff)
		}
	}
}
