package cache

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/ingest/extract"
)

func result(path string) *extract.Result {
	return &extract.Result{Path: path, Language: "python", Nodes: []extract.Node{{ID: "file::" + path, Label: path, Type: graph.File, Line: 1, EndLine: 3}},
		Edges: []extract.Edge{{Source: "file::" + path, Target: "ref::x", Relation: "imports", Hint: extract.RefHint{Module: "m"}}}}
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir)
	if err := s.Load(); !errors.Is(err, ErrNoManifest) {
		t.Fatalf("Load on an empty dir: %v", err)
	}
	ha, hb := HashOf([]byte("a")), HashOf([]byte("b"))
	if err := s.Put("a.py", ha, result("a.py")); err != nil {
		t.Fatal(err)
	}
	if err := s.Put("b.py", hb, result("b.py")); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(map[string]Entry{"a.py": {Size: 1, MTimeNS: 5, Hash: ha}, "b.py": {Size: 1, Hash: hb}, "c.bin": {Kind: Binary}}); err != nil {
		t.Fatal(err)
	}

	cold := Open(dir)
	if err := cold.Load(); err != nil {
		t.Fatal(err)
	}
	e, ok := cold.Entry("a.py")
	if !ok || e.MTimeNS != 5 {
		t.Fatalf("entry %+v %v", e, ok)
	}
	r, err := cold.Result("a.py", e)
	if err != nil || !cmp.Equal(r, result("a.py")) {
		t.Fatalf("result %+v %v", r, err)
	}

	// Dropping b.py from the manifest deletes its blob.
	blob := cold.blobPath(key("b.py", hb))
	if _, err := os.Stat(blob); err != nil {
		t.Fatal(err)
	}
	if err := cold.Commit(map[string]Entry{"a.py": e}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(blob); !os.IsNotExist(err) {
		t.Errorf("stale blob kept: %v", err)
	}

	// A corrupt blob is an error, not a panic.
	if err := os.WriteFile(cold.blobPath(key("a.py", ha)), []byte("junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir).Result("a.py", e); err == nil {
		t.Error("corrupt blob decoded")
	}
}

func TestForeignManifest(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "manifest.gob"), []byte("garbage"), 0o644)
	if err := Open(dir).Load(); !errors.Is(err, ErrNoManifest) {
		t.Fatalf("garbage manifest: %v", err)
	}
}

func TestMemoryOnly(t *testing.T) {
	wd, _ := os.Getwd()
	s := Open("")
	h := HashOf([]byte("x"))
	if err := s.Put("x.py", h, result("x.py")); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(map[string]Entry{"x.py": {Hash: h}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Load(); err != nil {
		t.Fatalf("Load after Commit in memory: %v", err)
	}
	if _, err := s.Result("x.py", Entry{Hash: h}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(wd, "results")); !os.IsNotExist(err) {
		t.Error("a memory-only store wrote to the working directory")
	}
	if _, err := os.Stat(filepath.Join(wd, "manifest.gob")); !os.IsNotExist(err) {
		t.Error("a memory-only store wrote a manifest")
	}
}

// TestBoundToItsTree: a manifest written for one tree is refused when the
// store is used for another (a swapped or copied cache directory would
// otherwise be trusted by size and mtime).
func TestBoundToItsTree(t *testing.T) {
	dir := t.TempDir()
	a := Open(dir)
	a.Bind("/repo/a")
	if err := a.Commit(map[string]Entry{}); err != nil {
		t.Fatal(err)
	}
	same := Open(dir)
	same.Bind("/repo/a")
	if err := same.Load(); err != nil {
		t.Errorf("the same tree: %v", err)
	}
	other := Open(dir)
	other.Bind("/repo/b")
	if err := other.Load(); !errors.Is(err, ErrNoManifest) || !strings.Contains(err.Error(), "/repo/a") {
		t.Errorf("another tree: %v, want ErrNoManifest naming /repo/a", err)
	}
}

// A prepared extraction is taken once, by the exact file version it was
// made for; the oldest age out beyond maxPrepared.
func TestPrepared(t *testing.T) {
	s := Open("")
	r := &extract.Result{Path: "a.py"}
	h := HashOf([]byte("x = 1\n"))
	s.Prepare("a.py", h, Prepared{Result: r})
	if _, ok := s.TakePrepared("a.py", HashOf([]byte("x = 2\n"))); ok {
		t.Fatal("taken for other contents")
	}
	if _, ok := s.TakePrepared("b.py", h); ok {
		t.Fatal("taken for another file")
	}
	if p, ok := s.TakePrepared("a.py", h); !ok || p.Result != r {
		t.Fatalf("not taken: %v %v", p, ok)
	}
	if _, ok := s.TakePrepared("a.py", h); ok {
		t.Fatal("taken twice")
	}
	for i := range maxPrepared + 1 {
		s.Prepare(fmt.Sprintf("f%d.py", i), h, Prepared{Result: r})
	}
	if _, ok := s.TakePrepared("f0.py", h); ok {
		t.Fatal("the oldest did not age out")
	}
	if _, ok := s.TakePrepared(fmt.Sprintf("f%d.py", maxPrepared), h); !ok {
		t.Fatal("the newest is gone")
	}
}

// With SetWriteBehind disk writes run behind Put and Commit, in order: a
// result a Commit dropped before its write came up is not written at all,
// and an error of a write surfaces at the next Flush.
func TestDiskWritesBehind(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir)
	s.SetWriteBehind(true)
	ha, hb := HashOf([]byte("a")), HashOf([]byte("b"))
	gate := make(chan struct{})
	s.disk.do(func() error { <-gate; return nil }) // the writes below wait behind it
	if err := s.Put("a.py", ha, result("a.py")); err != nil {
		t.Fatal(err)
	}
	if err := s.Put("b.py", hb, result("b.py")); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(map[string]Entry{"a.py": {Size: 1, Hash: ha}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "manifest.gob")); !os.IsNotExist(err) {
		t.Errorf("the manifest is on disk before the writes ahead of it: %v", err)
	}
	close(gate)
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.blobPath(key("a.py", ha))); err != nil {
		t.Errorf("a.py's blob: %v", err)
	}
	if _, err := os.Stat(s.blobPath(key("b.py", hb))); !os.IsNotExist(err) {
		t.Errorf("b.py's blob, dropped by the Commit: %v, want none", err)
	}

	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := Open(file)
	bad.SetWriteBehind(true)
	if err := bad.Put("a.py", ha, result("a.py")); err != nil {
		t.Fatal(err)
	}
	if err := bad.Flush(); err == nil {
		t.Error("Flush after a write into a file as directory: no error")
	}
	if err := bad.Flush(); err != nil {
		t.Errorf("a second Flush reports the same error again: %v", err)
	}
}

// TestCommitRemembersKeys checks that commits in a row on one store (the
// second and later take their keys from the first) still remove the blob
// of a file whose contents changed and keep every other.
func TestCommitRemembersKeys(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir)
	ha, hb, hb2 := HashOf([]byte("a")), HashOf([]byte("b")), HashOf([]byte("b2"))
	for _, p := range []struct {
		path string
		h    Hash
	}{{"a.py", ha}, {"b.py", hb}} {
		if err := s.Put(p.path, p.h, result(p.path)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Commit(map[string]Entry{"a.py": {Hash: ha}, "b.py": {Hash: hb}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Put("b.py", hb2, result("b.py")); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(map[string]Entry{"a.py": {Hash: ha}, "b.py": {Hash: hb2}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		k    string
		want bool
	}{{key("a.py", ha), true}, {key("b.py", hb), false}, {key("b.py", hb2), true}} {
		if _, err := os.Stat(s.blobPath(c.k)); (err == nil) != c.want {
			t.Errorf("blob %s: exists %v, want %v", c.k, err == nil, c.want)
		}
	}
	// Result finds the committed versions by their remembered keys, and
	// not the replaced one.
	for _, c := range []struct {
		path string
		h    Hash
		want bool
	}{{"a.py", ha, true}, {"b.py", hb2, true}, {"b.py", hb, false}} {
		if r, err := s.Result(c.path, Entry{Hash: c.h}); (err == nil && r != nil) != c.want {
			t.Errorf("Result(%s at %x): %v, %v; want found %v", c.path, c.h[:4], r, err, c.want)
		}
	}
}

// TestGoBuildID checks the build ID read for Version against the go
// command's own reading, and that a file without one gives "".
func TestGoBuildID(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	if runtime.GOOS == "linux" {
		want, err := exec.Command("go", "tool", "buildid", exe).Output()
		if err != nil {
			t.Skipf("go tool buildid: %v", err)
		}
		if got := goBuildID(exe); got != strings.TrimSpace(string(want)) {
			t.Errorf("goBuildID(test binary) = %q, want %q", got, want)
		}
	}
	other := filepath.Join(t.TempDir(), "not-elf")
	if err := os.WriteFile(other, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := goBuildID(other); got != "" {
		t.Errorf("goBuildID(shell script) = %q, want \"\"", got)
	}
	if v := Version(); !strings.HasPrefix(v, "schema") || v != Version() {
		t.Errorf("Version() = %q: want a stable schema-prefixed key", v)
	}
}

// Commit keeps exactly the results of live keys, whatever was put,
// loaded or committed before: random rounds of puts and commits over a
// few paths and versions, checked against the live keys each time.
func TestCommitKeepsLiveResults(t *testing.T) {
	s := Open("")
	rng := rand.New(rand.NewPCG(1, 2))
	paths := []string{"a.go", "b.go", "c.go", "d.go"}
	hashes := []Hash{HashOf([]byte("1")), HashOf([]byte("2")), HashOf([]byte("3"))}
	for round := range 200 {
		before := maps.Clone(s.results)
		entries := map[string]Entry{}
		for _, p := range paths {
			h := hashes[rng.IntN(len(hashes))]
			switch rng.IntN(4) {
			case 0: // gone
				continue
			case 1: // binary: no result
				entries[p] = Entry{Kind: Binary}
				continue
			}
			if rng.IntN(2) == 0 {
				s.Put(p, h, result(p))
				before[key(p, h)] = nil // wanted after the commit
			}
			entries[p] = Entry{Hash: h}
		}
		s.Put(paths[rng.IntN(len(paths))], hashes[rng.IntN(len(hashes))], result("x")) // perhaps not committed
		s.Commit(entries)
		for k := range s.results {
			live := false
			for p, e := range entries {
				live = live || (e.Kind == Text && key(p, e.Hash) == k)
			}
			if !live {
				t.Fatalf("round %d: result %s kept, no entry has it", round, k)
			}
		}
		for p, e := range entries {
			if _, had := before[key(p, e.Hash)]; had && e.Kind == Text && s.results[key(p, e.Hash)] == nil {
				t.Fatalf("round %d: the result of %s at %x was dropped, and it is live", round, p, e.Hash[:4])
			}
			if hk, ok := s.keys[p]; e.Kind == Text && (!ok || hk != (hashKey{e.Hash, key(p, e.Hash)})) {
				t.Fatalf("round %d: key of %s is %+v, want that of %x", round, p, hk, e.Hash[:4])
			}
		}
		if len(s.keys) > len(entries) {
			t.Fatalf("round %d: %d keys for %d entries", round, len(s.keys), len(entries))
		}
	}
}

// TestSpillsOnceWritten checks that a store writing behind keeps a result
// in memory only until its blob is on disk (a server's store held every
// file's extraction between ingests), that Result still returns it, read
// back without being kept, and that a store without a directory keeps
// everything.
func TestSpillsOnceWritten(t *testing.T) {
	s := Open(t.TempDir())
	s.SetWriteBehind(true)
	if !s.Spills() {
		t.Fatal("a store with a directory writing behind does not spill")
	}
	h := HashOf([]byte("a"))
	gate := make(chan struct{})
	s.disk.do(func() error { <-gate; return nil })
	if err := s.Put("a.py", h, result("a.py")); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(map[string]Entry{"a.py": {Size: 1, Hash: h}}); err != nil {
		t.Fatal(err)
	}
	e, _ := s.Entry("a.py")
	if got, err := s.Result("a.py", e); err != nil || got.Path != "a.py" {
		t.Fatalf("before its blob is written: %v, %v", got, err)
	}
	close(gate)
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if n := len(s.results); n != 0 {
		t.Errorf("%d results held in memory once written, want 0", n)
	}
	if !s.Has("a.py", e) {
		t.Error("Has: false for a spilled result")
	}
	got, err := s.Result("a.py", e)
	if err != nil || !cmp.Equal(got, result("a.py")) {
		t.Fatalf("read back: %v, %v", got, err)
	}
	if n := len(s.results); n != 0 {
		t.Errorf("a result read back is kept (%d in memory)", n)
	}

	mem := Open("")
	mem.SetWriteBehind(true)
	if mem.Spills() {
		t.Error("a memory-only store spills")
	}
}

// TestHoldWrites checks that writes queued under HoldWrites wait until
// every hold is released, or until the results put under a hold outgrow
// its room, or a Flush asks for them; and that Flush writes what is held.
func TestHoldWrites(t *testing.T) {
	// Each result() is one node and one edge: 2 elements.
	type step struct {
		do   string // "put a.py", "hold 0", "release 0", "flush"
		held bool   // after the step: queued writes wait
	}
	cases := []struct {
		name  string
		room  []int // one HoldWrites per room, in order
		steps []step
	}{
		{"held until released", []int{100}, []step{{"put a.py", true}, {"put b.py", true}, {"release 0", false}}},
		{"room overdrawn", []int{3}, []step{{"put a.py", true}, {"put b.py", false}, {"put c.py", false}}},
		{"nested holds", []int{100, 100}, []step{{"put a.py", true}, {"release 0", true}, {"release 0", true}, {"put b.py", true}, {"release 1", false}}},
		{"flush writes what is held", []int{100}, []step{{"put a.py", true}, {"flush", true}, {"put b.py", true}, {"release 0", false}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := Open(t.TempDir())
			s.SetWriteBehind(true)
			var release []func()
			for _, n := range c.room {
				release = append(release, s.HoldWrites(n))
			}
			for _, st := range c.steps {
				verb, arg, _ := strings.Cut(st.do, " ")
				switch verb {
				case "put":
					if err := s.Put(arg, HashOf([]byte(arg)), result(arg)); err != nil {
						t.Fatal(err)
					}
				case "release":
					var i int
					fmt.Sscan(arg, &i)
					release[i]()
				case "flush":
					if err := s.Flush(); err != nil {
						t.Fatal(err)
					}
				}
				s.disk.mu.Lock()
				queued, running, holds, free := len(s.disk.ops), s.disk.running, s.disk.holds, s.disk.free()
				s.disk.mu.Unlock()
				stuck := queued > 0 && !running // queued writes nobody runs
				if st.held && (free || running) {
					t.Fatalf("after %q: writes not held (queued %d, running %v)", st.do, queued, running)
				}
				if !st.held && (stuck || !free) {
					t.Fatalf("after %q: writes still held (queued %d, holds %d)", st.do, queued, holds)
				}
				if verb == "flush" && queued != 0 {
					t.Fatalf("after %q: %d writes queued, want 0", st.do, queued)
				}
			}
			if err := s.Flush(); err != nil {
				t.Fatal(err)
			}
			for _, st := range c.steps {
				if verb, arg, _ := strings.Cut(st.do, " "); verb == "put" {
					if _, err := os.Stat(s.blobPath(key(arg, HashOf([]byte(arg))))); err != nil {
						t.Errorf("%s's blob after the last Flush: %v", arg, err)
					}
				}
			}
		})
	}
}
