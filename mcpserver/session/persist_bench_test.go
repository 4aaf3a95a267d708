package session

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/plasticity"
)

// BenchmarkAutoPersist times one auto-persist on a saved runtime directory
// (M1ND_PERSIST_RT, copied first: a go-std or CPython ingest's) after a
// query learned on it: "whole" re-encodes the snapshot as every
// auto-persist did, "learned" writes the learned state alone. MB/op is
// what the save wrote.
func BenchmarkAutoPersist(b *testing.B) {
	src := os.Getenv("M1ND_PERSIST_RT")
	if src == "" {
		b.Skip("set M1ND_PERSIST_RT to a runtime directory with a saved graph")
	}
	for _, kind := range []string{"whole", "learned"} {
		b.Run(kind, func(b *testing.B) {
			dir := b.TempDir()
			if out, err := exec.Command("cp", "-a", src+"/.", dir).CombinedOutput(); err != nil {
				b.Fatal(err, string(out))
			}
			os.Remove(filepath.Join(dir, LockFileName))
			cfg := DefaultConfig()
			cfg.RuntimeDir = dir
			s, err := Open(cfg, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			save := s.Persist
			if kind == "learned" {
				save = s.PersistLearned
			}
			g := s.Current().Graph
			written := 0.0
			b.ResetTimer()
			for i := range b.N {
				q := plasticity.Query{Text: "bench", Seeds: []graph.NodeID{graph.NodeID(i % g.NumNodes())}, Activated: []graph.Scored{{Node: graph.NodeID(i % g.NumNodes()), Score: 1}}}
				if _, err := s.Plasticity.Update(g, q); err != nil {
					b.Fatal(err)
				}
				res, err := save("auto")
				if err != nil || res.LearnedOnly != (kind == "learned") {
					b.Fatalf("%+v, %v", res, err)
				}
				written += savedMB(dir, res.LearnedOnly)
			}
			b.ReportMetric(written/float64(b.N), "MB/op")
		})
	}
}

// savedMB is the size of the files a save writes.
func savedMB(dir string, learnedOnly bool) float64 {
	names := []string{DefaultPlasticityFile, FeedbackFile}
	if !learnedOnly {
		names = append(names, DefaultGraphFile, "roots.json")
	}
	n := int64(0)
	for _, name := range names {
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil {
			n += st.Size()
		}
	}
	return float64(n) / 1e6
}
