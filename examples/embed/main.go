// Command m1nd-embed is a program of someone else's that embeds m1nd's graph
// engine: it builds a graph of its own data (here, the services of a small
// shop and who calls whom — nothing m1nd ingests), asks it questions,
// saves it and loads it back. It imports only github.com/m1nd-go/m1nd/core;
// no MCP server, no tree-sitter, no cgo.
//
//	go run .            # in this directory
//	go run . -o shop.bin
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/m1nd-go/m1nd/core/analysis"
	"github.com/m1nd-go/m1nd/core/engine"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/snapshot"
)

func main() {
	out := flag.String("o", "", "save the graph to this file (.json: JSON v3, else binary; default a temporary file)")
	flag.Parse()
	if err := run(os.Stdout, *out); err != nil {
		fmt.Fprintln(os.Stderr, "m1nd-embed:", err)
		os.Exit(1)
	}
}

// The shop: services, what each calls, and a runbook that documents two.
var (
	services = []struct {
		name string
		tags []string
	}{
		{"gateway", []string{"http", "edge"}},
		{"checkout", []string{"payment", "cart"}},
		{"payments", []string{"payment", "card"}},
		{"ledger", []string{"accounting"}},
		{"inventory", []string{"stock"}},
		{"notifications", []string{"email"}},
	}
	calls = [][2]string{
		{"gateway", "checkout"}, {"gateway", "inventory"},
		{"checkout", "payments"}, {"checkout", "inventory"}, {"checkout", "notifications"},
		{"payments", "ledger"},
	}
)

func build() (*graph.Graph, error) {
	g := graph.New()
	for _, s := range services {
		if _, err := g.AddNode(graph.Node{
			ExternalID: "service::" + s.name, Label: s.name, Type: graph.Module, Tags: s.tags,
		}); err != nil {
			return nil, err
		}
	}
	doc, err := g.AddNode(graph.Node{ExternalID: "doc::runbook/payments.md", Label: "payments runbook", Type: graph.Custom(1), Tags: []string{"runbook"}})
	if err != nil {
		return nil, err
	}
	for _, c := range calls {
		// "calls": the caller depends on the callee, so a change to the
		// callee reaches the caller (analysis.Impact follows it backwards).
		if err := g.AddEdgeByID("service::"+c[0], "service::"+c[1], graph.Edge{Relation: "calls", Weight: 1, CausalStrength: 0.8}); err != nil {
			return nil, err
		}
	}
	for _, s := range []string{"payments", "ledger"} {
		id, _ := g.Lookup("service::" + s)
		if err := g.AddEdge(graph.Edge{Source: doc, Target: id, Relation: "documents", Weight: 0.5}); err != nil {
			return nil, err
		}
	}
	g.Finalize() // builds the CSR and PageRank; the graph is now queryable
	return g, nil
}

func run(w io.Writer, out string) error {
	g, err := build()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "graph: %d nodes, %d edges\n", g.NumNodes(), g.NumEdges())

	// Spreading activation: which parts of the system does "payment" touch?
	e, err := engine.New(g, engine.DefaultOptions())
	if err != nil {
		return err
	}
	res, err := e.Activate(context.Background(), engine.Query{Text: "payment", TopK: 4, NoLearn: true})
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "activate \"payment\":")
	for _, n := range res.Activated {
		fmt.Fprintf(w, "  %-18s %.3f\n", g.Label(n.ID), n.Activation)
	}

	// Blast radius: what is affected if ledger changes?
	ledger, _ := g.Lookup("service::ledger")
	imp, err := analysis.Impact(g, ledger, analysis.DefaultImpactParams())
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "impact of changing ledger:")
	for _, n := range imp.BlastRadius {
		fmt.Fprintf(w, "  %-18s hop %d\n", g.Label(n.Node), n.HopDistance)
	}

	// Persist (atomically) and load back.
	if out == "" {
		dir, err := os.MkdirTemp("", "m1nd-embed")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		out = filepath.Join(dir, "shop.bin")
	}
	if err := snapshot.Save(g, out); err != nil {
		return err
	}
	loaded, err := snapshot.Load(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "saved and loaded %s: %d nodes, %d edges\n", filepath.Base(out), loaded.NumNodes(), loaded.NumEdges())
	return nil
}
