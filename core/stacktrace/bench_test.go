package stacktrace

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkParse: a typical trace, and a 1 MiB goroutine dump (the
// largest error_text the trace tool accepts) read with detection.
func BenchmarkParse(b *testing.B) {
	var dump strings.Builder
	dump.WriteString("panic: boom\n\n")
	for i := 0; dump.Len() < 1<<20; i++ {
		fmt.Fprintf(&dump, "goroutine %d [select]:\ngithub.com/acme/svc/worker.(*Pool).loop(0xc000%04d)\n\t/src/svc/worker/pool.go:%d +0x1d\ncreated by github.com/acme/svc/worker.Start in goroutine 1\n\t/src/svc/worker/start.go:9 +0x2a\n\n", i+1, i%10000, 10+i%90)
	}
	for _, tc := range []struct{ name, text string }{
		{"python", pythonCases[2].text},
		{"java", javaCases[0].text},
		{"goroutine-dump-1MiB", dump.String()},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.text)))
			for b.Loop() {
				Parse(tc.text, Auto)
			}
		})
	}
}
