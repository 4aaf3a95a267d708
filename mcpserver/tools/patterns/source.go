package patterns

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"sync"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// maxSourceFile bounds the files read for bodies: a larger one is
// generated data, not code anyone copied by hand.
const maxSourceFile = 4 << 20

// lineStarts returns the byte offset of each line of data (line n
// starts at offs[n-1]).
func lineStarts(data []byte) []int {
	offs := []int{0}
	for i, c := range data {
		if c == '\n' {
			offs = append(offs, i+1)
		}
	}
	return offs
}

// span returns lines [start, end] (1-based, inclusive) of data.
func span(data []byte, offs []int, start, end uint32) []byte {
	if start == 0 || int(start) > len(offs) {
		return nil
	}
	to := len(data)
	if int(max(end, start)) < len(offs) {
		to = offs[max(end, start)]
	}
	return data[offs[start-1]:to]
}

// bodyCount is how many nodes eachFileBody may hand f with keep: those of
// the graph's files with a line span (files it cannot read make it fewer).
func bodyCount(b *session.Bundle, keep func(graph.NodeID) bool) int {
	g, n := b.Graph, 0
	for _, f := range tools.BundleGraphFiles(b).Files {
		for _, id := range f.Nodes {
			if keep(id) && g.Provenance(id).LineStart > 0 {
				n++
			}
		}
	}
	return n
}

// eachFileBody calls f with every file of the bundle that holds nodes
// keep admits, and its contents, on up to GOMAXPROCS goroutines (f must
// be safe for that). Files the path guard refused or that are missing
// are skipped.
func eachFileBody(ctx context.Context, b *session.Bundle, keep func(graph.NodeID) bool, f func(nodes []graph.NodeID, data []byte, offs []int)) {
	gf, df := tools.BundleGraphFiles(b), tools.BundleDiskFiles(b)
	g := b.Graph
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var nodes []graph.NodeID
			for i := range work {
				nodes = nodes[:0]
				for _, id := range gf.Files[i].Nodes {
					if keep(id) && g.Provenance(id).LineStart > 0 {
						nodes = append(nodes, id)
					}
				}
				if len(nodes) == 0 || df.Abs[i] == "" {
					continue
				}
				if st, err := os.Stat(df.Abs[i]); err != nil || st.Size() > maxSourceFile {
					continue
				}
				data, err := os.ReadFile(df.Abs[i])
				if err != nil || bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
					continue
				}
				f(nodes, data, lineStarts(data))
			}
		}()
	}
	for i := range gf.Files {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
}

// nodeSource reads one node's lines from disk (nil when unreadable).
func nodeSource(b *session.Bundle, id graph.NodeID) []byte {
	p := b.Graph.Provenance(id)
	gf, df := tools.BundleGraphFiles(b), tools.BundleDiskFiles(b)
	i, ok := gf.ByPath[p.SourcePath]
	if !ok || df.Abs[i] == "" || p.LineStart == 0 {
		return nil
	}
	data, err := os.ReadFile(df.Abs[i])
	if err != nil {
		return nil
	}
	return span(data, lineStarts(data), p.LineStart, p.LineEnd)
}
