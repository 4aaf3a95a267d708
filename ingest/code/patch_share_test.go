package code

import (
	"context"
	"reflect"
	"runtime"
	"testing"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/cache"
	"github.com/m1nd-go/m1nd/ingest/resolve"
)

// TestPatchSharesRecordsCopyOnWrite: a patch starts from the previous
// run's resolution records themselves, not copies; a file it resolves
// again gets a new record, and the previous run's stay as they were (a
// later reader of either must not see the other's outcomes).
func TestPatchSharesRecordsCopyOnWrite(t *testing.T) {
	repo := newFixtureRepo(t)
	store := cache.Open(t.TempDir())
	defer store.Close()
	req := adapter.Request{Root: repo.Dir, Incremental: true, Cache: store}
	first, err := Ingest(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.KeepAlive(first)
	rc0 := store.Extra(resolveCacheKey).(*resolveCache)
	before := map[string][]resolve.Result{}
	for p, f := range rc0.files {
		before[p] = f.out.unpack()
	}
	// service.py (unchanged) calls util.helper(): renaming the function
	// moves that outcome, so the patch resolves the file again; a file
	// that names no helper keeps its record.
	repo.Write(map[string]string{"app/util.py": "def helper2():\n    return 1\n"})
	out, err := Ingest(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.KeepAlive(out)
	if inc := out.Stats.Incremental; inc == nil || !inc.Patched {
		t.Fatalf("the change was not patched: %+v", inc)
	}
	rc1 := store.Extra(resolveCacheKey).(*resolveCache)
	for p, f := range rc0.files {
		if got := f.out.unpack(); !reflect.DeepEqual(got, before[p]) {
			t.Errorf("%s: the previous run's outcomes changed under the patch:\n got %+v\nwant %+v", p, got, before[p])
		}
	}
	const again = "app/service.py"
	if rc1.files[again] == rc0.files[again] {
		t.Errorf("%s was resolved again but shares the previous record", again)
	}
	if reflect.DeepEqual(rc1.files[again].out.unpack(), before[again]) {
		t.Errorf("%s: outcomes did not move with util.helper gone", again)
	}
	shared := 0
	for p, f := range rc1.files {
		if rc0.files[p] == f {
			shared++
		}
	}
	if shared == 0 {
		t.Error("no record shared with the previous run: every file was copied")
	}
}
