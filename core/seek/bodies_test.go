package seek

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/core/testcorpus"
)

// TestCollectorBodies: an index built from the documents an ingest cut
// while it read the files (Collector) reads only the files it was not
// given whole, and is the index a build reading every file makes; the
// next build takes the collected documents by their stamps.
func TestCollectorBodies(t *testing.T) {
	files := maps.Clone(fixtureFiles)
	files["assets/logo.bin"] = "PNG\x00\x01binary"
	g, read := fixtureGraphOf(t, files, testcorpus.Entities)
	for _, tc := range []struct {
		name      string
		omit      string // a file not handed to the collector
		drop      string // a file handed without its entities' lines
		wantReads []string
	}{
		{name: "every file whole"},
		{name: "a file the ingest did not read", omit: "backend/auth.py", wantReads: []string{"backend/auth.py"}},
		{name: "a file without its entities", drop: "web/server.go", wantReads: []string{"web/server.go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var reads []string
			o := DefaultOptions()
			o.ReadFile = func(p string) ([]byte, error) { reads = append(reads, p); return read(p) }
			o.FileStamp = func(p string) (string, bool) { return "v1", true }
			o.Parallelism = 1 // reads is not locked
			c := NewCollector(o, nil)
			for p, src := range files {
				if p != tc.omit {
					c.Add(p, "v1", []byte(src), entityLines(g, p, p == tc.drop))
				}
			}
			c.Done()
			x, err := BuildFrom(context.Background(), g, o, c.Bodies(nil))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(reads, tc.wantReads) {
				t.Errorf("files read %v, want %v", reads, tc.wantReads)
			}
			want, err := Build(context.Background(), g, o)
			if err != nil {
				t.Fatal(err)
			}
			if d := sameIndex(want, x); d != "" {
				t.Fatalf("from the collector differs from a read (-read +collected):\n%s", d)
			}
			reads = nil
			next, err := BuildFrom(context.Background(), g, o, x.Bodies())
			if err != nil || len(reads) != 0 || next.Stats().FilesReused != len(files) {
				t.Errorf("next build read %v, reused %d of %d (err %v)", reads, next.Stats().FilesReused, len(files), err)
			}
			// What a copy of the earlier documents lacks: nothing, then
			// the one file whose stamp moved.
			if n, all := next.Bodies().FilesNotIn(x.Bodies()), x.Bodies().FilesNotIn(nil); n != 0 || all != x.Bodies().Files() {
				t.Errorf("FilesNotIn: %d against the same documents, %d of %d against none", n, all, x.Bodies().Files())
			}
			o.FileStamp = func(p string) (string, bool) {
				return map[bool]string{true: "v2", false: "v1"}[p == "backend/auth.py"], true
			}
			moved, err := BuildFrom(context.Background(), g, o, next.Bodies())
			if err != nil || moved.Bodies().FilesNotIn(next.Bodies()) != 1 {
				t.Errorf("one stamp moved: %d files differ (err %v)", moved.Bodies().FilesNotIn(next.Bodies()), err)
			}
		})
	}
}

// TestCollectorKeeps: files held uncut (KeepUpTo) are cut by Bodies (or
// begun by CutBehind, which Bodies waits for), and the index is the one a
// read makes, with no file read; a file past the room ends the holding,
// and the Add that meets it cuts the held ones. Run with -race.
func TestCollectorKeeps(t *testing.T) {
	g, read := fixtureGraphOf(t, fixtureFiles, testcorpus.Entities)
	paths := slices.Sorted(maps.Keys(fixtureFiles))
	var total int64
	for _, p := range paths {
		total += int64(len(fixtureFiles[p]))
	}
	first := int64(len(fixtureFiles[paths[0]]))
	for _, tc := range []struct {
		name     string
		room     int64
		behind   bool // CutBehind before Bodies
		wantKept int  // after every Add, before Bodies
	}{
		{name: "no room: each cut as added", room: 0, wantKept: 0},
		{name: "room for all: all held", room: total, wantKept: len(paths)},
		{name: "room for all, cut behind", room: total, behind: true, wantKept: len(paths)},
		{name: "room for the first: cut by the second's Add", room: first, wantKept: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var reads []string
			o := DefaultOptions()
			o.ReadFile = func(p string) ([]byte, error) { reads = append(reads, p); return read(p) }
			o.FileStamp = func(p string) (string, bool) { return "v1", true }
			o.Parallelism = 1 // reads is not locked
			c := NewCollector(o, nil)
			c.KeepUpTo(tc.room)
			for _, p := range paths {
				c.Add(p, "v1", []byte(fixtureFiles[p]), entityLines(g, p, false))
			}
			c.Done()
			if got := c.Kept(); got != tc.wantKept {
				t.Errorf("%d files held after the Adds, want %d", got, tc.wantKept)
			}
			if tc.behind {
				c.CutBehind()
			}
			x, err := BuildFrom(context.Background(), g, o, c.Bodies(nil))
			if err != nil {
				t.Fatal(err)
			}
			if len(reads) != 0 || c.Kept() != 0 {
				t.Errorf("files read %v, %d still held: want none", reads, c.Kept())
			}
			want, err := Build(context.Background(), g, o)
			if err != nil {
				t.Fatal(err)
			}
			if d := sameIndex(want, x); d != "" {
				t.Fatalf("from the held files differs from a read (-read +collected):\n%s", d)
			}
		})
	}
}

// entityLines are the lines of the entities of file p in g, as an ingest
// hands them to a Collector (none when drop).
func entityLines(g *graph.Graph, p string, drop bool) []Lines {
	var out []Lines
	for _, id := range g.NodesByPath(p) {
		if t := g.Type(id); !drop && t != graph.File && t != graph.Directory {
			pr := g.Provenance(id)
			out = append(out, Lines{pr.LineStart, pr.LineEnd})
		}
	}
	return out
}

// sameIndex compares what two indexes rank with ("" when the same).
func sameIndex(a, b *Index) string {
	sa, sb := a.Stats(), b.Stats()
	sa.Elapsed, sb.Elapsed, sa.FilesReused, sb.FilesReused = 0, 0, 0, 0
	// (labelKeys hash with a seed of each index's own.)
	return cmp.Diff([]any{a.vocab.strings(), a.off, a.pnode, a.psat, a.fdf, a.fileOf, a.prRank, a.kind, sa},
		[]any{b.vocab.strings(), b.off, b.pnode, b.psat, b.fdf, b.fileOf, b.prRank, b.kind, sb})
}

// TestCollectorWideVocabulary: a file of more distinct terms than 16 bits
// number keeps them all (its documents' term IDs are not narrowed).
func TestCollectorWideVocabulary(t *testing.T) {
	var b strings.Builder
	for i := range 70000 {
		b.WriteString("zq")
		for n := i; n > 0 || b.Len()%7 == 2; n /= 26 {
			b.WriteByte(byte('a' + n%26))
		}
		b.WriteByte(" \n"[min(1, i%8/7)])
	}
	files := map[string]string{"big/words.go": b.String()}
	g, read := fixtureGraphOf(t, files, nil)
	o := DefaultOptions()
	o.ReadFile, o.MaxFileBytes, o.MaxFileTerms = read, 0, 0
	o.FileStamp = func(string) (string, bool) { return "v1", true }
	want, err := Build(context.Background(), g, o)
	if err != nil {
		t.Fatal(err)
	}
	if want.Stats().Terms <= 1<<16 {
		t.Fatalf("only %d terms: the test needs more than 65536", want.Stats().Terms)
	}
	c := NewCollector(o, nil)
	c.Add("big/words.go", "v1", []byte(files["big/words.go"]), nil)
	c.Done()
	x, err := BuildFrom(context.Background(), g, o, c.Bodies(nil))
	if err != nil {
		t.Fatal(err)
	}
	// (The digest: a diff of two 70 K-term vocabularies takes seconds.)
	if a, b := want.digest(), x.digest(); a != b || x.Stats().FilesReused != 1 {
		t.Fatalf("reused %d; digest %s from the collector, %s from a read", x.Stats().FilesReused, b, a)
	}
}
