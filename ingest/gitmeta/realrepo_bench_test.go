package gitmeta

import (
	"context"
	"os"
	"testing"
)

// BenchmarkReadRepo reads the whole history of the repository named by
// M1ND_HISTORY_REPO (a work tree or a .git directory's work tree), the
// figure benchmarks/results/history.md records for real repositories:
//
//	M1ND_HISTORY_REPO=/tmp/prometheus go test -run '^$' -bench ReadRepo -benchmem
func BenchmarkReadRepo(b *testing.B) {
	dir := os.Getenv("M1ND_HISTORY_REPO")
	if dir == "" {
		b.Skip("set M1ND_HISTORY_REPO to a repository's work tree")
	}
	bin := gitBinary
	defer func() { gitBinary = bin }()
	for _, rd := range []struct{ name, bin string }{{"git", bin}, {"go-git", ""}} {
		b.Run(rd.name, func(b *testing.B) {
			gitBinary = rd.bin
			for range b.N {
				h, err := Read(context.Background(), dir, Options{})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(h.CommitsRead), "commits")
				b.ReportMetric(float64(len(h.Groups)), "groups")
			}
		})
	}
}
