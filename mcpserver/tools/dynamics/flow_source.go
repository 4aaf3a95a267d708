package dynamics

import (
	"bytes"
	"sync"

	coredyn "github.com/m1nd-go/m1nd/core/dynamics"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/pathguard"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

// maxSourceFiles bounds the files one flow_simulate reads to find the
// attributes the reached methods write.
const maxSourceFiles = 2000

// maxSourceBytes bounds the file contents a bundle keeps for
// flow_simulate (beyond it files are read on each call).
const maxSourceBytes = 64 << 20

// sourceCache keeps the files flow_simulate read for one bundle: the
// graph's spans describe the files as they were ingested, and a second
// call need not read and guard them again.
type sourceCache struct {
	mu    sync.Mutex
	files map[string][][]byte
	bytes int
}

var sourceKey = session.NewKey[*sourceCache]("dynamics.source")

// methodSource reads a node's span from its file on disk, through the
// path guard, at most maxSourceFiles files a call (nil when the graph has
// no ingest roots: a graph loaded from JSON, say).
func methodSource(b *session.Bundle) coredyn.SourceFunc {
	if tools.NeedRoots(b) != nil {
		return nil
	}
	g := b.Graph
	space, guard := tools.BundleSpace(b), tools.BundleGuard(b)
	cache, _ := session.Derive(b, sourceKey, func(*graph.Graph) (*sourceCache, error) {
		return &sourceCache{files: map[string][][]byte{}}, nil
	})
	reads := 0
	return func(n graph.NodeID) []string {
		p := g.SourcePath(n)
		cache.mu.Lock()
		lines, seen := cache.files[p]
		cache.mu.Unlock()
		if !seen {
			if reads == maxSourceFiles {
				return nil
			}
			reads++
			lines = readLines(space, guard, p)
			cache.keep(p, lines)
		}
		pr := g.Provenance(n)
		lo, hi := int(pr.LineStart), int(pr.LineEnd)
		if lo < 1 || hi < lo || hi > len(lines) {
			return nil
		}
		out := make([]string, 0, hi-lo+1)
		for _, l := range lines[lo-1 : hi] {
			out = append(out, string(l))
		}
		return out
	}
}

func (c *sourceCache) keep(p string, lines [][]byte) {
	size := 0
	for _, l := range lines {
		size += len(l) + 1
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bytes+size <= maxSourceBytes {
		c.files[p] = lines
		c.bytes += size
	}
}

func readLines(space *tools.RootSpace, guard *pathguard.Guard, p string) [][]byte {
	res, _, _, err := space.Resolve(guard, p)
	if err != nil || !res.Exists {
		return nil
	}
	data, _, err := tools.ReadGuarded(res, "file")
	if err != nil {
		return nil
	}
	return bytes.Split(data, []byte{'\n'})
}
