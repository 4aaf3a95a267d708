package extract

import "testing"

// TestJavaLocalsTypedByTheirDeclaration checks that a local declared by a
// for-each loop, a try-with-resources or a catch clause types the receiver
// of the calls made on it, as a local variable declaration does: junit4's
// `for (FrameworkMethod each : methods) each.invokeExplosively(test)` was a
// call bound to no FrameworkMethod, so impact left its callers out.
func TestJavaLocalsTypedByTheirDeclaration(t *testing.T) {
	src := `package p;

class Runner {
    void forEach(java.util.List methods) {
        for (final FrameworkMethod each : methods) {
            each.invokeExplosively(null);
        }
    }
    void resources() throws Exception {
        try (Reader in = open(); p.q.Stream out = open()) {
            in.readAll();
            out.flush();
        }
    }
    void caught() {
        try {
            run();
        } catch (AssumptionViolatedException e) {
            e.describe();
        } catch (IllegalStateException | Failure f) {
            f.getMessage();
        }
    }
}
`
	r, err := ExtractFile("p/Runner.java", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, r)
	c := "file::p/Runner.java::Runner"
	tests := []struct {
		src, rel, dst string
		line          uint32
		h             RefHint
	}{
		{c + "::forEach", "calls", "ref::invokeExplosively", 6, RefHint{Receiver: "each", ReceiverType: "FrameworkMethod"}},
		{c + "::forEach", "references", "ref::FrameworkMethod", 5, RefHint{}},
		{c + "::resources", "calls", "ref::readAll", 11, RefHint{Receiver: "in", ReceiverType: "Reader"}},
		{c + "::resources", "calls", "ref::flush", 12, RefHint{Receiver: "out", ReceiverType: "Stream"}},
		{c + "::resources", "references", "ref::Reader", 10, RefHint{}},
		{c + "::caught", "calls", "ref::describe", 19, RefHint{Receiver: "e", ReceiverType: "AssumptionViolatedException"}},
		{c + "::caught", "references", "ref::AssumptionViolatedException", 18, RefHint{}},
		{c + "::caught", "references", "ref::Failure", 20, RefHint{}},
		// A multi-catch variable has no single type: its receiver stays untyped.
		{c + "::caught", "calls", "ref::getMessage", 21, RefHint{Receiver: "f", ReceiverType: "-"}},
	}
	for _, tc := range tests {
		wantEdge(t, r, tc.src, tc.rel, tc.dst, tc.line, tc.h)
	}
}

// TestJavaReturnsAndCreations checks what types a receiver that is a call:
// the class a method returns (with its package: imported, else the file's
// own unless a wildcard import may have brought it) and new Foo(…).bar().
func TestJavaReturnsAndCreations(t *testing.T) {
	tests := []struct {
		name, src, method string
		want              TypeRef
		ok                bool
	}{
		{"same package", "package a.b;\nclass R { TestClass getTestClass() { return null; } }", "R::getTestClass", TypeRef{Name: "TestClass", Module: "a.b"}, true},
		{"imported", "package a.b;\nimport x.y.TestClass;\nclass R { TestClass get() { return null; } }", "R::get", TypeRef{Name: "TestClass", Module: "x.y"}, true},
		{"qualified", "package a.b;\nclass R { x.y.Zed get() { return null; } }", "R::get", TypeRef{Name: "Zed", Module: "x.y"}, true},
		{"wildcard leaves the package open", "package a.b;\nimport x.y.*;\nclass R { List<Zed> all() { return null; } Zed get() { return null; } }", "R::get", TypeRef{Name: "Zed"}, true},
		{"generic element is no return type", "package a.b;\nclass R { List<Z> all() { return null; } }", "R::all", TypeRef{}, false},
		{"type parameter", "package a.b;\nclass R { <T> T get() { return null; } }", "R::get", TypeRef{}, false},
		{"primitive", "package a.b;\nclass R { int get() { return 0; } }", "R::get", TypeRef{}, false},
	}
	for _, tc := range tests {
		r, err := ExtractFile("a/b/R.java", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := r.Returns["file::a/b/R.java::"+tc.method]
		if ok != tc.ok || got != tc.want {
			t.Errorf("%s: Returns = %+v %v, want %+v %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	r, err := ExtractFile("a/b/R.java", []byte("package a.b;\nclass R {\n  void run() {\n    new TestClass(R.class).getName();\n  }\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	wantEdge(t, r, "file::a/b/R.java::R::run", "calls", "ref::getName", 4, RefHint{ReceiverType: "TestClass"})
	wantEdge(t, r, "file::a/b/R.java::R::run", "calls", "ref::TestClass", 4, RefHint{})
}

// TestJavaAnonymousClassSuper: super.m() in an anonymous class calls the
// created type's m, not the enclosing class's superclass's (junit4's
// ErrorReportingRunnerTest overrides RunNotifier.fireTestFailure in
// `new RunNotifier() {…}` and calls super.fireTestFailure(failure)).
func TestJavaAnonymousClassSuper(t *testing.T) {
	src := `package p;

class RunnerTest extends TestCase {
    void run() {
        RunNotifier n = new RunNotifier() {
            public void fireTestFailure(Failure failure) {
                super.fireTestFailure(failure);
                helper();
            }
        };
        super.setUp();
    }
}
`
	r, err := ExtractFile("p/RunnerTest.java", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	run := "file::p/RunnerTest.java::RunnerTest::run"
	wantEdge(t, r, run, "calls", "ref::fireTestFailure", 7, RefHint{Receiver: "super", ReceiverType: "RunNotifier"})
	wantEdge(t, r, run, "calls", "ref::helper", 8, RefHint{ReceiverType: "RunnerTest"})
	wantEdge(t, r, run, "calls", "ref::setUp", 11, RefHint{Receiver: "super", ReceiverType: "TestCase"})
}
