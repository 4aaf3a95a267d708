package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/m1nd-go/m1nd/core/seek"
	"github.com/m1nd-go/m1nd/mcpserver/pathguard"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// seekPatchFiles is a small Go module of several files that call each
// other, for the patched-index tests.
var seekPatchFiles = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"cart/cart.go": `package cart

// Cart holds the items a customer picked.
type Cart struct{ Items []Item }

// Item is one product line.
type Item struct {
	SKU   string
	Price int
}

// Total sums the prices of the cart's items.
func (c *Cart) Total() int {
	t := 0
	for _, it := range c.Items {
		t += it.Price
	}
	return t
}
`,
	"cart/discount.go": `package cart

// ApplyDiscount lowers the total by a percentage coupon.
func ApplyDiscount(total, percent int) int { return total - total*percent/100 }
`,
	"billing/invoice.go": `package billing

import "example.com/shop/cart"

// Invoice renders a cart's total for the customer.
func Invoice(c *cart.Cart) string { return render(c.Total()) }

func render(cents int) string { return "total: " + itoa(cents) }
`,
	"billing/itoa.go": `package billing

// itoa formats cents without strconv (a tiny helper).
func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}
`,
	"billing/tax.go": `package billing

// Tax computes the value added tax of an invoice total.
func Tax(total int) int { return total * 20 / 100 }
`,
	"main.go": `package main

import (
	"example.com/shop/billing"
	"example.com/shop/cart"
)

func main() {
	c := &cart.Cart{Items: []cart.Item{{SKU: "a", Price: 250}}}
	println(billing.Invoice(c))
}
`,
}

// seekPatchQueries are asked of both indexes: words of the edited, added,
// deleted and untouched files, a symbol, a path.
var seekPatchQueries = []string{
	"cart total price", "apply discount coupon percentage", "value added tax",
	"refund a customer payment", "invoice render", "itoa format cents", "shipping cost by weight",
	"ApplyDiscount", "billing/tax.go", "Cart Items SKU",
}

// patchTree edits, adds and deletes files of the tree written from
// seekPatchFiles: the patch the tests ingest.
func patchTree(t *testing.T, dir string) {
	t.Helper()
	edit := filepath.Join(dir, "cart", "discount.go")
	if err := os.WriteFile(edit, []byte(seekPatchFiles["cart/discount.go"]+`
// ApplyCoupon looks a coupon code up and applies its percentage.
func ApplyCoupon(total int, code string) int {
	if code == "HALF" {
		return ApplyDiscount(total, 50)
	}
	return total
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	add := `package billing

// Refund pays a customer payment back, less the shipping cost.
func Refund(paid, shipping int) int { return paid - shipping - Tax(shipping) }

// ShippingCost charges by weight in grams.
func ShippingCost(grams int) int { return 300 + grams/100 }
`
	if err := os.WriteFile(filepath.Join(dir, "billing", "refund.go"), []byte(add), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "billing", "itoa.go")); err != nil {
		t.Fatal(err)
	}
}

// seekPatchIngest runs a code ingest of dir in s and publishes its bundle.
func seekPatchIngest(t *testing.T, s *session.State, dir string, incremental bool) (*session.Bundle, *IngestRun) {
	t.Helper()
	c := &Call{Ctx: context.Background(), Session: s, AgentID: "t", Progress: func(float64, float64, string) {}}
	r := &IngestRun{C: c, Path: dir, Adapter: "code", Mode: "replace", Incremental: incremental}
	if err := r.Target(); err != nil {
		t.Fatal(err)
	}
	nb, err := s.BuildBundle(r.kind(), func(old *session.Bundle) (*session.Bundle, error) { return r.Build(old) })
	if err != nil {
		t.Fatal(err)
	}
	return nb, r
}

// answers is every query's answer from x, with and without the graph
// rerank, as JSON.
func seekAnswers(t *testing.T, x *seek.Index) []string {
	t.Helper()
	var out []string
	for _, q := range seekPatchQueries {
		for _, rerank := range []bool{false, true} {
			raw, err := json.Marshal(x.SearchText(q, seek.Params{TopK: 50, GraphRerank: rerank}))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%q rerank=%v: %s", q, rerank, raw))
		}
	}
	return out
}

// The seek index built for a patched graph from the last index's
// documents answers exactly what an index built from scratch (every file
// read, nothing reused) answers, after a patch that edits, adds and
// deletes files; and it stamped no file by a stat (the ingest's walk did).
func TestPatchedSeekIndexIsFresh(t *testing.T) {
	dir := t.TempDir()
	for p, src := range seekPatchFiles {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := session.DefaultConfig()
	cfg.RuntimeDir, cfg.AllowRoots = t.TempDir(), []string{dir}
	s, err := session.Open(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	b1, _ := seekPatchIngest(t, s, dir, false)
	if _, err := seekIndexCtx(context.Background(), s, b1); err != nil {
		t.Fatal(err)
	}
	patchTree(t, dir)
	b2, r := seekPatchIngest(t, s, dir, true)
	if inc := r.Output().Stats.Incremental; inc == nil || !inc.Patched {
		t.Fatalf("the ingest did not patch: %+v", inc)
	}
	stats := seekStatStamps.Load()
	patched, err := seekIndexCtx(context.Background(), s, b2)
	if err != nil {
		t.Fatal(err)
	}
	if n := seekStatStamps.Load() - stats; n != 0 {
		t.Errorf("the patched index stamped %d files by a stat; the ingest's walk had stamped them", n)
	}
	if st := patched.Stats(); st.FilesReused == 0 {
		t.Errorf("the patched index reused no file's documents: %+v", st)
	}
	o := seek.DefaultOptions()
	o.ReadFile = guardedReader(&resolver{guard: pathguard.New(dir)}, int64(o.MaxFileBytes))
	fresh, err := seek.Build(context.Background(), b2.Graph, o)
	if err != nil {
		t.Fatal(err)
	}
	got, want := seekAnswers(t, patched), seekAnswers(t, fresh)
	hits := 0
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("patched index answers\n%s\nfrom scratch\n%s", got[i], want[i])
		}
		hits += strings.Count(want[i], `"Node"`)
	}
	if hits == 0 {
		t.Fatal("no query found anything: the comparison shows nothing")
	}
	for _, q := range []string{"refund a customer payment", "ApplyCoupon"} {
		if len(fresh.SearchText(q, seek.Params{}).Hits) == 0 {
			t.Errorf("%q: the added code is not found", q)
		}
	}
}
