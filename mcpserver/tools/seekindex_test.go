package tools

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/seek"
	"github.com/m1nd-go/m1nd/ingest"
	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/walk"
	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// TestReadUpTo checks the seek index's reader against what it replaced:
// at most n bytes, the whole file when shorter.
func TestReadUpTo(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		size int
		n    int64
	}{
		{"empty", 0, 10},
		{"shorter", 5, 10},
		{"one short", 9, 10},
		{"exactly n", 10, 10},
		{"longer", 25, 10},
		{"much longer", 70000, 4097},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := bytes.Repeat([]byte("abcdefg\n"), tc.size/8+1)[:tc.size]
			p := filepath.Join(dir, tc.name)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, err := walk.ReadOpened(f, tc.n)
			if err != nil {
				t.Fatal(err)
			}
			if want := data[:min(int64(len(data)), tc.n)]; !bytes.Equal(got, want) {
				t.Errorf("read %d bytes, want the first %d", len(got), len(want))
			}
		})
	}
}

// TestSmallIngestKeepsFilesForSeek: a small tree's ingest holds its files
// uncut in its parse workers (seekKeepBytes: the cut leaves the parse's
// side, done behind it and by the index's first build), and that build
// reads no file and answers as an index reading the tree does; without
// room each file is cut as it is read.
func TestSmallIngestKeepsFilesForSeek(t *testing.T) {
	defer func(n int64) { seekKeepBytes = n }(seekKeepBytes)
	for _, tc := range []struct {
		name     string
		keep     int64
		wantHeld bool
	}{
		{"small: held past the parse", 8 << 20, true},
		{"no room: cut as read", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seekKeepBytes = tc.keep
			s, r, jb := buildFixtureJournaled(t, true)
			last := session.Shared(s, seekLastKey, func() *lastSeek { return &lastSeek{} })
			held, parsed := last.fresh.Held(), r.Output().Stats.FilesParsed
			if tc.wantHeld != (held > 0) || tc.wantHeld && held < parsed {
				t.Errorf("%d files held uncut of %d parsed (room %d bytes)", held, parsed, tc.keep)
			}
			x, err := SeekIndex(s, jb.Bundle)
			if err != nil {
				t.Fatal(err)
			}
			if st := x.Stats(); st.FilesRead == 0 || st.FilesReused != st.FilesRead+st.FilesSkipped || last.fresh != nil {
				t.Errorf("files read %d, skipped %d, taken from the ingest %d: want all taken", st.FilesRead, st.FilesSkipped, st.FilesReused)
			}
			o := seek.DefaultOptions()
			o.ReadFile = func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(r.Path, p)) }
			read, err := seek.Build(context.Background(), x.Graph(), o)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{"validate user credentials", "session token store", "router handle login request"} {
				p := seek.Params{TopK: 20, GraphRerank: true}
				if diff := cmp.Diff(read.SearchText(q, p), x.SearchText(q, p)); diff != "" {
					t.Errorf("query %q (-read +held):\n%s", q, diff)
				}
			}
		})
	}
}

// TestSeekFeedCutsAfterTheFilePass: a feed starts cutting its held files
// at enrich, once resolution's parallel file pass is over, not at the
// build (the cut held a core all through the tail, and the file pass's
// second worker waited for it), and starts it once.
func TestSeekFeedCutsAfterTheFilePass(t *testing.T) {
	defer func(f func(*seek.Collector)) { cutBehind = f }(cutBehind)
	var phase adapter.Phase
	var started []adapter.Phase
	cutBehind = func(*seek.Collector) { started = append(started, phase) }
	f := &SeekFeed{c: seek.NewCollector(seek.DefaultOptions(), nil)}
	for _, phase = range []adapter.Phase{adapter.PhaseWalk, adapter.PhaseExtract, adapter.PhaseBuild, adapter.PhaseBuild,
		adapter.PhaseResolve, adapter.PhaseResolve, adapter.PhaseEnrich, adapter.PhaseEnrich, adapter.PhaseFinalize, adapter.PhaseDone} {
		f.progressed(ingest.Progress{Phase: phase})
	}
	if want := []adapter.Phase{adapter.PhaseEnrich}; !slices.Equal(started, want) {
		t.Errorf("the cut started at %v, want %v", started, want)
	}
}
