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
