package federation

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Edges between the same two nodes with the same relation become one,
// naming each route or service once, at most maxEvidence of them.
func TestCompactMergesEvidence(t *testing.T) {
	e := func(src, dst, rel, ev string) CrossEdge {
		return CrossEdge{SourceNode: src, TargetNode: dst, Relation: rel, Evidence: ev}
	}
	in := []CrossEdge{
		e("a", "b", "calls_api", "GET /api/users"),
		e("a", "b", "calls_api", "GET /api/users/{}"),
		e("a", "b", "calls_api", "GET /api/users"),
		e("a", "b", "implements", "grpc p.S"),
		e("a", "c", "calls_api", "grpc p.A"),
		e("a", "c", "calls_api", "grpc p.B"),
		e("a", "c", "calls_api", "grpc p.C"),
		e("a", "c", "calls_api", "grpc p.D"),
		e("a", "c", "calls_api", "grpc p.E"),
	}
	want := []CrossEdge{
		e("a", "b", "calls_api", "GET /api/users; GET /api/users/{}"),
		e("a", "b", "implements", "grpc p.S"),
		e("a", "c", "calls_api", "grpc p.A; grpc p.B; grpc p.C; grpc p.D"),
	}
	if d := cmp.Diff(want, compact(in)); d != "" {
		t.Errorf("-want +got\n%s", d)
	}
}
