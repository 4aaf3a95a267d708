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
		if !slices.Equal(got.vocab(), want.vocab()) {
			t.Errorf("%.20q: vocabularies differ", data)
		}
	}
}

// TestSharedTableMatchesFresh checks that a worker's shard writer, kept
// across shards (its term table and identifier memo warm from earlier
// files), writes each shard as a fresh writer would: same local IDs, same
// vocabulary order.
func TestSharedTableMatchesFresh(t *testing.T) {
	texts := []string{
		"func handleRequest(ctx context.Context) error { return parseHTTPHeader(ctx) }\n",
		"// readBody reads the body\nfunc readBody(r io.Reader) ([]byte, error) { return io.ReadAll(r) }\n",
		"type Context interface{ Done() <-chan struct{} }\nvar ErrShortBody = errors.New(\"short\")\n",
		"a3f9c2e1b4d5a6f7e8d9c0b1a2f3e4d5 md5Sum x_y_z HTTPServer2 handleRequest\n",
	}
	shared := newShardWriter()
	defer shared.release()
	for round := 0; round < 3; round++ { // later rounds hit the memo only
		for _, text := range texts {
			shared.start()
			gotToks, gotOff, _ := shared.lines([]byte(text))
			gotN := shared.text(text)
			shared.close(1, Doc, gotN, 0)

			fresh := newShardWriter()
			wantToks, wantOff, _ := fresh.lines([]byte(text))
			wantN := fresh.text(text)
			fresh.close(1, Doc, wantN, 0)
			wantVocab := fresh.vocab()
			fresh.release()
			if !slices.Equal(gotToks, wantToks) || !slices.Equal(gotOff, wantOff) || gotN != wantN {
				t.Errorf("round %d %.20q: terms differ with a shared table", round, text)
			}
			if !slices.Equal(shared.s.terms, fresh.s.terms) || !slices.Equal(shared.s.tfs, fresh.s.tfs) {
				t.Errorf("round %d %.20q: documents differ with a shared table", round, text)
			}
			if !slices.Equal(shared.vocab(), wantVocab) {
				t.Errorf("round %d %.20q: vocabulary %q, want %q", round, text, shared.vocab(), wantVocab)
			}
		}
	}
}

// vocab is the open shard's vocabulary as strings, by local ID.
func (w *shardWriter) vocab() []string {
	out := make([]string, len(w.wids))
	for i, wid := range w.wids {
		out[i] = w.terms.strs[wid]
	}
	return out
}
