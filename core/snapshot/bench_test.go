package snapshot

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph/graphtest"
)

// BenchmarkSaveLoad compares the JSON and binary snapshot formats on the
// synthetic 10K and 500K graphs (file size reported as MB).
func BenchmarkSaveLoad(b *testing.B) {
	for _, sz := range []struct{ nodes, edges int }{{10_000, 26_000}, {500_000, 1_500_000}} {
		g := graphtest.PowerLaw(sz.nodes, sz.edges, 1)
		dir := b.TempDir()
		for _, format := range []string{"json", "bin"} {
			path := filepath.Join(dir, "graph."+format)
			name := fmt.Sprintf("%dn/%s", sz.nodes, format)
			if err := Save(g, path); err != nil {
				b.Fatal(err)
			}
			b.Run(name+"/save", func(b *testing.B) {
				for b.Loop() {
					if err := Save(g, path); err != nil {
						b.Fatal(err)
					}
				}
				st, _ := os.Stat(path)
				b.ReportMetric(float64(st.Size())/(1<<20), "MB")
			})
			b.Run(name+"/load", func(b *testing.B) {
				for b.Loop() {
					if _, err := Load(path); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkEncodeBinary writes a 500K-node graph's binary snapshot to
// io.Discard: streamed from the graph (the writer) against the copying
// encoder it replaced (raw), time and bytes allocated.
func BenchmarkEncodeBinary(b *testing.B) {
	g := graphtest.PowerLaw(500_000, 1_500_000, 1)
	b.Run("stream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, err := TakeCut(g, nil)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := c.WriteTo(io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("raw", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := encodeViaRaw(g, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
