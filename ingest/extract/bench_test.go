package extract

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// Corpus benchmarks: extraction throughput against a bare tree-sitter parse
// of the same files with the same parallelism. Build the corpora first with
// `bash ../shared/corpora/corpora.sh py-335 go-std` (M1ND_CORPORA overrides
// /tmp/m1nd-corpora); the benchmarks skip when a corpus is missing.
//
//	go test -run '^$' -bench Corpus -benchtime 3x ./ingest/extract

type corpusFile struct {
	rel string
	src []byte
}

func loadCorpus(b *testing.B, name string) ([]corpusFile, int64) {
	b.Helper()
	root := os.Getenv("M1ND_CORPORA")
	if root == "" {
		root = "/tmp/m1nd-corpora"
	}
	dir := filepath.Join(root, name)
	var files []corpusFile
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files = append(files, corpusFile{filepath.ToSlash(rel), src})
		total += int64(len(src))
		return nil
	})
	if err != nil || len(files) == 0 {
		b.Skipf("corpus %s not available (%v): run corpora.sh", dir, err)
	}
	return files, total
}

// grammarOf returns the grammar a path is parsed with, for the bare-parse
// baseline.
func grammarOf(rel string) *grammar {
	switch e := For(rel).(type) {
	case pythonExtractor:
		return pythonGrammar
	case goExtractor:
		return goGrammar
	case jsExtractor:
		return e.g
	case rustExtractor:
		return rustGrammar
	case javaExtractor:
		return javaGrammar
	case tableExtractor:
		return e.g
	}
	return nil
}

// runParallel processes every file with `workers` goroutines pulling from a
// shared counter, like ingest's bounded extraction.
func runParallel(files []corpusFile, workers int, fn func(corpusFile)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					return
				}
				fn(files[i])
			}
		}()
	}
	wg.Wait()
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkCorpus(b *testing.B) {
	const workers = 2
	for _, corpus := range []string{"py-335", "go-std"} {
		b.Run(corpus, func(b *testing.B) {
			files, total := loadCorpus(b, corpus)
			var nodes, edges atomic.Int64
			modes := []struct {
				name string
				fn   func(corpusFile)
			}{
				{"parse", func(f corpusFile) {
					g := grammarOf(f.rel)
					if g == nil {
						return
					}
					w, err := g.get()
					if err != nil {
						b.Error(err)
						return
					}
					w.parseOnly(f.src)
					g.put(w)
				}},
				{"parse+flatten", func(f corpusFile) {
					if g := grammarOf(f.rel); g != nil {
						if t, err := g.parse(f.src); err == nil {
							t.release()
						}
					}
				}},
				{"extract", func(f corpusFile) {
					r, err := ExtractFile(f.rel, f.src)
					if err != nil {
						b.Error(err)
						return
					}
					nodes.Add(int64(len(r.Nodes)))
					edges.Add(int64(len(r.Edges)))
				}},
			}
			for _, m := range modes {
				b.Run(m.name, func(b *testing.B) {
					b.SetBytes(total)
					c0 := cpuTime()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						runParallel(files, workers, m.fn)
					}
					b.StopTimer()
					sec := b.Elapsed().Seconds() / float64(b.N)
					b.ReportMetric(float64(len(files))/sec, "files/s")
					b.ReportMetric((cpuTime()-c0).Seconds()/float64(b.N), "cpu-s/op")
					if n := nodes.Swap(0); n > 0 {
						b.ReportMetric(float64(n)/float64(b.N), "nodes/op")
						b.ReportMetric(float64(edges.Swap(0))/float64(b.N), "edges/op")
					}
				})
			}
		})
	}
}
