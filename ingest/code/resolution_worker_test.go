package code

import (
	"context"
	"reflect"
	"runtime"
	"testing"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
)

// TestResolutionMadeInTheParseWorker: a full ingest with a store makes
// each parsed file's resolution record in its parse worker, equal to the
// one resolve's diff made after the build, and diff takes it as is; an
// incremental run makes one for the file it parses again (none for the
// files it reuses) and the patch takes it as is; a run without a store
// (no diff) makes none.
func TestResolutionMadeInTheParseWorker(t *testing.T) {
	for _, tc := range []struct {
		name        string
		store       bool
		incremental bool
		want        bool
	}{
		{"full ingest with a store", true, false, true},
		{"incremental ingest", true, true, true},
		{"no store", false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := newFixtureRepo(t)
			req := adapter.Request{Root: repo.Dir, Incremental: tc.incremental}
			if tc.store {
				store := cache.Open(t.TempDir())
				defer store.Close()
				req.Cache = store
			}
			if tc.incremental {
				// A full ingest first, then one file changed: the run
				// parses it again and patches. The run holds its last
				// graph weakly, as a server holds what it serves: the
				// test holds it too, or a collection in between makes
				// the patch refuse ("previous graph released").
				first, err := Ingest(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				defer runtime.KeepAlive(first)
				repo.Write(map[string]string{"app/util.py": fixture["app/util.py"] + "\n\ndef added():\n    return 1\n"})
			}
			rn := newRun(context.Background(), req)
			if err := rn.walk(); err != nil {
				t.Fatal(err)
			}
			defer rn.unlock()
			rn.history()
			if err := rn.extract(); err != nil {
				t.Fatal(err)
			}
			if rn.incremental != tc.incremental {
				t.Fatalf("incremental %v, want %v", rn.incremental, tc.incremental)
			}
			if tc.incremental {
				checkPatchTakesWorkerResolution(t, rn)
				return
			}
			rn.build()
			if len(rn.included) == 0 {
				t.Fatal("no file included")
			}
			var now map[string]*fileResolution
			if tc.store {
				_, now = (*resolveCache)(nil).diff(rn.wr.Root, rn.included)
			}
			for _, in := range rn.included {
				fr := in.fr
				if got := fr.resolution != nil; got != tc.want {
					t.Fatalf("%s: resolution made in the worker %v, want %v", fr.file.Rel, got, tc.want)
				}
				if !tc.want {
					continue
				}
				if want := newResolution(fr.res, fr.entry.Hash); !reflect.DeepEqual(fr.resolution, want) {
					t.Errorf("%s: worker's resolution %+v, want %+v", fr.file.Rel, fr.resolution, want)
				}
				if now[fr.res.Path] != fr.resolution {
					t.Errorf("%s: diff made its own resolution instead of taking the worker's", fr.file.Rel)
				}
			}
		})
	}
}

// TestFileChunk: forEachFile hands out chunks of at most 64 files and,
// when there are files enough for chunks of 4, at least 16 a core (py-335's 335
// files on two cores: 34 chunks, not 6), and calls fn once an index.
func TestFileChunk(t *testing.T) {
	for _, tc := range []struct{ n, procs int }{
		{0, 2}, {10, 2}, {335, 2}, {335, 1}, {2048, 2}, {5609, 2}, {5609, 8},
	} {
		chunk := fileChunk(tc.n, tc.procs)
		chunks := (tc.n + chunk - 1) / chunk
		if chunk > 64 || chunk < 1 || (tc.n >= 4*16*tc.procs && chunks < 16*tc.procs) {
			t.Errorf("n=%d procs=%d: chunks of %d files, %d chunks", tc.n, tc.procs, chunk, chunks)
		}
		seen := make([]int, tc.n)
		if err := forEachFile(context.Background(), tc.n, func(i int) { seen[i]++ }); err != nil {
			t.Fatal(err)
		}
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("n=%d: index %d visited %d times", tc.n, i, c)
			}
		}
	}
}

// checkPatchTakesWorkerResolution: after an incremental run's extraction
// (one file changed), the parsed file has its record from the worker and
// the reused ones none, and the patch keeps the worker's record as the
// file's resolution state.
func checkPatchTakesWorkerResolution(t *testing.T, rn *run) {
	t.Helper()
	var parsed *fileResult
	for i := range rn.results {
		fr := &rn.results[i]
		if fr.res == nil || fr.reused {
			if fr.resolution != nil {
				t.Errorf("%s: reused, but a resolution was made", fr.file.Rel)
			}
			continue
		}
		if parsed != nil {
			t.Fatalf("%s and %s parsed, want one", parsed.file.Rel, fr.file.Rel)
		}
		parsed = fr
	}
	if parsed == nil || parsed.resolution == nil {
		t.Fatal("the changed file has no resolution made in its worker")
	}
	if want := newResolution(parsed.res, parsed.entry.Hash); !reflect.DeepEqual(parsed.resolution.defs, want.defs) || !reflect.DeepEqual(parsed.resolution.refNames, want.refNames) {
		t.Errorf("worker's resolution %+v, want %+v", parsed.resolution, want)
	}
	out, err := rn.patch()
	if err != nil || out == nil {
		t.Fatalf("patch: %v %v (rebuild: %v)", out, err, rn.rebuild)
	}
	rc, _ := rn.store.Extra(resolveCacheKey).(*resolveCache)
	if rc == nil || rc.files[parsed.file.Rel] != parsed.resolution {
		t.Errorf("the patch made its own resolution for %s instead of taking the worker's", parsed.file.Rel)
	}
}
