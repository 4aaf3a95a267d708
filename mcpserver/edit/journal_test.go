package edit

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/pathguard"
)

// tree is a repository for batch tests: a few files with distinct modes
// and line endings.
func tree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]struct {
		body string
		mode fs.FileMode
	}{
		"a.go":         {"package a\n\nfunc A() int { return 1 }\n", 0o644},
		"b/b.py":       {"def b():\r\n    return 2\r\n", 0o600},
		"run.sh":       {"#!/bin/sh\necho hi\n", 0o755},
		"c/d/keep.txt": {"keep", 0o640},
	}
	for rel, f := range files {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(f.body), f.mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, f.mode)
	}
	return dir
}

// snapshot lists every file under dir with its mode and contents, and
// every directory.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		fi, _ := d.Info()
		if d.IsDir() {
			out[rel+"/"] = "dir"
			return nil
		}
		data, _ := os.ReadFile(p)
		out[rel] = fmt.Sprintf("%v %q", fi.Mode(), data)
		return nil
	})
	return out
}

// batch is the edits of the batch tests: a modification keeping CRLF, a
// new file in new directories, a mode-preserving rewrite, an unchanged
// file.
func batch() []Edit {
	return []Edit{
		{Path: "a.go", Content: []byte("package a\n\nfunc A() int { return 42 }\n")},
		{Path: "b/b.py", Content: []byte("def b():\n    return 3\n")},
		{Path: "new/deep/n.go", Content: []byte("package deep\n")},
		{Path: "run.sh", Content: []byte("#!/bin/sh\necho bye\n")},
		{Path: "c/d/keep.txt", Content: []byte("keep")},
	}
}

func openStore(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := OpenStore(dir, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// applied applies the test batch to root through s; an error fails the test.
func applied(t *testing.T, s *Store, root string) *Txn {
	t.Helper()
	tx, err := s.Apply(context.Background(), NewBatchID(), validated(t, root), nil)
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

func validated(t *testing.T, root string) []*Target {
	t.Helper()
	ts, err := Validate(pathguard.New(root), batch())
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// treeIs fails the test when dir's snapshot is not want.
func treeIs(t *testing.T, dir string, want map[string]string) {
	t.Helper()
	if d := cmp.Diff(want, snapshot(t, dir)); d != "" {
		t.Fatal(d)
	}
}

func storeEmpty(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if len(names) > 0 {
		t.Fatalf("journal directory not empty: %v", names)
	}
}

func TestApplyCommitRollback(t *testing.T) {
	t.Parallel()
	root, jdir := tree(t), t.TempDir()
	before := snapshot(t, root)
	s := openStore(t, jdir)
	tx := applied(t, s, root)
	if tx.Written != 4 {
		t.Errorf("written %d, want 4 (one edit is unchanged)", tx.Written)
	}
	after := snapshot(t, root)
	want := map[string]string{
		"a.go":          `-rw-r--r-- "package a\n\nfunc A() int { return 42 }\n"`,
		"b/b.py":        `-rw------- "def b():\r\n    return 3\r\n"`,
		"new/deep/n.go": `-rw-r--r-- "package deep\n"`,
		"run.sh":        `-rwxr-xr-x "#!/bin/sh\necho bye\n"`,
		"new/":          "dir", "new/deep/": "dir",
	}
	for k, v := range want {
		if after[k] != v {
			t.Errorf("%s after the write: %s, want %s", k, after[k], v)
		}
	}
	if _, err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(before, snapshot(t, root)); d != "" {
		t.Fatalf("rollback did not restore the tree byte for byte (-before +after):\n%s", d)
	}
	storeEmpty(t, jdir)

	if err := applied(t, s, root).Commit(); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(after, snapshot(t, root)); d != "" {
		t.Fatalf("commit changed the written tree:\n%s", d)
	}
	storeEmpty(t, jdir)
}

// steps records every failure point a batch passes through, with a
// rollback after the write.
func steps(t *testing.T) []string {
	root := tree(t)
	s := openStore(t, t.TempDir())
	var seen []string
	s.SetFail(func(step string, i int) error {
		seen = append(seen, fmt.Sprintf("%s/%d", step, i))
		return nil
	})
	tx := applied(t, s, root)
	if _, err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	return seen
}

// TestCrashAtEveryStep kills a batch at each point it passes — while
// saving old contents, writing the journal, writing temps, between and
// after renames, before the commit, in the middle of a rollback — then
// recovers as the next process would: the tree is exactly as before the
// batch, with no temp file and no journal left.
func TestCrashAtEveryStep(t *testing.T) {
	t.Parallel()
	all := steps(t)
	if len(all) < 15 {
		t.Fatalf("only %d failure points: %v", len(all), all)
	}
	for k, at := range all {
		t.Run(at, func(t *testing.T) {
			root, jdir := tree(t), t.TempDir()
			before := snapshot(t, root)
			s := openStore(t, jdir)
			n := 0
			s.SetFail(func(step string, i int) error {
				if n++; n-1 == k {
					return ErrCrash
				}
				return nil
			})
			tx, err := s.Apply(context.Background(), NewBatchID(), validated(t, root), nil)
			if err == nil {
				_, err = tx.Rollback()
			}
			if !errors.Is(err, ErrCrash) {
				t.Fatalf("the crash at %s did not happen: %v", at, err)
			}
			got := openStore(t, jdir).Recover()
			if d := cmp.Diff(before, snapshot(t, root)); d != "" {
				t.Fatalf("after a crash at %s and recovery the tree differs (-before +after):\n%s", at, d)
			}
			storeEmpty(t, jdir)
			if strings.HasPrefix(at, "backup") && len(got) != 0 {
				t.Errorf("a crash before the journal reported %d recovered batches", len(got))
			}
		})
	}
}

// TestCrashAfterCommitKeepsNew: once committed, a batch is new on disk
// and nothing rolls it back.
func TestCrashAfterCommitKeepsNew(t *testing.T) {
	t.Parallel()
	root, jdir := tree(t), t.TempDir()
	s := openStore(t, jdir)
	tx := applied(t, s, root)
	tx.Commit()
	after := snapshot(t, root)
	if r := openStore(t, jdir).Recover(); len(r) != 0 {
		t.Fatalf("recovered %v after a commit", r)
	}
	treeIs(t, root, after)
}

// TestFailureAtEveryStepRollsBack: an ordinary error (disk full, say) at
// any step of Apply restores the tree before Apply returns.
func TestFailureAtEveryStepRollsBack(t *testing.T) {
	t.Parallel()
	for k, at := range steps(t) {
		if strings.HasPrefix(at, "restore") || at == "commit/0" {
			continue
		}
		root, jdir := tree(t), t.TempDir()
		before := snapshot(t, root)
		s := openStore(t, jdir)
		n := 0
		boom := errors.New("no space left on device")
		s.SetFail(func(step string, i int) error {
			if n++; n-1 == k {
				return boom
			}
			return nil
		})
		if _, err := s.Apply(context.Background(), NewBatchID(), validated(t, root), nil); !errors.Is(err, boom) {
			t.Fatalf("%s: err %v", at, err)
		}
		if d := cmp.Diff(before, snapshot(t, root)); d != "" {
			t.Fatalf("failure at %s left the tree changed:\n%s", at, d)
		}
		storeEmpty(t, jdir)
	}
}

func TestCancelBeforeNextFileRestores(t *testing.T) {
	t.Parallel()
	root, jdir := tree(t), t.TempDir()
	before := snapshot(t, root)
	ctx, cancel := context.WithCancel(context.Background())
	s := openStore(t, jdir)
	_, err := s.Apply(ctx, NewBatchID(), validated(t, root), func(i int) { cancel() })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want cancellation", err)
	}
	treeIs(t, root, before)
	storeEmpty(t, jdir)
}

// TestRecoverLeavesLiveBatches: a batch whose process holds its lock is
// never rolled back by another recovering process.
func TestRecoverLeavesLiveBatches(t *testing.T) {
	t.Parallel()
	root, jdir := tree(t), t.TempDir()
	s := openStore(t, jdir)
	tx := applied(t, s, root)
	after := snapshot(t, root)
	if r := openStore(t, jdir).Recover(); len(r) != 0 {
		t.Fatalf("recovered a live batch: %v", r)
	}
	treeIs(t, root, after)
	tx.Commit()
}

// TestRollbackLeavesForeignChanges: a file someone else changed after
// the write is left alone and reported; the old contents stay aside.
func TestRollbackLeavesForeignChanges(t *testing.T) {
	t.Parallel()
	root, jdir := tree(t), t.TempDir()
	s := openStore(t, jdir)
	tx := applied(t, s, root)
	os.WriteFile(filepath.Join(root, "a.go"), []byte("someone else"), 0o644)
	conflicts, err := tx.Rollback()
	if err != nil || len(conflicts) != 1 || !strings.HasSuffix(conflicts[0].Path, "a.go") {
		t.Fatalf("conflicts %v, err %v", conflicts, err)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "a.go")); string(data) != "someone else" {
		t.Errorf("a foreign change was overwritten: %q", data)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "run.sh")); string(data) != "#!/bin/sh\necho hi\n" {
		t.Errorf("run.sh not restored: %q", data)
	}
	ents, _ := os.ReadDir(jdir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	if len(names) != 1 || !strings.HasSuffix(names[0], ".conflict") {
		t.Errorf("journal directory %v, want the batch kept aside", names)
	}
}

// TestCrashAtCommit: a batch killed before its journal is dropped was
// never acknowledged, and is rolled back entirely.
func TestCrashAtCommit(t *testing.T) {
	t.Parallel()
	root, jdir := tree(t), t.TempDir()
	before := snapshot(t, root)
	s := openStore(t, jdir)
	s.SetFail(func(step string, i int) error {
		if step == "commit" {
			return ErrCrash
		}
		return nil
	})
	tx := applied(t, s, root)
	if err := tx.Commit(); !errors.Is(err, ErrCrash) {
		t.Fatal(err)
	}
	if r := openStore(t, jdir).Recover(); len(r) != 1 || len(r[0].Files) != 4 {
		t.Fatalf("recovered %+v, want one batch of 4 files", r)
	}
	treeIs(t, root, before)
	storeEmpty(t, jdir)
}

// TestTornJournalIsDropped: a journal cut short by a crash while it was
// written (before any temp file existed) is dropped; the tree is as it was.
func TestTornJournalIsDropped(t *testing.T) {
	t.Parallel()
	root, jdir := tree(t), t.TempDir()
	before := snapshot(t, root)
	id := NewBatchID()
	os.WriteFile(filepath.Join(jdir, id+".journal"), []byte(`{"m1nd_edit_journal":1,"batch_id":"`+id+`","entries":[{"root":"`), 0o600)
	os.WriteFile(filepath.Join(jdir, id+".lock"), nil, 0o600)
	if r := openStore(t, jdir).Recover(); len(r) != 0 {
		t.Fatalf("recovered %v from a torn journal", r)
	}
	treeIs(t, root, before)
	storeEmpty(t, jdir)
}

// TestTwoWritersOneFile: two writers with their own stores — two servers,
// each with its own in-process lock — write one file from the same base
// hash, round after round. In every round exactly one write is
// acknowledged; the other is refused as stale, never acknowledged and
// overwritten. New files in new directories are raced the same way.
func TestTwoWritersOneFile(t *testing.T) {
	t.Parallel()
	root := tree(t)
	g := pathguard.New(root)
	stores := make([]*Store, 2)
	for i := range stores {
		st, err := OpenStore(filepath.Join(t.TempDir(), "edits"), t.Logf)
		if err != nil {
			t.Fatal(err)
		}
		stores[i] = st
	}
	rounds := 200
	if testing.Short() {
		rounds = 50
	}
	for r := range rounds {
		rel, base := "a.go", ""
		if r%4 == 3 {
			rel, base = fmt.Sprintf("new%d/x/y.go", r), "absent"
		} else {
			old, _ := os.ReadFile(filepath.Join(root, rel))
			base = SHA256(old)
		}
		var targets [2][]*Target
		for w := range 2 {
			ts, err := Validate(g, []Edit{{Path: rel, Content: []byte(fmt.Sprintf("round %d writer %d\n", r, w)), ExpectedSHA256: base}})
			if err != nil {
				t.Fatalf("round %d: validate: %v", r, err)
			}
			targets[w] = ts
		}
		errs := make(chan error, 2)
		for w := range 2 {
			go func() {
				txn, err := stores[w].Apply(context.Background(), NewBatchID(), targets[w], nil)
				if err == nil {
					err = txn.Commit()
				}
				errs <- err
			}()
		}
		ok, stale := 0, 0
		for range 2 {
			switch err := <-errs; {
			case err == nil:
				ok++
			case errors.Is(err, ErrStale):
				stale++
			default:
				t.Fatalf("round %d: %v", r, err)
			}
		}
		if ok != 1 || stale != 1 {
			t.Fatalf("round %d (%s): %d writes acknowledged, %d refused as stale; want exactly one of each", r, rel, ok, stale)
		}
	}
}

// TestRecoverBesideForkingProcesses: a child forked by any goroutine
// shares the crashed batch's lock until it execs, so a lock just closed
// can look held; recovery must still take the batch back (a CI flake
// left a rolled-back-halfway tree when it gave up at once, and later
// under -race after the quarter second other processes' locks get). The
// recovering store asks other processes' locks once: only its knowing
// the batch was this process's own makes it wait for the children.
func TestRecoverBesideForkingProcesses(t *testing.T) {
	t.Parallel()
	needTool(t, "true", "no true(1)")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() { close(stop); wg.Wait() }()
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					exec.Command("true").Run()
				}
			}
		}()
	}
	for trial := range 30 {
		root, jdir := tree(t), t.TempDir()
		before := snapshot(t, root)
		s := openStore(t, jdir)
		s.SetFail(func(step string, i int) error {
			if step == "restore" && i == 1 {
				return ErrCrash
			}
			return nil
		})
		tx := applied(t, s, root)
		if _, err := tx.Rollback(); !errors.Is(err, ErrCrash) {
			t.Fatalf("trial %d: the crash did not happen: %v", trial, err)
		}
		r := openStore(t, jdir)
		r.Impatient()
		if got := r.Recover(); len(got) != 1 {
			t.Fatalf("trial %d: recovered %d batches, want 1", trial, len(got))
		}
		if d := cmp.Diff(before, snapshot(t, root)); d != "" {
			t.Fatalf("trial %d: the tree differs after recovery (-before +after):\n%s", trial, d)
		}
		storeEmpty(t, jdir)
	}
}

// TestLockSweptBeforeFlock: another server's Recover sweeps a batch's
// lock file in the instant between its creation and its flock (it looks
// like a dead batch's then: CI saw this between test binaries sharing the
// default store). The batch retries with a fresh lock and writes; before,
// it failed with "was removed by another process".
func TestLockSweptBeforeFlock(t *testing.T) {
	t.Parallel()
	for _, sweeps := range []int{1, 3} {
		t.Run(fmt.Sprint(sweeps), func(t *testing.T) {
			root, jdir := tree(t), t.TempDir()
			s, other := openStore(t, jdir), openStore(t, jdir)
			left := sweeps
			s.OnLockMade(func(name string) {
				if left == 0 {
					return
				}
				left--
				other.Recover()
				if _, err := os.Stat(name); !errors.Is(err, fs.ErrNotExist) {
					t.Fatalf("the other store's sweep left %s: %v", name, err)
				}
			})
			if err := applied(t, s, root).Commit(); err != nil {
				t.Fatal(err)
			}
			if left != 0 {
				t.Fatalf("%d sweeps not run", left)
			}
			storeEmpty(t, jdir)
		})
	}
}
