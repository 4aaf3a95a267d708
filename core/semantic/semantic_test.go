package semantic

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

func TestHashTrigram(t *testing.T) {
	// FNV-1a/32("abc") = 0x1a47e90b; folded: 0x1a ^ 0x47e90b.
	if got, want := HashTrigram("abc"), uint32(0x1a^0x47e90b); got != want {
		t.Fatalf("HashTrigram(abc) = %#x, want %#x", got, want)
	}
	for _, s := range []string{"", "a", "xyz", "ção", "\xff\xfe\xfd"} {
		if h := HashTrigram(s); h > TrigramMask {
			t.Errorf("HashTrigram(%q) = %#x exceeds 24 bits", s, h)
		}
	}
}

func TestAppendTrigrams(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"db", []string{"db"}},
		{"abc", []string{"abc"}},
		{"abcd", []string{"abc", "bcd"}},
		{"ação", []string{"açã", "ção"}},
		{"aaaa", []string{"aaa", "aaa"}},
	}
	for _, tt := range tests {
		var want []uint32
		for _, g := range tt.want {
			want = append(want, HashTrigram(g))
		}
		if got := AppendTrigrams(nil, tt.in); !slices.Equal(got, want) {
			t.Errorf("AppendTrigrams(%q) = %v, want %v", tt.in, got, want)
		}
	}
	long := make([]byte, 500)
	for i := range long {
		long[i] = 'a' + byte(i%26)
	}
	if n := len(AppendTrigrams(nil, string(long))); n != maxGramRunes-2 {
		t.Errorf("long label gives %d grams, want %d", n, maxGramRunes-2)
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"session pool management", []string{"session", "pool", "management"}},
		{"Where is auth_handler.py?", []string{"where", "is", "auth_handler.py"}},
		{"os.path.join, then  OS.PATH.JOIN", []string{"os.path.join", "then"}},
		{"src/auth/login.py.", []string{"src/auth/login.py"}},
		{"  ", nil},
		{"(getUserName)", []string{"getusername"}},
	}
	for _, tt := range tests {
		if got := Words(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Words(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSplitIdentifier(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"getUserName", []string{"get", "user", "name"}},
		{"parseHTTPRequest", []string{"parse", "http", "request"}},
		{"session_pool.py", []string{"session", "pool"}},
		{"src/auth/login.py", []string{"src", "auth", "login"}},
		{"os.path.join", []string{"os", "path", "join"}},
		{"a_b", nil},
		{"Config::load", []string{"config", "load"}},
		{"kebab-case-name", []string{"kebab", "case", "name"}},
		{"v2Handler", []string{"v2", "handler"}},
	}
	for _, tt := range tests {
		if got := SplitIdentifier(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("SplitIdentifier(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStripExtensionAndCompact(t *testing.T) {
	for in, want := range map[string]string{
		"auth.py": "auth", "index.d.ts": "index.d", "os.path.join": "os.path.join",
		"Makefile": "Makefile", ".py": ".py", "a/b.c/d": "a/b.c/d", "x.": "x.",
	} {
		if got := StripExtension(in); got != want {
			t.Errorf("StripExtension(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Compact("Session_Pool-2.py"); got != "sessionpool2py" {
		t.Errorf("Compact = %q", got)
	}
}

func TestSynonymExpander(t *testing.T) {
	def, err := NewSynonymExpander(DefaultSynonymGroups())
	if err != nil {
		t.Fatal(err)
	}
	if def.NumGroups() != 15 {
		t.Errorf("default groups = %d, want 15", def.NumGroups())
	}
	if !def.AreSynonyms("Login", "authentication") || !def.AreSynonyms("db", "persistence") {
		t.Error("expected code-vocabulary synonyms")
	}
	if !def.AreSynonyms("custo", "price") || !def.AreSynonyms("fornecedor", "supplier") {
		t.Error("expected Portuguese domain synonyms")
	}
	if def.AreSynonyms("auth", "database") {
		t.Error("auth and database are not synonyms")
	}
	if got := def.Expand("zebra"); got != nil {
		t.Errorf("Expand(zebra) = %v", got)
	}
	if got := def.Expand("DB"); slices.Contains(got, "db") || !slices.Contains(got, "database") {
		t.Errorf("Expand(DB) = %v", got)
	}
	if _, err := NewSynonymExpander([][]string{{"a", "b"}, {"c", "B"}}); err == nil {
		t.Error("a term in two groups must be rejected")
	}
	s, err := NewSynonymExpander([][]string{{"a", "a", "b"}, {"lonely"}})
	if err != nil || s.NumGroups() != 1 || s.Expand("lonely") != nil {
		t.Errorf("dedupe/singleton handling: %v %d %v", err, s.NumGroups(), s.Expand("lonely"))
	}
}

// labels builds a finalized graph of the given labels chained by edges
// i → i+1 inside each group of consecutive labels (groups split by "").
func labels(t testing.TB, ls ...string) *graph.Graph {
	t.Helper()
	g := graph.New()
	prev := graph.NoNode
	for i, l := range ls {
		if l == "" {
			prev = graph.NoNode
			continue
		}
		id, err := g.AddNode(graph.Node{ExternalID: fmt.Sprintf("n%d", i), Label: l})
		if err != nil {
			t.Fatal(err)
		}
		if prev != graph.NoNode {
			if err := g.AddEdge(graph.Edge{Source: prev, Target: id, Relation: "calls", Weight: 1}); err != nil {
				t.Fatal(err)
			}
		}
		prev = id
	}
	g.Finalize()
	return g
}

func TestNgramIndex(t *testing.T) {
	g := labels(t, "auth.py", "authentication_service", "session.py", "database.py", "AUTH.py")
	x := BuildNgramIndex(g)
	if c := x.Cosine("auth.py", 0); c < 0.999 {
		t.Errorf("identical label cosine = %v", c)
	}
	if c := x.Cosine("AUTH.PY", 4); c < 0.999 {
		t.Errorf("matching is case-insensitive: %v", c)
	}
	if c := x.Cosine("zzzz", 2); c != 0 {
		t.Errorf("unrelated cosine = %v", c)
	}
	ps := x.Postings(HashTrigram("aut"))
	if !slices.Equal(ps, []graph.NodeID{0, 1, 4}) {
		t.Errorf("postings(aut) = %v", ps)
	}
	if x.DistinctTrigrams(2) != len("session.py")-2 {
		t.Errorf("distinct(session.py) = %d", x.DistinctTrigrams(2))
	}
}

func newIndex(t testing.TB, g *graph.Graph, mod func(*Options)) *Index {
	t.Helper()
	o := DefaultOptions()
	if mod != nil {
		mod(&o)
	}
	ix, err := New(g, o)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func TestQueryRanksLexicalMatches(t *testing.T) {
	g := labels(t, "authentication_service", "auth.py", "session.py", "", "database.py", "render_view")
	ix := newIndex(t, g, func(o *Options) { o.CoOccurrenceWeight = 0 })
	got := ix.Query("authentication", 10)
	if len(got) < 2 || got[0].Node != 0 {
		t.Fatalf("Query(authentication) = %v, want node 0 first", got)
	}
	for _, s := range got {
		if s.Node == 5 {
			t.Errorf("render_view must not match: %v", got)
		}
	}
	// "db" reaches database.py only through the synonym group, so at most
	// SynonymWeight.
	got = ix.Query("db", 10)
	if len(got) == 0 || got[0].Node != 3 {
		t.Fatalf("Query(db) = %v, want database.py", got)
	}
	if got[0].Score > ix.Options().SynonymWeight+1e-6 {
		t.Errorf("synonym match scored %v > SynonymWeight", got[0].Score)
	}
	if ix.Query("", 10) != nil || ix.Query("auth", 0) != nil {
		t.Error("empty query or topK 0 must return nothing")
	}
}

func TestScoreNodesAgreesWithQueryPhase1(t *testing.T) {
	g := graphtest.PowerLaw(2000, 5000, 3)
	ix := newIndex(t, g, func(o *Options) { o.CoOccurrenceWeight = 0 })
	for _, q := range []string{"auth session", "login", "ParseSchema", "config_loader.py"} {
		res := ix.Query(q, 50)
		nodes := make([]graph.NodeID, len(res))
		for i, r := range res {
			nodes[i] = r.Node
		}
		out := make([]float32, len(nodes))
		ix.ScoreNodes(q, nodes, out)
		for i, r := range res {
			if d := out[i] - r.Score; d > 1e-5 || d < -1e-5 {
				t.Errorf("%q node %d: ScoreNodes %v, Query %v", q, r.Node, out[i], r.Score)
			}
		}
	}
}

func TestCoOccurrence(t *testing.T) {
	// Two disjoint rings of 12: walks never cross between them.
	g := graph.New()
	for i := 0; i < 24; i++ {
		if _, err := g.AddNode(graph.Node{ExternalID: fmt.Sprint(i), Label: fmt.Sprintf("node%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	for r := 0; r < 2; r++ {
		for i := 0; i < 12; i++ {
			a, b := graph.NodeID(r*12+i), graph.NodeID(r*12+(i+1)%12)
			if err := g.AddEdge(graph.Edge{Source: a, Target: b, Relation: "calls", Weight: 1}); err != nil {
				t.Fatal(err)
			}
		}
	}
	g.Finalize()
	o := DefaultOptions()
	c := BuildCoOccurrence(g, o)
	if !c.Enabled() {
		t.Fatal("expected enabled")
	}
	near, far := c.Similarity(0, 2), c.Similarity(0, 18)
	if far != 0 || near <= 0 {
		t.Errorf("similarity same ring %v, other ring %v", near, far)
	}
	if c.Similarity(3, 5) != c.Similarity(5, 3) {
		t.Error("similarity must be symmetric")
	}
	for i := graph.NodeID(0); i < 24; i++ {
		cols, vals := c.Row(i)
		if !slices.IsSorted(cols) {
			t.Fatalf("row %d not sorted", i)
		}
		for k, v := range vals {
			if !(v > 0) || !graph.IsFinite(v) || cols[k] == i {
				t.Fatalf("row %d has bad entry %d:%v", i, cols[k], v)
			}
		}
	}
	c2 := BuildCoOccurrence(g, o)
	if !cmp.Equal(c, c2, cmp.AllowUnexported(CoOccurrence{})) {
		t.Error("co-occurrence build is not deterministic")
	}
	o.CoOccurrenceMaxNodes = 10
	if c3 := BuildCoOccurrence(g, o); c3.Enabled() || c3.Similarity(0, 1) != 0 {
		t.Error("co-occurrence must be disabled above the node limit")
	}
}

func TestCoOccurrenceSurfacesUnrelatedNames(t *testing.T) {
	// login_form is wired to zeta and omega, whose names share nothing with
	// the query; a far-away chain holds the other nodes.
	g := labels(t, "login_form", "zeta", "omega", "", "alpha", "beta", "gamma", "delta")
	ix := newIndex(t, g, nil)
	got := ix.Query("login form", 10)
	found := map[graph.NodeID]bool{}
	for _, s := range got {
		found[s.Node] = true
	}
	if !found[0] || !(found[1] || found[2]) {
		t.Errorf("Query = %v: want login_form and a co-occurring neighbour", got)
	}
	if found[4] || found[7] {
		t.Errorf("disconnected unrelated nodes surfaced: %v", got)
	}
}

func TestQueryProperties(t *testing.T) {
	g := graphtest.PowerLaw(3000, 8000, 9)
	ix := newIndex(t, g, nil)
	queries := []string{"auth", "session pool", "handleRequest", "db", "xyzzy", "src/auth_token_8.py", "validate.encode", "ação"}
	for _, q := range queries {
		for _, k := range []int{1, 7, 40} {
			a := ix.Query(q, k)
			b := ix.Query(q, k)
			if !slices.Equal(a, b) {
				t.Fatalf("%q: not deterministic", q)
			}
			if len(a) > k {
				t.Fatalf("%q: %d results > topK %d", q, len(a), k)
			}
			for i, s := range a {
				if !graph.IsFinite(s.Score) || s.Score < ix.Options().MinScore || s.Score > 1 {
					t.Fatalf("%q: score %v out of range", q, s.Score)
				}
				if i > 0 && graph.CompareScored(a[i-1], s) >= 0 {
					t.Fatalf("%q: results not strictly ordered: %v", q, a)
				}
			}
		}
	}
}

func TestConcurrentQueries(t *testing.T) {
	g := graphtest.PowerLaw(2000, 5000, 5)
	ix := newIndex(t, g, nil)
	want := ix.Query("auth handler", 20)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if got := ix.Query("auth handler", 20); !slices.Equal(got, want) {
					t.Error("concurrent query differs")
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestOptionsValidate(t *testing.T) {
	bad := []func(*Options){
		func(o *Options) { o.WalkLength = 1 },
		func(o *Options) { o.Window = 0 },
		func(o *Options) { o.NgramWeight = 0 },
		func(o *Options) { o.CoOccurrenceWeight = 2 },
		func(o *Options) { o.SynonymWeight = -1 },
		func(o *Options) { o.CandidateFactor = 0 },
		func(o *Options) { o.MinScore = 1 },
		func(o *Options) { o.Synonyms = [][]string{{"a", "b"}, {"b", "c"}} },
	}
	g := labels(t, "a")
	for i, m := range bad {
		o := DefaultOptions()
		m(&o)
		if _, err := New(g, o); err == nil {
			t.Errorf("case %d: expected an error", i)
		}
	}
	if err := DefaultOptions().Validate(); err != nil {
		t.Error(err)
	}
}

// Query's phase 2 is the documented blend: (wn·lexical + wc·co)/(wn+wc),
// co = mean over the anchors a of score(a)·cos(ppmi_a, ppmi_c).
func TestQueryPhase2Formula(t *testing.T) {
	g := graphtest.PowerLaw(1500, 4000, 17)
	ix := newIndex(t, g, nil)
	lex := newIndex(t, g, func(o *Options) { o.CoOccurrenceWeight = 0 })
	for _, q := range []string{"auth session", "cache", "ParseSchemaModel"} {
		k := 10
		phase1 := lex.Query(q, ix.opts.CandidateFactor*k)
		anchors := phase1[:min(ix.opts.Anchors, len(phase1))]
		lexical := map[graph.NodeID]float32{}
		for _, s := range phase1 {
			lexical[s.Node] = s.Score
		}
		for _, got := range ix.Query(q, k) {
			var co float32
			for _, a := range anchors {
				co += a.Score * ix.Cooc.Similarity(a.Node, got.Node)
			}
			co /= float32(len(anchors))
			want := (0.6*lexical[got.Node] + 0.4*min(co, 1)) / 1.0
			if d := want - got.Score; d > 1e-4 || d < -1e-4 {
				t.Errorf("%q node %d: %v, want %v", q, got.Node, got.Score, want)
			}
		}
	}
}
