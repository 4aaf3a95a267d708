package analysis

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
)

// holesWithTopic is holesOf with a text relevance per path (nil: none
// given) passed as HoleParams.Topic.
func holesWithTopic(t *testing.T, edges []string, act, topic map[string]float32) []string {
	t.Helper()
	g := importGraph(t, edges)
	id := func(p string) graph.NodeID {
		n, ok := g.Lookup("file::" + p)
		if !ok {
			t.Fatalf("no node %s", p)
		}
		return n
	}
	var scored []graph.Scored
	for _, p := range sortedKeys(act) {
		scored = append(scored, graph.Scored{Node: id(p), Score: act[p]})
	}
	hp := DefaultHoleParams()
	if topic != nil {
		hp.Topic = map[graph.NodeID]float32{}
		for p, v := range topic {
			hp.Topic[id(p)] = v
		}
	}
	res, err := StructuralHoles(g, scored, hp)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range res.Holes {
		hole := string(h.Kind) + " " + g.SourcePath(h.Node)
		if h.Kind == HoleMissingDependency {
			hole += " without " + g.SourcePath(h.Missing)
		}
		got = append(got, hole)
	}
	return got
}

// A bridge must be about the topic by its words: among the first files a
// search for the topic shows, near the best one. A neighbour of the
// topic's modules (werkzeug's etag.py beside the cookie code) is not; nor
// is a package's re-export file, which imports all of the package.
func TestStructuralHolesBridgeNeedsTheTopicsWords(t *testing.T) {
	edges := []string{"mod/mid.py>topic/t1.py", "topic/t2.py>mod/mid.py", "pkg/__init__.py>topic/t1.py", "topic/t2.py>pkg/__init__.py",
		"other/o1.py>x.py", "other/o2.py>x.py", "other/o3.py>x.py", "other/o4.py>x.py", "other/o5.py>x.py"}
	act := map[string]float32{"topic/t1.py": 1, "topic/t2.py": 0.9}
	words := func(mid float32, more ...string) map[string]float32 {
		m := map[string]float32{"topic/t1.py": 2, "topic/t2.py": 1.8, "mod/mid.py": mid, "pkg/__init__.py": 2}
		for _, p := range more {
			m[p] = 1.9
		}
		return m
	}
	for _, c := range []struct {
		name  string
		topic map[string]float32
		want  []string
	}{
		{"no text relevance given: structure alone, no re-export file", nil, []string{"inactive_bridge mod/mid.py"}},
		{"of the topic by its words", words(1.6), []string{"inactive_bridge mod/mid.py"}},
		{"a neighbour: few of the topic's words", words(0.4), nil},
		{"relevant, but five files rank above it", words(1.6, "other/o1.py", "other/o2.py", "other/o3.py", "other/o4.py"), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := holesWithTopic(t, edges, act, c.topic)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("holes (-want +got):\n%s", diff)
			}
		})
	}
}

// A missing dependency is of the topic: the validator skipped under
// "input validation", not a private utility (werkzeug's _internal.py
// under "http date parsing").
func TestStructuralHolesMissingDependencyOfTheTopic(t *testing.T) {
	edges := []string{"pkg/p1.py>lib/util.py", "pkg/p2.py>lib/util.py", "pkg/p3.py>lib/util.py",
		"pkg/p1.py>lib/x.py", "pkg/p2.py>lib/x.py", "pkg/p3.py>lib/x.py", "pkg/odd.py>lib/x.py"}
	act := map[string]float32{"pkg/p1.py": 1, "pkg/p2.py": 0.9, "pkg/p3.py": 0.8, "pkg/odd.py": 0.7, "lib/util.py": 0.6, "lib/x.py": 0.6}
	for _, c := range []struct {
		name string
		util float32
		want []string
	}{
		{"skips what the topic is about", 0.9, []string{"missing_dependency pkg/odd.py without lib/util.py"}},
		{"skips a utility the topic's words do not name", 0.1, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			topic := map[string]float32{"pkg/p1.py": 1, "pkg/odd.py": 0.8, "lib/util.py": c.util}
			if diff := cmp.Diff(c.want, holesWithTopic(t, edges, act, topic)); diff != "" {
				t.Errorf("holes (-want +got):\n%s", diff)
			}
		})
	}
}

// A module whose production users are all tested runs in their tests
// (werkzeug's routing/matcher.py under map.py); one nobody tested uses
// really lacks tests. A file without code (a Makefile, flake.nix) never does.
func TestStructuralHolesUntestedThroughUsers(t *testing.T) {
	base := []string{"tests/test_a.py>pkg/a.py", "tests/test_b.py>pkg/b.py", "tests/test_c.py>pkg/c.py"}
	act := map[string]float32{"pkg/a.py": 1, "pkg/b.py": 0.9, "pkg/c.py": 0.8, "pkg/odd.py": 0.7, "pkg/Makefile": 0.7, "pkg/flake.nix": 0.7}
	for _, c := range []struct {
		name  string
		edges []string
		want  []string
	}{
		{"used only by a tested sibling", []string{"pkg/a.py>pkg/odd.py"}, nil},
		{"used by an untested module too", []string{"pkg/a.py>pkg/odd.py", "pkg/cli.py>pkg/odd.py"}, []string{"untested pkg/odd.py"}},
		{"used by nobody", []string{"pkg/odd.py>lib/y.py"}, []string{"untested pkg/odd.py"}},
		{"a Makefile beside tested modules", []string{"pkg/Makefile>lib/y.py"}, nil},
		{"a build file beside tested modules", []string{"pkg/flake.nix>lib/y.py"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := map[string]float32{}
			for p, v := range act {
				if slices.ContainsFunc(c.edges, func(e string) bool { return strings.Contains(e, p) }) || strings.HasSuffix(p, ".py") && !strings.Contains(p, "odd") {
					a[p] = v
				}
			}
			if diff := cmp.Diff(c.want, holesWithTopic(t, append(slices.Clone(base), c.edges...), a, nil)); diff != "" {
				t.Errorf("holes (-want +got):\n%s", diff)
			}
		})
	}
}
