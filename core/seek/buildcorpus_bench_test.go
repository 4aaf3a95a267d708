package seek

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/snapshot"
)

// BenchmarkBuildCorpus times a full index build (bodies read from disk,
// with stamps as the server builds it) of a saved graph:
// M1ND_SEEK_GRAPH names a graph snapshot, M1ND_SEEK_ROOT the tree it was
// ingested from. It reports the index's digest once, so two trees can be
// compared for an identical index.
func BenchmarkBuildCorpus(b *testing.B) {
	g, root, o := corpusGraph(b)
	o.FileStamp = func(p string) (string, bool) {
		fi, err := os.Stat(filepath.Join(root, p))
		if err != nil {
			return "", false
		}
		return fmt.Sprintf("%d:%d", fi.Size(), fi.ModTime().UnixNano()), true
	}
	x := timedBuilds(b, func() (*Index, error) { return Build(context.Background(), g, o) })
	b.Logf("terms %d postings %d digest %s", x.stats.Terms, x.stats.Postings, x.digest())
}

// BenchmarkBuildCorpusCollected is BenchmarkBuildCorpus for a build whose
// bodies a Collector cut beforehand (as an ingest's workers do; the
// entities' lines here are the graph's): the build alone is timed, and
// its digest must be BenchmarkBuildCorpus's.
func BenchmarkBuildCorpusCollected(b *testing.B) {
	g, root, o := corpusGraph(b)
	o.FileStamp = func(p string) (string, bool) { return "", false }
	var x *Index
	base := liveHeap()
	c := NewCollector(o, nil)
	for _, p := range filePathsOf(g) {
		if data, err := os.ReadFile(filepath.Join(root, p)); err == nil {
			c.Add(p, "", data, entityLines(g, p, false))
		}
	}
	c.Done()
	bodies := c.Bodies(nil)
	collected := liveHeap()
	x = timedBuilds(b, func() (*Index, error) { return BuildFrom(context.Background(), g, o, bodies) })
	built := liveHeap()
	b.Logf("terms %d postings %d digest %s; %d files taken", x.stats.Terms, x.stats.Postings, x.digest(), x.stats.FilesReused)
	// What the server holds: the collected documents from the ingest to
	// the build, then the index (and the documents, for the next build).
	b.ReportMetric(float64(collected-base)/(1<<20), "collected-live-mb")
	b.ReportMetric(float64(built-collected)/(1<<20), "index-live-mb")
	runtime.KeepAlive(x)
	runtime.KeepAlive(bodies)
}

// BenchmarkBuildCorpusSaved is BenchmarkBuildCorpus for a process that
// starts on a saved graph with its index's bodies file (Bodies.WriteTo,
// ReadBodies): files are stamped as the graph's ingest walked them (a
// map, as the server does), and the build reads none. The file's size
// and its decoding are reported; the digest must be BenchmarkBuildCorpus's.
func BenchmarkBuildCorpusSaved(b *testing.B) {
	g, root, o := corpusGraph(b)
	stamps := map[string]string{}
	for _, p := range filePathsOf(g) {
		if fi, err := os.Stat(filepath.Join(root, p)); err == nil {
			stamps[p] = fmt.Sprintf("%d:%d", fi.Size(), fi.ModTime().UnixNano())
		}
	}
	o.FileStamp = func(p string) (string, bool) { s, ok := stamps[p]; return s, ok }
	first, err := Build(context.Background(), g, o)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := first.Bodies().WriteTo(&buf); err != nil {
		b.Fatal(err)
	}
	first = nil
	start := time.Now()
	saved, err := ReadBodies(buf.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	decode := time.Since(start)
	x := timedBuilds(b, func() (*Index, error) { return BuildFrom(context.Background(), g, o, saved) })
	b.ReportMetric(float64(buf.Len())/(1<<20), "file-mb")
	b.ReportMetric(float64(decode.Microseconds())/1000, "decode-ms")
	b.Logf("terms %d postings %d digest %s; %d of %d files, %d of %d metadata chunks taken", x.stats.Terms, x.stats.Postings, x.digest(),
		x.stats.FilesReused, saved.Files(), x.metaReused.Load(), len(x.metaJobs()))
}

// filePathsOf are the source paths of g's file nodes, sorted.
func filePathsOf(g *graph.Graph) []string {
	x := &Index{g: g, n: g.NumNodes(), files: map[string]graph.NodeID{}, byBase: map[string][]string{}}
	x.indexFiles()
	return x.filePaths
}

// liveHeap is the heap in use after two collections (the second empties
// the sync.Pools the first moved to their victim caches).
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// corpusGraph loads the graph snapshot M1ND_SEEK_GRAPH names, ingested
// from the tree M1ND_SEEK_ROOT, with options reading bodies from that tree
// (the benchmark is skipped without them).
func corpusGraph(b *testing.B) (*graph.Graph, string, Options) {
	gp, root := os.Getenv("M1ND_SEEK_GRAPH"), os.Getenv("M1ND_SEEK_ROOT")
	if gp == "" || root == "" {
		b.Skip("set M1ND_SEEK_GRAPH (a graph snapshot) and M1ND_SEEK_ROOT (its tree)")
	}
	g, err := snapshot.Load(gp)
	if err != nil {
		b.Fatal(err)
	}
	o := DefaultOptions()
	o.ReadFile = func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(root, p)) }
	return g, root, o
}

// timedBuilds runs build b.N times, timed, reporting CPU per build, and
// returns the last index.
func timedBuilds(b *testing.B, build func() (*Index, error)) *Index {
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU()
	var x *Index
	for i := 0; i < b.N; i++ {
		var err error
		if x, err = build(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64((processCPU()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	return x
}

// processCPU is the CPU time (user and system) the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// digest hashes what the index ranks with: vocabulary, postings,
// saturations and file DFs.
func (x *Index) digest() string {
	h := sha256.New()
	terms := x.vocab.strings()
	var buf []byte
	for t, s := range terms {
		buf = append(buf[:0], s...)
		buf = append(buf, 0)
		buf = binary.LittleEndian.AppendUint32(buf, x.fdf[t])
		for k := x.off[t]; k < x.off[t+1]; k++ {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(x.pnode[k]))
			buf = binary.LittleEndian.AppendUint16(buf, x.psat[k])
		}
		h.Write(buf)
	}
	return fmt.Sprintf("%x", h.Sum(nil)[:12])
}
