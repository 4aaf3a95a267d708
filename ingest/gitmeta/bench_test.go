package gitmeta

import (
	"context"
	"fmt"
	"testing"

	"github.com/m1nd-go/m1nd/ingest/internal/gittest"
)

// BenchmarkRead walks a synthetic packed history: 600 files in 40
// directories, each commit changing three of them.
func BenchmarkRead(b *testing.B) {
	for _, commits := range []int{500, 2000} {
		b.Run(fmt.Sprint(commits), func(b *testing.B) {
			dir := b.TempDir()
			gittest.Synth(b, dir, commits, func(c int) map[string]string {
				ch := map[string]string{}
				if c == 0 {
					for i := range 600 {
						ch[fmt.Sprintf("pkg%02d/sub/file%03d.py", i%40, i)] = "v0"
					}
					return ch
				}
				for k := range 3 {
					i := (c*7 + k*131) % 600
					ch[fmt.Sprintf("pkg%02d/sub/file%03d.py", i%40, i)] = fmt.Sprint("v", c)
				}
				return ch
			})
			b.ResetTimer()
			benchRead(b, dir, commits)
		})
	}
}

func benchRead(b *testing.B, dir string, commits int) {
	for range b.N {
		h, err := Read(context.Background(), dir, Options{MaxCommits: -1})
		if err != nil || h.CommitsRead != commits {
			b.Fatal(err, h.CommitsRead)
		}
	}
}
