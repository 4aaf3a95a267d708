package document_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/testcorpus"
	"github.com/m1nd-go/m1nd/ingest"
	"github.com/m1nd-go/m1nd/ingest/document"
)

// TestMeasureBindings ingests a code root and merges document roots into
// it (as the server does), then writes every binding and a seeded random
// sample of them for hand labelling. It runs only with
// M1ND_DOC_MEASURE=<code root>|<doc path>,<doc path>…|<output prefix>;
// see benchmarks/documents.md.
func TestMeasureBindings(t *testing.T) {
	spec := testcorpus.OptIn(t, "M1ND_DOC_MEASURE", "<code root>|<doc paths, comma-separated>|<output prefix>")
	parts := strings.Split(spec, "|")
	if len(parts) != 3 {
		t.Fatalf("M1ND_DOC_MEASURE %q: want three |-separated fields", spec)
	}
	ctx := context.Background()
	start := time.Now()
	code, err := ingest.Run(ctx, ingest.Config{Root: parts[0]}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("code: %d files, %d nodes, %d edges in %v", code.Stats.FilesParsed, code.Graph.NumNodes(), code.Graph.NumEdges(), time.Since(start))
	g := code.Graph
	for _, p := range strings.Split(parts[1], ",") {
		st := time.Now()
		out, err := ingest.Run(ctx, ingest.Config{Root: p, Adapter: "universal", Mode: ingest.Merge}, g)
		if err != nil {
			t.Fatal(err)
		}
		g = out.Graph
		t.Logf("docs %s: %d files (%v) in %v; graph %d nodes", p, out.Stats.FilesParsed, out.Stats.Languages, time.Since(st), g.NumNodes())
	}
	x := document.NewIndex(g)
	type row struct {
		doc, sec, heading, mention, kind, target, reason string
		score                                            float32
		line                                             uint32
	}
	var rows []row
	sections, mentions := 0, 0
	for _, d := range document.Catalog(g) {
		for _, s := range append([]graph.NodeID{d.Node}, document.Sections(g, d.Node)...) {
			sections++
			mentions += len(document.Mentions(g, s))
			for _, b := range x.SectionBindings(s) {
				rows = append(rows, row{d.Path, g.ExternalID(s), g.Label(s), b.Mention.Text, string(b.Mention.Kind), g.ExternalID(b.Target), b.Reason, b.Score, g.Provenance(s).LineStart})
			}
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].sec != rows[j].sec {
			return rows[i].sec < rows[j].sec
		}
		return rows[i].target < rows[j].target
	})
	kinds := map[string]int{}
	var all strings.Builder
	fmt.Fprintf(&all, "doc\tline\tsection\tmention_kind\tmention\ttarget\tscore\treason\n")
	for _, r := range rows {
		kinds[r.kind]++
		fmt.Fprintf(&all, "%s\t%d\t%s\t%s\t%s\t%s\t%.2f\t%s\n", r.doc, r.line, r.heading, r.kind, r.mention, r.target, r.score, r.reason)
	}
	t.Logf("%d documents, %d sections, %d mentions, %d bindings by kind %v", len(document.Catalog(g)), sections, mentions, len(rows), kinds)
	drift := map[string]int{}
	staleDocs := 0
	var dl strings.Builder
	for _, d := range document.Catalog(g) {
		dd := x.Drift(d.Node)
		for _, f := range dd.Findings {
			drift[f.Kind]++
			fmt.Fprintf(&dl, "%s\t%s\t%s\t%s\t%s\n", d.Path, g.Label(f.Section), f.Kind, f.Mention.Text, f.Detail)
		}
		if dd.Count(document.DriftCodeChanged) > 0 {
			staleDocs++
		}
	}
	t.Logf("drift: %v; %d documents with code changed after them", drift, staleDocs)
	if err := os.WriteFile(parts[2]+"-drift.tsv", []byte(dl.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(parts[2]+"-all.tsv", []byte(all.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(16, 2026))
	perm := rng.Perm(len(rows))
	var sample strings.Builder
	fmt.Fprintf(&sample, "n\tdoc\tline\tsection\tmention_kind\tmention\ttarget\tscore\treason\tlabel\n")
	for i, k := range perm[:min(40, len(perm))] {
		r := rows[k]
		fmt.Fprintf(&sample, "%d\t%s\t%d\t%s\t%s\t%s\t%s\t%.2f\t%s\t\n", i+1, r.doc, r.line, r.heading, r.kind, r.mention, r.target, r.score, r.reason)
	}
	if err := os.WriteFile(parts[2]+"-sample.tsv", []byte(sample.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
