//go:build ignore

// Command lay ingests a repository with the library and prints layers'
// cycles and violations over all dependencies (the old answer: a type-only
// import counts like any import) and over runtime ones (the new answer),
// and why's paths for the pairs given.
package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/structure"
	"github.com/m1nd-go/m1nd/ingest"
)

func main() {
	out, err := ingest.Run(context.Background(), ingest.Config{Root: os.Args[1]}, nil)
	if err != nil {
		panic(err)
	}
	g := out.Graph
	d, err := analysis.NewDepGraph(g, true)
	if err != nil {
		panic(err)
	}
	isTest := func(p string) bool {
		return strings.Contains(p, "test") || strings.HasPrefix(p, "docs/") || strings.HasPrefix(p, "examples/") || strings.HasPrefix(p, "benchmarks/") || strings.HasPrefix(p, "website/")
	}
	for _, runtime := range []bool{false, true} {
		u := structure.BuildUnits(d, structure.UnitOptions{Exclude: isTest, Runtime: runtime})
		L := structure.DetectLayers(u, structure.LayerOptions{})
		counts := map[string]int{}
		for _, v := range L.Violations {
			counts[v.Kind.String()]++
		}
		fmt.Printf("runtime=%v units=%d type_only_links=%d cycles=%d violations=%v\n", runtime, u.Len(), u.TypeOnly, len(L.Cycles), counts)
		for i, c := range L.Cycles {
			var names []string
			for _, x := range c {
				names = append(names, u.Names[x])
			}
			fmt.Printf("  cycle %d (%d): %s\n", i, len(c), strings.Join(names, " "))
		}
	}
	for i := 2; i+1 < len(os.Args); i += 2 {
		a, _ := g.Lookup("file::" + os.Args[i])
		b, _ := g.Lookup("file::" + os.Args[i+1])
		res, err := analysis.Why(g, a, b, analysis.DefaultWhyParams())
		if err != nil {
			panic(err)
		}
		fmt.Printf("why %s %s\n", os.Args[i], os.Args[i+1])
		for _, p := range res.Paths {
			s := g.ExternalID(p.Nodes[0])
			for j, r := range p.Relations {
				if p.Reversed[j] {
					r = analysis.PassiveRelation(r)
				}
				s += " -" + r + "-> " + g.ExternalID(p.Nodes[j+1])
			}
			fmt.Printf("  %.3f %s\n", p.CumulativeStrength, strings.ReplaceAll(s, "file::", ""))
		}
	}
}
