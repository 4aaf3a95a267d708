package analysis

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

func TestParseClaim(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Claim
	}{
		{"worker_pool depends on whatsapp_manager at runtime", Claim{Type: ClaimDependsOn, Subject: "worker_pool", Object: "whatsapp_manager"}},
		{"The payments module uses `session.py`.", Claim{Type: ClaimDependsOn, Subject: "payments", Object: "session.py"}},
		{"auth.py imports crypto.py", Claim{Type: ClaimImports, Subject: "auth.py", Object: "crypto.py"}},
		{"AuthService.login calls SessionStore.create", Claim{Type: ClaimCalls, Subject: "AuthService.login", Object: "SessionStore.create"}},
		{"payments never calls hash_password", Claim{Type: ClaimNeverCalls, Subject: "payments", Object: "hash_password"}},
		{"payments doesn't call hash_password", Claim{Type: ClaimNeverCalls, Subject: "payments", Object: "hash_password"}},
		{"config.py does not depend on auth.py", Claim{Type: ClaimNoDependency, Subject: "config.py", Object: "auth.py"}},
		{"config never imports auth", Claim{Type: ClaimNoDependency, Subject: "config", Object: "auth"}},
		{"auth is not used by config", Claim{Type: ClaimNoDependency, Subject: "config", Object: "auth"}},
		{"changing session.py breaks payments.py", Claim{Type: ClaimAffects, Subject: "session.py", Object: "payments.py"}},
		{"session affects payments", Claim{Type: ClaimAffects, Subject: "session", Object: "payments"}},
		{"crypto and middleware are independent", Claim{Type: ClaimIndependent, Subject: "crypto", Object: "middleware"}},
		{"critic is independent of whatsapp", Claim{Type: ClaimIndependent, Subject: "critic", Object: "whatsapp"}},
		{"auth and session are coupled", Claim{Type: ClaimCoupled, Subject: "auth", Object: "session"}},
		{"auth and session depend on each other", Claim{Type: ClaimCircular, Subject: "auth", Object: "session"}},
		{"auth.py has a circular dependency", Claim{Type: ClaimCircular, Subject: "auth.py"}},
		{"config.py is isolated", Claim{Type: ClaimIsolated, Subject: "config.py"}},
		{"payments.py is unused", Claim{Type: ClaimUnused, Subject: "payments.py"}},
		{"nothing uses payments.py", Claim{Type: ClaimUnused, Subject: "payments.py"}},
		{"auth.py is tested by test_auth.py", Claim{Type: ClaimTestedBy, Subject: "auth.py", Object: "test_auth.py"}},
		{"test_auth.py tests auth.py", Claim{Type: ClaimTestedBy, Subject: "auth.py", Object: "test_auth.py"}},
		{"session.py is tested", Claim{Type: ClaimTested, Subject: "session.py"}},
		{"payments.py has no tests", Claim{Type: ClaimUntested, Subject: "payments.py"}},
		{"AdminUser extends User", Claim{Type: ClaimInherits, Subject: "AdminUser", Object: "User"}},
		{"hash_password is called by validate_credentials", Claim{Type: ClaimCalls, Subject: "validate_credentials", Object: "hash_password"}},
		{"  user_calls.py   IMPORTS   x.py ", Claim{Type: ClaimImports, Subject: "user_calls.py", Object: "x.py"}},
	} {
		got, err := ParseClaim(tc.text)
		if err != nil {
			t.Errorf("%q: %v", tc.text, err)
			continue
		}
		tc.want.Text = tc.text
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q (-want +got)\n%s", tc.text, diff)
		}
	}
	for _, bad := range []string{"", "  ?", "chat_handler never validates session tokens", "everything is fine", strings.Repeat("a depends on b ", 100)} {
		if c, err := ParseClaim(bad); err == nil {
			t.Errorf("%q parsed as %+v", bad, c)
		}
	}
	for _, f := range ClaimForms() {
		c, err := ParseClaim(f.Example)
		if err != nil || c.Type != f.Type {
			t.Errorf("the example of %s, %q, parses as %+v (%v)", f.Type, f.Example, c, err)
		}
	}
}

func FuzzParseClaim(f *testing.F) {
	for _, s := range []string{"a depends on b", "changing a breaks b", "a and b are independent", "nothing uses x", "the \"x\" module is unused at runtime"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseClaim(s)
		if err != nil {
			return
		}
		if c.Subject == "" || c.Type == "" {
			t.Fatalf("%q parsed into %+v", s, c)
		}
	})
}

func claimOn(t *testing.T, g *graph.Graph, text string, p HypothesisParams) HypothesisResult {
	t.Helper()
	c, err := ParseClaim(text)
	if err != nil {
		t.Fatal(err)
	}
	obj := graph.NoNode
	if c.Binary() {
		obj = n(t, g, c.Object)
	}
	res, err := Hypothesize(g, c, n(t, g, c.Subject), obj, p)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestHypothesizeFiles(t *testing.T) {
	g := authGraph(t)
	for _, tc := range []struct {
		claim   string
		verdict string
		conf    float32
		first   string // type of the first evidence (supporting, else contradicting)
	}{
		{"password_reset.py depends on config.py", VerdictLikelyTrue, 0.892, "path_found"},
		{"config.py depends on auth.py", VerdictLikelyFalse, 0.034, "no_path"},
		{"config.py does not depend on auth.py", VerdictLikelyTrue, 0.966, "no_path"},
		{"routes.py imports auth.py", VerdictLikelyTrue, 0.948, "direct_edge"},
		{"routes.py imports session.py", VerdictLikelyFalse, 0.167, "other_dependency"},
		{"changing config.py breaks routes.py", VerdictLikelyTrue, 0.892, "path_found"},
		{"password_reset.py calls session.py", VerdictLikelyTrue, 0.909, "direct_edge"},
		{"auth.py never calls session.py", VerdictLikelyTrue, 0.952, "no_path"},
		{"billing.py and routes.py are independent", VerdictLikelyTrue, 0.907, "no_path"},
		{"password_reset.py and auth.py are coupled", VerdictLikelyTrue, 0.95, "direct_edge"},
		{"auth.py is isolated", VerdictLikelyFalse, 0.03, "dependency"},
		{"routes.py is unused", VerdictLikelyTrue, 0.9, "no_dependents"},
		{"middleware.py is unused", VerdictInconclusive, 0.5, "only_tests"},
		{"session.py is tested by test_session.py", VerdictLikelyTrue, 0.945, "direct_edge"},
		{"password_reset.py is tested", VerdictLikelyFalse, 0.091, "no_test"},
		{"password_reset.py has no tests", VerdictLikelyTrue, 0.909, "no_test"},
		{"auth.py and config.py depend on each other", VerdictLikelyFalse, 0.045, "direct_edge"},
	} {
		t.Run(tc.claim, func(t *testing.T) {
			res := claimOn(t, g, tc.claim, DefaultHypothesisParams())
			if res.Verdict != tc.verdict || abs32(res.Confidence-tc.conf) > 0.002 {
				t.Errorf("verdict %s %.3f, want %s %.3f\n%+v", res.Verdict, res.Confidence, tc.verdict, tc.conf, res)
			}
			ev := append(append([]Evidence{}, res.SupportingEvidence...), res.ContradictingEvidence...)
			if len(ev) == 0 || ev[0].Type != tc.first {
				t.Errorf("first evidence %+v, want %s", ev, tc.first)
			}
			if res.Level != "file" {
				t.Errorf("level %s", res.Level)
			}
		})
	}
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// A path through a file reaches what its functions call: at file level a
// file stands for its contents; a shared directory is no dependency.
func TestHypothesizeThroughFilesAndContainment(t *testing.T) {
	g := graph.New()
	for _, x := range []struct {
		id, label string
		typ       graph.NodeType
	}{
		{"dir::pkg", "pkg", graph.Directory}, {"file::pkg/a.py", "a.py", graph.File}, {"file::pkg/b.py", "b.py", graph.File},
		{"file::pkg/b.py::f", "f", graph.Function}, {"file::pkg/c.py", "c.py", graph.File}, {"file::pkg/d.py", "d.py", graph.File},
	} {
		if _, err := g.AddNode(graph.Node{ExternalID: x.id, Label: x.label, Type: x.typ}); err != nil {
			t.Fatal(err)
		}
	}
	for _, x := range [][3]string{
		{"dir::pkg", "file::pkg/a.py", "contains"}, {"dir::pkg", "file::pkg/b.py", "contains"}, {"dir::pkg", "file::pkg/c.py", "contains"},
		{"dir::pkg", "file::pkg/d.py", "contains"}, {"file::pkg/b.py", "file::pkg/b.py::f", "contains"},
		{"file::pkg/a.py", "file::pkg/b.py", "imports"}, {"file::pkg/b.py::f", "file::pkg/c.py", "calls"},
	} {
		if err := g.AddEdgeByID(x[0], x[1], graph.Edge{Relation: x[2], Weight: 1}); err != nil {
			t.Fatal(err)
		}
	}
	g.Finalize()
	id := func(s string) graph.NodeID { v, _ := g.Lookup(s); return v }
	ask := func(text string, a, b string) HypothesisResult {
		c, err := ParseClaim(text)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Hypothesize(g, c, id(a), id(b), DefaultHypothesisParams())
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := ask("a depends on c", "file::pkg/a.py", "file::pkg/c.py")
	if res.Verdict != VerdictLikelyTrue || len(res.SupportingEvidence) == 0 {
		t.Fatalf("%+v", res)
	}
	if got := res.SupportingEvidence[0].Relations; !cmp.Equal(got, []string{"imports", "calls"}) {
		t.Errorf("relations %v", got)
	}
	res = ask("a depends on d", "file::pkg/a.py", "file::pkg/d.py")
	if res.Verdict != VerdictLikelyFalse {
		t.Errorf("a depends on d: %s %.3f", res.Verdict, res.Confidence)
	}
	if !hasEvidence(res.ContradictingEvidence, "containment_only") {
		t.Errorf("no containment note in %+v", res.ContradictingEvidence)
	}
	// Entity level: f calls c; a's import of b is not a call.
	res = ask("f calls c", "file::pkg/b.py::f", "file::pkg/c.py")
	if res.Verdict != VerdictLikelyTrue || res.Level != "entity" {
		t.Errorf("f calls c: %+v", res)
	}
	res = ask("a calls f", "file::pkg/a.py", "file::pkg/b.py::f")
	if res.Verdict != VerdictInconclusive {
		t.Errorf("a calls f: %s %.3f %+v", res.Verdict, res.Confidence, res.ContradictingEvidence)
	}
}

func TestHypothesizeErrors(t *testing.T) {
	g := authGraph(t)
	c, _ := ParseClaim("auth.py depends on config.py")
	if _, err := Hypothesize(g, c, n(t, g, "auth.py"), graph.NoNode, DefaultHypothesisParams()); err == nil {
		t.Error("missing object accepted")
	}
	p := DefaultHypothesisParams()
	p.MaxHops = 0
	if _, err := Hypothesize(g, c, n(t, g, "auth.py"), n(t, g, "config.py"), p); err == nil {
		t.Error("max_hops 0 accepted")
	}
	c.Type = "gateway"
	if _, err := Hypothesize(g, c, n(t, g, "auth.py"), n(t, g, "config.py"), DefaultHypothesisParams()); err == nil {
		t.Error("unknown type accepted")
	}
}

// The co-change of two files is weak evidence, never enough alone.
func TestHypothesizeCoChange(t *testing.T) {
	g := authGraph(t)
	p := DefaultHypothesisParams()
	p.CoChange = func(a, b graph.NodeID) float32 { return 0.8 }
	res := claimOn(t, g, "billing.py depends on routes.py", p)
	if res.Verdict != VerdictLikelyFalse {
		t.Errorf("co-change alone made %s %.3f", res.Verdict, res.Confidence)
	}
	if !hasEvidence(res.SupportingEvidence, "co_change") {
		t.Errorf("no co_change evidence: %+v", res)
	}
}

// hasEvidence reports whether es holds evidence of type typ.
func hasEvidence(es []Evidence, typ string) bool {
	return slices.ContainsFunc(es, func(e Evidence) bool { return e.Type == typ })
}

func BenchmarkHypothesize(b *testing.B) {
	g := graphtest.PowerLaw(10000, 26000, 1)
	c, _ := ParseClaim("a depends on b")
	p := DefaultHypothesisParams()
	for i := 0; b.Loop(); i++ {
		a, o := graph.NodeID(i*8*7919%g.NumNodes())&^7, graph.NodeID(i*8*104729%g.NumNodes())&^7
		if _, err := Hypothesize(g, c, a, o, p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHypothesizeLarge: a graph the size of the Go source tree's,
// with the dependency view reused as the server does.
func BenchmarkHypothesizeLarge(b *testing.B) {
	g := graphtest.PowerLaw(120000, 550000, 1)
	d, err := NewDepGraph(g, true)
	if err != nil {
		b.Fatal(err)
	}
	p := DefaultHypothesisParams()
	p.Deps = func(bool) (*DepGraph, error) { return d, nil }
	for _, text := range []string{"a depends on b", "a calls b", "a and b are independent"} {
		c, _ := ParseClaim(text)
		b.Run(string(c.Type), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				a, o := graph.NodeID(i*8*7919%g.NumNodes())&^7, graph.NodeID(i*8*104729%g.NumNodes())&^7
				if _, err := Hypothesize(g, c, a, o, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
