package seek

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestLinesMatchesPerOccurrence checks the body scan (lines, with its
// identifier memo, grown past its first size) against tokenising every
// identifier occurrence on its own.
func TestLinesMatchesPerOccurrence(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "func handle%dRequest(ctx) { parseHTTPHeader_%d(x) } // see readBody%d\n", i%1700, i%37, i%900)
	}
	for _, data := range []string{"", "\n", "a\n\nb", "fooBar baz\n", b.String(), b.String() + "tailIdent"} {
		got := newShardWriter()
		toks, lineOff, lineStart := got.lines([]byte(data))

		want := newShardWriter()
		var wantToks, wantOff []uint32
		var wantStart []int
		wantOff = append(wantOff, 0)
		off := 0
		for _, line := range strings.Split(data, "\n") {
			wantStart = append(wantStart, off)
			forEachIdent([]byte(line), func(id []byte) {
				want.tok.ident(id, func(term []byte) { wantToks = append(wantToks, want.id(term)) })
			})
			wantOff = append(wantOff, uint32(len(wantToks)))
			off += len(line) + 1
		}
		if !slices.Equal(toks, wantToks) || !slices.Equal(lineOff, wantOff) || !slices.Equal(lineStart, wantStart) {
			t.Errorf("%.20q: lines differ from per-occurrence tokenising (%d vs %d terms, %d vs %d lines)", data, len(toks), len(wantToks), len(lineOff), len(wantOff))
		}
		if !slices.Equal(got.s.vocab, want.s.vocab) {
			t.Errorf("%.20q: vocabularies differ", data)
		}
	}
}
