package seek

import (
	"encoding/binary"
	"hash/crc32"

	"github.com/m1nd-go/m1nd/core/graph"
)

// Metadata chunks. The label, path and doc documents of the nodes are cut
// in chunks of consecutive nodes; a build that replaced a graph (BuildFrom)
// takes a chunk whose nodes carry the metadata they had in the last build
// from it rather than tokenising it again. A patch moves the NodeIDs of
// every node after the first file it changed, so a chunk is named by its
// nodes' metadata, not their IDs, and chunks end where the content says
// (a file whose path hashes to 0 mod metaCutEvery), not every so many IDs:
// the chunks a patch did not touch come out the same. Why it pays: after a
// patch of three go-std files, tokenising the metadata of all 120 K nodes
// was 0.27 s of the rebuild's 0.93 s of CPU.
var (
	// metaCutEvery is how many files a chunk holds on average (go-std:
	// ≈ 350 chunks of ≈ 350 nodes). A var for tests.
	metaCutEvery uint32 = 16
	// metaChunkMax bounds a chunk (a graph without files).
	metaChunkMax = 4096
)

// metaJobs cuts the nodes [0, n) into the metadata jobs.
func (x *Index) metaJobs() []job {
	var jobs []job
	lo := 0
	for i := 1; i < x.n; i++ {
		if i-lo >= metaChunkMax || x.cutBefore(graph.NodeID(i)) {
			jobs = append(jobs, job{lo: lo, hi: i})
			lo = i
		}
	}
	if x.n > 0 {
		jobs = append(jobs, job{lo: lo, hi: x.n})
	}
	return jobs
}

// cutBefore reports whether a chunk starts at node id: a file node whose
// path's FNV-1a hash is 0 mod metaCutEvery (a fixed hash: a build from
// scratch cuts the same chunks, so its shards and term IDs are the same).
func (x *Index) cutBefore(id graph.NodeID) bool {
	if x.g.Type(id) != graph.File {
		return false
	}
	h := uint32(2166136261)
	for _, c := range []byte(x.g.SourcePath(id)) {
		h = (h ^ uint32(c)) * 16777619
	}
	return h%metaCutEvery == 0
}

// metaKey hashes what metaShard reads of the nodes [lo, hi): type, label,
// source path, external ID and excerpt, each with its length. The key is
// two CRC-32s of different polynomials (both in hardware), so two
// different chunks share it with odds of about 2^-64; and it is the same
// in every process, so a bodies file's chunks are named by it too. w's
// buffer holds the chunk's bytes.
func (x *Index) metaKey(w *shardWriter, lo, hi int) uint64 {
	b := binary.LittleEndian.AppendUint32(w.buf[:0], uint32(hi-lo))
	str := func(s string) {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
		b = append(b, s...)
	}
	g := x.g
	for i := lo; i < hi; i++ {
		id := graph.NodeID(i)
		b = append(b, byte(g.Type(id)))
		str(g.Label(id))
		str(g.SourcePath(id))
		str(g.ExternalID(id))
		str(g.Provenance(id).Excerpt)
	}
	w.buf = b[:0]
	return uint64(crc32.Checksum(b, metaCRC))<<32 | uint64(crc32.ChecksumIEEE(b))
}

var metaCRC = crc32.MakeTable(crc32.Castagnoli)

// metaEntry is a metadata shard as Bodies keep it: documents' nodes
// counted from the chunk's first.
type metaEntry struct {
	key uint64
	s   *shard
}

// reusableMeta is the metadata shard of nodes [lo, hi): prev's when it
// holds one for the same metadata, else tokenised; and the entry the next
// build can take it from (nil without Bodies).
func (x *Index) reusableMeta(w *shardWriter, lo, hi int, prev *Bodies) (*shard, *metaEntry) {
	if x.bodies == nil {
		return x.metaShard(w, lo, hi), nil
	}
	k := x.metaKey(w, lo, hi)
	if prev != nil {
		if c := prev.meta[k]; c != nil && fitsChunk(c, hi-lo) {
			x.metaReused.Add(1)
			return rebase(c, int64(lo)), &metaEntry{k, c}
		}
	}
	s := x.metaShard(w, lo, hi)
	return s, &metaEntry{k, rebase(s, -int64(lo))}
}

// fitsChunk reports whether shard c's documents are of nodes within a
// chunk of n nodes (they are in node order): a shard read from a file is
// taken by its key only if so.
func fitsChunk(c *shard, n int) bool {
	return len(c.docNode) == 0 || int(c.docNode[len(c.docNode)-1]) < n
}

// rebase is a copy of s whose documents' nodes are moved by d; the other
// slices are shared (the assembly reads them and clears only its own
// copy of the struct).
func rebase(s *shard, d int64) *shard {
	c := *s
	c.docNode = make([]graph.NodeID, len(s.docNode))
	for i, n := range s.docNode {
		c.docNode[i] = graph.NodeID(int64(n) + d)
	}
	return &c
}
