package dynamics

import (
	"slices"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
)

func TestReceiver(t *testing.T) {
	for ns, want := range map[string]string{"main.(*Cart)": "Cart", "main.(Cart)": "Cart", "shop.cart.Cart": "Cart",
		"main": "", "example.com/app/lib": "", "shop.cart": "", "": ""} {
		if got := receiver(ns); got != want {
			t.Errorf("receiver(%q) = %q, want %q", ns, got, want)
		}
	}
}

// Spans find their functions by code attributes (a method by its
// receiver, a function by name and file), by name, or by id; calls,
// errors and time add up per node.
func TestOverlay(t *testing.T) {
	g := graph.New()
	add := func(id, label, file string, typ graph.NodeType) graph.NodeID {
		n, _ := g.AddNode(graph.Node{ExternalID: id, Label: label, Type: typ, Provenance: graph.Provenance{SourcePath: file}})
		return n
	}
	charge := add("file::shop.go::chargeCard", "chargeCard", "shop.go", graph.Function)
	total := add("file::shop.go::Cart::Total", "Total", "shop.go", graph.Function)
	add("file::other.go::Order::Total", "Total", "other.go", graph.Function)
	add("file::b/shop.go::chargeCard", "chargeCard", "b/shop.go", graph.Function)
	g.Finalize()
	code := func(fn, ns, file string, ms int64, failed bool) Span {
		return Span{Name: fn, Attrs: map[string]string{"code.function": fn, "code.namespace": ns, "code.filepath": file}, DurationNs: ms * 1e6, Error: failed}
	}
	spans := []Span{
		code("chargeCard", "main", "/src/app/shop.go", 10, false),
		code("chargeCard", "main", "/src/app/shop.go", 30, true),
		code("Total", "main.(*Cart)", "/src/app/shop.go", 5, false),
		{Name: "SELECT carts"},
		code("chargeCard", "main", "/src/app/nowhere.go", 1, false), // no such file: unmapped
	}
	res := Overlay(g, spans, CodeAttribute)
	if res.Mapped != 3 || !slices.Equal(res.Unmapped, []int{3, 4}) {
		t.Fatalf("mapped %d, unmapped %v", res.Mapped, res.Unmapped)
	}
	want := []NodeHeat{
		{Node: charge, Calls: 2, Errors: 1, TotalNs: 40e6, MaxNs: 30e6, Heat: 1},
		{Node: total, Calls: 1, TotalNs: 5e6, MaxNs: 5e6, Heat: 0.5*0.5 + 0.5*5.0/40},
	}
	if !slices.Equal(res.Nodes, want) {
		t.Errorf("nodes %+v, want %+v", res.Nodes, want)
	}
	// By name: "Cart.Total" is one method; "chargeCard" is two functions.
	if n, ok := MapSpan(g, Span{Name: "Cart.Total"}, LabelMatch); !ok || n != total {
		t.Errorf("Cart.Total by name: %v %v", n, ok)
	}
	if _, ok := MapSpan(g, Span{Name: "chargeCard"}, LabelMatch); ok {
		t.Error("an ambiguous name mapped")
	}
	if n, ok := MapSpan(g, Span{Name: "x", Attrs: map[string]string{"m1nd.node_id": "file::shop.go::chargeCard"}}, ExactID); !ok || n != charge {
		t.Errorf("exact id: %v %v", n, ok)
	}
}
