package seek

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
	"github.com/m1nd-go/m1nd/core/temporal"
	"github.com/m1nd-go/m1nd/core/testcorpus"
)

func buildFixture(t testing.TB, mutate func(*Options)) (*Index, *graph.Graph) {
	t.Helper()
	g, read := fixtureGraph(t)
	o := DefaultOptions()
	o.ReadFile = read
	if mutate != nil {
		mutate(&o)
	}
	x, err := Build(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	return x, g
}

func ids(g *graph.Graph, hs []Hit) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = g.ExternalID(h.Node)
	}
	return out
}

func TestBuildStats(t *testing.T) {
	x, g := buildFixture(t, nil)
	st := x.Stats()
	if st.Nodes != g.NumNodes() || st.FilesRead != len(fixtureFiles) || st.FilesSkipped != 0 || st.Terms == 0 || st.Postings == 0 {
		t.Errorf("stats %+v", st)
	}
	if !x.HasBody() || x.Graph() != g || x.Generation() != g.Generation() {
		t.Error("accessors disagree with the build")
	}
}

func TestSearchTop(t *testing.T) {
	x, g := buildFixture(t, nil)
	tests := []struct {
		query string
		p     Params
		want  string // the expected best hit
	}{
		{"code that validates user credentials", Params{Types: []graph.NodeType{graph.Function}}, "file::backend/auth.py::AuthService::validate_credentials"},
		{"where is the password hashed", Params{}, "file::backend/crypto.py::hash_password"},
		{"charge a credit card payment", Params{Types: []graph.NodeType{graph.Function}}, "file::backend/payments.py::charge"},
		{"bearer token from the authorization header", Params{}, "file::web/server.go::parseHeaderToken"},
		{"session expiry lookup", Params{Types: []graph.NodeType{graph.File}}, "file::backend/session.py"},
		// Body-only evidence: "salted" appears only in a comment.
		{"salted sha256", Params{}, "file::backend/crypto.py::hash_password"},
		// A path in the query wins over words.
		{"something is off in web/router.go", Params{Types: []graph.NodeType{graph.File}}, "file::web/router.go"},
		// Stack traces: the innermost frame's entity leads.
		{testcorpus.PythonTrace, Params{GraphRerank: true, Types: []graph.NodeType{graph.Function}}, "file::backend/auth.py::AuthService::validate_credentials"},
		{testcorpus.GoTrace, Params{GraphRerank: true}, "file::web/server.go::parseHeaderToken"},
	}
	for _, tt := range tests {
		name := tt.query
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			r := x.SearchText(tt.query, tt.p)
			if len(r.Hits) == 0 || g.ExternalID(r.Hits[0].Node) != tt.want {
				t.Fatalf("top = %v, want %s first", ids(g, r.Hits), tt.want)
			}
		})
	}
}

func TestSearchTraceEvidence(t *testing.T) {
	x, g := buildFixture(t, nil)
	r := x.SearchText(testcorpus.PythonTrace, Params{TopK: 50})
	byID := map[string]Hit{}
	for _, h := range r.Hits {
		byID[g.ExternalID(h.Node)] = h
	}
	file := byID["file::backend/auth.py"]
	if file.Breakdown.StackTrace < 1 || file.Frame == nil || file.Frame.Line != 14 {
		t.Errorf("auth.py: %+v frame %+v", file.Breakdown, file.Frame)
	}
	inner := byID["file::backend/auth.py::AuthService::validate_credentials"]
	outer := byID["file::backend/auth.py::AuthService"]
	if !(inner.Breakdown.StackTrace > outer.Breakdown.StackTrace) {
		t.Errorf("innermost entity %v should outweigh its class %v", inner.Breakdown.StackTrace, outer.Breakdown.StackTrace)
	}
	// views.py is not in the graph: the frame places nothing, and its
	// function name "post" names no node.
	for id, h := range byID {
		if h.Frame != nil && strings.Contains(h.Frame.Path, "views.py") {
			t.Errorf("%s attributed to views.py", id)
		}
	}
	if len(r.Frames) != 3 || len(r.Terms) == 0 || r.Candidates == 0 {
		t.Errorf("result metadata: %d frames, %d terms, %d candidates", len(r.Frames), len(r.Terms), r.Candidates)
	}
}

func TestMatchPath(t *testing.T) {
	x, _ := buildFixture(t, nil)
	tests := []struct {
		in   string
		want []pathMatch
	}{
		{"/srv/app/backend/auth.py", []pathMatch{{"backend/auth.py", 1}}},
		{"backend/auth.py", []pathMatch{{"backend/auth.py", 1}}},
		{"auth.py", []pathMatch{{"backend/auth.py", 0.5}}},
		{"other/auth.py", []pathMatch{{"backend/auth.py", 0.5}}},
		{"/x/web/server.go", []pathMatch{{"web/server.go", 1}}},
		{"nothing.py", nil},
	}
	for _, tt := range tests {
		if got := x.matchPath(tt.in); !cmp.Equal(got, tt.want, cmp.AllowUnexported(pathMatch{})) {
			t.Errorf("matchPath(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestFilters(t *testing.T) {
	x, g := buildFixture(t, nil)
	r := x.SearchText("user session token", Params{TopK: 100, Scope: "./backend/", Types: []graph.NodeType{graph.Function, graph.Class}, GraphRerank: true})
	if len(r.Hits) == 0 {
		t.Fatal("no hits")
	}
	for _, h := range r.Hits {
		if !strings.HasPrefix(g.SourcePath(h.Node), "backend/") {
			t.Errorf("%s outside scope", g.ExternalID(h.Node))
		}
		if ty := g.Type(h.Node); ty != graph.Function && ty != graph.Class {
			t.Errorf("%s has type %v", g.ExternalID(h.Node), ty)
		}
	}
	// The scope names a directory node too.
	r = x.SearchText("backend", Params{Scope: "backend", Types: []graph.NodeType{graph.Directory}})
	if len(r.Hits) != 1 || g.ExternalID(r.Hits[0].Node) != "dir::backend" {
		t.Errorf("directory scope: %v", ids(g, r.Hits))
	}
	// min_score drops weak hits; top_k bounds.
	all := x.SearchText("user password token session", Params{TopK: 100})
	some := x.SearchText("user password token session", Params{TopK: 100, MinScore: 0.5})
	if len(some.Hits) == 0 || len(some.Hits) >= len(all.Hits) {
		t.Errorf("min_score 0.5 kept %d of %d", len(some.Hits), len(all.Hits))
	}
	for _, h := range some.Hits {
		if h.Score < 0.5 {
			t.Errorf("hit below min_score: %v", h.Score)
		}
	}
	if top := x.SearchText("user password token session", Params{TopK: 2}); len(top.Hits) != 2 {
		t.Errorf("top_k 2 gave %d", len(top.Hits))
	}
}

func TestGraphRerank(t *testing.T) {
	x, g := buildFixture(t, nil)
	off := x.SearchText("validate credentials", Params{TopK: 100})
	for _, h := range off.Hits {
		if b := h.Breakdown; b.Graph != 0 || b.PageRank != 0 || b.CoChange != 0 {
			t.Errorf("graph_rerank off but %s has %+v", g.ExternalID(h.Node), b)
		}
	}
	on := x.SearchText("validate credentials", Params{TopK: 100, GraphRerank: true})
	got := map[string]Breakdown{}
	for _, h := range on.Hits {
		got[g.ExternalID(h.Node)] = h.Breakdown
	}
	// The file gains from its entity; the callee hash_password from its
	// caller; nodes reached only through the graph appear.
	if got["file::backend/auth.py"].Graph <= 0 {
		t.Errorf("auth.py got no file aggregation: %+v", got["file::backend/auth.py"])
	}
	if b, ok := got["file::backend/crypto.py::hash_password"]; !ok || b.Graph <= 0 {
		t.Errorf("hash_password got no spread: %+v", b)
	}
	if on.Candidates <= off.Candidates {
		t.Errorf("fusion reached no new nodes: %d vs %d", on.Candidates, off.Candidates)
	}
	// The score is the squashed sum of the breakdown.
	for _, h := range on.Hits {
		if d := math.Abs(float64(h.Score - squash(h.Breakdown.Total()))); d > 1e-6 {
			t.Errorf("%s: score %v, breakdown total %v", g.ExternalID(h.Node), h.Score, h.Breakdown.Total())
		}
	}
}

type fakeCoChange map[graph.NodeID][]temporal.Partner

func (f fakeCoChange) Partners(n graph.NodeID, k int) []temporal.Partner {
	p := f[n]
	return p[:min(k, len(p))]
}

func TestCoChange(t *testing.T) {
	x, g := buildFixture(t, nil)
	auth := mustLookup(t, g, "file::backend/auth.py")
	pay := mustLookup(t, g, "file::backend/payments.py")
	cc := fakeCoChange{auth: {{Node: pay, Strength: 0.9, Observed: 4}}}
	r := x.SearchText("validate credentials", Params{TopK: 100, GraphRerank: true, CoChange: cc})
	for _, h := range r.Hits {
		if h.Node == pay {
			if h.Breakdown.CoChange <= 0 {
				t.Errorf("payments.py breakdown %+v", h.Breakdown)
			}
			return
		}
	}
	t.Errorf("co-change partner payments.py not lifted into the results: %v", ids(g, r.Hits))
}

func TestDeterminism(t *testing.T) {
	// Same graph, different parallelism: identical results, also when
	// searched concurrently.
	x1, g := buildFixture(t, func(o *Options) { o.Parallelism = 1 })
	x2, _ := buildFixture(t, func(o *Options) { o.Parallelism = 4 })
	queries := []string{"validate user credentials", testcorpus.PythonTrace, testcorpus.GoTrace, "session token", "zzz unknown words", ""}
	for _, q := range queries {
		want := x1.SearchText(q, Params{TopK: 50, GraphRerank: true})
		var wg sync.WaitGroup
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got := x2.SearchText(q, Params{TopK: 50, GraphRerank: true})
				if d := cmp.Diff(want, got, cmp.AllowUnexported()); d != "" {
					t.Errorf("query %.30q differs (-parallelism 1 +4):\n%s", q, d)
				}
			}()
		}
		wg.Wait()
	}
	_ = g
}

func TestTiesByNodeID(t *testing.T) {
	// Two identical nodes score the same; the lower NodeID comes first.
	g := graph.New()
	a := mustAdd(t, g, graph.Node{ExternalID: "a", Label: "token_cache"})
	b := mustAdd(t, g, graph.Node{ExternalID: "b", Label: "token_cache"})
	g.Finalize()
	x, err := Build(context.Background(), g, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	r := x.SearchText("token cache", Params{})
	if len(r.Hits) != 2 || r.Hits[0].Node != a || r.Hits[1].Node != b || r.Hits[0].Score != r.Hits[1].Score {
		t.Errorf("hits %+v", r.Hits)
	}
}

func TestFiniteScores(t *testing.T) {
	x, g := buildFixture(t, nil)
	queries := []string{
		strings.Repeat("validate ", 10000),
		strings.Repeat(testcorpus.PythonTrace, 50),
		"\x00\xff\xfe",
		"a b c d e f g",
		strings.Repeat("x", 100000),
	}
	for _, q := range queries {
		r := x.SearchText(q, Params{TopK: 1000, GraphRerank: true})
		for _, h := range r.Hits {
			b := h.Breakdown
			for _, v := range []float32{h.Score, b.Lexical, b.StackTrace, b.Graph, b.PageRank, b.CoChange} {
				if !graph.IsFinite(v) || v < 0 {
					t.Fatalf("%s: non-finite or negative %+v score %v", g.ExternalID(h.Node), b, h.Score)
				}
			}
			if h.Score >= 1 {
				t.Fatalf("score %v not below 1", h.Score)
			}
		}
	}
}

func TestSummaries(t *testing.T) {
	x, g := buildFixture(t, nil)
	nodes := []string{
		"file::backend/auth.py",
		"file::backend/auth.py::AuthService",
		"file::backend/auth.py::AuthService::validate_credentials",
		"file::backend/auth.py::AuthService::login",
		"file::web/server.go::parseHeaderToken",
		"file::backend/crypto.py::hash_password",
		"dir::backend",
	}
	want := []string{
		"Authentication: credential checks and login.",
		"Validates user credentials and opens sessions.",
		"Check the password against the stored hash.",
		"",
		"parseHeaderToken extracts the bearer token from the Authorization header.",
		"Salted SHA-256 of the password.",
		"",
	}
	var in []graph.NodeID
	for _, n := range nodes {
		in = append(in, mustLookup(t, g, n))
	}
	if d := cmp.Diff(want, x.Summaries(in)); d != "" {
		t.Errorf("summaries (-want +got):\n%s", d)
	}
	bare, err := Build(context.Background(), g, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if got := bare.Summaries(in); got[0] != "" || len(got) != len(in) {
		t.Errorf("index without ReadFile summarised: %q", got)
	}
}

func TestBuildErrors(t *testing.T) {
	g := graph.New()
	mustAdd(t, g, graph.Node{ExternalID: "a", Label: "a"})
	if _, err := Build(context.Background(), g, DefaultOptions()); !errors.Is(err, graph.ErrNotFinalized) {
		t.Errorf("unfinalized graph: %v", err)
	}
	if _, err := Build(context.Background(), nil, DefaultOptions()); err == nil {
		t.Error("nil graph accepted")
	}
	g.Finalize()
	bad := []func(*Options){
		func(o *Options) { o.K1 = 0 },
		func(o *Options) { o.K1 = float32(math.NaN()) },
		func(o *Options) { o.Fields[Body].B = 2 },
		func(o *Options) { o.Fields[Label].Weight = -1 },
		func(o *Options) { o.EntityPathWeight = float32(math.Inf(1)) },
		func(o *Options) { o.Fusion.SpreadAlpha = -1 },
		func(o *Options) { o.MaxEntityTerms = -1 },
	}
	for i, m := range bad {
		o := DefaultOptions()
		m(&o)
		if _, err := Build(context.Background(), g, o); err == nil {
			t.Errorf("bad options %d accepted", i)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Build(ctx, g, DefaultOptions()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled build: %v", err)
	}
}

func TestUnreadableFiles(t *testing.T) {
	g, read := fixtureGraph(t)
	o := DefaultOptions()
	o.MaxFileBytes = 300 // most fixture files are larger
	o.ReadFile = func(p string) ([]byte, error) {
		if p == "backend/crypto.py" {
			return nil, fmt.Errorf("permission denied")
		}
		if p == "web/router.go" {
			return []byte("binary\x00data"), nil
		}
		return read(p)
	}
	x, err := Build(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	st := x.Stats()
	if st.FilesRead+st.FilesSkipped != len(fixtureFiles) || st.FilesSkipped < 2 {
		t.Errorf("stats %+v", st)
	}
	// Labels still match without bodies.
	if r := x.SearchText("hash password", Params{}); len(r.Hits) == 0 || g.ExternalID(r.Hits[0].Node) != "file::backend/crypto.py::hash_password" {
		t.Errorf("hits %v", ids(g, r.Hits))
	}
}

func TestEmptyGraph(t *testing.T) {
	g := graph.New()
	g.Finalize()
	x, err := Build(context.Background(), g, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r := x.SearchText(testcorpus.PythonTrace, Params{GraphRerank: true}); len(r.Hits) != 0 {
		t.Errorf("hits on an empty graph: %+v", r.Hits)
	}
}

func TestPowerLawRecall(t *testing.T) {
	g := graphtest.PowerLaw(10000, 40000, 7)
	x, err := Build(context.Background(), g, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	// Every function label is found first by its own words plus its
	// numeric suffix identifier.
	for i := 1; i < 10000; i += 997 {
		id := graph.NodeID(i)
		if g.Type(id) != graph.Function {
			continue
		}
		label := g.Label(id)
		r := x.SearchText(label, Params{TopK: 5, GraphRerank: true})
		if len(r.Hits) == 0 || r.Hits[0].Node != id {
			t.Errorf("%q: top %v", label, ids(g, r.Hits))
		}
	}
}

func TestComponentEvidence(t *testing.T) {
	x, g := buildFixture(t, nil)
	// "web: ..." names the web directory: its files get evidence even
	// where the words are weak, and nothing outside it does.
	r := x.SearchText("web: reading the form", Params{TopK: 100, GraphRerank: true})
	got := map[string]Breakdown{}
	for _, h := range r.Hits {
		got[g.ExternalID(h.Node)] = h.Breakdown
	}
	for _, f := range []string{"file::web/server.go", "file::web/router.go"} {
		if got[f].StackTrace < componentFile*0.99*0.99 {
			t.Errorf("%s: %+v", f, got[f])
		}
	}
	for id, b := range got {
		if !strings.HasPrefix(id, "file::web/") && b.StackTrace > 0 {
			t.Errorf("%s outside the component got %+v", id, b)
		}
	}
	// A component that is a file stem, and one that names nothing.
	if fs := x.componentFiles("crypto"); len(fs) != 1 || g.ExternalID(fs[0]) != "file::backend/crypto.py" {
		t.Errorf("stem component: %v", fs)
	}
	if fs := x.componentFiles("frontend"); len(fs) != 0 {
		t.Errorf("unknown component matched %v", fs)
	}
	// "web/handlers" names no directory: its parts count.
	if fs := x.componentFiles("web/handlers"); len(fs) != 2 {
		t.Errorf("web/handlers matched %d files, want the 2 of web/", len(fs))
	}
	// "backend" covers 6 of 11 files: too broad to mean anything.
	if fs := x.componentFiles("backend"); len(fs) != 0 {
		t.Errorf("backend matched %d files", len(fs))
	}
}

func TestKindPrior(t *testing.T) {
	x, g := buildFixture(t, nil)
	test := mustLookup(t, g, "file::tests/test_auth.py::test_login_rejects_bad_password")
	dir := mustLookup(t, g, "dir::backend")
	prior := func(q string, rerank bool) map[graph.NodeID]float32 {
		out := map[graph.NodeID]float32{}
		for _, h := range x.SearchText(q, Params{TopK: 100, GraphRerank: rerank}).Hits {
			out[h.Node] = h.Prior
		}
		return out
	}
	p := prior("login rejects bad password backend", true)
	if p[test] != 0.3 || p[dir] != 0.8 {
		t.Errorf("priors: test %v, dir %v; want 0.3 (TestPrior), 0.8 (KindPrior)", p[test], p[dir])
	}
	if p := prior("login rejects bad password tests", true); p[test] != 1 {
		t.Errorf("a query about tests still discounts them: %v", p[test])
	}
	// A fix report whose body mentions the test it added is about the
	// code, not the test.
	if p := prior("login rejects bad password backend\n\nAdded a test.", true); p[test] != 0.3 {
		t.Errorf("a test word in the body lifted the test discount: %v", p[test])
	}
	for _, h := range x.SearchText("login rejects bad password tests", Params{TopK: 100, GraphRerank: true, ExcludeTests: true}).Hits {
		if x.kind[h.Node]&kindTest != 0 {
			t.Errorf("ExcludeTests kept %s", g.ExternalID(h.Node))
		}
	}
	if p := prior("login rejects bad password backend", false); p[test] != 1 || p[dir] != 1 {
		t.Errorf("graph_rerank off applied priors: %v %v", p[test], p[dir])
	}
}

func TestIsStubPath(t *testing.T) {
	for p, want := range map[string]bool{
		"types/index.d.ts": true, "src/werkzeug/datastructures.pyi": true, "lib/a.d.mts": true,
		"src/index.ts": false, "src/dates.ts": false, "app.py": false, "x.d.go": false,
	} {
		if got := isStubPath(p); got != want {
			t.Errorf("isStubPath(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestNothingMatched: report words are used when nothing else is left,
// and a query that matches nothing at all gets the central code files at
// a token score.
func TestNothingMatched(t *testing.T) {
	x, g := buildFixture(t, nil)
	// Every word is a report word; "get" is what session.py's lookup does.
	if r := x.SearchText("fix: get issue", Params{TopK: 3, GraphRerank: true}); len(r.Hits) == 0 || !strings.Contains(g.ExternalID(r.Hits[0].Node), "session.py") {
		t.Errorf("report words only: %v", ids(g, r.Hits))
	}
	r := x.SearchText("Fix typo", Params{TopK: 100, GraphRerank: true})
	if r.Candidates != 0 || len(r.Hits) == 0 {
		t.Fatalf("typo: %d candidates, %d hits", r.Candidates, len(r.Hits))
	}
	for _, h := range r.Hits {
		if g.Type(h.Node) != graph.File || h.Score > 0.03 || x.kind[h.Node] != 0 {
			t.Errorf("typo hit %s: type %v, score %v, kind %d", g.ExternalID(h.Node), g.Type(h.Node), h.Score, x.kind[h.Node])
		}
	}
	if r := x.SearchText("Fix typo", Params{TopK: 100}); len(r.Hits) != 0 {
		t.Errorf("without graph fusion a query matching nothing returned %v", ids(g, r.Hits))
	}
}

func TestExpansion(t *testing.T) {
	x, g := buildFixture(t, nil)
	// "authentication" is in no document; its synonym and abbreviation
	// "auth" is (backend/auth.py, AuthService).
	r := x.SearchText("authentication service", Params{TopK: 5})
	if len(r.Hits) == 0 || !strings.Contains(g.ExternalID(r.Hits[0].Node), "auth") {
		t.Fatalf("hits %v", ids(g, r.Hits))
	}
	var exp []WeightedTerm
	var service float32
	for _, wt := range r.Terms {
		if wt.From != "" {
			exp = append(exp, wt)
		}
		if wt.Term == "servic" {
			service = wt.Weight
		}
	}
	if len(exp) == 0 || exp[0].Term != "auth" || exp[0].From != "authentication" {
		t.Errorf("expansions %+v", exp)
	}
	for _, e := range exp {
		if e.Weight <= 0 || e.Weight > service*10 {
			t.Errorf("expansion weight %+v", e)
		}
	}
	// Long queries are not expanded.
	long := x.SearchText(strings.Repeat("authentication alpha beta gamma delta epsilon zeta theta iota kappa omicron sigma omega upsilon ", 2), Params{})
	for _, wt := range long.Terms {
		if wt.From != "" {
			t.Errorf("long query expanded: %+v", wt)
		}
	}
}

// BuildFrom takes the body documents of files whose stamp and nodes did
// not change from the previous index (no read), and the index it builds is
// the one Build makes of the same graph — also when a file changed, gained
// an entity (every later node's ID moves) and another vanished.
func TestBuildFromReusesUnchangedBodies(t *testing.T) {
	files := maps.Clone(fixtureFiles)
	ents := maps.Clone(testcorpus.Entities)
	stamps := map[string]string{}
	for p := range files {
		stamps[p] = "v1"
	}
	reads := map[string]int{}
	options := func(read func(string) ([]byte, error)) Options {
		o := DefaultOptions()
		o.ReadFile = func(p string) ([]byte, error) { reads[p]++; return read(p) }
		o.FileStamp = func(p string) (string, bool) { s, ok := stamps[p]; return s, ok }
		o.Parallelism = 1 // reads is not locked
		return o
	}
	defer func(n uint32) { metaCutEvery = n }(metaCutEvery)
	metaCutEvery = 1 // a metadata chunk per file: the patch moves most of them
	g1, read1 := fixtureGraphOf(t, files, ents)
	x1, err := BuildFrom(context.Background(), g1, options(read1), nil)
	if err != nil {
		t.Fatal(err)
	}

	// backend/auth.py gains a function; web/server.go vanishes.
	files["backend/auth.py"] += "\n\ndef revoke_token(token):\n    \"\"\"Revoke a session token.\"\"\"\n    return SessionStore().drop(token)\n"
	n := uint32(strings.Count(files["backend/auth.py"], "\n"))
	ents["backend/auth.py"] = append(slices.Clone(ents["backend/auth.py"]), testcorpus.Entity{Name: "revoke_token", Kind: testcorpus.Function, Start: int(n - 2), End: int(n)})
	stamps["backend/auth.py"] = "v2"
	delete(files, "web/server.go")
	delete(ents, "web/server.go")
	g2, read2 := fixtureGraphOf(t, files, ents)
	clear(reads)
	x2, err := BuildFrom(context.Background(), g2, options(read2), x1.Bodies())
	if err != nil {
		t.Fatal(err)
	}
	if len(reads) != 1 || reads["backend/auth.py"] != 1 {
		t.Errorf("files read %v, want only the changed one", reads)
	}
	if st := x2.Stats(); st.FilesReused != len(files)-1 {
		t.Errorf("files reused %d, want %d", st.FilesReused, len(files)-1)
	}
	// The metadata of the nodes the patch did not change is not
	// tokenised again either, though most of them moved: only auth.py's
	// chunk and the one holding the directories differ.
	if got, chunks := int(x2.metaReused.Load()), len(x2.metaJobs()); got < chunks-2 {
		t.Errorf("metadata chunks reused %d of %d, want all but 2", got, chunks)
	}
	fresh, err := Build(context.Background(), g2, options(read2))
	if err != nil {
		t.Fatal(err)
	}
	same := func(a, b *Index) string {
		sa, sb := a.Stats(), b.Stats()
		sa.Elapsed, sb.Elapsed, sa.FilesReused, sb.FilesReused = 0, 0, 0, 0
		// (labelKeys hash with a seed of each index's own.)
		return cmp.Diff([]any{a.vocab.strings(), a.off, a.pnode, a.psat, a.fileOf, a.prRank, a.kind, sa},
			[]any{b.vocab.strings(), b.off, b.pnode, b.psat, b.fileOf, b.prRank, b.kind, sb})
	}
	if d := same(fresh, x2); d != "" {
		t.Fatalf("BuildFrom differs from Build (-build +buildfrom):\n%s", d)
	}
	for _, q := range []string{"revoke session token", "validate user credentials", testcorpus.PythonTrace, "router handle login"} {
		if d := cmp.Diff(fresh.SearchText(q, Params{TopK: 20, GraphRerank: true}), x2.SearchText(q, Params{TopK: 20, GraphRerank: true}), cmp.AllowUnexported()); d != "" {
			t.Errorf("query %.30q differs:\n%s", q, d)
		}
	}

	// Other body options: nothing is taken.
	o := options(read2)
	o.MaxFileTerms++
	clear(reads)
	if _, err := BuildFrom(context.Background(), g2, o, x2.Bodies()); err != nil || len(reads) != len(files) {
		t.Errorf("with other options, %d files read of %d (err %v)", len(reads), len(files), err)
	}
}

// TestLongDocCommentSummary: a doc comment longer than the lines the
// index reads is summarised from its first sentence, not from wherever
// the last lines begin (viper's Viper struct read as "2.").
func TestLongDocCommentSummary(t *testing.T) {
	src := []string{"package v", "", "// Viper is a prioritized configuration registry. It", "// maintains a set of sources.", "// The priority of the sources is the following:"}
	for i := 1; i <= 6; i++ {
		src = append(src, fmt.Sprintf("// %d. source %d", i, i))
	}
	for range 40 {
		src = append(src, "//\tan example line")
	}
	src = append(src, "type Viper struct {", "}")
	lines := bytes.Split([]byte(strings.Join(src, "\n")), []byte("\n"))
	if got, want := entitySummary(lines, len(src)-2), "Viper is a prioritized configuration registry."; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

// A query word written as one ("filesystem") finds the identifier that
// spells it in parts (FileSystemLoader), through both parts at a reduced
// weight; a word with no indexed split is left alone.
func TestCompoundWord(t *testing.T) {
	files := maps.Clone(fixtureFiles)
	ents := maps.Clone(testcorpus.Entities)
	// Each half must be a word the code uses (in four nodes or more).
	files["web/loaders.py"] = `class FileSystemLoader:
    """Reads templates from a directory."""
    def system_path(self):
        return self.root
    def system_encoding(self):
        return "utf-8"
    def list_files(self):
        return [] # every file of the system
`
	ents["web/loaders.py"] = []testcorpus.Entity{
		{Name: "FileSystemLoader", Kind: testcorpus.Class, Start: 1, End: 8},
		{Name: "system_path", Kind: testcorpus.Function, Parent: "FileSystemLoader", Start: 3, End: 4},
		{Name: "system_encoding", Kind: testcorpus.Function, Parent: "FileSystemLoader", Start: 5, End: 6},
		{Name: "list_files", Kind: testcorpus.Function, Parent: "FileSystemLoader", Start: 7, End: 8},
	}
	g, read := fixtureGraphOf(t, files, ents)
	o := DefaultOptions()
	o.ReadFile = read
	x, err := Build(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	r := x.SearchText("filesystem templates", Params{TopK: 3})
	if len(r.Hits) == 0 || !strings.Contains(g.ExternalID(r.Hits[0].Node), "loaders.py") {
		t.Fatalf("hits %v", ids(g, r.Hits))
	}
	var parts []string
	for _, wt := range r.Terms {
		if wt.From == "filesystem" {
			parts = append(parts, wt.Term)
		}
	}
	slices.Sort(parts)
	if want := Terms("file system"); !slices.Equal(parts, slices.Sorted(slices.Values(want))) {
		t.Errorf("filesystem expanded to %v, want %v", parts, want)
	}
	// Where the index knows the word too ("stores bytecode on the
	// filesystem"), its parts are added as an expansion.
	files["web/cache.py"] = "class BytecodeCache:\n    \"\"\"Stores bytecode on the filesystem.\"\"\"\n    pass\n"
	ents["web/cache.py"] = []testcorpus.Entity{{Name: "BytecodeCache", Kind: testcorpus.Class, Start: 1, End: 3}}
	g, read = fixtureGraphOf(t, files, ents)
	o.ReadFile = read
	if x, err = Build(context.Background(), g, o); err != nil {
		t.Fatal(err)
	}
	r = x.SearchText("filesystem templates", Params{TopK: 3})
	var own, exp int
	for _, wt := range r.Terms {
		switch {
		case wt.Term == "filesystem" && wt.From == "":
			own++
		case wt.From == "filesystem":
			exp++
		}
	}
	if own != 1 || exp != 2 {
		t.Errorf("terms %+v: want filesystem and its two parts", r.Terms)
	}
	for _, w := range []string{"another", "systemic", "filesys"} {
		if got := x.compoundParts(w); got != nil {
			t.Errorf("%s split into %v", w, got)
		}
	}
}

// The index is built with one search's scratch, so its first search
// allocates none (the first seek after an ingest paid for allocating and
// faulting in 9 arrays per node); a second concurrent search makes its own.
func TestFirstSearchAllocatesNoScratch(t *testing.T) {
	x, _ := buildFixture(t, nil)
	made := x.scratchMade.Load()
	x.SearchText("validate user credentials", Params{TopK: 5})
	if got := x.scratchMade.Load() - made; got != 0 {
		t.Fatalf("the first search allocated %d scratch, want 0", got)
	}
	// Two searches at once never share one.
	s1, s2 := x.getScratch(), x.getScratch()
	if s1 == s2 {
		t.Fatal("two searches at once share a scratch")
	}
	x.putScratch(s1)
	x.putScratch(s2)
}

// TestScratchKeptAcrossCollections: a search after collections takes a
// returned scratch, with its candidate lists, instead of a new one (a
// sync.Pool dropped them within two collections; issue 29).
func TestScratchKeptAcrossCollections(t *testing.T) {
	x, _ := buildFixture(t, nil)
	p := Params{TopK: 5, GraphRerank: true}
	x.SearchText("validate user credentials", p)
	runtime.GC()
	runtime.GC()
	made := x.scratchMade.Load()
	x.SearchText("validate user credentials", p)
	if got := x.scratchMade.Load() - made; got != 0 {
		t.Fatalf("a search after collections allocated %d scratch, want 0", got)
	}
	s := x.getScratch()
	defer x.putScratch(s)
	if cap(s.cands) == 0 || cap(s.src) == 0 {
		t.Fatalf("the scratch lost its candidate lists (cap %d, %d)", cap(s.cands), cap(s.src))
	}
}
