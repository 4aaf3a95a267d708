package patterns

import (
	"fmt"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

// typeGraph: struct User (with method Name) in models.py, a function
// named User too (an impl-like node), make_user references User, view
// calls make_user, Profile holds a User; User references Address.
func typeGraph(t *testing.T) *graph.Graph {
	g := graph.New()
	for _, n := range []struct {
		id string
		t  graph.NodeType
	}{
		{"file::models.py::User", graph.Class}, {"file::models.py::User::Name", graph.Function},
		{"file::compat.py::User", graph.Function}, {"file::models.py::Address", graph.Class},
		{"file::users.py::make_user", graph.Function}, {"file::views.py::view", graph.Function},
		{"file::models.py::Profile", graph.Class}, {"file::models.py::UserGroup", graph.Class},
		{"file::pkg/token.go::Token", graph.Struct}, {"file::other/token.go::Token", graph.Struct},
	} {
		label := n.id[strings.LastIndex(n.id, "::")+2:]
		if _, err := g.AddNode(graph.Node{ExternalID: n.id, Label: label, Type: n.t}); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range [][3]string{
		{"file::models.py::User", "file::models.py::User::Name", "contains"},
		{"file::models.py::User", "file::models.py::Address", "references"},
		{"file::users.py::make_user", "file::models.py::User", "references"},
		{"file::views.py::view", "file::users.py::make_user", "calls"},
		{"file::models.py::Profile", "file::models.py::User", "references"},
	} {
		g.AddEdgeByID(e[0], e[1], graph.Edge{Relation: e[2], Weight: 1})
	}
	g.Finalize()
	return g
}

func TestResolveType(t *testing.T) {
	g := typeGraph(t)
	for _, tc := range []struct{ ref, first, tier string }{
		{"file::compat.py::User", "file::compat.py::User", TierExactID},
		{"User", "file::models.py::User", TierExactLabel}, // the class before the function
		{"models.User", "file::models.py::User", TierSegment},
		{"models.py::Address", "file::models.py::Address", TierSegment},
		{"pkg.Token", "file::pkg/token.go::Token", TierSegment},
		{"group", "file::models.py::UserGroup", TierSubstring},
		{"Nothing", "", ""},
	} {
		c, tier := ResolveType(g, tc.ref)
		first := ""
		if len(c) > 0 {
			first = g.ExternalID(c[0])
		}
		if first != tc.first || tier != tc.tier {
			t.Errorf("%q: %q by %q, want %q by %q", tc.ref, first, tier, tc.first, tc.tier)
		}
	}
}

func TestTypeTrace(t *testing.T) {
	g := typeGraph(t)
	user, _ := g.Lookup("file::models.py::User")
	show := func(r TypeTraceResult) string {
		var s []string
		for _, u := range r.Usages {
			s = append(s, fmt.Sprintf("%d:%s:%s", u.Hop, g.Label(u.Node), u.Relation))
		}
		return strings.Join(s, " ")
	}
	for _, tc := range []struct {
		p    TypeTraceParams
		want string
	}{
		{TypeTraceParams{}, "1:Name:method 1:make_user:references 1:Profile:references 2:view:calls"},
		{TypeTraceParams{MaxHops: 1}, "1:Name:method 1:make_user:references 1:Profile:references"},
		{TypeTraceParams{Direction: Reverse}, "1:Name:method 1:Address:references"},
		{TypeTraceParams{MaxNodes: 2}, "1:Name:method 1:make_user:references"},
	} {
		if got := show(TypeTrace(g, user, tc.p)); got != tc.want {
			t.Errorf("%+v:\n got %s\nwant %s", tc.p, got, tc.want)
		}
	}
}
