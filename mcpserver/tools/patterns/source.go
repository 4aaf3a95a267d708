package patterns

import (
	"bytes"
	"context"
	"io"
	"os"
	"runtime"
	"slices"
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
func lineStarts(data []byte) []int { return appendLineStarts(nil, data) }

// appendLineStarts is lineStarts appended to offs (a buffer to reuse).
func appendLineStarts(offs []int, data []byte) []int {
	offs = append(offs, 0)
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			return offs
		}
		i += j + 1
		offs = append(offs, i)
	}
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
// are skipped. nodes, data and offs are the worker's buffers, reused for
// its next file: f must not keep them. Why reused: on go-std the files'
// contents and line offsets were ≈ 100 MB allocated per pass, on a heap
// of ≈ 350 MB that each collection they set off scanned whole (issue 29).
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
			var data []byte
			var offs []int
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
				var ok bool
				if data, ok = readInto(data, df.Abs[i]); !ok || bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
					continue
				}
				offs = appendLineStarts(offs[:0], data)
				f(nodes, data, offs)
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

// readInto reads the file at path into buf (grown when too small) and
// reports whether it could and the file is at most maxSourceFile bytes.
func readInto(buf []byte, path string) ([]byte, bool) {
	fh, err := os.Open(path)
	if err != nil {
		return buf, false
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil || st.Size() > maxSourceFile || !st.Mode().IsRegular() {
		return buf, false
	}
	// One byte more than the size: a file that grew since is read whole.
	buf = slices.Grow(buf[:0], int(st.Size())+1)
	for {
		n, err := fh.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, true
		}
		if err != nil {
			return buf, false
		}
		if len(buf) == cap(buf) {
			if len(buf) >= maxSourceFile {
				return buf, false
			}
			buf = slices.Grow(buf, 4096)
		}
	}
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
