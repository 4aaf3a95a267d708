package seed

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/semantic"
)

func finder(t testing.TB, g *graph.Graph, withSem bool, mod func(*Options)) *Finder {
	t.Helper()
	var sem *semantic.Index
	if withSem {
		var err error
		if sem, err = semantic.New(g, semantic.DefaultOptions()); err != nil {
			t.Fatal(err)
		}
	}
	o := DefaultOptions()
	if mod != nil {
		mod(&o)
	}
	f, err := NewFinder(g, sem, o)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The worked example (docs/design.md#activation-pipeline): "authentication"
// seeds auth.py at 0.9 (its stem "auth" is a prefix of the word) and
// session.py at 0.85 (tag "auth"), and nothing else.
func TestWorkedExampleSeeds(t *testing.T) {
	g, id := graphtest.Backend()
	f := finder(t, g, false, nil)
	got := f.Find("authentication", 0)
	want := []Seed{
		{Node: id["auth.py"], Relevance: 0.9, Match: MatchPrefix},
		{Node: id["session.py"], Relevance: 0.85, Match: MatchTag},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("seeds (-want +got):\n%s", diff)
	}
}

type node struct {
	label string
	tags  []string
	typ   graph.NodeType
	path  string
}

func build(t testing.TB, nodes ...node) *graph.Graph {
	t.Helper()
	g := graph.New()
	for i, n := range nodes {
		if _, err := g.AddNode(graph.Node{ExternalID: fmt.Sprint(i), Label: n.label, Tags: n.tags, Type: n.typ, Provenance: graph.Provenance{SourcePath: n.path}}); err != nil {
			t.Fatal(err)
		}
	}
	g.Finalize()
	return g
}

func TestCascade(t *testing.T) {
	g := build(t,
		node{label: "chat_handler"},                               // 0
		node{label: "pre_auth_check"},                             // 1
		node{label: "Auth"},                                       // 2
		node{label: "untagged", tags: []string{"authentication"}}, // 3
		node{label: "authentication"},                             // 4
		node{label: "new"},                                        // 5
		node{label: "Session_Pool.py", typ: graph.File, path: "backend/session_pool.py"}, // 6
		node{label: "zzz"},         // 7
		node{label: "SessionPool"}, // 8
	)
	f := finder(t, g, false, nil)
	fuzzy := func(term, label string) float32 {
		// Set cosine of distinct trigrams, as the finder computes it.
		a := slices.Compact(sorted(semantic.AppendTrigrams(nil, term)))
		b := slices.Compact(sorted(semantic.AppendTrigrams(nil, label)))
		shared := 0
		for _, h := range a {
			if _, ok := slices.BinarySearch(b, h); ok {
				shared++
			}
		}
		return 0.7 * float32(float64(shared)/math.Sqrt(float64(len(a)*len(b))))
	}
	tests := []struct {
		query string
		node  graph.NodeID
		want  float32
		match Match
	}{
		{"auth", 2, 1.0, MatchExact},                                               // case-insensitive exact
		{"AUTH", 2, 1.0, MatchExact},                                               //
		{"chat_", 0, 0.9, MatchPrefix},                                             // prefix
		{"handler", 0, 0.8, MatchSubstring},                                        // substring
		{"auth", 1, 0.8, MatchSubstring},                                           //
		{"auth", 3, 0.85, MatchTag},                                                // tag prefix: "auth" ↔ tagged "authentication"
		{"auth", 4, 0.9, MatchPrefix},                                              //
		{"authenticaton", 4, fuzzy("authenticaton", "authentication"), MatchFuzzy}, // typo
		{"authentication", 2, 0.9, MatchPrefix},                                    // label is a prefix of the word
		{"sessionpool", 6, 1.0, MatchExact},                                        // separator-insensitive stem
		{"session_pool", 8, 1.0, MatchExact},                                       //
		{"backend/session_pool.py", 6, 1.0, MatchExact},                            // path
		{"session_pool.py", 6, 1.0, MatchExact},                                    //
	}
	for _, tt := range tests {
		got := f.Find(tt.query, 0)
		i := slices.IndexFunc(got, func(s Seed) bool { return s.Node == tt.node })
		if i < 0 {
			t.Errorf("%q: node %d (%s) not found in %v", tt.query, tt.node, g.Label(tt.node), got)
			continue
		}
		if d := got[i].Relevance - tt.want; d > 1e-6 || d < -1e-6 || got[i].Match != tt.match {
			t.Errorf("%q → %s: %v %v, want %v %v", tt.query, g.Label(tt.node), got[i].Relevance, got[i].Match, tt.want, tt.match)
		}
	}
	// Negative cases.
	for _, tt := range []struct {
		query string
		node  graph.NodeID
	}{
		{"newton", 5}, // "new" is shorter than MinStemLen
		{"auth", 7},
		{"qqqqqq", 4}, // below the fuzzy threshold
	} {
		for _, s := range f.Find(tt.query, 0) {
			if s.Node == tt.node {
				t.Errorf("%q must not match %s (%v)", tt.query, g.Label(tt.node), s)
			}
		}
	}
}

func sorted(s []uint32) []uint32 { slices.Sort(s); return s }

func TestMultiWordAndIdentifiers(t *testing.T) {
	g := build(t,
		node{label: "session.py", typ: graph.File},      // 0
		node{label: "session_pool.py", typ: graph.File}, // 1
		node{label: "pool_manager.py", typ: graph.File}, // 2
		node{label: "get_user_name"},                    // 3
		node{label: "user"},                             // 4
		node{label: "join"},                             // 5
		node{label: "path_join"},                        // 6
	)
	f := finder(t, g, false, nil)
	first := func(q string) graph.NodeID {
		got := f.Find(q, 0)
		if len(got) == 0 {
			t.Fatalf("%q: no seeds", q)
		}
		return got[0].Node
	}
	if n := first("session pool management"); n != 1 {
		t.Errorf("session pool management → %s", g.Label(n))
	}
	if n := first("getUserName"); n != 3 {
		t.Errorf("getUserName → %s", g.Label(n))
	}
	if n := first("os.path.join"); n != 6 {
		t.Errorf("os.path.join → %s", g.Label(n))
	}
	// Stopwords do not dilute: "the session pool" scores like "session pool".
	a, b := f.Find("the session pool", 0), f.Find("session pool", 0)
	if !slices.Equal(a, b) {
		t.Errorf("stopwords changed the result:\n%v\n%v", a, b)
	}
}

func TestCapAndDeterminism(t *testing.T) {
	nodes := make([]node, 500)
	for i := range nodes {
		nodes[i] = node{label: fmt.Sprintf("auth_%03d", i)}
	}
	g := build(t, nodes...)
	f := finder(t, g, false, func(o *Options) { o.MaxSeeds = 1000 }) // clamped to 200
	got := f.Find("auth", 0)
	if len(got) != MaxSeeds {
		t.Fatalf("got %d seeds, want the cap %d", len(got), MaxSeeds)
	}
	for i, s := range got {
		// All tie at the prefix score, so the order is by NodeID.
		if s.Node != graph.NodeID(i) || s.Relevance != 0.9 {
			t.Fatalf("seed %d = %v", i, s)
		}
	}
	if n := len(f.Find("auth", 7)); n != 7 {
		t.Errorf("maxSeeds 7 gave %d", n)
	}
}

func TestFindSemanticBlend(t *testing.T) {
	g, _ := graphtest.Backend()
	f := finder(t, g, true, nil)
	basic := f.Find("authentication", 0)
	blended := f.FindSemantic("authentication", 0)
	if len(blended) != len(basic) {
		t.Fatalf("re-rank changed the candidate set: %v vs %v", blended, basic)
	}
	nodes := []graph.NodeID{}
	for _, s := range basic {
		nodes = append(nodes, s.Node)
	}
	sem := make([]float32, len(nodes))
	f.sem.ScoreNodes("authentication", nodes, sem)
	for i, b := range basic {
		want := 0.6*b.Relevance + 0.4*sem[i]
		j := slices.IndexFunc(blended, func(s Seed) bool { return s.Node == b.Node })
		if d := blended[j].Relevance - want; d > 1e-6 || d < -1e-6 {
			t.Errorf("%s: blended %v, want 0.6·%v + 0.4·%v = %v", g.Label(b.Node), blended[j].Relevance, b.Relevance, sem[i], want)
		}
	}
	// Nothing in the cascade: the semantic index's synonym match seeds.
	g3 := build(t, node{label: "login_handler.py", typ: graph.File}, node{label: "render.py", typ: graph.File})
	f3 := finder(t, g3, true, nil)
	if got := f3.Find("authentication", 0); len(got) != 0 {
		t.Fatalf("cascade should not match: %v", got)
	}
	got := f3.FindSemantic("authentication", 0)
	if len(got) != 1 || got[0].Node != 0 || got[0].Match != MatchSemantic {
		t.Errorf("semantic fallback = %v, want login_handler.py", got)
	}
	// Without a semantic index FindSemantic is Find.
	f2 := finder(t, g, false, nil)
	if !slices.Equal(f2.FindSemantic("authentication", 0), basic) {
		t.Error("FindSemantic without an index must equal Find")
	}
}

func TestProperties(t *testing.T) {
	g := graphtest.PowerLaw(5000, 13000, 2)
	f := finder(t, g, true, nil)
	for _, q := range []string{"auth", "session handler", "AuthSessionService", "src/auth_user_8.py", "x", "", "cache validate encode", "zzzzzz", "authenticaton"} {
		for _, find := range []func(string, int) []Seed{f.Find, f.FindSemantic} {
			a := find(q, 0)
			if b := find(q, 0); !slices.Equal(a, b) {
				t.Fatalf("%q: not deterministic", q)
			}
			if len(a) > MaxSeeds {
				t.Fatalf("%q: %d seeds", q, len(a))
			}
			for i, s := range a {
				if !graph.IsFinite(s.Relevance) || s.Relevance <= 0 || s.Relevance > 1 || s.Match == MatchNone {
					t.Fatalf("%q: bad seed %v", q, s)
				}
				if i > 0 && (a[i-1].Relevance < s.Relevance || (a[i-1].Relevance == s.Relevance && a[i-1].Node >= s.Node)) {
					t.Fatalf("%q: not ordered at %d: %v %v", q, i, a[i-1], s)
				}
			}
		}
	}
}

func TestConcurrentFind(t *testing.T) {
	g := graphtest.PowerLaw(3000, 8000, 4)
	f := finder(t, g, true, nil)
	want := f.FindSemantic("auth token handler", 50)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if got := f.FindSemantic("auth token handler", 50); !slices.Equal(got, want) {
					t.Error("concurrent result differs")
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestOptionsValidate(t *testing.T) {
	g := build(t, node{label: "a"})
	for i, m := range []func(*Options){
		func(o *Options) { o.Exact = 0 },
		func(o *Options) { o.Prefix = 1.5 },
		func(o *Options) { o.FuzzyThreshold = float32(math.NaN()) },
		func(o *Options) { o.SemanticWeight = -0.1 },
		func(o *Options) { o.MaxSeeds = 0 },
		func(o *Options) { o.MinStemLen = 0 },
		func(o *Options) { o.MinRelevance = 1 },
	} {
		o := DefaultOptions()
		m(&o)
		if _, err := NewFinder(g, nil, o); err == nil {
			t.Errorf("case %d: expected an error", i)
		}
	}
	unfinal := graph.New()
	if _, err := NewFinder(unfinal, nil, DefaultOptions()); err != nil {
		t.Logf("empty graph: %v", err)
	}
}

func FuzzFind(f *testing.F) {
	g, _ := graphtest.Backend()
	fd := finder(f, g, true, nil)
	for _, s := range []string{"authentication", "auth.py", "a/b/c.py", "getUserName", "", "\xff\xfe", "the of and", "ação_ñ", strings.Repeat("x ", 200)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		for _, seeds := range [][]Seed{fd.Find(q, 0), fd.FindSemantic(q, 0)} {
			if len(seeds) > MaxSeeds {
				t.Fatalf("%d seeds", len(seeds))
			}
			for i, s := range seeds {
				if !g.Valid(s.Node) || !graph.IsFinite(s.Relevance) || s.Relevance <= 0 || s.Relevance > 1 {
					t.Fatalf("bad seed %+v", s)
				}
				if i > 0 && (seeds[i-1].Relevance < s.Relevance || (seeds[i-1].Relevance == s.Relevance && seeds[i-1].Node >= s.Node)) {
					t.Fatalf("not ordered: %v", seeds)
				}
			}
		}
	})
}
